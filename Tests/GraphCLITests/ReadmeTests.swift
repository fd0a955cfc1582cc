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

    /// The README's Swift blocks other than its Package.swift example.
    private func swiftSnippets() throws -> [[String]] {
        blocks(try readme(), language: "swift").filter { !($0.first ?? "").hasPrefix("// swift-tools-version") }
    }

    func testSwiftSnippetsAreTheCompiledOnes() throws {
        let snippets = try swiftSnippets()
        let compiled = try String(contentsOfFile: repository + "/Tests/GraphCLITests/ReadmeSnippets.swift", encoding: .utf8)
        let compiledLines = compiled.components(separatedBy: "\n")
        XCTAssertEqual(snippets.count, 6, "one ReadmeSnippets function per README Swift snippet")
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
        try ReadmeSnippets.depthBlurSnippet()
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

        let blurred = try ImageFile.info(path: "blurred.jpg")
        XCTAssertEqual([blurred.width, blurred.height], [64, 48], "CIDepthBlurEffect keeps the photo's size")
        XCTAssertEqual(try ImageFile.info(path: "graded.jpg").width, 160)
        XCTAssertEqual(try ImageFile.info(path: "look.jpg").width, 160)
        XCTAssertEqual(try ImageFile.info(path: "sepia.jpg").width, 160)
        // Depth data and auxiliary images print graph info's lines.
        XCTAssertEqual("\(try DepthData(contentsOf: "portrait.jpg"))",
                       "disparity 64x48, relative, stored disparity 0.2...0.8, Apple JPEG (MPF), not filtered, orientation 1")
        let auxiliary = "\(try DepthPhoto(contentsOf: "portrait.jpg").auxiliaryImages)"
        XCTAssertTrue(auxiliary.hasPrefix("[disparity, MPF image 2 at "), auxiliary)
        XCTAssertTrue(auxiliary.contains(", 64x48 ") && auxiliary.hasSuffix("no calibration]"), auxiliary)
        XCTAssertFalse(auxiliary.contains("AuxiliaryImageInfo("), "not the reflection dump")
        XCTAssertTrue("\(try DepthPhoto(contentsOf: "portrait.jpg"))".contains("\nauxiliary image: disparity, MPF image 2"))
        let out = try ImageFile.info(path: "out.jpg")
        XCTAssertEqual([out.width, out.height], [64, 48])
        XCTAssertEqual(try DepthData(contentsOf: "out.jpg").kind, .disparity, "the depth map went with the edit")
    }

    /// The README's Package.swift example names products this package has, under the package name
    /// SwiftPM gives the URL it shows (its last path component), and says to build in release.
    func testPackageSnippetNamesRealProducts() throws {
        let package = try XCTUnwrap(blocks(try readme(), language: "swift").first { ($0.first ?? "").hasPrefix("// swift-tools-version") })
        let manifest = try String(contentsOfFile: repository + "/Package.swift", encoding: .utf8)
        let text = package.joined(separator: "\n")
        let url = try XCTUnwrap(text.firstMatch(of: /\.package\(url: "([^"]+)"/)?.1)
        let identity = String(url.split(separator: "/").last ?? "").replacingOccurrences(of: ".git", with: "")
        XCTAssertEqual(identity, "GraphEngine")
        let products = text.matches(of: /\.product\(name: "(\w+)", package: "(\w+)"\)/)
        XCTAssertEqual(products.count, 2, text)
        for product in products {
            XCTAssertTrue(manifest.contains(".library(name: \"\(product.1)\""), "Package.swift has no library \(product.1)")
            XCTAssertEqual(String(product.2), identity, "the package name is the URL's last path component")
        }
        XCTAssertTrue(try readme().contains("swift build -c release"), "the README says to build in release")
    }

    /// No Markdown file of the repository links or points into `../shared` (a clone does not have
    /// it), and every relative link of theirs names a file or folder that exists.
    func testDocumentationStaysInTheRepository() throws {
        let files = try markdownFiles()
        XCTAssertGreaterThan(files.count, 6)
        XCTAssertTrue(files.contains("docs/depth-formats.md"))
        var checkedLinks = 0
        for file in files {
            let text = try String(contentsOfFile: repository + "/" + file, encoding: .utf8)
            XCTAssertFalse(text.contains("](../shared") || text.contains("`../shared/reference"), "\(file) links into ../shared")
            let folder = (file as NSString).deletingLastPathComponent
            for match in text.matches(of: /\]\(([^)\s]+)\)/) {
                let target = String(match.1)
                guard !target.contains("://"), !target.hasPrefix("#"), !target.hasPrefix("mailto:") else { continue }
                let path = String(target.split(separator: "#", maxSplits: 1).first ?? "")
                let resolved = URL(fileURLWithPath: repository + "/" + folder).appendingPathComponent(path).standardizedFileURL.path
                XCTAssertTrue(resolved.hasPrefix(repository + "/"), "\(file): \(target) leaves the repository")
                XCTAssertTrue(FileManager.default.fileExists(atPath: resolved), "\(file): \(target) does not exist")
                checkedLinks += 1
            }
            if text.contains("../shared") {
                // A mention (a default path of scripts) must say what that folder is.
                XCTAssertTrue(text.contains("beside the repository"), "\(file) mentions ../shared without saying what it is")
            }
        }
        XCTAssertGreaterThan(checkedLinks, 12)
    }

    /// The Markdown files a reader of a clone sees (paths relative to the repository).
    private func markdownFiles() throws -> [String] {
        var found: [String] = []
        let skipped: Set<String> = [".build", ".git", ".swiftpm", "output", "node_modules"]
        guard let walker = FileManager.default.enumerator(atPath: repository) else { return [] }
        while let path = walker.nextObject() as? String {
            let name = (path as NSString).lastPathComponent
            if skipped.contains(name) || name.hasPrefix(".build") {
                walker.skipDescendants()
            } else if name.hasSuffix(".md") {
                found.append(path)
            }
        }
        return found.sorted()
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

    /// Every `graph` command of the shell blocks of README.md, docs/*.md and Examples/*/README.md
    /// runs as written, from a copy of the repository's Examples and a folder holding the files
    /// they name as examples of yours: MY.jpg and portrait.jpg (the shipped portrait), photos/ and
    /// shoot/ (copies of it), look.json (the colour chain), portrait.json (a two-output depth
    /// recipe) and IMG_0001.HEIC (the iPhone HEIC of the test photos; its commands are skipped
    /// without it, and in debug builds unless GRAPH_DOC_HEIC=1). Completion scripts (which write
    /// into your home) are checked elsewhere.
    func testDocumentedGraphCommandsRun() throws {
        var commands: [(file: String, line: String)] = []
        let documents = ["README.md"] + (try markdownFiles()).filter { $0.hasPrefix("docs/") || ($0.hasPrefix("Examples/") && $0.hasSuffix("/README.md")) }
        for file in documents {
            let text = try String(contentsOfFile: repository + "/" + file, encoding: .utf8)
            for block in blocks(text, language: "sh") {
                for line in block where !line.contains("--generate-completion-script") {
                    let command = line.replacingOccurrences(of: "\\s+#.*$", with: "", options: .regularExpression)
                    if command.hasPrefix("graph ") || command.contains("| graph ") || command.contains("&& graph ") {
                        commands.append((file, command))
                    }
                }
            }
        }
        XCTAssertGreaterThan(commands.count, 15, "\(commands)")
        let heic = try? BatchFixture.sharedTestData("depth/iphone13pro_pug_depth.heic")
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = FileManager.default
        try files.copyItem(atPath: repository + "/Examples", toPath: folder.appendingPathComponent("Examples").path)
        let portrait = repository + "/Examples/depth/portrait.jpg"
        for copy in ["MY.jpg", "portrait.jpg", "photos/a.jpg", "photos/trip/b.jpg", "shoot/day1/c.jpg"] {
            let target = folder.appendingPathComponent(copy)
            try files.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try files.copyItem(atPath: portrait, toPath: target.path)
        }
        try files.copyItem(atPath: repository + "/Examples/recipes/color-chain.json", toPath: folder.appendingPathComponent("look.json").path)
        try files.copyItem(atPath: repository + "/Examples/recipes/photo.png", toPath: folder.appendingPathComponent("photo.png").path)
        try files.copyItem(atPath: repository + "/Examples/depth/background-replace.json", toPath: folder.appendingPathComponent("portrait.json").path)
        if let heic { try files.copyItem(atPath: heic, toPath: folder.appendingPathComponent("IMG_0001.HEIC").path) }
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = products + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        var ran = 0
        #if DEBUG
        // A debug build renders 10-30x slower: the 12 MP HEIC's effects would take minutes.
        let runsHEIC = ProcessInfo.processInfo.environment["GRAPH_DOC_HEIC"] == "1"
        #else
        let runsHEIC = true
        #endif
        for (file, command) in commands {
            if heic == nil || !runsHEIC, command.contains("IMG_0001.HEIC") { continue }
            let bash = Process()
            bash.executableURL = URL(fileURLWithPath: "/bin/bash")
            bash.arguments = ["-euo", "pipefail", "-c", command]
            bash.currentDirectoryURL = folder
            bash.environment = environment
            let errors = Pipe()
            bash.standardError = errors
            bash.standardOutput = FileHandle.nullDevice
            try bash.run()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            bash.waitUntilExit()
            XCTAssertEqual(bash.terminationStatus, 0, "\(file): \(command)\n\(message)")
            ran += 1
        }
        XCTAssertGreaterThan(ran, 12)
        // What the commands wrote, where the documents say.
        XCTAssertTrue(files.fileExists(atPath: folder.appendingPathComponent("out/trip/b.jpg").path), "graph batch --dir --recursive kept the folder")
        XCTAssertTrue(files.fileExists(atPath: folder.appendingPathComponent("out/c-mask.png").path), "graph batch --glob wrote the second output")
        XCTAssertTrue(files.fileExists(atPath: folder.appendingPathComponent("blurred.jpg").path), "graph apply MY.jpg blurred.jpg")
        XCTAssertTrue(files.fileExists(atPath: folder.appendingPathComponent("Examples/recipes/output/soft.jpg").path))
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

    /// docs/recipes.md's command table has a row for every subcommand of `graph`.
    func testCommandTableListsEverySubcommand() throws {
        let guide = try String(contentsOfFile: repository + "/docs/recipes.md", encoding: .utf8)
        let names = Graph.configuration.subcommands.compactMap { $0.configuration.commandName }
        XCTAssertGreaterThan(names.count, 6)
        for name in names {
            XCTAssertTrue(guide.contains("| `graph \(name) "), "docs/recipes.md's command table lacks graph \(name)")
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
