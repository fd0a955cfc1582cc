import Foundation
import GraphCodecs
import XCTest
@testable import GraphEngine
@testable import Kernels

/// A depth photo's original (GDepth's `GImage:Data`, Dynamic Depth's `Original` item) is reachable
/// and an edit is replayed on it (issue 24): a colour edit of a Lens Blur photo writes its GImage
/// edited the same way, not the unedited original a GDepth-aware app would re-render from.
final class OriginalImageTests: XCTestCase {
    func testAColourEditIsReplayedOnTheLensBlurOriginal() throws {
        let path = try DepthTestData.path("gdepth_motorola_xt912_exifr.jpg")
        let file = try DepthPhoto(contentsOf: path)
        let original = try XCTUnwrap(try file.originalImage())
        let photo = try Image(contentsOf: path)
        XCTAssertEqual(original.extent, photo.extent)
        let edited = try photo.applyingFilter("CIColorInvert")
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("inverted.jpg").path
        let context = Context()
        var options = ImageWriteOptions()
        let (carried, warnings) = file.auxiliaryImages(following: edited, from: photo)
        XCTAssertEqual(warnings, [])
        options.auxiliaryImages = carried
        try context.write(edited, to: output, options: options)

        let written = try XCTUnwrap(try DepthPhoto(contentsOf: output).originalImage())
        let expected = try context.render(try original.applyingFilter("CIColorInvert"), format: .rgba8).bytes
        let got = try context.render(written, format: .rgba8).bytes
        XCTAssertEqual(expected.count, got.count)
        // JPEG at quality 100 of the inverted original: a few steps at most on average.
        let meanError = zip(expected, got).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(expected.count)
        XCTAssertLessThan(meanError, 1.5)
        let unedited = try context.render(original, format: .rgba8).bytes
        let meanToUnedited = zip(unedited, got).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(got.count)
        XCTAssertGreaterThan(meanToUnedited, 40, "the written original is the edited one")
    }

    /// The Pixel 8's Dynamic Depth `Original` item (2024×2688, README ground truth) loads as a
    /// colour image; its size differs from the 3072×4080 primary, so an edit is replayed on it
    /// scaled to the primary and back (`DepthPhoto.replayingEdit`): the written Original keeps
    /// its 2024×2688 and carries the edit.
    func testTheDynamicDepthOriginalLoadsAndAnEditIsReplayedAtItsOwnSize() throws {
        let path = try DepthTestData.path("../depth-more/pixel8_portrait_flowers_depthbox.jpg")
        let file = try DepthPhoto(contentsOf: path)
        let original = try XCTUnwrap(try file.originalImage())
        XCTAssertEqual(original.extent, Rect(x: 0, y: 0, width: 2024, height: 2688))
        let rendered = try Context().render(original.cropped(to: Rect(x: 1000, y: 1300, width: 8, height: 8)), format: .rgba8)
        XCTAssertEqual(rendered.width, 8)
        let photo = try Image(contentsOf: path)
        let (carried, warnings) = file.auxiliaryImages(following: try photo.applyingFilter("CIColorInvert"), from: photo)
        XCTAssertEqual(warnings, [])
        XCTAssertNil(carried.originalImage, "GDepth's GImage only")
        let items = try XCTUnwrap(carried.dynamicDepth?.items)
        XCTAssertEqual(items.map(\.semantic), ["GainMap", "Original", "Depth", "Confidence"])
        guard case .original(let replayed, _) = items[1].content else { return XCTFail("\(items[1].content)") }
        XCTAssertEqual(replayed.extent, Rect(x: 0, y: 0, width: 2024, height: 2688))
        let patch = Rect(x: 1000, y: 1300, width: 32, height: 32)
        let context = Context()
        let got = try context.render(replayed.cropped(to: patch), format: .rgba8).bytes
        let inverted = try context.render(try original.applyingFilter("CIColorInvert").cropped(to: patch), format: .rgba8).bytes
        let meanError = zip(inverted, got).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(got.count)
        XCTAssertLessThan(meanError, 3, "scaled up and back down: a little softer")
    }

    /// `replacingSource` rebuilds only what reads the source; an image that does not read it gives nil.
    func testReplacingASourceRebuildsWhatReadsIt() throws {
        let a = Image(color: [1, 0, 0, 1]).cropped(to: Rect(x: 0, y: 0, width: 4, height: 4))
        let b = Image(color: [0, 0, 1, 1]).cropped(to: Rect(x: 0, y: 0, width: 4, height: 4))
        let other = Image(color: [0, 1, 0, 1]).cropped(to: Rect(x: 0, y: 0, width: 4, height: 4))
        let edited = try a.applyingFilter("CIColorInvert").composited(over: other)
        let replayed = try XCTUnwrap(edited.replacingSource(a, with: b))
        let context = Context()
        XCTAssertEqual(try context.render(replayed).bytes,
                       try context.render(try b.applyingFilter("CIColorInvert").composited(over: other)).bytes)
        XCTAssertNil(other.replacingSource(a, with: b))
        XCTAssertNil(edited.replacingSource(a, with: b.cropped(to: Rect(x: 0, y: 0, width: 2, height: 2))))
    }

    /// `.original` loads the original by name (a recipe's `"auxiliary": "original"`): GDepth's
    /// GImage as a colour image; a photo without one is an error naming what it has.
    func testTheOriginalLoadsByName() throws {
        let path = try DepthTestData.path("gdepth_motorola_xt912_exifr.jpg")
        let byName = try Image(contentsOf: path, auxiliary: .original)
        let direct = try XCTUnwrap(try DepthPhoto(contentsOf: path).originalImage())
        let context = Context()
        let corner = Rect(x: 700, y: 900, width: 16, height: 16)
        XCTAssertEqual(try context.render(byName.cropped(to: corner)).bytes, try context.render(direct.cropped(to: corner)).bytes)
        XCTAssertNotEqual(try context.render(byName.cropped(to: corner)).bytes,
                          try context.render(try Image(contentsOf: path).cropped(to: corner)).bytes, "GImage is not the blurred primary")
        XCTAssertThrowsError(try Image(contentsOf: try DepthTestData.path("iphoneX_depth_shu223.jpg"), auxiliary: .original)) { error in
            XCTAssertTrue("\(error)".contains("has no original (unblurred) image"), "\(error)")
        }
    }
}
