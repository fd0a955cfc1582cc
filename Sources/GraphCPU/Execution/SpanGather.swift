import CHalf

/// The loops of the `sample` instruction: for every point of a span, the bilinear blend of the
/// 2×2 pixels around it (or, for ``SamplingFilter/nearest``, the pixel containing it), read straight
/// from the input's storage.
///
/// The storage is resolved once per span into a ``GatherSource`` (Float32, half or 8-bit planes;
/// 8-bit buffers of one to four channels; anything else through ``InputView``'s pixel fetch), and the
/// loop is specialised for it, so a tap is a pointer read and a conversion whatever the source: an
/// 8-bit file buffer samples as fast as a half-float intermediate (it used to cost a format switch,
/// an array retain and a row-progress check per tap, 3–7× slower). A 2×2 block wholly inside the
/// data takes no bounds checks; blocks on the edge read 0 outside (``EdgeMode/zero``) or the nearest
/// edge pixel (``EdgeMode/clamp``).
///
/// The blend is `p00·w00 + p10·w10 + p01·w01 + p11·w11` with `w00 = (1−tx)(1−ty)`, … in that
/// order, lane by lane, so the result is the same for every source kind, tile and thread.
enum SpanGather {
    /// Points beyond this (or non-finite) read as outside: their integer positions must fit an Int.
    static let coordinateLimit: Float = 16_777_216

    static func run<Source: GatherSource>(_ source: Source, valid: PixelRect, edge: EdgeMode, filter: SamplingFilter,
                                          xs: UnsafeMutablePointer<Float>, ys: UnsafeMutablePointer<Float>, count: Int,
                                          into out: InputView.Channels) {
        if filter == .nearest {
            for i in 0..<count {
                let px = xs[i], py = ys[i]
                guard px.isFinite, py.isFinite else {
                    write(.zero, out, i)
                    continue
                }
                let limit = coordinateLimit
                let column = floor(min(max(px, -limit), limit)), row = floor(min(max(py, -limit), limit))
                write(tap(source, column, row, valid: valid, edge: edge), out, i)
            }
            return
        }
        // Interior blocks: columns valid.x ..< lastColumn and rows valid.y ..< lastRow start one.
        let lastColumn = valid.maxX - 1, lastRow = valid.maxY - 1
        for i in 0..<count {
            var px = xs[i], py = ys[i]
            guard px.isFinite, py.isFinite else {
                write(.zero, out, i)
                continue
            }
            let limit = coordinateLimit
            px = min(max(px, -limit), limit)
            py = min(max(py, -limit), limit)
            let fx = px - 0.5, fy = py - 0.5
            let ix = floor(fx), iy = floor(fy)
            let tx = fx - Float(ix), ty = fy - Float(iy)
            let p00, p10, p01, p11: SIMD4<Float>
            if ix >= valid.x && ix < lastColumn && iy >= valid.y && iy < lastRow {
                let bottom = source.row(iy), top = source.row(iy + 1)
                p00 = source.pixel(bottom, ix)
                p10 = source.pixel(bottom, ix + 1)
                p01 = source.pixel(top, ix)
                p11 = source.pixel(top, ix + 1)
            } else {
                p00 = tap(source, ix, iy, valid: valid, edge: edge)
                p10 = tap(source, ix + 1, iy, valid: valid, edge: edge)
                p01 = tap(source, ix, iy + 1, valid: valid, edge: edge)
                p11 = tap(source, ix + 1, iy + 1, valid: valid, edge: edge)
            }
            let w00 = (1 - tx) * (1 - ty), w10 = tx * (1 - ty), w01 = (1 - tx) * ty, w11 = tx * ty
            write(p00 * w00 + p10 * w10 + p01 * w01 + p11 * w11, out, i)
        }
    }

    /// `x` rounded down, for |x| ≤ ``coordinateLimit`` (where every integer is a Float): a truncation
    /// and a compare, where `rounded(.down)` is a library call on baseline x86-64.
    @inline(__always)
    private static func floor(_ x: Float) -> Int {
        let truncated = Int(x)
        return Float(truncated) > x ? truncated - 1 : truncated
    }

    /// The pixel at an integer position, honouring the edge mode.
    @inline(__always)
    private static func tap<Source: GatherSource>(_ source: Source, _ column: Int, _ row: Int, valid: PixelRect,
                                                  edge: EdgeMode) -> SIMD4<Float> {
        if edge == .clamp {
            let r = min(max(row, valid.y), valid.maxY - 1)
            return source.pixel(source.row(r), min(max(column, valid.x), valid.maxX - 1))
        }
        if column < valid.x || column >= valid.maxX || row < valid.y || row >= valid.maxY { return .zero }
        return source.pixel(source.row(row), column)
    }

    @inline(__always)
    private static func write(_ value: SIMD4<Float>, _ out: InputView.Channels, _ i: Int) {
        out.0[i] = value[0]; out.1[i] = value[1]; out.2[i] = value[2]; out.3[i] = value[3]
    }

    /// Registers (``SpanInterpreter/spanWidth`` floats each) of worker scratch ``runHalfPlanes`` needs.
    static let scratchRegisters = 14

    /// Bilinear from half-float planes in three passes over the span, so the conversion runs eight
    /// samples per instruction (`graph_half_to_float`, F16C) instead of bit by bit per tap: the four
    /// tap offsets (−1 outside) and weights of every point; per channel, the 4·n raw halves gathered
    /// and converted at once; the blend, in the same order as ``run``. `scratch` holds
    /// ``scratchRegisters`` registers.
    static func runHalfPlanes(_ planes: PlaneSet, storage: UnsafeRawPointer, valid: PixelRect, edge: EdgeMode,
                              xs: UnsafeMutablePointer<Float>, ys: UnsafeMutablePointer<Float>, count n: Int,
                              into out: InputView.Channels, scratch: UnsafeMutableRawPointer) {
        let weights = scratch.assumingMemoryBound(to: Float.self)
        let offsets = (scratch + 16 * n).assumingMemoryBound(to: Int32.self)
        let values = (scratch + 32 * n).assumingMemoryBound(to: Float.self)
        let raw = (scratch + 48 * n).assumingMemoryBound(to: UInt16.self)
        let width = planes.rect.width, origin = (x: planes.rect.x, y: planes.rect.y)
        let lastColumn = valid.maxX - 1, lastRow = valid.maxY - 1
        @inline(__always) func offset(_ column: Int, _ row: Int) -> Int32 {
            if edge == .clamp {
                return Int32((min(max(row, valid.y), lastRow) - origin.y) * width + min(max(column, valid.x), lastColumn) - origin.x)
            }
            if column < valid.x || column > lastColumn || row < valid.y || row > lastRow { return -1 }
            return Int32((row - origin.y) * width + column - origin.x)
        }
        for i in 0..<n {
            var px = xs[i], py = ys[i]
            guard px.isFinite, py.isFinite else {
                for k in 0..<4 {
                    weights[k * n + i] = 0
                    offsets[k * n + i] = -1
                }
                continue
            }
            let limit = coordinateLimit
            px = min(max(px, -limit), limit)
            py = min(max(py, -limit), limit)
            let fx = px - 0.5, fy = py - 0.5
            let ix = floor(fx), iy = floor(fy)
            let tx = fx - Float(ix), ty = fy - Float(iy)
            weights[i] = (1 - tx) * (1 - ty)
            weights[n + i] = tx * (1 - ty)
            weights[2 * n + i] = (1 - tx) * ty
            weights[3 * n + i] = tx * ty
            if ix >= valid.x && ix < lastColumn && iy >= valid.y && iy < lastRow {
                let bottom = Int32((iy - origin.y) * width + ix - origin.x), top = bottom + Int32(width)
                offsets[i] = bottom
                offsets[n + i] = bottom + 1
                offsets[2 * n + i] = top
                offsets[3 * n + i] = top + 1
            } else {
                offsets[i] = offset(ix, iy)
                offsets[n + i] = offset(ix + 1, iy)
                offsets[2 * n + i] = offset(ix, iy + 1)
                offsets[3 * n + i] = offset(ix + 1, iy + 1)
            }
        }
        // The stored planes (one grey plane: red, copied to green and blue after; no alpha plane: alpha 1).
        for channel in 0..<planes.channels {
            let destination = channel == 0 ? out.0 : channel == 1 ? out.1 : channel == 2 ? out.2 : out.3
            let plane = storage.assumingMemoryBound(to: UInt16.self) + channel * planes.rect.pixelCount
            for k in 0..<(4 * n) {
                // Branch-free: an outside tap reads the first sample and keeps none of its bits.
                let o = offsets[k]
                raw[k] = plane[Int(max(o, 0))] & (o < 0 ? 0 : 0xFFFF)
            }
            graph_half_to_float(raw, values, 4 * n)
            let (v0, v1, v2, v3) = (values, values + n, values + 2 * n, values + 3 * n)
            let (w0, w1, w2, w3) = (weights, weights + n, weights + 2 * n, weights + 3 * n)
            for i in 0..<n {
                destination[i] = v0[i] * w0[i] + v1[i] * w1[i] + v2[i] * w2[i] + v3[i] * w3[i]
            }
        }
        if planes.channels == 1 {
            out.1.update(from: out.0, count: n)
            out.2.update(from: out.0, count: n)
        }
        if planes.channels < 4 {
            // Alpha 1 inside, 0 outside: the blend of a plane of ones, the same sum in the same order.
            let (w0, w1, w2, w3) = (weights, weights + n, weights + 2 * n, weights + 3 * n)
            let (o0, o1, o2, o3) = (offsets, offsets + n, offsets + 2 * n, offsets + 3 * n)
            for i in 0..<n {
                out.3[i] = (o0[i] < 0 ? 0 : w0[i]) + (o1[i] < 0 ? 0 : w1[i]) + (o2[i] < 0 ? 0 : w2[i]) + (o3[i] < 0 ? 0 : w3[i])
            }
        }
    }

    /// `Float(k) · (1/255)` for every byte (the same product as ``PixelIO/readSample``), so 8-bit
    /// reads with and without a decode table are one table lookup.
    static let unitBytes: [Float] = (0...255).map { Float($0) * (1 / 255) }
}

/// A storage the gather reads: a row handle for a working-space row inside the data, then
/// premultiplied RGBA pixels of that row.
protocol GatherSource {
    associatedtype Row
    func row(_ y: Int) -> Row
    func pixel(_ row: Row, _ x: Int) -> SIMD4<Float>
}

// MARK: Intermediates

/// Where the planes of a ``PlaneSet`` are: the offsets (in samples) of green, blue and alpha from
/// red, and whether alpha has a plane (without one it reads 1; green and blue of one grey plane are
/// its red, offset 0).
struct PlaneOffsets {
    let green: Int, blue: Int, alpha: Int, hasAlpha: Bool
    init(_ planes: PlaneSet) {
        let stride = planes.rect.pixelCount
        let colour = planes.channels == 1 ? 0 : stride
        (green, blue, alpha, hasAlpha) = (colour, 2 * colour, 3 * stride, planes.channels == 4)
    }
}

/// Float32 planes (``WorkingFormat/rgbaf``).
struct FloatPlaneGather: GatherSource {
    let base: UnsafePointer<Float>, origin: (x: Int, y: Int), width: Int, offsets: PlaneOffsets
    init(_ planes: PlaneSet, storage: UnsafeRawPointer) {
        base = storage.assumingMemoryBound(to: Float.self)
        origin = (planes.rect.x, planes.rect.y)
        width = planes.rect.width
        offsets = PlaneOffsets(planes)
    }
    @inline(__always) func row(_ y: Int) -> UnsafePointer<Float> { base + (y - origin.y) * width - origin.x }
    @inline(__always) func pixel(_ row: UnsafePointer<Float>, _ x: Int) -> SIMD4<Float> {
        SIMD4(row[x], row[x + offsets.green], row[x + offsets.blue], offsets.hasAlpha ? row[x + offsets.alpha] : 1)
    }
}

/// Half-float planes (``WorkingFormat/rgbah``), converted exactly as IEEE binary16 → binary32.
struct HalfPlaneGather: GatherSource {
    let base: UnsafePointer<UInt16>, origin: (x: Int, y: Int), width: Int, offsets: PlaneOffsets
    init(_ planes: PlaneSet, storage: UnsafeRawPointer) {
        base = storage.assumingMemoryBound(to: UInt16.self)
        origin = (planes.rect.x, planes.rect.y)
        width = planes.rect.width
        offsets = PlaneOffsets(planes)
    }
    @inline(__always) func row(_ y: Int) -> UnsafePointer<UInt16> { base + (y - origin.y) * width - origin.x }
    @inline(__always) func pixel(_ row: UnsafePointer<UInt16>, _ x: Int) -> SIMD4<Float> {
        SIMD4(HalfFloat.float(row[x]), HalfFloat.float(row[x + offsets.green]), HalfFloat.float(row[x + offsets.blue]),
              offsets.hasAlpha ? HalfFloat.float(row[x + offsets.alpha]) : 1)
    }
}

/// 8-bit planes (``WorkingFormat/rgba8``).
struct BytePlaneGather: GatherSource {
    let base: UnsafePointer<UInt8>, origin: (x: Int, y: Int), width: Int, offsets: PlaneOffsets
    let unit: UnsafePointer<Float>
    init(_ planes: PlaneSet, storage: UnsafeRawPointer, unit: UnsafePointer<Float>) {
        base = storage.assumingMemoryBound(to: UInt8.self)
        origin = (planes.rect.x, planes.rect.y)
        width = planes.rect.width
        offsets = PlaneOffsets(planes)
        self.unit = unit
    }
    @inline(__always) func row(_ y: Int) -> UnsafePointer<UInt8> { base + (y - origin.y) * width - origin.x }
    @inline(__always) func pixel(_ row: UnsafePointer<UInt8>, _ x: Int) -> SIMD4<Float> {
        SIMD4(unit[Int(row[x])], unit[Int(row[x + offsets.green])], unit[Int(row[x + offsets.blue])],
              offsets.hasAlpha ? unit[Int(row[x + offsets.alpha])] : 1)
    }
}

// MARK: 8-bit buffers

/// Where the rows of an interleaved buffer are, and how its bytes become values: `colour` maps a
/// colour code (a transfer decode, or plain /255), `unit` maps an alpha code.
struct ByteRows {
    let storage: UnsafeRawPointer, rowBytes: Int, height: Int
    let colour: UnsafePointer<Float>, unit: UnsafePointer<Float>
    /// Alpha stored straight (multiply colour by it) / ignored (opaque: alpha is 1).
    let straight: Bool, opaque: Bool

    @inline(__always) func row(_ y: Int) -> UnsafePointer<UInt8> {
        (storage + (height - 1 - y) * rowBytes).assumingMemoryBound(to: UInt8.self)
    }

    @inline(__always) func finish(_ r: Float, _ g: Float, _ b: Float, _ alphaCode: UInt8) -> SIMD4<Float> {
        if opaque { return SIMD4(r, g, b, 1) }
        let a = unit[Int(alphaCode)]
        return straight ? SIMD4(r * a, g * a, b * a, a) : SIMD4(r, g, b, a)
    }
}

/// ``PixelFormat/gray8``.
struct Gray8Gather: GatherSource {
    let rows: ByteRows
    @inline(__always) func row(_ y: Int) -> UnsafePointer<UInt8> { rows.row(y) }
    @inline(__always) func pixel(_ row: UnsafePointer<UInt8>, _ x: Int) -> SIMD4<Float> {
        let v = rows.colour[Int(row[x])]
        return SIMD4(v, v, v, 1)
    }
}

/// ``PixelFormat/grayAlpha8``.
struct GrayAlpha8Gather: GatherSource {
    let rows: ByteRows
    @inline(__always) func row(_ y: Int) -> UnsafePointer<UInt8> { rows.row(y) }
    @inline(__always) func pixel(_ row: UnsafePointer<UInt8>, _ x: Int) -> SIMD4<Float> {
        let v = rows.colour[Int(row[2 * x])]
        return rows.finish(v, v, v, row[2 * x + 1])
    }
}

/// ``PixelFormat/rgb8``.
struct RGB8Gather: GatherSource {
    let rows: ByteRows
    @inline(__always) func row(_ y: Int) -> UnsafePointer<UInt8> { rows.row(y) }
    @inline(__always) func pixel(_ row: UnsafePointer<UInt8>, _ x: Int) -> SIMD4<Float> {
        let p = row + 3 * x
        return SIMD4(rows.colour[Int(p[0])], rows.colour[Int(p[1])], rows.colour[Int(p[2])], 1)
    }
}

/// ``PixelFormat/rgba8`` and ``PixelFormat/bgra8`` (`red`/`blue`: the byte indices of R and B).
struct RGBA8Gather: GatherSource {
    let rows: ByteRows, red: Int, blue: Int
    @inline(__always) func row(_ y: Int) -> UnsafePointer<UInt8> { rows.row(y) }
    @inline(__always) func pixel(_ row: UnsafePointer<UInt8>, _ x: Int) -> SIMD4<Float> {
        let p = row + 4 * x
        return rows.finish(rows.colour[Int(p[red])], rows.colour[Int(p[1])], rows.colour[Int(p[blue])], p[3])
    }
}

// MARK: Float buffers

/// ``PixelFormat/grayf`` (depth maps, shared grey passes): the value in R, G and B, alpha 1.
struct GrayFloatGather: GatherSource {
    let storage: UnsafeRawPointer, rowBytes: Int, height: Int
    @inline(__always) func row(_ y: Int) -> UnsafePointer<Float> {
        (storage + (height - 1 - y) * rowBytes).assumingMemoryBound(to: Float.self)
    }
    @inline(__always) func pixel(_ row: UnsafePointer<Float>, _ x: Int) -> SIMD4<Float> {
        let v = row[x]
        return SIMD4(v, v, v, 1)
    }
}

/// ``PixelFormat/grayh``, converted exactly as IEEE binary16 → binary32.
struct GrayHalfGather: GatherSource {
    let storage: UnsafeRawPointer, rowBytes: Int, height: Int
    @inline(__always) func row(_ y: Int) -> UnsafePointer<UInt16> {
        (storage + (height - 1 - y) * rowBytes).assumingMemoryBound(to: UInt16.self)
    }
    @inline(__always) func pixel(_ row: UnsafePointer<UInt16>, _ x: Int) -> SIMD4<Float> {
        let v = HalfFloat.float(row[x])
        return SIMD4(v, v, v, 1)
    }
}

/// How the samples of a float buffer become Float32.
protocol FloatSamples {
    associatedtype Sample
    static func float(_ sample: Sample) -> Float
}

enum Float32Samples: FloatSamples {
    @inline(__always) static func float(_ sample: Float) -> Float { sample }
}

/// IEEE binary16 bit patterns.
enum HalfSamples: FloatSamples {
    @inline(__always) static func float(_ sample: UInt16) -> Float { HalfFloat.float(sample) }
}

/// ``PixelFormat/rgbaf`` and ``PixelFormat/rgbah`` buffers (shared intermediates, float images):
/// alpha stored premultiplied, straight (colour multiplied by it here) or ignored (opaque).
struct RGBAFloatGather<Samples: FloatSamples>: GatherSource {
    let storage: UnsafeRawPointer, rowBytes: Int, height: Int
    let straight: Bool, opaque: Bool
    @inline(__always) func row(_ y: Int) -> UnsafePointer<Samples.Sample> {
        (storage + (height - 1 - y) * rowBytes).assumingMemoryBound(to: Samples.Sample.self)
    }
    @inline(__always) func pixel(_ row: UnsafePointer<Samples.Sample>, _ x: Int) -> SIMD4<Float> {
        let p = row + 4 * x
        let (r, g, b) = (Samples.float(p[0]), Samples.float(p[1]), Samples.float(p[2]))
        if opaque { return SIMD4(r, g, b, 1) }
        let a = Samples.float(p[3])
        return straight ? SIMD4(r * a, g * a, b * a, a) : SIMD4(r, g, b, a)
    }
}

/// Packed RGB float buffers (alpha 1).
struct RGBFloatGather: GatherSource {
    let storage: UnsafeRawPointer, rowBytes: Int, height: Int
    @inline(__always) func row(_ y: Int) -> UnsafePointer<Float> {
        (storage + (height - 1 - y) * rowBytes).assumingMemoryBound(to: Float.self)
    }
    @inline(__always) func pixel(_ row: UnsafePointer<Float>, _ x: Int) -> SIMD4<Float> {
        let p = row + 3 * x
        return SIMD4(p[0], p[1], p[2], 1)
    }
}

/// Any other storage (16-bit integer buffers, camera frames): one pixel fetch per tap.
struct FetchGather: GatherSource {
    let view: InputView
    @inline(__always) func row(_ y: Int) -> Int { y }
    @inline(__always) func pixel(_ row: Int, _ x: Int) -> SIMD4<Float> {
        let (r, g, b, a) = view.fetch(column: x, row: row)
        return SIMD4(r, g, b, a)
    }
}
