/// A block of memory one rendered frame is written into and encoded from (reused from frame to
/// frame through a pool, so rendering allocates nothing per frame).
final class PixelStore: @unchecked Sendable {
    let bytes: UnsafeMutableRawPointer
    let rowBytes: Int
    let height: Int
    /// The frame the store holds now.
    var frame = 0
    var pts: Int64 = 0
    var seconds = 0.0

    init(rowBytes: Int, height: Int) {
        self.rowBytes = rowBytes
        self.height = height
        bytes = UnsafeMutableRawPointer.allocate(byteCount: max(rowBytes * height, 1), alignment: 64)
    }

    deinit { bytes.deallocate() }
}
