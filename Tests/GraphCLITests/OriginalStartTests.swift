import Foundation
import GraphCodecs
@testable import GraphCLI
import GraphEngine
import GraphRecipes
import XCTest

/// A depth effect on a Google Lens Blur or Pixel portrait starts from the sharp original the file
/// stores, not from its main image (Google's already-blurred rendering), unless the recipe says
/// `"useOriginal": false` (issue 24).
final class OriginalStartTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `../shared/testdata/<relative>`; skips the test when the shared folder is absent.
    static func shared(_ relative: String) throws -> String {
        let path = repository.deletingLastPathComponent().appendingPathComponent("shared/testdata/\(relative)").path
        guard FileManager.default.fileExists(atPath: path) else {
            throw XCTSkip("shared test data not found at \(path) (expected shared/ beside the repository)")
        }
        return path
    }

    /// The recipe's `photo` image as built, for a photo file with `useOriginal` (nil: absent),
    /// reading the photo's disparity in another image when `readsDepth`.
    func builtPhoto(_ path: String, useOriginal: Bool?, readsDepth: Bool, in folder: URL) throws -> Image {
        let flag = useOriginal.map { #", "useOriginal": \#($0)"# } ?? ""
        let depth = readsDepth ? #", "disparity": {"file": "\#(path)", "auxiliary": "disparity"}"# : ""
        let recipe = try writeRecipe(#"""
            {"version": 1, "images": {"photo": {"file": "\#(path)"\#(flag)}\#(depth)},
             "outputs": [{"image": "photo", "file": "out.jpg"}]}
            """#, in: folder)
        var builder = RecipeBuilder(recipe: try RecipeDecoder.load(path: recipe))
        return try builder.image(named: "photo", from: "test")
    }

    func pixels(_ image: Image, _ rect: Rect) throws -> [UInt8] {
        try Context().render(image.cropped(to: rect), format: .rgba8).bytes
    }

    /// The Motorola Lens Blur photo (GDepth, README: GImage:Data an unblurred 1536×2048 JPEG):
    /// with its disparity read, the photo is the GImage; `"useOriginal": false`, or no depth read,
    /// keeps the blurred main image; `true` asks for the GImage without a depth map read.
    func testALensBlurRecipeStartsFromTheOriginal() throws {
        let path = try Self.shared("depth/gdepth_motorola_xt912_exifr.jpg")
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try XCTUnwrap(try DepthPhoto(contentsOf: path).originalImage())
        let primary = try Image(contentsOf: path)
        // A patch of the background (top left), blurred in the main image, sharp in the original.
        let patch = Rect(x: 300, y: 1800, width: 64, height: 64)
        let sharp = try pixels(original, patch), blurred = try pixels(primary, patch)
        XCTAssertNotEqual(sharp, blurred)
        for (useOriginal, readsDepth, expected) in [(nil, true, sharp), (false, true, blurred), (nil, false, blurred), (true, false, sharp)] {
            let photo = try builtPhoto(path, useOriginal: useOriginal, readsDepth: readsDepth, in: folder)
            XCTAssertEqual(photo.extent, Rect(x: 0, y: 0, width: 1536, height: 2048))
            XCTAssertEqual(try pixels(photo, patch), expected, "useOriginal \(String(describing: useOriginal)), depth read \(readsDepth)")
        }
    }

    /// The Pixel 8 portrait (README: Original 2024×2688 under a 3072×4080 primary, Depth and
    /// Confidence 2024×2688): a recipe reading its disparity starts from the Original at the
    /// Original's size; writing that image back copies every container item (the Original is
    /// the capture the output came from) with the depth map and confidence map unmoved.
    func testAPixelRecipeStartsFromTheOriginalAndKeepsItsContainer() throws {
        let path = try Self.shared("depth-more/pixel8_portrait_flowers_depthbox.jpg")
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try DepthPhoto(contentsOf: path)
        let photo = try builtPhoto(path, useOriginal: nil, readsDepth: true, in: folder)
        XCTAssertEqual(photo.extent, Rect(x: 0, y: 0, width: 2024, height: 2688))
        let patch = Rect(x: 1000, y: 1300, width: 32, height: 32)
        XCTAssertEqual(try pixels(photo, patch), try pixels(try XCTUnwrap(try file.originalImage()), patch))

        let result = Graph.runInProcess(["run", folder.appendingPathComponent("recipe.json").path])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.err, "", "no warning")
        let written = try DepthPhoto(contentsOf: folder.appendingPathComponent("out.jpg").path)
        XCTAssertEqual([written.info.width, written.info.height], [2024, 2688])
        XCTAssertEqual(written.auxiliaryImages.map(\.kind), [.hdrGainMap, .original, .depth, .confidence])
        let bytes = try ImageFile.read(path: path), writtenBytes = try ImageFile.read(path: written.path)
        func item(_ photo: DepthPhoto, _ kind: AuxiliaryImageInfo.Kind, _ bytes: [UInt8]) -> [UInt8] {
            switch photo.auxiliaryImages.first(where: { $0.kind == kind })?.location {
            case .containerItem(_, let range)?: return Array(bytes[range])
            case .jpeg(let stream)?: return Array(bytes[stream.range])
            default: return []
            }
        }
        for kind: AuxiliaryImageInfo.Kind in [.original, .depth, .confidence, .hdrGainMap] {
            XCTAssertEqual(item(written, kind, writtenBytes), item(file, kind, bytes), "\(kind) copied")
        }
        // The primary's intrinsics (README: fx = fy = 2938.025391, cx 1479.836060, cy 2039.145508 of
        // its 3072×4080) describe the same frame as the 2024×2688 output (2024/3072 and 2688/4080
        // differ by 0.0046 %): `Camera:ImagingModel` is scaled to it, x by 2024/3072, y by 2688/4080;
        // the depth description stays.
        XCTAssertNotNil(file.depthMapInfo?.dynamicDepth?.imagingModel)
        let description = try XCTUnwrap(written.depthMapInfo?.dynamicDepth)
        let model = try XCTUnwrap(description.imagingModel)
        XCTAssertEqual(model.focalLengthX, 1935.730271, accuracy: 1e-5)
        XCTAssertEqual(model.focalLengthY, 1935.640258, accuracy: 1e-5)
        XCTAssertEqual(model.principalPointX, 974.996154, accuracy: 1e-5)
        XCTAssertEqual(model.principalPointY, 1343.437041, accuracy: 1e-5)
        XCTAssertEqual([model.imageWidth, model.imageHeight], [2024, 2688])
        XCTAssertEqual([description.near, description.far], [0.208841, 5.702907])
        // The pixels did not move: the Google camera notes on the frame stay (the relighting input
        // is a 2024×2688 image of this very frame).
        XCTAssertEqual(DynamicDepthPackets.frameNotes(in: [written.info.metadata.xmp, written.info.metadata.extendedXMP].compactMap { $0 }),
                       ["GCamera:PortraitNote", "GCamera:RelitInputImageMime", "GCamera:RelitInputImageData",
                        "GCamera:PortraitRelightingRenderingOptions", "GCamera:PortraitRelightingLightPos"])
    }

    /// A chain that starts from the Pixel 8's Original and edits its colours (here an invert, as a
    /// colour grade before or after a depth effect would be) writes the Original item as the file
    /// stores it, unedited: the output is a new rendering from that capture, and the written
    /// Original cannot be the output itself (a portrait re-rendered from it would carry the
    /// output's depth effect twice), nor the edit without its depth effects (no such split is
    /// made). An app re-rendering the portrait from the written Original loses the colour edit.
    func testAColourEditOfAChainFromTheOriginalIsNotInTheWrittenOriginal() throws {
        let path = try Self.shared("depth-more/pixel8_portrait_flowers_depthbox.jpg")
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recipe = try writeRecipe(#"""
            {"version": 1, "images": {"photo": {"file": "\#(path)", "useOriginal": true},
                                      "inverted": {"filter": "CIColorInvert", "inputs": {"inputImage": {"image": "photo"}}}},
             "outputs": [{"image": "inverted", "file": "out.jpg"}]}
            """#, in: folder)
        let result = Graph.runInProcess(["run", recipe])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.err, "", "no warning")
        let file = try DepthPhoto(contentsOf: path)
        let written = try DepthPhoto(contentsOf: folder.appendingPathComponent("out.jpg").path)
        XCTAssertEqual([written.info.width, written.info.height], [2024, 2688])
        let patch = Rect(x: 1000, y: 1300, width: 16, height: 16)
        let sourceOriginal = try XCTUnwrap(try file.originalImage())
        XCTAssertEqual(try pixels(try XCTUnwrap(try written.originalImage()), patch), try pixels(sourceOriginal, patch),
                       "the Original is written unedited")
        let output = try pixels(try Image(contentsOf: written.path), patch)
        let inverted = try pixels(try sourceOriginal.applyingFilter("CIColorInvert"), patch)
        let meanToInverse = zip(output, inverted).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(output.count)
        XCTAssertLessThan(meanToInverse, 4, "the output is the inverted Original")
    }

    /// `"useOriginal": true` on a photo without an original, a non-Boolean, or beside
    /// `"auxiliary"`: errors naming the key.
    func testUseOriginalErrorsAreNamed() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let portrait = Self.repository.appendingPathComponent("Examples/depth/portrait.jpg").path
        XCTAssertThrowsError(try builtPhoto(portrait, useOriginal: true, readsDepth: false, in: folder)) { error in
            XCTAssertTrue("\(error)".contains("images.photo.useOriginal"), "\(error)")
            XCTAssertTrue("\(error)".contains("stores no original image"), "\(error)")
        }
        for (spec, expected) in [(#"{"file": "in.png", "useOriginal": "yes"}"#, "expected true or false, got \"yes\""),
                                 (#"{"file": "in.png", "auxiliary": "disparity", "useOriginal": true}"#, "remove \"useOriginal\"")] {
            let recipe = try writeRecipe(#"""
                {"version": 1, "images": {"photo": \#(spec)}, "outputs": [{"image": "photo", "file": "out.png"}]}
                """#, in: folder, name: "bad.json")
            XCTAssertThrowsError(try RecipeDecoder.load(path: recipe)) { error in
                XCTAssertTrue("\(error)".contains("images.photo.useOriginal"), "\(error)")
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
            }
        }
    }
}
