import Foundation
import GraphCodecs
import GraphEngine
import XCTest
@testable import GraphCLI

/// `graph apply IN OUT FILTER KEY=VALUE... [+ FILTER ...]`: the same render as the recipe it stands for.
final class ApplyCommandTests: XCTestCase {
    private var repository: String {
        let file = #filePath
        return String(file[..<(file.range(of: "/Tests/")?.lowerBound ?? file.endIndex)])
    }

    /// A 64×48 JPEG with varied colour (no metadata), so colour filters change every channel.
    private func makeJPEG(in folder: URL, name: String = "photo.jpg", metadata: ImageMetadata? = nil) throws -> String {
        let ramp = try Image.filter("CILinearGradient", parameters: [
            "inputPoint0": .vector([0, 0]), "inputPoint1": .vector([64, 48]),
            "inputColor0": .color([0.9, 0.2, 0.1, 1]), "inputColor1": .color([0.1, 0.5, 0.9, 1]),
        ]).cropped(to: Rect(x: 0, y: 0, width: 64, height: 48))
        let path = folder.appendingPathComponent(name).path
        try Context().write(ramp, to: path, options: ImageWriteOptions(quality: 95, metadata: metadata))
        return path
    }

    /// `graph apply` on a depth photo keeps its depth as `graph run` does: the source's map byte for
    /// byte when the geometry is unchanged, the map cropped with the photo, and a note (not an
    /// error) for a PNG output, which cannot carry it.
    func testApplyOnADepthPhotoKeepsItsDepth() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        var photo: [UInt8] = [], map: [Float] = []
        for row in 0..<48 {
            for x in 0..<64 {
                photo += [UInt8(x * 4), UInt8(row * 5), 200]
                map.append(0.2 + 0.6 * Float(x) / 63)
            }
        }
        let mapImage = Image(buffer: try ImageBuffer(width: 64, height: 48, format: .grayf, colorSpace: nil,
                                                     bytes: map.withUnsafeBytes { Array($0) }))
        var options = ImageWriteOptions(quality: 95)
        options.auxiliaryImages = AuxiliaryImages(depthData: DepthData(map: mapImage, kind: .disparity, accuracy: .relative))
        let input = folder.appendingPathComponent("depth.jpg").path
        try Context().write(Image(buffer: try ImageBuffer(width: 64, height: 48, format: .rgb8, bytes: photo)), to: input, options: options)
        func storedMap(_ path: String) throws -> [UInt8] {
            let bytes = try ImageFile.read(path: path)
            guard case .jpeg(let stream)? = try ImageFile.info(bytes).auxiliaryImages.first?.location else { return [] }
            return Array(bytes[stream.range])
        }

        let kept = folder.appendingPathComponent("kept.jpg").path
        let apply = Graph.runInProcess(["apply", input, kept, "CISepiaTone", "inputIntensity=0.5"])
        XCTAssertEqual(apply.status, 0, apply.err)
        XCTAssertFalse(try storedMap(input).isEmpty)
        XCTAssertTrue(try storedMap(kept) == storedMap(input), "the source's map, unchanged")

        let cropped = folder.appendingPathComponent("cropped.jpg").path
        let crop = Graph.runInProcess(["apply", input, cropped, "CISepiaTone", "+", "CICrop", "inputRectangle=16,8,32,24"])
        XCTAssertEqual(crop.status, 0, crop.err)
        let depth = try DepthData(contentsOf: cropped)
        XCTAssertEqual(depth.kind, .disparity)
        let values = try Context().render(depth.map, format: .grayf, colorSpace: .data)
        XCTAssertEqual([values.width, values.height], [32, 24])
        let range = try XCTUnwrap(depth.storedRange)
        XCTAssertEqual(range.lowerBound, 0.2 + 0.6 * 16 / 63, accuracy: 0.01)
        XCTAssertEqual(range.upperBound, 0.2 + 0.6 * 47 / 63, accuracy: 0.01)

        let png = Graph.runInProcess(["apply", input, folder.appendingPathComponent("out.png").path, "CISepiaTone"])
        XCTAssertEqual(png.status, 0, png.err)
        XCTAssertTrue(png.err.contains("a PNG output cannot carry depth data"), png.err)
    }

    /// A 64×48 PNG of one colour, (0.8, 0.4, 0.2) in sRGB, with a dark 8×8 square in the middle.
    private func makeFlatPNG(in folder: URL) throws -> String {
        var bytes: [UInt8] = []
        for row in 0..<48 {
            for x in 0..<64 {
                let dark = x >= 28 && x < 36 && row >= 20 && row < 28
                bytes += dark ? [20, 20, 20, 255] : [204, 102, 51, 255]
            }
        }
        let path = folder.appendingPathComponent("flat.png").path
        try Context().write(Image(buffer: try ImageBuffer(width: 64, height: 48, format: .rgba8, alphaMode: .opaque, bytes: bytes)), to: path)
        return path
    }

    /// The pixels of an 8-bit RGBA render of `path`: width, height, and [row][column] (top row first).
    private func pixels(_ path: String) throws -> (width: Int, height: Int, rows: [[[UInt8]]]) {
        let buffer = try Context().render(try Image(contentsOf: path), format: .rgba8)
        let bytes = buffer.bytes
        let rows = (0..<buffer.height).map { row in
            (0..<buffer.width).map { x in Array(bytes[(row * buffer.width + x) * 4..<(row * buffer.width + x) * 4 + 4]) }
        }
        return (buffer.width, buffer.height, rows)
    }

    /// Issue 25 item 2: `graph apply IN OUT CIGaussianBlur inputRadius=10` keeps IN's size and
    /// extends its edges (as `vips gaussblur`): the whole border ring keeps the input's colour,
    /// opaque; `--core-image-extent` writes Core Image's grown extent, its corners transparent.
    func testBlurKeepsTheInputSizeWithItsEdgesExtended() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try makeFlatPNG(in: folder)
        let out = folder.appendingPathComponent("blurred.png").path
        let result = Graph.runInProcess(["apply", input, out, "CIGaussianBlur", "inputRadius=10"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("blurred.png 64x48 PNG"), result.out)
        let blurred = try pixels(out)
        XCTAssertEqual([blurred.width, blurred.height], [64, 48])
        var worst = 0
        for row in 0..<48 {
            for x in 0..<64 where row == 0 || row == 47 || x == 0 || x == 63 {
                for (c, want) in [204, 102, 51, 255].enumerated() { worst = max(worst, abs(Int(blurred.rows[row][x][c]) - want)) }
            }
        }
        XCTAssertLessThanOrEqual(worst, 2, "the border keeps the input's colour, opaque")
        // The dark square is blurred: its centre is lighter than the input's 20, its colour spread out.
        XCTAssertGreaterThan(blurred.rows[24][32][0], 60)
        XCTAssertLessThan(blurred.rows[24][32][0], 200)

        let coreImage = folder.appendingPathComponent("core-image.png").path
        let grown = Graph.runInProcess(["apply", input, coreImage, "--core-image-extent", "CIGaussianBlur", "inputRadius=10"])
        XCTAssertEqual(grown.status, 0, grown.err)
        let wide = try pixels(coreImage)
        XCTAssertEqual([wide.width, wide.height], [124, 108], "Core Image's extent grows by 3σ on every side")
        XCTAssertEqual(wide.rows[0][0][3], 0, "and fades to transparent")
    }

    /// Filters that move pixels by a known scale get the moved extent with opaque edges
    /// (CILanczosScaleTransform), a crop its rectangle; a rotation that shows corners and a
    /// perspective transform keep Core Image's result.
    func testScalesCropsAndRotationsFollowTheEdgeRule() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try makeFlatPNG(in: folder)
        func apply(_ name: String, _ chain: [String]) throws -> (width: Int, height: Int, rows: [[[UInt8]]]) {
            let out = folder.appendingPathComponent(name).path
            let result = Graph.runInProcess(["apply", input, out] + chain)
            XCTAssertEqual(result.status, 0, result.err)
            return try pixels(out)
        }
        let half = try apply("half.png", ["CILanczosScaleTransform", "inputScale=0.5", "inputAspectRatio=1.25"])
        XCTAssertEqual([half.width, half.height], [40, 24])
        XCTAssertEqual(half.rows[0][0], [204, 102, 51, 255], "opaque edges, the input's colour")
        let fading = try apply("half-ci.png", ["--core-image-extent", "CILanczosScaleTransform", "inputScale=0.5", "inputAspectRatio=1.25"])
        XCTAssertEqual([fading.width, fading.height], [40, 24])
        XCTAssertLessThan(fading.rows[0][0][3], 250, "Core Image's scale fades its border")

        let crop = try apply("crop.png", ["CIGaussianBlur", "inputRadius=2", "+", "CICrop", "inputRectangle=-10,-10,30,20"])
        XCTAssertEqual([crop.width, crop.height], [20, 10], "the crop of the input's extent")

        let turned = try apply("turned.png", ["CIAffineTransform", "inputTransform=0.8,0.6,-0.6,0.8,0,0"])
        let turnedCoreImage = try apply("turned-ci.png", ["--core-image-extent", "CIAffineTransform", "inputTransform=0.8,0.6,-0.6,0.8,0,0"])
        XCTAssertEqual([turned.width, turned.height], [turnedCoreImage.width, turnedCoreImage.height])
        XCTAssertEqual(turned.rows[0][0][3], 0, "a rotation keeps its transparent corners")
        XCTAssertEqual(turned.rows, turnedCoreImage.rows)
    }

    /// The rule itself, on images: the crop `graph apply` uses, or nil for Core Image's result.
    func testEdgeCropRule() throws {
        let photo = Image(color: [0.5, 0.4, 0.3, 1]).cropped(to: Rect(x: 0, y: 0, width: 100, height: 80))
        func crop(_ result: Image) -> Rect? { ApplyChain.edgeCrop(input: photo, result: result) }
        XCTAssertEqual(crop(try photo.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(5)])), photo.extent)
        XCTAssertEqual(crop(try photo.applyingFilter("CISepiaTone")), photo.extent)
        XCTAssertEqual(crop(try photo.applyingFilter("CILanczosScaleTransform", parameters: ["inputScale": .number(2.5)])),
                       Rect(x: 0, y: 0, width: 250, height: 200))
        XCTAssertEqual(crop(try photo.applyingFilter("CIBicubicScaleTransform", parameters: ["inputScale": .number(0.33)])),
                       Rect(x: 0, y: 0, width: 33, height: 27))
        XCTAssertEqual(crop(try photo.applyingFilter("CICrop", parameters: ["inputRectangle": .rect(Rect(x: 10, y: 20, width: 30, height: 200))])),
                       Rect(x: 10, y: 20, width: 30, height: 60))
        XCTAssertEqual(crop(photo.transformed(by: AffineTransform(scaleX: 2, y: 3))), Rect(x: 0, y: 0, width: 200, height: 240))
        XCTAssertNil(crop(photo.transformed(by: AffineTransform(a: 0.8, b: 0.6, c: -0.6, d: 0.8, tx: 0, ty: 0))), "corners show")
        // A rotation cropped inside the rotated photo: every pixel comes from the photo.
        let inside = photo.transformed(by: AffineTransform(a: 0.8, b: 0.6, c: -0.6, d: 0.8, tx: 0, ty: 0))
            .cropped(to: Rect(x: -10, y: 40, width: 30, height: 20))
        XCTAssertEqual(crop(inside), Rect(x: -10, y: 40, width: 30, height: 20))
        XCTAssertEqual(crop(try photo.applyingFilter("CIHexagonalPixellate", parameters: ["inputScale": .number(8)])), photo.extent)
        XCTAssertNil(crop(try photo.applyingFilter("CIPerspectiveTransform")), "a perspective transform keeps Core Image's")
    }

    func testApplyRendersT2ChainWithTheRecipesBytes() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try makeJPEG(in: folder)
        let viaRecipe = folder.appendingPathComponent("recipe.jpg").path
        let viaApply = folder.appendingPathComponent("apply.jpg").path
        let recipe = repository + "/Benchmarks/recipes/t2-color-chain.json"
        let run = Graph.runInProcess(["run", recipe, "--set", "photo.file=\(photo)", "-o", viaRecipe])
        XCTAssertEqual(run.status, 0, run.err)
        let apply = Graph.runInProcess([
            "apply", photo, viaApply, "--no-color-management", "--quality", "90",
            "CISepiaTone", "inputIntensity=1",
            "+", "CIColorMatrix", "inputRVector=0.80154,-0.255261,0.453721,0", "inputGVector=0.094633,1.032231,-0.126863,0",
            "inputBVector=[-0.351233, 0.430318, 0.920915, 0]",
            "+", "CIColorControls", "inputContrast=1.2",
        ])
        XCTAssertEqual(apply.status, 0, apply.err)
        XCTAssertTrue(apply.out.contains("apply.jpg 64x48 JPEG"), apply.out)
        let a = try XCTUnwrap(FileManager.default.contents(atPath: viaRecipe))
        let b = try XCTUnwrap(FileManager.default.contents(atPath: viaApply))
        XCTAssertEqual(a, b, "graph apply must write the recipe's bytes")
        // And the chain did something: not the input re-encoded.
        let plain = Graph.runInProcess(["apply", photo, folder.appendingPathComponent("plain.jpg").path,
                                        "--no-color-management", "CIColorControls"])
        XCTAssertEqual(plain.status, 0, plain.err)
        XCTAssertNotEqual(FileManager.default.contents(atPath: folder.appendingPathComponent("plain.jpg").path), a)
    }

    func testValuesAreReadByTheirDeclaredTypes() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.png").path
        let mask = Image(color: [1, 1, 1, 1]).cropped(to: Rect(x: 0, y: 0, width: 4, height: 6))
        try Context().write(mask, to: folder.appendingPathComponent("mask.png").path)
        let out = folder.appendingPathComponent("out.png").path
        // A rect (CICrop), a hex colour (CIConstantColorGenerator via CIBlendWithMask's background is
        // an image file here) and a vector: the crop's size shows in the summary line.
        let result = Graph.runInProcess([
            "apply", input, out, "--no-color-management",
            "CIBlendWithMask", "inputBackgroundImage=\(input)", "inputMaskImage=\(folder.appendingPathComponent("mask.png").path)",
            "+", "CIColorMonochrome", "inputColor=#ff8000", "inputIntensity=1",
            "+", "CICrop", "inputRectangle=0,0,5,4",
        ])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("out.png 5x4 PNG"), result.out)
        // The monochrome colour #ff8000 as sRGB (1, 128/255, 0): Core Image's CIColorMonochrome of a
        // pixel is its luminance times the colour, so the red channel is at least the green.
        let pixels = try Context().render(try Image(contentsOf: out), format: .rgba8)
        let bytes = pixels.bytes
        XCTAssertGreaterThan(bytes[0], bytes[1])
        XCTAssertEqual(bytes[2], 0)
    }

    func testErrorsNameTheFilterAndKey() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.png").path
        let out = folder.appendingPathComponent("out.png").path
        let cases: [([String], String)] = [
            (["CIGausianBlur", "inputRadius=3"], #"filter 1: unknown filter "CIGausianBlur" (did you mean "CIGaussianBlur"?)"#),
            (["CIPersonSegmentation"], "filter 1: CIPersonSegmentation is a Core Image filter this engine does not provide: it runs Apple's Vision"),
            (["CIPersonSegmentaton"],
             #"filter 1: unknown filter "CIPersonSegmentaton" (did you mean "CIPersonSegmentation", a Core Image filter this engine does not provide?)"#),
            (["CISepiaTone", "inputIntensity=steep"], #"CISepiaTone inputIntensity: expected a number, got "steep""#),
            (["CISepiaTone", "inputIntensity=2"], "CISepiaTone inputIntensity: "),
            (["CISepiaTone", "inputIntensty=1"], #"CISepiaTone inputIntensty: CISepiaTone has no input "inputIntensty" (did you mean "inputIntensity"?)"#),
            (["CISepiaTone", "0.8"], #"CISepiaTone: expected KEY=VALUE, got "0.8" (e.g. inputIntensity=1)"#),
            (["CISepiaTone", "+"], "expected a filter after the last '+'"),
            ([], "expected a filter after the output path"),
            (["CIAffineTransform", "inputTransform=1,0,0"], "CIAffineTransform inputTransform: expected a transform of 6 numbers"),
            (["CIBlendWithMask", "inputMaskImage=missing.png", "inputBackgroundImage=\(input)"], "CIBlendWithMask inputMaskImage: "),
        ]
        for (chain, expected) in cases {
            let result = Graph.runInProcess(["apply", input, out] + chain)
            XCTAssertEqual(result.status, 2, "\(chain)")
            XCTAssertTrue(result.err.hasPrefix("graph: error: " + expected), "\(chain): \(result.err)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), "\(chain) wrote a file")
        }
        let clamped = Graph.runInProcess(["apply", input, out, "CIColorInvert", "+", "CIGaussianBlur", "inputRadius=2", "+", "CIAffineTransform"])
        XCTAssertEqual(clamped.status, 0, clamped.err)
    }

    func testInfiniteResultAsksForACrop() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.png").path
        let out = folder.appendingPathComponent("o.png").path
        let result = Graph.runInProcess(["apply", input, out, "CIConstantColorGenerator", "inputColor=#ff0000"])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.err, "graph: error: output: the result of CIConstantColorGenerator has an infinite extent; crop it: add + CICrop inputRectangle=X,Y,WIDTH,HEIGHT\n")
        // A generator (no inputImage) composited over the input file, then cropped.
        let cropped = Graph.runInProcess(["apply", input, out, "CIConstantColorGenerator", "inputColor=1,0,0,0.5",
                                          "+", "CISourceOverCompositing", "inputBackgroundImage=\(input)", "+", "CICrop", "inputRectangle=0,0,8,6"])
        XCTAssertEqual(cropped.status, 0, cropped.err)
        let pixel = try Context().render(try Image(contentsOf: out), format: .rgba8).bytes
        XCTAssertGreaterThan(pixel[0], 204)  // half-transparent red over the input's (0.8, 0.4, 0.2)
        XCTAssertLessThan(pixel[1], 102)
    }

    func testDumpPrintsTheOptimizedPrograms() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = Graph.runInProcess(["apply", folder.appendingPathComponent("in.png").path, folder.appendingPathComponent("o.png").path,
                                         "CISepiaTone", "+", "CIHueAdjust", "inputAngle=0.5", "--dump"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("optimized graph render"), result.out)
        XCTAssertTrue(result.out.contains("program p0 = "), result.out)
        XCTAssertTrue(result.out.contains("fold-color-matrices: folded CISepiaTone and CIHueAdjust"), result.out)
        XCTAssertFalse(result.out.contains("initial graph"), result.out)
    }

    func testOutputCarriesTheInputsEXIFUnlessAskedNot() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        var metadata = ImageMetadata(format: .jpeg)
        metadata.exif = EXIF.makeOrientationTIFF(1)
        let tiff = try EXIFFixture.cameraTIFF()
        metadata.exif = tiff
        let photo = try makeJPEG(in: folder, metadata: metadata)
        XCTAssertEqual(try ImageFile.info(path: photo).metadata.exifSummary?.model, "TestCam 1")
        let kept = folder.appendingPathComponent("kept.jpg").path
        let stripped = folder.appendingPathComponent("stripped.jpg").path
        XCTAssertEqual(Graph.runInProcess(["apply", photo, kept, "CISepiaTone"]).status, 0)
        XCTAssertEqual(Graph.runInProcess(["apply", photo, stripped, "CISepiaTone", "--no-metadata"]).status, 0)
        XCTAssertEqual(try ImageFile.info(path: kept).metadata.exifSummary?.model, "TestCam 1")
        XCTAssertNil(try ImageFile.info(path: stripped).metadata.exif)
    }
}

/// A small EXIF block with camera fields, written by hand (big-endian TIFF).
enum EXIFFixture {
    static func cameraTIFF() throws -> [UInt8] {
        // IFD0: Make, Model, Orientation, ExifIFD pointer. Exif IFD: ExposureTime 1/250, FNumber 2.8, ISO 400.
        var out: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8]
        func u16(_ v: Int) { out += [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) { u16(v >> 16); u16(v & 0xFFFF) }
        let make = Array("Test\0".utf8), model = Array("TestCam 1\0".utf8)
        let ifd0 = 8, ifd0Size = 2 + 4 * 12 + 4
        let makeAt = ifd0 + ifd0Size, modelAt = makeAt + make.count, exifAt = modelAt + model.count
        let exifSize = 2 + 3 * 12 + 4, rationalsAt = exifAt + exifSize
        u16(4)
        u16(0x010F); u16(2); u32(make.count); u32(makeAt)
        u16(0x0110); u16(2); u32(model.count); u32(modelAt)
        u16(0x0112); u16(3); u32(1); u16(1); u16(0)
        u16(0x8769); u16(4); u32(1); u32(exifAt)
        u32(0)
        out += make + model
        u16(3)
        u16(0x829A); u16(5); u32(1); u32(rationalsAt)
        u16(0x829D); u16(5); u32(1); u32(rationalsAt + 8)
        u16(0x8827); u16(3); u32(1); u16(400); u16(0)
        u32(0)
        u32(1); u32(250); u32(28); u32(10)
        return out
    }
}
