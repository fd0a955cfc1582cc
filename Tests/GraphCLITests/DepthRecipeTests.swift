import Foundation
import GraphCodecs
import GraphEngine
import GraphRecipes
import XCTest
@testable import GraphCLI

/// Depth in recipes: `"auxiliary"` file images, outputs that carry, drop or attach depth data,
/// data outputs, and `graph info` on depth photos.
final class DepthRecipeTests: XCTestCase {
    /// A 64×48 depth photo: a colour gradient and a disparity map of the same size whose values
    /// run 0.2 (left) ... 0.8 (right). Returns the folder.
    private func makeDepthPhoto() throws -> URL {
        let folder = try makeWorkspace()
        var photo: [UInt8] = [], map: [Float] = []
        for row in 0..<48 {
            for x in 0..<64 {
                photo += [UInt8(x * 4), UInt8(row * 5), 200]
                map.append(0.2 + 0.6 * Float(x) / 63)
            }
        }
        let photoImage = Image(buffer: try ImageBuffer(width: 64, height: 48, format: .rgb8, bytes: photo))
        let mapImage = Image(buffer: try ImageBuffer(width: 64, height: 48, format: .grayf, colorSpace: nil,
                                                     bytes: map.withUnsafeBytes { Array($0) }))
        var options = ImageWriteOptions(quality: 95)
        options.auxiliaryImages = AuxiliaryImages(depthData: DepthData(map: mapImage, kind: .disparity, accuracy: .relative))
        try Context().write(photoImage, to: folder.appendingPathComponent("depth.jpg").path, options: options)
        return folder
    }

    /// The samples of an 8- or 16-bit PNG, normalised to 0...1, with its channel count.
    private func png(_ path: String) throws -> (values: [Double], channels: Int, hasProfile: Bool) {
        let decoded = try ImageFile.decode(path: path)
        let maximum = decoded.bitDepth == 16 ? 65535.0 : 255.0
        let values: [Double] = decoded.bitDepth == 16
            ? decoded.bytes.withUnsafeBytes { $0.bindMemory(to: UInt16.self).map { Double($0) / maximum } }
            : decoded.bytes.map { Double($0) / maximum }
        return (values, decoded.channels, decoded.metadata.iccProfile != nil)
    }

    /// A kernel that reads a colour photo as its guide but returns the disparity: a `"data"`
    /// output keeps the values (grey 16-bit PNG, no profile); the default sRGB output encodes them.
    func testDataOutputKeepsValuesComputedWithAColourGuide() throws {
        let folder = try makeDepthPhoto()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try writeRecipe(#"""
        {"version": 1,
         "kernels": {"guided": {"source": "kernel vec4 guided(__sample d, __sample p) { return vec4(vec3(d.r * step(-1.0, p.g)), 1.0); }"}},
         "images": {"photo": {"file": "depth.jpg"},
                    "disparity": {"file": "depth.jpg", "auxiliary": "disparity"},
                    "refined": {"kernel": "guided", "arguments": [{"image": "disparity"}, {"image": "photo"}]}},
         "outputs": [{"image": "refined", "file": "data.png", "bitDepth": 16, "colorSpace": "data"},
                     {"image": "refined", "file": "encoded.png", "bitDepth": 16}]}
        """#, in: folder)
        let result = Graph.runInProcess(["run", path])
        XCTAssertEqual(result.status, 0, result.err)
        let expected = try Context().render(try Image(contentsOf: folder.appendingPathComponent("depth.jpg").path,
                                                      auxiliary: .disparity), format: .grayf, colorSpace: .data)
        let values = expected.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let data = try png(folder.appendingPathComponent("data.png").path)
        XCTAssertEqual(data.channels, 1, "grey")
        XCTAssertFalse(data.hasProfile, "data is untagged")
        XCTAssertEqual(data.values.count, values.count)
        for (written, value) in zip(data.values, values) { XCTAssertEqual(written, Double(value), accuracy: 1.0 / 65535) }
        let encoded = try png(folder.appendingPathComponent("encoded.png").path)
        XCTAssertTrue(encoded.hasProfile)
        // 0.2 disparity sRGB-encoded is about 0.48: far from the value.
        XCTAssertGreaterThan(encoded.values[0] - Double(values[0]), 0.2)
    }

    func testOutputsCarryDropAndAttachDepth() throws {
        let folder = try makeDepthPhoto()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try writeRecipe(#"""
        {"version": 1,
         "kernels": {"halve": {"source": "kernel vec4 halve(__sample d) { return vec4(d.rgb * 0.5, 1.0); }"}},
         "images": {"photo": {"file": "depth.jpg"},
                    "toned": {"filter": "CISepiaTone", "inputs": {"inputImage": {"image": "photo"}}},
                    "cropped": {"filter": "CICrop", "inputs": {"inputImage": {"image": "toned"}, "inputRectangle": [16, 8, 32, 24]}},
                    "disparity": {"file": "depth.jpg", "auxiliary": "disparity"},
                    "halved": {"kernel": "halve", "arguments": [{"image": "disparity"}]}},
         "outputs": [{"image": "toned", "file": "kept.jpg"},
                     {"image": "cropped", "file": "cropped.jpg"},
                     {"image": "toned", "file": "dropped.jpg", "auxiliary": "drop"},
                     {"image": "toned", "file": "attached.jpg", "attach": {"disparity": "halved"}},
                     {"image": "toned", "file": "kept.png"},
                     {"image": "toned", "file": "kept.heic", "quality": 80}]}
        """#, in: folder)
        let result = Graph.runInProcess(["run", path])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.err.contains("outputs[4]: a PNG output cannot carry depth data"), result.err)
        XCTAssertTrue(result.err.contains("outputs[5]: a HEIC output cannot carry depth data"), result.err)
        XCTAssertTrue(result.out.contains("kept.heic 64x48 HEIC"), result.out)
        XCTAssertEqual(try ImageFile.info(path: folder.appendingPathComponent("kept.heic").path).format, .heif)
        let source = try ImageFile.read(path: folder.appendingPathComponent("depth.jpg").path)
        let sourceInfo = try ImageFile.info(source)
        guard case .jpeg(let sourceStream)? = sourceInfo.auxiliaryImages.first?.location else { return XCTFail("no map") }

        // Unchanged geometry: the source's map, byte for byte.
        let kept = try ImageFile.read(path: folder.appendingPathComponent("kept.jpg").path)
        guard case .jpeg(let keptStream)? = try ImageFile.info(kept).auxiliaryImages.first?.location else { return XCTFail("not kept") }
        XCTAssertEqual(Array(kept[keptStream.range]), Array(source[sourceStream.range]))

        // Cropped: 32×24 map holding the source's columns 16..<48 (0.2 + 0.6·x/63).
        let cropped = try DepthData(contentsOf: folder.appendingPathComponent("cropped.jpg").path)
        let croppedValues = try Context().render(cropped.map, format: .grayf, colorSpace: .data)
        XCTAssertEqual([croppedValues.width, croppedValues.height], [32, 24])
        let range = try XCTUnwrap(cropped.storedRange)
        XCTAssertEqual(range.lowerBound, 0.2 + 0.6 * 16 / 63, accuracy: 0.01)
        XCTAssertEqual(range.upperBound, 0.2 + 0.6 * 47 / 63, accuracy: 0.01)

        XCTAssertTrue(try ImageFile.info(path: folder.appendingPathComponent("dropped.jpg").path).auxiliaryImages.isEmpty)
        XCTAssertTrue(try ImageFile.info(path: folder.appendingPathComponent("dropped.jpg").path).metadata.mpfEntries.isEmpty)

        let attached = try DepthData(contentsOf: folder.appendingPathComponent("attached.jpg").path)
        XCTAssertEqual(attached.kind, .disparity)
        XCTAssertEqual(attached.accuracy, .relative, "metadata of the photo's own depth")
        XCTAssertEqual(try XCTUnwrap(attached.storedRange).upperBound, 0.4, accuracy: 0.01)
        XCTAssertTrue(try ImageFile.info(path: folder.appendingPathComponent("kept.png").path).auxiliaryImages.isEmpty)
    }

    func testAuxiliaryErrorsNameThePath() throws {
        let folder = try makeDepthPhoto()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [(String, String)] = [
            (#"{"m": {"file": "depth.jpg", "auxiliary": "matte"}}"#,
             "images.m.auxiliary: \(folder.path)/depth.jpg: JPEG file has no portrait effects matte; its auxiliary images: disparity (MPF image 2 (disparity))"),
            (#"{"m": {"file": "in.png", "auxiliary": "depth"}}"#, "images.m.auxiliary: \(folder.path)/in.png: PNG file has no depth or disparity map; it has no auxiliary images"),
            (#"{"m": {"file": "depth.jpg", "auxiliary": "normals"}}"#, #"images.m.auxiliary: expected "disparity", "depth", "matte", "skinMatte", "hairMatte", "teethMatte", "glassesMatte", "skyMatte", "gainMap", "confidence" or "original", got "normals""#),
            (#"{"m": {"file": "depth.jpg", "auxiliary": "depth", "colorSpace": "sRGB"}}"#, "images.m.colorSpace: an auxiliary image is data"),
        ]
        for (images, expected) in cases {
            let path = try writeRecipe(#"{"version": 1, "images": \#(images), "outputs": [{"image": "m", "file": "out.png"}]}"#, in: folder)
            let result = Graph.runInProcess(["run", path])
            XCTAssertEqual(result.status, 2, images)
            XCTAssertTrue(result.err.contains(expected), "\(images)\n\(result.err)")
            XCTAssertFalse(exists(folder, "out.png"))
        }
        let outputs: [(String, String)] = [
            (#"{"image": "p", "file": "o.jpg", "colorSpace": "P3"}"#, #"outputs[0].colorSpace: expected "sRGB", "displayP3", "linearSRGB" or "data", got "P3""#),
            (#"{"image": "p", "file": "o.jpg", "auxiliary": "keepit"}"#, #"outputs[0].auxiliary: expected "keep""#),
            (#"{"image": "p", "file": "o.jpg", "attach": {"disparty": "p"}}"#, #"outputs[0].attach.disparty: unknown auxiliary image (did you mean "disparity"?)"#),
            (#"{"image": "p", "file": "o.jpg", "attach": {"matte": "q"}}"#, #"outputs[0].attach.matte: unknown image "q""#),
            (#"{"image": "p", "file": "o.jpg", "attach": {"disparity": "p", "depth": "p"}}"#, "outputs[0].attach: attach either"),
        ]
        for (output, expected) in outputs {
            let path = try writeRecipe(#"{"version": 1, "images": {"p": {"file": "depth.jpg"}}, "outputs": [\#(output)]}"#, in: folder)
            let result = Graph.runInProcess(["run", path])
            XCTAssertEqual(result.status, 2, output)
            XCTAssertTrue(result.err.contains(expected), "\(output)\n\(result.err)")
        }
    }

    /// `graph info` lists each auxiliary image of the depth photos (JSON here; the text form says
    /// the same), and a HEIC photo runs through a recipe into a JPEG that carries its depth.
    func testInfoAndHEICRecipes() throws {
        let shared = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/testdata/depth")
        guard FileManager.default.fileExists(atPath: shared.path) else { throw XCTSkip("shared test data not found") }
        let expected: [(String, [String], [[Int]], String)] = [
            ("iphone7plus_rw_test00.jpg", ["disparity"], [[768, 576, 6]], "8-bit grey"),
            ("iphoneX_depth_matte_shu223.jpg", ["disparity", "portraitEffectsMatte"], [[576, 768, 1], [1512, 2016, 1]], "8-bit grey"),
            ("iphone13pro_pug_depth.heic", ["hdrGainMap", "disparity"], [[2016, 1512, 1], [768, 576, 1]], "8-bit grey"),
            ("gdepth_motorola_xt912_exifr.jpg", ["depth"], [[1536, 2048, 1]], "8-bit RGBA"),
        ]
        for (file, kinds, sizes, pixelFormat) in expected {
            let result = Graph.runInProcess(["info", "--format", "json", shared.appendingPathComponent(file).path])
            XCTAssertEqual(result.status, 0, result.err)
            let json = try JSONParser.parse(result.out)
            guard case .array(let images)? = json["auxiliaryImages"] else { return XCTFail("no auxiliaryImages for \(file)") }
            XCTAssertEqual(images.compactMap { if case .string(let kind)? = $0["kind"] { return kind } else { return nil } }, kinds, file)
            for (image, size) in zip(images, sizes) {
                XCTAssertEqual([image["width"], image["height"], image["orientation"]], size.map { .number(Double($0)) }, file)
                XCTAssertEqual(image["pixelFormat"], .string(pixelFormat), file)
            }
            if case .array(let warnings)? = json["warnings"] { XCTAssertEqual(warnings, [], file) }
            let text = Graph.runInProcess(["info", shared.appendingPathComponent(file).path])
            XCTAssertEqual(text.out.components(separatedBy: "auxiliary image: ").count - 1, kinds.count, text.out)
            XCTAssertFalse(text.out.contains("warning"), text.out)
        }

        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try writeRecipe(#"""
        {"version": 1,
         "images": {"pug": {"file": "\#(shared.path)/iphone13pro_pug_depth.heic"},
                    "small": {"filter": "CIAffineTransform", "inputs": {"inputImage": {"image": "pug"}, "inputTransform": [0.25, 0, 0, 0.25, 0, 0]}}},
         "outputs": [{"image": "small", "file": "pug.jpg", "colorSpace": "displayP3"}]}
        """#, in: folder)
        let result = Graph.runInProcess(["run", path])
        XCTAssertEqual(result.status, 0, result.err)
        let info = try ImageFile.info(path: folder.appendingPathComponent("pug.jpg").path)
        XCTAssertEqual([info.width, info.height], [1008, 756])
        XCTAssertEqual(info.iccProfile?.kind, .displayP3)
        // The disparity and the HDR gain map, each a quarter of its stored size like the photo.
        XCTAssertEqual(info.auxiliaryImages.map(\.kind), [.disparity, .hdrGainMap])
        XCTAssertEqual([info.auxiliaryImages[0].width, info.auxiliaryImages[0].height], [192, 144])
        XCTAssertEqual([info.auxiliaryImages[1].width, info.auxiliaryImages[1].height], [504, 378])
    }

    /// An edit of an iPhone photo carries every auxiliary image it has (issue 24): the iPhone 14
    /// HEIC's disparity, portrait matte, four semantic mattes and HDR gain map are written into the
    /// JPEG as MPF images typed by their URN, each map's samples within one JPEG step of the
    /// source's; a halving edit halves them all. A recipe whose output does not come from the photo
    /// carries nothing and does not warn.
    func testSemanticMattesAndGainMapAreCarriedIntoAJPEG() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/testdata/depth-more/iphone14_front_portrait_7aux_fidmaa.heic").path
        guard FileManager.default.fileExists(atPath: file) else { throw XCTSkip("shared test data not found at \(file)") }
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.jpg").path
        let result = Graph.runInProcess(["apply", file, output, "CIColorControls"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.err, "")
        let source = try DepthPhoto(contentsOf: file), written = try DepthPhoto(contentsOf: output)
        func names(_ photo: DepthPhoto) -> [String] {
            photo.auxiliaryImages.map { "\($0.kind.rawValue) \($0.semanticMatteSubject ?? "") \($0.width)x\($0.height)" }
        }
        XCTAssertEqual(Set(names(written)), Set(names(source)))
        XCTAssertEqual(written.auxiliaryImages.count, 7)
        let context = Context()
        for auxiliary in [AuxiliaryImage.skinMatte, .hairMatte, .teethMatte, .glassesMatte, .gainMap, .portraitEffectsMatte] {
            let before = try context.render(try source.image(auxiliary), format: .gray8, colorSpace: .data).bytes
            let after = try context.render(try written.image(auxiliary), format: .gray8, colorSpace: .data).bytes
            XCTAssertEqual(before.count, after.count, "\(auxiliary)")
            let worst = zip(before, after).map { abs(Int($0) - Int($1)) }.max() ?? 0
            XCTAssertLessThanOrEqual(worst, 2, "\(auxiliary): JPEG quality 100 keeps each sample within 2 steps")
            let info = try XCTUnwrap(written.info(for: auxiliary))
            if auxiliary == .gainMap {
                XCTAssertNotNil(info.apple?.hdrGainMapVersion)
            } else if auxiliary != .portraitEffectsMatte {
                XCTAssertNotNil(info.apple?.semanticSegmentationMatteVersion, "\(auxiliary)")
            }
        }

        let halved = folder.appendingPathComponent("half.jpg").path
        XCTAssertEqual(Graph.runInProcess(["apply", file, halved, "CILanczosScaleTransform", "inputScale=0.5"]).status, 0)
        let half = try DepthPhoto(contentsOf: halved)
        for auxiliary in [AuxiliaryImage.skinMatte, .gainMap] {
            let info = try XCTUnwrap(half.info(for: auxiliary), "\(auxiliary)")
            XCTAssertEqual([info.width, info.height], [579, 772], "\(auxiliary)")
        }

        let unrelated = try writeRecipe(#"""
            {"version": 1, "images": {"photo": {"file": "\#(file)"}, "plain": {"file": "in.png"}},
             "outputs": [{"image": "plain", "file": "plain.jpg"}]}
            """#, in: folder)
        let quiet = Graph.runInProcess(["run", unrelated])
        XCTAssertEqual(quiet.status, 0, quiet.err)
        XCTAssertEqual(quiet.err, "")
        XCTAssertEqual(try ImageFile.info(path: folder.appendingPathComponent("plain.jpg").path).auxiliaryImages, [])
    }

    /// The iPhone 14 HEIC's semantic mattes and gain map: `graph info` names the recipe name that
    /// loads each one, and a recipe reads the skin matte (1158×1544, README ground truth) as a
    /// data image; an unknown name lists the known ones.
    func testSemanticMattesLoadByRecipeName() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/testdata/depth-more/iphone14_front_portrait_7aux_fidmaa.heic").path
        guard FileManager.default.fileExists(atPath: file) else { throw XCTSkip("shared test data not found at \(file)") }
        let result = Graph.runInProcess(["info", "--format", "json", file])
        XCTAssertEqual(result.status, 0, result.err)
        guard case .array(let images)? = try JSONParser.parse(result.out)["auxiliaryImages"] else { return XCTFail("no auxiliaryImages") }
        let names = images.map { image -> [String] in
            guard case .array(let names)? = image["recipeNames"] else { return [] }
            return names.compactMap { if case .string(let name) = $0 { return name } else { return nil } }
        }
        XCTAssertEqual(names, [["teethMatte"], ["matte"], ["gainMap"], ["skinMatte"], ["hairMatte"], ["disparity", "depth"], ["glassesMatte"]])
        let text = Graph.runInProcess(["info", file]).out
        XCTAssertTrue(text.contains(#"semanticskinmatte), item 45, 1158x1544 8-bit grey HEVC, range 0.0...1.0 [8-bit alpha], orientation 1, load with "auxiliary": "skinMatte""#), text)

        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recipe = try writeRecipe(#"""
        {"version": 1,
         "images": {"skin": {"file": "\#(file)", "auxiliary": "skinMatte"}},
         "outputs": [{"image": "skin", "file": "skin.png", "colorSpace": "data"}]}
        """#, in: folder)
        let run = Graph.runInProcess(["run", recipe])
        XCTAssertEqual(run.status, 0, run.err)
        let skin = try png(folder.appendingPathComponent("skin.png").path)
        let written = try ImageFile.info(path: folder.appendingPathComponent("skin.png").path)
        XCTAssertEqual([written.width, written.height], [1158, 1544])
        XCTAssertEqual(skin.values.min(), 0)
        XCTAssertEqual(skin.values.max(), 1)

        let wrong = try writeRecipe(#"""
        {"version": 1, "images": {"sky": {"file": "\#(file)", "auxiliary": "skyMatte"}},
         "outputs": [{"image": "sky", "file": "sky.png"}]}
        """#, in: folder)
        let missing = Graph.runInProcess(["run", wrong])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.err.contains("has no semantic sky matte; its auxiliary images: semanticMatte (HEIF item 39"), missing.err)
    }
}
