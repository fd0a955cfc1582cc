import Dispatch
import Foundation
import GraphEngine
import Kernels

/// The area filters' acceptance figures, each measured with its comparison in the same run (the
/// machine is shared): on a 4032x3024 (12 MP) RGBA8 photo-like image in memory, clamped to its
/// extent and cropped back as a user would,
/// - CIMaskedVariableBlur radius 20 (a gradient mask) against one CIGaussianBlur σ 20;
/// - CIEdgePreserveUpsampleFilter 768x576 -> 4032x3024 (absolute time), of an RGBA image and of a
///   grey Float32 map (a depth map: the one-channel path);
/// - CIMorphologyRectangleMinimum 101x101 (radius 50) against 5x5 (radius 2);
/// - CIBoxBlur radius 50 against radius 2.
func runAreaBenchmarks(threads: Int, repeats: Int, only: String?) throws {
    let width = 4032, height = 3024
    func pattern(_ w: Int, _ h: Int, seed: UInt32) throws -> ImageBuffer {
        try ImageBuffer(width: w, height: h, format: .rgba8, alphaMode: .opaque) { base, rowBytes in
            var state = seed
            for row in 0..<h {
                let p = (base + row * rowBytes).assumingMemoryBound(to: UInt8.self)
                for x in 0..<w {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    let noise = Int(state >> 28)
                    let disc = ((x - w / 2) * (x - w / 2) + (row - h / 3) * (row - h / 3)) < (h / 4) * (h / 4) ? 80 : 0
                    p[4 * x] = UInt8((x * 200 / w + disc + noise) & 255)
                    p[4 * x + 1] = UInt8((row * 255 / h + noise) & 255)
                    p[4 * x + 2] = UInt8(((x + row) * 127 / (w + h) + disc / 2 + noise) & 255)
                    p[4 * x + 3] = 255
                }
            }
        }
    }
    let photo = Image(buffer: try pattern(width, height, seed: 7))
    let small = Image(buffer: try pattern(768, 576, seed: 9))
    let mask = Image(buffer: try ImageBuffer(width: width, height: height, format: .rgba8, alphaMode: .opaque) { base, rowBytes in
        for row in 0..<height {
            let p = (base + row * rowBytes).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width {
                let v = UInt8(x * 255 / width)
                p[4 * x] = v; p[4 * x + 1] = v; p[4 * x + 2] = v; p[4 * x + 3] = 255
            }
        }
    })
    var options = ContextOptions()
    options.threads = threads
    let context = Context(options: options)
    let output = UnsafeMutableRawPointer.allocate(byteCount: width * height * 4, alignment: 64)
    defer { output.deallocate() }
    /// Best wall time of `repeats` renders; also prints the best process CPU time (user + system of
    /// all threads), which a loaded machine inflates less than wall time.
    func seconds(_ image: Image) throws -> Double {
        var best = Double.infinity, bestCPU = Double.infinity
        for _ in 0..<repeats {
            let start = DispatchTime.now().uptimeNanoseconds, cpuStart = cpuSeconds()
            try context.render(image, to: output, rowBytes: width * 4, rect: photo.extent, format: .rgba8)
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            bestCPU = min(bestCPU, cpuSeconds() - cpuStart)
        }
        print(String(format: "  (%.3f s wall, %.3f s CPU)", best, bestCPU))
        return best
    }
    func clamped(_ name: String, _ parameters: [String: FilterValue]) throws -> Image {
        try photo.clampedToExtent().applyingFilter(name, parameters: parameters).cropped(to: photo.extent)
    }
    print("engine-bench --area: \(width)x\(height) RGBA8 in memory, \(threads) threads, best of \(repeats)")
    if only == nil || only == "masked" {
        let gaussian = try seconds(try clamped("CIGaussianBlur", ["inputRadius": .number(20)]))
        let masked = try seconds(try clamped("CIMaskedVariableBlur", ["inputMask": .image(mask), "inputRadius": .number(20)]))
        print(String(format: "CIMaskedVariableBlur r20: %.3f s; CIGaussianBlur sigma 20: %.3f s; ratio %.2f (goal <= 3)",
                     masked, gaussian, masked / gaussian))
    }
    if only == nil || only == "upsample" {
        let upsample = try seconds(try photo.applyingFilter("CIEdgePreserveUpsampleFilter", parameters: ["inputSmallImage": .image(small)]))
        print(String(format: "CIEdgePreserveUpsampleFilter 768x576 -> %dx%d: %.3f s (goal < 0.5 on 2 cores)", width, height, upsample))
        var depth: [Float] = []
        for row in 0..<576 { for x in 0..<768 { depth.append(0.3 + 0.4 * Float(x) / 768 + (row > 200 && row < 400 && x > 300 && x < 500 ? 0.3 : 0)) } }
        let map = Image(buffer: try ImageBuffer(width: 768, height: 576, format: .grayf, colorSpace: nil, bytes: depth.withUnsafeBytes { Array($0) }))
        let grey = try seconds(try photo.applyingFilter("CIEdgePreserveUpsampleFilter", parameters: ["inputSmallImage": .image(map)]))
        print(String(format: "CIEdgePreserveUpsampleFilter of a grey map 768x576 -> %dx%d: %.3f s (goal < 0.2 on 2 cores)", width, height, grey))
    }
    if only == nil || only == "morphology" {
        let rectangle = { (radius: Double) -> [String: FilterValue] in
            ["inputWidth": .number(2 * radius + 1), "inputHeight": .number(2 * radius + 1)]
        }
        let box = { (radius: Double) -> [String: FilterValue] in ["inputRadius": .number(radius)] }
        for (name, parameters, goal) in [("CIMorphologyRectangleMinimum", rectangle, " (goal <= 1.5)"), ("CIBoxBlur", box, "")] {
            let little = try seconds(try clamped(name, parameters(2))), large = try seconds(try clamped(name, parameters(50)))
            print(String(format: "%@ radius 50: %.3f s; radius 2: %.3f s; ratio %.2f%@", name, large, little, large / little, goal))
        }
    }
}

/// CPU seconds used by the whole process so far.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}
