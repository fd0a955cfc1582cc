import Foundation

/// Per-stage figures gathered during a render (for profiles and dumps): time, work units, pixels
/// and the largest intermediate each stage wrote.
final class StageTimings: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var nanoseconds: [UInt64]
    private(set) var units: [Int]
    private(set) var pixels: [Int]
    private(set) var peakBytes: [Int]
    init(count: Int) {
        nanoseconds = Array(repeating: 0, count: count)
        units = Array(repeating: 0, count: count)
        pixels = Array(repeating: 0, count: count)
        peakBytes = Array(repeating: 0, count: count)
    }
    func add(stage: Int, nanoseconds ns: UInt64, pixels px: Int, bytes: Int) {
        lock.lock()
        nanoseconds[stage] += ns
        units[stage] += 1
        pixels[stage] += px
        peakBytes[stage] = max(peakBytes[stage], bytes)
        lock.unlock()
    }
}
