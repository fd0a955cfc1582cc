import Foundation
import GraphEngine
import GraphRecipes
import Kernels
import XCTest

/// CIBarcodeGenerator's `inputBarcodeDescriptor` in recipes: the JSON object form, errors naming
/// the field, and the value written back as the same JSON.
final class BarcodeDescriptorRecipeTests: XCTestCase {
    private func recipe(_ descriptor: String) -> String {
        #"{"version": 1, "images": {"code": {"generator": "CIBarcodeGenerator", "inputs": {"inputBarcodeDescriptor": \#(descriptor)}}}, "#
            + #""outputs": [{"image": "code", "file": "code.png"}]}"#
    }

    func testDescriptorObjectDrawsTheSymbolItAsks() throws {
        let loaded = try LoadedRecipe(text: recipe(#"{"symbology": "QR", "message": "recipe", "symbolVersion": 4, "maskPattern": 1, "errorCorrectionLevel": "H"}"#),
                                      baseDirectory: NSTemporaryDirectory())
        XCTAssertEqual(loaded.images["code"]?.extent, Rect(x: 0, y: 0, width: 33 + 2, height: 33 + 2))
        let matrix = try LoadedRecipe(text: recipe(#"{"symbology": "DataMatrix", "message": "recipe", "rowCount": 12, "columnCount": 36, "eccVersion": 200}"#),
                                      baseDirectory: NSTemporaryDirectory())
        XCTAssertEqual(matrix.images["code"]?.extent, Rect(x: 0, y: 0, width: 36 + 2, height: 12 + 2))
    }

    func testBadDescriptorsNameTheField() throws {
        let path = "images.code.inputs.inputBarcodeDescriptor"
        let cases: [(String, String)] = [
            (#""QR""#, "\(path): expected a barcode descriptor"),
            (#"{"symbology": "EAN13", "message": "x"}"#, #"\#(path).symbology: expected "QR", "Aztec", "PDF417" or "DataMatrix", got "EAN13""#),
            (#"{"symbology": "QR"}"#, "\(path).message: expected the message as a string, got nothing"),
            (#"{"symbology": "QR", "message": "x", "errorCorrectedPayload": "AAEC"}"#, "\(path).errorCorrectedPayload: libzint encodes"),
            (#"{"symbology": "Aztec", "message": "x", "dataCodewordCount": 5}"#, "\(path).dataCodewordCount: libzint counts"),
            (#"{"symbology": "Aztec", "message": "x", "rowCount": 5}"#,
             #"\#(path).rowCount: unknown field of the Aztec descriptor; it takes "message", "isCompact", "layerCount""#),
            (#"{"symbology": "QR", "message": "x", "symbolVersion": 2.5}"#, "\(path).symbolVersion: expected a whole number, got 2.5"),
            (#"{"symbology": "QR", "message": "x", "errorCorrectionLevel": "X"}"#, #"\#(path).errorCorrectionLevel: expected "L", "M", "Q" or "H""#),
            (#"{"symbology": "PDF417", "message": "x", "isCompact": 1}"#, "\(path).isCompact: expected true or false, got 1"),
            (#"{"symbology": "DataMatrix", "message": "x", "eccVersion": 140}"#, "\(path).eccVersion: only ECC 200"),
            (#"{"symbology": "QR", "message": "x", "symbolVersion": 50}"#, "\(path): symbolVersion must be 1 to 40, got 50"),
        ]
        for (descriptor, expected) in cases {
            XCTAssertThrowsError(try LoadedRecipe(text: recipe(descriptor), baseDirectory: NSTemporaryDirectory())) {
                XCTAssertTrue("\($0)".contains(expected), "\(descriptor): \($0)")
            }
        }
    }

    func testJSONFormRoundTrips() throws {
        let descriptors: [BarcodeDescriptor] = [
            .qrCode(message: "q", symbolVersion: 7, maskPattern: 3, errorCorrectionLevel: "Q"),
            .qrCode(message: "q", symbolVersion: nil, maskPattern: nil, errorCorrectionLevel: "M"),
            .aztec(message: "a", isCompact: false, layerCount: 9),
            .aztec(message: "a", isCompact: nil, layerCount: nil),
            .pdf417(message: "p", isCompact: true, rowCount: 10, columnCount: 2),
            .dataMatrix(message: "d", rowCount: 8, columnCount: 18),
        ]
        for descriptor in descriptors {
            XCTAssertEqual(try BarcodeDescriptor(JSON(descriptor), "d"), descriptor)
        }
        XCTAssertEqual(JSON(BarcodeDescriptor.aztec(message: "a", isCompact: true, layerCount: 2)).compact,
                       #"{"symbology":"Aztec","message":"a","isCompact":true,"layerCount":2}"#)
    }
}
