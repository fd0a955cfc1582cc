import Foundation
import GraphCodecs
import GraphEngine
import XCTest
@testable import GraphCLI

/// `metadataFrom`: outputs carry the source's EXIF (set upright), XMP and extended XMP.
final class MetadataCarryTests: XCTestCase {
    /// A 6x4 JPEG tagged with EXIF orientation 6, a main XMP packet and a 150 KB extended packet.
    private func writeTaggedSource(in folder: URL) throws -> (xmp: String, extended: String) {
        let extended = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
            + "<rdf:Description xmlns:GDepth=\"http://ns.google.com/photos/1.0/depthmap/\" GDepth:Data=\""
            + String(repeating: "QUJD", count: 37_500) + "\"/></rdf:RDF></x:xmpmeta>"
        let guid = XMP.digestGUID(ofExtended: extended)
        let xmp = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
            + "<rdf:Description xmlns:xmpNote=\"http://ns.adobe.com/xmp/note/\" xmpNote:HasExtendedXMP=\"\(guid)\"/>"
            + "</rdf:RDF></x:xmpmeta>"
        let pixels = (0..<(6 * 4 * 3)).map { UInt8(truncatingIfNeeded: $0 * 9) }
        let jpeg = try JPEGCodec.encode(width: 6, height: 4, channels: 3, bytes: pixels, xmp: xmp, extendedXMP: extended,
                                        exif: EXIF.makeOrientationTIFF(6), comment: "from the camera")
        try Data(jpeg).write(to: folder.appendingPathComponent("photo.jpg"))
        return (xmp, extended)
    }

    func testOutputsCarryTheSourceMetadataUpright() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (xmp, extended) = try writeTaggedSource(in: folder)
        let path = try writeRecipe(#"""
        {"version": 1,
         "images": {"photo": {"file": "photo.jpg"},
                    "toned": {"filter": "CISepiaTone", "inputs": {"inputImage": {"image": "photo"}}}},
         "outputs": [{"image": "toned", "file": "toned.jpg", "metadataFrom": "photo"},
                     {"image": "toned", "file": "toned.png", "metadataFrom": "photo"},
                     {"image": "toned", "file": "bare.jpg"}]}
        """#, in: folder)
        let result = Graph.runInProcess(["run", path])
        XCTAssertEqual(result.status, 0, result.err)

        let jpeg = try ImageFile.info(path: folder.appendingPathComponent("toned.jpg").path)
        XCTAssertEqual([jpeg.width, jpeg.height], [4, 6], "decoded upright")
        XCTAssertEqual(jpeg.metadata.exifOrientation, 1, "pixels are upright, so the EXIF says so")
        XCTAssertEqual(jpeg.metadata.exif.flatMap(EXIF.orientation(tiff:)), 1)
        XCTAssertEqual(jpeg.metadata.xmp, xmp)
        XCTAssertEqual(jpeg.metadata.extendedXMP, extended)
        XCTAssertEqual(jpeg.metadata.extendedXMPDigestMatches, true)
        XCTAssertEqual(jpeg.metadata.comments, ["from the camera"])

        let png = try ImageFile.info(path: folder.appendingPathComponent("toned.png").path)
        XCTAssertEqual([png.width, png.height], [4, 6])
        XCTAssertEqual(png.metadata.exif.flatMap(EXIF.orientation(tiff:)), 1)
        XCTAssertEqual(png.metadata.xmp, xmp)

        let bare = try ImageFile.info(path: folder.appendingPathComponent("bare.jpg").path)
        XCTAssertNil(bare.metadata.exif)
        XCTAssertNil(bare.metadata.xmp)
        XCTAssertNil(bare.metadata.extendedXMP)
    }

    /// An iPhone HEIC's XMP item ends with a NUL after its packet: the packet alone is read, so
    /// a PNG output (iTXt cannot hold a NUL) carries it.
    func testHEICMetadataIntoPNG() throws {
        let heic = try BatchFixture.sharedTestData("depth/iphone13pro_pug_depth.heic")
        let xmp = try XCTUnwrap(try ImageFile.info(try ImageFile.read(path: heic)).metadata.xmp)
        XCTAssertFalse(xmp.utf8.contains(0))
        XCTAssertTrue(xmp.hasPrefix("<?xpacket begin="), String(xmp.prefix(40)))
        XCTAssertTrue(xmp.hasSuffix(#"<?xpacket end="w"?>"#), String(xmp.suffix(40)))
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try writeRecipe(#"""
        {"version": 1, "images": {"photo": {"file": "\#(heic)"},
          "small": {"filter": "CILanczosScaleTransform", "inputs": {"inputImage": {"image": "photo"}, "inputScale": 0.05}}},
         "outputs": [{"image": "small", "file": "small.png", "metadataFrom": "photo"}]}
        """#, in: folder)
        let result = Graph.runInProcess(["run", path])
        XCTAssertEqual(result.status, 0, result.err)
        let written = try ImageFile.info(try ImageFile.read(path: folder.appendingPathComponent("small.png").path))
        XCTAssertEqual(written.metadata.xmp, xmp)
    }

    func testMetadataFromMustNameAFileImage() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (from, expected) in [("phot", #"outputs[0].metadataFrom: unknown image "phot" (did you mean "photo"?)"#),
                                 ("toned", #"outputs[0].metadataFrom: image "toned" is not a "file" image; metadata comes from a file"#)] {
            let path = try writeRecipe(#"""
            {"version": 1,
             "images": {"photo": {"file": "in.png"},
                        "toned": {"filter": "CISepiaTone", "inputs": {"inputImage": {"image": "photo"}}}},
             "outputs": [{"image": "toned", "file": "out.jpg", "metadataFrom": "\#(from)"}]}
            """#, in: folder)
            let result = Graph.runInProcess(["run", path])
            XCTAssertEqual(result.status, 2)
            XCTAssertTrue(result.err.contains(expected), result.err)
            XCTAssertFalse(exists(folder, "out.jpg"))
        }
    }

    /// A crop and a scale move the photo's MWG focus region with the pixels (issue 24 item 1): the
    /// iPhone 7 Plus photo's subject (upright [0.262 0.343 0.158 0.119] of 3024×4032, lower-left
    /// origin) in a crop of rows 1000…3000 scaled by ½ is where this test computes it, the focus
    /// disparity stays the subject's, and `RegionAppliedToDimensions` is the file's size. A
    /// rotation cannot move the regions: it warns.
    func testCropsAndScalesMoveTheFocusRegion() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/testdata/depth/iphone7plus_rw_test00.jpg").path
        guard FileManager.default.fileExists(atPath: file) else { throw XCTSkip("shared test data not found at \(file)") }
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        func subject(_ path: String) throws -> (rect: [Double], disparity: Double) {
            let info = Graph.runInProcess(["info", path, "--format", "json"])
            XCTAssertEqual(info.status, 0, info.err)
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(info.out.utf8)) as? [String: Any])
            let subject = try XCTUnwrap(object["subject"] as? [String: Any])
            return (try XCTUnwrap(subject["rect"] as? [Double]), try XCTUnwrap(subject["focusDisparity"] as? Double))
        }
        let before = try subject(file)
        let recipe = try writeRecipe(#"""
        {"version": 1,
         "images": {"photo": {"file": "\#(file)"},
                    "crop": {"filter": "CICrop", "inputs": {"inputImage": {"image": "photo"}, "inputRectangle": [0, 1000, 3024, 2000]}},
                    "half": {"filter": "CILanczosScaleTransform", "inputs": {"inputImage": {"image": "crop"}, "inputScale": 0.5}},
                    "turned": {"filter": "CIAffineTransform", "inputs": {"inputImage": {"image": "photo"}, "inputTransform": [0.8, 0.6, -0.6, 0.8, 0, 0]}}},
         "outputs": [{"image": "half", "file": "half.jpg", "metadataFrom": "photo"},
                     {"image": "turned", "file": "turned.jpg", "metadataFrom": "photo"}]}
        """#, in: folder)
        let result = Graph.runInProcess(["run", recipe])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.err.contains("outputs[1]: the photo's face and focus regions are not moved with the edit"), result.err)
        XCTAssertFalse(result.err.contains("outputs[0]: the photo's face"), result.err)

        // In Double: the region's rows in the photo (lower-left origin), less the crop's 1000, over 2000.
        let (x, y, w, h) = (before.rect[0], before.rect[1], before.rect[2], before.rect[3])
        let expected = [x, (y * 4032 - 1000) / 2000, w, h * 4032 / 2000]
        let after = try subject(folder.appendingPathComponent("half.jpg").path)
        for (a, b) in zip(after.rect, expected) { XCTAssertEqual(a, b, accuracy: 1e-3, "\(after.rect) against \(expected)") }
        XCTAssertEqual(after.disparity, before.disparity, accuracy: 0.01)
        let info = try ImageFile.info(path: folder.appendingPathComponent("half.jpg").path)
        XCTAssertEqual([info.width, info.height], [1512, 1000])
        let xmp = try XCTUnwrap(info.metadata.xmp)
        XCTAssertTrue(xmp.contains(">1512<") || xmp.contains("\"1512\""), "RegionAppliedToDimensions is the file's size")
    }

    /// GDepth's focal point follows a crop as the MWG regions do: the Lens Blur photo's
    /// (0.29814816, 0.53194445) of 1536×2048 (top-left origin) is, in a crop of its lower-left
    /// 1000×1500, where this test computes it, and the focus disparity is the same.
    func testACropMovesTheGDepthFocalPoint() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/testdata/depth/gdepth_motorola_xt912_exifr.jpg").path
        guard FileManager.default.fileExists(atPath: file) else { throw XCTSkip("shared test data not found at \(file)") }
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("crop.jpg").path
        let result = Graph.runInProcess(["apply", file, output, "CICrop", "inputRectangle=0,0,1000,1500"])
        XCTAssertEqual(result.status, 0, result.err)
        let xmp = try XCTUnwrap(try ImageFile.info(path: output).metadata.xmp)
        let properties = XMPProperties.parse(xmp)
        let x = try XCTUnwrap(properties.number(GDepth.focusNamespace, "FocalPointX"))
        let y = try XCTUnwrap(properties.number(GDepth.focusNamespace, "FocalPointY"))
        XCTAssertEqual(x, 0.29814816 * 1536 / 1000, accuracy: 1e-9)
        XCTAssertEqual(y, (1500 - (2048 - 0.53194445 * 2048)) / 1500, accuracy: 1e-9)
    }
}
