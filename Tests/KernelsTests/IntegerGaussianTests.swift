import Foundation
import GraphEngine
import Kernels
import XCTest

/// CIGaussianBlur of an 8-bit photo clamped to its extent, colour management off (peer task T3's
/// graph), runs as one integer pass on the codes; checked against the float64 blur of the codes
/// written here (pixel-integrated Gaussian taps, edge pixels repeated).
final class IntegerGaussianTests: XCTestCase {
    let width = 150, height = 97

    /// The codes of ``eightBitTestCodes(width:height:seed:squareBlue:)``.
    func codes() -> [UInt8] { eightBitTestCodes(width: width, height: height, seed: 0x9E37_79B9_7F4A_7C15) }

    func options(_ format: WorkingFormat, tileSize: Int = 64) -> ContextOptions { unmanagedOptions(format, tileSize: tileSize) }

    /// RGB photos load as codes (Int16 planes); grey ones are grey planes of code / 255, turned back to codes.
    func testBlurOfEightBitCodesIsWithinAFewHundredthsOfALevelOfTheFloat64Blur() throws {
        let rgb = codes()
        try check(rgb, format: .rgb8, sigmas: [0.7, 3, 10])
        try check((0..<(width * height)).map { rgb[3 * $0 + 1] }, format: .gray8, sigmas: [3])
    }

    func check(_ bytes: [UInt8], format: PixelFormat, sigmas: [Double]) throws {
        let channels = format.channels
        let photo = Image(buffer: try ImageBuffer(width: width, height: height, format: format, alphaMode: .opaque,
                                                  colorSpace: .sRGB, bytes: bytes))
        /// The code of channel `c` at working-space (x, y) (y up), clamped to the extent, over 255.
        func value(_ x: Int, _ y: Int, _ c: Int) -> Double {
            let column = min(max(x, 0), width - 1), row = height - 1 - min(max(y, 0), height - 1)
            return Double(bytes[(row * width + column) * channels + min(c, channels - 1)]) / 255
        }
        for sigma in sigmas {
            let blurred = try photo.clampedToExtent().applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(sigma)])
                .cropped(to: photo.extent)
            let programs = try Context(options: options(.rgbah)).dump(blurred).programs.map(\.name)
            XCTAssertTrue(programs.contains { $0.hasPrefix("CIGaussianBlur_int(") }, "σ \(sigma): \(programs)")
            // An 8-bit render of colour: the blur writes its codes into the destination (no float
            // planes between); a grey one stores its one plane, quantised by the output stage.
            let plan = try Context(options: options(.rgbah)).dump(blurred).planPasses.flatMap(\.changes).joined(separator: "\n")
            let writesCodes = plan.contains("writes its codes into the RGBA8 rows")
            XCTAssertEqual(writesCodes, channels == 3, "σ \(sigma): \(plan)")

            let exact = try Context(options: options(.rgbaf)).render(blurred, format: .rgbaf)
            let bytesOut = try Context(options: options(.rgbah)).render(blurred, format: .rgba8)
            let otherTiles = try Context(options: options(.rgbah, tileSize: 512)).render(blurred, format: .rgba8)
            XCTAssertEqual(bytesOut.bytes, otherTiles.bytes, "σ \(sigma): tile size changed the bytes")
            // The float64 blur, separably: rows (edge pixels repeated), then columns of those.
            let taps = gaussianTaps(sigma), r = (taps.count - 1) / 2
            let across = (0..<height).map { y in
                (0..<width).map { x in
                    (0..<3).map { c in taps.indices.reduce(0.0) { $0 + taps[$1] * value(x + $1 - r, y, c) } }
                }
            }
            var worst = 0.0, worstByte = 0.0
            for y in 0..<height {
                for x in 0..<width {
                    for c in 0..<3 {
                        let reference = taps.indices.reduce(0.0) { $0 + taps[$1] * across[min(max(y + $1 - r, 0), height - 1)][x][c] }
                        let row = height - 1 - y
                        worst = max(worst, abs(Double(exact.pixel(x: x, row: row)[c]) - reference) * 255)
                        worstByte = max(worstByte, abs(Double(bytesOut.pixel(x: x, row: row)[c]) * 255 - reference * 255))
                    }
                }
            }
            print("\(format) σ \(sigma): worst \(worst) levels from the float64 blur (float output), \(worstByte) (8-bit output)")
            XCTAssertLessThan(worst, 0.05, "σ \(sigma): levels from the float64 blur")
            XCTAssertLessThan(worstByte, 1, "σ \(sigma): 8-bit output levels from the float64 blur")
            if writesCodes {
                // The codes are the integer sums rounded: half a level plus the sums' 0.11 at most.
                XCTAssertLessThan(worstByte, 0.62, "σ \(sigma): codes' levels from the float64 blur")
            }
        }
    }

    /// Tiles wider than a column strip (256 outputs; a last strip under 32 joins the one before)
    /// give the bytes and floats of narrow tiles, with the horizontal pass along rows (σ 3) and
    /// down the transposed strip (σ 10).
    func testColumnStripsGiveTheBytesOfNarrowTiles() throws {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        let wide = 600, high = 40
        let bytes = (0..<(3 * wide * high)).map { _ -> UInt8 in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        let photo = Image(buffer: try ImageBuffer(width: wide, height: high, format: .rgb8, alphaMode: .opaque,
                                                  colorSpace: .sRGB, bytes: bytes))
        for sigma in [3.0, 10] {
            let blurred = try photo.clampedToExtent().applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(sigma)])
                .cropped(to: photo.extent)
            let narrow = try Context(options: options(.rgbah, tileSize: 64)).render(blurred, format: .rgba8)
            let narrowFloats = try Context(options: options(.rgbaf, tileSize: 64)).render(blurred, format: .rgbaf)
            for tileSize in [270, 4096] {
                let other = try Context(options: options(.rgbah, tileSize: tileSize)).render(blurred, format: .rgba8)
                XCTAssertEqual(other.bytes, narrow.bytes, "σ \(sigma), tile size \(tileSize)")
                let floats = try Context(options: options(.rgbaf, tileSize: tileSize)).render(blurred, format: .rgbaf)
                XCTAssertEqual(floats.bytes, narrowFloats.bytes, "σ \(sigma), tile size \(tileSize), float output")
            }
        }
    }

    /// The codes written into RGB8 and BGRA8 rows are those of RGBA8 rows, channel for channel.
    func testCodesGoIntoEveryEightBitLayout() throws {
        let photo = Image(buffer: try ImageBuffer(width: width, height: height, format: .rgb8, alphaMode: .opaque,
                                                  colorSpace: .sRGB, bytes: codes()))
        let blurred = try photo.clampedToExtent().applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(3)])
            .cropped(to: photo.extent)
        let context = Context(options: options(.rgbah))
        let rgba = try context.render(blurred, format: .rgba8).bytes
        let rgb = try context.render(blurred, format: .rgb8).bytes
        let bgra = try context.render(blurred, format: .bgra8).bytes
        var expectedRGB: [UInt8] = [], expectedBGRA: [UInt8] = []
        for i in 0..<(width * height) {
            let pixel = Array(rgba[(4 * i)..<(4 * i + 4)])
            expectedRGB += pixel[0..<3]
            expectedBGRA += [pixel[2], pixel[1], pixel[0], 255]
        }
        XCTAssertEqual(rgb, expectedRGB)
        XCTAssertEqual(bgra, expectedBGRA)
        XCTAssertTrue(stride(from: 3, to: rgba.count, by: 4).allSatisfy { rgba[$0] == 255 })
    }

    /// Past σ ≈ 28 the rounded weights could move a pass by more than 0.05 level: the float passes stay.
    func testWideBlurKeepsTheFloatPasses() throws {
        let photo = Image(buffer: try ImageBuffer(width: width, height: height, format: .rgb8, alphaMode: .opaque,
                                                  colorSpace: .sRGB, bytes: codes()))
        for (sigma, integer) in [(20.0, true), (40.0, false)] {
            let blurred = try photo.clampedToExtent().applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(sigma)])
            let programs = try Context(options: options(.rgbah)).dump(blurred.cropped(to: photo.extent)).programs.map(\.name)
            XCTAssertEqual(programs.contains { $0.hasPrefix("CIGaussianBlur_int(") }, integer, "σ \(sigma): \(programs)")
        }
    }

    /// With colour management on, the blur is in linear light: the float passes, not the integer one.
    func testLinearLightBlurKeepsTheFloatPasses() throws {
        let photo = Image(buffer: try ImageBuffer(width: width, height: height, format: .rgb8, alphaMode: .opaque,
                                                  colorSpace: .sRGB, bytes: codes()))
        let blurred = try photo.clampedToExtent().applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(3)])
            .cropped(to: photo.extent)
        let programs = try Context(options: ContextOptions()).dump(blurred).programs.map(\.name)
        XCTAssertFalse(programs.contains { $0.hasPrefix("CIGaussianBlur_int(") }, "\(programs)")
        XCTAssertTrue(programs.contains { $0.hasPrefix("CIGaussianBlur_h(") }, "\(programs)")
    }
}
