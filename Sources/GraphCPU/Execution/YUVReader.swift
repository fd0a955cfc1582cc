import CRowKernels

/// Reads spans of a 4:2:0 frame as normalised (Y, Cb, Cr, 1), upsampling chroma bilinearly with
/// the frame's siting. The conversion to RGB is a colour-matrix instruction after the load.
///
/// Chroma positions in luma units: vertically centred between rows (`cy = r/2 − 0.25`);
/// horizontally `cx = x/2 − 0.25` (centred) or `cx = x/2` (left, co-sited). Edges clamp. So for a
/// pair of luma columns `2k, 2k+1` the chroma weights are fixed: left `(c[k]; ½c[k] + ½c[k+1])`,
/// centred `(¼c[k−1] + ¾c[k]; ¾c[k] + ¼c[k+1])`. Each span first interpolates the chroma rows
/// vertically into worker scratch, then expands pairs (`graph_yuv_chroma_span` in `CRowKernels`,
/// vectorised for AVX2 behind a run-time check).
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
        frame.bytes.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            let cbPlane = base + frame.chromaOffsets.0, crPlane = base + frame.chromaOffsets.1
            let top = row0 * frame.chromaStride, bottom = row1 * frame.chromaStride
            graph_yuv_chroma_span(cbPlane + top, cbPlane + bottom, crPlane + top, crPlane + bottom, Int32(step),
                                  Int32(chromaWidth), Int32(x0), Int32(count), (1 - ty) * scale, ty * scale,
                                  frame.siting == .center ? 1 : 0, out.0, out.1, scratch)
        }
    }

    /// The whole program "load this frame → three-row colour matrix → store RGBA8 or BGRA8", one
    /// `CRowKernels` call per row in 16-bit fixed point (``graph_yuv_to_rgba8_row``: exact integer
    /// chroma upsampling, Q15 coefficients, sixteen pixels per AVX2 register). `m` is the matrix's
    /// 15 uniforms; `scratch` holds ``convertScratchBytes(width:)`` bytes. Returns false, having
    /// written nothing, when the matrix does not fit 16 bits (a coefficient of magnitude 4 or more
    /// in byte units); the general program then runs. BGRA8 is the same kernel with the red and
    /// blue rows of the matrix swapped.
    static func convertToRGBA8(_ frame: YUVFrame, matrix m: UnsafePointer<Float>, rect: PixelRect,
                               sink: BufferSink, scratch: UnsafeMutableRawPointer) -> Bool {
        // Byte units: channel·255 = m0·Y + m1·Cb + m2·Cr + 255·(m3 + m4) for bytes Y, Cb, Cr; rows
        // in the sink's byte order.
        let first = sink.format == .bgra8 ? 10 : 0, third = sink.format == .bgra8 ? 0 : 10
        let byteUnits: (Float, Float, Float, Float, Float, Float, Float, Float, Float, Float, Float, Float) = (
            m[first], m[first + 1], m[first + 2], 255 * (m[first + 3] + m[first + 4]),
            m[5], m[6], m[7], 255 * (m[8] + m[9]),
            m[third], m[third + 1], m[third + 2], 255 * (m[third + 3] + m[third + 4]))
        var fixed = graph_yuv_fixed_matrix()
        let fits = withUnsafeBytes(of: byteUnits) { raw in
            raw.baseAddress.map { graph_yuv_fixed_matrix_make($0.assumingMemoryBound(to: Float.self), &fixed) } ?? 0
        }
        guard fits != 0 else { return false }
        let step: Int32 = frame.layout == .biPlanar ? 2 : 1
        let centred: Int32 = frame.siting == .center ? 1 : 0
        let blended = scratch.assumingMemoryBound(to: Int16.self)
        frame.bytes.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            let cbPlane = base + frame.chromaOffsets.0, crPlane = base + frame.chromaOffsets.1
            for y in rect.y..<rect.maxY {
                // Chroma rows sit between luma rows: memory row r reads chroma at r/2 − 1/4, so the
                // upper of its two chroma rows weighs 1/4 on even rows and 3/4 on odd ones (edges
                // repeat the row).
                let memoryRow = frame.height - 1 - y
                let upper = (memoryRow - 1) >> 1
                let row0 = min(max(upper, 0), frame.chromaHeight - 1), row1 = min(upper + 1, frame.chromaHeight - 1)
                let topWeight: Int32 = memoryRow & 1 == 0 ? 1 : 3
                let top = row0 * frame.chromaStride, bottom = row1 * frame.chromaStride
                let luma = base + frame.lumaOffset + memoryRow * frame.lumaStride + rect.x
                let row = sink.base + (sink.rect.maxY - 1 - y) * sink.rowBytes + (rect.x - sink.rect.x) * 4
                graph_yuv_to_rgba8_row(luma, cbPlane + top, cbPlane + bottom, crPlane + top, crPlane + bottom, step,
                                       Int32(frame.chromaWidth), Int32(rect.x), Int32(rect.width), topWeight, centred,
                                       &fixed, blended, row.assumingMemoryBound(to: UInt8.self))
            }
        }
        return true
    }

    /// Bytes of scratch ``convertToRGBA8(_:matrix:rect:sink:scratch:)`` needs for rows `width` wide.
    static func convertScratchBytes(width: Int) -> Int {
        Int(graph_yuv_to_rgba8_scratch_count(Int32(clamping: width))) * MemoryLayout<Int16>.size
    }
}
