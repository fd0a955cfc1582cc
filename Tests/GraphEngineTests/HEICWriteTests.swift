import Foundation
import GraphCodecs
import XCTest
@testable import GraphEngine

/// HEIC output (libheif + x265): the main image with its colour profile and metadata.
final class HEICWriteTests: XCTestCase {
    /// Smooth colour ramps (HEVC is lossy), written as HEIC and read back close to the rendered values.
    func testHEICOutputRoundTrips() throws {
        var bytes: [UInt8] = []
        for row in 0..<48 {
            for x in 0..<64 { bytes += [UInt8(x * 4), UInt8(row * 5), UInt8(255 - x * 2)] }
        }
        let image = Image(buffer: try ImageBuffer(width: 64, height: 48, format: .rgb8, bytes: bytes))
        var metadata = ImageMetadata(format: .jpeg)
        metadata.exif = EXIF.makeOrientationTIFF(1)
        metadata.xmp = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>"#
        let context = Context()
        let heic = try context.encodedData(image, format: .heic,
                                           options: ImageWriteOptions(quality: 95, metadata: metadata, colorSpace: .displayP3))
        XCTAssertEqual(ImageFormat.sniff(heic), .heif)
        let info = try HEIFCodec.readInfo(heic)
        XCTAssertEqual([info.width, info.height], [64, 48])
        XCTAssertEqual(info.iccProfile?.kind, .displayP3)
        XCTAssertEqual(info.metadata.xmp, metadata.xmp)
        XCTAssertNotNil(info.metadata.exif.flatMap(EXIF.orientation(tiff:)))
        let decoded = try HEIFCodec.decode(heic)
        XCTAssertEqual([decoded.width, decoded.height, decoded.channels], [64, 48, 3])
        let expected = try context.render(image, format: .rgb8, colorSpace: .displayP3).bytes
        let errors = zip(decoded.bytes, expected).map { abs(Int($0) - Int($1)) }
        XCTAssertLessThan(Double(errors.reduce(0, +)) / Double(errors.count), 2.5, "mean error")
        XCTAssertLessThanOrEqual(errors.max() ?? 0, 24)

        // Through the file API too, and HEIC refuses what it cannot hold.
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("out.heic").path
        try context.write(image, to: path)
        XCTAssertEqual(try Image(contentsOf: path).extent, Rect(x: 0, y: 0, width: 64, height: 48))
        XCTAssertThrowsError(try context.write(image, to: path, options: ImageWriteOptions(bitDepth: 16))) { error in
            XCTAssertTrue("\(error)".contains("HEIC supports only 8 bits"), "\(error)")
        }
        let map = DepthData(map: Image(color: [1, 1, 1, 1]).cropped(to: Rect(x: 0, y: 0, width: 8, height: 8)), kind: .disparity)
        XCTAssertThrowsError(try context.write(image, to: path, options: ImageWriteOptions(auxiliaryImages: AuxiliaryImages(depthData: map)))) {
            XCTAssertTrue("\($0)".contains("JPEG outputs only"), "\($0)")
        }
    }
}
