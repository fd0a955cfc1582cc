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
