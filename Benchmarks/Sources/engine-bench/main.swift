import Dispatch
import Foundation
import GraphEngine
import Kernels

// In-memory engine benchmark: 6000x4000 RGBA8 in and out. Every task runs optimised (fused
// programs) and with every node materialised (fusion off) in the same process, so the ratio is
// meaningful on a shared, noisy machine. Usage: engine-bench [--quick] [--threads N]

let arguments = CommandLine.arguments
let quick = arguments.contains("--quick")
let threads = arguments.firstIndex(of: "--threads").flatMap { Int(arguments[$0 + 1]) } ?? ContextOptions.processorCount
let width = quick ? 1500 : 6000, height = quick ? 1000 : 4000
let repeats = quick ? 3 : 5

func makeInput() throws -> ImageBuffer {
    try ImageBuffer(width: width, height: height, format: .rgba8, alphaMode: .opaque) { base, rowBytes in
        var state: UInt32 = 12345
        for row in 0..<height {
            let p = (base + row * rowBytes).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let noise = Int(state >> 28)
                p[4 * x] = UInt8((x * 255 / width + noise) & 255)
                p[4 * x + 1] = UInt8((row * 255 / height + noise) & 255)
                p[4 * x + 2] = UInt8(((x + row) * 127 / (width + height) + noise) & 255)
                p[4 * x + 3] = 255
            }
        }
    }
}

/// Best-of-N wall time of rendering `image` into a reused RGBA8 buffer.
func measure(_ context: Context, _ image: Image, into output: ImageBuffer) throws -> Double {
    var best = Double.infinity
    let destination = UnsafeMutableRawPointer.allocate(byteCount: output.rowBytes * output.height, alignment: 64)
    defer { destination.deallocate() }
    for _ in 0..<repeats {
        let start = DispatchTime.now().uptimeNanoseconds
        try context.render(image, to: destination, rowBytes: output.rowBytes, rect: image.extent, format: .rgba8)
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return best
}

do {
    let input = try makeInput()
    let source = Image(buffer: input)
    let output = try ImageBuffer(width: 1, height: 1, format: .rgba8)
    _ = output
    let megapixels = Double(width * height) / 1e6

    var fusedOptions = ContextOptions()
    fusedOptions.threads = threads
    var unfusedOptions = fusedOptions
    unfusedOptions.fusion = false
    let fused = Context(options: fusedOptions), unfused = Context(options: unfusedOptions)
    let target = try ImageBuffer(width: width, height: height, format: .rgba8)

    let colorChain = try source.applyingFilter("CISepiaTone")
        .applyingFilter("CIHueAdjust", parameters: ["inputAngle": .number(0.5)])
        .applyingFilter("CIColorControls", parameters: ["inputContrast": .number(1.2)])

    // Six custom colour kernels, one instruction-level operation each.
    let sources = [
        "kernel vec4 gain(__sample s, float k) { return vec4(s.rgb * k, s.a); }",
        "kernel vec4 lift(__sample s, float k) { return vec4(s.rgb + k, s.a); }",
        "kernel vec4 contrast(__sample s, float k) { return vec4((s.rgb - 0.5) * k + 0.5, s.a); }",
        "kernel vec4 square(__sample s) { return vec4(s.rgb * s.rgb, s.a); }",
        "kernel vec4 clampit(__sample s) { return vec4(clamp(s.rgb, 0.0, 1.0), s.a); }",
        "kernel vec4 invert(__sample s) { return vec4(s.a - s.rgb, s.a); }",
    ]
    var kernelChain = source
    for (index, text) in sources.enumerated() {
        let kernel = try Kernel(source: text)
        let args: [KernelArgument] = kernel.parameters.count == 2 ? [.image(kernelChain), .number([1.1, 0.02, 1.15][index % 3])] : [.image(kernelChain)]
        kernelChain = try Image.applying(kernel, arguments: args)
    }

    let blur = try source.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(10)]).cropped(to: source.extent)

    print("engine-bench: \(width)x\(height) RGBA8 in memory, \(threads) threads, best of \(repeats)")
    print("task                               fused s   MP/s   materialised s   MP/s   fused speed-up")
    for (name, image) in [("(a) sepia -> hue -> contrast", colorChain), ("(b) six custom colour kernels", kernelChain),
                          ("(c) Gaussian blur sigma 10", blur)] {
        let a = try measure(fused, image, into: target)
        let b = try measure(unfused, image, into: target)
        print(String(format: "%-34@ %7.3f %6.0f   %14.3f %6.0f   %.1fx", name as NSString, a, megapixels / a, b, megapixels / b, b / a))
    }
    let stats = fused.programCacheStatistics
    print("program cache: \(stats.hits) hits, \(stats.misses) misses")
} catch {
    FileHandle.standardError.write("engine-bench: \(error)\n".data(using: .utf8) ?? Data())
    exit(1)
}
