import CRowKernels

/// Reads spans of a 4:2:0 frame as normalised (Y, Cb, Cr, 1), upsampling chroma bilinearly with
/// the frame's siting. The conversion to RGB is a colour-matrix instruction after the load.
///
/// Chroma positions in luma units: vertically centred between rows (`cy = r/2 − 0.25`);
/// horizontally `cx = x/2 − 0.25` (centred) or `cx = x/2` (left, co-sited). Edges clamp. So for a
/// pair of luma columns `2k, 2k+1` the chroma weights are fixed: left `(c[k]; ½c[k] + ½c[k+1])`,
/// centred `(¼c[k−1] + ¾c[k]; ¾c[k] + ¼c[k+1])`. Each span first interpolates the chroma rows
/// vertically into a small stack buffer, then expands pairs.
enum YUVReader {
    /// Floats ``readChroma`` needs as scratch for a span.
    static let chromaScratchCount = 2 * (SpanInterpreter.spanWidth / 2 + 4)

    static func read(_ frame: YUVFrame, row y: Int, column x0: Int, count: Int, into out: InputView.Channels,
                     scratch: UnsafeMutablePointer<Float>) {
        guard count > 0 else { return }
        let (yOut, cbOut, crOut, aOut) = out
        let scale: Float = 1 / 255
        let memoryRow = frame.height - 1 - y
        frame.bytes.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            let luma = base + frame.lumaOffset + memoryRow * frame.lumaStride + x0
            for i in 0..<count { yOut[i] = Float(luma[i]) * scale }
        }
        readChroma(frame, row: y, column: x0, count: count, into: (cbOut, crOut), scratch: scratch)
        aOut.update(repeating: 1, count: count)
    }

    /// Cb and Cr of pixels `x0 ..< x0 + count` of working-space row `y`, normalised (byte / 255).
    /// `scratch` holds ``chromaScratchCount`` floats (no allocation per span).
    static func readChroma(_ frame: YUVFrame, row y: Int, column x0: Int, count: Int,
                           into out: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>),
                           scratch: UnsafeMutablePointer<Float>) {
        guard count > 0, count <= SpanInterpreter.spanWidth else { return }
        let scale: Float = 1 / 255
        let memoryRow = frame.height - 1 - y
        let chromaHeight = frame.chromaHeight, chromaWidth = frame.chromaWidth
        let cy = Float(memoryRow) * 0.5 - 0.25
        let cyFloor = cy.rounded(.down)
        let ty = cy - cyFloor
        let row0 = min(max(Int(cyFloor), 0), chromaHeight - 1), row1 = min(max(Int(cyFloor) + 1, 0), chromaHeight - 1)
        let step = frame.layout == .biPlanar ? 2 : 1
        // Chroma columns k - 1 ... k + 1 for every luma column of the span.
        let kFirst = (x0 >> 1) - 1, kLast = ((x0 + count - 1) >> 1) + 1
        let chromaCount = kLast - kFirst + 1
        frame.bytes.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            let w0 = (1 - ty) * scale, w1 = ty * scale
            do {
                let cb = scratch, cr = scratch + chromaCount
                func interpolateRows(_ plane: Int, into destination: UnsafeMutablePointer<Float>) {
                    YUVReader.interpolateRows(top: base + plane + row0 * frame.chromaStride,
                                              bottom: base + plane + row1 * frame.chromaStride, step: step,
                                              kFirst: kFirst, count: chromaCount, chromaWidth: chromaWidth,
                                              weights: (w0, w1), into: destination)
                }
                interpolateRows(frame.chromaOffsets.0, into: cb)
                interpolateRows(frame.chromaOffsets.1, into: cr)
                expandChroma(cb: cb, cr: cr, kFirst: kFirst, x0: x0, count: count, centred: frame.siting == .center,
                             into: out)
            }
        }
    }

    /// The whole program "load this frame → three-row colour matrix → store RGBA8", span by span:
    /// chroma from ``readChroma``, then the `CRowKernels` row kernel (AVX2 behind a run-time check)
    /// computes, clamps, rounds and packs. `m` is the matrix's 15 uniforms.
    /// `scratch` holds `2 · spanWidth + chromaScratchCount` floats.
    static func convertToRGBA8(_ frame: YUVFrame, matrix m: UnsafePointer<Float>, rect: PixelRect, sink: BufferSink,
                               scratch: UnsafeMutablePointer<Float>) {
        // Byte-unit coefficients: channel·255 = m0·Y + 255·(m1·Cb + m2·Cr + m3 + m4) with Cb, Cr normalised.
        let k: [Float] = [m[0], 255 * m[1], 255 * m[2], 255 * (m[3] + m[4]),
                          m[5], 255 * m[6], 255 * m[7], 255 * (m[8] + m[9]),
                          m[10], 255 * m[11], 255 * m[12], 255 * (m[13] + m[14])]
        let span = SpanInterpreter.spanWidth
        let cb = scratch, cr = scratch + span
        frame.bytes.withUnsafeBufferPointer { bytes in
            k.withUnsafeBufferPointer { coefficients in
                guard let base = bytes.baseAddress, let kk = coefficients.baseAddress else { return }
                for y in rect.y..<rect.maxY {
                    let luma = base + frame.lumaOffset + (frame.height - 1 - y) * frame.lumaStride
                    let row = sink.base + (sink.rect.maxY - 1 - y) * sink.rowBytes
                    var x0 = rect.x
                    while x0 < rect.maxX {
                        let n = min(span, rect.maxX - x0)
                        readChroma(frame, row: y, column: x0, count: n, into: (cb, cr), scratch: scratch + 2 * span)
                        graph_yuv_to_rgba8_row(luma + x0, cb, cr, Int32(n), kk,
                                               (row + (x0 - sink.rect.x) * 4).assumingMemoryBound(to: UInt8.self))
                        x0 += n
                    }
                }
            }
        }
    }

    /// Chroma columns `kFirst ..< kFirst + count` of two rows blended with `weights`; columns
    /// before 0 and past the last repeat the edge, the rest are read directly (wrapping arithmetic:
    /// the bounds are established first) so the loop vectorises.
    @inline(__always)
    static func interpolateRows(top: UnsafePointer<UInt8>, bottom: UnsafePointer<UInt8>, step: Int, kFirst: Int,
                                count: Int, chromaWidth: Int, weights: (Float, Float),
                                into destination: UnsafeMutablePointer<Float>) {
        let (w0, w1) = weights
        let interiorStart = min(max(-kFirst, 0), count)
        let interiorEnd = max(min(chromaWidth - kFirst, count), interiorStart)
        let first = Float(top[0]) * w0 + Float(bottom[0]) * w1
        let lastColumn = (chromaWidth - 1) &* step
        let last = Float(top[lastColumn]) * w0 + Float(bottom[lastColumn]) * w1
        for index in 0..<interiorStart { destination[index] = first }
        let t = top + kFirst &* step, b = bottom + kFirst &* step
        if step == 2 {
            for index in interiorStart..<interiorEnd {
                destination[index] = Float(t[index &* 2]) * w0 + Float(b[index &* 2]) * w1
            }
        } else {
            for index in interiorStart..<interiorEnd {
                destination[index] = Float(t[index]) * w0 + Float(b[index]) * w1
            }
        }
        for index in interiorEnd..<count { destination[index] = last }
    }

    /// Expands vertically interpolated chroma (`cb[k − kFirst]`, `cr[…]`) to luma columns
    /// `x0 ..< x0 + count` with the pair weights of the siting.
    @inline(__always)
    static func expandChroma(cb: UnsafeMutablePointer<Float>, cr: UnsafeMutablePointer<Float>, kFirst: Int, x0: Int,
                             count: Int, centred: Bool,
                             into out: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)) {
        let (cbOut, crOut) = out
        var i = 0
        // A span starting on an odd column: its first pixel is the second of a pair.
        if x0 & 1 == 1 {
            let k = (x0 >> 1) - kFirst
            cbOut[0] = centred ? 0.75 * cb[k] + 0.25 * cb[k + 1] : 0.5 * (cb[k] + cb[k + 1])
            crOut[0] = centred ? 0.75 * cr[k] + 0.25 * cr[k + 1] : 0.5 * (cr[k] + cr[k + 1])
            i = 1
        }
        let pairs = (count - i) / 2
        let k0 = ((x0 + i) >> 1) - kFirst
        let cbPair = cbOut + i, crPair = crOut + i, cbK = cb + k0, crK = cr + k0
        if centred {
            for p in 0..<pairs {
                cbPair[p &* 2] = 0.25 * cbK[p &- 1] + 0.75 * cbK[p]
                cbPair[p &* 2 &+ 1] = 0.75 * cbK[p] + 0.25 * cbK[p &+ 1]
                crPair[p &* 2] = 0.25 * crK[p &- 1] + 0.75 * crK[p]
                crPair[p &* 2 &+ 1] = 0.75 * crK[p] + 0.25 * crK[p &+ 1]
            }
        } else {
            for p in 0..<pairs {
                cbPair[p &* 2] = cbK[p]
                cbPair[p &* 2 &+ 1] = 0.5 * (cbK[p] + cbK[p &+ 1])
                crPair[p &* 2] = crK[p]
                crPair[p &* 2 &+ 1] = 0.5 * (crK[p] + crK[p &+ 1])
            }
        }
        i += 2 * pairs
        // A trailing first-of-pair pixel.
        if i < count {
            let k = ((x0 + i) >> 1) - kFirst
            cbOut[i] = centred ? 0.25 * cb[k - 1] + 0.75 * cb[k] : cb[k]
            crOut[i] = centred ? 0.25 * cr[k - 1] + 0.75 * cr[k] : cr[k]
        }
    }
}
