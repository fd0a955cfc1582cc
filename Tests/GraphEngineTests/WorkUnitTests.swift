import XCTest
@testable import GraphCPU
@testable import GraphEngine

/// Work units: `tileSize` tiles, smaller where a tile would keep far more of an image than its own
/// size (a large shrink loads its whole input span into a worker's Float32 scratch) or where a
/// unit's scratch is over the budget (many full-size stages); scratch left by a larger, different
/// render is freed, and kept for the same one.
final class WorkUnitTests: XCTestCase {
    func context(tileSize: Int) -> Context {
        var options = ContextOptions()
        options.tileSize = tileSize
        options.threads = 2
        return Context(options: options)
    }

    /// A 0.05 Lanczos shrink of a 1200×900 photo into 60×45 pixels: with 64 px tiles one unit would
    /// load the whole photo (about 300 tiles' worth); the units are 32 px, each keeping about a
    /// quarter of it, and the pixels are those of one unit (or of any tile size).
    func testALargeShrinkGetsSmallerUnitsWithTheSameBytes() throws {
        let photo = Image(buffer: try makeTestBuffer(width: 1200, height: 900, seed: 7))
        let shrunk = try photo.applyingFilter("CILanczosScaleTransform", parameters: ["inputScale": .number(0.05)])
        let rect = PixelRect(shrunk.extent)
        XCTAssertEqual(rect, PixelRect(x: 0, y: 0, width: 60, height: 45))
        let small = context(tileSize: 64)
        let executor = small.backend(for: try small.plan(shrunk, rect: rect).plan)
        let units = executor.workUnits(rect)
        XCTAssertEqual(units.count, 4, "\(units)")
        XCTAssertEqual(units.map { max($0.width, $0.height) }.max(), 32, "\(units)")
        XCTAssertLessThan(units.map { executor.workerScratchBytes(unit: $0) }.max() ?? 0,
                          executor.workerScratchBytes(unit: rect) / 2)
        let bytes = try small.render(shrunk, format: .rgba8).bytes
        XCTAssertTrue(bytes == (try context(tileSize: 4096).render(shrunk, format: .rgba8).bytes))
    }

    /// Margins do not make units smaller: a photo shrunk a hundredfold, blurred, and enlarged back
    /// has every tile read a few small pixels around its own, each spanning 100 of the photo's, so
    /// a smaller tile reads about as much of the photo; the tiles stay.
    func testUnitsStayWhenMarginsDominateTheRead() throws {
        let photo = Image(buffer: try makeTestBuffer(width: 1000, height: 800, seed: 8))
        let small = try photo.applyingFilter("CILanczosScaleTransform", parameters: ["inputScale": .number(0.01)])
        let blurred = try small.clampedToExtent().applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(2)])
        let enlarged = blurred.transformed(by: AffineTransform(scaleX: 100, y: 100)).cropped(to: photo.extent)
        let rect = PixelRect(photo.extent)
        let context = context(tileSize: 256)
        let executor = context.backend(for: try context.plan(enlarged, rect: rect).plan)
        XCTAssertGreaterThan(executor.workerScratchBytes(unit: PixelRect(x: 256, y: 256, width: 256, height: 256)),
                             Executor.readFactor * 256 * 256 * 4, "a tile keeps more than the budget")
        XCTAssertEqual(executor.workUnits(rect).map { $0.width }.max(), 256)
    }

    /// Eight blurs of a photo summed: eight full-size stages live at once, over 12 MiB of half
    /// planes per 512 px unit. Units get narrower (the width halved first) until they keep under the
    /// budget, and the bytes are those of small tiles.
    func manyStages(_ photo: Image) throws -> Image {
        var sum: Image?
        for k in 1...8 {
            let blurred = try photo.clampedToExtent()
                .applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(Double(k) * 0.5)]).cropped(to: photo.extent)
            sum = try sum.map { try blurred.applyingFilter("CIAdditionCompositing", parameters: ["inputBackgroundImage": .image($0)]) } ?? blurred
        }
        return try XCTUnwrap(sum)
    }

    func testManyFullSizeStagesGetNarrowerUnitsWithTheSameBytes() throws {
        let photo = Image(buffer: try makeTestBuffer(width: 1100, height: 1030, seed: 9))
        let image = try manyStages(photo)
        let rect = PixelRect(photo.extent)
        let big = context(tileSize: 512)
        let executor = big.backend(for: try big.plan(image, rect: rect).plan)
        XCTAssertGreaterThan(executor.workerScratchBytes(unit: PixelRect(x: 256, y: 256, width: 512, height: 512)),
                             Executor.scratchBudget, "a 512 px unit is over the budget")
        let units = executor.workUnits(rect)
        XCTAssertEqual(units.map(\.width).max(), 256, "the width halved first: \(units.prefix(4))")
        XCTAssertLessThanOrEqual(units.map { executor.workerScratchBytes(unit: $0) }.max() ?? 0, Executor.scratchBudget)
        let bytes = try big.render(image, format: .rgba8).bytes
        XCTAssertTrue(bytes == (try context(tileSize: 64).render(image, format: .rgba8).bytes))
    }

    /// A context renders a graph of many stages, then a single blur: the blur's render frees the
    /// planes the first one left in the workers' scratch; rendering the blur again keeps its own.
    func testScratchOfALargerRenderIsFreedAndTheSameRendersIsKept() throws {
        let photo = Image(buffer: try makeTestBuffer(width: 900, height: 700, seed: 10))
        let blur = try photo.clampedToExtent().applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(1)])
            .cropped(to: photo.extent)
        let context = context(tileSize: 256)
        _ = try context.render(try manyStages(photo), format: .rgba8)
        let afterMany = context.scratchPool.heldBytes
        let bytes = try context.render(blur, format: .rgba8).bytes
        let afterBlur = context.scratchPool.heldBytes
        _ = try context.render(blur, format: .rgba8)
        XCTAssertEqual(context.scratchPool.heldBytes, afterBlur, "the same render reuses its scratch")
        let fresh = self.context(tileSize: 256)
        XCTAssertTrue(bytes == (try fresh.render(blur, format: .rgba8).bytes))
        let blurAlone = fresh.scratchPool.heldBytes
        XCTAssertGreaterThan(afterMany, 2 * blurAlone)
        XCTAssertLessThanOrEqual(afterBlur, 2 * blurAlone, "held \(afterMany), then \(afterBlur) bytes; the blur alone \(blurAlone)")
    }
}
