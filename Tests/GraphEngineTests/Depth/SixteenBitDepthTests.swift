import Foundation
import GraphCodecs
import XCTest
@testable import GraphEngine

/// 16-bit depth maps read at full precision (issue 24). No real phone file with a 16-bit map in
/// a JPEG container was found (every iPhone MPF map here is an 8-bit JPEG; the RealSense XDM file's
/// inline 16-bit PNG is covered by ``XDMDepthTests``), so these files are synthetic: a GDepth
/// photo whose `GDepth:Data` is a 16-bit grey PNG and a Dynamic Depth photo whose Depth item is
/// one. Neighbouring stored samples differ by 1/65535 of the range, far below an 8-bit step
/// (1/255): each must come back as its own value, exactly the file's formula. An MPF map is a JPEG, and a
/// 16-bit JPEG is lossless (SOF3), which the JPEG library here (libjpeg-turbo 2.1) cannot decode:
/// such a map is refused with an error naming it, never read at 8 bits. A moved 16-bit map is
/// written back at 16 bits (GDepth PNG, Dynamic Depth PNG item).
final class SixteenBitDepthTests: XCTestCase {
    let (width, height) = (64, 4)

    /// Stored samples 30000, 30001, … (one per pixel, rows top first) as a 16-bit grey PNG.
    func samples() -> [UInt16] { (0..<(width * height)).map { UInt16(30_000 + $0) } }

    func png(_ samples: [UInt16]) throws -> [UInt8] {
        try PNGCodec.encode(width: width, height: height, channels: 1, bitDepth: 16, bytes: samples.withUnsafeBytes { Array($0) })
    }

    func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let folder = try DepthTestData.temporaryFolder()
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Every value equals `expected(sample)` (Float32 rounding only) and all are distinct.
    func assertFullPrecision(_ map: Image, _ expected: (Double) -> Double, file: StaticString = #filePath, line: UInt = #line) throws {
        let values = try DepthTestData.values(map)
        XCTAssertEqual([values.width, values.height], [width, height], file: file, line: line)
        for (value, sample) in zip(values.values, samples()) {
            let want = expected(Double(sample))
            XCTAssertEqual(Double(value), want, accuracy: 1e-6 * abs(want), "sample \(sample)", file: file, line: line)
        }
        XCTAssertEqual(Set(values.values).count, width * height, "every 16-bit step is its own value", file: file, line: line)
    }

    /// GDepth RangeLinear, Near 1 m, Far 3 m: d = 1 + 2·v/65535 (neighbours 3.05e-5 m apart; an
    /// 8-bit map's step is 7.8e-3 m).
    func testGDepthSixteenBitPNGIsReadAtFullPrecision() throws {
        let metadata = GDepthMetadata(format: .rangeLinear, near: 1, far: 3, units: "m", mime: "image/png", data: try png(samples()))
        let packets = GDepth.packets(metadata)
        let photo = try JPEGCodec.encode(width: 32, height: 2, channels: 3, bytes: [UInt8](repeating: 100, count: 32 * 2 * 3),
                                         xmp: packets.main, extendedXMP: packets.extended)
        let path = try write(photo, "gdepth16.jpg")
        let file = try DepthPhoto(contentsOf: path)
        XCTAssertEqual(file.depthMapInfo?.bitDepth, 16)
        try assertFullPrecision(try file.depthData(as: .depth).map) { 1 + 2 * $0 / 65535 }
    }

    /// Dynamic Depth RangeInverse in Diopters, Near 0.2, Far 5 (the Pixel's convention: the near
    /// plane at 1/5 m, the far at 1/0.2 m), a 16-bit PNG Depth item: the disparity in diopters is
    /// 5 − (5 − 0.2)·v/65535.
    func testDynamicDepthSixteenBitPNGItemIsReadAtFullPrecision() throws {
        let bytes = try DynamicDepthTests.dynamicDepthFile(depth: [], width: width, height: height, format: "RangeInverse", near: "0.2",
                                                           far: "5", units: "Diopters", depthPNG: try png(samples()))
        let file = try DepthPhoto(contentsOf: try write(bytes, "dd16.jpg"))
        let info = try XCTUnwrap(file.depthMapInfo)
        XCTAssertEqual([info.width, info.height, info.bitDepth], [width, height, 16])
        try assertFullPrecision(try file.depthData(as: .disparity).map) { 5 - (5 - 0.2) * $0 / 65535 }
    }

    /// A crop of a 16-bit map's photo writes the moved map back at 16 bits: the photo cropped to
    /// x 8...24 (the map, twice the photo's resolution, to columns 16...48), written and read back,
    /// each value within half a 16-bit step of the file's (an 8-bit map would be off by up to half
    /// of 1/255 of the range). GDepth renormalises to the crop's own range; Dynamic Depth keeps
    /// the file's Near/Far (the values fit).
    func testACroppedSixteenBitMapIsWrittenAtSixteenBits() throws {
        let gDepth = GDepthMetadata(format: .rangeLinear, near: 1, far: 3, units: "m", mime: "image/png", data: try png(samples()))
        let packets = GDepth.packets(gDepth)
        let gDepthPhoto = try JPEGCodec.encode(width: 32, height: 2, channels: 3, bytes: [UInt8](repeating: 100, count: 32 * 2 * 3),
                                               xmp: packets.main, extendedXMP: packets.extended)
        let dynamicDepth = try DynamicDepthTests.dynamicDepthFile(depth: [], width: width, height: height, format: "RangeInverse",
                                                                  near: "0.2", far: "5", units: "Diopters", depthPNG: try png(samples()))
        let cases: [(String, [UInt8], DepthData.Kind, (Double) -> Double)] = [
            ("gdepth16", gDepthPhoto, .depth, { 1 + 2 * $0 / 65535 }),
            ("dd16", dynamicDepth, .disparity, { 5 - (5 - 0.2) * $0 / 65535 }),
        ]
        for (name, bytes, kind, formula) in cases {
            let path = try write(bytes, "\(name).jpg")
            let photo = try Image(contentsOf: path)
            let edited = photo.cropped(to: Rect(x: photo.extent.width / 4, y: 0, width: photo.extent.width / 2, height: photo.extent.height))
            let (carried, _) = try DepthPhoto(contentsOf: path).auxiliaryImages(following: edited, from: photo)
            let output = try write([], "\(name)-crop.jpg")
            try Context().write(edited, to: output, options: ImageWriteOptions(auxiliaryImages: carried))
            let written = try DepthPhoto(contentsOf: output)
            XCTAssertEqual(written.depthMapInfo?.bitDepth, 16, name)
            let values = try DepthTestData.values(try written.depthData(as: kind).map)
            let mapWidth = width / 2
            XCTAssertEqual([values.width, values.height], [mapWidth, height], name)
            let expected = (0..<height).flatMap { row in (0..<mapWidth).map { formula(Double(30_000 + row * width + $0 + width / 4)) } }
            let span = abs(formula(Double(30_000 + width * height)) - formula(30_000))
            for (got, want) in zip(values.values, expected) {
                XCTAssertEqual(Double(got), want, accuracy: max(2e-6 * abs(want), span / 65535), name)
            }
        }
    }

    /// An MPF "depth" image that is a lossless 16-bit JPEG (SOF3): listed with its precision, and
    /// loading it is an error that names the image and the precision.
    func testALosslessSixteenBitMPFMapIsRefusedByName() throws {
        let source = try DepthTestData.path("iphoneX_depth_shu223.jpg")
        var bytes = try ImageFile.read(path: source)
        let file = try DepthPhoto(contentsOf: source)
        guard case .jpeg(let stream) = try XCTUnwrap(file.depthMapInfo).location else { return XCTFail("an MPF map") }
        // The map's frame header turned into SOF3 (lossless) at 16 bits; the rest left as it is.
        let map = Array(bytes[stream.range])
        let sof = try XCTUnwrap((0..<(map.count - 4)).first { map[$0] == 0xFF && map[$0 + 1] == 0xC0 })
        bytes[stream.range.lowerBound + sof + 1] = 0xC3
        bytes[stream.range.lowerBound + sof + 4] = 16
        let changed = try DepthPhoto(contentsOf: try write(bytes, "lossless16.jpg"))
        let info = try XCTUnwrap(changed.depthMapInfo)
        XCTAssertEqual(info.bitDepth, 16)
        XCTAssertThrowsError(try changed.depthData()) { error in
            XCTAssertTrue("\(error)".contains("lossless JPEG (SOF3, 16-bit) is not supported"), "\(error)")
            XCTAssertTrue("\(error)".contains("MPF image 2"), "\(error)")
        }
    }
}
