import Foundation

/// Per-stage figures gathered during a render (for profiles and dumps): time, work units, pixels
/// and the largest intermediate each stage wrote.
package final class StageTimings: @unchecked Sendable {
    private let lock = NSLock()
    package private(set) var nanoseconds: [UInt64]
    package private(set) var units: [Int]
    package private(set) var pixels: [Int]
    package private(set) var peakBytes: [Int]
    package init(count: Int) {
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
