import Foundation
import GraphCodecs
import GraphEngine
import XCTest
@testable import GraphCLI

/// An output whose recipe names no colour space is written in the space of the photos it is made
/// from when they share one (issue 24: a Display P3 iPhone photo was written as sRGB, clipping the
/// saturated colours the camera captured); mixed sources, or none, give sRGB; the recipe's
/// `colorSpace` overrides it.
final class OutputColorSpaceTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws { folder = try makeWorkspace() }
    override func tearDown() { try? FileManager.default.removeItem(at: folder) }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// A 4×2 RGB PNG tagged with `profile`: P3's pure red, green and blue (outside sRGB), white,
    /// and four greys.
    private func writePhoto(_ name: String, profile: [UInt8]) throws {
        let pixels: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255,
                               0, 0, 0, 60, 60, 60, 128, 128, 128, 200, 200, 200]
        try ImageFile.writeAtomically(try PNGCodec.encode(width: 4, height: 2, channels: 3, bitDepth: 8, bytes: pixels,
                                                          iccProfile: profile), to: path(name))
    }

    private func profileKind(_ name: String) throws -> ICCProfile.Kind? {
        let decoded = try ImageFile.decode(path: path(name))
        return try decoded.metadata.iccProfile.map { try ICCProfile(bytes: $0).kind }
    }

    func testADisplayP3PhotoIsWrittenInDisplayP3WithItsColoursKept() throws {
        try writePhoto("p3.png", profile: ICCProfile.displayP3Bytes)
        let result = Graph.runInProcess(["apply", path("p3.png"), path("out.png"), "CIColorControls"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(try profileKind("out.png"), .displayP3)
        let source = try ImageFile.decode(path: path("p3.png")).bytes, written = try ImageFile.decode(path: path("out.png")).bytes
        XCTAssertEqual(written.count, source.count)
        let worst = zip(source, written).map { abs(Int($0) - Int($1)) }.max() ?? 0
        XCTAssertLessThanOrEqual(worst, 1, "P3 red, green and blue survive an identity edit: \(written)")

        // Asked for sRGB, P3's pure red is out of gamut: clipped to sRGB's red (255, 0, 0 is
        // P3 red's nearest in-gamut colour only after clipping the negative green and blue).
        let recipe = #"{"version": 1, "images": {"p": {"file": "p3.png"}}, "outputs": [{"image": "p", "file": "s.png", "colorSpace": "sRGB"}]}"#
        XCTAssertEqual(Graph.runInProcess(["run", try writeRecipe(recipe, in: folder)]).status, 0)
        XCTAssertEqual(try profileKind("s.png"), .sRGB)
        let srgb = try ImageFile.decode(path: path("s.png")).bytes
        XCTAssertEqual(Array(srgb[0..<3]), [255, 0, 0])
        XCTAssertEqual(Array(srgb[3..<6]), [0, 255, 0])
    }

    func testMixedSourcesAreWrittenInSRGB() throws {
        try writePhoto("p3.png", profile: ICCProfile.displayP3Bytes)
        try writePhoto("s.png", profile: ICCProfile.sRGBBytes)
        let recipe = #"""
        {"version": 1, "images": {"p": {"file": "p3.png"}, "s": {"file": "s.png"},
          "m": {"filter": "CISourceOverCompositing", "inputs": {"inputImage": {"image": "p"}, "inputBackgroundImage": {"image": "s"}}},
          "q": {"filter": "CIColorInvert", "inputs": {"inputImage": {"image": "p"}}}},
         "outputs": [{"image": "m", "file": "mixed.png"}, {"image": "q", "file": "p3-only.png"}, {"image": "s", "file": "srgb-only.png"}]}
        """#
        let result = Graph.runInProcess(["run", try writeRecipe(recipe, in: folder)])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(try profileKind("mixed.png"), .sRGB)
        XCTAssertEqual(try profileKind("p3-only.png"), .displayP3)
        XCTAssertEqual(try profileKind("srgb-only.png"), .sRGB)
    }

    /// A generator alone (no photo) is written in sRGB, the default.
    func testAGeneratedImageIsWrittenInSRGB() throws {
        let recipe = #"{"version": 1, "images": {"g": {"generator": "CIConstantColorGenerator", "inputs": {"inputColor": [1, 0, 0, 1]}, "crop": [0, 0, 4, 4]}}, "outputs": [{"image": "g", "file": "g.png"}]}"#
        XCTAssertEqual(Graph.runInProcess(["run", try writeRecipe(recipe, in: folder)]).status, 0)
        XCTAssertEqual(try profileKind("g.png"), .sRGB)
    }
}
