import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// CIBarcodeGenerator (``BarcodeDescriptorGenerator``): each symbology decoded by zxing-cpp's
/// `ZXingReader` (skipped when it is not installed), with the sizes the descriptors ask for and,
/// for QR, the mask and level read back from the symbol's format information.
final class BarcodeDescriptorGeneratorTests: XCTestCase {
    func generate(_ descriptor: BarcodeDescriptor) throws -> Image {
        try FilterRegistry.standard.apply("CIBarcodeGenerator", parameters: ["inputBarcodeDescriptor": .barcodeDescriptor(descriptor)])
    }

    /// The image's pixels, top row first, `true` for black; asserts opaque black and white and the
    /// one-module white border.
    func modules(_ image: Image, file: StaticString = #filePath, line: UInt = #line) throws -> [[Bool]] {
        let buffer = try Context().render(image, format: .rgba8)
        let rows = (0..<buffer.height).map { row in
            (0..<buffer.width).map { x -> Bool in
                let p = row * buffer.rowBytes + x * 4
                XCTAssertEqual(buffer.bytes[p + 3], 255, file: file, line: line)
                XCTAssertTrue(buffer.bytes[p] == 0 || buffer.bytes[p] == 255, file: file, line: line)
                return buffer.bytes[p] == 0
            }
        }
        XCTAssertFalse(rows[0].contains(true) || rows[rows.count - 1].contains(true) || rows.contains { $0[0] || $0[$0.count - 1] },
                       "the border is white", file: file, line: line)
        return rows
    }

    /// What `ZXingReader` reads as `format` in `modules` drawn 4 pixels per module inside a white
    /// quiet zone of 10 modules; nil when it reads nothing (``BarcodeDecoding``).
    func zxingDecode(_ modules: [[Bool]], format: String) throws -> String? {
        try BarcodeDecoding.zxing(BarcodeDecoding.picture(modules, scale: 4, quiet: 40), format: format)
    }

    /// The QR code's format information from its first copy (ISO/IEC 18004 7.9): the 15 bits
    /// around the top-left finder, unmasked with 0x5412; the level (L = 1, M = 0, Q = 3, H = 2) and
    /// the mask pattern.
    func qrFormat(_ m: [[Bool]]) -> (level: String, mask: Int) {
        func dark(_ row: Int, _ column: Int) -> Int { m[row + 1][column + 1] ? 1 : 0 }  // past the border
        var bits = 0
        for i in 0...5 { bits |= dark(i, 8) << i }
        bits |= dark(7, 8) << 6 | dark(8, 8) << 7 | dark(8, 7) << 8
        for i in 9..<15 { bits |= dark(8, 14 - i) << i }
        let data = (bits ^ 0x5412) >> 10
        return (["M", "L", "H", "Q"][data >> 3], data & 7)
    }

    func testQRCodeHasTheVersionMaskAndLevelAsked() throws {
        let message = "CIQRCodeDescriptor ✓"
        for (version, mask, level) in [(3, 5, "Q"), (2, 0, "L"), (5, 7, "H"), (4, 2, "M")] {
            let m = try modules(try generate(.qrCode(message: message, symbolVersion: version, maskPattern: mask, errorCorrectionLevel: level)))
            XCTAssertEqual(m.count, 17 + 4 * version + 2, "version \(version)")
            let format = qrFormat(m)
            XCTAssertEqual(format.level, level)
            XCTAssertEqual(format.mask, mask)
            XCTAssertEqual(try zxingDecode(m, format: "QRCode"), message)
        }
    }

    func testAztecPDF417AndDataMatrixDecodeWithTheirSizes() throws {
        let message = "descriptor: 0123456789 ÄÖÜ"
        // Compact Aztec, 3 layers: 15 + 4·2 = 23 modules.
        let aztec = try modules(try generate(.aztec(message: message, isCompact: true, layerCount: 3)))
        XCTAssertEqual(aztec.count, 23 + 2)
        XCTAssertEqual(try zxingDecode(aztec, format: "Aztec"), message)
        // Full range, 5 layers: 37 modules (ISO/IEC 24778 table 1; the reference grid's lines included).
        let full = try modules(try generate(.aztec(message: message, isCompact: false, layerCount: 5)))
        XCTAssertEqual(full.count, 37 + 2)
        XCTAssertEqual(try zxingDecode(full, format: "Aztec"), message)
        // PDF417 of 8 rows (3 pixels each) and 4 data columns: 17·(4 + 4) + 1 modules across.
        let pdf = try modules(try generate(.pdf417(message: message, isCompact: false, rowCount: 8, columnCount: 4)))
        XCTAssertEqual(pdf.count, 8 * 3 + 2)
        XCTAssertEqual(pdf[0].count, 17 * 8 + 1 + 2)
        XCTAssertEqual(try zxingDecode(pdf, format: "PDF417"), message)
        for (rows, columns) in [(22, 22), (16, 48), (32, 32)] {
            let dm = try modules(try generate(.dataMatrix(message: message, rowCount: rows, columnCount: columns)))
            XCTAssertEqual(dm.count, rows + 2)
            XCTAssertEqual(dm[0].count, columns + 2)
            // The finder: a solid left column and bottom row.
            XCTAssertTrue((1...rows).allSatisfy { dm[$0][1] } && (1...columns).allSatisfy { dm[rows][$0] })
            XCTAssertEqual(try zxingDecode(dm, format: "DataMatrix"), message, "\(rows) × \(columns)")
        }
    }

    func testCoreImagesKeysDefaultsAndRanges() throws {
        try assertAttributes(["CIBarcodeGenerator"])
    }

    func testImpossibleSizesNameTheField() throws {
        let cases: [(BarcodeDescriptor, String)] = [
            (.qrCode(message: "x", symbolVersion: 41, maskPattern: nil, errorCorrectionLevel: "M"), "symbolVersion must be 1 to 40, got 41"),
            (.qrCode(message: "x", symbolVersion: nil, maskPattern: 8, errorCorrectionLevel: "M"), "maskPattern must be 0 to 7, got 8"),
            (.qrCode(message: String(repeating: "x", count: 100), symbolVersion: 1, maskPattern: nil, errorCorrectionLevel: "M"), "libzint"),
            (.aztec(message: "x", isCompact: true, layerCount: 5), "layerCount must be 1 to 4, got 5"),
            (.pdf417(message: "x", isCompact: false, rowCount: 2, columnCount: nil), "rowCount must be 3 to 90, got 2"),
            (.dataMatrix(message: "x", rowCount: 15, columnCount: 15), "15 × 15 is not an ECC 200 Data Matrix size"),
            (.dataMatrix(message: "x", rowCount: 16, columnCount: nil), "needs both rowCount and columnCount"),
            (.dataMatrix(message: "", rowCount: nil, columnCount: nil), "the message is empty"),
        ]
        for (descriptor, expected) in cases {
            XCTAssertThrowsError(try generate(descriptor)) {
                XCTAssertTrue("\($0)".contains("inputBarcodeDescriptor") && "\($0)".contains(expected), "\($0)")
            }
        }
    }
}
