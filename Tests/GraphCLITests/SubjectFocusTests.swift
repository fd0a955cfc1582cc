import Foundation
@testable import GraphCLI
import GraphEngine
import GraphRecipes
import Kernels
import XCTest

/// The subject the depth effects choose: on every real photo that names a face or focus region (or
/// a GFocus focal point) the focus disparity is the region's dominant disparity, computed here
/// independently of the engine by `scripts/dominant-disparity.py` (exiftool, Pillow and numpy on
/// the stored map) and written down below; `graph info` reports the region, where it came from and
/// that value, the recipes focus on the same value, and a focus rectangle in pixels is an error
/// that shows the division.
final class SubjectFocusTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let depthExamples = repository.appendingPathComponent("Examples/depth")

    /// `../shared/testdata/depth/<name>`; skips the test when the shared folder is absent.
    static func shared(_ name: String) throws -> String {
        let path = repository.deletingLastPathComponent().appendingPathComponent("shared/testdata/depth/\(name)").path
        guard FileManager.default.fileExists(atPath: path) else {
            throw XCTSkip("shared test data not found at \(path) (expected shared/ beside the repository)")
        }
        return path
    }

    /// Each real photo with a subject region: where the region comes from, the dominant disparity
    /// of `scripts/dominant-disparity.py` and one step of its 8-bit map (the map's range / 255).
    /// The region straddles two depths on two of them: the iPhone 7 Plus focus region holds the
    /// car's mirror (36%) in front of a hedge (the issue's "lamp between two depths" when averaged:
    /// the interquartile mean was 1.2898), the iPhone X focus region the vase (73%) in front of
    /// the wall (the interquartile mean 2.1432).
    static let expected: [(file: String, source: String, disparity: Double, step: Double)] = [
        ("gdepth_motorola_xt912_exifr.jpg", "the photo's GFocus focal point", 0.038362, 0.000202),
        ("iphone7plus_rw_test00.jpg", "the photo's focus region", 1.465758, 0.003719),
        ("iphoneX_depth_matte_shu223.jpg", "the photo's face region", 1.239911, 0.001967),
        ("iphoneX_depth_shu223.jpg", "the photo's focus region", 2.193444, 0.007290),
    ]

    /// GEFocusDisparity with the recipes' default focus rectangle (the photo's region) over the
    /// disparity of the photo at `path`, as every depth recipe builds it.
    func recipeFocus(_ path: String) throws -> Double {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recipe = try writeRecipe(#"""
        {"version": 1, "images": {"disparity": {"file": "\#(path)", "auxiliary": "disparity"},
          "focus": {"filter": "GEFocusDisparity", "inputs": {"inputImage": {"image": "disparity"}}}},
         "outputs": [{"image": "focus", "file": "focus.png", "colorSpace": "data"}]}
        """#, in: folder)
        var builder = RecipeBuilder(recipe: try RecipeDecoder.load(path: recipe))
        let focus = try builder.image(named: "focus", from: "test")
        let buffer = try Context().render(focus, format: .rgbaf, colorSpace: .data)
        return Double(buffer.withUnsafeBytes { $0.load(as: Float.self) })
    }

    func testTheFocusIsTheRegionsDominantDisparityOnEveryRealPhoto() throws {
        for (file, source, disparity, step) in Self.expected {
            let path = try Self.shared(file)
            let result = Graph.runInProcess(["info", "--format", "json", path])
            XCTAssertEqual(result.status, 0, result.err)
            let subject = try JSONParser.parse(result.out)["subject"]
            XCTAssertEqual(subject?["source"], .string(source), file)
            guard case .number(let reported)? = subject?["focusDisparity"] else { return XCTFail("\(file): no focus disparity in \(result.out)") }
            XCTAssertEqual(reported, disparity, accuracy: step, "\(file): within one 8-bit step of the dominant disparity")
            XCTAssertEqual(try recipeFocus(path), reported, accuracy: 1e-6, "\(file): the recipes focus where info says")
            let text = Graph.runInProcess(["info", path]).out
            XCTAssertTrue(text.contains("from \(source)\n"), text)
        }
        // No region: the centre, said so.
        let pug = Graph.runInProcess(["info", "--format", "json", try Self.shared("iphone13pro_pug_depth.heic")])
        let subject = try JSONParser.parse(pug.out)["subject"]
        XCTAssertEqual(subject?["rect"], .array([0.45, 0.45, 0.1, 0.1].map { .number($0) }))
        XCTAssertEqual(subject?["source"], .string("the default centre (the photo names no face, focus region or focal point)"))
    }

    /// An identity edit (`graph apply IN OUT CIColorControls`, written upright) focuses where the
    /// original does: the same region (the rotated iPhone 7 Plus's MWG region turned upright with
    /// its pixels) and the same dominant disparity within one 8-bit step (the map is re-encoded).
    func testAPhotoTheEngineWroteFocusesWhereTheOriginalDoes() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (file, source, disparity, step) in Self.expected {
            let copy = folder.appendingPathComponent(file).path
            let edit = Graph.runInProcess(["apply", try Self.shared(file), copy, "CIColorControls"])
            XCTAssertEqual(edit.status, 0, edit.err)
            let original = try XCTUnwrap(try DepthPhoto(contentsOf: try Self.shared(file)).subject, file)
            let written = try XCTUnwrap(try DepthPhoto(contentsOf: copy).subject, file)
            XCTAssertEqual(written.source.rawValue, source, file)
            let pairs = [(written.rect.minX, original.rect.minX), (written.rect.minY, original.rect.minY),
                         (written.rect.width, original.rect.width), (written.rect.height, original.rect.height)]
            for (a, b) in pairs { XCTAssertEqual(a, b, accuracy: 1e-9, "\(file): \(written.rect) against \(original.rect)") }
            XCTAssertEqual(try recipeFocus(copy), disparity, accuracy: step, file)
        }
    }

    func testInfoOnThePortraitShowsItsFaceRegionAndAPhotoWithoutDepthNone() throws {
        let portrait = Self.depthExamples.appendingPathComponent("portrait.jpg").path
        let text = Graph.runInProcess(["info", portrait])
        XCTAssertEqual(text.status, 0, text.err)
        // The face region of the shipped quarter-size portrait (the matte photo's) and its disparity.
        XCTAssertTrue(text.out.hasSuffix("""
            subject: [0.504 0.809 0.119 0.089] (normalised, lower-left origin) from the photo's face region
            focus disparity: 1.239058 (the dominant disparity over the subject, as the depth effects focus)\n
            """), text.out)
        let plain = Graph.runInProcess(["info", "--format", "json", Self.repository.appendingPathComponent("Examples/recipes/photo.png").path])
        XCTAssertEqual(plain.status, 0, plain.err)
        XCTAssertEqual(try JSONParser.parse(plain.out)["subject"], .null)
    }

    /// The images a recipe's `name` is built from, by name, down to its files (each image's JSON).
    static func subgraph(_ name: String, of recipe: JSON) -> [String: JSON] {
        guard case .object(let images)? = recipe["images"] else { return [:] }
        var found: [String: JSON] = [:], pending = [name]
        func references(_ json: JSON) -> [String] {
            switch json {
            case .object(let members):
                return members.flatMap { key, value -> [String] in
                    if key == "image", case .string(let referenced) = value { return [referenced] }
                    return references(value)
                }
            case .array(let items): return items.flatMap(references)
            default: return []
            }
        }
        while let next = pending.popLast() {
            guard found[next] == nil, let spec = images.first(where: { $0.0 == next })?.1 else { continue }
            found[next] = spec
            pending += references(spec)
        }
        return found
    }

    /// Every background effect builds the same background mask (the subject band and everything
    /// nearer: the depth mask's near ramp alone, at the map's resolution, brought to the photo's
    /// along its edges by GEGuidedUpsample and snapped by clamp(2·m − 0.5)), and background-replace
    /// cuts where it crosses 0.5.
    func testTheBackgroundEffectsShareOneBackgroundMask() throws {
        let names = ["background-blur", "background-desaturate", "background-fog", "background-motion-blur", "background-pixellate", "two-looks"]
        var masks: [[String: JSON]] = []
        for name in names {
            let text = try String(contentsOf: Self.depthExamples.appendingPathComponent(name + ".json"), encoding: .utf8)
            let recipe = try JSONParser.parse(text)
            masks.append(Self.subgraph("mask", of: recipe))
            XCTAssertEqual(masks.last?["mask"]?["filter"], .string("CIColorClamp"), name)
            XCTAssertEqual(masks.last?["rampUp"]?["inputs"]?["inputBiasVector"], .array([1.2, 1.2, 1.2, 0].map { .number($0) }), name)
            XCTAssertEqual(masks.last?["rampUp"]?["inputs"]?["inputRVector"], .array([4, 0, 0, 0].map { .number($0) }), name)
            XCTAssertEqual(masks.last?["maskGuided"]?["filter"], .string("GEGuidedUpsample"), name)
            XCTAssertEqual(masks.last?["maskGuided"]?["inputs"]?["inputGuideImage"], .object([("image", .string("photo"))]), name)
            XCTAssertEqual(masks.last?["maskSnapped"]?["inputs"]?["inputBiasVector"], .array([-0.5, -0.5, -0.5, 0].map { .number($0) }), name)
            XCTAssertEqual(masks.last?["maskSnapped"]?["inputs"]?["inputRVector"], .array([2, 0, 0, 0].map { .number($0) }), name)
        }
        // The blends mix sRGB-encoded values: the photo and the effect encoded, the mix decoded.
        for name in names where name != "two-looks" {
            let recipe = try JSONParser.parse(try String(contentsOf: Self.depthExamples.appendingPathComponent(name + ".json"), encoding: .utf8))
            let images = Self.subgraph("result", of: recipe)
            XCTAssertEqual(images["result"]?["filter"], .string("CISRGBToneCurveToLinear"), name)
            XCTAssertEqual(images["resultEncoded"]?["filter"], .string("CIBlendWithMask"), name)
            for key in ["inputImage", "inputBackgroundImage"] {
                guard case .string(let input)? = images["resultEncoded"]?["inputs"]?[key]?["image"] else { XCTFail("\(name): \(key)"); continue }
                XCTAssertEqual(images[input]?["filter"], .string("CILinearToSRGBToneCurve"), "\(name): \(key)")
            }
        }
        for (name, mask) in zip(names, masks) {
            XCTAssertEqual(Set(mask.keys), Set(masks[0].keys), name)
            for (key, spec) in mask { XCTAssertEqual(spec, masks[0][key], "\(name): \(key)") }
        }
        // clamp(4·v + 1.2) = 0.5 at v = (d − f)/R = −0.175.
        let replace = try JSONParser.parse(try String(contentsOf: Self.depthExamples.appendingPathComponent("background-replace.json"), encoding: .utf8))
        XCTAssertEqual(replace["kernels"]?["keptSide"]?["source"],
                       .string("kernel vec4 keptSide(__sample d, __sample range, __sample focus) { float v = step(focus.r - 0.175 * (range.g - range.r), d.r); return vec4(v, v, v, 1.0); }"))
        XCTAssertEqual(Self.subgraph("focus", of: replace)["focus"], masks[0]["focus"])
    }

    func testDumpShowsTheFocusRegionAndTheMethod() throws {
        let result = Graph.runInProcess(["dump", Self.depthExamples.appendingPathComponent("depth-mask.json").path, "--stage", "initial"])
        XCTAssertEqual(result.status, 0, result.err)
        // The face region of the 756×1008 portrait over its 144×192 map, rounded out.
        XCTAssertTrue(result.out.contains(
            "processor GEFocusDisparity dominant disparity (nearest cluster holding a quarter) over [0.504 0.809 0.119 0.089] of the map, [72 155 18 18]"),
                      result.out)
    }

    func testAFocusRectangleInPixelsIsAnErrorWithTheDivision() throws {
        let recipe = Self.depthExamples.appendingPathComponent("depth-mask.json").path
        let result = Graph.runInProcess(["dump", recipe, "--stage", "initial", "--set", "focus.inputFocusRect=[100,200,300,300]"])
        XCTAssertEqual(result.status, 2)
        // The photo's size, not the map's (the recipe knows whose map it is): 100/756, 200/1008, 300/756, 300/1008.
        XCTAssertTrue(result.err.contains(
            "images.focus.inputs.inputFocusRect: inputFocusRect is normalised (0…1, lower-left origin); [100, 200, 300, 300] looks like pixels: divide by the photo's size (756×1008) → [0.132, 0.198, 0.397, 0.298]"),
                      result.err)
        let blur = Graph.runInProcess(["dump", Self.depthExamples.appendingPathComponent("portrait-blur.json").path, "--stage", "initial",
                                       "--set", "blur.inputFocusRect=[0.9,0.2,0.3,0.3]"])
        XCTAssertEqual(blur.status, 2)
        XCTAssertTrue(blur.err.contains("images.blur.inputs.inputFocusRect: inputFocusRect is normalised (0…1, lower-left origin); [0.9, 0.2, 0.3, 0.3] reaches outside the image"), blur.err)
        // The library: CIDepthBlurEffect divides by its photo's size.
        let photo = Image(color: [0.5, 0.5, 0.5, 1]).cropped(to: Rect(x: 0, y: 0, width: 400, height: 300))
        let disparity = Image(color: [1, 1, 1, 1]).cropped(to: Rect(x: 0, y: 0, width: 40, height: 30))
        XCTAssertThrowsError(try photo.applyingFilter("CIDepthBlurEffect", parameters: [
            "inputDisparityImage": .image(disparity), "inputFocusRect": .rect(Rect(x: 100, y: 200, width: 300, height: 300))])) {
            XCTAssertEqual("\($0)", "CIDepthBlurEffect.inputFocusRect: inputFocusRect is normalised (0…1, lower-left origin); [100, 200, 300, 300] looks like pixels: divide by the photo's size (400×300) → [0.25, 0.667, 0.75, 1]")
        }
    }
}
