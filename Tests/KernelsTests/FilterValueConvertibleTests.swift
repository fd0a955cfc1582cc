import XCTest
import GraphEngine
import Kernels

/// Parameters given as they are (`Image`, `Rect`, `AffineTransform`, numbers, vectors) build the
/// same recipe, and render the same pixels, as the wrapped `FilterValue`s (issue 30 item 4).
final class FilterValueConvertibleTests: XCTestCase {
    let context = Context()
    let photo = Image(color: [0.5, 0.25, 0.125, 1]).cropped(to: Rect(x: 0, y: 0, width: 8, height: 6))
    let mask = Image(color: [0.75, 0.75, 0.75, 1]).cropped(to: Rect(x: 0, y: 0, width: 8, height: 6))

    private func pixels(_ image: Image) throws -> [UInt8] { try context.render(image, format: .rgba8).bytes }

    func testUnwrappedValuesRenderAsTheWrappedOnes() throws {
        let background = Image(color: [0, 0, 1, 1]).cropped(to: Rect(x: 0, y: 0, width: 8, height: 6))
        let unwrapped = try photo.applyingFilter("CIBlendWithMask", parameters: ["inputBackgroundImage": background, "inputMaskImage": mask])
        let wrapped = try photo.applyingFilter("CIBlendWithMask", parameters: ["inputBackgroundImage": .image(background), "inputMaskImage": .image(mask)])
        XCTAssertEqual(try pixels(unwrapped), try pixels(wrapped))
        XCTAssertNotEqual(try pixels(unwrapped), try pixels(photo), "the mask blended the background in")

        let matrix = try photo.applyingFilter("CIColorMatrix", parameters: ["inputRVector": [0, 1, 0, 0], "inputBiasVector": [0.5, 0, 0, 0], "inputAVector": [0, 0, 0, 1.0]])
        let matrixWrapped = try photo.applyingFilter("CIColorMatrix", parameters: ["inputRVector": .vector([0, 1, 0, 0]), "inputBiasVector": .vector([0.5, 0, 0, 0])])
        XCTAssertEqual(try pixels(matrix), try pixels(matrixWrapped))

        let transform = AffineTransform(translationX: 2, y: 1)
        let moved = try photo.applyingFilter("CIAffineTransform", parameters: ["inputTransform": transform])
        XCTAssertEqual(moved.extent, Rect(x: 2, y: 1, width: 8, height: 6))
        let crop = try photo.applyingFilter("CICrop", parameters: ["inputRectangle": Rect(x: 1, y: 1, width: 3, height: 2)])
        XCTAssertEqual(crop.extent, Rect(x: 1, y: 1, width: 3, height: 2))

        let aperture = 2.5, intensity: Float = 0.5, count = 1
        let toned = try photo.applyingFilter("CISepiaTone", parameters: ["inputIntensity": intensity, "inputImage": photo])
        XCTAssertEqual(try pixels(toned), try pixels(try photo.applyingFilter("CISepiaTone", parameters: ["inputIntensity": 0.5])))
        XCTAssertEqual((aperture as any FilterValueConvertible).filterValue.description, "2.5")
        XCTAssertEqual((count as any FilterValueConvertible).filterValue.description, "1.0")
        XCTAssertEqual(([1, 2] as any FilterValueConvertible).filterValue.description, "[1.0 2.0]")
        XCTAssertEqual((true as any FilterValueConvertible).filterValue.description, "true")
    }

    func testUnwrappedValuesAreCheckedAsTheWrappedOnes() {
        XCTAssertThrowsError(try photo.applyingFilter("CISepiaTone", parameters: ["inputIntensity": mask])) { error in
            XCTAssertEqual("\(error)", "CISepiaTone.inputIntensity: expected a number, got an image")
        }
        XCTAssertThrowsError(try Image.filter("CIConstantColorGenerator", parameters: ["inputColor": Rect(x: 0, y: 0, width: 1, height: 1), "inputX": photo])) { error in
            XCTAssertTrue("\(error)".hasPrefix("CIConstantColorGenerator"), "\(error)")
        }
    }
}
