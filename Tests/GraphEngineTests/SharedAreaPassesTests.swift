import XCTest
@testable import GraphEngine
import Kernels

/// Outputs rendered one after another compute the area passes they share once
/// (`Context.sharingAreaPasses(of:)`), and render to the same bytes as each alone.
final class SharedAreaPassesTests: XCTestCase {
    func displayP3Photo() throws -> Image {
        Image(buffer: try makeTestBuffer(width: 90, height: 70, seed: 3).withColorSpace(.displayP3))
    }

    func greyMap() throws -> Image {
        let values: [Float] = (0..<(30 * 24)).map { Float($0 % 30) / 30 + ($0 / 30 > 12 ? 0.3 : 0) }
        return Image(buffer: try ImageBuffer(width: 30, height: 24, format: .grayf, colorSpace: nil,
                                             bytes: values.withUnsafeBytes { Array($0) }))
    }

    /// Area passes left in the graphs of `images`.
    func areaPasses(_ images: [Image]) -> Int {
        var seen = Set<ObjectIdentifier>()
        for image in images {
            for node in RegionOfInterest.topologicalOrder(image.node) {
                if case .area = node.kind { seen.insert(ObjectIdentifier(node)) }
            }
        }
        return seen.count
    }

    /// Three outputs of a refined depth map (written as data, a colour blend through it, a colour
    /// blur that two outputs share, cropped): the shared passes become buffers (one grey channel
    /// for the map), and every output's bytes are unchanged.
    func testSharedPassesRenderOnceWithTheSameBytes() throws {
        let photo = try displayP3Photo()
        let refined = try photo.applyingFilter("CIEdgePreserveUpsampleFilter", parameters: ["inputSmallImage": .image(greyMap())])
        let blurred = try photo.clampedToExtent().applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(4)])
            .cropped(to: photo.extent)
        let outputs = [
            refined,
            try photo.applyingFilter("CIBlendWithMask", parameters: ["inputBackgroundImage": .image(blurred), "inputMaskImage": .image(refined)]),
            try blurred.applyingFilter("CIColorInvert"),
        ]
        for format in [WorkingFormat.rgbah, .rgbaf] {
            var options = ContextOptions()
            options.workingFormat = format
            let context = Context(options: options)
            let shared = try context.sharingAreaPasses(of: outputs)
            XCTAssertEqual(areaPasses(outputs), 4)  // the upsample, its low guide, the blur's two passes
            XCTAssertEqual(areaPasses(shared), 0, "the blur is shared through its crop")
            let map = try XCTUnwrap(RegionOfInterest.topologicalOrder(shared[0].node).compactMap { node -> ImageBuffer? in
                if case .buffer(let buffer) = node.kind { return buffer } else { return nil }
            }.first)
            XCTAssertEqual(map.format, format == .rgbah ? .grayh : .grayf)
            // Computed with a colour photo as guide: colour in the working space (a data output
            // writes it as it is).
            XCTAssertEqual(map.colorSpace, .linearSRGB)
            for (index, (alone, together)) in zip(outputs, shared).enumerated() {
                let space: OutputColorSpace? = index == 0 ? .data : nil
                XCTAssertEqual(try context.render(alone, format: .rgba8, colorSpace: space).bytes,
                               try context.render(together, format: .rgba8, colorSpace: space).bytes, "\(format)")
            }
        }
    }

    /// Nothing shared, a single output, or a memory limit: the images come back as they were.
    func testNothingSharedLeavesTheImages() throws {
        let photo = try displayP3Photo()
        let one = try photo.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(2)])
        let other = try photo.applyingFilter("CIBoxBlur", parameters: ["inputRadius": .number(2)])
        for images in [[one, other], [one]] {
            XCTAssertTrue(zip(images, try Context().sharingAreaPasses(of: images)).allSatisfy { $0.node === $1.node })
        }
        var limited = ContextOptions()
        limited.memoryLimit = 1 << 30
        XCTAssertTrue(zip([one, one], try Context(options: limited).sharingAreaPasses(of: [one, one])).allSatisfy { $0.node === $1.node })
    }
}
