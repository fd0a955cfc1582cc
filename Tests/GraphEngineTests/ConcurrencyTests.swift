import Foundation
import Kernels
import XCTest
@testable import GraphEngine

/// One context shared by many threads under load: every render gives the bytes a single-threaded
/// render gives, and memory stops growing once the caches are warm.
///
/// The test runs 1,000 renders on 64 threads and then 500 more, and compares resident memory
/// after each round (a debug build renders about 100 a second on two cores). The long version,
/// 5,000 renders against 1,000 in a release build, is Benchmarks' `concurrency-bench`.
final class ConcurrencyTests: XCTestCase {
    func testSixtyFourThreadsGiveSingleThreadedBytes() throws {
        let workload = try ConcurrencyWorkload()
        let context = Context()
        let failures = ErrorBox()
        /// `renders` renders spread over 64 threads; returns when all are done.
        func round(_ renders: Int) {
            let next = Counter()
            let done = DispatchGroup()
            for _ in 0..<64 {
                done.enter()
                Thread {
                    while let index = next.take(below: renders) {
                        do {
                            let job = workload.jobs[index % workload.jobs.count]
                            let bytes = try context.render(job.image, format: job.format).bytes
                            if bytes != job.expected { failures.set(ConcurrencyMismatch(render: index, job: job.name)) }
                        } catch {
                            failures.set(error)
                        }
                    }
                    done.leave()
                }.start()
            }
            done.wait()
        }
        round(1_000)
        if let error = failures.get() { throw error }
        let warm = residentBytes()
        round(500)
        let later = residentBytes()
        if let error = failures.get() { throw error }
        XCTAssertLessThan(Double(later), Double(warm) * 1.1, "resident \(warm >> 20) MiB after 1,000 renders, \(later >> 20) MiB after 1,500")
        XCTAssertLessThanOrEqual(context.programCacheStatistics.entries, workload.jobs.count * 4)
    }

    /// A context rendering ever new programs keeps at most `programCacheLimit` of them.
    func testTheProgramCacheIsBounded() throws {
        var options = ContextOptions()
        options.programCacheLimit = 8
        let context = Context(options: options)
        let source = Image(buffer: try makeTestBuffer(width: 8, height: 8, seed: 1))
        for step in 0..<40 {
            let kernel = try Kernel(source: "kernel vec4 k(__sample s) { return vec4(s.rgb * \(step + 1).0 / 41.0, s.a); }")
            _ = try context.render(try Image.applying(kernel, arguments: [.image(source)]))
            XCTAssertLessThanOrEqual(context.programCacheStatistics.entries, 8)
        }
        XCTAssertEqual(context.programCacheStatistics.misses, 40)
    }
}

/// The mix of recipes: a colour chain, a blur with a crop, custom kernels (a general kernel
/// sampling neighbours, a two-input colour kernel) and a YUV frame, each with a few parameter
/// values, and the bytes each gives rendered alone on a single-threaded context.
struct ConcurrencyWorkload {
    struct Job: Sendable {
        let name: String
        let image: Image
        let format: PixelFormat
        let expected: [UInt8]
    }

    let jobs: [Job]

    init() throws {
        let photo = Image(buffer: try makeTestBuffer(width: 48, height: 36, seed: 21))
        let mask = Image(buffer: try makeTestBuffer(width: 48, height: 36, seed: 22, alpha: .straight))
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
        for i in 0..<(32 * 24) { frameBytes.append(UInt8(16 + (i * 7) % 219)) }
        for i in 0..<(16 * 12) { frameBytes += [UInt8(100 + i % 56), UInt8(150 - i % 40)] }
        let frame = try YUVFrame(bytes: frameBytes, width: 32, height: 24, layout: .biPlanar, matrix: .bt709, range: .video)

        var made: [(String, Image, PixelFormat)] = []
        for variant in 0..<3 {
            let v = Double(variant)
            let chain = try photo.applyingFilter("CISepiaTone", parameters: ["inputIntensity": .number(0.3 + 0.2 * v)])
                .applyingFilter("CIHueAdjust", parameters: ["inputAngle": .number(0.4 * v)])
                .applyingFilter("CIGammaAdjust", parameters: ["inputPower": .number(0.8 + 0.2 * v)])
            made.append(("colour chain \(variant)", chain, .rgba8))
            let blurred = try photo.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(1.5 + v)])
                .cropped(to: Rect(x: 3, y: 2, width: 40, height: 30))
            made.append(("blur and crop \(variant)", blurred, .rgba16))
            let custom = try Image.applying(darken, arguments: [.image(try Image.applying(edges, arguments: [.image(photo), .number(0.5 + v)],
                                                                                           regionOfInterest: .radius(1))),
                                                                 .image(mask), .number(1 + v)])
            made.append(("custom kernels \(variant)", custom, .rgbaf))
            let yuv = try Image(yuv: frame).applyingFilter("CIExposureAdjust", parameters: ["inputEV": .number(v / 2)])
            made.append(("yuv frame \(variant)", yuv, .bgra8))
        }
        var single = ContextOptions()
        single.threads = 1
        let reference = Context(options: single)
        jobs = try made.map { name, image, format in
            Job(name: name, image: image, format: format, expected: try reference.render(image, format: format).bytes)
        }
    }
}

struct ConcurrencyMismatch: Error, CustomStringConvertible {
    let render: Int
    let job: String
    var description: String { "render \(render) (\(job)) differs from the single-threaded render" }
}

/// Hands out 0, 1, 2, ... to many threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func take(below limit: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard value < limit else { return nil }
        value += 1
        return value - 1
    }
}

/// The process's resident memory now (not its peak), from /proc/self/statm.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
}
