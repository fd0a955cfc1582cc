import Synchronization

/// How far a render has come, readable from another thread (for progress lines): output pixels
/// written so far out of the render's total.
public final class RenderProgress: Sendable {
    /// Output pixels of the render and how many are written.
    private let expectedPixels = Atomic<Int>(0)
    private let finishedPixels = Atomic<Int>(0)
    private let cancelled = Atomic<Bool>(false)

    /// A counter at zero; pass it to a render and read it from another thread.
    public init() {}

    /// The fraction done, 0...1.
    public var fraction: Double {
        let expected = expectedPixels.load(ordering: .relaxed)
        guard expected > 0 else { return 0 }
        return min(1, Double(finishedPixels.load(ordering: .relaxed)) / Double(expected))
    }

    /// Asks the render to stop: the work units not started yet are skipped and the render throws
    /// ``/GraphCore/GraphError/renderFailed(_:)`` ("render cancelled"). Safe from any thread; image processors
    /// already running (a whole-image pass) finish first.
    public func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Throws when the render was cancelled.
    func checkCancelled() throws {
        if isCancelled { throw GraphError.renderFailed("render cancelled") }
    }

    package func expect(pixels: Int) { expectedPixels.store(pixels, ordering: .relaxed) }

    package func finished(pixels: Int) { finishedPixels.add(pixels, ordering: .relaxed) }

    /// Counts from zero again (a render that starts over: a PNG rewritten with alpha).
    package func restart(expecting pixels: Int) {
        expectedPixels.store(pixels, ordering: .relaxed)
        finishedPixels.store(0, ordering: .relaxed)
    }
}
