import Foundation
import GraphEngine
import GraphRecipes
import XCTest
@testable import GraphCLI

/// The library's API (`LoadedRecipe`) against `graph run`: the same recipe and override give the
/// same bytes.
final class LoadedRecipeTests: XCTestCase {
    private let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/recipes").path

    private func workspace() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("graph-recipes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    func testStringWithOverrideRendersAsGraphRun() throws {
        let folder = try workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = examples + "/exposure-gamma.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let recipe = try LoadedRecipe(text: text, baseDirectory: examples, overrides: ["brighter.inputEV=1.2"])
        XCTAssertEqual(recipe.outputs.map(\.imageName), ["clamped"])
        XCTAssertEqual(recipe.outputs[0].format, .png)
        XCTAssertEqual(recipe.outputs[0].file, examples + "/output/exposure-gamma.png")
        XCTAssertEqual(Set(recipe.images.keys), ["photo", "brighter", "gamma", "clamped"])
        XCTAssertEqual(recipe.warnings, [])
        let bytes = try recipe.encodedData(of: recipe.outputs[0], context: recipe.makeContext())

        let written = folder.appendingPathComponent("cli.png").path
        let result = Graph.runInProcess(["run", path, "--set", "brighter.inputEV=1.2", "-o", written])
        XCTAssertEqual(result.status, 0, result.err)
        let cli = try [UInt8](Data(contentsOf: URL(fileURLWithPath: written)))
        XCTAssertEqual(bytes.count, cli.count)
        XCTAssertTrue(bytes == cli, "the library's PNG differs from graph run's")
    }

    func testWriteOutputsWritesTheFiles() throws {
        let folder = try workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = """
        {"version": 1,
         "images": {"photo": {"file": "\(examples)/photo.png"},
                    "out": {"filter": "CIHueAdjust", "inputs": {"inputImage": {"image": "photo"}, "inputAngle": 0.5}}},
         "outputs": [{"image": "out", "file": "sub/out.jpg", "quality": 80}]}
        """
        let recipe = try LoadedRecipe(text: text, baseDirectory: folder.path)
        try recipe.writeOutputs()
        let written = try Image(contentsOf: folder.appendingPathComponent("sub/out.jpg").path)
        XCTAssertEqual(written.extent, recipe.outputs[0].image.extent)
    }

    /// `--set IMAGE.KEY.MEMBER=…` sets a member of an object value (here the source of an image input);
    /// a member of a value that is not an object is an error naming it, not ignored.
    func testSetReachesIntoAnObjectValueAndRefusesANonObject() throws {
        let text = #"""
        {"version": 1, "images": {
            "red": {"generator": "CIConstantColorGenerator", "inputs": {"inputColor": [1, 0, 0, 1]}, "crop": [0, 0, 2, 2]},
            "blue": {"generator": "CIConstantColorGenerator", "inputs": {"inputColor": [0, 0, 1, 1]}, "crop": [0, 0, 2, 2]},
            "out": {"filter": "CIHueAdjust", "inputs": {"inputImage": {"image": "red"}, "inputAngle": 0}}},
         "outputs": [{"image": "out", "file": "out.png"}]}
        """#
        var options = ContextOptions()
        options.workingColorSpace = nil
        func firstPixel(_ overrides: [String]) throws -> [Float] {
            let recipe = try LoadedRecipe(text: text, overrides: overrides)
            let buffer = try Context(options: options).render(recipe.outputs[0].image, rect: Rect(x: 0, y: 0, width: 1, height: 1), format: .rgbaf)
            return buffer.pixel(x: 0, row: 0)
        }
        XCTAssertEqual(try firstPixel([]), [1, 0, 0, 1])
        XCTAssertEqual(try firstPixel(["out.inputImage.image=blue"]), [0, 0, 1, 1])
        XCTAssertThrowsError(try LoadedRecipe(text: text, overrides: ["out.inputAngle.radians=1"])) { error in
            XCTAssertEqual(error as? RecipeError, RecipeError("--set out.inputAngle.radians=1",
                                                              "images.out.inputs.inputAngle is 0, not an object: it has no member \"radians\" to set"))
        }
        XCTAssertThrowsError(try LoadedRecipe(text: text, overrides: ["out.inputImage..image=blue"])) { error in
            XCTAssertEqual((error as? RecipeError)?.path, "--set out.inputImage..image=blue")
        }
    }

    func testErrorsNameTheJSONPath() {
        let text = #"{"version": 1, "images": {"g": {"generator": "CIConstantColorGenerator", "inputs": {"inputColor": "red"}, "crop": [0, 0, 4, 4]}}, "outputs": [{"image": "g", "file": "g.png"}]}"#
        XCTAssertThrowsError(try LoadedRecipe(text: text, overrides: ["nope.inputColor=1"])) { error in
            XCTAssertEqual((error as? RecipeError)?.path, "--set nope.inputColor=1")
        }
        XCTAssertThrowsError(try LoadedRecipe(text: "{", name: "broken.json")) { error in
            XCTAssertEqual((error as? RecipeError)?.path, "broken.json")
        }
        XCTAssertThrowsError(try LoadedRecipe(text: text)) { error in
            XCTAssertTrue((error as? RecipeError)?.path.hasPrefix("images.g.inputs.inputColor") == true, "\(error)")
        }
    }
}

/// A text input (CITextImageGenerator's) in a recipe: a JSON string, anything else refused by path.
final class TextInputRecipeTests: XCTestCase {
    private func recipe(_ text: String) -> String {
        #"{"version": 1, "images": {"caption": {"filter": "CITextImageGenerator", "inputs": {"inputText": \#(text), "inputFontSize": 20}}}, "#
            + #""outputs": [{"image": "caption", "file": "caption.png"}]}"#
    }

    func testAStringDrawsAndANumberIsRefused() throws {
        let loaded = try LoadedRecipe(text: recipe(#""Hi\nthere""#), baseDirectory: "/tmp")
        let caption = try XCTUnwrap(loaded.images["caption"])
        XCTAssertEqual(caption.extent.minX, 0)
        XCTAssertGreaterThan(caption.extent.height, 40, "two lines at 20 px")
        XCTAssertThrowsError(try LoadedRecipe(text: recipe("12"), baseDirectory: "/tmp")) { error in
            XCTAssertEqual("\(error)", "images.caption.inputs.inputText: expected a string, got 12")
        }
    }
}
