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
            // managed), matrix, store (encoding sRGB while quantising to 8 bits).
            XCTAssertEqual(dump.programs[0].instructions.count, 3, dump.text())
        }
        // A float destination keeps the encode as instructions.
        let float = try Context().dumpWithProfile(image, format: .rgbaf)
        XCTAssertEqual(float.programs[0].instructions.filter { $0.contains("linearToSRGB") }.count, 3, float.text())
        let dump = try Context().dump(image)
        XCTAssertTrue(dump.programs[0].name.contains("CISepiaTone,CIHueAdjust,CIColorControls"), dump.programs[0].name)
        XCTAssertTrue(dump.passes.contains { $0.pass == "fold-color-matrices" && $0.changes.count == 2 })
    }

    /// The sRGB encode fused into 8-bit stores gives the same codes as the exact encode (at most one
    /// code apart, at rounding boundaries), for opaque and translucent pixels.
    func testEncodeFusedIntoTheEightBitStoreMatchesTheExactEncode() throws {
        for alpha in [AlphaMode.opaque, .straight] {
            let image = try colorChain(Image(buffer: makeTestBuffer(width: 96, height: 64, seed: 12, alpha: alpha)))
            let fused = try Context().render(image, format: .rgba8)
            let exact = try Context().render(image, format: .rgbaf)
            var worst: Float = 0
            for row in 0..<64 {
                for x in 0..<96 {
                    let f = fused.pixel(x: x, row: row), e = exact.pixel(x: x, row: row)
                    for c in 0..<4 { worst = max(worst, abs((f[c] * 255).rounded() - (min(max(e[c], 0), 1) * 255).rounded())) }
                }
            }
            XCTAssertLessThanOrEqual(worst, 1, "\(alpha)")
        }
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

    /// A stage whose program stores alpha as the constant 1 (a mask put back in the photo's extent
    /// by CISourceInCompositing, read by two matrices) is opaque to its readers: they unpremultiply
    /// nothing, and a pass reading a grey one reads its red channel only. The photo under the
    /// clamped kernel is decoded in the mask's program, not stored first.
    func testStagesStoringAlphaOneAreOpaqueToTheirReaders() throws {
        let photo = Image(buffer: try makeTestBuffer(width: 64, height: 48, seed: 4))
        let grey = try Kernel(source: "kernel vec4 grey(__sample s) { float v = s.g; return vec4(v, v, v, 1.0); }")
        let mask = try Image.applying(grey, arguments: [.image(photo.clampedToExtent())])
            .applyingFilter("CISourceInCompositing", parameters: ["inputBackgroundImage": .image(photo)])
        func ramp(_ slope: Double) throws -> Image {
            try mask.applyingFilter("CIColorMatrix", parameters: [
                "inputRVector": .vector([slope, 0, 0, 0]), "inputGVector": .vector([slope, 0, 0, 0]),
                "inputBVector": .vector([slope, 0, 0, 0]), "inputBiasVector": .vector([0.1, 0.1, 0.1, 0])])
        }
        let image = try ramp(2).applyingFilter("CIAdditionCompositing", parameters: ["inputBackgroundImage": .image(try ramp(-1))])
        let dump = try Context().dump(image)
        XCTAssertEqual(dump.programs.count, 2, dump.text())
        let root = try XCTUnwrap(dump.programs.last)
        XCTAssertFalse(root.instructions.contains { $0.contains("greaterThan") }, dump.text())
        let blurred = try mask.clampedToExtent().applyingFilter("CIBoxBlur", parameters: ["inputRadius": .number(3)])
            .cropped(to: photo.extent)
        let blurDump = try Context().dump(blurred)
        XCTAssertTrue(blurDump.programs.contains { $0.instructions.contains { $0.hasPrefix("grey: red only") } }, blurDump.text())
        var options = ContextOptions()
        options.workingFormat = .rgbaf
        for picture in [image, blurred] {
            let fast = bottomUpPixels(try Context(options: options).render(picture, rect: photo.extent, format: .rgbaf))
            assertClose(fast, try ReferenceEvaluator().render(picture, rect: photo.extent, options: options), tolerance: 5e-5)
        }
    }

    func testSharedSubgraphsAreComputedOnce() throws {
        let source = Image(buffer: try makeTestBuffer(width: 32, height: 32, seed: 4))
        // Two separately built but identical blurs feeding one blend.
        let a = try source.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(2)])
        let b = try source.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(2)])
        let image = a.composited(over: b).cropped(to: source.extent)
        let dump = try Context().dump(image)
        XCTAssertEqual(dump.programs.filter { $0.kind == "area" }.count, 2, dump.text())
        XCTAssertTrue(dump.passes.contains { $0.pass == "deduplicate" && !$0.changes.isEmpty }, dump.text())
    }

    /// A transformed constant colour (a missing matte fitted to a map's size) is the constant: read
    /// in the program, not stored over the transform's region as a stage of its own.
    func testATransformedConstantColourIsTheConstant() throws {
        let source = Image(buffer: try makeTestBuffer(width: 40, height: 30, seed: 5, alpha: .straight))
        let tint = Image(color: [0.2, 0.4, 0.6, 0.5]).transformed(by: AffineTransform(scaleX: 0.19, y: 0.19))
        let image = tint.composited(over: source).cropped(to: source.extent)
        let dump = try Context().dump(image)
        XCTAssertEqual(dump.programs.count, 1, dump.text())
        XCTAssertTrue(dump.passes.contains { $0.pass == "fold-affine-transforms" && !$0.changes.isEmpty }, dump.text())
        let fast = bottomUpPixels(try Context().render(image, format: .rgbaf))
        assertClose(fast, try ReferenceEvaluator().render(image, rect: source.extent), tolerance: 1e-3)
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
