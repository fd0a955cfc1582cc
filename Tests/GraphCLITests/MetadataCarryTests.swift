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
}
