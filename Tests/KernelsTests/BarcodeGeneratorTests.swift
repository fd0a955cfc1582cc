import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// The barcode generators (``BarcodeGenerators``, libzint) checked without libzint: QR codes and
/// Code 128 decoded by zbar's `zbarimg` (skipped when it is not installed), and the sizes and fixed
/// patterns the standards give (QR finder patterns, the Aztec bullseye, PDF417 start and stop
/// patterns, Code 128's 11 modules per symbol).
final class BarcodeGeneratorTests: XCTestCase {
    /// The image's modules, top row first: `true` for black. Asserts it is opaque black and white.
    func modules(_ image: Image, file: StaticString = #filePath, line: UInt = #line) throws -> [[Bool]] {
        XCTAssertEqual(image.extent.x, 0, file: file, line: line)
        XCTAssertEqual(image.extent.y, 0, file: file, line: line)
        let buffer = try Context().render(image, format: .rgba8)
        let bytes = buffer.bytes
        var rows: [[Bool]] = []
        for y in 0..<buffer.height {
            var row: [Bool] = []
            for x in 0..<buffer.width {
                let p = y * buffer.rowBytes + x * 4
                let (r, g, b, a) = (bytes[p], bytes[p + 1], bytes[p + 2], bytes[p + 3])
                XCTAssertEqual(a, 255, "alpha at \(x), \(y)", file: file, line: line)
                XCTAssertTrue(r == g && g == b && (r == 0 || r == 255), "pixel \(x), \(y) is \(r) \(g) \(b)", file: file, line: line)
                row.append(r == 0)
            }
            rows.append(row)
        }
        return rows
    }

    /// What `zbarimg` reads in `modules` drawn `scale` times larger with a white quiet zone of
    /// `quiet` pixels around it; nil when it reads nothing (``BarcodeDecoding``).
    func zbarDecode(_ modules: [[Bool]], scale: Int = 4, quiet: Int = 16) throws -> String? {
        try BarcodeDecoding.zbar(BarcodeDecoding.picture(modules, scale: scale, quiet: quiet))
    }

    func generate(_ name: String, _ parameters: [String: FilterValue]) throws -> Image {
        try FilterRegistry.standard.apply(name, parameters: parameters)
    }

    /// The 7×7 finder pattern with its corner at (x, y): dark ring, light ring, dark 3×3 centre.
    func assertFinder(_ m: [[Bool]], x: Int, y: Int, file: StaticString = #filePath, line: UInt = #line) {
        for j in 0..<7 {
            for i in 0..<7 {
                let d = max(abs(i - 3), abs(j - 3))
                XCTAssertEqual(m[y + j][x + i], d != 2, "finder module \(i), \(j) at \(x), \(y)", file: file, line: line)
            }
        }
    }

    func testQRCodeDecodesAtEveryCorrectionLevelWithItsVersionsSize() throws {
        let message = "Hello, graph engine! Ünïcode ✓ 12345"
        // 40 UTF-8 bytes in byte mode (ISO/IEC 18004 table 7): version 3 (29 modules) holds 53 / 42
        // bytes at L / M, version 4 (33) 48 at Q but 34 at H, version 5 (37) 44 at H.
        for (level, modulesAcross) in [("L", 29), ("M", 29), ("Q", 33), ("H", 37)] {
            let image = try generate("CIQRCodeGenerator", ["inputMessage": .string(message), "inputCorrectionLevel": .string(level)])
            XCTAssertEqual(image.extent, Rect(x: 0, y: 0, width: Double(modulesAcross + 2), height: Double(modulesAcross + 2)), level)
            let m = try modules(image)
            XCTAssertFalse(m[0].contains(true) || m.last!.contains(true) || m.contains { $0[0] || $0.last! }, "one-module white border")
            assertFinder(m, x: 1, y: 1)
            assertFinder(m, x: modulesAcross + 1 - 7, y: 1)
            assertFinder(m, x: 1, y: modulesAcross + 1 - 7)
            XCTAssertEqual(try zbarDecode(m), message, "level \(level)")
        }
        XCTAssertEqual(Array(message.utf8).count, 40)
    }

    func testCode128DecodesWithElevenModulesPerSymbolAndQuietSpace() throws {
        let message = "Code128!"
        let image = try generate("CICode128BarcodeGenerator", ["inputMessage": .string(message), "inputQuietSpace": .number(7),
                                                               "inputBarcodeHeight": .number(20)])
        // Code set B: start, 8 data symbols, check symbol (11 modules each) and the 13-module stop.
        XCTAssertEqual(image.extent, Rect(x: 0, y: 0, width: Double(11 * 10 + 13 + 14), height: Double(20 + 14)))
        let m = try modules(image)
        XCTAssertEqual(Array(m[7][7..<18]), [true, true, false, true, false, false, true, false, false, false, false], "start B: 211214")
        XCTAssertEqual(Array(m[7][(7 + 110)..<(7 + 123)]), [true, true, false, false, false, true, true, true, false, true, false, true, true],
                       "stop: 2331112")
        XCTAssertTrue(m[7] == m[26] && !m[6].contains(true) && !m[27].contains(true), "bars 20 pixels tall inside 7 white pixels")
        XCTAssertEqual(try zbarDecode(m, scale: 2), message)
        // Core Image's defaults: quiet space 10, height 32.
        XCTAssertEqual(try generate("CICode128BarcodeGenerator", ["inputMessage": .string(message)]).extent,
                       Rect(x: 0, y: 0, width: 123 + 20, height: 32 + 20))
    }

    func testPDF417HasStartAndStopPatternsOnEveryRowAndTheColumnsAsked() throws {
        let message = "PDF417 from libzint"
        let image = try generate("CIPDF417BarcodeGenerator", ["inputMessage": .string(message), "inputDataColumns": .number(3)])
        let m = try modules(image)
        // 17 modules per codeword column, start (17) and stop (18) patterns, two row indicators.
        let width = 17 * (3 + 2) + 17 + 18
        XCTAssertEqual(m[0].count, width + 2)
        XCTAssertEqual((m.count - 2) % 3, 0, "rows 3 pixels tall")
        let start = [true, true, true, true, true, true, true, true, false, true, false, true, false, true, false, false, false]  // 81111113
        let stop = [true, true, true, true, true, true, true, false, true, false, false, false, true, false, true, false, false, true]  // 711311121
        for y in 1..<(m.count - 1) {
            XCTAssertEqual(Array(m[y][1..<18]), start, "start pattern, row \(y)")
            XCTAssertEqual(Array(m[y][(width + 1 - 18)..<(width + 1)]), stop, "stop pattern, row \(y)")
        }
        // zbar's PDF417 reader is incomplete (it finds the symbol but does not decode it in Debian's
        // zbar 0.23); when a build decodes it, the text must be the message.
        if let decoded = try zbarDecode(m, scale: 3) { XCTAssertEqual(decoded, message) }
        // Truncated PDF417: no right row indicator, a one-module stop pattern.
        let compact = try generate("CIPDF417BarcodeGenerator", ["inputMessage": .string(message), "inputDataColumns": .number(3),
                                                                "inputCompactStyle": .bool(true)])
        XCTAssertEqual(compact.extent.width, Double(17 * (3 + 1) + 17 + 1 + 2))
        // Width bounds choose the columns: the fewest whose symbol is at least 150 pixels wide.
        let bounded = try generate("CIPDF417BarcodeGenerator", ["inputMessage": .string(message), "inputMinWidth": .number(150)])
        XCTAssertEqual(bounded.extent.width, Double(17 * (5 + 2) + 35 + 2), "5 columns: 154 modules")
    }

    func testAztecSizesAndBullseye() throws {
        // Compact codes are 11 + 4L modules, full-range ones 15 + 4L up to 4 layers (ISO/IEC 24778).
        for (layers, compact, size) in [(1, true, 15), (2, true, 19), (4, true, 27), (1, false, 19), (3, false, 27)] {
            let image = try generate("CIAztecCodeGenerator", ["inputMessage": .string("AZTEC"), "inputLayers": .number(Double(layers)),
                                                              "inputCompactStyle": .bool(compact)])
            XCTAssertEqual(image.extent.width, Double(size + 2), "\(layers) layers, compact \(compact)")
            XCTAssertEqual(image.extent.height, Double(size + 2))
            let m = try modules(image), c = (size + 2) / 2
            // The bullseye: dark at even ring distances from the centre, 2 (compact) or 3 dark rings.
            let rings = compact ? 4 : 6
            for j in -rings...rings {
                for i in -rings...rings {
                    XCTAssertEqual(m[c + j][c + i], max(abs(i), abs(j)) % 2 == 0, "bullseye \(i), \(j), \(layers) layers")
                }
            }
            // The orientation marks at the mode message ring's corners: three dark at the top left.
            let o = rings + 1
            XCTAssertTrue(m[c - o][c - o] && m[c - o][c - o + 1] && m[c - o + 1][c - o], "top-left orientation mark")
            XCTAssertTrue(!m[c + o][c - o] && !m[c + o][c - o + 1] && !m[c + o - 1][c - o], "bottom-left orientation mark is light")
        }
        // Automatic: the message in the smallest code (a compact one of 1 layer holds 12 characters).
        XCTAssertEqual(try generate("CIAztecCodeGenerator", ["inputMessage": .string("Aztec")]).extent.width, 17)
    }

    func testMessagesThatCannotBeEncodedAreErrorsNamingTheFilterAndKey() throws {
        func assertInvalid(_ name: String, _ parameters: [String: FilterValue], key: String, containing text: String,
                           file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertThrowsError(try generate(name, parameters), file: file, line: line) { error in
                guard case GraphError.invalidParameter(let filter, let k, let reason) = error else {
                    return XCTFail("\(error)", file: file, line: line)
                }
                XCTAssertEqual(filter, name, file: file, line: line)
                XCTAssertEqual(k, key, file: file, line: line)
                XCTAssertTrue(reason.contains(text), reason, file: file, line: line)
            }
        }
        let huge = String(repeating: "x", count: 6000)
        for name in ["CIQRCodeGenerator", "CIAztecCodeGenerator", "CIPDF417BarcodeGenerator", "CICode128BarcodeGenerator"] {
            assertInvalid(name, ["inputMessage": .string("")], key: "inputMessage", containing: "empty")
            assertInvalid(name, [:], key: "inputMessage", containing: "not given")
            assertInvalid(name, ["inputMessage": .string(huge)], key: "inputMessage", containing: "libzint")
        }
        assertInvalid("CIQRCodeGenerator", ["inputMessage": .string("a"), "inputCorrectionLevel": .string("X")],
                      key: "inputCorrectionLevel", containing: "L, M, Q or H")
        assertInvalid("CIAztecCodeGenerator", ["inputMessage": .string("a"), "inputLayers": .number(5), "inputCompactStyle": .bool(true)],
                      key: "inputLayers", containing: "1 to 4")
        assertInvalid("CIAztecCodeGenerator", ["inputMessage": .string(String(repeating: "z", count: 40)), "inputLayers": .number(1)],
                      key: "inputMessage", containing: "libzint")
    }
}
