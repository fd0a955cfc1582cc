import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// CIRoundedQRCodeGenerator (``RoundedQRCodeGenerator``): decoded by zbar's `zbarimg`, every pixel
/// against a float64 coverage of the documented shapes, and its square form against
/// CIQRCodeGenerator's modules.
final class RoundedQRCodeGeneratorTests: XCTestCase {
    func generate(_ parameters: [String: FilterValue]) throws -> Image {
        try FilterRegistry.standard.apply("CIRoundedQRCodeGenerator", parameters: parameters)
    }

    /// What `zbarimg` reads in the image's red channel (rendered as 8-bit sRGB) with `quiet` white
    /// pixels added on every side; nil when it reads nothing (``BarcodeDecoding``).
    func zbarDecode(_ image: Image, quiet: Int = 40) throws -> String? {
        let buffer = try Context().render(image, format: .rgba8)
        let width = buffer.width + 2 * quiet
        var picture = BarcodeDecoding.Picture(width: width, height: buffer.height + 2 * quiet,
                                              pixels: [UInt8](repeating: 255, count: width * (buffer.height + 2 * quiet)))
        for row in 0..<buffer.height {
            for x in 0..<buffer.width { picture.pixels[(row + quiet) * width + x + quiet] = buffer.bytes[row * buffer.rowBytes + x * 4] }
        }
        return try BarcodeDecoding.zbar(picture)
    }

    func testDecodesWithDefaultsAndWithRoundedAlignmentAndCentreSpace() throws {
        let message = "https://example.com/rounded?q=✓"
        XCTAssertEqual(try zbarDecode(try generate(["inputMessage": .string(message)])), message)
        for level in ["Q", "H"] {
            let image = try generate(["inputMessage": .string(message), "inputCorrectionLevel": .string(level),
                                      "inputRoundedMarkers": .number(2), "inputScale": .number(9)])
            XCTAssertEqual(try zbarDecode(image), message, "level \(level)")
        }
    }

    /// The extent is the symbol and its one-module border at the rounded scale: 34 bytes at M are
    /// version 3 (29 modules), 31 × 12 pixels for inputScale 11.6.
    func testExtentIsTheBorderedSymbolAtTheRoundedScale() throws {
        let image = try generate(["inputMessage": .string(String(repeating: "x", count: 34)), "inputScale": .number(11.6)])
        XCTAssertEqual(image.extent, Rect(x: 0, y: 0, width: 31 * 12, height: 31 * 12))
    }

    /// Unrounded (markers 0, square data) at level L is CIQRCodeGenerator's image with each module
    /// `s × s` pixels: the shapes only change how modules are drawn, never which.
    func testSquareFormIsTheQRCodeScaled() throws {
        let message = "square modules 0123456789"
        let scale = 8
        let square = try Context().render(try generate(["inputMessage": .string(message), "inputCorrectionLevel": .string("L"),
                                                        "inputRoundedMarkers": .number(0), "inputRoundedData": .bool(false),
                                                        "inputScale": .number(Double(scale))]), format: .rgba8)
        let plain = try Context().render(try FilterRegistry.standard.apply("CIQRCodeGenerator", parameters: [
            "inputMessage": .string(message), "inputCorrectionLevel": .string("L")]), format: .rgba8)
        XCTAssertEqual(square.width, plain.width * scale)
        var mismatches = 0
        for row in 0..<square.height {
            for x in 0..<square.width {
                let expected = plain.bytes[(row / scale) * plain.rowBytes + (x / scale) * 4]
                if square.bytes[row * square.rowBytes + x * 4] != expected { mismatches += 1 }
            }
        }
        XCTAssertEqual(mismatches, 0)
    }

    /// Signed distance to a square of half side `h` with corners of radius `r`, in float64.
    func roundedSquare(_ qx: Double, _ qy: Double, _ h: Double, _ r: Double) -> Double {
        let ex = abs(qx) - (h - r), ey = abs(qy) - (h - r)
        return (max(ex, 0) * max(ex, 0) + max(ey, 0) * max(ey, 0)).squareRoot() + min(max(ex, ey), 0) - r
    }

    /// Every pixel of a version 3 code at Q (alignment centre at module 22, a centre space of 7
    /// modules from 11.25 % … 0.25 · 29 = 7.25) with rounded markers, data discs and 10 pixels per
    /// module, against `clamp(½ − 10·d, 0, 1)` of the shapes' distances in float64, cell by cell in
    /// the symbol's own top-left coordinates.
    func testEveryPixelIsTheFloat64CoverageOfTheShapes() throws {
        let message = "rounded QR, 24 bytes...."
        let scale = 10.0
        let symbol = try ZintSymbol.encode(Array(message.utf8), as: .qrCode, option1: 3)
        let n = symbol.width
        XCTAssertEqual(n, 29)
        let image = try generate(["inputMessage": .string(message), "inputCorrectionLevel": .string("Q"), "inputRoundedMarkers": .number(2),
                                  "inputColor0": .color([0, 0, 0, 0]), "inputColor1": .color([1, 1, 1, 1]), "inputScale": .number(scale)])
        let side = Double(n + 2)
        XCTAssertEqual(image.extent, Rect(x: 0, y: 0, width: side * scale, height: side * scale))
        func cover(_ d: Double) -> Double { min(max(0.5 - scale * d, 0), 1) }
        var fractional = 0
        try assertMatches(image, image.extent, tolerance: 2e-4) { x, y in
            // Module units from the symbol's top-left corner (the border is one module).
            let u = (Double(x) + 0.5) / scale - 1, v = side - (Double(y) + 0.5) / scale - 1
            let column = Int(u.rounded(.down)), row = Int(v.rounded(.down))
            var c = 0.0
            let finders = [(3, 3), (3, n - 4), (n - 4, 3)]
            if column < 0 || row < 0 || column >= n || row >= n {
                c = 0
            } else if (11..<18).contains(row), (11..<18).contains(column) {
                c = 1
            } else if let (fr, fc) = finders.first(where: { abs($0.0 - row) <= 3 && abs($0.1 - column) <= 3 }) {
                let qx = u - (Double(fc) + 0.5), qy = v - (Double(fr) + 0.5)
                c = cover(roundedSquare(qx, qy, 3.5, 2)) - cover(roundedSquare(qx, qy, 2.5, 1)) + cover(roundedSquare(qx, qy, 1.5, 1))
            } else if abs(row - 22) <= 2, abs(column - 22) <= 2 {
                let qx = u - 22.5, qy = v - 22.5
                c = cover(roundedSquare(qx, qy, 2.5, 1.5)) - cover(roundedSquare(qx, qy, 1.5, 0.5)) + cover((qx * qx + qy * qy).squareRoot() - 0.5)
            } else if symbol.isDark(row: row, column: column) {
                let qx = u - (Double(column) + 0.5), qy = v - (Double(row) + 0.5)
                c = cover((qx * qx + qy * qy).squareRoot() - 0.5)
            }
            if c > 0, c < 1 { fractional += 1 }
            return SIMD4(repeating: c)
        }
        XCTAssertGreaterThan(fractional, 1000, "the edges are anti-aliased")
    }

    func testCoreImagesKeysDefaultsAndRanges() throws {
        try assertAttributes(["CIRoundedQRCodeGenerator"])
    }

    func testBadInputsNameTheirKey() throws {
        XCTAssertThrowsError(try generate(["inputMessage": .string("x"), "inputCorrectionLevel": .string("X")])) {
            XCTAssertTrue("\($0)".contains("inputCorrectionLevel"), "\($0)")
        }
        XCTAssertThrowsError(try generate(["inputMessage": .string("x"), "inputScale": .number(4)])) {
            XCTAssertTrue("\($0)".contains("inputScale"), "\($0)")
        }
        XCTAssertThrowsError(try generate([:])) { XCTAssertTrue("\($0)".contains("inputMessage"), "\($0)") }
    }
}
