import Foundation
import GraphCodecs
import XCTest
@testable import GraphEngine
@testable import GraphCore

/// Matrix/TRC ICC profiles beyond sRGB and Display P3 (here Adobe RGB (1998) and a Rec. 2020-like
/// parametric curve): their curves, their matrices, and photos tagged with them.
final class ICCColorSpaceTests: XCTestCase {
    static let adobePrimaries = ColorPrimaries(red: (0.64, 0.33), green: (0.21, 0.71), blue: (0.15, 0.06),
                                               white: (0.3127, 0.3290))
    /// Adobe RGB (1998): its primaries, D65, gamma 563/256.
    static let adobeProfile = ICCProfile.makeRGBProfile(description: "Adobe RGB (1998)", primaries: adobePrimaries,
                                                        transferFunctionType: 0, transfer: [563.0 / 256])

    func testCurvesDecodeAndEncodeEveryFunctionType() throws {
        let curves: [ToneCurve] = try [
            XCTUnwrap(ToneCurve.gamma(2.2)),
            XCTUnwrap(ToneCurve(functionType: 1, parameters: [2.0, 1.1, -0.1])),
            XCTUnwrap(ToneCurve(functionType: 2, parameters: [2.0, 1.1, -0.1, 0.05])),
            XCTUnwrap(ToneCurve(functionType: 3, parameters: [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081])),
            XCTUnwrap(ToneCurve(functionType: 4, parameters: [2.4, 0.9, 0.1, 0.1, 0.05, 0.01, 0.002])),
        ]
        // Values from the ICC formulas written out.
        XCTAssertEqual(curves[0].decode(0.5), pow(0.5, 2.2), accuracy: 1e-12)
        XCTAssertEqual(curves[1].decode(0.05), 0, accuracy: 1e-12)  // below −b/a
        XCTAssertEqual(curves[1].decode(0.5), pow(1.1 * 0.5 - 0.1, 2), accuracy: 1e-12)
        XCTAssertEqual(curves[2].decode(0.05), 0.05, accuracy: 1e-12)
        XCTAssertEqual(curves[3].decode(0.05), 0.05 / 4.5, accuracy: 1e-12)  // Rec. 709 / 2020 linear toe
        XCTAssertEqual(curves[3].decode(0.5), pow((0.5 + 0.099) / 1.099, 1 / 0.45), accuracy: 1e-12)
        XCTAssertEqual(curves[4].decode(0.02), 0.1 * 0.02 + 0.002, accuracy: 1e-12)
        XCTAssertEqual(curves[4].decode(-0.5), -(pow(0.9 * 0.5 + 0.1, 2.4) + 0.01), accuracy: 1e-12, "sign-preserving")
        for curve in curves {
            for x in stride(from: -1.5, through: 1.5, by: 0.01) where curve.functionType != 2 || abs(x) > 0.1 {
                // Type 1 and 2 are flat below −b/a, so only the rest inverts.
                if curve.functionType == 1 && abs(x) < 0.1 { continue }
                XCTAssertEqual(curve.encode(curve.decode(x)), x, accuracy: 1e-9, "\(curve) at \(x)")
            }
            XCTAssertEqual(curve.byteTable.count, 256)
            XCTAssertEqual(Double(curve.byteTable[200]), curve.decode(200.0 / 255), accuracy: 1e-6)
        }
        XCTAssertNil(ToneCurve(functionType: 3, parameters: [2.4, 1]))
        XCTAssertNil(ToneCurve(functionType: 0, parameters: [-1]))
        XCTAssertNil(ToneCurve(functionType: 5, parameters: [2, 1, 0, 0, 0, 0, 0]))
    }

    func testProfilesBecomeSpacesWithTheirMatrixAndCurve() throws {
        // The built-in profiles map back to the built-in spaces' transfers and matrices.
        let srgb = try XCTUnwrap(ColorSpace(profile: try ICCProfile(bytes: ICCProfile.sRGBBytes)))
        XCTAssertEqual(srgb.transfer, .sRGB)
        for (value, expected) in zip(srgb.toLinearSRGB, ColorSpace.identity3) { XCTAssertEqual(value, expected, accuracy: 2e-3) }
        let p3 = try XCTUnwrap(ColorSpace(profile: try ICCProfile(bytes: ICCProfile.displayP3Bytes)))
        for (value, expected) in zip(p3.toLinearSRGB, ColorSpace.displayP3.toLinearSRGB) {
            XCTAssertEqual(value, expected, accuracy: 2e-3)
        }
        // Adobe RGB: the gamma, and the matrix computed from the published chromaticities.
        let adobe = try XCTUnwrap(ColorSpace(profile: try ICCProfile(bytes: Self.adobeProfile)))
        XCTAssertEqual(adobe.name, "Adobe RGB (1998)")
        guard case .curve(let curve) = adobe.transfer else { return XCTFail("expected a curve, got \(adobe.transfer)") }
        XCTAssertEqual(curve.parameters[0], 563.0 / 256, accuracy: 1e-4)
        let expected = ColorSpace.primariesMatrix(from: [(0.64, 0.33), (0.21, 0.71), (0.15, 0.06)],
                                                  to: [(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)], white: (0.3127, 0.3290))
        for (value, reference) in zip(adobe.toLinearSRGB, expected) { XCTAssertEqual(value, reference, accuracy: 2e-3) }
        XCTAssertEqual(expected[3], 0, accuracy: 1e-9)  // Adobe's red and blue are sRGB's
        XCTAssertEqual(expected[1], -0.398, accuracy: 1e-3)  // green reaches outside sRGB
    }

    /// An Adobe RGB PNG (8-bit: table decode while loading; 16-bit: the curve as instructions)
    /// renders to what the formulas give, out-of-gamut green included (RGBAf keeps extended range).
    func testAdobeRGBPhotoRendersToTheFormula() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("icc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let codes: [[Int]] = [[0, 255, 0], [128, 128, 128], [200, 50, 30], [255, 255, 255]]
        let expectedMatrix = ColorSpace.primariesMatrix(from: [(0.64, 0.33), (0.21, 0.71), (0.15, 0.06)],
                                                        to: [(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)],
                                                        white: (0.3127, 0.3290))
        func srgbEncode(_ x: Double) -> Double {
            let m = abs(x)
            let v = m <= 0.0031308 ? m * 12.92 : 1.055 * pow(m, 1 / 2.4) - 0.055
            return x < 0 ? -v : v
        }
        for bitDepth in [8, 16] {
            let scale = bitDepth == 8 ? 1 : 257
            var bytes: [UInt8] = []
            for pixel in codes {
                for code in pixel {
                    if bitDepth == 8 { bytes.append(UInt8(code)) } else { withUnsafeBytes(of: UInt16(code * scale)) { bytes += $0 } }
                }
            }
            let png = try PNGCodec.encode(width: codes.count, height: 1, channels: 3, bitDepth: bitDepth, bytes: bytes,
                                          iccProfile: Self.adobeProfile)
            let path = folder.appendingPathComponent("adobe\(bitDepth).png").path
            try Data(png).write(to: URL(fileURLWithPath: path))
            let decoded = try Image.decoding(path: path)
            XCTAssertEqual(decoded.warnings, [], "no fallback warning")
            let rendered = try Context().render(decoded.image, format: .rgbaf)
            for (x, pixel) in codes.enumerated() {
                let linear = pixel.map { pow(Double($0) / 255, 563.0 / 256) }
                let expected = ColorSpace.apply(expectedMatrix, linear).map(srgbEncode)
                let value = rendered.pixel(x: x, row: 0)
                for c in 0..<3 {
                    XCTAssertEqual(Double(value[c]), expected[c], accuracy: 3e-3, "\(bitDepth)-bit pixel \(pixel) channel \(c)")
                }
            }
        }
    }

    /// Rendering into the profile's own space (the curve's encode as instructions) gives back the
    /// codes it was decoded from (the encode is a pow instruction in the program).
    func testRenderingIntoTheProfileSpaceRoundTrips() throws {
        let adobe = try XCTUnwrap(ColorSpace(profile: try ICCProfile(bytes: Self.adobeProfile)))
        let codes: [UInt8] = [0, 255, 0, 128, 128, 128, 200, 50, 30, 3, 7, 250]
        let buffer = try ImageBuffer(width: 4, height: 1, format: .rgb8, alphaMode: .opaque, colorSpace: adobe, bytes: codes)
        let image = Image(buffer: buffer).applyingColorMatrix(ColorMatrix(rgb: [1.001, 0, 0, 0, 1.001, 0, 0, 0, 1.001],
                                                                          sourceName: "nudge"))
        var options = ContextOptions()
        options.outputColorSpace = adobe
        let context = Context(options: options)
        let rendered = try context.render(image, format: .rgbaf)
        for x in 0..<4 {
            let value = rendered.pixel(x: x, row: 0)
            // The 0.1 % gain (there so the conversions do not cancel; it commutes with the
            // matrices) moves a code by at most 255 · (1.001^(1/2.2) − 1) = 0.12.
            for c in 0..<3 {
                XCTAssertEqual(Double(value[c]) * 255, Double(codes[3 * x + c]), accuracy: 0.15, "pixel \(x) channel \(c)")
            }
        }
        let dump = try context.dump(image)
        XCTAssertTrue(dump.programs.contains { $0.instructions.contains { $0.contains("pow") } }, dump.text())
    }

    /// A profile the engine cannot convert by matrix and curve (here: no rXYZ colorant tag) is
    /// treated as sRGB, with a warning that names it.
    func testProfileWithoutColorantsFallsBackToSRGBWithAWarning() throws {
        var bytes = Self.adobeProfile
        let tagCount = Int(bytes[128]) << 24 | Int(bytes[129]) << 16 | Int(bytes[130]) << 8 | Int(bytes[131])
        let entry = try XCTUnwrap((0..<tagCount).map { 132 + 12 * $0 }.first { Array(bytes[$0..<($0 + 4)]) == Array("rXYZ".utf8) })
        bytes.replaceSubrange(entry..<(entry + 4), with: Array("zXYZ".utf8))
        let profile = try ICCProfile(bytes: bytes)
        XCTAssertNil(ColorSpace(profile: profile))
        // Colorants that do not span RGB (green's tag copied over blue's) are refused too.
        var flat = try ICCProfile(bytes: Self.adobeProfile)
        flat.rgbToXYZD50 = flat.rgbToXYZD50.map { m in [m[0], m[1], m[1], m[3], m[4], m[4], m[6], m[7], m[7]] }
        XCTAssertNil(ColorSpace(profile: flat))
        var metadata = ImageMetadata(format: .png)
        metadata.iccProfile = bytes
        let (space, note) = ImageBuffer.colorSpace(of: metadata)
        XCTAssertEqual(space, ColorSpace.sRGB)
        XCTAssertEqual(note, "ICC profile \"Adobe RGB (1998)\" is not a matrix profile with one gamma or parametric curve; treating the image as sRGB")
    }

    /// Corrupted profiles (random bytes changed, 400 seeds) never crash: each parses or throws,
    /// and any space it gives renders 8- and 16-bit pixels without trapping.
    func testCorruptedProfilesNeverCrash() throws {
        var rng = SeededGenerator(seed: 2024)
        let pixels8 = try ImageBuffer(width: 4, height: 1, format: .rgb8, alphaMode: .opaque,
                                      bytes: [0, 255, 0, 128, 128, 128, 200, 50, 30, 255, 255, 255])
        var spaces = 0
        for _ in 0..<400 {
            var bytes = Self.adobeProfile
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            guard let profile = try? ICCProfile(bytes: bytes), let space = ColorSpace(profile: profile) else { continue }
            spaces += 1
            let image8 = Image(buffer: try ImageBuffer(width: 4, height: 1, format: .rgb8, alphaMode: .opaque, colorSpace: space,
                                                      bytes: pixels8.bytes))
            let image16 = Image(buffer: try ImageBuffer(width: 4, height: 1, format: .rgb16, alphaMode: .opaque, colorSpace: space,
                                                       bytes: pixels8.bytes.flatMap { [$0, $0] }))
            for image in [image8, image16] {
                let rendered = try Context().render(image, format: .rgba8)
                XCTAssertEqual(rendered.bytes.count, 16)
            }
        }
        XCTAssertGreaterThan(spaces, 100, "most corruptions leave a usable matrix profile")
    }
}
