import Foundation
import GraphCodecs
import GraphEngine
import GraphRecipes
import XCTest
@testable import GraphCLI

/// Depth recipes and `graph apply` on your own depth photo: `--set photo.file=` moves the
/// photo's maps with it, `apply` reads the input's own disparity and matte, a colour photo given
/// as a map is an error (a grey map, however stored, is not), and a map from another file with
/// another aspect ratio warns. Real photos from ../shared/testdata/depth (skipped when absent).
final class PhotoMapTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let depthExamples = repository + "/Examples/depth"
    static let portrait = depthExamples + "/portrait.jpg"

    var folder: URL!

    override func setUpWithError() throws {
        folder = try makeWorkspace()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// The red channel of a data render of `image`, with its size.
    func values(_ image: Image) throws -> (width: Int, height: Int, red: [Float]) {
        var options = ContextOptions()
        options.workingFormat = .rgbaf
        let buffer = try Context(options: options).render(image, format: .rgbaf, colorSpace: .data)
        let floats = buffer.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        return (buffer.width, buffer.height, stride(from: 0, to: floats.count, by: 4).map { floats[$0] })
    }

    /// `--set photo.file=` on depth-mask.json: its disparity is the new photo's (the pug HEIC's
    /// 768×576 map, its values), not the shipped portrait's 144×192 one; a `--set` of its own
    /// keeps the disparity where it says.
    func testSetPhotoFileMovesTheDisparityWithIt() throws {
        let pug = try BatchFixture.sharedTestData("depth/iphone13pro_pug_depth.heic")
        let recipe = Self.depthExamples + "/depth-mask.json"
        let moved = try RecipeDecoder.load(path: recipe, overrides: ["photo.file=\(pug)"])
        var builder = RecipeBuilder(recipe: moved)
        let built = try builder.buildAll()
        let disparity = try XCTUnwrap(built["disparity"])
        let own = try DepthPhoto(contentsOf: pug).image(.disparity)
        XCTAssertEqual(disparity.extent, Rect(x: 0, y: 0, width: 768, height: 576))
        let (got, expected) = (try values(disparity), try values(own))
        XCTAssertEqual([got.width, got.height], [expected.width, expected.height])
        XCTAssertTrue(got.red == expected.red, "the disparity values are the pug's")
        XCTAssertEqual(built["photo"]?.extent, Rect(x: 0, y: 0, width: 4032, height: 3024))

        let kept = try RecipeDecoder.load(path: recipe, overrides: ["photo.file=\(pug)", "disparity.file=\(Self.portrait)"])
        var keptBuilder = RecipeBuilder(recipe: kept)
        XCTAssertEqual(try keptBuilder.buildAll()["disparity"]?.extent, Rect(x: 0, y: 0, width: 144, height: 192))
    }

    /// A disparity map from another file warns when its upright aspect ratio differs from the
    /// photo's (the landscape pug against the portrait's map), and not when it matches (the iPhone
    /// 7 Plus photo is stored landscape with EXIF orientation 6: upright, it is portrait too).
    func testAMapFromAnotherFileWithAnotherAspectWarns() throws {
        let pug = try BatchFixture.sharedTestData("depth/iphone13pro_pug_depth.heic")
        let upright = try BatchFixture.sharedTestData("depth/iphone7plus_rw_test00.jpg")
        let recipe = Self.depthExamples + "/depth-mask.json"
        let mismatched = Graph.runInProcess(["dump", recipe, "--stage", "initial",
                                             "--set", "photo.file=\(pug)", "--set", "disparity.file=\(Self.portrait)"])
        XCTAssertEqual(mismatched.status, 0, mismatched.err)
        XCTAssertTrue(mismatched.err.contains(#"graph: warning: images.maskGuided: "disparity", the disparity map (144x192 from '\#(Self.portrait)'), and "photo", the photo (4032x3024 from '\#(pug)'), come from different files and their aspect ratios differ"#),
                      mismatched.err)
        let matching = Graph.runInProcess(["dump", recipe, "--stage", "initial",
                                           "--set", "photo.file=\(upright)", "--set", "disparity.file=\(Self.portrait)"])
        XCTAssertEqual(matching.status, 0, matching.err)
        XCTAssertFalse(matching.err.contains("aspect ratios differ"), matching.err)
        // One file for both: no warning, whatever the sizes.
        let own = Graph.runInProcess(["dump", recipe, "--stage", "initial", "--set", "photo.file=\(pug)"])
        XCTAssertEqual(own.status, 0, own.err)
        XCTAssertFalse(own.err.contains("aspect ratios differ"), own.err)
    }

    /// `graph apply IN OUT CIDepthBlurEffect` reads IN's own disparity, and its matte when it has
    /// one: the bytes of the example recipe that names them (portrait-blur-matte.json for the
    /// shipped portrait, portrait-blur.json for the iPhone 7 Plus photo, which has no matte), and
    /// of apply naming them as file images in recipe JSON.
    func testApplyDepthBlurReadsThePhotosOwnMaps() throws {
        let upright = try BatchFixture.sharedTestData("depth/iphone7plus_rw_test00.jpg")
        for (photo, recipe, scale) in [(Self.portrait, "portrait-blur-matte.json", 0.25), (upright, "portrait-blur.json", 0.1)] {
            let viaApply = path("apply.jpg"), viaRecipe = path("recipe.jpg")
            let apply = Graph.runInProcess(["apply", photo, viaApply, "CIDepthBlurEffect", "inputAperture=2", "inputScaleFactor=\(scale)"])
            XCTAssertEqual(apply.status, 0, "\(photo): \(apply.err)")
            let run = Graph.runInProcess(["run", Self.depthExamples + "/" + recipe, "--set", "photo.file=\(photo)",
                                          "--set", "blur.inputAperture=2", "--set", "blur.inputScaleFactor=\(scale)", "-o", viaRecipe])
            XCTAssertEqual(run.status, 0, "\(photo): \(run.err)")
            let a = try XCTUnwrap(FileManager.default.contents(atPath: viaApply))
            let b = try XCTUnwrap(FileManager.default.contents(atPath: viaRecipe))
            XCTAssertEqual(a, b, "\(photo): apply must write the bytes of \(recipe)")
        }
        // The maps named as recipe JSON for file images: the same bytes again.
        let viaJSON = path("json.jpg")
        let json = Graph.runInProcess(["apply", Self.portrait, viaJSON, "CIDepthBlurEffect", "inputAperture=2", "inputScaleFactor=0.25",
                                       #"inputDisparityImage={"file": "\#(Self.portrait)", "auxiliary": "disparity"}"#,
                                       #"inputMatteImage={"file": "\#(Self.portrait)", "auxiliary": "matte"}"#])
        XCTAssertEqual(json.status, 0, json.err)
        let viaDefaults = path("defaults.jpg")
        XCTAssertEqual(Graph.runInProcess(["apply", Self.portrait, viaDefaults, "CIDepthBlurEffect", "inputAperture=2",
                                           "inputScaleFactor=0.25"]).status, 0)
        XCTAssertEqual(FileManager.default.contents(atPath: viaJSON), FileManager.default.contents(atPath: viaDefaults))
    }

    /// GEFocusDisparity takes a map of the photo too: `apply` reads the input's own disparity (the
    /// same value as the recipe that names it), and a recipe giving it the colour photo is an error.
    func testFocusDisparityReadsTheMapNotThePhoto() throws {
        let own = Graph.runInProcess(["apply", Self.portrait, path("focus-own.png"), "GEFocusDisparity"])
        XCTAssertEqual(own.status, 0, own.err)
        let named = try writeRecipe(#"""
            {"version": 1, "images": {"disparity": {"file": "\#(Self.portrait)", "auxiliary": "disparity"},
              "focus": {"filter": "GEFocusDisparity", "inputs": {"inputImage": {"image": "disparity"}}}},
             "outputs": [{"image": "focus", "file": "focus-named.png"}]}
            """#, in: folder)
        let namedRun = Graph.runInProcess(["run", named])
        XCTAssertEqual(namedRun.status, 0, namedRun.err)
        // The same pixel (apply also carries the photo's metadata, so the files differ).
        func pixel(_ name: String) throws -> SIMD4<Float> {
            SIMD4<Float>(try Context().render(try Image(contentsOf: path(name)), format: .rgbaf, colorSpace: .data).pixel(x: 0, row: 0))
        }
        XCTAssertEqual(try pixel("focus-own.png"), try pixel("focus-named.png"), "apply's default map is the photo's own disparity")
        XCTAssertGreaterThan(try pixel("focus-named.png")[0], 0.05, "a disparity, not black")
        let photo = try writeRecipe(#"""
            {"version": 1, "images": {"photo": {"file": "\#(Self.portrait)"},
              "focus": {"filter": "GEFocusDisparity", "inputs": {"inputImage": {"image": "photo"}}}},
             "outputs": [{"image": "focus", "file": "focus-photo.png"}]}
            """#, in: folder)
        let run = Graph.runInProcess(["run", photo])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.err.contains("a colour photo, not a disparity map"), run.err)
        XCTAssertFalse(exists(folder, "focus-photo.png"))
    }

    /// A photo without depth data: the error names the file, what it lacks and how to give a map.
    func testApplyOnAPhotoWithoutDepthNamesWhatIsMissing() throws {
        let result = Graph.runInProcess(["apply", path("in.png"), path("out.jpg"), "CIDepthBlurEffect"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains(
            "graph: error: CIDepthBlurEffect inputDisparityImage: \(path("in.png")): PNG file has no depth or disparity map; it has no auxiliary images (the input's own disparity, read when inputDisparityImage is not given; give one: inputDisparityImage=MAP.png)"),
            result.err)
        XCTAssertFalse(exists(folder, "out.jpg"))
    }

    /// The depth photo itself given as its disparity map is an error with a hint, in `apply` and
    /// in a recipe; the same map written as a grey PNG, a 16-bit grey PNG, an 8- or 16-bit RGBA PNG
    /// with equal channels (as GDepth stores maps) or an RGB JPEG of it is a map and works.
    func testAColourPhotoIsNoDisparityMapButGreyMapsAre() throws {
        let apply = Graph.runInProcess(["apply", Self.portrait, path("out.jpg"), "CIDepthBlurEffect",
                                        "inputDisparityImage=\(Self.portrait)"])
        XCTAssertEqual(apply.status, 2)
        XCTAssertTrue(apply.err.contains(
            "graph: error: CIDepthBlurEffect inputDisparityImage: '\(Self.portrait)' is a colour photo, not a disparity map; omit inputDisparityImage to use the input's own disparity"),
            apply.err)
        let recipe = try writeRecipe(#"""
            {"version": 1, "images": {"photo": {"file": "\#(Self.portrait)"}, "disparity": {"file": "\#(Self.portrait)"},
              "blur": {"filter": "CIDepthBlurEffect", "inputs": {"inputImage": {"image": "photo"},
                       "inputDisparityImage": {"image": "disparity"}, "inputScaleFactor": 0.1}}},
             "outputs": [{"image": "blur", "file": "out.jpg"}]}
            """#, in: folder)
        let run = Graph.runInProcess(["run", recipe])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.err.contains(
            #"graph: error: images.blur.inputs.inputDisparityImage: image "disparity" reads '\#(Self.portrait)', a colour photo, not a disparity map; use {"file": "\#(Self.portrait)", "auxiliary": "disparity"} for the photo's own disparity"#),
            run.err)

        // The portrait's own map, stored five ways.
        let map = try DepthPhoto(contentsOf: Self.portrait).image(.disparity)
        try Context().write(map, to: path("grey.png"), options: ImageWriteOptions(colorSpace: .data))
        try Context().write(map, to: path("grey16.png"), options: ImageWriteOptions(bitDepth: 16, colorSpace: .data))
        let rgba = try Context().render(map, format: .rgba8, colorSpace: .data)
        let bytes = rgba.withUnsafeBytes { Array($0) }
        try ImageFile.writeAtomically(try PNGCodec.encode(width: rgba.width, height: rgba.height, channels: 4, bitDepth: 8, bytes: bytes),
                                      to: path("equal.png"))
        try ImageFile.writeAtomically(try JPEGCodec.encode(width: rgba.width, height: rgba.height, channels: 4, bytes: bytes, quality: 95),
                                      to: path("equal.jpg"))
        let rgba16 = try Context().render(map, format: .rgba16, colorSpace: .data)
        try ImageFile.writeAtomically(try PNGCodec.encode(width: rgba16.width, height: rgba16.height, channels: 4, bitDepth: 16,
                                                          bytes: rgba16.withUnsafeBytes { Array($0) }),
                                      to: path("equal16.png"))
        XCTAssertEqual(try ImageFile.info(path: path("grey16.png")).bitDepth, 16)
        XCTAssertEqual(try ImageFile.info(path: path("equal16.png")).colorModel, "RGBA")
        XCTAssertEqual(try ImageFile.info(path: path("equal.png")).colorModel, "RGBA")
        XCTAssertEqual(try ImageFile.info(path: path("equal.jpg")).colorModel, "YCbCr")
        for name in ["grey.png", "grey16.png", "equal.png", "equal16.png", "equal.jpg"] {
            let result = Graph.runInProcess(["apply", Self.portrait, path("out-\(name).jpg"), "CIDepthBlurEffect",
                                             "inputDisparityImage=\(path(name))", "inputScaleFactor=0.1"])
            XCTAssertEqual(result.status, 0, "\(name): \(result.err)")
            XCTAssertFalse(result.err.contains("colour photo"), "\(name): \(result.err)")
        }
    }
}
