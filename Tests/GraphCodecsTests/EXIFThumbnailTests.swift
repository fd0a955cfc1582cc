import Foundation
import XCTest

@testable import GraphCodecs

/// `EXIF.removingThumbnail` (issue 24): a written image carries no thumbnail of its source, which
/// would show the unedited photo; the rest of the EXIF is unchanged.
final class EXIFThumbnailTests: XCTestCase {
    /// `exiftool -n -s3` of `tags` on a small JPEG carrying `exif`; nil when exiftool is not installed.
    private func exiftool(_ exif: [UInt8], _ tags: [String]) throws -> [String]? {
        let jpeg = try JPEGCodec.encode(width: 16, height: 8, channels: 3, bytes: [UInt8](repeating: 90, count: 16 * 8 * 3), exif: exif)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("exif-thumbnail-\(UUID().uuidString).jpg").path
        try Data(jpeg).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["exiftool", "-n", "-s3", "-f"] + tags.map { "-" + $0 } + [path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = Pipe()
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

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
            guard let before = try exiftool(exif, kept + ["ThumbnailLength"]), let after = try exiftool(stripped, kept + ["ThumbnailLength"]) else {
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
