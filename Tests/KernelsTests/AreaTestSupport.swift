import Foundation
import GraphEngine
import Kernels
import XCTest

/// A small data image (no colour space, Float32, premultiplied) and the same values as a function
/// of working-space pixel position, for float64 references written in the tests.
struct TestImage {
    let image: Image
    let width: Int, height: Int
    /// Premultiplied RGBA at working-space pixel (x, y) (y up); 0 outside.
    let values: [[SIMD4<Double>]]

    func at(_ x: Int, _ y: Int) -> SIMD4<Double> {
        guard x >= 0, y >= 0, x < width, y < height else { return .zero }
        return values[y][x]
    }

    /// The nearest pixel inside (clampedToExtent).
    func clamped(_ x: Int, _ y: Int) -> SIMD4<Double> {
        at(min(max(x, 0), width - 1), min(max(y, 0), height - 1))
    }

    /// Smooth gradients plus a hard-edged square plus hashed noise; alpha 1, or varying.
    init(width: Int, height: Int, seed: UInt64, opaque: Bool = true) throws {
        self.width = width
        self.height = height
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        func noise() -> Double {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Double(state % 1000) / 1000
        }
        var rows: [[SIMD4<Double>]] = []
        for y in 0..<height {
            var row: [SIMD4<Double>] = []
            for x in 0..<width {
                let square = (x > width / 3 && x < 2 * width / 3 && y > height / 4 && y < height / 2) ? 0.4 : 0
                let a = opaque ? 1.0 : 0.3 + 0.7 * noise()
                let r = 0.1 + 0.5 * Double(x) / Double(width) + square + 0.2 * noise()
                let g = 0.7 - 0.4 * Double(y) / Double(height) + 0.1 * noise()
                let b = 0.3 + 0.3 * sin(Double(x + 2 * y) * 0.7) * noise()
                row.append(SIMD4(r * a, g * a, b * a, a))
            }
            rows.append(row)
        }
        values = rows
        var floats: [Float] = []
        for row in (0..<height).reversed() {  // buffers are top row first
            for x in 0..<width { for c in 0..<4 { floats.append(Float(rows[row][x][c])) } }
        }
        let bytes = floats.withUnsafeBytes { Array($0) }
        image = Image(buffer: try ImageBuffer(width: width, height: height, format: .rgbaf,
                                              alphaMode: opaque ? .opaque : .premultiplied, colorSpace: nil, bytes: bytes))
    }
}

/// Renders `rect` of `image` as Float32 with Float32 intermediates and no colour management,
/// indexed [y − rect.y][x − rect.x] (y up).
func renderExactly(_ image: Image, _ rect: Rect, tileSize: Int = 64) throws -> [[SIMD4<Double>]] {
    var options = ContextOptions()
    options.workingFormat = .rgbaf
    options.workingColorSpace = nil
    options.tileSize = tileSize
    let buffer = try Context(options: options).render(image, rect: rect, format: .rgbaf)
    return (0..<buffer.height).reversed().map { row in
        (0..<buffer.width).map { x in SIMD4<Double>(buffer.pixel(x: x, row: row).map(Double.init)) }
    }
}

/// Asserts that `image` renders the same at tile sizes 8 and 256, and that its red channel equals
/// the reference evaluator's (Float32, no colour management).
func assertTilesAndReferenceAgree(_ image: Image, file: StaticString = #filePath, line: UInt = #line) throws {
    XCTAssertEqual(try renderExactly(image, image.extent, tileSize: 8), try renderExactly(image, image.extent, tileSize: 256),
                   "tile sizes 8 and 256", file: file, line: line)
    var options = ContextOptions()
    options.workingFormat = .rgbaf
    options.workingColorSpace = nil
    let reference = try ReferenceEvaluator().render(image, rect: image.extent, options: options)
    XCTAssertEqual(try renderExactly(image, image.extent).joined().map { $0.x }, reference.map { Double($0.x) },
                   "the reference evaluator", file: file, line: line)
}

/// Compares a render of `rect` with `expected(x, y)` (working-space pixels) within `tolerance`.
func assertMatches(_ image: Image, _ rect: Rect, tolerance: Double, file: StaticString = #filePath, line: UInt = #line,
                   _ expected: (Int, Int) -> SIMD4<Double>) throws {
    let rendered = try renderExactly(image, rect)
    var worst = 0.0, where_ = (0, 0), pair = (SIMD4<Double>.zero, SIMD4<Double>.zero)
    for (j, row) in rendered.enumerated() {
        for (i, value) in row.enumerated() {
            let x = Int(rect.x) + i, y = Int(rect.y) + j
            let e = expected(x, y)
            let error = (0..<4).map { abs(value[$0] - e[$0]) }.max() ?? 0
            if !(error <= worst) { worst = error.isNaN ? .infinity : error; where_ = (x, y); pair = (value, e) }
        }
    }
    XCTAssertLessThanOrEqual(worst, tolerance, "worst at \(where_): \(pair.0) vs expected \(pair.1)", file: file, line: line)
}

/// Normalised pixel-integrated Gaussian weights out to ⌈3σ⌉ (index k ↔ offset k − R), in Double.
func gaussianTaps(_ sigma: Double) -> [Double] {
    let radius = Int((3 * sigma).rounded(.up))
    let s = 1 / (2.0.squareRoot() * sigma)
    let w = (-radius...radius).map { (k: Int) -> Double in
        let upper: Double = erf((Double(k) + 0.5) * s), lower: Double = erf((Double(k) - 0.5) * s)
        return 0.5 * (upper - lower)
    }
    let sum = w.reduce(0, +)
    return w.map { $0 / sum }
}

/// Separable weighted sum of `read` with centred odd taps along x then y.
func separable(_ taps: [Double], _ x: Int, _ y: Int, _ read: (Int, Int) -> SIMD4<Double>) -> SIMD4<Double> {
    let r = (taps.count - 1) / 2
    var sum = SIMD4<Double>.zero
    for (j, wy) in taps.enumerated() {
        for (i, wx) in taps.enumerated() { sum += wx * wy * read(x + i - r, y + j - r) }
    }
    return sum
}

/// Rec. 709 luma (Apple's weights).
func luma(_ v: SIMD4<Double>) -> Double { 0.2125 * v[0] + 0.7154 * v[1] + 0.0721 * v[2] }
