/// Figures from one render: per program, the work units, time, throughput and intermediate bytes
/// (the `timing` dump shows them: `Context.dumpWithProfile(_:rect:format:colorSpace:)`).
public struct RenderProfile: Sendable {
    package let plan: Plan
    package let timings: StageTimings
    /// The renders of the intermediates computed before the work units, by stage index.
    package var intermediates: [Int: RenderProfile] = [:]
    /// Wall time of the whole render, planning included.
    public let totalNanoseconds: UInt64
}
