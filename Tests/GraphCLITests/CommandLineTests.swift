import Foundation
import GraphCodecs
import GraphEngine
import GraphRecipes
import XCTest
@testable import GraphCLI

/// The command line around recipes: standard input, -o for one output of several, --version,
/// mistyped commands, unreadable recipe files, kernel arguments by name, unsupported formats, info.
final class CommandLineTests: XCTestCase {
    /// Runs `arguments` in-process with `text` as standard input.
    private func run(_ arguments: [String], stdin text: String) throws -> (status: Int32, out: String, err: String) {
        let pipe = Pipe()
        let saved = dup(0)
        defer { dup2(saved, 0); close(saved) }
        pipe.fileHandleForWriting.write(Data(text.utf8))
        try pipe.fileHandleForWriting.close()
        dup2(pipe.fileHandleForReading.fileDescriptor, 0)
        return Graph.runInProcess(arguments)
    }

    private let twoOutputs = #"""
    {"version": 1,
     "images": {"src": {"file": "in.png"},
                "inv": {"filter": "CIColorInvert", "inputs": {"inputImage": {"image": "src"}}},
                "half": {"filter": "CIAffineTransform", "inputs": {"inputImage": {"image": "src"}, "inputTransform": [0.5, 0, 0, 0.5, 0, 0]}}},
     "outputs": [{"image": "inv", "file": "inv.png"}, {"image": "half", "file": "half.png"}, {"image": "half", "file": "half.jpg"}]}
    """#

    func testRecipeFromStandardInputResolvesAgainstTheCurrentFolder() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let previous = FileManager.default.currentDirectoryPath
        _ = FileManager.default.changeCurrentDirectoryPath(folder.path)
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        let result = try run(["run", "-"], stdin: twoOutputs)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(exists(folder, "inv.png") && exists(folder, "half.png") && exists(folder, "half.jpg"))
        let bad = try run(["run", "-"], stdin: "{\"version\": 1,")
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.err.hasPrefix("graph: error: <stdin>: malformed JSON"), bad.err)
        let dumped = try run(["dump", "-", "--stage", "programs"], stdin: twoOutputs)
        XCTAssertEqual(dumped.status, 0, dumped.err)
        XCTAssertTrue(dumped.out.contains("program p0"), dumped.out)
    }

    func testOutputOptionPicksOutputsByImageNameOrIndex() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try writeRecipe(twoOutputs, in: folder)
        let chosen = folder.appendingPathComponent("chosen.jpg").path
        let result = Graph.runInProcess(["run", path, "-o", "inv=\(chosen)"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: chosen))
        XCTAssertFalse(exists(folder, "inv.png") || exists(folder, "half.png") || exists(folder, "half.jpg"), "only the chosen output")
        XCTAssertEqual(try ImageFile.info(path: chosen).width, 8)

        let byIndex = folder.appendingPathComponent("two.png").path
        let indexed = Graph.runInProcess(["run", path, "-o", "2=\(byIndex)", "-o", "inv=\(folder.appendingPathComponent("i.png").path)"])
        XCTAssertEqual(indexed.status, 0, indexed.err)
        XCTAssertEqual(try ImageFile.info(path: byIndex).width, 4)
        XCTAssertTrue(exists(folder, "i.png"))

        let cases: [([String], String)] = [
            (["-o", "x.png"], #"--output x.png: the recipe has 3 outputs; choose one with -o NAME=PATH, NAME one of "inv", "half" (or an index 0...2)"#),
            (["-o", "half=x.png"], #"--output half=x.png: image "half" is written by outputs[1] and outputs[2]; name one by its index (-o 1=x.png)"#),
            (["-o", "inx=x.png"], #"--output inx=x.png: no output writes an image "inx" (did you mean "inv"?)"#),
            (["-o", "5=x.png"], "--output 5=x.png: the recipe has 3 outputs (outputs[0]...outputs[2])"),
            (["-o", "inv=a.png", "-o", "0=b.png"], "--output 0=b.png: outputs[0] is already chosen by an earlier -o"),
            (["-o", "inv=a.gif"], "--output inv=a.gif: unknown output format \".gif\" in 'a.gif'; use .png, .jpg, .jpeg or .heic"),
        ]
        for (arguments, expected) in cases {
            let failed = Graph.runInProcess(["run", path] + arguments)
            XCTAssertEqual(failed.status, 2, "\(arguments)")
            XCTAssertTrue(failed.err.hasPrefix("graph: error: " + expected), "\(arguments): \(failed.err)")
        }
    }

    func testVersionAndMistypedCommand() {
        let version = Graph.runInProcess(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertEqual(version.out.trimmingCharacters(in: .whitespacesAndNewlines), Graph.version)
        let typo = Graph.runInProcess(["rn", "recipe.json"])
        XCTAssertEqual(typo.status, 2)
        XCTAssertTrue(typo.err.contains(#"unknown command 'rn' (did you mean "run"?)"#), typo.err)
        let other = Graph.runInProcess(["aply", "a", "b", "CISepiaTone"])
        XCTAssertEqual(other.status, 2)
        XCTAssertEqual(other.err, #"graph: error: unknown command 'aply' (did you mean "apply"?)"# + "\n", "one line, as every other error")
        XCTAssertEqual(other.out, "")
        let far = Graph.runInProcess(["zzzzzzzz"])
        XCTAssertEqual(far.status, 2)
        XCTAssertEqual(far.err, "graph: error: unknown command 'zzzzzzzz' (the commands are run, dump, filters, info, batch, apply, contact-sheet, video)\n")
        XCTAssertEqual(Graph.runInProcess(["help"]).status, 0)
    }

    /// Command-line mistakes are one `graph: error:` line like every other error (not
    /// ArgumentParser's Error/Help/Usage lines), and a negative value is the option's value, checked
    /// by the option (issue 31, item 7).
    func testCommandLineErrorsAreOneLine() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recipe = try writeRecipe(twoOutputs, in: folder)
        let cases: [([String], String)] = [
            (["run", "r.json", "--width", "5"], "graph: error: unknown option '--width' (see 'graph run --help')\n"),
            (["run"], "graph: error: missing expected argument '<recipe>' (see 'graph run --help')\n"),
            (["run", "r.json", "--threads", "abc"], "graph: error: the value 'abc' is invalid for '--threads <threads>' (see 'graph run --help')\n"),
            (["contact-sheet", try BatchFixture.sharedTestData("depth/iphoneX_depth_matte_shu223.jpg"), "--width", "-5"],
             "graph: error: --width: expected 200...20000 pixels, got -5\n"),
            (["run", recipe, "--threads", "-3"], "graph: error: --threads: expected 1...1024, got -3\n"),
        ]
        for (arguments, expected) in cases {
            let result = Graph.runInProcess(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertEqual(result.err, expected, "\(arguments)")
        }
        XCTAssertEqual(Graph.joiningNegativeValues(["--threads", "-3", "-o", "-5.png", "--set", "a.b=-1", "--width", "-0.5e1", "--x", "-y"]),
                       ["--threads=-3", "-o", "-5.png", "--set", "a.b=-1", "--width=-0.5e1", "--x", "-y"])
    }

    func testUnreadableRecipeSaysWhy() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("nope.json").path
        XCTAssertEqual(Graph.runInProcess(["run", missing]).err, "graph: error: \(missing): cannot read the recipe file: no such file\n")
        XCTAssertTrue(Graph.runInProcess(["run", folder.path]).err.hasSuffix("cannot read the recipe file: it is a directory, not a file\n"))
        let noFolder = folder.appendingPathComponent("gone/r.json").path
        XCTAssertTrue(Graph.runInProcess(["dump", noFolder]).err.contains("no such file (the folder"))
        let locked = try writeRecipe("{}", in: folder, name: "locked.json")
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: locked)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: locked) }
        if getuid() != 0 {  // root reads anything
            XCTAssertTrue(Graph.runInProcess(["run", locked]).err.hasSuffix("cannot read the recipe file: permission denied\n"))
        }
        XCTAssertEqual(RecipeSource.unreadable(locked).map { _ in true } ?? (getuid() == 0), true)
    }

    func testKernelArgumentsByNameAndSet() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recipe = #"""
        {"version": 1,
         "kernels": {"scale": {"source": "kernel vec4 scale(__sample s, float power) { return vec4(s.rgb * power, s.a); }"}},
         "images": {"src": {"file": "in.png"},
                    "out": {"kernel": "scale", "arguments": {"power": 0.5, "s": {"image": "src"}}}},
         "outputs": [{"image": "out", "file": "out.png", "colorSpace": "data"}],
         "options": {"colorManagement": false}}
        """#
        let path = try writeRecipe(recipe, in: folder)
        func red(_ arguments: [String]) throws -> UInt8 {
            let result = Graph.runInProcess(["run", path] + arguments)
            XCTAssertEqual(result.status, 0, result.err)
            return try Context().render(try Image(dataContentsOf: folder.appendingPathComponent("out.png").path), format: .rgba8).bytes[0]
        }
        XCTAssertEqual(try red([]), 102)  // 204 · 0.5
        XCTAssertEqual(try red(["--set", "out.power=0.25"]), 51)
        let cases: [([String], String)] = [
            (["--set", "out.powr=1"], #"images.out.arguments.powr: kernel 'scale' has no parameter "powr" (did you mean "power"?)"#),
            (["--set", #"out.arguments={"s": {"image": "src"}}"#], #"images.out.arguments.power: missing: kernel 'scale' needs a value for its parameter "power""#),
            (["--set", #"out.arguments=[{"image": "src"}, 1]"#, "--set", "out.power=2"], #"image "out" gives its kernel arguments as an array"#),
        ]
        for (arguments, expected) in cases {
            let result = Graph.runInProcess(["run", path] + arguments)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertTrue(result.err.contains(expected), "\(arguments): \(result.err)")
        }
    }

    func testKernelRegionOfInterestPerInput() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recipe = #"""
        {"version": 1,
         "kernels": {"k": {"source": "kernel vec4 k(sampler photo, sampler map) { vec2 p = destCoord(); return sample(photo, p + vec2(2.0, 0.0)) * sample(map, p * 0.5).r; }"}},
         "images": {"src": {"file": "in.png"}, "map": {"file": "map.png"},
                    "out": {"kernel": "k", "arguments": {"photo": {"image": "src"}, "map": {"image": "map"}},
                            "roi": {"photo": 2, "map": 0}, "extent": [3, 2, 2, 2]}},
         "outputs": [{"image": "out", "file": "out.png"}]}
        """#
        // Two files: two images of one file share one source (and so one read of their union).
        try FileManager.default.copyItem(atPath: folder.appendingPathComponent("in.png").path,
                                         toPath: folder.appendingPathComponent("map.png").path)
        let path = try writeRecipe(recipe, in: folder)
        let dump = Graph.runInProcess(["dump", path, "--stage", "optimized", "--format", "json"])
        XCTAssertEqual(dump.status, 0, dump.err)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(dump.out.utf8)) as? [String: Any])
        let nodes = try XCTUnwrap(object["optimized"] as? [[String: Any]])
        let rois = nodes.filter { ($0["label"] as? String)?.hasPrefix("buffer") == true }.compactMap { $0["roi"] as? String }
        // Two buffers of 8×6 files: the photo read within 2 pixels of the output [3 2 2 2], plus the
        // planner's one-pixel margin for bilinear sampling (clipped to [0 0 8 6]); the map at the
        // output rectangle plus that margin only ([2 1 4 4]), not charged the photo's radius.
        XCTAssertEqual(rois.sorted(), ["[0 0 8 6]", "[2 1 4 4]"], "\(nodes)")
        let bad = Graph.runInProcess(["run", path, "--set", #"out.roi={"phot": 2}"#])
        XCTAssertTrue(bad.err.contains(#"images.out.roi.phot: kernel 'k' has no image parameter "phot" (did you mean "photo"?)"#), bad.err)
        let wrong = Graph.runInProcess(["run", path, "--set", #"out.roi={"map": -1}"#])
        XCTAssertTrue(wrong.err.contains(#"images.out.roi.map: expected a radius in pixels (a number >= 0) or "whole", got -1"#), wrong.err)
    }

    func testUnsupportedFormatsAreNamed() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files: [(String, [UInt8], String)] = [
            ("a.tif", Array("II*\0".utf8) + [8, 0, 0, 0, 0, 0], "a TIFF file"),
            ("a.webp", Array("RIFF".utf8) + [20, 0, 0, 0] + Array("WEBPVP8 ".utf8), "a WebP file"),
            ("a.gif", Array("GIF89a".utf8) + [1, 0, 1, 0], "a GIF file"),
            ("a.avif", [0, 0, 0, 20] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("avif".utf8), "a AVIF file"),
        ]
        for (name, bytes, expected) in files {
            let path = folder.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let info = Graph.runInProcess(["info", path])
            XCTAssertEqual(info.err, "graph: error: \(path): \(expected), which is not supported (PNG, JPEG and HEIF are)\n")
            let apply = Graph.runInProcess(["apply", path, folder.appendingPathComponent("o.png").path, "CISepiaTone"])
            XCTAssertTrue(apply.err.contains(expected), apply.err)
        }
    }

    func testInfoPrintsEXIFFields() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A hand-made EXIF block in a PNG (eXIf) and a JPEG written by the engine.
        var metadata = ImageMetadata(format: .png)
        metadata.exif = try EXIFFixture.cameraTIFF()
        let image = Image(color: [0.5, 0.5, 0.5, 1]).cropped(to: Rect(x: 0, y: 0, width: 4, height: 4))
        for name in ["e.png", "e.jpg"] {
            let path = folder.appendingPathComponent(name).path
            try Context().write(image, to: path, options: ImageWriteOptions(metadata: metadata))
            let text = Graph.runInProcess(["info", path])
            XCTAssertEqual(text.status, 0, text.err)
            for line in ["camera: Test TestCam 1", "exposure: 1/250 s, f/2.8, ISO 400", "gps: none"] {
                XCTAssertTrue(text.out.contains(line + "\n"), "\(name): \(text.out)")
            }
            let json = Graph.runInProcess(["info", path, "--format", "json"])
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
            let exif = try XCTUnwrap(object["exif"] as? [String: Any])
            XCTAssertEqual(exif["model"] as? String, "TestCam 1")
            XCTAssertEqual(exif["exposureTime"] as? Double, 0.004)
            XCTAssertEqual(exif["fNumber"] as? Double, 2.8)
            XCTAssertEqual(exif["iso"] as? Int, 400)
            XCTAssertEqual(exif["gps"] as? Bool, false)
        }
    }

    /// The real photos against exiftool's reading of them (`exiftool -n`, 2026-11-23).
    func testInfoEXIFOfRealPhotosMatchesExiftool() throws {
        let depth = try BatchFixture.sharedTestData("depth")
        let expected: [(String, [String])] = [
            ("gdepth_motorola_xt912_exifr.jpg", ["camera: Motorola XT912", "exposure: 1/313 s, f/2.4, ISO 100, 4.6 mm (34 mm in 35 mm)", "gps: present"]),
            ("iphone13pro_pug_depth.heic", ["camera: Apple iPhone 13 Pro", "lens: iPhone 13 Pro back dual wide camera 5.7mm f/1.5",
                                            "exposure: 1/121 s, f/1.5, ISO 125, 5.7 mm (26 mm in 35 mm)", "taken: 2023:02:21 14:33:08",
                                            "gps: present", "colour profile: Display P3"]),
            ("iphone7plus_rw_test00.jpg", ["camera: Apple iPhone 7 Plus", "exposure: 1/736 s, f/2.8, ISO 20, 6.6 mm (57 mm in 35 mm)",
                                           "taken: 2017:07:19 12:35:25", "gps: none", "orientation: 6"]),
        ]
        for (name, lines) in expected {
            let result = Graph.runInProcess(["info", depth + "/" + name])
            XCTAssertEqual(result.status, 0, result.err)
            for line in lines { XCTAssertTrue(result.out.contains(line), "\(name): \(line) in \(result.out)") }
        }
        let heic = try ImageFile.info(path: depth + "/iphone13pro_pug_depth.heic").metadata.exifSummary
        XCTAssertEqual(heic?.exposureTime ?? 0, 0.00826446281, accuracy: 1e-9)
    }
}
