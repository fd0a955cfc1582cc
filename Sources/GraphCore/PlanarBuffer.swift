import CHalf
import Foundation

/// Premultiplied RGBA in planes over a pixel rectangle: how image processors see their inputs
/// and write their output. Samples are Float32, or IEEE binary16 where the processor asks for the
/// working format, that is half float and the image carries colour (``ProcessorSamples``): a 12 MP
/// photo then takes 96 MB instead of 192 MB.
///
/// Four planes (RGBA), three (opaque: alpha reads 1) or one (grey and opaque: one plane read as red,
/// green and blue, alpha 1), as ``PlaneSet``: an input known opaque, or whose alpha the processor
/// does not read, has no alpha plane, one also known grey has one plane (see ``ProcessorPlanes``).
/// Writes to a channel without a plane of its own are ignored.
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

        package var bytes: Int { self == .float32 ? 4 : 2 }
    }

    package let x: Int, y: Int, width: Int, height: Int
    package let samples: Samples
    /// The planes stored: 4 (RGBA), 3 (RGB, alpha 1) or 1 (grey: one value for R, G and B, alpha 1).
    package let channels: Int
    /// The stored planes (`channels` of them: R, G, B, A, or R alone), each `width * height` floats
    /// (empty when the samples are half).
    package let planes: [UnsafeMutablePointer<Float>]
    /// The stored planes as binary16 bit patterns (empty when the samples are Float32).
    package let halfPlanes: [UnsafeMutablePointer<UInt16>]
    /// The stored planes, zero-initialised (calloc: fresh pages are not written twice).
    package let storage: UnsafeMutableRawPointer
    /// A row of Float32 ones: what alpha reads in a buffer without an alpha plane (``readingRow(channel:row:)``).
    private let ones: UnsafeMutablePointer<Float>

    /// Throws when the memory cannot be had. `channels`: 4, 3 or 1 (anything else is 4).
    package init(rect: PixelRect, samples: Samples = .float32, channels: Int = 4) throws {
        x = rect.x; y = rect.y; width = rect.width; height = rect.height
        self.samples = samples
        self.channels = channels == 1 || channels == 3 ? channels : 4
        let count = max(rect.pixelCount, 1)
        guard let zeroed = calloc(self.channels * count, samples.bytes) else {
            throw GraphError.renderFailed("out of memory for a \(rect.width)x\(rect.height) planar buffer")
        }
        storage = zeroed
        let starts = (0..<self.channels).map { zeroed + $0 * count * samples.bytes }
        planes = samples == .float32 ? starts.map { $0.assumingMemoryBound(to: Float.self) } : []
        halfPlanes = samples == .half ? starts.map { $0.assumingMemoryBound(to: UInt16.self) } : []
        // Never read with an alpha plane: a row of one sample then.
        let onesCount = self.channels < 4 ? max(rect.width, 1) : 1
        ones = .allocate(capacity: onesCount)
        ones.initialize(repeating: 1, count: onesCount)
    }

    /// A buffer over `width`×`height` pixels from (`x`, `y`), for a processor's own scratch planes.
    package convenience init(x: Int, y: Int, width: Int, height: Int, samples: Samples, channels: Int = 4) throws {
        try self.init(rect: PixelRect(x: x, y: y, width: width, height: height), samples: samples, channels: channels)
    }

    deinit {
        free(storage)
        ones.deallocate()
    }

    package var rect: PixelRect { PixelRect(x: x, y: y, width: width, height: height) }

    package var byteCount: Int { channels * max(rect.pixelCount, 1) * samples.bytes }

    /// Whether channel `c` has a plane of its own (alpha of 3 or 1 planes and green and blue of one
    /// plane have none).
    @inline(__always)
    package func stores(channel c: Int) -> Bool { c < channels && (channels != 1 || c == 0) }

    /// The index in ``planes`` of the plane channel `c` reads (green and blue of one plane read its
    /// red), or nil for alpha without a plane (it reads 1).
    @inline(__always)
    private func plane(reading c: Int) -> Int? { c == 3 && channels < 4 ? nil : (channels == 1 ? 0 : c) }

    /// Row `row` (bottom-up) of Float32 channel `c` as it reads: green and blue of one plane are its
    /// red, alpha without a plane a row of ones. Float32 samples only.
    package func readingRow(channel c: Int, row: Int) -> UnsafePointer<Float> {
        guard let plane = plane(reading: c) else { return UnsafePointer(ones) }
        return UnsafePointer(planes[plane] + row * width)
    }

    /// The value of channel `c` at working-space pixel (`px`, `py`); 0 outside.
    package func value(channel c: Int, x px: Int, y py: Int) -> Float {
        let col = px - x, row = py - y
        guard col >= 0, col < width, row >= 0, row < height else { return 0 }
        guard let plane = plane(reading: c) else { return 1 }
        let index = row * width + col
        return samples == .float32 ? planes[plane][index] : HalfFloat.float(halfPlanes[plane][index])
    }

    /// Sets channel `c` at working-space pixel (`px`, `py`), ignoring points outside (and channels
    /// without a plane of their own).
    package func setValue(_ value: Float, channel c: Int, x px: Int, y py: Int) {
        let col = px - x, row = py - y
        guard col >= 0, col < width, row >= 0, row < height else { return }
        var v = value
        writeRow(channel: c, row: row, column: col, count: 1, from: &v)
    }

    /// `count` samples of channel `c` from column `column` of row `row` (bottom-up, relative to the
    /// buffer) as Float32 (green and blue of one plane read its red, alpha without a plane reads 1).
    package func readRow(channel c: Int, row: Int, column: Int = 0, count: Int, into destination: UnsafeMutablePointer<Float>) {
        guard let plane = plane(reading: c) else { return destination.update(repeating: 1, count: count) }
        let offset = row * width + column
        switch samples {
        case .float32: destination.update(from: planes[plane] + offset, count: count)
        case .half: graph_half_to_float(halfPlanes[plane] + offset, destination, count)
        }
    }

    /// Stores `count` Float32 values into channel `c` from column `column` of row `row` (half:
    /// rounded to nearest even); nothing for a channel without a plane of its own.
    package func writeRow(channel c: Int, row: Int, column: Int = 0, count: Int, from source: UnsafePointer<Float>) {
        guard stores(channel: c) else { return }
        let offset = row * width + column
        switch samples {
        case .float32: (planes[c] + offset).update(from: source, count: count)
        case .half: graph_float_to_half(source, halfPlanes[c] + offset, count)
        }
    }

    /// Sets every sample of channel `c` to `value` (nothing for a channel without a plane).
    package func fill(channel c: Int, with value: Float) { fill(channel: c, rows: 0..<height, with: value) }

    /// Sets the samples of channel `c` in rows `rows` (bottom-up, relative to the buffer) to `value`
    /// (nothing for a channel without a plane of its own).
    package func fill(channel c: Int, rows: Range<Int>, with value: Float) {
        guard stores(channel: c) else { return }
        let offset = rows.lowerBound * width, count = rows.count * width
        switch samples {
        case .float32: (planes[c] + offset).update(repeating: value, count: count)
        case .half:
            var v = value, bits: UInt16 = 0
            graph_float_to_half(&v, &bits, 1)
            (halfPlanes[c] + offset).update(repeating: bits, count: count)
        }
    }

    /// Copies the pixels both buffers hold (same samples and planes) from `source`, every plane.
    package func copy(from source: PlanarBuffer) {
        let columns = max(x, source.x)..<min(x + width, source.x + source.width)
        let rows = max(y, source.y)..<min(y + height, source.y + source.height)
        guard samples == source.samples, channels == source.channels, !columns.isEmpty, !rows.isEmpty else { return }
        let bytes = samples.bytes, count = max(rect.pixelCount, 1), sourceCount = max(source.rect.pixelCount, 1)
        for plane in 0..<channels {
            for row in rows {
                let to = ((row - y) * width + columns.lowerBound - x + plane * count) * bytes
                let from = ((row - source.y) * source.width + columns.lowerBound - source.x + plane * sourceCount) * bytes
                (storage + to).copyMemory(from: source.storage + from, byteCount: columns.count * bytes)
            }
        }
    }

    /// Binary16 bit patterns to Float32, `count` of them (F16C when the CPU has it): for processors
    /// that gather half samples and convert them at once.
    package static func floats(fromHalves source: UnsafePointer<UInt16>, into destination: UnsafeMutablePointer<Float>, count: Int) {
        graph_half_to_float(source, destination, count)
    }
}
