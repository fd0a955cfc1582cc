import Foundation
import GraphEngine
import XCTest
@testable import GraphCLI

/// Recipe syntax of colour and data inputs: colours sRGB unless given linear, `.cube` files and
/// inline numbers for cube data, and their errors.
final class ColorRecipeTests: XCTestCase {
    /// The raw RGBA8 bytes of a written PNG (read as data, no conversion).
    func pixels(_ folder: URL, _ name: String) throws -> [UInt8] {
        let image = try Image(dataContentsOf: folder.appendingPathComponent(name).path)
        var options = ContextOptions()
        options.workingColorSpace = nil
        return try Context(options: options).render(image, format: .rgba8).bytes
    }

    func run(_ recipe: String, in folder: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let result = Graph.runInProcess(["run", try writeRecipe(recipe, in: folder)])
        XCTAssertEqual(result.status, 0, result.err, file: file, line: line)
    }

    func encoded(_ linear: Double) -> UInt8 {
        let v = linear <= 0.0031308 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055
        return UInt8((v * 255).rounded())
    }

    func testColoursAreSRGBUnlessGivenLinear() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try run("""
            {"version": 1, "images": {
              "srgb": {"generator": "CIConstantColorGenerator", "inputs": {"inputColor": [0.5, 0.2, 0.9]}, "crop": [0, 0, 2, 2]},
              "linear": {"generator": "CIConstantColorGenerator",
                         "inputs": {"inputColor": {"color": [0.5, 0.2, 0.9, 1], "colorSpace": "linearSRGB"}}, "crop": [0, 0, 2, 2]}},
             "outputs": [{"image": "srgb", "file": "srgb.png"}, {"image": "linear", "file": "linear.png"}]}
            """, in: folder)
        let srgb = try pixels(folder, "srgb.png"), linear = try pixels(folder, "linear.png")
        for (byte, expected) in zip(srgb[0..<3], [127.5, 51, 229.5]) { XCTAssertEqual(Double(byte), expected, accuracy: 0.6) }
        for (byte, expected) in zip(linear[0..<3], [0.5, 0.2, 0.9].map(encoded)) { XCTAssertEqual(Int(byte), Int(expected), accuracy: 1) }
    }

    /// A cube mapping every colour to one linear colour, from a `.cube` file and inline.
    func testCubeDataFromACubeFileOrInlineNumbers() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let texel = [0.2, 0.4, 0.6]
        var cube = "# a flat look\nTITLE \"flat\"\nLUT_3D_SIZE 2\r\nDOMAIN_MIN 0 0 0\nDOMAIN_MAX 1 1 1\n"
        for _ in 0..<8 { cube += "0.2 0.4 0.6\n" }
        try cube.write(to: folder.appendingPathComponent("flat.cube"), atomically: true, encoding: .utf8)
        let inline = Array(repeating: texel + [1.0], count: 8).joined().map { "\($0)" }.joined(separator: ", ")
        try run("""
            {"version": 1, "images": {
              "photo": {"file": "in.png"},
              "fromFile": {"filter": "CIColorCube", "inputs": {"inputImage": {"image": "photo"}, "inputCubeData": {"file": "flat.cube"}}},
              "inline": {"filter": "CIColorCube", "inputs": {"inputImage": {"image": "photo"}, "inputCubeDimension": 2,
                                                               "inputCubeData": [\(inline)]}}},
             "outputs": [{"image": "fromFile", "file": "file.png"}, {"image": "inline", "file": "inline.png"}]}
            """, in: folder)
        let fromFile = try pixels(folder, "file.png")
        XCTAssertEqual(fromFile, try pixels(folder, "inline.png"))
        XCTAssertEqual(Array(fromFile[0..<4]), texel.map(encoded) + [255])
    }

    func testBadColourAndDataInputsNameTheirPath() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "LUT_3D_SIZE 2\n0 0 0\n1 0 x\n".write(to: folder.appendingPathComponent("bad.cube"), atomically: true, encoding: .utf8)
        let cases: [(String, String)] = [
            (#"{"generator": "CIConstantColorGenerator", "inputs": {"inputColor": {"color": [1, 0, 0], "colorSpace": "adobe"}}, "crop": [0, 0, 1, 1]}"#,
             #"images.out.inputs.inputColor.colorSpace: expected "sRGB", "displayP3", "linearSRGB", got "adobe""#),
            (#"{"generator": "CIConstantColorGenerator", "inputs": {"inputColor": {"colour": [1, 0, 0]}}, "crop": [0, 0, 1, 1]}"#,
             #"images.out.inputs.inputColor.colour: unknown key; a colour object has "color" and "colorSpace""#),
            (#"{"generator": "CIConstantColorGenerator", "inputs": {"inputColor": [1, 0]}, "crop": [0, 0, 1, 1]}"#,
             "images.out.inputs.inputColor: expected a colour [r, g, b, a] or [r, g, b] (sRGB)"),
            (#"{"filter": "CIColorCube", "inputs": {"inputImage": {"image": "src"}, "inputCubeData": {"file": "bad.cube"}}}"#,
             "images.out.inputs.inputCubeData.file: " + folder.appendingPathComponent("bad.cube").path + ": a table line needs 3 numbers [line 3]"),
            (#"{"filter": "CIColorCube", "inputs": {"inputImage": {"image": "src"}, "inputCubeData": {"file": "missing.cube"}}}"#,
             "images.out.inputs.inputCubeData.file: " + folder.appendingPathComponent("missing.cube").path + ": cannot read the cube file"),
            (#"{"filter": "CIColorCube", "inputs": {"inputImage": {"image": "src"}, "inputCubeData": {"file": "in.png"}}}"#,
             "images.out.inputs.inputCubeData.file: expected a .cube file (Adobe/Resolve 3D LUT)"),
            (#"{"filter": "CIColorCube", "inputs": {"inputImage": {"image": "src"}, "inputCubeData": "abc"}}"#,
             #"images.out.inputs.inputCubeData: expected data: an array of numbers or {"file": "look.cube"}, got "abc""#),
            (#"{"filter": "CIColorCube", "inputs": {"inputImage": {"image": "src"}, "inputCubeData": [0, 0, 0, 1]}}"#,
             "images.out.inputs.inputCubeData: a cube of dimension 2 needs 2³·4 = 32 floats, got 4"),
            (#"{"filter": "CIColorCubeWithColorSpace", "inputs": {"inputImage": {"image": "src"}, "inputColorSpace": "lab"}}"#,
             #"images.out.inputs.inputColorSpace: expected a colour space, "sRGB", "displayP3", "linearSRGB", got "lab""#),
        ]
        for (image, expected) in cases {
            let recipe = #"{"version": 1, "images": {"src": {"file": "in.png"}, "out": \#(image)}, "outputs": [{"image": "out", "file": "out.png"}]}"#
            let result = Graph.runInProcess(["run", try writeRecipe(recipe, in: folder)])
            XCTAssertEqual(result.status, 2, image)
            XCTAssertTrue(result.err.contains(expected), "expected \(expected)\ngot: \(result.err)")
            XCTAssertEqual(result.err.split(separator: "\n").count, 1, result.err)
            XCTAssertFalse(exists(folder, "out.png"))
        }
    }

    func testFiltersListsColourAndDataDefaults() throws {
        let result = Graph.runInProcess(["filters", "CIColorCubeWithColorSpace"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("inputCubeData  data  default [0,0,0,1,1,0,0,1,"), result.out)
        XCTAssertTrue(result.out.contains("inputColorSpace  colorSpace"), result.out)
        let monochrome = Graph.runInProcess(["filters", "CIColorMonochrome"])
        XCTAssertTrue(monochrome.out.contains("inputColor  color[4]  default [0.6,0.45,0.3,1]"), monochrome.out)
    }
}
