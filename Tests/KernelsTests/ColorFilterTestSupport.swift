import XCTest
import GraphEngine
@testable import Kernels

/// Shared helpers of the colour-filter tests: random float images, exact (Float32, colour
/// management off) renders, and float64 pixel arithmetic for the references.

/// SplitMix64, seeded: the same random images on every run.
struct TestRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

/// Premultiplied RGBA pixels, bottom-up rows (index `y * width + x`).
typealias Pixels = [[Double]]

/// A Float32 premultiplied image at the origin with no colour space (never converted), and its
/// pixels (the Float32 values, as Double). Colour in `range` before premultiplying; alpha 1 when
/// `opaque`, else in 0.1…1 with some zeros.
func randomImage(width: Int, height: Int, seed: UInt64, opaque: Bool = false, range: ClosedRange<Double> = 0...1)
    throws -> (image: Image, pixels: Pixels)
{
    var rng = TestRandom(seed: seed)
    var pixels = Pixels(repeating: [], count: width * height)
    var floats = [Float](repeating: 0, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let a: Double = opaque ? 1 : (rng.unit() < 0.08 ? 0 : 0.1 + 0.9 * rng.unit())
            let straight = (0..<3).map { _ in range.lowerBound + (range.upperBound - range.lowerBound) * rng.unit() }
            let stored = (straight.map { Float($0 * a) }) + [Float(a)]
            pixels[y * width + x] = stored.map(Double.init)
            let row = height - 1 - y
            for c in 0..<4 { floats[(row * width + x) * 4 + c] = stored[c] }
        }
    }
    let bytes = floats.withUnsafeBytes { Array($0) }
    let buffer = try ImageBuffer(width: width, height: height, format: .rgbaf, alphaMode: opaque ? .opaque : .premultiplied,
                                 colorSpace: nil, bytes: bytes)
    return (Image(buffer: buffer), pixels)
}

/// A context computing in Float32 with colour management off (values as given).
func exactContext(threads: Int = 1, tileSize: Int = 512) -> Context {
    var options = ContextOptions()
    options.workingFormat = .rgbaf
    options.workingColorSpace = nil
    options.outputColorSpace = nil
    options.threads = threads
    options.tileSize = tileSize
    return Context(options: options)
}

/// `rect` of `image` as premultiplied RGBA, bottom-up rows.
func renderPixels(_ image: Image, _ rect: Rect, context: Context = exactContext()) throws -> Pixels {
    let buffer = try context.render(image, rect: rect, format: .rgbaf)
    var result = Pixels()
    for row in (0..<buffer.height).reversed() {
        for x in 0..<buffer.width { result.append(buffer.pixel(x: x, row: row).map(Double.init)) }
    }
    return result
}

func unpremultiplied(_ p: [Double]) -> [Double] {
    p[3] > 0 ? [p[0] / p[3], p[1] / p[3], p[2] / p[3], p[3]] : p
}

func premultiplied(_ p: [Double]) -> [Double] { [p[0] * p[3], p[1] * p[3], p[2] * p[3], p[3]] }

let appleLuma = [0.2125, 0.7154, 0.0721]
func luma(_ c: [Double]) -> Double { appleLuma[0] * c[0] + appleLuma[1] * c[1] + appleLuma[2] * c[2] }

func srgbDecode(_ y: Double) -> Double {
    let m = abs(y)
    let v = m <= 0.04045 ? m / 12.92 : pow((m + 0.055) / 1.055, 2.4)
    return y < 0 ? -v : v
}

func srgbEncode(_ x: Double) -> Double {
    let m = abs(x)
    let v = m <= 0.0031308 ? m * 12.92 : 1.055 * pow(m, 1 / 2.4) - 0.055
    return x < 0 ? -v : v
}

func smoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
    let t = min(max((x - e0) / (e1 - e0), 0), 1)
    return t * t * (3 - 2 * t)
}

/// Every pixel within `tolerance` of `expected` (NaN must match NaN).
func assertPixels(_ actual: Pixels, _ expected: Pixels, tolerance: Double, _ message: String = "",
                  file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(actual.count, expected.count, "pixel count \(message)", file: file, line: line)
    var failures = 0
    for (index, (a, e)) in zip(actual, expected).enumerated() {
        for c in 0..<4 {
            let ok = (a[c].isNaN && e[c].isNaN) || abs(a[c] - e[c]) <= tolerance
            if !ok {
                failures += 1
                if failures <= 3 {
                    XCTFail("pixel \(index) channel \(c): \(a[c]) vs expected \(e[c]) (\(a) vs \(e)) \(message)", file: file, line: line)
                }
            }
        }
    }
    if failures > 3 { XCTFail("\(failures) mismatching samples in all \(message)", file: file, line: line) }
}

/// The float64 reference of a colour filter: `f(pixel, x, y)` for every pixel of `source`.
func mapPixels(_ source: Pixels, width: Int, _ f: ([Double], Int, Int) -> [Double]) -> Pixels {
    source.enumerated().map { index, p in f(p, index % width, index / width) }
}

extension Image {
    /// A filter of the standard catalogue on this image, with parameters.
    func filtered(_ name: String, _ parameters: [String: FilterValue] = [:]) throws -> Image {
        try applyingFilter(name, parameters: parameters)
    }
}
