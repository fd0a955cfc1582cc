import Foundation
import XCTest
import GraphEngine
@testable import Kernels

/// CIColorCube and relatives against a float64 trilinear lookup written here, and the lookup's
/// place in fused programs.
final class ColorCubeFilterTests: XCTestCase {
    /// A random d³ RGBA table (alpha in 0.5…1), as Float32 values.
    func randomTable(_ d: Int, seed: UInt64) -> [Float] {
        var rng = TestRandom(seed: seed)
        return (0..<(d * d * d)).flatMap { _ in [Float(rng.unit()), Float(rng.unit()), Float(rng.unit()), Float(0.5 + 0.5 * rng.unit())] }
    }

    /// The identity table of dimension d.
    func identityTable(_ d: Int) -> [Float] {
        var table: [Float] = []
        for b in 0..<d { for g in 0..<d { for r in 0..<d { table += [Float(r), Float(g), Float(b)].map { $0 / Float(d - 1) } + [1] } } }
        return table
    }

    /// Float64 CIColorCube: unpremultiply, coordinates c·(d−1) (clamped unless extrapolating),
    /// weights (1 − f) or f per axis over the 8 corners, times alpha.
    func lookup(_ p: [Double], _ table: [Float], _ d: Int, extrapolate: Bool = false) -> [Double] {
        let c = unpremultiplied(p)
        var base: [Int] = [], fraction: [Double] = []
        for axis in 0..<3 {
            var x = c[axis] * Double(d - 1)
            if !extrapolate { x = min(max(x, 0), Double(d - 1)) }
            let cell = min(max(Int(x.rounded(.down)), 0), d - 2)
            base.append(cell)
            fraction.append(x - Double(cell))
        }
        var out = [0.0, 0, 0, 0]
        for dr in 0...1 {
            for dg in 0...1 {
                for db in 0...1 {
                    let w = (dr == 1 ? fraction[0] : 1 - fraction[0]) * (dg == 1 ? fraction[1] : 1 - fraction[1])
                        * (db == 1 ? fraction[2] : 1 - fraction[2])
                    let index = ((base[2] + db) * d + (base[1] + dg)) * d + (base[0] + dr)
                    for k in 0..<4 { out[k] += w * Double(table[index * 4 + k]) }
                }
            }
        }
        return out.map { $0 * p[3] }
    }

    func cube(_ image: Image, _ table: [Float], _ d: Int, extrapolate: Bool = false) throws -> Image {
        try image.filtered("CIColorCube", ["inputCubeDimension": .number(Double(d)), "inputCubeData": .floats(table),
                                           "inputExtrapolate": .bool(extrapolate)])
    }

    func testColorCubeIsTrilinearInterpolationTimesAlpha() throws {
        let (image, pixels) = try randomImage(width: 37, height: 9, seed: 11)
        let table = randomTable(5, seed: 3)
        let output = try cube(image, table, 5)
        XCTAssertEqual(output.extent, image.extent)
        let expected = pixels.map { lookup($0, table, 5) }
        assertPixels(try renderPixels(output, image.extent), expected, tolerance: 2e-6)
    }

    func testIdentityCubeOf33KeepsColoursInRange() throws {
        let (image, pixels) = try randomImage(width: 20, height: 6, seed: 12, opaque: true)
        let output = try cube(image, identityTable(33), 33)
        assertPixels(try renderPixels(output, image.extent), pixels, tolerance: 2e-6)
    }

    func testOutOfRangeColoursClampOrExtrapolate() throws {
        let (image, pixels) = try randomImage(width: 16, height: 8, seed: 13, range: -0.6...1.7)
        let table = randomTable(4, seed: 4)
        for extrapolate in [false, true] {
            let output = try cube(image, table, 4, extrapolate: extrapolate)
            let expected = pixels.map { lookup($0, table, 4, extrapolate: extrapolate) }
            assertPixels(try renderPixels(output, image.extent), expected, tolerance: 2e-5, "extrapolate \(extrapolate)")
        }
        // The identity cube extrapolated is the identity beyond 0…1 too.
        let identity = try cube(image, identityTable(3), 3, extrapolate: true)
        assertPixels(try renderPixels(identity, image.extent), pixels, tolerance: 2e-6)
    }

    func testTheLookupIsOneInstructionInsideTheFusedProgram() throws {
        let (image, _) = try randomImage(width: 8, height: 8, seed: 14)
        let chain = try cube(try image.filtered("CIExposureAdjust", ["inputEV": .number(0.5)]), randomTable(3, seed: 5), 3)
            .filtered("CIHueAdjust", ["inputAngle": .number(0.4)])
        let dump = try exactContext().dump(chain, rect: image.extent)
        XCTAssertEqual(dump.programs.count, 1, dump.text())
        let listing = (dump.programs.last?.instructions ?? []).map { String($0.split(separator: ";").first ?? "") }
        XCTAssertEqual(listing.filter { $0.contains("lut3d 3x3x3") }.count, 1, listing.joined(separator: "\n"))
        XCTAssertEqual(listing.filter { $0.contains("matrix") }.count, 2, listing.joined(separator: "\n"))
    }

    func testTableSizeMustMatchTheDimension() throws {
        let (image, _) = try randomImage(width: 4, height: 4, seed: 15)
        XCTAssertThrowsError(try cube(image, identityTable(33), 32)) { error in
            XCTAssertEqual("\(error)", "CIColorCube.inputCubeData: a cube of dimension 32 needs 32³·4 = 131072 floats, got 143748 (a cube of dimension 33: set inputCubeDimension to 33)")
        }
        XCTAssertThrowsError(try image.filtered("CIColorCube", ["inputCubeDimension": .number(2.5)])) { error in
            XCTAssertEqual("\(error)", "CIColorCube.inputCubeDimension: expected a whole number, got 2.5")
        }
        XCTAssertThrowsError(try image.filtered("CIColorCube", ["inputCubeData": .data(Data([1, 2, 3]))])) { error in
            XCTAssertEqual("\(error)", "CIColorCube.inputCubeData: 3 bytes is not a whole number of Float32 values")
        }
        XCTAssertThrowsError(try image.filtered("CIColorCube", ["inputCubeData": .string("no")])) { error in
            XCTAssertEqual("\(error)", "CIColorCube.inputCubeData: expected data (Float32 values), got the string \"no\"")
        }
    }

    func testCubeWithColorSpaceLooksUpSRGBEncodedColour() throws {
        let (image, pixels) = try randomImage(width: 12, height: 7, seed: 16)
        let table = randomTable(4, seed: 6)
        let output = try image.filtered("CIColorCubeWithColorSpace", [
            "inputCubeDimension": .number(4), "inputCubeData": .floats(table), "inputColorSpace": .string("sRGB")])
        var options = ContextOptions()
        options.workingFormat = .rgbaf
        options.outputColorSpace = nil
        let managed = try renderPixels(output, image.extent, context: Context(options: options))
        let expected = pixels.map { p -> [Double] in
            let straight = unpremultiplied(p)
            let encoded = premultiplied((0..<3).map { srgbEncode(straight[$0]) } + [p[3]])
            let looked = unpremultiplied(lookup(encoded, table, 4))
            return premultiplied((0..<3).map { srgbDecode(looked[$0]) } + [looked[3]])
        }
        assertPixels(managed, expected, tolerance: 2e-4)
        // Without colour management the values are taken as they are.
        assertPixels(try renderPixels(output, image.extent), pixels.map { lookup($0, table, 4) }, tolerance: 2e-6)
    }

    func testCubesMixedByTheMaskGreenChannel() throws {
        let (image, pixels) = try randomImage(width: 14, height: 10, seed: 17)
        let (mask, maskPixels) = try randomImage(width: 10, height: 10, seed: 18, opaque: true, range: -0.2...1.2)
        let first = randomTable(3, seed: 7), second = randomTable(3, seed: 8)
        let output = try image.filtered("CIColorCubesMixedWithMask", [
            "inputMaskImage": .image(mask), "inputCubeDimension": .number(3), "inputCube0Data": .floats(first),
            "inputCube1Data": .floats(second)])
        XCTAssertEqual(output.extent, image.extent)
        let expected = mapPixels(pixels, width: 14) { p, x, y in
            let m = x < 10 ? min(max(maskPixels[y * 10 + x][1], 0), 1) : 0
            let a = lookup(p, first, 3), b = lookup(p, second, 3)
            return (0..<4).map { a[$0] + (b[$0] - a[$0]) * m }
        }
        assertPixels(try renderPixels(output, image.extent), expected, tolerance: 3e-6)
    }
}
