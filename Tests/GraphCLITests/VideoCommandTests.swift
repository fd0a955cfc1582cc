import Foundation
import XCTest
@testable import GraphCLI

/// `graph video`'s command line: errors name what is wrong, and no output file appears.
/// (Rendering itself is GraphVideoTests', on a clip those tests make.)
final class VideoCommandTests: XCTestCase {
    private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func testBadInputsAreOneLineErrorsAndWriteNothing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("graph-video-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let recipe = repository.appendingPathComponent("Examples/video/backdrop.json").path
        let out = folder.appendingPathComponent("out.mp4").path
        let notVideo = folder.appendingPathComponent("notes.mp4").path
        try Data("not a video".utf8).write(to: URL(fileURLWithPath: notVideo))
        let cases: [([String], String)] = [
            (["--input", folder.appendingPathComponent("missing.mp4").path, "--depth", folder.appendingPathComponent("missing.mp4").path],
             "missing.mp4: cannot open the file: No such file or directory"),
            (["--input", notVideo, "--depth", notVideo], "notes.mp4: cannot open the file: Invalid data found when processing input"),
            (["--input", notVideo], "the recipe reads depth (depth); give a depth stream (--depth)"),
            (["--input", notVideo, "--depth", notVideo, "--depth-kind", "distance"], "--depth-kind: expected depth or disparity"),
        ]
        for (arguments, message) in cases {
            let result = Graph.runInProcess(["video", recipe] + arguments + ["--out", out])
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertTrue(result.err.contains(message), "\(arguments): \(result.err)")
            XCTAssertEqual(result.err.split(separator: "\n").count, 1, result.err)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["notes.mp4"], "\(arguments)")
        }
    }
}
