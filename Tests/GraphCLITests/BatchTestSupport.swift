import Foundation
import GraphEngine
import XCTest
@testable import GraphCLI

/// Inputs, recipes and log reading for the `graph batch` tests.
enum BatchFixture {
    /// A sepia recipe over `placeholder.png` (never read: every input replaces it).
    static let sepiaRecipe = #"""
    {"version": 1,
     "images": {"photo": {"file": "placeholder.png"},
                "toned": {"filter": "CISepiaTone", "inputs": {"inputImage": {"image": "photo"}, "inputIntensity": 0.8}}},
     "outputs": [{"image": "toned", "file": "out/toned.png"}]}
    """#

    /// `count` small images of different sizes and pixels under `folder`/`sub`, PNG and JPEG
    /// alternately; returns their paths.
    @discardableResult
    static func makeInputs(_ count: Int, in folder: URL, sub: String = "in") throws -> [String] {
        let directory = folder.appendingPathComponent(sub)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let context = Context()
        return try (0..<count).map { index in
            let width = 8 + index % 5, height = 6 + index % 3
            var bytes: [UInt8] = []
            for y in 0..<height {
                for x in 0..<width {
                    bytes += [UInt8((x * 29 + index * 11) % 256), UInt8((y * 37 + index * 5) % 256), UInt8((x * y + index * 23) % 256)]
                }
            }
            let buffer = try ImageBuffer(width: width, height: height, format: .rgb8, bytes: bytes)
            let path = directory.appendingPathComponent(String(format: "img%03d.%@", index, index % 2 == 0 ? "png" : "jpg")).path
            try context.write(Image(buffer: buffer), to: path)
            return path
        }
    }

    /// The lines of a JSON-lines log: the entries by input, and the summary.
    static func readLog(_ text: String) throws -> (entries: [String: [String: Any]], summary: [String: Any]) {
        var entries: [String: [String: Any]] = [:]
        var summary: [String: Any] = [:]
        for line in text.split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                XCTFail("not a JSON object: \(line)")
                continue
            }
            if let totals = object["summary"] as? [String: Any] {
                summary = totals
            } else if let input = object["input"] as? String {
                XCTAssertNil(entries[input], "two lines for \(input)")
                entries[input] = object
            }
        }
        return (entries, summary)
    }

    static func readLog(at path: String) throws -> (entries: [String: [String: Any]], summary: [String: Any]) {
        try readLog(String(contentsOfFile: path, encoding: .utf8))
    }

    /// `<repo>/../shared/testdata/<sub>`; skips the test when the shared data is absent.
    static func sharedTestData(_ sub: String) throws -> String {
        let file = #filePath
        let tests = String(file[..<(file.range(of: "/Tests/")?.lowerBound ?? file.endIndex)])
        let path = URL(fileURLWithPath: tests + "/../shared/testdata/" + sub).standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw XCTSkip("shared test data not found at \(path) (expected shared/ beside the repository)")
        }
        return path
    }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }
}
