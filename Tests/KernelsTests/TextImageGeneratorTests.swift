import Foundation
import GraphEngine
@testable import Kernels
import XCTest

/// CITextImageGenerator against FreeType's own rendering as Pillow draws it (`ImageFont.getmask`,
/// FreeType with HarfBuzz through libraqm), and its layout and errors.
final class TextImageGeneratorTests: XCTestCase {
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    func text(_ string: String, font: String = dejaVu, size: Double = 37, padding: Double = 0) throws -> Image {
        try Image.filter("CITextImageGenerator", parameters: [
            "inputText": .string(string), "inputFontName": .string(font), "inputFontSize": .number(size), "inputPadding": .number(padding)])
    }

    /// The alpha plane, top row first, and whether every colour is black (premultiplied 0).
    func alpha(_ image: Image) throws -> (rows: [[UInt8]], black: Bool) {
        let buffer = try Context().render(image, rect: image.extent, format: .rgba8)
        var black = true
        let rows = (0..<buffer.height).map { row in
            (0..<buffer.width).map { x -> UInt8 in
                let p = buffer.pixel(x: x, row: row)
                if p[0] != 0 || p[1] != 0 || p[2] != 0 { black = false }
                return UInt8((p[3] * 255).rounded())
            }
        }
        return (rows, black)
    }

    /// The rows and columns that hold any coverage.
    func inked(_ rows: [[UInt8]]) -> [[UInt8]] {
        let ys = rows.indices.filter { rows[$0].contains { $0 > 0 } }
        let xs = rows[0].indices.filter { x in rows.contains { $0[x] > 0 } }
        guard let y0 = ys.first, let y1 = ys.last, let x0 = xs.first, let x1 = xs.last else { return [] }
        return rows[y0...y1].map { Array($0[x0...x1]) }
    }

    func testGlyphsAreFreeTypesAsPillowDrawsThem() throws {
        guard FileManager.default.fileExists(atPath: Self.dejaVu) else { throw XCTSkip("DejaVu Sans is not installed (fonts-dejavu-core)") }
        let script = """
            import sys
            from PIL import ImageFont
            mask = ImageFont.truetype(sys.argv[1], 37).getmask(sys.argv[2])
            width, height = mask.size
            rows = [bytes(mask.getpixel((x, y)) for x in range(width)).hex() for y in range(height)]
            print("\\n".join(rows))
            """
        for string in ["A", "Wg@ fi", "AVAT"] {
            guard let output = Self.run("python3", ["-c", script, Self.dejaVu, string]) else {
                throw XCTSkip("python3 with Pillow is not installed")
            }
            let expected = inked(output.split(separator: "\n").map { line in
                stride(from: 0, to: line.count, by: 2).map { i -> UInt8 in
                    let start = line.index(line.startIndex, offsetBy: i)
                    return UInt8(line[start..<line.index(start, offsetBy: 2)], radix: 16) ?? 0
                }
            })
            let drawn = try alpha(try text(string))
            XCTAssertTrue(drawn.black, string)
            let ink = inked(drawn.rows)
            XCTAssertEqual(ink.count, expected.count, string)
            XCTAssertEqual(ink.first?.count, expected.first?.count, string)
            XCTAssertEqual(ink, expected, "\(string): coverage differs from FreeType's via Pillow")
        }
    }

    func testPaddingAndLinesLayOutAroundTheGlyphs() throws {
        guard FileManager.default.fileExists(atPath: Self.dejaVu) else { throw XCTSkip("DejaVu Sans is not installed (fonts-dejavu-core)") }
        let plain = try alpha(try text("Hg")).rows, padded = try alpha(try text("Hg", padding: 7)).rows
        XCTAssertEqual(padded.count, plain.count + 14)
        XCTAssertEqual(padded[0].count, plain[0].count + 14)
        XCTAssertEqual(padded[7..<(7 + plain.count)].map { Array($0[7..<(7 + plain[0].count)]) }, plain)
        XCTAssertTrue(padded.prefix(7).allSatisfy { $0.allSatisfy { $0 == 0 } })
        // A second line starts one line height lower and leaves the first as drawn alone.
        let two = try alpha(try text("Hg\nHg")).rows
        let lineHeight = two.count - plain.count
        XCTAssertEqual(lineHeight, 43, "DejaVu Sans's line height at 37 px (FreeType size metrics: 1.164 em, rounded)")
        XCTAssertEqual(Array(two.prefix(plain.count)), plain)
        XCTAssertEqual(Array(two.suffix(plain.count)), plain)
        // Black text, alpha = coverage: the image is the premultiplied colour (0, 0, 0, a).
        XCTAssertEqual(try text("Hg").extent, Rect(x: 0, y: 0, width: Double(plain[0].count), height: Double(plain.count)))
    }

    func testBadInputsNameTheKey() throws {
        func key(of body: () throws -> Image) -> String? {
            do { _ = try body(); return nil } catch GraphError.invalidParameter(_, let key, _) { return key } catch { return "\(error)" }
        }
        XCTAssertEqual(key { try self.text("") }, "inputText")
        XCTAssertEqual(key { try self.text("a", font: "/nonexistent/font.ttf") }, "inputFontName")
        XCTAssertEqual(key { try self.text("a", size: 0) }, "inputFontSize")
        XCTAssertEqual(key { try self.text("a", padding: 201) }, "inputPadding")
        XCTAssertEqual(key { try Image.filter("CITextImageGenerator", parameters: [:]) }, "inputText")
        // 20,000 wide glyphs at 4,000 px: tens of gigapixels, refused before any allocation.
        XCTAssertEqual(key { try self.text(String(repeating: "W", count: 20_000), size: 4000) }, "inputText")
    }

    /// The standard output of `tool arguments`, or nil when it cannot run or fails.
    static func run(_ tool: String, _ arguments: [String]) -> String? {
        let process = Process(), pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }
}
