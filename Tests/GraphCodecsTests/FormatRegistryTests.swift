import XCTest

@testable import GraphCodecs

/// The format registry: one entry per format, consistent with its case, and the one place that
/// picks a format by bytes or suffix and lists the supported ones.
final class FormatRegistryTests: XCTestCase {
    func testEveryFormatHasItsOwnEntryInSniffingOrder() {
        XCTAssertEqual(ImageFormatRegistry.entries.map(\.format), [.png, .jpeg, .heif])
        for format in ImageFormat.allCases { XCTAssertEqual(format.entry.format, format) }
        XCTAssertEqual(ImageFormatRegistry.savable.compactMap(\.saving?.key), ["png", "jpeg", "heic"])
    }

    func testEncodedFilesAreRecognisedByTheirOwnEntryOnly() throws {
        let png = try PNGCodec.encode(width: 2, height: 1, channels: 1, bitDepth: 8, bytes: [0, 255])
        let jpeg = try JPEGCodec.encode(width: 2, height: 1, channels: 1, bytes: [0, 255])
        let heif = try HEIFCodec.encode(width: 2, height: 2, channels: 3, bytes: [UInt8](repeating: 128, count: 12))
        for (bytes, format) in [(png, ImageFormat.png), (jpeg, .jpeg), (heif, .heif)] {
            XCTAssertEqual(ImageFormatRegistry.entries.filter { $0.isA(bytes) }.map(\.format), [format])
            XCTAssertEqual(try ImageFile.format(of: bytes), format)
            XCTAssertEqual(try ImageFile.info(bytes).format, format)
        }
        XCTAssertEqual(try ImageFile.decode(png).bytes, [0, 255])
    }

    func testADamagedPNGSignatureGoesToThePNGLoader() {
        var bytes = PNGCodec.signature + [UInt8](repeating: 0, count: 16)
        bytes[0] = 0x0A  // the first byte lost to a text-mode transfer
        XCTAssertNil(ImageFormatRegistry.sniff(bytes))
        XCTAssertEqual(ImageFormatRegistry.damagedFormat(bytes), .png)
    }

    func testSuffixesInAnyCase() {
        XCTAssertEqual(ImageFormatRegistry.format(suffix: "JPG"), .jpeg)
        XCTAssertEqual(ImageFormatRegistry.format(suffix: "jpeg"), .jpeg)
        XCTAssertEqual(ImageFormatRegistry.format(suffix: "heif"), .heif)
        XCTAssertEqual(ImageFormatRegistry.format(suffix: "Png"), .png)
        XCTAssertNil(ImageFormatRegistry.format(suffix: "tif"))
        XCTAssertNil(ImageFormatRegistry.format(suffix: ""))
    }

    func testListsInMessagesAreBuiltFromTheEntries() {
        XCTAssertEqual(ImageFormatRegistry.savableSuffixes, ".png, .jpg, .jpeg or .heic")
        XCTAssertEqual(ImageFormatRegistry.savableKeys, #""png", "jpeg" or "heic""#)
        XCTAssertEqual(ImageFormatRegistry.names(conjunction: "and"), "PNG, JPEG and HEIF")
        XCTAssertEqual(ImageFormatRegistry.auxiliaryImageCarriers, "JPEG")
        XCTAssertEqual(ImageSaving.png.bitDepthList, "8 or 16")
        XCTAssertEqual(ImageFormatRegistry.list([], conjunction: "or"), "")
        XCTAssertEqual(ImageFormatRegistry.list(["a", "b"], conjunction: "or"), "a or b")
    }
}
