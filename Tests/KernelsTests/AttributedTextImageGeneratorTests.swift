import Foundation
import GraphEngine
@testable import Kernels
import XCTest

/// CIAttributedTextImageGenerator (``AttributedTextImageGenerator``): one black run is exactly
/// CITextImageGenerator's drawing, runs keep their colours (premultiplied 8-bit `over`), lines are
/// as tall as their largest font, and bad runs are errors naming the run.
final class AttributedTextImageGeneratorTests: XCTestCase {
    static let sans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let mono = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"

    override func setUpWithError() throws {
        guard FileManager.default.fileExists(atPath: Self.sans), FileManager.default.fileExists(atPath: Self.mono) else {
            throw XCTSkip("DejaVu Sans is not installed (fonts-dejavu-core)")
        }
    }

    func attributed(_ runs: [AttributedText.Run], scale: Double = 1, padding: Double = 0) throws -> Image {
        try Image.filter("CIAttributedTextImageGenerator", parameters: [
            "inputText": .attributedText(AttributedText(runs)), "inputScaleFactor": .number(scale), "inputPadding": .number(padding)])
    }

    /// The image's 8-bit premultiplied RGBA as stored (no colour management), top row first.
    func bytes(_ image: Image) throws -> [[SIMD4<Int>]] {
        try renderExactly(image, image.extent).reversed().map { row in
            row.map { p in SIMD4(Int((p[0] * 255).rounded()), Int((p[1] * 255).rounded()), Int((p[2] * 255).rounded()), Int((p[3] * 255).rounded())) }
        }
    }

    func testOneBlackRunIsWhatTheTextGeneratorDraws() throws {
        for (text, font, size, padding) in [("Wg@ fi\nAVAT", Self.sans, 37.0, 3.0), ("x", Self.mono, 12, 0)] {
            let plain = try Image.filter("CITextImageGenerator", parameters: [
                "inputText": .string(text), "inputFontName": .string(font), "inputFontSize": .number(size), "inputPadding": .number(padding)])
            let styled = try attributed([AttributedText.Run(text, fontName: font, fontSize: size)], padding: padding)
            XCTAssertEqual(styled.extent, plain.extent, text)
            XCTAssertEqual(try bytes(styled), try bytes(plain), text)
        }
        // A plain string is one run in NSAttributedString's defaults: Helvetica (or fontconfig's substitute), 12, black.
        let plain = try Image.filter("CITextImageGenerator", parameters: [
            "inputText": .string("Hello"), "inputFontName": .string("Helvetica"), "inputFontSize": .number(12)])
        let fromString = try Image.filter("CIAttributedTextImageGenerator", parameters: ["inputText": .string("Hello")])
        XCTAssertEqual(try bytes(fromString), try bytes(plain))
    }

    /// Two runs in a monospaced font (no kerning across the seam): the alpha is the one-run text's
    /// coverage g, red where the first run draws (R = A = g) and half-transparent blue where the
    /// second does (B = A = round(128·g/255)), nowhere both.
    func testRunsKeepTheirColours() throws {
        let size = 37.0
        let coverage = try bytes(try Image.filter("CITextImageGenerator", parameters: [
            "inputText": .string("ABCD"), "inputFontName": .string(Self.mono), "inputFontSize": .number(size)]))
        let drawn = try bytes(try attributed([AttributedText.Run("AB", fontName: Self.mono, fontSize: size, color: [1, 0, 0, 1]),
                                              AttributedText.Run("CD", fontName: Self.mono, fontSize: size, color: [0, 0, 1, 0.5])]))
        XCTAssertEqual(drawn.count, coverage.count)
        var red = 0, blue = 0, lastRed = -1, firstBlue = Int.max
        for (y, row) in drawn.enumerated() {
            for (x, p) in row.enumerated() {
                let g = coverage[y][x][3]
                XCTAssertEqual(p[1], 0, "green at \(x), \(y)")
                XCTAssertFalse(p[0] > 0 && p[2] > 0, "red and blue at \(x), \(y)")
                if p[0] > 0 {
                    XCTAssertEqual(p, SIMD4(g, 0, 0, g), "red at \(x), \(y)")
                    red += 1
                    lastRed = max(lastRed, x)
                } else if g > 0 {
                    let b = (128 * g + 127) / 255
                    XCTAssertEqual(p, SIMD4(0, 0, b, b), "blue at \(x), \(y)")
                    if b > 0 { blue += 1; firstBlue = min(firstBlue, x) }
                } else {
                    XCTAssertEqual(p, .zero, "empty at \(x), \(y)")
                }
            }
        }
        XCTAssertGreaterThan(red, 100)
        XCTAssertGreaterThan(blue, 100)
        XCTAssertLessThan(lastRed, firstBlue, "the red run is left of the blue one")
    }

    /// A line is as tall as its largest font: a 40 px first line over a 10 px one is the 40 px
    /// font's ascender plus the 10 px font's line height and descender (each in whole pixels as FreeType
    /// scales them: ascender and descender up, the line height to nearest).
    func testLinesAreAsTallAsTheirLargestFont() throws {
        let metrics = { (size: Double) -> (ascender: Int, descender: Int, height: Int) in
            // DejaVu Sans: ascender 1901, descender −483, line gap 0 of 2048 units per em (its hhea table).
            let scale = size / 2048
            return (Int((1901 * scale).rounded(.up)), Int((483 * scale).rounded(.up)), Int(((1901 + 483) * scale).rounded()))
        }
        let big = try attributed([AttributedText.Run("Big\n", fontName: Self.sans, fontSize: 40),
                                  AttributedText.Run("small", fontName: Self.sans, fontSize: 10)])
        let one = try Image.filter("CITextImageGenerator", parameters: [
            "inputText": .string("Big"), "inputFontName": .string(Self.sans), "inputFontSize": .number(40)])
        let small = metrics(10)
        XCTAssertEqual(Int(big.extent.height), Int(one.extent.height) - metrics(40).descender + small.height + small.descender)
        XCTAssertEqual(big.extent.width, one.extent.width)
    }

    func testBadRunsAreErrorsNamingTheRun() throws {
        let cases: [([AttributedText.Run], String)] = [
            ([AttributedText.Run("a", fontName: Self.sans), AttributedText.Run("b", fontName: Self.sans, fontSize: 0.5)],
             "run 1: its size × inputScaleFactor is 0.5 px"),
            ([AttributedText.Run("a", fontName: Self.sans, color: [1, 0, 0])], "run 0: its colour must be 4 finite numbers"),
            ([AttributedText.Run("", fontName: Self.sans)], "the text is empty"),
            ([], "the text is empty"),
        ]
        for (runs, expected) in cases {
            XCTAssertThrowsError(try attributed(runs)) {
                XCTAssertTrue("\($0)".contains("inputText") && "\($0)".contains(expected), "\($0)")
            }
        }
    }

    func testCoreImagesKeysDefaultsAndRanges() throws {
        try assertAttributes(["CIAttributedTextImageGenerator"])
    }
}
