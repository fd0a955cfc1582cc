import Foundation
import XCTest

@testable import GraphCodecs

/// `EXIF.settingPixelDimensions` (issue 24): a cropped or scaled output's EXIF states its own size
/// in the Exif IFD's PixelXDimension / PixelYDimension, rewritten in place in either byte order
/// and storage, and never traps on truncated input.
final class EXIFPixelDimensionsTests: XCTestCase {
    /// Offsets where two equally long byte arrays differ.
    private func differences(_ a: [UInt8], _ b: [UInt8]) -> [Int] {
        XCTAssertEqual(a.count, b.count)
        return zip(a, b).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
    }

    /// The iPhone 7 Plus (big endian, 4032×3024, orientation 6) and the Pixel 8 (little endian,
    /// 3072×4080) EXIF blocks: written as 1200×1600 upright, exiftool reads 1200, 1600 and
    /// orientation 1, and only the dimension values' bytes changed besides the orientation's.
    func testRealEXIFBlocksStateTheNewSize() throws {
        // The folders first: a missing one skips (an XCTSkip inside XCTUnwrap would fail instead).
        let depth = try TestPaths.sharedTestData("depth"), depthMore = try TestPaths.sharedTestData("depth-more")
        let iPhone = try XCTUnwrap(try ImageFile.info(path: depth + "/iphone7plus_rw_test00.jpg").metadata.exif)
        let pixel = try XCTUnwrap(try ImageFile.info(path: depthMore + "/pixel8_portrait_flowers_depthbox.jpg").metadata.exif)
        for (name, exif, before) in [("iPhone 7 Plus", iPhone, ["4032", "3024", "6"]), ("Pixel 8", pixel, ["3072", "4080", "1"])] {
            let written = EXIF.settingPixelDimensions(width: 1200, height: 1600, in: EXIF.settingOrientation(1, in: exif))
            // At most two bytes per value change (1200 = 0x04B0 and 1600 = 0x0640 fit two bytes),
            // one for the orientation.
            XCTAssertLessThanOrEqual(differences(exif, written).count, 5, name)
            XCTAssertEqual(EXIF.settingPixelDimensions(width: 1200, height: 1600, in: EXIF.jpegPrefix + exif),
                           EXIF.jpegPrefix + EXIF.settingPixelDimensions(width: 1200, height: 1600, in: exif), name)
            let tags = ["ExifImageWidth", "ExifImageHeight", "Orientation"]
            guard let original = try exiftoolTags(tags, ofJPEGCarrying: exif), let read = try exiftoolTags(tags, ofJPEGCarrying: written) else {
                throw XCTSkip("exiftool is not installed")
            }
            XCTAssertEqual(original, before, name)
            XCTAssertEqual(read, ["1200", "1600", "1"], name)
        }
    }

    /// A hand-built little- and big-endian block: PixelXDimension a SHORT, PixelYDimension a LONG.
    /// 70,000 does not fit the SHORT (left as it was); it fits the LONG.
    func testShortAndLongStorage() throws {
        for littleEndian in [false, true] {
            var bytes: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
            func u16(_ v: Int) { bytes += littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
            func u32(_ v: Int) {
                let b = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
                bytes += littleEndian ? b.reversed() : b
            }
            u16(42); u32(8)
            // IFD0 at 8: one entry, the Exif IFD pointer to 26.
            u16(1); u16(0x8769); u16(4); u32(1); u32(26); u32(0)
            // Exif IFD at 26: PixelXDimension SHORT 640, PixelYDimension LONG 480.
            u16(2); u16(0xA002); u16(3); u32(1); u16(640); u16(0); u16(0xA003); u16(4); u32(1); u32(480); u32(0)
            func values(_ tiff: [UInt8]) -> [Int] {
                let x = littleEndian ? Int(tiff[36]) | Int(tiff[37]) << 8 : Int(tiff[36]) << 8 | Int(tiff[37])
                let y = (0..<4).reduce(0) { $0 | Int(tiff[48 + $1]) << (8 * (littleEndian ? $1 : 3 - $1)) }
                return [x, y]
            }
            XCTAssertEqual(values(bytes), [640, 480])
            XCTAssertEqual(values(EXIF.settingPixelDimensions(width: 320, height: 70_000, in: bytes)), [320, 70_000])
            XCTAssertEqual(values(EXIF.settingPixelDimensions(width: 70_000, height: 200, in: bytes)), [640, 200])
        }
    }

    /// Every truncation of a real block comes back (unchanged when the entries are cut off), and
    /// a block without an Exif IFD is returned as it was.
    func testTruncatedAndMissingStructures() throws {
        let depth = try TestPaths.sharedTestData("depth")
        let exif = try XCTUnwrap(try ImageFile.info(path: depth + "/iphone7plus_rw_test00.jpg").metadata.exif)
        for length in stride(from: 0, to: min(exif.count, 600), by: 3) {
            let cut = Array(exif.prefix(length))
            XCTAssertEqual(EXIF.settingPixelDimensions(width: 10, height: 20, in: cut).count, cut.count)
        }
        let bare = EXIF.makeOrientationTIFF(6)
        XCTAssertEqual(EXIF.settingPixelDimensions(width: 10, height: 20, in: bare), bare)
    }
}
