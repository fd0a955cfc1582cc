import GraphEngine

extension FuzzTarget {
    /// Kernel-language source: lexed, parsed, type-checked and lowered (`Kernel(source:)`), then
    /// applied to tiny images and rendered, so the lowered program runs in the interpreter too.
    /// Arguments are made from the signature: images for `__sample`/`sampler`, small numbers for
    /// the rest.
    static let kernel = FuzzTarget(name: "kernel") { bytes in
        guard let kernel = try? Kernel(source: String(decoding: bytes, as: UTF8.self)) else { return }
        let arguments: [KernelArgument] = kernel.parameters.enumerated().map { index, parameter in
            switch parameter.type {
            case .sample, .sampler: return .image(fuzzImages[index % fuzzImages.count])
            case .float: return .number(Double(index) * 0.75 - 1)
            case .vec2: return .vector([0.5, -2])
            case .vec3: return .vector([1, 0.25, -0.5])
            case .vec4, .color: return .vector([0.2, 0.4, 0.6, 1])
            }
        }
        guard let image = try? Image.applying(kernel, arguments: arguments, extent: Rect(x: -2, y: -1, width: 7, height: 5),
                                               regionOfInterest: .radius(2)) else { return }
        _ = try? fuzzContext.render(image, format: .rgba8)
    }
}

/// Two small images of different sizes, one opaque and one with alpha, for kernels and recipes.
let fuzzImages: [Image] = {
    var opaque: [UInt8] = [], alpha: [UInt8] = []
    for i in 0..<(5 * 4) { opaque += [UInt8(i * 12), UInt8(255 - i * 9), UInt8(i * 5)] }
    for i in 0..<(3 * 3) { alpha += [UInt8(i * 28), 40, UInt8(200 - i * 20), UInt8(i * 31)] }
    guard let first = try? ImageBuffer(width: 5, height: 4, format: .rgb8, alphaMode: .opaque, bytes: opaque),
          let second = try? ImageBuffer(width: 3, height: 3, format: .rgba8, alphaMode: .straight, bytes: alpha) else {
        fatalError("the fuzz images could not be made")
    }
    return [Image(buffer: first), Image(buffer: second)]
}()

/// One context for every input, as an application would use it (its caches see many recipes).
let fuzzContext: Context = {
    var options = ContextOptions()
    options.threads = 1
    options.maximumRenderPixels = 1 << 16
    return Context(options: options)
}()
