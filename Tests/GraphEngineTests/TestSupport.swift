import XCTest
@testable import GraphEngine

/// A small deterministic generator (SplitMix64) so random recipes are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// An RGBA8 buffer of smooth gradients plus noise, with varying alpha when `alpha` is set.
func makeTestBuffer(width: Int, height: Int, seed: UInt64, alpha: AlphaMode = .opaque) throws -> ImageBuffer {
    var rng = SeededGenerator(seed: seed)
    var bytes = [UInt8](repeating: 0, count: width * height * 4)
    for row in 0..<height {
        for x in 0..<width {
            let i = (row * width + x) * 4
            let a: Int = alpha == .opaque ? 255 : Int.random(in: 0...255, using: &rng)
            for c in 0..<3 {
                let base = (x * 255 / max(width - 1, 1) * (c + 1) + row * 255 / max(height - 1, 1) * (3 - c)) / 4
                var v = min(255, max(0, base + Int.random(in: -20...20, using: &rng)))
                if alpha == .premultiplied { v = v * a / 255 }
                bytes[i + c] = UInt8(v)
            }
            bytes[i + 3] = UInt8(a)
        }
    }
    return try ImageBuffer(width: width, height: height, format: .rgba8, alphaMode: alpha, bytes: bytes)
}

/// Float32 RGBA of a buffer rendered as `.rgbaf`, rows converted to bottom-up order.
func bottomUpPixels(_ buffer: ImageBuffer) -> [SIMD4<Float>] {
    var result: [SIMD4<Float>] = []
    for row in (0..<buffer.height).reversed() {
        for x in 0..<buffer.width {
            let p = buffer.pixel(x: x, row: row)
            result.append(SIMD4(p[0], p[1], p[2], p[3]))
        }
    }
    return result
}
