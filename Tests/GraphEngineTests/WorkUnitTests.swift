import XCTest
@testable import GraphCPU
@testable import GraphEngine

/// Work units: `tileSize` tiles, smaller where a tile would keep far more of an image than its own
/// size (a large shrink loads its whole input span into a worker's Float32 scratch).
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
}
