import Dispatch
import Foundation
import GraphEngine
import Kernels

// In-memory engine benchmark: 6000x4000 RGBA8 in and out. Every task runs optimised (fused
// programs) and with every node materialised (fusion off) in the same process, so the ratio is
// meaningful on a shared, noisy machine. Then colour management on vs off, and T6: 1080p NV12 to
// RGBA8 frames per second.
// Usage: engine-bench [--quick] [--threads N] [--t6-only] [--latency] [--area [masked|upsample|morphology]] [--gather-only]
//                     [--nv12 FILE] [--i420 FILE] (1920x1080 BT.709 video range frames)
// --gather-only: only the affine-from-8-bit-source vs affine-from-half-float-intermediate figures.
// --latency: only the wall time of one small render (the fixed costs: planning, optimizer,
// program cache, dispatch), for a camera frame and a colour-managed matrix on 8-bit RGBA.
// --area: only the area-filter figures (AreaBenchmarks.swift), each with its comparison in the same run.

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

/// Mean wall time of 5000 renders of a `size`² NV12 frame and of an opaque RGBA8 buffer through a
/// colour matrix (colour-managed), after 100 warm-up renders.
func printLatency(_ context: Context, size: Int) throws {
    let frame = try YUVFrame(bytes: (0..<(size * size * 3 / 2)).map { UInt8(truncatingIfNeeded: $0 * 7) },
                             width: size, height: size, layout: .biPlanar, matrix: .bt709, range: .video)
    let buffer = try ImageBuffer(width: size, height: size, format: .rgba8, alphaMode: .opaque) { base, rowBytes in
        for i in 0..<(rowBytes * size) {
            base.storeBytes(of: i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: i * 13), toByteOffset: i, as: UInt8.self)
        }
    }
    let matrix = ColorMatrix(rgb: [0.9, 0.1, 0, 0, 1, 0, 0, 0.1, 0.9], sourceName: "mix")
    let output = UnsafeMutableRawPointer.allocate(byteCount: size * size * 4, alignment: 64)
    defer { output.deallocate() }
    let rect = Rect(x: 0, y: 0, width: Double(size), height: Double(size))
    for (name, image) in [("NV12 frame", Image(yuv: frame)), ("RGBA8 matrix", Image(buffer: buffer).applyingColorMatrix(matrix))] {
        for _ in 0..<100 { try context.render(image, to: output, rowBytes: size * 4, rect: rect, format: .rgba8) }
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<5000 { try context.render(image, to: output, rowBytes: size * 4, rect: rect, format: .rgba8) }
        let microseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 5000 / 1000
        print(String(format: "latency %@ %dx%d: %.1f us per render", name, size, size, microseconds))
    }
}

/// An 8-bit source of noisy gradients (alpha varying when the format has alpha).
func makeSource(width: Int, height: Int, format: PixelFormat, alphaMode: AlphaMode, colorSpace: ColorSpace?) throws
    -> ImageBuffer {
    try ImageBuffer(width: width, height: height, format: format, alphaMode: alphaMode, colorSpace: colorSpace) { base, rowBytes in
        var state: UInt32 = 777
        let channels = format.channels
        for row in 0..<height {
            let p = (base + row * rowBytes).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let noise = Int(state >> 28)
                for c in 0..<channels {
                    let value = c == 3 ? 128 + (x + row) * 127 / (width + height) : (x * (c + 1) + row * (3 - c)) * 255 / (4 * (width + height))
                    p[channels * x + c] = UInt8(min(255, value + noise))
                }
            }
        }
    }
}

/// Affine transforms sampling an 8-bit source directly, against the same transform reading a
/// half-float intermediate (an identity colour kernel in front materialises the source first).
func printGatherFigures(threads: Int) throws {
    var options = ContextOptions()
    options.threads = threads
    var offOptions = options
    offOptions.workingColorSpace = nil
    let managed = Context(options: options), unmanaged = Context(options: offOptions)
    let identity = try Kernel(source: "kernel vec4 passThrough(__sample s) { return s; }")
    let scale = GraphEngine.AffineTransform(scaleX: 5.25, y: 5.25)
    let mapWidth = 576, mapHeight = 768
    let photoWidth = quick ? 1512 : 3024, photoHeight = quick ? 2016 : 4032
    let rotation = GraphEngine.AffineTransform(translationX: -Double(photoWidth) / 2, y: -Double(photoHeight) / 2)
        .concatenating(GraphEngine.AffineTransform(rotationAngle: 0.1))
        .concatenating(GraphEngine.AffineTransform(translationX: Double(photoWidth) / 2, y: Double(photoHeight) / 2))
    let cases: [(String, ImageBuffer, GraphEngine.AffineTransform)] = [
        ("L8 data 576x768 scaled 5.25", try makeSource(width: mapWidth, height: mapHeight, format: .gray8, alphaMode: .opaque,
                                                        colorSpace: nil), scale),
        ("RGB8 sRGB 576x768 scaled 5.25", try makeSource(width: mapWidth, height: mapHeight, format: .rgb8, alphaMode: .opaque,
                                                          colorSpace: .sRGB), scale),
        ("RGBA8 sRGB straight 576x768 scaled 5.25", try makeSource(width: mapWidth, height: mapHeight, format: .rgba8,
                                                                    alphaMode: .straight, colorSpace: .sRGB), scale),
        ("RGBA8 sRGB opaque \(photoWidth)x\(photoHeight) rotated 0.1", try makeSource(width: photoWidth, height: photoHeight,
                                                                                   format: .rgba8, alphaMode: .opaque,
                                                                                   colorSpace: .sRGB), rotation),
    ]
    print("affine from an 8-bit source vs from a half-float intermediate (RGBA8 out, \(threads) threads, best of \(repeats);")
    print("wall seconds, and CPU seconds of all threads, which a loaded machine disturbs less)")
    print("source, transform, colour management                                 out MP   8-bit source s (CPU)   half-float intermediate s (CPU)   ratio (CPU)")
    for (name, buffer, transform) in cases {
        let source = Image(buffer: buffer)
        let direct = source.transformed(by: transform)
        let viaHalf = try Image.applying(identity, arguments: [.image(source)]).transformed(by: transform)
        let covered = direct.extent.integral
        let outputPixels = Int(covered.width) * Int(covered.height)
        // A data source is never converted; a colour source is read as stored (off) or decoded to linear.
        for (mode, context) in [("off", unmanaged), ("managed", managed)] where buffer.colorSpace != nil || mode == "off" {
            let a = try measureWithCPU(context, direct, bytes: outputPixels * 4)
            let b = try measureWithCPU(context, viaHalf, bytes: outputPixels * 4)
            print((name + ", colour management " + mode).padding(toLength: 70, withPad: " ", startingAt: 0)
                  + String(format: " %7.1f   %7.3f (%7.3f)   %16.3f (%7.3f)   %.2fx (%.2fx)", Double(outputPixels) / 1e6,
                           a.wall, a.cpu, b.wall, b.cpu, b.wall / a.wall, b.cpu / a.cpu))
        }
    }
}

/// Best-of-N wall time of rendering `image`'s extent into a reused RGBA8 buffer, and the process CPU
/// time (all threads) of the fastest CPU run.
func measureWithCPU(_ context: Context, _ image: Image, bytes: Int) throws -> (wall: Double, cpu: Double) {
    var wall = Double.infinity, cpu = Double.infinity
    let destination = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
    defer { destination.deallocate() }
    let rect = image.extent.integral
    func cpuSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
    for _ in 0..<repeats {
        let start = DispatchTime.now().uptimeNanoseconds, startCPU = cpuSeconds()
        try context.render(image, to: destination, rowBytes: Int(rect.width) * 4, rect: rect, format: .rgba8)
        cpu = min(cpu, cpuSeconds() - startCPU)
        wall = min(wall, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return (wall, cpu)
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

    if arguments.contains("--gather-only") {
        try printGatherFigures(threads: threads)
        exit(0)
    }
    if arguments.contains("--area") {
        let index = arguments.firstIndex(of: "--area").map { $0 + 1 } ?? arguments.count
        let only = index < arguments.count && !arguments[index].hasPrefix("--") ? arguments[index] : nil
        try runAreaBenchmarks(threads: threads, repeats: repeats, only: only)
        exit(0)
    }
    if arguments.contains("--latency") {
        for size in [16, 64, 256] { try printLatency(fused, size: size) }
        exit(0)
    }
    let onlyT6 = arguments.contains("--t6-only")
    print("engine-bench: \(width)x\(height) RGBA8 in memory, \(threads) threads, best of \(repeats)")
    var offOptions = fusedOptions
    offOptions.workingColorSpace = nil
    var offUnfusedOptions = unfusedOptions
    offUnfusedOptions.workingColorSpace = nil
    let fusedOff = Context(options: offOptions), unfusedOff = Context(options: offUnfusedOptions)
    print("task (colour management)                       fused s   MP/s   materialised s   MP/s   fused speed-up   peak MiB (fused, materialised)")
    /// Seconds of `body` and the process's peak resident MiB while it ran (VmHWM reset first).
    func withPeak(_ body: () throws -> Double) rethrows -> (seconds: Double, mebibytes: Int) {
        ResidentMemory.resetPeak()
        let seconds = try body()
        return (seconds, (ResidentMemory.peakBytes ?? 0) >> 20)
    }
    let tasks = onlyT6 ? [] : [("(a) sepia -> hue -> contrast", colorChain), ("(b) six custom colour kernels", kernelChain),
                               ("(c) Gaussian blur sigma 10", blur)]
    for (name, image) in tasks {
        for (mode, pair) in [("managed", (fused, unfused)), ("off", (fusedOff, unfusedOff))] {
            let (a, aPeak) = try withPeak { try measure(pair.0, image, into: target) }
            let (b, bPeak) = try withPeak { try measure(pair.1, image, into: target) }
            let label = (name + " " + mode).padding(toLength: 46, withPad: " ", startingAt: 0)
            print(label + String(format: " %7.3f %6.0f   %14.3f %6.0f   %.1fx            %d, %d", a, megapixels / a, b,
                                 megapixels / b, b / a, aPeak, bPeak))
        }
    }
    if !onlyT6 { try printGatherFigures(threads: threads) }
    let stats = fused.programCacheStatistics
    print("program cache: \(stats.hits) hits, \(stats.misses) misses")

    // T6: 1080p 4:2:0 BT.709 video range (NV12, then I420) to RGBA8, frames per second in process,
    // cycling through 8 distinct frame buffers as the OpenCV peer does.
    let frameWidth = 1920, frameHeight = 1080
    let rgba = UnsafeMutableRawPointer.allocate(byteCount: frameWidth * frameHeight * 4, alignment: 64)
    defer { rgba.deallocate() }
    let frameRect = Rect(x: 0, y: 0, width: Double(frameWidth), height: Double(frameHeight))
    let count = quick ? 60 : 300
    for (flag, layout, name) in [("--nv12", YUVFrame.Layout.biPlanar, "NV12"), ("--i420", .planar, "I420")] {
        let frameBytes: [UInt8]
        if let index = arguments.firstIndex(of: flag), index + 1 < arguments.count,
           let data = FileManager.default.contents(atPath: arguments[index + 1]) {
            frameBytes = [UInt8](data)
        } else {
            frameBytes = (0..<(frameWidth * frameHeight * 3 / 2)).map { UInt8(truncatingIfNeeded: ($0 * 7) ^ ($0 >> 11)) }
        }
        let frames = try (0..<8).map { _ in
            try YUVFrame(bytes: Array(frameBytes), width: frameWidth, height: frameHeight, layout: layout,
                         matrix: .bt709, range: .video)
        }
        // The conversion alone (the fixed-point row kernel), then through a filter that is not a
        // colour matrix (so the general float program runs: chroma spans, matrix, pow, store).
        let filters: [(String, (Image) throws -> Image)] = [
            ("", { $0 }),
            (" -> CIGammaAdjust", { try $0.applyingFilter("CIGammaAdjust", parameters: ["inputPower": .number(0.8)]) }),
        ]
        for (filterName, filter) in filters {
            var bestFPS = 0.0
            for _ in 0..<3 {
                let start = DispatchTime.now().uptimeNanoseconds
                for i in 0..<count {
                    try fused.render(try filter(Image(yuv: frames[i % frames.count])), to: rgba, rowBytes: frameWidth * 4,
                                     rect: frameRect, format: .rgba8)
                }
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                bestFPS = max(bestFPS, Double(count) / seconds)
            }
            print(String(format: "T6 %@ 1920x1080 BT.709 video%@ -> RGBA8: %.0f frames/s (%.0f MP/s), best of 3 x %d frames",
                         name, filterName, bestFPS, bestFPS * Double(frameWidth * frameHeight) / 1e6, count))
        }
    }
} catch {
    FileHandle.standardError.write("engine-bench: \(error)\n".data(using: .utf8) ?? Data())
    exit(1)
}
