import Foundation
import GraphCodecs
import GraphEngine
import XCTest
@testable import GraphCLI

/// `graph contact-sheet`: the grid's size, the original's picture against the photo reduced by
/// a box filter, a label's pixels against the font, and the errors (no file written).
final class ContactSheetTests: XCTestCase {
    /// The iPhone X portrait with a matte (3024×4032, upright).
    func mattePhoto() throws -> String { try BatchFixture.sharedTestData("depth/iphoneX_depth_matte_shu223.jpg") }

    /// 516 pixels wide with three pictures: two columns (⌈√(3/0.75)⌉), gap 4, pictures (516 − 3·4)/2
    /// = 252 wide (the photo reduced exactly 12×) and 4032/12 = 336 high, labels at 1 font pixel
    /// in bands of 10 rows: 2·(336 + 10) + 3·4 = 704 rows.
    func testSheetSizeOriginalAndLabelPixels() throws {
        let photo = try mattePhoto()
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sheetPath = folder.appendingPathComponent("sheet.png").path
        let result = Graph.runInProcess(["contact-sheet", photo, "-o", sheetPath, "--width", "516",
                                         "--effects", "background-desaturate,portrait-blur-matte"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("516x704, 3 pictures (original, background-desaturate, portrait-blur-matte)"), result.out)
        let decoded = try ImageFile.decode(try ImageFile.read(path: sheetPath))
        XCTAssertEqual([decoded.width, decoded.height], [516, 704])
        let channels = decoded.channels
        func pixel(_ x: Int, _ row: Int) -> [Int] {
            (0..<3).map { Int(decoded.bytes[(row * decoded.width + x) * channels + $0]) }
        }

        // The original's picture (columns 4..<256, rows 4..<340) against the photo averaged over
        // 12×12 blocks in linear light, encoded to sRGB.
        var options = ContextOptions()
        options.workingFormat = .rgbaf
        let full = try Context(options: options).render(try Image(contentsOf: photo), format: .rgbaf, colorSpace: .space(.linearSRGB))
        XCTAssertEqual([full.width, full.height], [3024, 4032])
        let linear = full.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        func encode(_ v: Double) -> Double {
            let c = min(max(v, 0), 1)
            return 255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055)
        }
        var squaredError = 0.0, samples = 0
        for row in 0..<336 {
            for column in 0..<252 {
                let got = pixel(4 + column, 4 + row)
                for channel in 0..<3 {
                    var sum = 0.0
                    for y in row * 12..<row * 12 + 12 {
                        for x in column * 12..<column * 12 + 12 { sum += Double(linear[(y * 3024 + x) * 4 + channel]) }
                    }
                    let difference = encode(sum / 144) - Double(got[channel])
                    squaredError += difference * difference
                    samples += 1
                }
            }
        }
        let psnr = 10 * log10(255 * 255 / (squaredError / Double(samples)))
        XCTAssertGreaterThan(psnr, 35, "the original's picture is the photo reduced 12×")

        // "ORIGINAL" at 1 font pixel: 8·6 − 1 = 47 columns centred under the 252-wide picture
        // (from column 4 + (252 − 47)/2 = 106), its 7 rows from 1 row below the picture (row 341).
        let background = pixel(1, 1)
        XCTAssertEqual(background.map { abs($0 - 31) <= 1 }, [true, true, true], "sRGB grey 0.12 around the cells")
        var ink = 0
        for (index, character) in "ORIGINAL".enumerated() {
            let rows = BitmapFont.glyph(character)
            for row in 0..<7 {
                for column in 0..<6 {
                    let on = column < 5 && rows[row] & (0x10 >> UInt8(column)) != 0
                    let x = 106 + index * 6 + column
                    guard x < 106 + 47 else { continue }
                    XCTAssertEqual(pixel(x, 341 + row), on ? [255, 255, 255] : background, "\(character) row \(row) column \(column)")
                    if on { ink += 1 }
                }
            }
        }
        XCTAssertGreaterThan(ink, 60)
        // Nothing drawn just above and below the label.
        for x in 106..<153 {
            XCTAssertEqual(pixel(x, 340 + 8), background)
            XCTAssertEqual(pixel(x, 341 + 7), background)
        }
    }

    /// The font's shapes: "I" is a bar with serifs, "-" a short dash, unknown characters a "?".
    func testFontGlyphs() throws {
        XCTAssertEqual(BitmapFont.glyph("I"), [0b01110, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110])
        XCTAssertEqual(BitmapFont.glyph("i"), BitmapFont.glyph("I"))
        XCTAssertEqual(BitmapFont.glyph("-"), [0, 0, 0, 0b01110, 0, 0, 0])
        XCTAssertEqual(BitmapFont.glyph("ß"), BitmapFont.glyph("?"))
        let buffer = try BitmapFont.render("-I", scale: 2)
        XCTAssertEqual([buffer.width, buffer.height], [22, 14])
        // The dash's middle at rows 6 and 7, columns 2..<8; the I's top serif at columns 14..<20.
        XCTAssertEqual(buffer.pixel(x: 2, row: 6), [1, 1, 1, 1])
        XCTAssertEqual(buffer.pixel(x: 7, row: 7), [1, 1, 1, 1])
        XCTAssertEqual(buffer.pixel(x: 8, row: 6), [0, 0, 0, 0])
        XCTAssertEqual(buffer.pixel(x: 1, row: 6), [0, 0, 0, 0])
        XCTAssertEqual(buffer.pixel(x: 14, row: 0), [1, 1, 1, 1])
        XCTAssertEqual(buffer.pixel(x: 13, row: 0), [0, 0, 0, 0])
    }

    /// `-o new/dir/s.jpg` makes the missing folders, as `run` and `apply` do (issue 31, item 7).
    func testMissingOutputFoldersAreCreated() throws {
        let photo = try mattePhoto()
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sheetPath = folder.appendingPathComponent("new/dir/s.jpg").path
        let result = Graph.runInProcess(["contact-sheet", photo, "-o", sheetPath, "--width", "200", "--effects", "background-desaturate"])
        XCTAssertEqual(result.status, 0, result.err)
        let info = try ImageFile.info(path: sheetPath)
        XCTAssertEqual(info.format, .jpeg)
        XCTAssertEqual(info.width, 200)
    }

    func testErrorsWriteNoFile() throws {
        let photo = try mattePhoto()
        let noMatte = try BatchFixture.sharedTestData("depth/iphone13pro_pug_depth.heic")
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sheet = folder.appendingPathComponent("sheet.jpg").path

        let plain = Graph.runInProcess(["contact-sheet", folder.appendingPathComponent("in.png").path, "-o", sheet])
        XCTAssertEqual(plain.status, 2)
        XCTAssertTrue(plain.err.contains("PNG file has no depth or disparity map; it has no auxiliary images"), plain.err)

        let unknown = Graph.runInProcess(["contact-sheet", photo, "-o", sheet, "--effects", "portrait-blurr"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.err.contains(#"unknown effect "portrait-blurr" (did you mean "portrait-blur"?); the effects are background-blur,"#), unknown.err)

        let matte = Graph.runInProcess(["contact-sheet", noMatte, "-o", sheet, "--effects", "portrait-blur-matte"])
        XCTAssertEqual(matte.status, 2)
        XCTAssertTrue(matte.err.contains(#"effect "portrait-blur-matte" needs a portrait matte"#), matte.err)

        // An effect that fails while building: no sheet, no partial file, no work folder left.
        let recipes = folder.appendingPathComponent("recipes")
        try FileManager.default.createDirectory(at: recipes, withIntermediateDirectories: true)
        try #"""
        {"version": 1, "images": {"photo": {"file": "p.jpg"}, "disparity": {"file": "p.jpg", "auxiliary": "disparity"},
          "out": {"filter": "CIGaussianBlurr", "inputs": {"inputImage": {"image": "photo"}}}},
         "outputs": [{"image": "out", "file": "out.jpg"}]}
        """#.write(to: recipes.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        let before = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("graph-contact-sheet-") }
        let broken = Graph.runInProcess(["contact-sheet", photo, "-o", sheet, "--recipes", recipes.path, "--width", "400"])
        XCTAssertEqual(broken.status, 2)
        XCTAssertTrue(broken.err.contains(#"effect broken: images.out.filter: unknown filter "CIGaussianBlurr""#), broken.err)
        let after = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("graph-contact-sheet-") }
        XCTAssertEqual(Set(after), Set(before), "the work folder is removed")

        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["in.png", "recipes"])
    }
}
