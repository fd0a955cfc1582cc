import Foundation
import GraphEngine
import GraphRecipes
import XCTest

/// A list-of-vectors input (CIMeshGenerator's `inputMesh`) in recipes: an array of arrays, errors
/// naming the element.
final class VectorListRecipeTests: XCTestCase {
    private func recipe(_ mesh: String) -> String {
        #"{"version": 1, "images": {"mesh": {"generator": "CIMeshGenerator", "inputs": {"inputMesh": \#(mesh), "inputWidth": 2}}}, "#
            + #""outputs": [{"image": "mesh", "file": "mesh.png"}]}"#
    }

    func testArrayOfSegmentsDrawsOverTheirBounds() throws {
        let loaded = try LoadedRecipe(text: recipe("[[0, 0, 10, 0], [10, 0, 10, 20]]"), baseDirectory: NSTemporaryDirectory())
        XCTAssertEqual(loaded.images["mesh"]?.extent, Rect(x: -2, y: -2, width: 14, height: 24))
    }

    func testBadListsNameTheElement() throws {
        let path = "images.mesh.inputs.inputMesh"
        let cases: [(String, String)] = [
            ("[0, 0, 10, 0]", "\(path)[0]: expected a vector of 4 numbers, got 0"),
            ("[[0, 0, 10, 0], [1, 2, 3]]", "\(path)[1]: expected a vector of 4 numbers, got [1,2,3]"),
            (#"[[0, 0, 10, 0], [1, 2, "3", 4]]"#, #"\#(path)[1][2]: expected a number, got "3""#),
            (#""0 0 10 0""#, #"\#(path): expected a list of vectors [[…], …], got "0 0 10 0""#),
        ]
        for (mesh, expected) in cases {
            XCTAssertThrowsError(try LoadedRecipe(text: recipe(mesh), baseDirectory: NSTemporaryDirectory())) {
                XCTAssertTrue("\($0)".contains(expected), "\(mesh): \($0)")
            }
        }
    }
}
