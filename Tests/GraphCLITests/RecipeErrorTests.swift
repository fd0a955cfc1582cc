import Foundation
import GraphRecipes
import XCTest
@testable import GraphCLI

/// Bad recipes: one clear line naming the JSON path, exit status 2, and no output file.
final class RecipeErrorTests: XCTestCase {
    private func assertFails(_ recipe: String, _ expected: String, arguments: [String] = [],
                             outputs: [String] = ["out.png"], file: StaticString = #filePath, line: UInt = #line) throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try writeRecipe(recipe, in: folder)
        let result = Graph.runInProcess(["run", path] + arguments)
        XCTAssertEqual(result.status, 2, "status", file: file, line: line)
        XCTAssertTrue(result.err.contains(expected), "got: \(result.err)", file: file, line: line)
        XCTAssertEqual(result.err.split(separator: "\n").count, 1, "one line: \(result.err)", file: file, line: line)
        XCTAssertTrue(result.err.hasPrefix("graph: error: "), result.err, file: file, line: line)
        for output in outputs {
            XCTAssertFalse(exists(folder, output), "\(output) must not exist", file: file, line: line)
        }
    }

    private func recipe(images: String, outputs: String = #"[{"image": "out", "file": "out.png"}]"#) -> String {
        #"{"version": 1, "images": {\#(images)}, "outputs": \#(outputs)}"#
    }

    private let source = #""src": {"file": "in.png"}"#

    func testMalformedJSONHasLineAndColumn() throws {
        try assertFails("{\n  \"version\": 1,\n  \"images\": {\"a\": 1 2}\n}", "recipe.json: malformed JSON: line 3, column 21: unexpected '2', expected ',' or '}'")
    }

    /// A recipe naming more than `Recipe.maximumImages` images is refused before anything is built
    /// (100,000 chained filters used to take gigabytes while planning, then abort); one at the
    /// limit runs.
    func testTooManyImagesIsAClearError() throws {
        func chain(_ count: Int) -> String {
            var images = [source]
            for index in 1..<count {
                images.append(#""i\#(index)": {"filter": "CIExposureAdjust", "inputs": {"inputImage": {"image": "\#(index == 1 ? "src" : "i\(index - 1)")"}}}"#)
            }
            return recipe(images: images.joined(separator: ", "), outputs: #"[{"image": "i\#(count - 1)", "file": "out.png"}]"#)
        }
        try assertFails(chain(Recipe.maximumImages + 1), "graph: error: images: 50001 images; a recipe may have at most 50000")
        // At the limit, the chain runs.
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = Graph.runInProcess(["run", try writeRecipe(chain(Recipe.maximumImages), in: folder)])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(exists(folder, "out.png"))
    }

    func testMissingVersion() throws {
        try assertFails(#"{"images": {}, "outputs": []}"#, #"version: missing; add "version": 1"#)
    }

    func testUnsupportedVersion() throws {
        try assertFails(#"{"version": 2, "images": {}, "outputs": []}"#, "version: unsupported version 2; expected 1")
    }

    func testUnknownFilter() throws {
        try assertFails(recipe(images: source + #", "out": {"filter": "CIHueAdjustt", "inputs": {"inputImage": {"image": "src"}}}"#),
                        #"images.out.filter: unknown filter "CIHueAdjustt" (did you mean "CIHueAdjust"?)"#)
    }

    func testUnknownKey() throws {
        try assertFails(recipe(images: source + #", "out": {"filter": "CIHueAdjust", "inptus": {}}"#),
                        #"images.out.inptus: unknown key (did you mean "inputs"?)"#)
    }

    func testUnknownTopLevelKey() throws {
        try assertFails(#"{"version": 1, "imagse": {}, "outputs": []}"#, #"imagse: unknown key (did you mean "images"?)"#)
    }

    func testUnknownFilterInput() throws {
        try assertFails(recipe(images: source + #", "out": {"filter": "CIHueAdjust", "inputs": {"inputImage": {"image": "src"}, "inputAngel": 1}}"#),
                        #"images.out.inputs.inputAngel: CIHueAdjust has no input "inputAngel" (did you mean "inputAngle"?)"#)
    }

    func testWrongValueType() throws {
        try assertFails(recipe(images: source + #", "out": {"filter": "CIHueAdjust", "inputs": {"inputImage": {"image": "src"}, "inputAngle": "steep"}}"#),
                        #"images.out.inputs.inputAngle: expected a number, got "steep""#)
    }

    func testImageGivenAsString() throws {
        try assertFails(recipe(images: source + #", "out": {"filter": "CIHueAdjust", "inputs": {"inputImage": "src"}}"#),
                        #"images.out.inputs.inputImage: expected an image reference {"image": "name"}, got "src""#)
    }

    func testOutOfRange() throws {
        try assertFails(recipe(images: source + #", "out": {"filter": "CISepiaTone", "inputs": {"inputImage": {"image": "src"}, "inputIntensity": 2}}"#),
                        "images.out.inputs.inputIntensity: 2.0 is above the maximum 1.0")
    }

    func testUnknownImageReference() throws {
        try assertFails(recipe(images: source + #", "out": {"filter": "CIHueAdjust", "inputs": {"inputImage": {"image": "srcc"}}}"#),
                        #"images.out.inputs.inputImage: unknown image "srcc" (did you mean "src"?)"#)
    }

    func testCycle() throws {
        try assertFails(recipe(images: #""out": {"filter": "CIHueAdjust", "inputs": {"inputImage": {"image": "b"}}}, "b": {"filter": "CIColorInvert", "inputs": {"inputImage": {"image": "out"}}}"#),
                        "images.b.inputs.inputImage: cycle: out -> b -> out")
    }

    func testMissingFile() throws {
        try assertFails(recipe(images: #""out": {"file": "nope.png"}"#), "images.out.file: ")
        try assertFails(recipe(images: #""out": {"file": "nope.png"}"#), "nope.png: cannot open for reading")
    }

    func testInfiniteExtent() throws {
        try assertFails(recipe(images: #""out": {"generator": "CIConstantColorGenerator", "inputs": {"inputColor": [1, 0, 0, 1]}}"#),
                        #"outputs[0].image: image "out" has an infinite extent; crop it"#)
    }

    func testBadOutputExtension() throws {
        try assertFails(recipe(images: #""out": {"file": "in.png"}"#, outputs: #"[{"image": "out", "file": "out.tiff"}]"#),
                        #"outputs[0].file: unknown output format ".tiff" in 'out.tiff'; use .png, .jpg, .jpeg or .heic"#, outputs: ["out.tiff"])
    }

    func testWrongVectorLength() throws {
        try assertFails(recipe(images: source + #", "out": {"filter": "CIColorMatrix", "inputs": {"inputImage": {"image": "src"}, "inputRVector": [1, 0, 0]}}"#),
                        "images.out.inputs.inputRVector: expected a vector of 4 numbers, got 3 numbers")
    }

    func testNonNumberInVector() throws {
        try assertFails(recipe(images: source + #", "out": {"filter": "CIColorMatrix", "inputs": {"inputImage": {"image": "src"}, "inputRVector": [1, 0, "x", 0]}}"#),
                        #"images.out.inputs.inputRVector[2]: expected a number, got "x""#)
    }

    func testMissingRequiredImage() throws {
        try assertFails(recipe(images: #""out": {"filter": "CIHueAdjust"}"#), "images.out.inputs.inputImage: missing")
    }

    func testUnknownOutputImage() throws {
        try assertFails(recipe(images: source, outputs: #"[{"image": "final", "file": "out.png"}]"#),
                        #"outputs[0].image: unknown image "final""#)
    }

    func testBadQuality() throws {
        try assertFails(recipe(images: #""out": {"file": "in.png"}"#, outputs: #"[{"image": "out", "file": "out.jpg", "quality": 101}]"#),
                        "outputs[0].quality: expected an integer in 1...100, got 101", outputs: ["out.jpg"])
    }

    func testBadSubsamplingAndProgressive() throws {
        try assertFails(recipe(images: #""out": {"file": "in.png"}"#, outputs: #"[{"image": "out", "file": "out.jpg", "subsampling": "420"}]"#),
                        #"outputs[0].subsampling: expected "4:4:4", "4:2:2", "4:2:0" or "4:4:0", got "420""#, outputs: ["out.jpg"])
        try assertFails(recipe(images: #""out": {"file": "in.png"}"#, outputs: #"[{"image": "out", "file": "out.jpg", "progressive": 1}]"#),
                        "outputs[0].progressive: expected true or false, got 1", outputs: ["out.jpg"])
    }

    func testRefusesToOverwriteInput() throws {
        try assertFails(recipe(images: #""out": {"file": "in.png"}"#, outputs: #"[{"image": "out", "file": "in.png"}]"#),
                        "outputs[0].file: refusing to overwrite", outputs: [])
    }

    func testSecondOutputFailingWritesNothing() throws {
        let images = source + #", "gen": {"generator": "CIConstantColorGenerator"}, "out": {"filter": "CIColorInvert", "inputs": {"inputImage": {"image": "src"}}}"#
        try assertFails(recipe(images: images, outputs: #"[{"image": "out", "file": "out.png"}, {"image": "gen", "file": "gen.png"}]"#),
                        #"outputs[1].image: image "gen" has an infinite extent"#, outputs: ["out.png", "gen.png"])
    }

    func testUnknownKernel() throws {
        try assertFails(recipe(images: #""out": {"kernel": "nothing", "arguments": []}"#), #"images.out.kernel: unknown kernel "nothing""#)
    }

    func testBadSetOption() throws {
        try assertFails(recipe(images: #""out": {"file": "in.png"}"#), #"--set foo.inputAngle=1: no image named "foo""#,
                        arguments: ["--set", "foo.inputAngle=1"])
    }

    func testSetWithWrongType() throws {
        try assertFails(recipe(images: source + #", "out": {"filter": "CIHueAdjust", "inputs": {"inputImage": {"image": "src"}}}"#),
                        #"images.out.inputs.inputAngle: expected a number, got [1,2]"#, arguments: ["--set", "out.inputAngle=[1,2]"])
    }

    func testBadWorkingFormat() throws {
        try assertFails(recipe(images: #""out": {"file": "in.png"}"#), #"--working-format: expected RGBA8, RGBAh or RGBAf, got "RGBA9""#,
                        arguments: ["--working-format", "RGBA9"])
    }

    func testOutputOptionWithTwoOutputs() throws {
        try assertFails(recipe(images: #""out": {"file": "in.png"}"#, outputs: #"[{"image": "out", "file": "a.png"}, {"image": "out", "file": "b.png"}]"#),
                        #"--output c.png: the recipe has 2 outputs; choose one with -o NAME=PATH, NAME one of "out" (or an index 0...1)"#, arguments: ["-o", "c.png"], outputs: ["a.png", "b.png", "c.png"])
    }

    func testKernelThatDoesNotCompile() throws {
        let text = #"{"version": 1, "kernels": {"bad": {"source": "kernel vec4 x(__sample s) { return s.rgb; }"}}, "images": {"out": {"file": "in.png"}}, "outputs": [{"image": "out", "file": "out.png"}]}"#
        try assertFails(text, "kernels.bad.source: kernel does not compile: 1:")
    }

    func testYUVFrameErrors() throws {
        try assertFails(recipe(images: #""out": {"yuv": "missing.nv12", "size": [16, 16]}"#),
                        "images.out.yuv: cannot read the YUV file")
        try assertFails(recipe(images: #""out": {"yuv": "in.png", "size": [16]}"#),
                        "images.out.size: expected [width, height] of the frame")
        try assertFails(recipe(images: #""out": {"yuv": "in.png", "size": [16, 16], "layout": "yuy2"}"#),
                        #"images.out.layout: expected one of "nv12", "i420", got "yuy2""#)
        try assertFails(recipe(images: #""out": {"yuv": "in.png", "size": [4000, 4000]}"#),
                        "images.out.yuv: YUV nv12 4000x4000 needs 24000000 bytes")
    }

    func testColorSpaceAndKernelArgumentErrors() throws {
        try assertFails(recipe(images: #""out": {"file": "in.png", "colorSpace": "adobeRGB"}"#),
                        #"images.out.colorSpace: expected "sRGB", "displayP3", "linearSRGB" or "data", got "adobeRGB""#)
        let kernels = #""kernels": {"k": {"source": "kernel vec4 k(__sample s, float a) { return s * a; }"}}, "#
        try assertFails(#"{"version": 1, \#(kernels)"images": {\#(source), "out": {"kernel": "k", "arguments": [{"image": "src"}, "x"]}}, "outputs": [{"image": "out", "file": "out.png"}]}"#,
                        "images.out.arguments[1]: expected an image reference")
        try assertFails(#"{"version": 1, \#(kernels)"images": {\#(source), "out": {"kernel": "k", "arguments": [{"image": "src"}, [1, 2]]}}, "outputs": [{"image": "out", "file": "out.png"}]}"#,
                        "images.out.arguments: kernel 'k' parameter 'a' is float; got a vector of 2")
    }
}
