import Foundation
import GraphEngine
import GraphRecipes
import Kernels
import XCTest

/// Styled text (CIAttributedTextImageGenerator's `inputText`) in recipes: a string or runs with
/// their font, size and colour; errors naming the run and field; the JSON form round trips.
final class AttributedTextRecipeTests: XCTestCase {
    static let sans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    private func recipe(_ text: String) -> String {
        #"{"version": 1, "images": {"text": {"generator": "CIAttributedTextImageGenerator", "inputs": {"inputText": \#(text)}}}, "#
            + #""outputs": [{"image": "text", "file": "text.png"}]}"#
    }

    func testRunsAndStringsDraw() throws {
        guard FileManager.default.fileExists(atPath: Self.sans) else { throw XCTSkip("DejaVu Sans is not installed (fonts-dejavu-core)") }
        let runs = #"[{"text": "Big ", "font": "\#(Self.sans)", "size": 40, "color": [1, 0, 0, 1]}, {"text": "small", "font": "\#(Self.sans)", "size": 10}]"#
        let styled = try LoadedRecipe(text: recipe(runs), baseDirectory: NSTemporaryDirectory())
        let big = try Image.filter("CITextImageGenerator", parameters: [
            "inputText": .string("Big "), "inputFontName": .string(Self.sans), "inputFontSize": .number(40)])
        XCTAssertEqual(styled.images["text"]?.extent.height, big.extent.height, "the line is as tall as its 40 px run")
        XCTAssertGreaterThan(styled.images["text"]?.extent.width ?? 0, big.extent.width)
        XCTAssertNoThrow(try LoadedRecipe(text: recipe(#""plain text""#), baseDirectory: NSTemporaryDirectory()))
    }

    func testBadRunsNameTheRunAndField() throws {
        let path = "images.text.inputs.inputText"
        let cases: [(String, String)] = [
            (#"[{"text": "a"}, {"text": "b", "size": -1}]"#, "\(path)[1].size: expected a size in points above 0, got -1"),
            (#"[{"text": "a", "colour": [1, 0, 0]}]"#, #"\#(path)[0].colour: unknown field of a run; it takes "text", "font", "size" and "color""#),
            (#"[{"font": "DejaVu Sans"}]"#, "\(path)[0].text: expected the run's characters as a string, got nothing"),
            (#"[{"text": "a", "color": {"color": [1, 0, 0], "colorSpace": "displayP3"}}]"#, "\(path)[0].color: a run's colour is sRGB [r, g, b, a]"),
            ("12", "\(path): expected a string or runs"),
            ("[]", "\(path): expected a string or runs"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try LoadedRecipe(text: recipe(text), baseDirectory: NSTemporaryDirectory())) {
                XCTAssertTrue("\($0)".contains(expected), "\(text): \($0)")
            }
        }
    }

    func testTheJSONFormRoundTrips() throws {
        let text = AttributedText([AttributedText.Run("a\nb", fontName: "DejaVu Sans", fontSize: 20, color: [0.25, 0.5, 1, 0.75]),
                                   AttributedText.Run("c")])
        XCTAssertEqual(try AttributedText(JSON(text), "inputText"), text)
    }
}
