import Foundation
import GraphEngine
import XCTest
@testable import GraphCLI

/// Every recipe in Examples/recipes runs as shipped and writes outputs of the right size.
final class ExampleRecipeTests: XCTestCase {
    /// Output file -> expected size.
    private let expected: [String: (Int, Int)] = [
        "color-chain.png": (160, 120), "vintage.png": (160, 120), "exposure-gamma.png": (160, 120),
        "blur-clamp.png": (160, 120), "two-outputs-inverted.png": (160, 120), "two-outputs-small.jpg": (80, 60),
        "geometry.png": (240, 200), "custom-kernel.png": (160, 120), "yuv-frame.png": (160, 120),
        "looks.png": (160, 120),
    ]

    func testEveryExampleRecipe() throws {
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/recipes")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("graph-examples-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let names = try FileManager.default.contentsOfDirectory(atPath: examples.path).sorted()
        for name in names where name.hasSuffix(".json") || name.hasSuffix(".png") || name.hasSuffix(".cikernel") || name.hasSuffix(".nv12")
            || name.hasSuffix(".cube") {
            try FileManager.default.copyItem(at: examples.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let recipes = names.filter { $0.hasSuffix(".json") }
        XCTAssertGreaterThanOrEqual(recipes.count, 6)
        for recipe in recipes {
            let result = Graph.runInProcess(["run", folder.appendingPathComponent(recipe).path])
            XCTAssertEqual(result.status, 0, "\(recipe): \(result.err)")
        }
        for (file, size) in expected {
            let path = folder.appendingPathComponent("output/\(file)").path
            let image = try Image(contentsOf: path)
            XCTAssertEqual(image.extent, Rect(x: 0, y: 0, width: Double(size.0), height: Double(size.1)), file)
        }
    }
}
