import Foundation
import GraphEngine
import GraphRecipes
import XCTest

/// CICameraCalibrationLensCorrection in a recipe: the calibration comes from the depth photo the
/// input image is read from (the photo or one of its maps), or from the file image an
/// `{"image": NAME}` names; a photo without one is an error naming the input and the file.
final class LensCorrectionRecipeTests: XCTestCase {
    private let depthPhotos = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/testdata/depth").path
    private let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/recipes").path

    private func photo(_ name: String) throws -> String {
        let path = depthPhotos + "/" + name
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("no real depth photo at \(path)") }
        return path
    }

    private func recipe(images: String) -> String {
        #"{"version": 1, "images": {\#(images)}, "outputs": [{"image": "fixed", "file": "fixed.png"}]}"#
    }

    private func error(_ text: String) -> RecipeError? {
        do {
            _ = try LoadedRecipe(text: text, baseDirectory: NSTemporaryDirectory())
            return nil
        } catch {
            return error as? RecipeError
        }
    }

    func testTheCalibrationComesFromThePhotoOrItsMap() throws {
        let iPhone = try photo("iphoneX_depth_shu223.jpg")
        let fromPhoto = try LoadedRecipe(text: recipe(images: #"""
            "photo": {"file": "\#(iPhone)"},
            "fixed": {"filter": "CICameraCalibrationLensCorrection", "inputs": {"inputImage": {"image": "photo"}}}
            """#), baseDirectory: NSTemporaryDirectory())
        XCTAssertEqual(fromPhoto.outputs[0].image.extent, Rect(x: 0, y: 0, width: 3024, height: 4032))
        let fromMap = try LoadedRecipe(text: recipe(images: #"""
            "disparity": {"file": "\#(iPhone)", "auxiliary": "disparity"},
            "fixed": {"filter": "CICameraCalibrationLensCorrection", "inputs": {"inputImage": {"image": "disparity"}, "inputUseInverseLookUpTable": true}}
            """#), baseDirectory: NSTemporaryDirectory())
        XCTAssertEqual(fromMap.outputs[0].image.extent, Rect(x: 0, y: 0, width: 576, height: 768))
        // A filtered map is not read from the photo: the calibration is named.
        let named = try LoadedRecipe(text: recipe(images: #"""
            "photo": {"file": "\#(iPhone)"},
            "disparity": {"file": "\#(iPhone)", "auxiliary": "disparity"},
            "inverted": {"filter": "CIColorInvert", "inputs": {"inputImage": {"image": "disparity"}}},
            "fixed": {"filter": "CICameraCalibrationLensCorrection", "inputs": {"inputImage": {"image": "inverted"}, "inputAVCameraCalibrationData": {"image": "photo"}}}
            """#), baseDirectory: NSTemporaryDirectory())
        XCTAssertEqual(named.outputs[0].image.extent, Rect(x: 0, y: 0, width: 576, height: 768))
        let unnamed = error(recipe(images: #"""
            "disparity": {"file": "\#(iPhone)", "auxiliary": "disparity"},
            "inverted": {"filter": "CIColorInvert", "inputs": {"inputImage": {"image": "disparity"}}},
            "fixed": {"filter": "CICameraCalibrationLensCorrection", "inputs": {"inputImage": {"image": "inverted"}}}
            """#))
        XCTAssertEqual(unnamed?.path, "images.fixed.inputs.inputAVCameraCalibrationData")
        XCTAssertTrue(unnamed?.message.contains("name the depth photo") == true, "\(String(describing: unnamed))")
        let notAFile = error(recipe(images: #"""
            "disparity": {"file": "\#(iPhone)", "auxiliary": "disparity"},
            "inverted": {"filter": "CIColorInvert", "inputs": {"inputImage": {"image": "disparity"}}},
            "fixed": {"filter": "CICameraCalibrationLensCorrection", "inputs": {"inputImage": {"image": "inverted"}, "inputAVCameraCalibrationData": {"image": "inverted"}}}
            """#))
        XCTAssertEqual(notAFile?.path, "images.fixed.inputs.inputAVCameraCalibrationData")
        XCTAssertTrue(notAFile?.message.contains("\"inverted\" is not a \"file\" image") == true, "\(String(describing: notAFile))")
    }

    func testAPhotoWithoutCalibrationIsAnErrorNamingTheInputAndTheFile() throws {
        let google = try photo("gdepth_motorola_xt912_exifr.jpg")
        let png = examples + "/photo.png"
        for (file, says) in [(google, "stores no camera calibration with its depth map"), (png, "has no depth map, so no camera calibration")] {
            let failure = error(recipe(images: #"""
                "photo": {"file": "\#(file)"},
                "fixed": {"filter": "CICameraCalibrationLensCorrection", "inputs": {"inputImage": {"image": "photo"}}}
                """#))
            XCTAssertEqual(failure?.path, "images.fixed.inputs.inputAVCameraCalibrationData", file)
            XCTAssertTrue(failure?.message.contains("'\(file)' \(says)") == true, "\(String(describing: failure))")
        }
    }
}
