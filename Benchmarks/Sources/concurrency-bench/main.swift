// One context shared by 64 threads under load (issue 12): every render must give the bytes a
// single-threaded render gives, and resident memory after 5,000 renders must be within 10% of
// memory after 1,000 (no leak, bounded caches). The unit test ConcurrencyTests runs a shorter
// version in debug builds; this is the long one, for release builds.
//
//   swift build -c release --package-path Benchmarks && Benchmarks/.build/release/concurrency-bench [RENDERS]
import Foundation
import GraphEngine
import Kernels

#if canImport(Glibc)
import Glibc
#endif

struct Job {
    let name: String
    let image: Image
    let format: PixelFormat
    let expected: [UInt8]
}

/// A deterministic RGBA8 test image (gradients and a hash, alpha when asked).
func testImage(width: Int, height: Int, seed: Int, alpha: Bool) throws -> Image {
    var bytes = [UInt8](repeating: 255, count: width * height * 4)
    for i in 0..<(width * height) {
        let x = i % width, y = i / width
        bytes[i * 4] = UInt8((x * 255 / width + seed * 31) % 256)
        bytes[i * 4 + 1] = UInt8((y * 255 / height + (i * 2654435761 >> 7) % 17) % 256)
        bytes[i * 4 + 2] = UInt8(((x + y) * 3 + seed) % 256)
        if alpha { bytes[i * 4 + 3] = UInt8((i * 37 + seed) % 256) }
    }
    return Image(buffer: try ImageBuffer(width: width, height: height, format: .rgba8, alphaMode: alpha ? .straight : .opaque,
                                         bytes: bytes))
}

/// The mix: colour chains, blurs with crops, custom kernels and a YUV frame, three parameter values each.
func makeJobs() throws -> [Job] {
    let photo = try testImage(width: 96, height: 72, seed: 1, alpha: false)
    let mask = try testImage(width: 96, height: 72, seed: 2, alpha: true)
    let edges = try Kernel(source: """
        kernel vec4 edges(sampler src, float k) {
            vec2 p = destCoord();
            vec4 c = sample(src, samplerTransform(src, p));
            vec4 d = sample(src, samplerTransform(src, p + vec2(1.0, 0.0))) - sample(src, samplerTransform(src, p - vec2(1.0, 0.0)));
            return vec4(c.rgb + k * abs(d.rgb), c.a);
        }
        """)
    let darken = try Kernel(source: "kernel vec4 darken(__sample s, __sample m, float p) { return vec4(s.rgb * pow(m.g, p), s.a); }")
    var frameBytes: [UInt8] = []
    for i in 0..<(64 * 48) { frameBytes.append(UInt8(16 + (i * 7) % 219)) }
    for i in 0..<(32 * 24) { frameBytes += [UInt8(100 + i % 56), UInt8(150 - i % 40)] }
    let frame = try YUVFrame(bytes: frameBytes, width: 64, height: 48, layout: .biPlanar, matrix: .bt709, range: .video)
    var made: [(String, Image, PixelFormat)] = []
    for variant in 0..<3 {
        let v = Double(variant)
        made.append(("colour chain", try photo.applyingFilter("CISepiaTone", parameters: ["inputIntensity": .number(0.3 + 0.2 * v)])
            .applyingFilter("CIHueAdjust", parameters: ["inputAngle": .number(0.4 * v)])
            .applyingFilter("CIGammaAdjust", parameters: ["inputPower": .number(0.8 + 0.2 * v)]), .rgba8))
        made.append(("blur + crop", try photo.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(1.5 + v)])
            .cropped(to: Rect(x: 3, y: 2, width: 80, height: 60)), .rgba16))
        let sharpened = try Image.applying(edges, arguments: [.image(photo), .number(0.5 + v)], regionOfInterest: .radius(1))
        made.append(("custom kernels", try Image.applying(darken, arguments: [.image(sharpened), .image(mask), .number(1 + v)]), .rgbaf))
        made.append(("yuv frame", try Image(yuv: frame).applyingFilter("CIExposureAdjust", parameters: ["inputEV": .number(v / 2)]), .bgra8))
    }
    var single = ContextOptions()
    single.threads = 1
    let reference = Context(options: single)
    return try made.map { Job(name: $0.0, image: $0.1, format: $0.2, expected: try reference.render($0.1, format: $0.2).bytes) }
}

func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
}

final class Shared: @unchecked Sendable {
    let lock = NSLock()
    var next = 0
    var mismatches = 0
    var errors: [String] = []
}

let total = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 5_000 : 5_000
let jobs = try makeJobs()
let context = Context()
let shared = Shared()
var resident: [(renders: Int, bytes: Int)] = []
let start = Date()
for checkpoint in [1_000, total] {
    let done = DispatchGroup()
    for _ in 0..<64 {
        done.enter()
        Thread {
            while true {
                shared.lock.lock()
                let index = shared.next
                if index < checkpoint { shared.next += 1 }
                shared.lock.unlock()
                guard index < checkpoint else { break }
                let job = jobs[index % jobs.count]
                do {
                    if try context.render(job.image, format: job.format).bytes != job.expected {
                        shared.lock.lock(); shared.mismatches += 1; shared.lock.unlock()
                    }
                } catch {
                    shared.lock.lock(); shared.errors.append("\(job.name): \(error)"); shared.lock.unlock()
                }
            }
            done.leave()
        }.start()
    }
    done.wait()
    resident.append((checkpoint, residentBytes()))
    print("\(checkpoint) renders on 64 threads: \(String(format: "%.1f", Date().timeIntervalSince(start))) s, resident \(resident.last!.bytes >> 20) MiB")
}
let growth = Double(resident[1].bytes) / Double(resident[0].bytes) - 1
print(String(format: "mismatches %d, errors %d, memory growth %.1f%% (limit 10%%), program cache %d entries",
             shared.mismatches, shared.errors.count, growth * 100, context.programCacheStatistics.entries))
for error in shared.errors.prefix(5) { print("error: \(error)") }
exit(shared.mismatches == 0 && shared.errors.isEmpty && growth < 0.1 ? 0 : 1)
