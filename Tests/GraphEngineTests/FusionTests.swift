import XCTest
@testable import GraphEngine
import Kernels

final class FusionTests: XCTestCase {
    func colorChain(_ image: Image, angle: Double = 0.5) throws -> Image {
        try image.applyingFilter("CISepiaTone", parameters: ["inputIntensity": .number(1)])
            .applyingFilter("CIHueAdjust", parameters: ["inputAngle": .number(angle)])
            .applyingFilter("CIColorControls", parameters: ["inputContrast": .number(1.2)])
    }

    func testSepiaHueContrastIsOneProgramWithOneMatrixInstruction() throws {
        let image = try colorChain(Image(buffer: makeTestBuffer(width: 64, height: 48, seed: 1)))
        var off = ContextOptions()
        off.workingColorSpace = nil
        for options in [ContextOptions(), off] {
            let dump = try Context(options: options).dump(image)
            XCTAssertEqual(dump.programs.count, 1, dump.text())
            let matrices = dump.programs[0].instructions.filter { $0.contains("= matrix") }
            XCTAssertEqual(matrices.count, 1, dump.text())
            // The opaque source needs no unpremultiply: load (decoding sRGB by table when colour
            // managed), matrix, (three sRGB encodes), store.
            let expected = options.workingColorSpace == nil ? 3 : 6
            XCTAssertEqual(dump.programs[0].instructions.count, expected, dump.text())
        }
        let dump = try Context().dump(image)
        XCTAssertTrue(dump.programs[0].name.contains("CISepiaTone,CIHueAdjust,CIColorControls"), dump.programs[0].name)
        XCTAssertTrue(dump.passes.contains { $0.pass == "fold-color-matrices" && $0.changes.count == 2 })
    }

    func testFoldedChainMatchesTheReferenceEvaluator() throws {
        let buffer = try makeTestBuffer(width: 40, height: 30, seed: 2, alpha: .straight)
        let image = try colorChain(Image(buffer: buffer))
        let fast = bottomUpPixels(try Context().render(image, format: .rgbaf))
        let reference = try ReferenceEvaluator().render(image, rect: image.extent)
        assertClose(fast, reference, tolerance: 4e-3)
    }

    func testNewParameterValuesReuseTheCompiledProgram() throws {
        let context = Context()
        let source = Image(buffer: try makeTestBuffer(width: 32, height: 32, seed: 3))
        _ = try context.render(try colorChain(source, angle: 0.5))
        let first = context.programCacheStatistics
        _ = try context.render(try colorChain(source, angle: 1.5))
        let second = context.programCacheStatistics
        XCTAssertEqual(second.misses, first.misses, "a new angle must not compile a new program")
        XCTAssertEqual(second.hits, first.hits + 1)
    }

    func testSharedSubgraphsAreComputedOnce() throws {
        let source = Image(buffer: try makeTestBuffer(width: 32, height: 32, seed: 4))
        // Two separately built but identical blurs feeding one blend.
        let a = try source.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(2)])
        let b = try source.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(2)])
        let image = a.composited(over: b).cropped(to: source.extent)
        let dump = try Context().dump(image)
        XCTAssertEqual(dump.programs.filter { $0.kind == "convolution" }.count, 2, dump.text())
        XCTAssertTrue(dump.passes.contains { $0.pass == "deduplicate" && !$0.changes.isEmpty }, dump.text())
    }
}

func assertClose(_ a: [SIMD4<Float>], _ b: [SIMD4<Float>], tolerance: Float, file: StaticString = #filePath,
                 line: UInt = #line) {
    XCTAssertEqual(a.count, b.count, file: file, line: line)
    var worst: Float = 0
    var worstIndex = 0
    for i in 0..<min(a.count, b.count) {
        for c in 0..<4 {
            let x = a[i][c], y = b[i][c]
            if x.isNaN && y.isNaN { continue }
            let error = abs(x - y) / max(1, abs(y))
            if !(error <= worst) { worst = error.isNaN ? .infinity : error; worstIndex = i }
        }
    }
    XCTAssertLessThanOrEqual(worst, tolerance, "worst at pixel \(worstIndex): \(a[worstIndex]) vs \(b[worstIndex])",
                             file: file, line: line)
}
