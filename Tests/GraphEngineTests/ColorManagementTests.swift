import XCTest
@testable import GraphEngine
@testable import GraphCPU
import Kernels

final class ColorManagementTests: XCTestCase {
    func decode(_ y: Double) -> Double { y <= 0.04045 ? y / 12.92 : pow((y + 0.055) / 1.055, 2.4) }
    func encode(_ x: Double) -> Double { x <= 0.0031308 ? x * 12.92 : 1.055 * pow(x, 1 / 2.4) - 0.055 }

    /// Exposure +1 doubles *linear* light when colour managed, and the stored values when not.
    func testOnAndOffGiveTheExpectedDifferentPixels() throws {
        let codes: [UInt8] = [10, 60, 118, 200]
        let bytes: [UInt8] = codes.flatMap { code -> [UInt8] in [code, code, code, 255] }
        let buffer = try ImageBuffer(width: 4, height: 1, format: .rgba8, alphaMode: .opaque, bytes: bytes)
        let image = try Image(buffer: buffer).applyingFilter("CIExposureAdjust", parameters: ["inputEV": .number(1)])
        var off = ContextOptions()
        off.workingColorSpace = nil
        let managed = try Context().render(image, format: .rgbaf)
        let unmanaged = try Context(options: off).render(image, format: .rgbaf)
        for (x, code) in codes.enumerated() {
            let y = Double(code) / 255
            XCTAssertEqual(Double(managed.pixel(x: x, row: 0)[0]), encode(2 * decode(y)), accuracy: 5e-4)
            XCTAssertEqual(Double(unmanaged.pixel(x: x, row: 0)[0]), 2 * y, accuracy: 5e-4)
        }
        XCTAssertNotEqual(managed.pixel(x: 1, row: 0)[0], unmanaged.pixel(x: 1, row: 0)[0])
        // Off means no conversion anywhere in the plan.
        let dump = try Context(options: off).dump(image)
        XCTAssertFalse(dump.initial.contains { $0.label.hasPrefix("colormatch") })
        XCTAssertTrue(try Context().dump(image).initial.contains { $0.label.hasPrefix("colormatch") })
    }

    /// Display P3 primaries to sRGB, against the published matrix; P3 red lands outside sRGB and
    /// survives as extended-range values.
    func testDisplayP3IsConvertedExactly() throws {
        let published: [Double] = [1.2249401, -0.2249404, 0, -0.0420569, 1.0420571, 0, -0.0196376, -0.0786361, 1.0982735]
        for (ours, theirs) in zip(ColorSpace.displayP3.toLinearSRGB, published) { XCTAssertEqual(ours, theirs, accuracy: 2e-4) }
        let red = try ImageBuffer(width: 1, height: 1, format: .rgba8, alphaMode: .opaque, colorSpace: .displayP3,
                                  bytes: [255, 0, 0, 255])
        var options = ContextOptions()
        options.workingFormat = .rgbaf
        let pixel = try Context(options: options).render(Image(buffer: red), format: .rgbaf).pixel(x: 0, row: 0)
        let linear = [published[0], published[3], published[6]]
        for c in 0..<3 {
            let expected = linear[c] < 0 ? -encode(-linear[c]) : encode(linear[c])
            XCTAssertEqual(Double(pixel[c]), expected, accuracy: 2e-4)
        }
        XCTAssertGreaterThan(pixel[0], 1)
        XCTAssertLessThan(pixel[1], 0)
    }

    /// An unfiltered sRGB image rendered to sRGB does no colour work and returns its own bytes.
    func testInverseConversionsCancel() throws {
        let buffer = try makeTestBuffer(width: 33, height: 17, seed: 9, alpha: .straight)
        let image = Image(buffer: buffer)
        let dump = try Context().dump(image)
        XCTAssertTrue(dump.passes.contains { $0.pass == "cancel-color-conversions" && !$0.changes.isEmpty }, dump.text())
        XCTAssertEqual(dump.programs[0].instructions.count, 2, dump.text())
        let unpremultiplied = try Context().render(image, format: .rgba8)
        // Straight-alpha input, premultiplied output: compare premultiplied values.
        for row in 0..<17 {
            for x in 0..<33 {
                let input = buffer.pixel(x: x, row: row), output = unpremultiplied.pixel(x: x, row: row)
                for c in 0..<3 { XCTAssertEqual(output[c], (input[c] * input[3] * 255).rounded(.toNearestOrEven) / 255, accuracy: 1e-6) }
            }
        }
    }

    func testDataImagesAreNeverConverted() throws {
        let photo = Image(buffer: try makeTestBuffer(width: 8, height: 8, seed: 1))
        let mask = Image(buffer: try makeTestBuffer(width: 8, height: 8, seed: 2).withColorSpace(nil))
        let blended = try photo.applyingFilter("CIBlendWithMask", parameters: [
            "inputBackgroundImage": .image(Image(color: [0, 0, 0, 1])), "inputMaskImage": .image(mask)])
        let initial = try Context().dump(blended.cropped(to: photo.extent)).initial
        let conversions = initial.filter { $0.label.hasPrefix("colormatch") }
        // One for the photo in, one for the result out; none for the mask.
        XCTAssertEqual(conversions.count, 2, initial.map(\.label).joined(separator: "\n"))
        // A result made only of data is data: no output conversion.
        let depthOnly = try mask.applyingFilter("CIColorInvert")
        XCTAssertFalse(try Context().dump(depthOnly).initial.contains { $0.label.hasPrefix("colormatch") })
    }

    /// The interpolated transfer tables stay within 3e-5 of the exact curves on [-1.5, 1.5].
    func testTransferTablesAreAccurate() {
        let count = 200_001
        let xs = UnsafeMutablePointer<Float>.allocate(capacity: count), ys = UnsafeMutablePointer<Float>.allocate(capacity: count)
        defer { xs.deallocate(); ys.deallocate() }
        for i in 0..<count { xs[i] = -1.5 + 3 * Float(i) / Float(count - 1) }
        for op in [UnaryOperator.srgbToLinear, .linearToSRGB] {
            SpanLoops.unary(op, ys, xs, count)
            var worst: Float = 0
            for i in 0..<count { worst = max(worst, abs(ys[i] - ScalarMath.unary(op, xs[i]))) }
            XCTAssertLessThan(worst, 3e-5, "\(op)")
        }
    }
}

extension ImageBuffer {
    /// The same pixels tagged with another colour space (test helper).
    func withColorSpace(_ space: ColorSpace?) throws -> ImageBuffer {
        try ImageBuffer(width: width, height: height, format: format, alphaMode: alphaMode, colorSpace: space, bytes: bytes)
    }
}
