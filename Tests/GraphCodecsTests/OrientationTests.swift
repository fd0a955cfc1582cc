import XCTest

@testable import GraphCodecs

/// EXIF orientation: a 3x2 image with distinct pixels, written with each orientation tag via
/// the encoder's `exif` parameter, must decode upright with exact pixel positions.
final class OrientationTests: XCTestCase {
    /// Stored 3x2 grey image values (large steps so JPEG at q100 4:4:4 stays exact enough).
    let stored: [[UInt8]] = [[0, 50, 100], [150, 200, 250]]

    /// Expected upright image for each orientation (rows of stored values).
    func expected(_ orientation: Int) -> [[UInt8]] {
        let a = stored
        switch orientation {
        case 1: return a
        case 2: return a.map { $0.reversed() }
        case 3: return a.reversed().map { $0.reversed() }
        case 4: return a.reversed()
        case 5: return (0..<3).map { x in (0..<2).map { y in a[y][x] } }  // transpose
        case 6: return (0..<3).map { x in (0..<2).reversed().map { y in a[y][x] } }  // 90° CW
        case 7: return (0..<3).reversed().map { x in (0..<2).reversed().map { y in a[y][x] } }  // transverse
        default: return (0..<3).reversed().map { x in (0..<2).map { y in a[y][x] } }  // 90° CCW
        }
    }

    func testAllEightOrientationsJPEG() throws {
        // Each stored pixel becomes an 8x8 block so JPEG reproduces it exactly-ish.
        let block = 8
        var pixels: [UInt8] = []
        for row in stored {
            for _ in 0..<block { for value in row { pixels += [UInt8](repeating: value, count: block) } }
        }
        for orientation in 1...8 {
            for littleEndian in [false, true] {
                let exif = EXIF.makeOrientationTIFF(orientation, littleEndian: littleEndian)
                let jpeg = try JPEGCodec.encode(width: 3 * block, height: 2 * block, channels: 1, bytes: pixels, quality: 100, exif: exif)
                let image = try JPEGCodec.decode(jpeg)
                XCTAssertEqual(image.metadata.exifOrientation, orientation)
                XCTAssertEqual(image.metadata.orientationApplied, orientation != 1)
                let want = expected(orientation)
                XCTAssertEqual(image.width, want[0].count * block)
                XCTAssertEqual(image.height, want.count * block)
                for (y, row) in want.enumerated() {
                    for (x, value) in row.enumerated() {
                        let centre = (y * block + block / 2) * image.width + x * block + block / 2
                        XCTAssertLessThanOrEqual(abs(Int(image.bytes[centre]) - Int(value)), 2, "orientation \(orientation) at (\(x),\(y))")
                    }
                }
                // Without applyOrientation the stored layout comes back.
                let raw = try JPEGCodec.decode(jpeg, options: DecodeOptions(applyOrientation: false))
                XCTAssertEqual([raw.width, raw.height], [3 * block, 2 * block])
                XCTAssertFalse(raw.metadata.orientationApplied)
            }
        }
    }

    func testOrientationTransformIsExactForRGBA16() {
        // Exact check of the pixel remapping on multi-byte pixels (8 bytes each).
        let width = 3, height = 2
        var bytes: [UInt8] = []
        for i in 0..<(width * height) { for c in 0..<8 { bytes.append(UInt8(i * 10 + c)) } }
        for orientation in 1...8 {
            let result = Orientation.apply(orientation, bytes: bytes, width: width, height: height, pixelBytes: 8)
            let flat: [UInt8] = stored.flatMap { $0 }
            let want: [[Int]] = expected(orientation).map { row in row.map { value in flat.firstIndex(of: value) ?? -1 } }
            XCTAssertEqual(result.width, want[0].count)
            for (y, row) in want.enumerated() {
                for (x, index) in row.enumerated() {
                    let at = (y * result.width + x) * 8
                    let expectedPixel: [UInt8] = (0..<8).map { (c: Int) -> UInt8 in UInt8(index * 10 + c) }
                    XCTAssertEqual(Array(result.bytes[at..<at + 8]), expectedPixel, "orientation \(orientation)")
                }
            }
        }
    }
}
