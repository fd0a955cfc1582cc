/// Reads spans of a 4:2:0 frame as normalised (Y, Cb, Cr, 1), upsampling chroma bilinearly with
/// the frame's siting. The conversion to RGB is a colour-matrix instruction after the load.
///
/// Chroma positions in luma units: vertically centred between rows (`cy = r/2 − 0.25`);
/// horizontally `cx = x/2 − 0.25` (centred) or `cx = x/2` (left, co-sited). Edges clamp.
enum YUVReader {
    static func read(_ frame: YUVFrame, row y: Int, column x0: Int, count: Int, into out: InputView.Channels) {
        let (yOut, cbOut, crOut, aOut) = out
        let scale: Float = 1 / 255
        let memoryRow = frame.height - 1 - y
        // Vertical chroma position and weight.
        let chromaHeight = frame.chromaHeight, chromaWidth = frame.chromaWidth
        let cy = Float(memoryRow) * 0.5 - 0.25
        let cyFloor = cy.rounded(.down)
        let ty = cy - cyFloor
        let row0 = min(max(Int(cyFloor), 0), chromaHeight - 1), row1 = min(max(Int(cyFloor) + 1, 0), chromaHeight - 1)
        let horizontalOffset: Float = frame.siting == .center ? -0.25 : 0
        let interleaved = frame.layout == .biPlanar
        let step = interleaved ? 2 : 1
        frame.bytes.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            let luma = base + frame.lumaOffset + memoryRow * frame.lumaStride + x0
            for i in 0..<count { yOut[i] = Float(luma[i]) * scale }
            let cb0 = base + frame.chromaOffsets.0 + row0 * frame.chromaStride
            let cb1 = base + frame.chromaOffsets.0 + row1 * frame.chromaStride
            let cr0 = base + frame.chromaOffsets.1 + row0 * frame.chromaStride
            let cr1 = base + frame.chromaOffsets.1 + row1 * frame.chromaStride
            let wy0 = (1 - ty) * scale, wy1 = ty * scale
            for i in 0..<count {
                let cx = Float(x0 + i) * 0.5 + horizontalOffset
                let cxFloor = cx.rounded(.down)
                let tx = cx - cxFloor
                let j = Int(cxFloor)
                let j0 = min(max(j, 0), chromaWidth - 1) * step, j1 = min(max(j + 1, 0), chromaWidth - 1) * step
                let b0 = Float(cb0[j0]) * wy0 + Float(cb1[j0]) * wy1, b1 = Float(cb0[j1]) * wy0 + Float(cb1[j1]) * wy1
                let r0 = Float(cr0[j0]) * wy0 + Float(cr1[j0]) * wy1, r1 = Float(cr0[j1]) * wy0 + Float(cr1[j1]) * wy1
                cbOut[i] = b0 + (b1 - b0) * tx
                crOut[i] = r0 + (r1 - r0) * tx
            }
        }
        aOut.update(repeating: 1, count: count)
    }
}
