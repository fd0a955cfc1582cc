import XCTest
@testable import GraphEngine

/// A colour operation is a description (Recipe/); the compiler finds its IR through its
/// `ColorLowering` conformance. One declared with a lowering renders what it emits; one declared
/// without is an error that names it, not a crash.
final class OperationLoweringTests: XCTestCase {
    /// Premultiplied RGBA from its uniforms, like the built-in constant colour.
    struct UniformColor: ColorOperation, ColorLowering {
        let rgba: [Float]
        var name: String { "uniform-color" }
        var structureKey: String { "uniform-color" }
        var uniformValues: [Float] { rgba }
        var argumentSummary: String { "" }
        func emit(inputs: [OperandQuad], uniforms: [Operand], destination: (x: Operand, y: Operand),
                  builder: inout ProgramBuilder) throws -> OperandQuad {
            OperandQuad(uniforms)
        }
    }

    /// A colour operation whose declaration lacks the lowering.
    struct Unlowered: ColorOperation {
        var name: String { "unlowered-test-operation" }
        var structureKey: String { "unlowered-test-operation" }
        var uniformValues: [Float] { [] }
        var argumentSummary: String { "" }
    }

    private let rect = Rect(x: 0, y: 0, width: 4, height: 3)

    func testALoweredOperationRendersWhatItEmits() throws {
        let rgba: [Float] = [0.125, 0.25, 0.375, 0.5]
        let emitted = Image(node: Node(.color(UniformColor(rgba: rgba)), inputs: [], extent: rect))
        let built = Image(color: [0.25, 0.5, 0.75, 0.5]).cropped(to: rect)  // unpremultiplied in
        let context = Context()
        let ours = try context.render(emitted, rect: rect, format: .rgbaf, colorSpace: .data)
        let theirs = try context.render(built, rect: rect, format: .rgbaf, colorSpace: .data)
        XCTAssertEqual(ours.bytes, theirs.bytes)
        XCTAssertEqual(ours.pixel(x: 3, row: 2), rgba)
    }

    func testAnOperationWithoutALoweringIsAnErrorNamingIt() {
        let image = Image(node: Node(.color(Unlowered()), inputs: [Image(color: [1, 0, 0, 1]).node], extent: rect))
        XCTAssertThrowsError(try Context().render(image, rect: rect, format: .rgbaf)) { error in
            XCTAssertEqual(error as? GraphError, .renderFailed(
                "unlowered-test-operation has no lowering to a program (its description lacks the Optimizer's lowering conformance)"))
        }
    }
}
