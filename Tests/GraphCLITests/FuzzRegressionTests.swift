import Foundation
import GraphRecipes
import XCTest
@testable import GraphCLI

/// Recipes the fuzz targets or the issue's bad-recipe runs crashed `graph run` with: each now fails
/// with one clear line, exit status 2 and no output file. Fuzz-found inputs are also files of the
/// recipe corpus (Fuzz/corpus/recipe/regression-*).
final class FuzzRegressionTests: XCTestCase {
    private func run(_ recipe: String) throws -> (status: Int32, err: String, wrote: Bool) {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = Graph.runInProcess(["run", try writeRecipe(recipe, in: folder)])
        return (result.status, result.err, exists(folder, "out.png"))
    }

    private func transformed(_ transform: String) -> String {
        #"{"version": 1, "images": {"src": {"file": "in.png"}, "out": {"filter": "CIAffineTransform", "inputs": {"inputImage": {"image": "src"}, "inputTransform": \#(transform)}}}, "outputs": [{"image": "out", "file": "out.png"}]}"#
    }

    /// recipe: `"\u-Def"` parsed as the number -0xDEF and trapped converting it to a scalar.
    func testUnicodeEscapeWithASignIsASyntaxError() throws {
        let result = try run(#"{"version": 1, "description": "\uDefff\u-Deff\uDefLeff\uDeef", "images": {}, "outputs": []}"#)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains(#"malformed JSON: line 1, column 41: invalid \u escape: expected four hex digits"#), result.err)
        XCTAssertFalse(result.wrote)
        XCTAssertThrowsError(try JSONParser.parse(#""\u+0041""#))
        XCTAssertThrowsError(try JSONParser.parse(#""\u004""#))
        // Escapes that are valid still decode: a surrogate pair, and an unpaired high surrogate
        // (U+FFFD) followed by an escape read on its own.
        XCTAssertEqual(try JSONParser.parse(#""\uD83D\uDE00 \u00e9""#), .string("\u{1F600} é"))
        XCTAssertEqual(try JSONParser.parse(#""\uD800\u0041""#), .string("\u{FFFD}A"))
    }

    /// The issue's finding: a transform scaling by 1e17 made an extent of 1.6e19 pixels, whose
    /// conversion to Int trapped in PixelRect.init (signal 4). Extents past the coordinates a
    /// render supports are an error naming the image and its extent.
    func testHugeTransformIsAnErrorNamingTheImage() throws {
        for transform in ["[1e17, 0, 0, 1, 0, 0]", "[1, 0, 0, 1e300, 0, 0]", "[1, 0, 0, 1, 9223372036854775808, 0]",
                          "[1, 0, 0, 1, 8388605, 0]"] {
            let result = try run(transformed(transform))
            XCTAssertEqual(result.status, 2, transform)
            XCTAssertTrue(result.err.hasPrefix(#"graph: error: outputs[0].image: image "out" "#), "\(transform): \(result.err)")
            XCTAssertEqual(result.err.split(separator: "\n").count, 1, result.err)
            XCTAssertFalse(result.wrote, transform)
        }
        let beyond = try run(transformed("[1e17, 0, 0, 1, 0, 0]"))
        XCTAssertTrue(beyond.err.contains("has extent [0 0 8e+17 6], beyond ±8388608 pixels, the largest coordinate a render supports; crop it"), beyond.err)
        let vanishing = try run(transformed("[1e-300, 0, 0, 1, 0, 0]"))
        XCTAssertEqual(vanishing.status, 2)
        XCTAssertTrue(vanishing.err.contains("outputs[0]: nothing to render: the rect [0 0 8e-300 6] is empty"), vanishing.err)
        // Within the limit it renders.
        let near = try run(transformed("[1, 0, 0, 1, 8388600, -8388600]"))
        XCTAssertEqual(near.status, 0, near.err)
    }

    /// A chain of 10,000 filters (the issue's finding: it overflowed the stack, SIGSEGV) builds and
    /// renders, on a 1 MiB thread.
    func testChainOfTenThousandFiltersRuns() throws {
        var images = [#""i0": {"file": "in.png"}"#]
        for index in 1...10_000 {
            let filter = index % 2 == 0 ? "CIColorInvert" : "CIExposureAdjust"
            images.append(#""i\#(index)": {"filter": "\#(filter)", "inputs": {"inputImage": {"image": "i\#(index - 1)"}}}"#)
        }
        let recipe = #"{"version": 1, "images": {\#(images.joined(separator: ", "))}, "outputs": [{"image": "i10000", "file": "out.png"}]}"#
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try writeRecipe(recipe, in: folder)
        let outcome = StatusBox()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            outcome.set(Graph.runInProcess(["run", path]).status)
            done.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
        done.wait()
        XCTAssertEqual(outcome.get(), 0)
        XCTAssertTrue(exists(folder, "out.png"))
    }
}

private final class StatusBox: @unchecked Sendable {
    private let lock = NSLock()
    private var status: Int32 = -1
    func set(_ value: Int32) { lock.lock(); status = value; lock.unlock() }
    func get() -> Int32 { lock.lock(); defer { lock.unlock() }; return status }
}
