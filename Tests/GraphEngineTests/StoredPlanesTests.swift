import XCTest
@testable import GraphEngine

/// Intermediates keep the planes they need: one for a grey, opaque image (a depth or blur map),
/// three for an opaque colour image, four otherwise. Every way of reading them (loads, bilinear and
/// nearest samples with transparent or clamped edges, area passes) gives what the reference
/// evaluator computes, in every working format.
final class StoredPlanesTests: XCTestCase {
    static let width = 61, height = 47

    /// A grey opaque program stage (one value in R, G and B, alpha 1), an opaque colour one and a
    /// translucent one, from an 8-bit source, without colour management (values in 0…1, which
    /// 8-bit intermediates keep).
    static func stored() throws -> [(name: String, image: Image, planes: Int)] {
        let source = Image(buffer: try makeTestBuffer(width: width, height: height, seed: 5))
        let grey = try Kernel(source: "kernel vec4 grey(__sample s) { float v = dot(s.rgb, vec3(0.3, 0.5, 0.2)) * 0.8 + 0.1; return vec4(v, v, v, 1.0); }")
        let warm = try Kernel(source: "kernel vec4 warm(__sample s) { return vec4(s.r * 0.7 + s.b * 0.3, s.g * 0.9, s.b * 0.6 + 0.2, 1.0); }")
        let tinted = try Kernel(source: "kernel vec4 tinted(__sample s) { return vec4(s.r, s.g, s.b, 1.0) * 0.6; }")
        return [("grey", try Image.applying(grey, arguments: [.image(source)]), 1),
                ("opaque colour", try Image.applying(warm, arguments: [.image(source)]), 3),
                ("translucent", try Image.applying(tinted, arguments: [.image(source)]), 4)]
    }

    /// Readers that make `image` a stage of its own, each a different read path.
    static func readers(_ image: Image) throws -> [(name: String, image: Image)] {
        let e = image.extent
        let warp = AffineTransform(translationX: -30, y: -23).concatenating(AffineTransform(rotationAngle: 0.3))
            .concatenating(AffineTransform(scaleX: 1.3, y: 0.9)).concatenating(AffineTransform(translationX: 33, y: 21))
        let sum = try Kernel(source: "kernel vec4 sum(__sample a, __sample b) { return a * 0.5 + b.gbra * 0.25; }")
        return [
            ("bilinear, transparent edges", image.transformed(by: warp)),
            ("nearest", image.transformed(by: warp, filter: .nearest)),
            ("bilinear, clamped edges", image.clampedToExtent().transformed(by: warp).cropped(to: e.outset(dx: 5, dy: 4))),
            ("area pass", image.clampedToExtent().applying(BoxMean(axis: .horizontal, radius: 3, filterName: "box")).cropped(to: e)),
            ("load and sample", try Image.applying(sum, arguments: [.image(image), .image(image.transformed(by: AffineTransform(translationX: 0.5, y: -0.25)))])),
        ]
    }

    func testEveryReaderSeesTheStoredImageAsTheReferenceDoes() throws {
        for (format, tolerance) in [(WorkingFormat.rgbaf, Float(1e-5)), (.rgbah, 2e-3), (.rgba8, 2.1 / 255)] {
            var options = ContextOptions()
            options.workingFormat = format
            options.workingColorSpace = nil
            options.tileSize = 16
            let context = Context(options: options)
            for (storedName, stored, planes) in try Self.stored() {
                for (readerName, image) in try Self.readers(stored) {
                    let rect = image.extent.integral
                    let (buffer, profile) = try context.renderWithProfile(image, rect: rect, format: .rgbaf)
                    let reference = try ReferenceEvaluator().render(image, rect: rect, options: options)
                    let label = "\(format) \(storedName), \(readerName)"
                    assertClose(bottomUpPixels(buffer), reference, tolerance: tolerance)
                    XCTAssertEqual(bottomUpPixels(buffer).count, reference.count, label)
                    // The stored image is a stage of its own, with its planes and no more.
                    let plan = profile.plan
                    let stage = try XCTUnwrap(plan.stages.firstIndex { $0.node.shortName == stored.node.shortName }, label)
                    XCTAssertEqual(plan.stages[stage].storedChannels, planes, label)
                    XCTAssertEqual(profile.timings.peakBytes[stage] % (planes * format.bytesPerSample), 0, label)
                    XCTAssertLessThanOrEqual(profile.timings.peakBytes[stage], 40 * 40 * planes * format.bytesPerSample, label)
                }
            }
        }
    }

    /// A grey, opaque area pass (a blur of a grey map) stores one plane too, and a dump says so.
    func testGreyAreaPassStoresOnePlane() throws {
        let map = try ImageBuffer(width: 40, height: 30, format: .grayf, colorSpace: nil,
                                  bytes: (0..<1200).map { Float($0 % 37) / 37 }.withUnsafeBytes { Array($0) })
        let blurred = Image(buffer: map).clampedToExtent().applying(BoxMean(axis: .horizontal, radius: 2, filterName: "box"))
            .applying(BoxMean(axis: .vertical, radius: 2, filterName: "box")).cropped(to: Rect(x: 0, y: 0, width: 40, height: 30))
        var options = ContextOptions()
        options.workingColorSpace = nil
        let context = Context(options: options)
        let dump = try context.dump(blurred)
        let boxes = dump.programs.filter { $0.kind == "area" }
        XCTAssertEqual(boxes.count, 2)
        for box in boxes { XCTAssertEqual(box.format, "RGBAh (grey: 1 plane)") }
        let fast = bottomUpPixels(try context.render(blurred, format: .rgbaf))
        assertClose(fast, try ReferenceEvaluator().render(blurred, rect: blurred.extent, options: options), tolerance: 1e-3)
    }
}
