import Dispatch

/// A raw address handed to the threads of a parallel copy (each writes rows of its own).
struct SendableAddress: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
    init(_ pointer: UnsafeMutableRawPointer) { self.pointer = pointer }
}

/// Copies of caller memory into engine buffers, rows spread over the cores (a 24 MP float image is
/// 300-400 MB: one thread copies it at a fraction of the memory bandwidth).
enum RowCopy {
    /// Calls `body` for each row `0 ..< count`, in bands of rows on every core.
    static func rows(_ count: Int, _ body: @Sendable (Int) -> Void) {
        let bands = min(count, 64)
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            for row in (band * count / bands) ..< ((band + 1) * count / bands) { body(row) }
        }
    }

}
