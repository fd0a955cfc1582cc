import Foundation
import GraphEngine
import Kernels
import XCTest

/// CILanczosScaleTransform and CIBicubicScaleTransform of an 8-bit photo clamped to its extent,
/// colour management off (peer tasks T1 and T4's graphs), run as one integer pass on the codes;
/// checked against the float64 scale of the codes (``ResamplingFilterTests/reference(_:_:sx:sy:support:kernel:read:)``).
final class IntegerResampleTests: XCTestCase {
    let width = 150, height = 97

    /// The codes of ``eightBitTestCodes(width:height:seed:squareBlue:)`` (a blue 255 in the square: the Lanczos kernel rings past the codes' range).
    func codes() -> [UInt8] { eightBitTestCodes(width: width, height: height, seed: 0x2545_F491_4F6C_DD1D, squareBlue: 255) }

    func options(_ format: WorkingFormat, tileSize: Int = 64) -> ContextOptions { unmanagedOptions(format, tileSize: tileSize) }

    func photo(_ bytes: [UInt8], format: PixelFormat = .rgb8) throws -> Image {
        Image(buffer: try ImageBuffer(width: width, height: height, format: format, alphaMode: .opaque, colorSpace: .sRGB, bytes: bytes))
    }

    /// Shrinks (T1's 0.9, half size with another aspect ratio, T4's reduced-decode step of 2) and
    /// enlargements: the float result within 0.4 of an 8-bit level of the float64 scale, the 8-bit
    /// result within one level, whatever the tiles.
    func testScaleOfEightBitCodesIsWithinOneLevelOfTheFloat64Scale() throws {
        let lanczos = ResamplingFilterTests.lanczos, mitchell = ResamplingFilterTests.cubic(1.0 / 3, 1.0 / 3)
        let cases: [(String, [String: FilterValue], (Double) -> Double, Double, Double, Double)] = [
            ("CILanczosScaleTransform", ["inputScale": .number(0.9)], lanczos, 3, 0.9, 0.9),
            ("CILanczosScaleTransform", ["inputScale": .number(0.5), "inputAspectRatio": .number(1.25)], lanczos, 3, 0.625, 0.5),
            ("CILanczosScaleTransform", ["inputScale": .number(1.7)], lanczos, 3, 1.7, 1.7),
            ("CIBicubicScaleTransform", ["inputScale": .number(0.75), "inputB": .number(1.0 / 3), "inputC": .number(1.0 / 3)],
             mitchell, 2, 0.75, 0.75),
        ]
        let bytes = codes()
        let source = try photo(bytes)
        /// The code of channel `c` at working-space (x, y) (y up), clamped to the extent, over 255.
        func read(_ x: Int, _ y: Int) -> SIMD4<Double> {
            let column = min(max(x, 0), width - 1), row = height - 1 - min(max(y, 0), height - 1)
            let i = 3 * (row * width + column)
            return SIMD4(Double(bytes[i]), Double(bytes[i + 1]), Double(bytes[i + 2]), 255) / 255
        }
        for (name, parameters, kernel, support, sx, sy) in cases {
            var all = parameters
            all["inputImage"] = .image(source.clampedToExtent())
            let rect = Rect(x: 0, y: 0, width: Double(width) * sx, height: Double(height) * sy).integral
            let scaled = try FilterRegistry.standard.apply(name, parameters: all).cropped(to: rect)
            let programs = try Context(options: options(.rgbah)).dump(scaled).programs.map(\.name)
            XCTAssertTrue(programs.contains { $0.hasPrefix("\(name)_int(") }, "\(name) \(parameters): \(programs)")

            let exact = try Context(options: options(.rgbaf)).render(scaled, format: .rgbaf)
            let bytesOut = try Context(options: options(.rgbah)).render(scaled, format: .rgba8)
            let otherTiles = try Context(options: options(.rgbah, tileSize: 512)).render(scaled, format: .rgba8)
            XCTAssertEqual(bytesOut.bytes, otherTiles.bytes, "\(name) \(parameters): tile size changed the bytes")
            var worst = 0.0, worstByte = 0.0, overshoot = 0.0
            let outputHeight = Int(rect.height)
            for y in 0..<outputHeight {
                for x in 0..<Int(rect.width) {
                    let reference = ResamplingFilterTests.reference(x, y, sx: sx, sy: sy, support: support, kernel: kernel, read: read)
                    let row = outputHeight - 1 - y
                    for c in 0..<3 {
                        worst = max(worst, abs(Double(exact.pixel(x: x, row: row)[c]) - reference[c]) * 255)
                        let clamped = min(max(reference[c], 0), 1)
                        worstByte = max(worstByte, abs(Double(bytesOut.pixel(x: x, row: row)[c]) - clamped) * 255)
                        overshoot = max(overshoot, reference[c] - 1, -reference[c])
                    }
                }
            }
            print("\(name) \(parameters): worst \(worst) levels from the float64 scale (float output), \(worstByte) (8-bit output)")
            XCTAssertGreaterThan(overshoot, 0.02, "\(name): the hard edges ring past the codes' range (the test covers it)")
            XCTAssertLessThan(worst, 0.4, "\(name) \(parameters): levels from the float64 scale")
            XCTAssertLessThan(worstByte, 1, "\(name) \(parameters): 8-bit output levels from the float64 scale")
        }
    }

    /// A grey 8-bit photo loads as one plane of code / 255 (not as codes): turned back to codes, the
    /// same integer pass, the same result as the RGB photo's green channel.
    func testGreyPhotoGivesTheGreenChannelOfTheRGBOne() throws {
        let rgb = codes()
        let grey = try photo((0..<(width * height)).map { rgb[3 * $0 + 1] }, format: .gray8)
        func scaled(_ image: Image) throws -> ImageBuffer {
            let result = try image.clampedToExtent().applyingFilter("CILanczosScaleTransform", parameters: ["inputScale": .number(0.9)])
                .cropped(to: Rect(x: 0, y: 0, width: 135, height: 87))
            let programs = try Context(options: options(.rgbah)).dump(result).programs.map(\.name)
            XCTAssertTrue(programs.contains { $0.hasPrefix("CILanczosScaleTransform_int(") }, "\(programs)")
            return try Context(options: options(.rgbaf)).render(result, format: .rgbaf)
        }
        let fromGrey = try scaled(grey), fromRGB = try scaled(try photo(rgb))
        for row in 0..<87 {
            for x in 0..<135 { XCTAssertEqual(fromGrey.pixel(x: x, row: row)[0], fromRGB.pixel(x: x, row: row)[1], "(\(x), \(row))") }
        }
    }

    /// Where the rounded weights could move a pass by more than 0.15 level (a shrink to an eighth:
    /// 49 taps at 2^16), with colour management on (the scale is in linear light) and without the clamp
    /// (transparent outside: not codes), the float passes stay.
    func testFloatPassesStayWhereCodesOrPrecisionDoNotAllow() throws {
        let source = try photo(codes())
        func programs(_ image: Image, _ options: ContextOptions) throws -> [String] {
            try Context(options: options).dump(image.cropped(to: Rect(x: 0, y: 0, width: 40, height: 30))).programs.map(\.name)
        }
        let eighth = try source.clampedToExtent().applyingFilter("CILanczosScaleTransform", parameters: ["inputScale": .number(0.125)])
        XCTAssertFalse(try programs(eighth, options(.rgbah)).contains { $0.contains("_int(") })
        let third = try source.clampedToExtent().applyingFilter("CILanczosScaleTransform", parameters: ["inputScale": .number(0.3)])
        XCTAssertTrue(try programs(third, options(.rgbah)).contains { $0.hasPrefix("CILanczosScaleTransform_int(") })
        let managed = try source.clampedToExtent().applyingFilter("CILanczosScaleTransform", parameters: ["inputScale": .number(0.9)])
        XCTAssertFalse(try programs(managed, ContextOptions()).contains { $0.contains("_int(") })
        XCTAssertTrue(try programs(managed, options(.rgbah)).contains { $0.hasPrefix("CILanczosScaleTransform_int(") })
        let unclamped = try source.applyingFilter("CILanczosScaleTransform", parameters: ["inputScale": .number(0.9)])
        XCTAssertFalse(try programs(unclamped, options(.rgbah)).contains { $0.contains("_int(") })
    }
}
