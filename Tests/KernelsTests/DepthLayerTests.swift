import Foundation
@testable import GraphEngine
import Kernels
import XCTest

/// The two passes that make CIDepthBlurEffect's layers, against float64 statements of their rules:
/// 2×2 blocks of the photo (small clipped highlights boosted) and the blur values, and a tent-weighted,
/// box-decimated layer.
final class DepthLayerTests: XCTestCase {
    static let width = 37, height = 29
    /// The source's origin (not on the block grid's zero, to test the origin handling).
    static let origin = (x: 3, y: -2)
    static let gain = 1.5, probe = 3

    /// Blur values: a focused square (0), a far background (−10), a nearer band (+5), a ramp and a
    /// few NaN holes, in source pixel indices (0-based from the origin).
    static func blur(_ i: Int, _ j: Int) -> Double {
        if (i * 7 + j * 3) % 41 == 0 { return .nan }
        if i >= 11 && i < 22 && j >= 9 && j < 20 { return 0 }
        if j >= 24 { return 5 }
        if i >= 30 { return -2 - Double(j) * 0.3 }
        return -10
    }
    /// Colours, with a large area clipped white (luminance 0.97 to 1, not boosted: not isolated) in
    /// one corner, beside it a bright unclipped patch with one channel at the clip (luminance 0.93, not
    /// boosted), and a 2×2 clipped speck in the mid-tones (boosted).
    static func colour(_ i: Int, _ j: Int) -> SIMD3<Double> {
        if i < 7 && j < 5 { return SIMD3(0.96 + 0.005 * Double(i), 0.975 + 0.005 * Double(j), 0.95 + 0.01 * Double(j)) }
        if i >= 7 && i < 11 && j < 5 { return SIMD3(1, 0.93, 0.8) }
        if (26...27).contains(i) && (4...5).contains(j) { return SIMD3(0.99, 0.995, 0.98) }
        return SIMD3(0.2 + 0.6 * Double(i) / Double(width), 0.5 + 0.3 * sin(Double(j) * 0.7), 0.1 + 0.02 * Double((i * j) % 13))
    }
    static func luminance(_ c: SIMD3<Double>) -> Double { 0.2125 * c.x + 0.7154 * c.y + 0.0721 * c.z }
    /// The boosted colour: `rgb·(1 + gain·clamp((L − 0.97)/0.03, 0, 1)·isolation)`, L the luminance,
    /// isolation 1 when the four pixels `probe` away (read clamped to the image) are all below 0.9, ½
    /// when three are, else 0.
    static func boosted(_ i: Int, _ j: Int) -> SIMD3<Double> {
        let c = colour(i, j), clip = min(max((luminance(c) - 0.97) / 0.03, 0), 1)
        let below = [(i - probe, j), (i + probe, j), (i, j - probe), (i, j + probe)]
            .filter { luminance(colour(min(max($0.0, 0), width - 1), min(max($0.1, 0), height - 1))) < 0.9 }.count
        return c * (1 + gain * clip * (below == 4 ? 1 : below == 3 ? 0.5 : 0))
    }

    /// An opaque Float32 data image of `value` at the source's origin.
    static func data(_ value: (Int, Int) -> SIMD4<Double>) throws -> Image {
        var floats: [Float] = []
        for j in (0..<height).reversed() { for i in 0..<width { floats += (0..<4).map { Float(value(i, j)[$0]) } } }
        let bytes = floats.withUnsafeBytes { Array($0) }
        return Image(buffer: try ImageBuffer(width: width, height: height, format: .rgbaf, alphaMode: .opaque, colorSpace: nil, bytes: bytes))
            .transformed(by: AffineTransform(translationX: Double(origin.x), y: Double(origin.y)), filter: .nearest)
    }

    /// The block rule stated plainly: the most blurred value (first of equals; NaN as 0), and the mean
    /// boosted colour of the pixels at least as near it as the least blurred value. Edge blocks repeat
    /// the last row or column (the inputs are read clamped).
    static func expectedBlock(_ x: Int, _ y: Int) -> SIMD4<Double> {
        let pixels = [(0, 0), (1, 0), (0, 1), (1, 1)].map { (min(2 * x + $0.0, width - 1), min(2 * y + $0.1, height - 1)) }
        let c = pixels.map { blur($0.0, $0.1).isNaN ? 0 : blur($0.0, $0.1) }
        var far = c[0], near = c[0]
        for v in c.dropFirst() {
            if abs(v) > abs(far) { far = v }
            if abs(v) < abs(near) { near = v }
        }
        var sum = SIMD3<Double>.zero, count = 0.0
        for (k, p) in pixels.enumerated() where (c[k] - far) * (c[k] - far) <= (c[k] - near) * (c[k] - near) {
            sum += boosted(p.0, p.1)
            count += 1
        }
        return SIMD4(sum.x / count, sum.y / count, sum.z / count, far)
    }

    func blocks() throws -> Image {
        let blocking = DepthLayerBlocks(origin: Self.origin, gain: Float(Self.gain), probe: Self.probe, filterName: "blocks")
        let colours = try Self.data { SIMD4(Self.colour($0, $1).x, Self.colour($0, $1).y, Self.colour($0, $1).z, 1) }
        let blurs = try Self.data { let c = Self.blur($0, $1); return SIMD4(c, c, c, 1) }
        return colours.clampedToExtent().applying(blocking, with: [blurs.clampedToExtent()])
            .cropped(to: blocking.outputExtent(inputExtents: [colours.extent]))
    }

    func testBlocksTakeTheMostBlurredValueAndTheColourOfItsSide() throws {
        let image = try blocks()
        XCTAssertEqual(image.extent, Rect(x: 0, y: 0, width: 19, height: 15))
        // Float32 against float64: the boost's ramp (slope gain/0.03 = 50) scales a rounding of the
        // luminance fifty times.
        try assertMatches(image, image.extent, tolerance: 4e-6) { x, y in Self.expectedBlock(x, y) }
        // A block on the focused square's edge (columns 10 and 11 of the source): the background's
        // value and colour only.
        let edge = Self.expectedBlock(5, 6)
        XCTAssertEqual(edge[3], -10)
        XCTAssertEqual(edge[0], (Self.colour(10, 12).x + Self.colour(10, 13).x) / 2, accuracy: 1e-12)
        // The clipped speck's block: boosted above the photo's own colour; the large clipped area and
        // the bright unclipped patch keep their own.
        XCTAssertGreaterThan(Self.expectedBlock(13, 2)[1], 1.4)
        XCTAssertEqual(Self.expectedBlock(1, 1)[1], (0.985 + 0.99) / 2, accuracy: 1e-12)
        XCTAssertEqual(Self.expectedBlock(4, 1)[1], 0.93, accuracy: 1e-12)
    }

    /// Layer −6 between −10 and −3, decimated by 2 from the blocks: the mean of (w·rgb, w) over 2×2
    /// blocks, w the tent weight in c² (0 at −10 and −3, 1 at −6, linear in c² between; 0 for c ≥ 0).
    func testLayerIsTheTentWeightedMeanOfItsBlocks() throws {
        let layer = try blocks().clampedToExtent()
            .applying(DepthLayerDecimate(tent: DepthLayerTent(low: -10, mid: -6, high: -3), factor: 2, origin: (0, 0), filterName: "layer"))
            .cropped(to: Rect(x: 0, y: 0, width: 10, height: 8))
        XCTAssertEqual(layer.extent, Rect(x: 0, y: 0, width: 10, height: 8))
        func tent(_ c: Double) -> Double {
            c >= 0 ? 0 : c < -6 ? max(0, min(1, (100 - c * c) / (100 - 36))) : max(0, min(1, (c * c - 9) / (36 - 9)))
        }
        var weighted = 0
        try assertMatches(layer, layer.extent, tolerance: 1e-6) { x, y in
            var sum = SIMD4<Double>.zero
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let b = Self.expectedBlock(min(2 * x + dx, 18), min(2 * y + dy, 14)), w = tent(b[3])
                sum += SIMD4(w * b[0], w * b[1], w * b[2], w)
            }
            if sum[3] > 0 { weighted += 1 }
            return sum / 4
        }
        XCTAssertGreaterThan(weighted, 3, "the ramp must give the layer some weight")
    }

    /// The fused pass (the layer made as its disc reads it) gives the two passes' values, at any tile
    /// size, and its disc stays inside the layer's extent (nothing is read from outside the blocks).
    func testLayerDiscIsTheLayerThenItsDisc() throws {
        let tent = DepthLayerTent(low: -12, mid: -6, high: -3)
        let disc = DiscSpans(radius: 2.6, reduction: .mean, filterName: "disc")
        let source = try blocks()
        let layer = source.clampedToExtent()
            .applying(DepthLayerDecimate(tent: tent, factor: 1, origin: (0, 0), filterName: "layer"))
            .cropped(to: source.extent)
        let twoPasses = layer.applying(disc).cropped(to: source.extent.outset(dx: 1, dy: 1))
        let fused = source.applying(DepthLayerDisc(tent: tent, disc: disc)).cropped(to: source.extent.outset(dx: 1, dy: 1))
        XCTAssertEqual(fused.extent, twoPasses.extent)
        var options = ContextOptions()
        options.workingFormat = .rgbaf
        var nonzero = 0
        for tile in [8, 512] {
            options.tileSize = tile
            let context = Context(options: options)
            let a = try context.render(fused, format: .rgbaf, colorSpace: .data), b = try context.render(twoPasses, format: .rgbaf, colorSpace: .data)
            for row in 0..<a.height {
                for x in 0..<a.width {
                    let p = SIMD4<Float>(a.pixel(x: x, row: row)), q = SIMD4<Float>(b.pixel(x: x, row: row))
                    let difference = (0..<4).map { abs(p[$0] - q[$0]) }.max() ?? 0
                    XCTAssertLessThan(difference, 1e-5, "(\(x), \(row)), tile \(tile)")
                    if p[3] > 0.01 { nonzero += 1 }
                }
            }
        }
        XCTAssertGreaterThan(nonzero, 20, "the layer must have weight somewhere")
    }

    func testLayersAreTheSameForAnyTileSizeAndThreadCount() throws {
        let layer = try blocks().clampedToExtent()
            .applying(DepthLayerDecimate(tent: DepthLayerTent(low: -12, mid: -6, high: 0), factor: 1, origin: (0, 0), filterName: "layer"))
            .cropped(to: Rect(x: 0, y: 0, width: 19, height: 15))
        var renders: [[SIMD4<Float>]] = []
        for (tile, threads) in [(8, 1), (16, 3), (512, 2)] {
            var options = ContextOptions()
            options.workingFormat = .rgbaf
            options.tileSize = tile
            options.threads = threads
            let buffer = try Context(options: options).render(layer, format: .rgbaf, colorSpace: .data)
            renders.append((0..<buffer.height).flatMap { row in (0..<buffer.width).map { SIMD4<Float>(buffer.pixel(x: $0, row: row)) } })
        }
        XCTAssertEqual(renders[0], renders[1])
        XCTAssertEqual(renders[0], renders[2])
    }
}
