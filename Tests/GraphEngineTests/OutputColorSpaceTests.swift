import Foundation
import GraphCodecs
import XCTest
@testable import GraphEngine

/// Outputs by colour space: data (working values, untagged), sRGB, Display P3 and linear.
final class OutputColorSpaceTests: XCTestCase {
    /// A 4×2 JPEG tagged Display P3 holding saturated P3 colours (outside sRGB), 4:4:4 at quality 100.
    private func displayP3Photo(in folder: URL) throws -> (path: String, pixels: [UInt8]) {
        let pixels: [UInt8] = [0, 230, 20, 240, 10, 10, 20, 30, 240, 128, 128, 128,
                               250, 200, 0, 0, 200, 200, 60, 60, 60, 255, 255, 255]
        let jpeg = try JPEGCodec.encode(width: 4, height: 2, channels: 3, bytes: pixels, quality: 100, subsampling: .s444,
                                        iccProfile: ICCProfile.displayP3Bytes)
        let path = folder.appendingPathComponent("p3.jpg").path
        try Data(jpeg).write(to: URL(fileURLWithPath: path))
        return (path, try JPEGCodec.decode(jpeg).bytes)
    }

    func testDisplayP3PhotoIsWrittenAsDisplayP3() throws {
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (path, pixels) = try displayP3Photo(in: folder)
        let photo = try Image(contentsOf: path)
        let context = Context()
        for format in [OutputFileFormat.png, .jpeg] {
            let p3 = try context.encodedData(photo, format: format, options: ImageWriteOptions(quality: 100, subsampling: .s444,
                                                                                                colorSpace: .displayP3))
            let decoded = try ImageFile.decode(p3)
            XCTAssertEqual(decoded.metadata.parsedICCProfile?.kind, .displayP3, "\(format)")
            for (written, original) in zip(decoded.bytes, pixels) {
                XCTAssertEqual(Int(written), Int(original), accuracy: format == .png ? 1 : 2, "\(format)")
            }
            // The same photo as sRGB is tagged sRGB and its out-of-gamut colours change.
            let srgb = try ImageFile.decode(try context.encodedData(photo, format: format,
                                                                    options: ImageWriteOptions(quality: 100, subsampling: .s444,
                                                                                               colorSpace: .sRGB)))
            XCTAssertEqual(srgb.metadata.parsedICCProfile?.kind, .sRGB)
            let largest = zip(srgb.bytes, pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            XCTAssertGreaterThan(largest, 10, "\(format)")
        }
        // A render in Display P3 gives the file's values and is tagged so.
        let buffer = try context.render(photo, format: .rgb8, colorSpace: .displayP3)
        XCTAssertEqual(buffer.colorSpace, .displayP3)
        XCTAssertEqual(zip(buffer.bytes, pixels).map { abs(Int($0) - Int($1)) }.max() ?? 99, 0, accuracy: 1)
    }

    /// `.data`: the working-space values as they are (sRGB 128 is 0.2158605 linear), untagged;
    /// `.linearSRGB` the same values tagged linear.
    func testDataAndLinearOutputs() throws {
        let grey = try ImageBuffer(width: 2, height: 1, format: .rgb8, bytes: [128, 128, 128, 255, 0, 64])
        let image = Image(buffer: grey)
        let context = Context()
        let data = try context.render(image, format: .rgbaf, colorSpace: .data)
        XCTAssertNil(data.colorSpace)
        let linear = try context.render(image, format: .rgbaf, colorSpace: .linearSRGB)
        XCTAssertEqual(linear.colorSpace, .linearSRGB)
        func srgbToLinear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
        for buffer in [data, linear] {
            for (index, byte) in [128, 128, 128].enumerated() {
                XCTAssertEqual(Double(buffer.pixel(x: 0, row: 0)[index]), srgbToLinear(Double(byte) / 255), accuracy: 1e-3)
            }
            XCTAssertEqual(Double(buffer.pixel(x: 1, row: 0)[2]), srgbToLinear(64 / 255), accuracy: 1e-3)
        }
        let png = try ImageFile.decode(try context.encodedData(image, format: .png, options: ImageWriteOptions(colorSpace: .data)))
        XCTAssertNil(png.metadata.iccProfile)
        XCTAssertEqual(png.channels, 3, "not grey: written as RGB")
        XCTAssertEqual(Int(png.bytes[0]), Int((srgbToLinear(128 / 255) * 255).rounded()))
        // The default stays the context's output space.
        XCTAssertEqual(try context.render(image, format: .rgba8).colorSpace, .sRGB)
    }
}
