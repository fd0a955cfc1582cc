import Foundation
import GraphCodecs
import XCTest
@testable import GraphEngine
@testable import GraphIO

/// An unfiltered JPEG written as JPEG is transcoded without a render, to the bytes the render
/// would write; anything that changes pixels renders.
final class DirectTranscodeTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("graph-transcode-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// A 67x45 JPEG with a gradient and noise, tagged with `iccProfile` (3 channels) or grey.
    private func writeJPEG(_ name: String, channels: Int = 3, iccProfile: [UInt8]? = nil) throws -> String {
        let width = 67, height = 45
        let pixels = (0..<(width * height * channels)).map { i -> UInt8 in
            let x = (i / channels) % width, y = (i / channels) / width
            return UInt8(truncatingIfNeeded: x * 3 + y * 5 + (i % channels) * 40 + (i * 7919) % 13)
        }
        let jpeg = try JPEGCodec.encode(width: width, height: height, channels: channels, bytes: pixels,
                                        iccProfile: iccProfile, xmp: "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>")
        let path = folder.appendingPathComponent(name).path
        try Data(jpeg).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testTranscodeGivesTheRenderedBytes() throws {
        let path = try writeJPEG("photo.jpg")
        let decoded = try Image.decoding(path: path)
        let options = ImageWriteOptions(quality: 85, subsampling: .s444, progressive: true, metadata: decoded.metadata)
        var off = ContextOptions()
        off.workingColorSpace = nil
        for (context, managed) in [(Context(), true), (Context(options: off), false)] {
            XCTAssertNotNil(context.directlyTranscodable(decoded.image))
            // An identity matrix is not the file itself, so it renders (the optimizer removes the
            // matrix, and the program copies rows).
            let rendered = decoded.image.applyingColorMatrix(.identity(sourceName: "identity"))
            XCTAssertNil(context.directlyTranscodable(rendered))
            let direct = try context.encodedData(decoded.image, format: .jpeg, options: options)
            XCTAssertEqual(direct, try context.encodedData(rendered, format: .jpeg, options: options))
            let info = try JPEGCodec.readInfo(direct).metadata
            XCTAssertEqual(info.xmp, decoded.metadata.xmp)
            XCTAssertTrue(info.jpegProgressive)
            XCTAssertEqual(info.jpegSubsampling, .s444)
            // Tagged with the output space's profile, as rendered outputs are (none without colour management).
            XCTAssertEqual(info.iccProfile, managed ? ICCProfile.sRGBBytes : nil)
        }
    }

    func testWhatChangesPixelsRenders() throws {
        let p3 = try Image(contentsOf: try writeJPEG("p3.jpg", iccProfile: ICCProfile.displayP3Bytes))
        let grey = try Image(contentsOf: try writeJPEG("grey.jpg", channels: 1))
        let plain = try Image(contentsOf: try writeJPEG("plain.jpg"))
        XCTAssertNil(Context().directlyTranscodable(p3), "P3 converts to the sRGB output")
        XCTAssertNil(Context().directlyTranscodable(grey), "grey renders as RGB")
        var unfused = ContextOptions()
        unfused.fusion = false
        XCTAssertNil(Context(options: unfused).directlyTranscodable(plain), "the unfused baseline always renders")
        var off = ContextOptions()
        off.workingColorSpace = nil
        XCTAssertNotNil(Context(options: off).directlyTranscodable(p3), "no colour management: nothing to convert")
        // The render-size limit still applies.
        var small = ContextOptions()
        small.maximumRenderPixels = 1000
        XCTAssertThrowsError(try Context(options: small).encodedData(plain, format: .jpeg)) { error in
            XCTAssertTrue("\(error)".contains("exceeds the limit of 1000 pixels"), "\(error)")
        }
    }

    func testTruncatedFileFailsAndWritesNothing() throws {
        let path = try writeJPEG("whole.jpg")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let truncated = folder.appendingPathComponent("truncated.jpg")
        try bytes.prefix(bytes.count * 6 / 10).write(to: truncated)
        let image = try Image(contentsOf: truncated.path)
        XCTAssertNotNil(Context().directlyTranscodable(image))
        let output = folder.appendingPathComponent("out.jpg").path
        XCTAssertThrowsError(try Context().write(image, to: output)) { error in
            XCTAssertTrue("\(error)".contains("truncated.jpg"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }
}
