import CHalf
import Foundation

/// Premultiplied RGBA in four planes over a pixel rectangle: how image processors see their inputs
/// and write their output. Samples are Float32, or IEEE binary16 where the processor asks for the
/// working format, that is half float and the image carries colour (``ProcessorSamples``): a 12 MP
/// photo then takes 96 MB instead of 192 MB.
///
/// Rows run bottom-up in working space: row 0 is `y == self.y`. The planes are one allocation,
/// channel after channel (the layout of ``PlaneSet``, which adopts a processor's output without
/// copying it).
package final class PlanarBuffer: @unchecked Sendable {
    /// How the samples are stored.
    package enum Samples: Sendable {
        case float32
        /// IEEE binary16 bit patterns.
        case half

        var bytes: Int { self == .float32 ? 4 : 2 }
    }

    package let x: Int, y: Int, width: Int, height: Int
    package let samples: Samples
    /// Channel planes R, G, B, A, each `width * height` floats (empty when the samples are half).
    package let planes: [UnsafeMutablePointer<Float>]
    /// Channel planes R, G, B, A as binary16 bit patterns (empty when the samples are Float32).
    package let halfPlanes: [UnsafeMutablePointer<UInt16>]
    /// All four planes, zero-initialised (calloc: fresh pages are not written twice).
    let storage: UnsafeMutableRawPointer

    /// Throws when the memory cannot be had.
    init(rect: PixelRect, samples: Samples = .float32) throws {
        x = rect.x; y = rect.y; width = rect.width; height = rect.height
        self.samples = samples
        let count = max(rect.pixelCount, 1)
        guard let zeroed = calloc(4 * count, samples.bytes) else {
            throw GraphError.renderFailed("out of memory for a \(rect.width)x\(rect.height) planar buffer")
        }
        storage = zeroed
        let starts = (0..<4).map { zeroed + $0 * count * samples.bytes }
        planes = samples == .float32 ? starts.map { $0.assumingMemoryBound(to: Float.self) } : []
        halfPlanes = samples == .half ? starts.map { $0.assumingMemoryBound(to: UInt16.self) } : []
    }

    /// A buffer over `width`×`height` pixels from (`x`, `y`), for a processor's own scratch planes.
    package convenience init(x: Int, y: Int, width: Int, height: Int, samples: Samples) throws {
        try self.init(rect: PixelRect(x: x, y: y, width: width, height: height), samples: samples)
    }

    deinit { free(storage) }

    var rect: PixelRect { PixelRect(x: x, y: y, width: width, height: height) }

    var byteCount: Int { 4 * max(rect.pixelCount, 1) * samples.bytes }

    /// The value of channel `c` at working-space pixel (`px`, `py`); 0 outside.
    package func value(channel c: Int, x px: Int, y py: Int) -> Float {
        let col = px - x, row = py - y
        guard col >= 0, col < width, row >= 0, row < height else { return 0 }
        let index = row * width + col
        return samples == .float32 ? planes[c][index] : HalfFloat.float(halfPlanes[c][index])
    }

    /// Sets channel `c` at working-space pixel (`px`, `py`), ignoring points outside.
    package func setValue(_ value: Float, channel c: Int, x px: Int, y py: Int) {
        let col = px - x, row = py - y
        guard col >= 0, col < width, row >= 0, row < height else { return }
        var v = value
        writeRow(channel: c, row: row, column: col, count: 1, from: &v)
    }

    /// `count` samples of channel `c` from column `column` of row `row` (bottom-up, relative to the
    /// buffer) as Float32.
    package func readRow(channel c: Int, row: Int, column: Int = 0, count: Int, into destination: UnsafeMutablePointer<Float>) {
        let offset = row * width + column
        switch samples {
        case .float32: destination.update(from: planes[c] + offset, count: count)
        case .half: graph_half_to_float(halfPlanes[c] + offset, destination, count)
        }
    }

    /// Stores `count` Float32 values into channel `c` from column `column` of row `row` (half:
    /// rounded to nearest even).
    package func writeRow(channel c: Int, row: Int, column: Int = 0, count: Int, from source: UnsafePointer<Float>) {
        let offset = row * width + column
        switch samples {
        case .float32: (planes[c] + offset).update(from: source, count: count)
        case .half: graph_float_to_half(source, halfPlanes[c] + offset, count)
        }
    }

    /// Sets every sample of channel `c` to `value`.
    package func fill(channel c: Int, with value: Float) { fill(channel: c, rows: 0..<height, with: value) }

    /// Sets the samples of channel `c` in rows `rows` (bottom-up, relative to the buffer) to `value`.
    package func fill(channel c: Int, rows: Range<Int>, with value: Float) {
        let offset = rows.lowerBound * width, count = rows.count * width
        switch samples {
        case .float32: (planes[c] + offset).update(repeating: value, count: count)
        case .half:
            var v = value, bits: UInt16 = 0
            graph_float_to_half(&v, &bits, 1)
            (halfPlanes[c] + offset).update(repeating: bits, count: count)
        }
    }

    /// Copies the pixels both buffers hold (same samples) from `source`, every channel.
    package func copy(from source: PlanarBuffer) {
        let columns = max(x, source.x)..<min(x + width, source.x + source.width)
        let rows = max(y, source.y)..<min(y + height, source.y + source.height)
        guard samples == source.samples, !columns.isEmpty, !rows.isEmpty else { return }
        let bytes = samples.bytes, count = max(rect.pixelCount, 1), sourceCount = max(source.rect.pixelCount, 1)
        for channel in 0..<4 {
            for row in rows {
                let to = ((row - y) * width + columns.lowerBound - x + channel * count) * bytes
                let from = ((row - source.y) * source.width + columns.lowerBound - source.x + channel * sourceCount) * bytes
                (storage + to).copyMemory(from: source.storage + from, byteCount: columns.count * bytes)
            }
        }
    }

    /// Whether R, G and B are equal, bit for bit (a depth map or a matte).
    package var isGrey: Bool {
        let bytes = width * height * samples.bytes
        return memcmp(storage, storage + bytes, bytes) == 0 && memcmp(storage, storage + 2 * bytes, bytes) == 0
    }

    /// Binary16 bit patterns to Float32, `count` of them (F16C when the CPU has it): for processors
    /// that gather half samples and convert them at once.
    package static func floats(fromHalves source: UnsafePointer<UInt16>, into destination: UnsafeMutablePointer<Float>, count: Int) {
        graph_half_to_float(source, destination, count)
    }
}
