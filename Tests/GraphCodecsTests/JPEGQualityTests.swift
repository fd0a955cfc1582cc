import Foundation
import XCTest

@testable import GraphCodecs

/// `JPEGQuality.estimate`: files libjpeg wrote come back at the quality they were written at;
/// a Pixel 8's Original item (its own tables) at 94; streams without a table are nil.
final class JPEGQualityTests: XCTestCase {
    func testLibjpegQualitiesComeBack() throws {
        let samples = (0..<(32 * 16 * 3)).map { UInt8(($0 * 37) & 0xFF) }
        for quality in [10, 50, 75, 90, 94, 100] {
            let bytes = try JPEGCodec.encode(width: 32, height: 16, channels: 3, bytes: samples, quality: quality)
            XCTAssertEqual(JPEGQuality.estimate(bytes), quality)
        }
        // q 90: s = 20, the first entries 16, 11, 12 become 3, 2, 2 (⌊(16·20 + 50)/100⌋ = 3).
        XCTAssertEqual(Array(JPEGQuality.scaledStandardTable(quality: 90).prefix(3)), [3, 2, 2])
    }

    func testNotAJPEGOrNoTableIsNil() {
        XCTAssertNil(JPEGQuality.estimate([]))
        XCTAssertNil(JPEGQuality.estimate([0x89, 0x50, 0x4E, 0x47]))
        XCTAssertNil(JPEGQuality.estimate([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xD9]))
        XCTAssertNil(JPEGQuality.estimate([0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x43, 0x00]), "a DQT running past the end")
    }

    /// README: the Pixel 8's Original item (2024×2688, 857,951 bytes at the file's end minus
    /// Depth 242,626 and Confidence 65,693): its luminance table is nearest libjpeg's at 94.
    func testThePixel8OriginalEstimatesAt94() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/testdata/depth-more/pixel8_portrait_flowers_depthbox.jpg").path
        guard let data = FileManager.default.contents(atPath: path) else { throw XCTSkip("shared test data not found at \(path)") }
        let bytes = [UInt8](data)
        let end = bytes.count - 242_626 - 65_693
        XCTAssertEqual(JPEGQuality.estimate(Array(bytes[(end - 857_951)..<end])), 94)
    }
}
