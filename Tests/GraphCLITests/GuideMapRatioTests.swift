import Foundation
import GraphCodecs
import GraphEngine
import Kernels
import XCTest
@testable import GraphCLI

/// Issue 31, item 5: a depth map whose size is absurd next to its photo (a 40 KB JPEG whose SOF
/// claims 65,500×252 against a 42×54 photo took over 20 s in CIEdgePreserveUpsampleFilter) is an
/// error found when the recipe is built, before anything is decoded or rendered.
final class GuideMapRatioTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws { folder = try makeWorkspace() }
    override func tearDown() { try? FileManager.default.removeItem(at: folder) }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    private func writeGrey(_ name: String, width: Int, height: Int) throws {
        let bytes = (0..<(width * height)).map { UInt8(($0 * 7) % 256) }
        try Context().write(Image(buffer: try ImageBuffer(width: width, height: height, format: .gray8, alphaMode: .opaque, bytes: bytes)),
                            to: path(name))
    }

    private func recipe(small: String) throws -> String {
        try writeRecipe(#"""
            {"version": 1, "images": {"photo": {"file": "photo.png"}, "depth": {"file": "\#(small)"},
              "refined": {"filter": "CIEdgePreserveUpsampleFilter", "inputs": {"inputImage": {"image": "photo"}, "inputSmallImage": {"image": "depth"}}}},
             "outputs": [{"image": "refined", "file": "out.png"}]}
            """#, in: folder)
    }

    /// A 16×16 JPEG whose SOF0 is patched to claim 65,500×252.
    private func writeLyingJPEG() throws {
        try writeGrey("depth.jpg", width: 16, height: 16)
        var bytes = try ImageFile.read(path: path("depth.jpg"))
        guard let sof = (0..<(bytes.count - 1)).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }) else {
            return XCTFail("no SOF0 in the encoded JPEG")
        }
        // FF C0, length (2), precision (1), height (2), width (2).
        bytes.replaceSubrange((sof + 5)..<(sof + 9), with: [0x00, 0xFC, 0xFF, 0xDC])
        try ImageFile.writeAtomically(bytes, to: path("depth.jpg"))
        XCTAssertEqual(try ImageFile.info(path: path("depth.jpg")).width, 65_500)
    }

    func testAMapHundredsOfTimesWiderThanThePhotoIsAnErrorAtOnce() throws {
        try writeGrey("photo.png", width: 42, height: 54)
        try writeLyingJPEG()
        let start = Date()
        let result = Graph.runInProcess(["run", try recipe(small: "depth.jpg")])
        let seconds = Date().timeIntervalSince(start)
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.err, "graph: error: images.refined.inputs.inputSmallImage: the map (65500x252) has 7278 times the pixels of inputImage (42x54); at most 64 times, or 4194304 pixels, is accepted (is it a map of this photo?)\n")
        XCTAssertLessThan(seconds, 2, "refused before anything renders (a debug build)")
        XCTAssertFalse(exists(folder, "out.png"))
    }

    /// A map of up to 2048×2048 pixels is accepted for any photo (a full-size map of a photo
    /// scaled down), a larger one up to 64 times the photo's pixels; the same rule holds for
    /// GEGuidedUpsample's mask.
    func testMapsWithinTheLimitRender() throws {
        try writeGrey("photo.png", width: 42, height: 54)
        try writeGrey("depth.png", width: 1024, height: 30)
        let result = Graph.runInProcess(["run", try recipe(small: "depth.png")])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(try ImageFile.info(path: path("out.png")).width, 42)
        XCTAssertEqual(try ImageFile.info(path: path("out.png")).height, 54)

        let photo = Image(color: [0.5, 0.5, 0.5, 1]).cropped(to: Rect(x: 0, y: 0, width: 400, height: 300))
        func mask(_ width: Double, _ height: Double) -> Image {
            Image(color: [1, 1, 1, 1]).cropped(to: Rect(x: 0, y: 0, width: width, height: height))
        }
        // 64 times the photo's 120,000 pixels: accepted; one row more: refused.
        XCTAssertEqual(try mask(3200, 2400).applyingFilter("GEGuidedUpsample", parameters: ["inputGuideImage": .image(photo)]).extent,
                       photo.extent)
        XCTAssertThrowsError(try mask(3200, 2401).applyingFilter("GEGuidedUpsample", parameters: ["inputGuideImage": .image(photo)])) { error in
            XCTAssertEqual("\(error)", "GEGuidedUpsample.inputImage: the map (3200x2401) has 64.03 times the pixels of inputGuideImage (400x300); at most 64 times, or 4194304 pixels, is accepted (is it a map of this photo?)")
        }
    }
}
