import Foundation
import XCTest

@testable import GraphCodecs

/// `EXIF.removingThumbnail` (issue 24): a written image carries no thumbnail of its source, which
/// would show the unedited photo; the rest of the EXIF is unchanged.
final class EXIFThumbnailTests: XCTestCase {
    /// The iPhone 7 Plus (big endian; a 9,042-byte thumbnail, then 2 bytes of padding) and the
    /// Pixel 8 (little endian; 13,073 bytes): the thumbnail's bytes are cut off the end, and
    /// exiftool still reads the same make, model, orientation and capture time, with no thumbnail.
    func testRealEXIFBlocksLoseOnlyTheirThumbnail() throws {
        // The folders first: a missing one skips (an XCTSkip inside XCTUnwrap would fail instead).
        let depth = try TestPaths.sharedTestData("depth"), depthMore = try TestPaths.sharedTestData("depth-more")
        let iPhone = try XCTUnwrap(try ImageFile.info(path: depth + "/iphone7plus_rw_test00.jpg").metadata.exif)
        let pixel = try XCTUnwrap(try ImageFile.info(path: depthMore + "/pixel8_portrait_flowers_depthbox.jpg").metadata.exif)
        let kept = ["Make", "Model", "Orientation", "DateTimeOriginal", "ExifImageWidth", "FNumber"]
        for (name, exif, thumbnail, padding) in [("iPhone 7 Plus", iPhone, 9042, 2), ("Pixel 8", pixel, 13073, 0)] {
            let stripped = EXIF.removingThumbnail(in: exif)
            XCTAssertEqual(stripped.count, exif.count - thumbnail - padding, name)
            XCTAssertEqual(EXIF.removingThumbnail(in: stripped), stripped, "\(name): nothing left to remove")
            XCTAssertEqual(EXIF.removingThumbnail(in: EXIF.jpegPrefix + exif), EXIF.jpegPrefix + stripped, name)
            let tags = kept + ["ThumbnailLength"]
            guard let before = try exiftoolTags(tags, ofJPEGCarrying: exif), let after = try exiftoolTags(tags, ofJPEGCarrying: stripped) else {
                throw XCTSkip("exiftool is not installed")
            }
            XCTAssertEqual(before.last, String(thumbnail), name)
            XCTAssertEqual(Array(after.dropLast()), Array(before.dropLast()), name)
            XCTAssertEqual(after.last, "-", "\(name): no thumbnail left")
        }
    }

    /// No IFD1, a header that is not TIFF, and every truncation of a real block: unchanged or
    /// shorter, never a trap.
    func testStructuresWithoutAThumbnailAndTruncationsNeverTrap() throws {
        let orientationOnly = EXIF.makeOrientationTIFF(6)
        XCTAssertEqual(EXIF.removingThumbnail(in: orientationOnly), orientationOnly)
        XCTAssertEqual(EXIF.removingThumbnail(in: [1, 2, 3]), [1, 2, 3])
        let depth = try TestPaths.sharedTestData("depth")
        let iPhone = try XCTUnwrap(try ImageFile.info(path: depth + "/iphone7plus_rw_test00.jpg").metadata.exif)
        for length in stride(from: 0, to: iPhone.count, by: 97) {
            let cut = Array(iPhone[..<length])
            XCTAssertLessThanOrEqual(EXIF.removingThumbnail(in: cut).count, cut.count)
        }
    }
}
