import XCTest

@testable import GraphCodecs

/// Real depth photos: the iPhone MPF index points at embedded JPEGs; the Google GDepth
/// file's extended XMP is reassembled from its APP1 chunks and verified against its GUID.
final class DepthPhotoTests: XCTestCase {
    func testIPhoneMPFEntriesPointAtJPEGs() throws {
        let folder = try TestPaths.sharedTestData("depth")
        let expectations: [(String, Int, Int)] = [
            // file, MP entries, EXIF orientation
            ("iphone7plus_rw_test00.jpg", 2, 6),
            ("iphoneX_depth_shu223.jpg", 2, 1),
            ("iphoneX_depth_matte_shu223.jpg", 3, 1),
        ]
        for (name, count, orientation) in expectations {
            let bytes = try ImageFile.read(path: folder + "/" + name)
            let info = try ImageFile.info(bytes)
            XCTAssertEqual(info.metadata.mpfEntries.count, count, name)
            XCTAssertEqual(info.metadata.exifOrientation, orientation, name)
            XCTAssertNotNil(info.metadata.xmp, name)
            XCTAssertTrue(info.metadata.segments.contains { $0.name == "APP2 MPF" }, name)
            for entry in info.metadata.mpfEntries {
                let at = entry.absoluteOffset
                XCTAssertTrue(at >= 0 && at + 3 < bytes.count, "\(name) entry \(entry.index)")
                guard at >= 0, at + 3 < bytes.count else { continue }
                XCTAssertEqual(Array(bytes[at..<at + 3]), [0xFF, 0xD8, 0xFF], "\(name) MP entry \(entry.index + 1) at \(at) is not a JPEG SOI")
                XCTAssertEqual(entry.dataFormat, 0)
            }
            XCTAssertEqual(info.metadata.mpfEntries.first?.absoluteOffset, 0)
            XCTAssertEqual(info.metadata.mpfEntries.first?.typeCode, 0x030000)
            // The decode path (libjpeg saved markers) finds the same index.
            if name == "iphoneX_depth_matte_shu223.jpg" {
                let image = try JPEGCodec.decode(bytes, options: DecodeOptions(jpegScaleDenominator: 8))
                XCTAssertEqual(image.metadata.mpfEntries, info.metadata.mpfEntries)
                XCTAssertEqual(image.width, 378)
                XCTAssertEqual(image.height, 504)
                // The auxiliary images decode too: disparity 576x768 and matte 1512x2016, grey.
                let disparity = try JPEGCodec.decode(Array(bytes[info.metadata.mpfEntries[1].absoluteOffset...]))
                XCTAssertEqual([disparity.width, disparity.height, disparity.channels], [576, 768, 1])
                let matte = try ImageFile.info(Array(bytes[info.metadata.mpfEntries[2].absoluteOffset...]))
                XCTAssertEqual([matte.width, matte.height, matte.channels], [1512, 2016, 1])
                XCTAssertTrue(matte.metadata.xmp?.contains("portraitEffectsMatte") == true)
            }
        }
    }

    func testIPhone7PlusDisparityImage() throws {
        let folder = try TestPaths.sharedTestData("depth")
        let bytes = try ImageFile.read(path: folder + "/iphone7plus_rw_test00.jpg")
        let info = try ImageFile.info(bytes)
        XCTAssertEqual([info.width, info.height], [4032, 3024])
        XCTAssertEqual([info.orientedWidth, info.orientedHeight], [3024, 4032])
        let aux = try ImageFile.info(Array(bytes[info.metadata.mpfEntries[1].absoluteOffset...]))
        XCTAssertEqual([aux.width, aux.height, aux.channels], [768, 576, 1])
        XCTAssertTrue(aux.metadata.xmp?.contains("disparity") == true)
    }

    func testGDepthExtendedXMPIsReassembled() throws {
        let folder = try TestPaths.sharedTestData("depth")
        let info = try ImageFile.info(path: folder + "/gdepth_motorola_xt912_exifr.jpg")
        let metadata = info.metadata
        XCTAssertEqual(metadata.extendedXMPGUID, "07DA5AE24ECC10FD761F51CF86046830")
        XCTAssertEqual(metadata.extendedXMPDigestMatches, true)
        XCTAssertEqual(metadata.segments.filter { $0.name == "APP1 ExtendedXMP" }.count, 21)
        let extended = try XCTUnwrap(metadata.extendedXMP)
        XCTAssertEqual(extended.utf8.count, metadata.extendedXMPLength)
        XCTAssertTrue(extended.contains("GDepth:Data"))
        XCTAssertTrue(extended.contains("GImage:Data"))
        XCTAssertTrue(metadata.xmp?.contains("GDepth:Format=\"RangeInverse\"") == true || metadata.xmp?.contains("RangeInverse") == true)
        XCTAssertEqual([info.width, info.height], [1536, 2048])
    }
}
