/// Float32 premultiplied RGBA in four planes over a pixel rectangle: how image processors see
/// their inputs and write their output.
///
/// Rows run bottom-up in working space: row 0 is `y == self.y`.
package final class PlanarBuffer: @unchecked Sendable {
    package let x: Int, y: Int, width: Int, height: Int
    /// Channel planes R, G, B, A, each `width * height` floats.
    package let planes: [UnsafeMutablePointer<Float>]

    init(rect: PixelRect) {
        x = rect.x; y = rect.y; width = rect.width; height = rect.height
        let count = max(rect.pixelCount, 1)
        planes = (0..<4).map { _ in
            let plane = UnsafeMutablePointer<Float>.allocate(capacity: count)
            plane.initialize(repeating: 0, count: count)
            return plane
        }
    }

    deinit { for plane in planes { plane.deallocate() } }

    var rect: PixelRect { PixelRect(x: x, y: y, width: width, height: height) }

    /// The value of channel `c` at working-space pixel (`px`, `py`); 0 outside.
    package func value(channel c: Int, x px: Int, y py: Int) -> Float {
        let col = px - x, row = py - y
        guard col >= 0, col < width, row >= 0, row < height else { return 0 }
        return planes[c][row * width + col]
    }

    /// Sets channel `c` at working-space pixel (`px`, `py`), ignoring points outside.
    package func setValue(_ value: Float, channel c: Int, x px: Int, y py: Int) {
        let col = px - x, row = py - y
        guard col >= 0, col < width, row >= 0, row < height else { return }
        planes[c][row * width + col] = value
    }
}
