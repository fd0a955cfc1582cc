import Foundation
import GraphCodecs
import GraphEngine
import XCTest
@testable import GraphCLI

/// The README cannot drift: its Swift snippets are the compiled ones in `ReadmeSnippets.swift` and
/// run here, its marked command block runs with bash, its `graph dump` sample is today's output,
/// every example recipe is listed (README and docs/recipes.md), and the completion scripts it
/// documents are generated.
final class ReadmeTests: XCTestCase {
    private let repository: String = {
        let file = #filePath
        return String(file[..<(file.range(of: "/Tests/")?.lowerBound ?? file.endIndex)])
    }()

    private func readme() throws -> String { try String(contentsOfFile: repository + "/README.md", encoding: .utf8) }

    /// The fenced blocks of `text` whose opening fence is exactly "```" + `language`.
    private func blocks(_ text: String, language: String) -> [[String]] {
        var result: [[String]] = [], current: [String]?
        for line in text.components(separatedBy: "\n") {
            if current == nil, line == "```" + language {
                current = []
            } else if current != nil, line == "```" {
                result.append(current ?? [])
                current = nil
            } else {
                current?.append(line)
            }
        }
        return result
    }

    /// The fenced block right after the line that contains `marker`.
    private func block(after marker: String, in text: String) throws -> [String] {
        let lines = text.components(separatedBy: "\n")
        let start = try XCTUnwrap(lines.firstIndex { $0.contains(marker) }, "README lacks the marker \(marker)")
        XCTAssertTrue(lines[start + 1].hasPrefix("```"), "a fenced block follows \(marker)")
        let end = try XCTUnwrap(lines[(start + 2)...].firstIndex(of: "```"))
        return Array(lines[(start + 2)..<end])
    }

    func testSwiftSnippetsAreTheCompiledOnes() throws {
        let snippets = blocks(try readme(), language: "swift")
        let compiled = try String(contentsOfFile: repository + "/Tests/GraphCLITests/ReadmeSnippets.swift", encoding: .utf8)
        let compiledLines = compiled.components(separatedBy: "\n")
        XCTAssertEqual(snippets.count, 5, "one ReadmeSnippets function per README Swift snippet")
        for (index, snippet) in snippets.enumerated() {
            let imports = snippet.filter { $0.hasPrefix("import ") }
            for line in imports { XCTAssertTrue(compiledLines.contains(line), "ReadmeSnippets.swift lacks \(line)") }
            var body = snippet.filter { !$0.hasPrefix("import ") }
            while body.first == "" { body.removeFirst() }
            while body.last == "" { body.removeLast() }
            let begin = try XCTUnwrap(compiledLines.firstIndex(of: "        // README snippet \(index + 1)"))
            let end = try XCTUnwrap(compiledLines.firstIndex(of: "        // end of README snippet \(index + 1)"))
            let copy = compiledLines[(begin + 1)..<end].map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : $0 }
            XCTAssertEqual(copy, body.map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) },
                           "README Swift snippet \(index + 1) differs from ReadmeSnippets.swift: edit both")
        }
    }

    /// Runs the snippets in a folder holding the files they name (photo.jpg, mask.png, look.json, IMG_0001.jpg,
    /// a depth photo as portrait.jpg and the iPhone HEIC as IMG_0001.HEIC) and checks what they wrote.
    func testSwiftSnippetsRun() throws {
        let heic = try BatchFixture.sharedTestData("depth/iphone13pro_pug_depth.heic")
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let context = Context()
        let examples = repository + "/Examples/recipes/"
        try context.write(try Image(contentsOf: examples + "photo.png"), to: folder.appendingPathComponent("photo.jpg").path)
        try FileManager.default.copyItem(atPath: examples + "mask.png", toPath: folder.appendingPathComponent("mask.png").path)
        try FileManager.default.copyItem(atPath: folder.appendingPathComponent("photo.jpg").path,
                                         toPath: folder.appendingPathComponent("IMG_0001.jpg").path)
        try FileManager.default.copyItem(atPath: heic, toPath: folder.appendingPathComponent("IMG_0001.HEIC").path)
        let map = (0..<(64 * 48)).map { Float(0.2 + 0.6 * Double($0 % 64) / 63) }
        var options = ImageWriteOptions(quality: 95)
        options.auxiliaryImages = AuxiliaryImages(depthData: DepthData(
            map: Image(buffer: try ImageBuffer(width: 64, height: 48, format: .grayf, colorSpace: nil, bytes: map.withUnsafeBytes { Array($0) })),
            kind: .disparity, accuracy: .relative))
        try context.write(try Image(contentsOf: folder.appendingPathComponent("photo.jpg").path).cropped(to: Rect(x: 0, y: 0, width: 64, height: 48)),
                          to: folder.appendingPathComponent("portrait.jpg").path, options: options)
        let frame = [UInt8](repeating: 128, count: 1920 * 1080 * 3 / 2)

        let previous = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(folder.path))
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        try ReadmeSnippets.librarySnippet()
        try """
            {"version": 1,
             "images": {"photo": {"file": "photo.jpg"}, "sepia": {"filter": "CISepiaTone", "inputs": {"inputImage": {"image": "photo"}}}},
             "outputs": [{"image": "sepia", "file": "look.jpg"}]}
            """.write(toFile: "look.json", atomically: true, encoding: .utf8)
        try ReadmeSnippets.recipeSnippet(context: context)
        try ReadmeSnippets.yuvSnippet(context: context, nv12: frame)
        try ReadmeSnippets.metadataSnippet(context: context)
        try ReadmeSnippets.depthSnippet(context: context)

        XCTAssertEqual(try ImageFile.info(path: "graded.jpg").width, 160)
        XCTAssertEqual(try ImageFile.info(path: "look.jpg").width, 160)
        XCTAssertEqual(try ImageFile.info(path: "sepia.jpg").width, 160)
        let out = try ImageFile.info(path: "out.jpg")
        XCTAssertEqual([out.width, out.height], [64, 48])
        XCTAssertEqual(try DepthData(contentsOf: "out.jpg").kind, .disparity, "the depth map went with the edit")
    }

    /// The README's marked command block, run with bash from the repository root with the built
    /// `graph` first on PATH; every command must succeed.
    func testCommandBlockRuns() throws {
        let commands = try block(after: "<!-- ReadmeTests runs this block with bash", in: try readme())
        XCTAssertGreaterThan(commands.filter { $0.hasPrefix("graph ") }.count, 5)
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        let graph = products + "/graph"
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: graph), "the graph executable beside the tests: \(graph)")
        let bash = Process()
        bash.executableURL = URL(fileURLWithPath: "/bin/bash")
        bash.arguments = ["-euo", "pipefail", "-c", commands.joined(separator: "\n")]
        bash.currentDirectoryURL = URL(fileURLWithPath: repository)
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = products + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        bash.environment = environment
        let errors = Pipe()
        bash.standardError = errors
        bash.standardOutput = FileHandle.nullDevice
        try bash.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        bash.waitUntilExit()
        XCTAssertEqual(bash.terminationStatus, 0, message)
    }

    func testDumpSampleIsTodaysOutput() throws {
        let sample = try block(after: "<!-- ReadmeTests checks this is what `graph dump Examples/recipes/color-chain.json", in: try readme())
        // A fresh process, as the README's reader runs it: node numbers count from 1 in each process.
        let graph = Process()
        graph.executableURL = URL(fileURLWithPath: URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path + "/graph")
        graph.arguments = ["dump", repository + "/Examples/recipes/color-chain.json", "--stage", "optimized,programs"]
        let output = Pipe()
        graph.standardOutput = output
        try graph.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        graph.waitUntilExit()
        XCTAssertEqual(graph.terminationStatus, 0)
        XCTAssertEqual(sample.joined(separator: "\n") + "\n", printed, "update the README's graph dump sample")
    }

    func testEveryExampleRecipeIsListed() throws {
        let recipes = try FileManager.default.contentsOfDirectory(atPath: repository + "/Examples/recipes").filter { $0.hasSuffix(".json") }
        XCTAssertGreaterThan(recipes.count, 8)
        let readme = try readme()
        let guide = try String(contentsOfFile: repository + "/docs/recipes.md", encoding: .utf8)
        for recipe in recipes {
            XCTAssertTrue(readme.contains("`\(recipe)`"), "README.md does not list \(recipe)")
            XCTAssertTrue(guide.contains("| `\(recipe)` |"), "docs/recipes.md's examples table lacks \(recipe)")
        }
    }

    func testCompletionScriptsAreGenerated() throws {
        let readme = try readme()
        for shell in ["bash", "zsh", "fish"] {
            XCTAssertTrue(readme.contains("graph --generate-completion-script \(shell)"), shell)
            let script = Graph.runInProcess(["--generate-completion-script", shell])
            XCTAssertEqual(script.status, 0, script.err)
            for subcommand in ["run", "apply", "dump", "filters", "info", "batch"] {
                XCTAssertTrue(script.out.contains(subcommand), "\(shell) completion lacks \(subcommand)")
            }
        }
    }
}
