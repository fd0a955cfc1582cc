import XCTest
@testable import GraphCodecs

/// The `.cube` parser: the accepted keywords, the table order, and errors that name the line.
final class CubeLUTTests: XCTestCase {
    func testParsesATableWithCommentsTitleDomainAndCRLF() throws {
        var text = "# made by hand\r\nTITLE \"warm look\"\r\n\r\nLUT_3D_SIZE 2\r\nDOMAIN_MIN 0 0 0\r\nDOMAIN_MAX 1 1 1\r\n"
        var expected: [Float] = []
        for b in 0..<2 {
            for g in 0..<2 {
                for r in 0..<2 {
                    let v = [Float(r) * 0.9 + 0.05, Float(g) * 0.8, Float(b) * 0.7 - 0.001]
                    expected += v
                    text += "  \(v[0])\t\(v[1]) \(v[2])  # texel\r\n"
                }
            }
        }
        let lut = try CubeLUT(text: text)
        XCTAssertEqual(lut.title, "warm look")
        XCTAssertEqual(lut.dimension, 2)
        XCTAssertEqual(lut.rgb, expected)
        XCTAssertEqual(lut.rgbaFloats.count, 32)
        XCTAssertEqual(Array(lut.rgbaFloats[4..<8]), [0.95, 0, -0.001, 1])
    }

    func testErrorsNameTheLine() {
        let cases: [(String, String)] = [
            ("0 0 0\n", "table values before LUT_3D_SIZE [line 1]"),
            ("LUT_3D_SIZE 2\n0 0 0\n", "LUT_3D_SIZE 2 needs 8 table lines, found 1"),
            ("LUT_3D_SIZE 1\n", "LUT_3D_SIZE must be a whole number from 2 to 256, got 1.0 [line 1]"),
            ("LUT_3D_SIZE 2.5\n", "LUT_3D_SIZE must be a whole number from 2 to 256, got 2.5 [line 1]"),
            ("LUT_3D_SIZE 2\nLUT_3D_SIZE 2\n", "LUT_3D_SIZE given twice [line 2]"),
            ("LUT_1D_SIZE 16\n", "1D tables (LUT_1D_SIZE) are not supported; a colour cube needs LUT_3D_SIZE [line 1]"),
            ("LUT_3D_SIZE 2\nDOMAIN_MAX 2 2 2\n", "only the domain 0…1 is supported (DOMAIN_MAX 1 1 1) [line 2]"),
            ("LUT_3D_SIZE 2\n0 0\n", "a table line needs 3 numbers [line 2]"),
            ("LUT_3D_SIZE 2\n0 0 0 0\n", "a table line needs 3 numbers [line 2]"),
            ("LUT_3D_SIZE 2\n0 nan 0\n", "a table line needs 3 numbers [line 2]"),
            ("LUT_3D_SIZE 2\n" + String(repeating: "0 0 0\n", count: 9), "more than 2³ = 8 table lines [line 10]"),
            ("GAMMA 2.2\n", "unknown keyword \"GAMMA\" [line 1]"),
            ("", "no LUT_3D_SIZE line"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try CubeLUT(text: text), text) { error in
                XCTAssertEqual("\(error)", message, text)
            }
        }
    }

    func testArbitraryBytesNeverTrap() {
        var state: UInt64 = 7
        let alphabet = Array("LUT_3D_SIZE 2\n0.5 -1e3 .#\r\tDOMAIN_MAX TITLE\"x".utf8) + [0, 0xFF, 0xC3]
        for _ in 0..<2000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(state % 80) {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                bytes.append(alphabet[Int(state >> 33) % alphabet.count])
            }
            _ = try? CubeLUT(bytes: bytes)
        }
    }
}
