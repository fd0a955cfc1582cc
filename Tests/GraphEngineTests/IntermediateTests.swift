import Foundation
import XCTest
@testable import GraphEngine

/// `Image.insertingIntermediate()`: the image is computed once, whole, before the work units (which
/// would otherwise compute it again in every tile's margins), with the same pixels.
final class IntermediateTests: XCTestCase {
    typealias Counter = ProcessorRecomputationTests.PixelCounter
    typealias CountingCopy = ProcessorRecomputationTests.CountingCopy

    static let width = 300, height = 200

    func context(tileSize: Int = 32, threads: Int = 2, format: WorkingFormat = .rgbaf) -> Context {
        var options = ContextOptions()
        options.tileSize = tileSize
        options.threads = threads
        options.workingFormat = format
        return Context(options: options)
    }

    /// A wide box blur (radius 40, both ways) of a counted copy of a photo, the copy an
    /// intermediate or not.
    func blurred(_ counter: Counter, intermediate: Bool, source: Image? = nil) throws -> Image {
        let photo = try source ?? Image(buffer: makeTestBuffer(width: Self.width, height: Self.height, seed: 31))
        var copy = photo.applying(CountingCopy(counter: counter))
        if intermediate { copy = copy.insertingIntermediate(named: "copy_whole") }
        return copy.clampedToExtent().applying(BoxMean(axis: .horizontal, radius: 40, filterName: "box"))
            .applying(BoxMean(axis: .vertical, radius: 40, filterName: "box")).cropped(to: photo.extent)
    }

    /// `removeCachedImages()` (what `graph batch` calls after each file) drops a cached
    /// intermediate: the next render computes it again, to the same bytes; until then it is reused.
    func testRemovingCachedImagesDropsThemAndTheyComeBackTheSame() throws {
        let counter = Counter()
        let photo = try Image(buffer: makeTestBuffer(width: Self.width, height: Self.height, seed: 31))
        let image = photo.applying(CountingCopy(counter: counter)).insertingIntermediate(named: "kept", cache: true)
        let context = context()
        let first = try context.render(image, format: .rgbaf)
        XCTAssertEqual(counter.pixels, Self.width * Self.height)
        XCTAssertGreaterThanOrEqual(context.cachedImageBytes, Self.width * Self.height * 3 * 4, "at least 3 Float32 planes")
        _ = try context.render(image, format: .rgbaf)
        XCTAssertEqual(counter.pixels, Self.width * Self.height, "reused from the cache")
        context.removeCachedImages()
        XCTAssertEqual(context.cachedImageBytes, 0)
        let again = try context.render(image, format: .rgbaf)
        XCTAssertEqual(counter.pixels, 2 * Self.width * Self.height, "computed again")
        XCTAssertEqual(again.bytes, first.bytes)
    }

    func testComputedOnceWhateverTheTilesReach() throws {
        let once = Counter(), again = Counter()
        let fast = try context().render(try blurred(once, intermediate: true), format: .rgbaf)
        let slow = try context().render(try blurred(again, intermediate: false), format: .rgbaf)
        XCTAssertEqual(once.pixels, Self.width * Self.height, "the copy runs once per pixel")
        XCTAssertGreaterThan(again.pixels, 4 * Self.width * Self.height, "without it, every 32×32 tile copies its 112×112 reach")
        // The copy is stored in the working format either way (it is a pass): the same bytes.
        XCTAssertEqual(fast.bytes, slow.bytes)
        let reference = try ReferenceEvaluator().render(try blurred(Counter(), intermediate: true), rect: Rect(x: 0, y: 0, width: Double(Self.width), height: Double(Self.height)))
        assertClose(bottomUpPixels(fast), reference, tolerance: 1e-5)
    }

    /// An intermediate that is an area pass's result is written by the pass into the kept planes
    /// (no copy program runs), with the bytes of the copy in every working format.
    func testAnAreaPassWritesTheIntermediatesPlanesItself() throws {
        for format in [WorkingFormat.rgbaf, .rgbah] {
            let (fast, profile) = try context(format: format).renderWithProfile(try blurred(Counter(), intermediate: true), format: .rgbaf)
            let kept = try XCTUnwrap(profile.intermediates.values.first)
            guard case .areaPlanes? = kept.plan.stages[kept.plan.rootStage].rowKernel else {
                return XCTFail("the intermediate's output stage copies the pass's planes (\(format))")
            }
            XCTAssertEqual(kept.timings.units[kept.plan.rootStage], 0, "the copy program did not run")
            let slow = try context(format: format).render(try blurred(Counter(), intermediate: false), format: .rgbaf)
            XCTAssertEqual(fast.bytes, slow.bytes, "\(format)")
        }
    }

    func testSameBytesForEveryTileSizeAndThreadCount() throws {
        let image = try blurred(Counter(), intermediate: true)
        var reference: [UInt8]?
        for tile in [8, 13, 512] {
            for threads in [1, 3] {
                let bytes = try context(tileSize: tile, threads: threads, format: .rgbah).render(image, format: .rgba8).bytes
                if let reference { XCTAssertTrue(bytes == reference, "tile \(tile), \(threads) threads differ") } else { reference = bytes }
            }
        }
    }

    /// A grey, opaque intermediate keeps one plane, an opaque colour one three (the dump says so).
    func testKeepsThePlanesItsImageNeeds() throws {
        let photo = Image(buffer: try makeTestBuffer(width: Self.width, height: Self.height, seed: 32))
        let grey = try Kernel(source: "kernel vec4 grey(__sample s) { float v = s.g; return vec4(v, v, v, 1.0); }")
        let map = try Image.applying(grey, arguments: [.image(photo)]).insertingIntermediate(named: "map")
        let image = try Kernel(source: "kernel vec4 mix2(__sample a, __sample b) { return a * b.r; }")
        let mixed = try Image.applying(image, arguments: [.image(photo.insertingIntermediate(named: "photo")), .image(map)])
        let (buffer, profile) = try context().renderWithProfile(mixed, format: .rgbaf)
        let dump = try context().dumpWithProfile(mixed, format: .rgbaf)
        let kept = dump.programs.filter { $0.kind == "intermediate" }
        XCTAssertEqual(Set(kept.map(\.name)), ["map", "photo"])
        XCTAssertEqual(kept.first { $0.name == "map" }?.format, "RGBAf (grey: 1 plane)")
        XCTAssertEqual(kept.first { $0.name == "photo" }?.format, "RGBAf (opaque: 3 planes)")
        // Each lists the render that computes it (the grey kernel's program is among them).
        XCTAssertTrue(dump.programs.contains { $0.name.hasPrefix("grey(") }, "\(dump.programs.map(\.name))")
        let intermediates = profile.plan.stages.indices.filter { if case .processor = profile.plan.stages[$0].work { true } else { false } }
        XCTAssertEqual(intermediates.count, 2)
        XCTAssertEqual(Set(intermediates.map { profile.timings.peakBytes[$0] }), [Self.width * Self.height * 4, Self.width * Self.height * 12])
        assertClose(bottomUpPixels(buffer), try ReferenceEvaluator().render(mixed, rect: mixed.extent), tolerance: 1e-5)
    }

    /// Over a JPEG file in a streamed encode (the file decodes windowed, for the bands): the
    /// intermediate reads the whole file before the first band, and the file is the same.
    func testStreamedEncodeOfAFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("intermediate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("photo.jpg").path
        try Context().write(Image(buffer: try makeTestBuffer(width: Self.width, height: Self.height, seed: 33)), to: path)
        let context = self.context(tileSize: 64)
        let photo = try Image(contentsOf: path)
        let withIntermediate = try context.encodedData(try blurred(Counter(), intermediate: true, source: photo), format: .jpeg)
        let without = try context.encodedData(try blurred(Counter(), intermediate: false, source: try Image(contentsOf: path)), format: .jpeg)
        XCTAssertEqual(withIntermediate, without)
    }

    func testAnImageOfInfiniteExtentIsLeftAsItIs() throws {
        let clamped = Image(buffer: try makeTestBuffer(width: 4, height: 4, seed: 34)).clampedToExtent()
        XCTAssertTrue(clamped.insertingIntermediate().node === clamped.node)
    }
}
