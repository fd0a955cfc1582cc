import Foundation

/// A deliberately simple evaluator of the *unoptimized* recipe: node by node, pixel by pixel, every
/// value kept in Float32 (matrices in Double), no fusion, no folding, no tiles, no half-float
/// storage. It is the oracle for differential tests of the optimizer and executor.
///
/// Only the per-operation lowering of colour/warp/general operations is shared with the fast path
/// (each node is lowered alone and run one pixel at a time by a scalar loop) and each area pass's own
/// plain per-pixel statement (``AreaOperation/referenceValue(x:y:input:)``); matrices, sampling,
/// crops, clamps and extents are written again here, plainly.
package final class ReferenceEvaluator {
    private struct PixelKey: Hashable { let node: ObjectIdentifier; let x: Int; let y: Int }
    private var memo: [PixelKey: SIMD4<Float>] = [:]
    private var programs: [ObjectIdentifier: (Program, [Float])] = [:]
    private var processed: [ObjectIdentifier: PlanarBuffer] = [:]

    package init() {}

    /// Renders `rect` of `image` as premultiplied RGBA Float32, rows bottom-up, with the colour
    /// conversions a context with `options` inserts.
    package func render(_ image: Image, rect: Rect, options: ContextOptions = ContextOptions()) throws -> [SIMD4<Float>] {
        let root = Image(node: ColorManagement.insertConversions(image.node, working: options.workingColorSpace,
                                                                 output: options.outputColorSpace))
        return try renderWithoutColorManagement(root, rect: rect)
    }

    private func renderWithoutColorManagement(_ image: Image, rect: Rect) throws -> [SIMD4<Float>] {
        let area = PixelRect(rect)
        var result: [SIMD4<Float>] = []
        result.reserveCapacity(area.pixelCount)
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX { result.append(try value(image.node, x, y)) }
        }
        return result
    }

    /// The value of `node` at pixel (`x`, `y`) (centre at +0.5).
    func value(_ node: Node, _ x: Int, _ y: Int) throws -> SIMD4<Float> {
        let key = PixelKey(node: ObjectIdentifier(node), x: x, y: y)
        if let known = memo[key] { return known }
        let result = try compute(node, x, y)
        memo[key] = result
        return result
    }

    /// Whether pixel (`x`, `y`) is part of an image of this extent: its unit square meets the extent
    /// (rounded out with `integral`'s tolerance, so float dust on a transformed edge adds no pixel).
    private func inside(_ extent: Rect, _ x: Int, _ y: Int) -> Bool {
        if extent.isInfinite { return true }
        let e = extent.integral
        return Double(x) >= e.minX && Double(x) < e.maxX && Double(y) >= e.minY && Double(y) < e.maxY
    }

    private func compute(_ node: Node, _ x: Int, _ y: Int) throws -> SIMD4<Float> {
        guard inside(node.extent, x, y) else { return .zero }
        switch node.kind {
        case .buffer(let buffer):
            return bufferPixel(buffer, x, y)
        case .matrix(let matrix):
            let s = try value(node.inputs[0], x, y)
            let a = Double(s[3])
            let straight = (0..<3).map { a > 0 ? Double(s[$0]) / a : Double(s[$0]) } + [a]
            var out = [Double](repeating: 0, count: 4)
            for i in 0..<4 {
                out[i] = matrix.element(i, 4)
                for j in 0..<4 { out[i] += matrix.element(i, j) * straight[j] }
            }
            return SIMD4(Float(out[0] * out[3]), Float(out[1] * out[3]), Float(out[2] * out[3]), Float(out[3]))
        case .yuv(let frame):
            return yuvPixel(frame, x, y)
        case .file(let source):
            return bufferPixel(try source.buffer(scale: 1), x, y)
        case .crop:
            return try value(node.inputs[0], x, y)
        case .colorConversion(let conversion):
            return convert(try value(node.inputs[0], x, y), conversion)
        case .clamp:
            let e = node.inputs[0].extent.integral
            guard !e.isEmpty else { return .zero }
            let cx = min(max(Double(x), e.minX), e.maxX - 1), cy = min(max(Double(y), e.minY), e.maxY - 1)
            return try value(node.inputs[0], Int(cx), Int(cy))
        case .area(let op):
            // Each pass states its result plainly, one pixel at a time.
            return try op.referenceValue(x: x, y: y) { index, px, py in try value(node.inputs[index], px, py) }
        case .affine(let transform, let filter):
            guard let inverse = transform.inverted else { return .zero }
            let p = inverse.apply(x: Double(x) + 0.5, y: Double(y) + 0.5)
            return try sample(node.inputs[0], Float(p.x), Float(p.y), filter)
        case .processor(let processor):
            let output = try processorOutput(node, processor)
            return SIMD4((0..<4).map { output.value(channel: $0, x: x, y: y) })
        case .color, .warp, .general:
            return try runAlone(node, x, y)
        }
    }

    private func bufferPixel(_ buffer: ImageBuffer, _ x: Int, _ y: Int) -> SIMD4<Float> {
        _ = buffer.rowProgress?.waitForAll()
        guard x >= 0, y >= 0, x < buffer.width, y < buffer.height else { return .zero }
        let base = UnsafeRawPointer(buffer.storage + (buffer.height - 1 - y) * buffer.rowBytes + x * buffer.format.bytesPerPixel)
        let p = PixelIO.readPixel(base, format: buffer.format, alpha: buffer.alphaMode)
        return SIMD4(p.0, p.1, p.2, p.3)
    }

    /// YCbCr to R'G'B' in Double, with chroma upsampled bilinearly at the frame's siting.
    private func yuvPixel(_ f: YUVFrame, _ x: Int, _ y: Int) -> SIMD4<Float> {
        let row = f.height - 1 - y
        func byte(_ offset: Int) -> Double { Double(f.bytes[offset]) }
        let luma = byte(f.lumaOffset + row * f.lumaStride + x)
        let cx = Double(x) / 2 - (f.siting == .center ? 0.25 : 0), cy = Double(row) / 2 - 0.25
        func chroma(_ plane: Int) -> Double {
            let step = f.layout == .biPlanar ? 2 : 1
            let base = plane == 0 ? f.chromaOffsets.0 : f.chromaOffsets.1
            func at(_ i: Int, _ j: Int) -> Double {
                let ci = min(max(i, 0), f.chromaWidth - 1), cj = min(max(j, 0), f.chromaHeight - 1)
                return byte(base + cj * f.chromaStride + ci * step)
            }
            let i = Int(cx.rounded(.down)), j = Int(cy.rounded(.down))
            let tx = cx - cx.rounded(.down), ty = cy - cy.rounded(.down)
            let top = at(i, j) * (1 - tx) + at(i + 1, j) * tx
            let bottom = at(i, j + 1) * (1 - tx) + at(i + 1, j + 1) * tx
            return top * (1 - ty) + bottom * ty
        }
        let (kr, kb) = f.matrix.coefficients
        let kg = 1 - kr - kb
        let yp = f.range == .video ? (luma - 16) / 219 : luma / 255
        let pb = (chroma(0) - 128) / (f.range == .video ? 224 : 255)
        let pr = (chroma(1) - 128) / (f.range == .video ? 224 : 255)
        let r = yp + 2 * (1 - kr) * pr
        let g = yp - 2 * kb * (1 - kb) / kg * pb - 2 * kr * (1 - kr) / kg * pr
        let b = yp + 2 * (1 - kb) * pb
        return SIMD4(Float(r), Float(g), Float(b), 1)
    }

    /// A colour conversion in Double with the exact transfer formulas.
    private func convert(_ s: SIMD4<Float>, _ conversion: ColorConversion) -> SIMD4<Float> {
        let a = Double(s[3])
        var c = (0..<3).map { a > 0 ? Double(s[$0]) / a : Double(s[$0]) }
        func decode(_ y: Double) -> Double {
            let m = abs(y)
            let v = m <= 0.04045 ? m / 12.92 : pow((m + 0.055) / 1.055, 2.4)
            return y < 0 ? -v : v
        }
        func encode(_ x: Double) -> Double {
            let m = abs(x)
            let v = m <= 0.0031308 ? m * 12.92 : 1.055 * pow(m, 1 / 2.4) - 0.055
            return x < 0 ? -v : v
        }
        switch conversion.from.transfer {
        case .sRGB: c = c.map(decode)
        case .curve(let curve): c = c.map(curve.decode)
        case .linear: break
        }
        if let m = conversion.primariesMatrix { c = ColorSpace.apply(m, c) }
        switch conversion.to.transfer {
        case .sRGB: c = c.map(encode)
        case .curve(let curve): c = c.map(curve.encode)
        case .linear: break
        }
        return SIMD4(Float(c[0] * a), Float(c[1] * a), Float(c[2] * a), Float(a))
    }

    /// Bilinear (or nearest) sampling at a working-space point, written independently of InputView.
    private func sample(_ node: Node, _ px: Float, _ py: Float, _ filter: SamplingFilter) throws -> SIMD4<Float> {
        guard px.isFinite, py.isFinite, abs(px) < 1e7, abs(py) < 1e7 else { return .zero }
        if filter == .nearest { return try value(node, Int(px.rounded(.down)), Int(py.rounded(.down))) }
        let fx = px - 0.5, fy = py - 0.5
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let tx = fx - fx.rounded(.down), ty = fy - fy.rounded(.down)
        let a = try value(node, x0, y0), b = try value(node, x0 + 1, y0)
        let c = try value(node, x0, y0 + 1), d = try value(node, x0 + 1, y0 + 1)
        return a * ((1 - tx) * (1 - ty)) + b * (tx * (1 - ty)) + c * ((1 - tx) * ty) + d * (tx * ty)
    }

    /// Lowers one operation alone and runs it for one pixel with a scalar loop.
    private func runAlone(_ node: Node, _ x: Int, _ y: Int) throws -> SIMD4<Float> {
        let (program, uniforms) = try lowered(node)
        var registers = [Float](repeating: 0, count: program.registerCount)
        func read(_ operand: Operand) -> Float {
            switch operand {
            case .register(let r): return registers[r]
            case .constant(let c): return c
            case .uniform(let u): return uniforms[u]
            }
        }
        for instruction in program.instructions {
            switch instruction {
            case .unary(let f, let d, let a): registers[d] = ScalarMath.unary(f, read(a))
            case .binary(let f, let d, let a, let b): registers[d] = ScalarMath.binary(f, read(a), read(b))
            case .ternary(let f, let d, let a, let b, let c): registers[d] = ScalarMath.ternary(f, read(a), read(b), read(c))
            case .move(let d, let a): registers[d] = read(a)
            case .destinationX(let d): registers[d] = Float(x) + 0.5
            case .destinationY(let d): registers[d] = Float(y) + 0.5
            case .load(let input, let q):
                let v = try value(node.inputs[input], x, y)
                registers[q.r] = v[0]; registers[q.g] = v[1]; registers[q.b] = v[2]; registers[q.a] = v[3]
            case .sample(let input, let sx, let sy, let q):
                let v = try sample(node.inputs[input], read(sx), read(sy), .linear)
                registers[q.r] = v[0]; registers[q.g] = v[1]; registers[q.b] = v[2]; registers[q.a] = v[3]
            case .stencil(let input, let dx, let dy, let q):
                let v = try sample(node.inputs[input], (Float(x) + 0.5) + Float(dx), (Float(y) + 0.5) + Float(dy), .linear)
                registers[q.r] = v[0]; registers[q.g] = v[1]; registers[q.b] = v[2]; registers[q.a] = v[3]
            case .colorMatrix(let d, let s, let base):
                let input = [read(s.r), read(s.g), read(s.b), read(s.a)].map(Double.init)
                let out = (0..<4).map { i in
                    (0..<4).reduce(Double(uniforms[base + i * 5 + 4])) { $0 + Double(uniforms[base + i * 5 + $1]) * input[$1] }
                }
                registers[d.r] = Float(out[0]); registers[d.g] = Float(out[1])
                registers[d.b] = Float(out[2]); registers[d.a] = Float(out[3])
            case .colorMatrixRGB(let d, let s, let base):
                let input = [read(s.r), read(s.g), read(s.b), read(s.a)].map(Double.init)
                let out = (0..<3).map { i in
                    (0..<4).reduce(Double(uniforms[base + i * 5 + 4])) { $0 + Double(uniforms[base + i * 5 + $1]) * input[$1] }
                }
                registers[d.r] = Float(out[0]); registers[d.g] = Float(out[1]); registers[d.b] = Float(out[2])
            case .lookup3D(let d, let s, let dimension, let extrapolate, let base):
                let out = lookup3D([read(s.r), read(s.g), read(s.b), read(s.a)].map(Double.init), dimension: dimension,
                                   extrapolate: extrapolate) { Double(uniforms[base + $0]) }
                registers[d.r] = Float(out[0]); registers[d.g] = Float(out[1])
                registers[d.b] = Float(out[2]); registers[d.a] = Float(out[3])
            case .store(let q):
                return SIMD4(read(q.r), read(q.g), read(q.b), read(q.a))
            }
        }
        return .zero
    }

    /// A 3D table lookup in Double: unpremultiply, table coordinates, the weighted sum of the eight
    /// corner texels (weights `∏ (1 − f)` or `f` per axis), times alpha. `texel(k)` is float `k`.
    private func lookup3D(_ s: [Double], dimension d: Int, extrapolate: Bool, texel: (Int) -> Double) -> [Double] {
        let a = s[3]
        var cells: [Int] = [], fractions: [Double] = []
        for channel in 0..<3 {
            var x = (a > 0 ? s[channel] / a : s[channel]) * Double(d - 1)
            if x.isNaN { x = 0 }
            if !extrapolate { x = min(max(x, 0), Double(d - 1)) }
            let cell = min(max(Int(max(min(x.rounded(.down), 1e9), -1e9)), 0), d - 2)
            cells.append(cell)
            fractions.append(x - Double(cell))
        }
        var out = [0.0, 0, 0, 0]
        for corner in 0..<8 {
            var weight = 1.0, index = 0, stride = 1
            for axis in 0..<3 {
                let upper = (corner >> axis) & 1
                weight *= upper == 1 ? fractions[axis] : 1 - fractions[axis]
                index += (cells[axis] + upper) * stride
                stride *= d
            }
            for channel in 0..<4 { out[channel] += weight * texel(index * 4 + channel) }
        }
        return out.map { $0 * a }
    }

    private func lowered(_ node: Node) throws -> (Program, [Float]) {
        if let known = programs[ObjectIdentifier(node)] { return known }
        var builder = ProgramBuilder()
        let destination = builder.destinationCoordinate()
        let result: OperandQuad
        switch node.kind {
        case .color(let op):
            let inputs = node.inputs.indices.map { builder.load(input: $0) }
            let uniforms = op.uniformValues.map { builder.uniform($0) }
            result = try op.lower(inputs: inputs, uniforms: uniforms, destination: destination, builder: &builder)
        case .warp(let op):
            let uniforms = op.uniformValues.map { builder.uniform($0) }
            let point = try op.lower(uniforms: uniforms, destination: destination, builder: &builder)
            result = builder.sample(input: 0, x: point.x, y: point.y)
        case .general(let op):
            let samplers = node.inputs.enumerated().map { index, input -> SamplerBinding in
                let e = input.extent.isInfinite ? Rect(x: -1e9, y: -1e9, width: 2e9, height: 2e9) : input.extent
                return SamplerBinding(slot: index, extent: [e.x, e.y, e.width, e.height].map { builder.uniform(Float($0)) })
            }
            let uniforms = op.uniformValues.map { builder.uniform($0) }
            result = try op.lower(samplers: samplers, uniforms: uniforms, destination: destination, builder: &builder)
        default:
            throw GraphError.renderFailed("reference evaluator: \(node.label) is not a kernel")
        }
        builder.inputCount = node.inputs.count
        let finished = builder.finish(storing: result)
        programs[ObjectIdentifier(node)] = (finished.program, finished.uniforms)
        return (finished.program, finished.uniforms)
    }

    private func processorOutput(_ node: Node, _ processor: any ImageProcessor) throws -> PlanarBuffer {
        if let done = processed[ObjectIdentifier(node)] { return done }
        var inputs: [PlanarBuffer] = []
        for (index, input) in node.inputs.enumerated() {
            let region = PixelRect(processor.regionOfInterest(input: index, inputExtent: input.extent, outputRect: node.extent)
                .intersection(input.extent))
            let buffer = try PlanarBuffer(rect: region)
            for y in region.y..<region.maxY {
                for x in region.x..<region.maxX {
                    let v = try value(input, x, y)
                    for c in 0..<4 { buffer.setValue(v[c], channel: c, x: x, y: y) }
                }
            }
            inputs.append(buffer)
        }
        let output = try PlanarBuffer(rect: PixelRect(node.extent))
        try processor.process(inputs: inputs, output: output)
        processed[ObjectIdentifier(node)] = output
        return output
    }
}
