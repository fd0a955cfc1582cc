/// The CPU implementations of the plan's super-operations (``RowKernel``).
enum RowKernels {
    /// Runs `kernel` over `rect` of the output stage into `sink` and returns true, or returns
    /// false having written nothing when it cannot do this rectangle exactly (a frame's matrix
    /// outside the kernel's fixed point, rows outside the source buffer): the stage's program then
    /// runs instead.
    static func run(_ kernel: RowKernel, uniforms: [Float], inputs: [InputView], rect: PixelRect,
                    registers: SpanInterpreter.RegisterFile, sink: BufferSink) -> Bool {
        guard !rect.isEmpty else { return true }
        switch kernel {
        case .yuvToRGBA8(let base):
            guard case .yuv(let frame, _)? = inputs.first?.storage, base + 15 <= uniforms.count else { return false }
            // The blended chroma rows live in the worker's registers (Float32 each).
            registers.reserve(YUVReader.convertScratchBytes(width: rect.width) / (4 * SpanInterpreter.spanWidth) + 1)
            let scratch = UnsafeMutableRawPointer(registers.register(0))
            return uniforms.withUnsafeBufferPointer { u in
                u.baseAddress.map {
                    YUVReader.convertToRGBA8(frame, matrix: $0 + base, rect: rect, sink: sink, scratch: scratch)
                } ?? false
            }
        case .byteCopy:
            guard case .buffer(let source)? = inputs.first?.storage else { return false }
            return sink.copyRows(from: source, rect: rect)
        case .areaCodes, .areaPlanes:
            // The executor runs the area stage into the destination; here its planes were computed.
            return false
        }
    }
}
