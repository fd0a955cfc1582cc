import Foundation
import XCTest
@testable import GraphEngine
import Kernels

/// `Image.insertingSharedIntermediates(_:)`: costly work several images share is computed once, over
/// its whole extent, for all of their renders with one context, with the same pixels.
final class SharedIntermediatesTests: XCTestCase {
    typealias Counter = ProcessorRecomputationTests.PixelCounter
    typealias CountingCopy = ProcessorRecomputationTests.CountingCopy

    static let width = 240, height = 160
    static let extent = Rect(x: 0, y: 0, width: Double(width), height: Double(height))

    func context() -> Context {
        var options = ContextOptions()
        options.tileSize = 32
        options.threads = 2
        options.workingFormat = .rgbaf
        return Context(options: options)
    }

    /// A "mask": a counted copy of a photo, box-blurred (radius 6 both ways), cropped to the photo.
    func mask(of photo: Image, counter: Counter) -> Image {
        photo.applying(CountingCopy(counter: counter)).clampedToExtent()
            .applying(BoxMean(axis: .horizontal, radius: 6, filterName: "box"))
            .applying(BoxMean(axis: .vertical, radius: 6, filterName: "box")).cropped(to: photo.extent)
    }

    /// The photo scaled by the mask, and the mask made brighter: two images reading one mask.
    func twoUses(of mask: Image, photo: Image) throws -> [Image] {
        let scale = try Kernel(source: "kernel vec4 scaleBy(__sample a, __sample m) { return a * m.g; }")
        let scaled = try Image.applying(scale, arguments: [.image(photo), .image(mask)])
        let brighter = mask.applyingColorMatrix(ColorMatrix(rgb: [0.5, 0.2, 0, 0.1, 0.9, 0, 0, 0, 1.2], sourceName: "tint"))
        return [scaled, brighter]
    }

    func photo(seed: UInt64 = 41) throws -> Image {
        Image(buffer: try makeTestBuffer(width: Self.width, height: Self.height, seed: seed))
    }

    /// The intermediates in `images`' graphs, each once.
    func intermediates(_ images: [Image]) -> [Node] {
        var found: [ObjectIdentifier: Node] = [:]
        for image in images {
            for node in RegionOfInterest.topologicalOrder(image.node) {
                if case .processor(let processor) = node.kind, processor is Intermediate { found[ObjectIdentifier(node)] = node }
            }
        }
        return Array(found.values)
    }

    func testTheSharedMaskIsComputedOnceForBothRenders() throws {
        let photo = try photo()
        let counter = Counter()
        let images = Image.insertingSharedIntermediates(try twoUses(of: mask(of: photo, counter: counter), photo: photo))
        let context = context()
        let first = try context.render(images[0], format: .rgbaf)
        let once = counter.pixels
        // The second render reads only a corner: the mask was computed over its whole extent.
        let corner = Rect(x: 10, y: 20, width: 50, height: 40)
        let second = try context.render(images[1], rect: corner, format: .rgbaf)
        XCTAssertEqual(counter.pixels, once, "the second render computed nothing of the mask")
        // The first computed the mask as a render of the mask alone would (its tiles' margins included).
        let alone = Counter()
        _ = try self.context().render(mask(of: photo, counter: alone), format: .rgbaf)
        XCTAssertEqual(once, alone.pixels)

        // The same pixels as the images without it, rendered with contexts of their own.
        let recounted = Counter()
        let plain = try twoUses(of: mask(of: photo, counter: recounted), photo: photo)
        XCTAssertEqual(first.bytes, try self.context().render(plain[0], format: .rgbaf).bytes)
        XCTAssertEqual(second.bytes, try self.context().render(plain[1], rect: corner, format: .rgbaf).bytes)
        XCTAssertGreaterThan(recounted.pixels, Self.width * Self.height, "without it each render (and tile margin) copies again")
        assertClose(bottomUpPixels(first), try ReferenceEvaluator().render(images[0], rect: Self.extent), tolerance: 1e-5)
    }

    func testOnlyTheOutermostSharedWorkIsKept() throws {
        let photo = try photo()
        let images = Image.insertingSharedIntermediates(try twoUses(of: mask(of: photo, counter: Counter()), photo: photo))
        let kept = intermediates(images)
        XCTAssertEqual(kept.count, 1, "the mask, not each pass of it")
        guard let mask = kept.first, case .processor(let processor as Intermediate) = mask.kind else { return XCTFail("no intermediate") }
        XCTAssertTrue(processor.coversExtent)
        XCTAssertEqual(processor.name, "shared(crop)")
        XCTAssertEqual(mask.extent, Self.extent)
    }

    /// A third image reading the copy under the mask directly: the copy is read by it and by the
    /// mask, so it is kept too (the mask's intermediate reads the copy's).
    func testInnerWorkReadElsewhereIsKeptToo() throws {
        let photo = try photo()
        let counter = Counter()
        let copy = photo.applying(CountingCopy(counter: counter))
        let mask = mask(of: photo, counter: counter)
        // Built on the same copy node as the mask.
        guard case .crop = mask.node.kind else { return XCTFail("expected the mask to end in a crop") }
        let sameCopyMask = Image(node: rebuilt(mask.node, replacingLeaf: copy.node))
        var images = try twoUses(of: sameCopyMask, photo: photo)
        images.append(copy.applyingColorMatrix(ColorMatrix(rgb: [1, 0, 0, 0, 0, 1, 0, 1, 0], sourceName: "swap")))
        let shared = Image.insertingSharedIntermediates(images)
        XCTAssertEqual(intermediates(shared).count, 2)
        let context = context()
        for image in shared { _ = try context.render(image, format: .rgbaf) }
        // The copy is an intermediate: computed once, over its extent, then read by the mask and the third.
        XCTAssertEqual(counter.pixels, Self.width * Self.height)
    }

    /// Streamed encodes of a JPEG file (which decodes windowed for each encode, except under a
    /// shared intermediate): the second encode finds the mask in the cache, and both files are
    /// those written without sharing.
    func testStreamedEncodesOfAFileShareTheMask() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shared-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("photo.jpg").path
        try Context().write(Image(buffer: try makeTestBuffer(width: Self.width, height: Self.height, seed: 42)), to: path)
        let counter = Counter()
        let photo = try Image(contentsOf: path)
        let images = Image.insertingSharedIntermediates(try twoUses(of: mask(of: photo, counter: counter), photo: photo))
        let context = context()
        let first = try context.encodedData(images[0], format: .jpeg)
        let once = counter.pixels
        let second = try context.encodedData(images[1], format: .png)
        XCTAssertEqual(counter.pixels, once, "the second encode computed nothing of the mask")
        let other = try Image(contentsOf: path)
        let plain = try twoUses(of: mask(of: other, counter: Counter()), photo: other)
        XCTAssertEqual(first, try self.context().encodedData(plain[0], format: .jpeg))
        XCTAssertEqual(second, try self.context().encodedData(plain[1], format: .png))
    }

    /// Three outputs as a recipe writes them: a depth map refined to a Display P3 photo (written as
    /// data), the photo blended through it over a blur of itself, and that blur inverted. The map
    /// and the blur's crop are kept; each output has the bytes it has alone, in half and float
    /// working formats, and the renders compute each kept image once between them.
    func testRecipeOutputsComputeTheSharedWorkOnceWithTheSameBytes() throws {
        let photo = Image(buffer: try makeTestBuffer(width: 90, height: 70, seed: 3).withColorSpace(.displayP3))
        let values: [Float] = (0..<(30 * 24)).map { Float($0 % 30) / 30 + ($0 / 30 > 12 ? 0.3 : 0) }
        let map = Image(buffer: try ImageBuffer(width: 30, height: 24, format: .grayf, colorSpace: nil,
                                                bytes: values.withUnsafeBytes { Array($0) }))
        let refined = try photo.applyingFilter("CIEdgePreserveUpsampleFilter", parameters: ["inputSmallImage": .image(map)])
        let blurred = try photo.clampedToExtent().applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(4)])
            .cropped(to: photo.extent)
        let outputs = [
            refined,
            try photo.applyingFilter("CIBlendWithMask", parameters: ["inputBackgroundImage": .image(blurred), "inputMaskImage": .image(refined)]),
            try blurred.applyingFilter("CIColorInvert"),
        ]
        let shared = Image.insertingSharedIntermediates(outputs)
        XCTAssertEqual(Set(intermediates(shared).map { $0.extent }), [photo.extent])
        XCTAssertEqual(intermediates(shared).count, 2, "the refined map and the blur")
        for format in [WorkingFormat.rgbah, .rgbaf] {
            var options = ContextOptions()
            options.workingFormat = format
            let context = Context(options: options)
            var computed = 0
            for (index, (alone, together)) in zip(outputs, shared).enumerated() {
                let space: OutputColorSpace? = index == 0 ? .data : nil
                let (buffer, profile) = try context.renderWithProfile(together, format: .rgba8, colorSpace: space)
                XCTAssertEqual(buffer.bytes, try Context(options: options).render(alone, format: .rgba8, colorSpace: space).bytes, "\(format)")
                for (stage, planned) in profile.plan.stages.enumerated() {
                    if case .processor(let processor, _) = planned.work, processor is Intermediate { computed += profile.timings.pixels[stage] }
                }
            }
            XCTAssertEqual(computed, 2 * 90 * 70, "each kept image computed once, over its extent (\(format))")
        }
    }

    /// `node` with its deepest CountingCopy replaced by `leaf`.
    func rebuilt(_ node: Node, replacingLeaf leaf: Node) -> Node {
        if case .area(let op) = node.kind, op is CountingCopy { return leaf }
        return Node(node.kind, inputs: node.inputs.map { rebuilt($0, replacingLeaf: leaf) }, extent: node.extent)
    }

    func testCheapOrUnsharedOrInfiniteWorkIsLeftAlone() throws {
        let photo = try photo()
        // Shared colour work only: nothing worth keeping.
        let tinted = photo.applyingColorMatrix(ColorMatrix(rgb: [0.5, 0, 0, 0, 0.5, 0, 0, 0, 0.5], sourceName: "half"))
        let cheap = try twoUses(of: tinted, photo: photo)
        XCTAssertTrue(zip(Image.insertingSharedIntermediates(cheap), cheap).allSatisfy { $0.node === $1.node })
        // One image: nothing shared.
        let one = [mask(of: photo, counter: Counter())]
        XCTAssertTrue(Image.insertingSharedIntermediates(one)[0].node === one[0].node)
        // A shared blur of infinite extent is not kept; the finite copy under it is.
        let copy = photo.applying(CountingCopy(counter: Counter()))
        let endless = copy.clampedToExtent().applying(BoxMean(axis: .horizontal, radius: 3, filterName: "box"))
        let two = [endless.cropped(to: Self.extent), endless.cropped(to: Rect(x: 0, y: 0, width: 20, height: 20))]
        let kept = intermediates(Image.insertingSharedIntermediates(two))
        XCTAssertEqual(kept.count, 1)
        XCTAssertEqual(kept.first?.extent, Self.extent)
    }
}
