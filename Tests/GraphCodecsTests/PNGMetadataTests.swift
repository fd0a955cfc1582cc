import XCTest

@testable import GraphCodecs

/// PNG eXIf and XMP iTXt writing (libpng's png_set_eXIf_1 and png_set_text): what
/// `PNGCodec.encode` writes, libpng reads back into the same bytes, before the image data.
final class PNGMetadataTests: XCTestCase {
    static let xmp = "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?><x:xmpmeta xmlns:x=\"adobe:ns:meta/\">"
        + "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description rdf:about=\"\""
        + " xmlns:dc=\"http://purl.org/dc/elements/1.1/\" dc:title=\"Café 深度\"/></rdf:RDF></x:xmpmeta><?xpacket end=\"w\"?>"

    /// A 5x3 RGB image whose pixels are all different.
    static let pixels = (0..<(5 * 3 * 3)).map { UInt8($0 * 5) }

    /// The chunk types of a PNG file, in order (IDAT included).
    func chunkTypes(_ png: [UInt8]) -> [String] {
        let reader = ByteReader(png)
        var types: [String] = []
        var position = PNGCodec.signature.count
        while let length = reader.u32(position).map(Int.init), let type = reader.fourCC(position + 4) {
            types.append(type)
            position += 12 + length
        }
        return types
    }

    func testEXIFAndXMPRoundTrip() throws {
        let tiffs: [(String, [UInt8], Int)] = [
            ("big endian", EXIF.makeOrientationTIFF(6), 6),
            ("little endian", EXIF.makeOrientationTIFF(8, littleEndian: true), 8),
        ]
        for (label, tiff, orientation) in tiffs {
            for prefixed in [false, true] {
                let png = try PNGCodec.encode(
                    width: 5, height: 3, channels: 3, bitDepth: 8, bytes: Self.pixels,
                    exif: prefixed ? EXIF.jpegPrefix + tiff : tiff, xmp: Self.xmp)
                let name = "\(label)\(prefixed ? ", prefixed" : "")"
                XCTAssertEqual(chunkTypes(png), ["IHDR", "eXIf", "iTXt", "IDAT", "IEND"], name)

                let image = try PNGCodec.decode(png, options: DecodeOptions(applyOrientation: false))
                XCTAssertEqual(image.metadata.exif, tiff, name)
                XCTAssertEqual(image.metadata.exifOrientation, orientation, name)
                XCTAssertEqual(image.metadata.xmp, Self.xmp, name)
                XCTAssertEqual(image.metadata.comments, [], name)
                XCTAssertEqual(image.bytes, Self.pixels, name)
                XCTAssertEqual(image.warnings, [], name)

                // The default decode turns the pixels upright from the eXIf orientation.
                let upright = try PNGCodec.decode(png)
                XCTAssertTrue(upright.metadata.orientationApplied, name)
                XCTAssertEqual([upright.width, upright.height], [3, 5], name)

                let info = try PNGCodec.readInfo(png)
                XCTAssertEqual(info.metadata.exif, tiff, name)
                XCTAssertEqual(info.metadata.xmp, Self.xmp, name)
                XCTAssertEqual(info.metadata.segments.map(\.name), ["eXIf", "iTXt"], name)
            }
        }
    }

    /// The exact iTXt layout: keyword, NUL, uncompressed, empty language and translation.
    func testXMPChunkLayout() throws {
        let png = try PNGCodec.encode(width: 5, height: 3, channels: 3, bitDepth: 8, bytes: Self.pixels, xmp: Self.xmp)
        let at = try XCTUnwrap(png.firstRange(of: Array("iTXt".utf8))).lowerBound
        let length = Int(try XCTUnwrap(ByteReader(png).u32(at - 4)))
        let data = Array(png[(at + 4)..<(at + 4 + length)])
        XCTAssertEqual(data, Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + Array(Self.xmp.utf8))
        XCTAssertEqual(chunkTypes(png), ["IHDR", "iTXt", "IDAT", "IEND"])
    }

    /// A real iPhone EXIF block (10 KB, orientation 6) set upright, with ICC, 16 bits and
    /// Adam7: the chunks sit after iCCP and before the image data.
    func testRealEXIFWithICCSixteenBitInterlaced() throws {
        let folder = try TestPaths.sharedTestData("depth")
        let exif = try XCTUnwrap(try ImageFile.info(path: folder + "/iphone7plus_rw_test00.jpg").metadata.exif)
        let upright = EXIF.settingOrientation(1, in: exif)
        let pixels = (0..<(9 * 7 * 4 * 2)).map { UInt8(truncatingIfNeeded: $0 * 37) }
        let png = try PNGCodec.encode(
            width: 9, height: 7, channels: 4, bitDepth: 16, bytes: pixels, iccProfile: ICCProfile.displayP3Bytes,
            exif: EXIF.jpegPrefix + upright, xmp: Self.xmp, interlaced: true)
        XCTAssertEqual(chunkTypes(png).filter { $0 != "IDAT" }, ["IHDR", "iCCP", "eXIf", "iTXt", "IEND"])
        let image = try PNGCodec.decode(png)
        XCTAssertEqual(image.metadata.exif, upright)
        XCTAssertEqual(image.metadata.exifOrientation, 1)
        XCTAssertFalse(image.metadata.orientationApplied)
        XCTAssertEqual(image.metadata.xmp, Self.xmp)
        XCTAssertEqual(image.metadata.iccProfile, ICCProfile.displayP3Bytes)
        XCTAssertEqual(image.bytes, pixels)
        XCTAssertEqual(image.warnings, [])
    }

    func testInvalidMetadataIsRefused() {
        let notTIFF = expectCodecError { () throws(CodecError) in
            try PNGCodec.encode(width: 5, height: 3, channels: 3, bitDepth: 8, bytes: Self.pixels, exif: Array("Exif\0\0hello".utf8))
        }
        XCTAssertEqual(notTIFF?.kind, .invalidArgument)
        XCTAssertEqual(notTIFF?.segment, "eXIf")
        let empty = expectCodecError { () throws(CodecError) in
            try PNGCodec.encode(width: 5, height: 3, channels: 3, bitDepth: 8, bytes: Self.pixels, exif: [])
        }
        XCTAssertEqual(empty?.segment, "eXIf")
        let nul = expectCodecError { () throws(CodecError) in
            try PNGCodec.encode(width: 5, height: 3, channels: 3, bitDepth: 8, bytes: Self.pixels, xmp: "<x:xmpmeta>\0</x:xmpmeta>")
        }
        XCTAssertEqual(nul?.kind, .invalidArgument)
        XCTAssertEqual(nul?.segment, "iTXt XML:com.adobe.xmp")
        XCTAssertTrue(nul?.message.contains("offset 11") == true, nul?.message ?? "")
    }
}
