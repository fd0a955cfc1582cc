import Foundation
import GraphCodecs
import GraphEngine
import Kernels
import XCTest
@testable import GraphCLI

/// `graph run`, `dump`, `filters` and `info` on good input.
final class RunCommandTests: XCTestCase {
    private let hueRecipe = #"""
    {"version": 1,
     "images": {"src": {"file": "in.png"},
                "out": {"filter": "CIHueAdjust", "inputs": {"inputImage": {"image": "src"}, "inputAngle": 0.5}}},
     "outputs": [{"image": "out", "file": "out.png"}]}
    """#

    func testRunWritesOutputAndSummary() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try writeRecipe(hueRecipe, in: folder)
        let result = Graph.runInProcess(["run", path, "--set", "out.inputAngle=1.5", "--threads", "2", "--working-format", "RGBAf"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("out.png 8x6 PNG"), result.out)
        let written = try Image(contentsOf: folder.appendingPathComponent("out.png").path)
        XCTAssertEqual(written.extent, Rect(x: 0, y: 0, width: 8, height: 6))
    }

    func testOutputOptionRedirects() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try writeRecipe(hueRecipe, in: folder)
        let target = folder.appendingPathComponent("sub/redirected.jpg").path
        let result = Graph.runInProcess(["run", path, "-o", target])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: target))
        XCTAssertFalse(exists(folder, "out.png"))
    }

    func testSetOverridesAnImageFile() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let other = Image(color: [0, 0, 1, 1]).cropped(to: Rect(x: 0, y: 0, width: 3, height: 2))
        try Context().write(other, to: folder.appendingPathComponent("other.png").path)
        let path = try writeRecipe(hueRecipe, in: folder)
        let result = Graph.runInProcess(["run", path, "--set", "src.file=other.png"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("out.png 3x2 PNG"), result.out)
    }

    func testRunWithDumpAndProfile() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try writeRecipe(hueRecipe, in: folder)
        let result = Graph.runInProcess(["run", path, "--dump", "initial,programs", "--profile"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("initial graph render"), result.out)
        XCTAssertTrue(result.out.contains("timing: total="), result.out)
    }

    func testDumpFormats() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try writeRecipe(hueRecipe, in: folder)
        let text = Graph.runInProcess(["dump", path])
        XCTAssertEqual(text.status, 0, text.err)
        XCTAssertTrue(text.out.contains("optimized graph render"), text.out)
        XCTAssertFalse(exists(folder, "out.png"), "dump must not write")
        let json = Graph.runInProcess(["dump", path, "--format", "json"])
        XCTAssertEqual(json.status, 0, json.err)
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(json.out.utf8)))
        let dot = Graph.runInProcess(["dump", path, "--format", "dot", "--profile"])
        XCTAssertTrue(dot.out.hasPrefix("digraph programs {"), dot.out)
        let bad = Graph.runInProcess(["dump", path, "--stage", "initial,nope"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.err.contains(#"--stage: unknown stage "nope""#), bad.err)
    }

    func testFilters() throws {
        let all = Graph.runInProcess(["filters"])
        XCTAssertEqual(all.status, 0)
        let lines = all.out.split(separator: "\n")
        XCTAssertEqual(lines.count, FilterRegistry.standard.filters.count, "one line per filter")
        let sepia = try XCTUnwrap(lines.first { $0.hasPrefix("CISepiaTone ") })
        XCTAssertTrue(sepia.hasSuffix(try FilterRegistry.standard.descriptor(named: "CISepiaTone").summary), String(sepia))
        // A word searches names, categories and summaries; --category narrows to a category.
        let depth = Graph.runInProcess(["filters", "depth"])
        XCTAssertEqual(depth.status, 0, depth.err)
        let depthNames = depth.out.split(separator: "\n").map { String($0.split(separator: " ").first ?? "") }
        for name in ["CIDepthBlurEffect", "CIDepthToDisparity", "CIDisparityToDepth", "GEDepthDollyZoom"] {
            XCTAssertTrue(depthNames.contains(name), "graph filters depth lacks \(name): \(depth.out)")
        }
        XCTAssertFalse(depthNames.contains("CISepiaTone"))
        let blurs = Graph.runInProcess(["filters", "--category", "blur"])
        let blurNames = blurs.out.split(separator: "\n").map { String($0.split(separator: " ").first ?? "") }
        XCTAssertEqual(Set(blurNames), Set(FilterRegistry.standard.filters.filter { $0.categories.contains("CICategoryBlur") }.map(\.name)))
        XCTAssertTrue(blurNames.contains("CIGaussianBlur"))
        let both = Graph.runInProcess(["filters", "depth", "--category", "CICategoryBlur"])
        XCTAssertEqual(both.out.split(separator: "\n").map { String($0.split(separator: " ").first ?? "") }, ["CIDepthBlurEffect"])
        let none = Graph.runInProcess(["filters", "--category", "nope"])
        XCTAssertEqual(none.status, 2)
        XCTAssertTrue(none.err.hasPrefix("graph: error: --category: no category contains \"nope\"; the categories are CICategoryBlur"), none.err)
        let nothing = Graph.runInProcess(["filters", "xyzzy"])
        XCTAssertEqual(nothing.status, 2)
        XCTAssertTrue(nothing.err.contains(#"no filter has "xyzzy" in its name, categories or summary"#), nothing.err)
        // An optional image input says so instead of a default of "image".
        let blur = Graph.runInProcess(["filters", "CIDepthBlurEffect"])
        XCTAssertTrue(blur.out.contains("  inputMatteImage  image  optional  map of the photo: matte"), blur.out)
        XCTAssertFalse(blur.out.contains("default \"image\""), blur.out)
        let blurJSON = Graph.runInProcess(["filters", "CIDepthBlurEffect", "--format", "json"])
        XCTAssertTrue(blurJSON.out.contains("\"optional\": true"), blurJSON.out)
        let one = Graph.runInProcess(["filters", "CIColorControls"])
        XCTAssertTrue(one.out.contains("inputSaturation  number  default 1  range 0...inf  slider 0...2"), one.out)
        let json = Graph.runInProcess(["filters", "CIColorMatrix", "--format", "json"])
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(json.out.utf8)))
        XCTAssertTrue(json.out.contains("\"inputRVector\""), json.out)
        let unknown = Graph.runInProcess(["filters", "CISepiaTon"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.err.contains(#"did you mean "CISepiaTone"?"#), unknown.err)
        // info and filters take text or json, and their help says only that.
        for command in ["info", "filters"] {
            let help = Graph.runInProcess(["help", command])
            XCTAssertTrue(help.out.contains("(values: text, json; default: text)"), help.out)
            XCTAssertFalse(help.out.contains("dot"), help.out)
        }
        let dot = Graph.runInProcess(["filters", "--format", "dot"])
        XCTAssertEqual(dot.status, 2)
    }

    /// Output keys reach the encoder: the files say what the recipe asked for.
    func testJPEGOutputSubsamplingAndProgressive() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try writeRecipe(#"""
        {"version": 1, "images": {"src": {"file": "in.png"}},
         "outputs": [{"image": "src", "file": "fine.jpg", "subsampling": "4:4:4", "progressive": true, "quality": 95},
                     {"image": "src", "file": "plain.jpg"},
                     {"image": "src", "file": "wide.jpg", "subsampling": "4:2:2"}]}
        """#, in: folder)
        let result = Graph.runInProcess(["run", path])
        XCTAssertEqual(result.status, 0, result.err)
        let fine = try ImageFile.info(path: folder.appendingPathComponent("fine.jpg").path).metadata
        XCTAssertEqual(fine.jpegSubsampling, .s444)
        XCTAssertTrue(fine.jpegProgressive)
        let plain = try ImageFile.info(path: folder.appendingPathComponent("plain.jpg").path).metadata
        XCTAssertEqual(plain.jpegSubsampling, .s420)
        XCTAssertFalse(plain.jpegProgressive)
        let wide = try ImageFile.info(path: folder.appendingPathComponent("wide.jpg").path).metadata
        XCTAssertEqual(wide.jpegSubsampling, .s422)
    }

    func testInfo() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("in.png").path
        let text = Graph.runInProcess(["info", file])
        XCTAssertEqual(text.status, 0, text.err)
        XCTAssertTrue(text.out.contains("format: PNG"), text.out)
        XCTAssertTrue(text.out.contains("size: 8x6"), text.out)
        let json = Graph.runInProcess(["info", file, "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
        XCTAssertEqual(object?["width"] as? Int, 8)
        let missing = Graph.runInProcess(["info", folder.appendingPathComponent("none.png").path])
        XCTAssertEqual(missing.status, 2)
    }
}
