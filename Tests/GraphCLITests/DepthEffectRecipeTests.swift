import Foundation
import GraphCodecs
import GraphEngine
import GraphRecipes
import Kernels
import XCTest
@testable import GraphCLI

/// Every recipe in Examples/depth on every real depth photo in ../shared/testdata/depth (and the
/// shipped portrait) that has the data it needs, at reduced size: the recipes run, masks stay in
/// [0, 1] and select the subject (the mask's median over the photo's face region at least 0.9), JPEG outputs still carry the depth map, and the portrait blur is sharp on the subject
/// (PSNR ≥ 40 dB against the photo over the focus region) and blurred far away (high-frequency
/// energy of the farthest fifth of the photo down ≥ 10×).
final class DepthEffectRecipeTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let examples = repository.appendingPathComponent("Examples")
    /// Long side of the reduced copies.
    static let size = 256.0

    /// The photos: the shipped portrait, every depth photo of the shared test data, and of
    /// `depth-more` those read in full: the Pixel 8 (Dynamic Depth) and the iPhone 14 HEIC.
    func photos() throws -> [String] {
        let shared = Self.repository.deletingLastPathComponent().appendingPathComponent("shared/testdata/depth")
        let found = (try? FileManager.default.contentsOfDirectory(atPath: shared.path)) ?? []
        if found.isEmpty { print("note: \(shared.path) absent; only the shipped portrait is tested") }
        let more = Self.repository.deletingLastPathComponent().appendingPathComponent("shared/testdata/depth-more")
        let morePhotos = ["pixel8_portrait_flowers_depthbox.jpg", "iphone14_front_portrait_7aux_fidmaa.heic"]
            .map { more.appendingPathComponent($0).path }.filter { FileManager.default.fileExists(atPath: $0) }
        return [Self.examples.appendingPathComponent("depth/portrait.jpg").path]
            + found.filter { [".jpg", ".heic"].contains(where: $0.lowercased().hasSuffix) }.sorted().map { shared.appendingPathComponent($0).path }
            + morePhotos
    }

    /// A copy of `photo` scaled to `size` on its long side, written as JPEG with its depth data
    /// and matte carried along (made with the engine).
    func reducedCopy(_ photo: String, to path: String) throws {
        let info = try DepthPhoto(contentsOf: photo).info
        let scale = Self.size / Double(max(info.orientedWidth, info.orientedHeight))
        let recipe = path + ".shrink.json"
        try #"""
        {"version": 1, "images": {"photo": {"file": "\#(photo)"},
          "small": {"filter": "CILanczosScaleTransform", "inputs": {"inputImage": {"image": "photo"}, "inputScale": \#(scale)}}},
         "outputs": [{"image": "small", "file": "\#(path)", "quality": 95, "metadataFrom": "photo"}]}
        """#.write(toFile: recipe, atomically: true, encoding: .utf8)
        let result = Graph.runInProcess(["run", recipe])
        XCTAssertEqual(result.status, 0, "\(photo): \(result.err)")
    }

    func testEveryDepthRecipeOnEveryPhoto() throws {
        let folder = try makeWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let depth = folder.appendingPathComponent("depth"), recipes = folder.appendingPathComponent("recipes")
        try FileManager.default.createDirectory(at: depth, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: recipes, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.examples.appendingPathComponent("recipes/teal-orange.cube"),
                                         to: recipes.appendingPathComponent("teal-orange.cube"))
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.examples.appendingPathComponent("depth").path).sorted()
        for name in names where name.hasSuffix(".json") || name.hasSuffix(".cube") {
            try FileManager.default.copyItem(at: Self.examples.appendingPathComponent("depth/\(name)"), to: depth.appendingPathComponent(name))
        }
        let recipeNames = names.filter { $0.hasSuffix(".json") }
        XCTAssertGreaterThanOrEqual(recipeNames.count, 12)
        var blurChecked = 0, subjectsChecked = 0
        for photo in try photos() {
            let copy = depth.appendingPathComponent("portrait.jpg").path
            try? FileManager.default.removeItem(atPath: copy)
            try reducedCopy(photo, to: copy)
            let opened = try DepthPhoto(contentsOf: copy)
            XCTAssertNotNil(opened.depthMapInfo, "\(photo): the reduced copy keeps the depth map")
            let hasMatte = opened.portraitEffectsMatteInfo != nil
            for recipe in recipeNames {
                let path = depth.appendingPathComponent(recipe).path
                let text = try String(contentsOfFile: path, encoding: .utf8)
                if text.contains(#""auxiliary": "matte""#) && !hasMatte { continue }
                let label = "\((photo as NSString).lastPathComponent) \(recipe)"
                try? FileManager.default.removeItem(at: depth.appendingPathComponent("output"))
                let result = Graph.runInProcess(["run", path])
                XCTAssertEqual(result.status, 0, "\(label): \(result.err)")
                guard result.status == 0 else { continue }
                let decoded = try RecipeDecoder.load(path: path)
                for output in decoded.outputs {
                    if output.file.hasSuffix(".jpg") {
                        XCTAssertNotNil(try DepthPhoto(contentsOf: output.file).depthMapInfo, "\(label): \(output.file) carries depth")
                    }
                }
                if decoded.images["mask"] != nil || decoded.images["cutout"] != nil {
                    var builder = RecipeBuilder(recipe: decoded)
                    let mask = try builder.image(named: decoded.images["mask"] != nil ? "mask" : "cutout", from: "test")
                    let (low, high) = try extremes(mask)
                    XCTAssertGreaterThanOrEqual(low, 0, "\(label): mask ≥ 0")
                    XCTAssertLessThanOrEqual(high, 1, "\(label): mask ≤ 1")
                    XCTAssertGreaterThan(high - low, 0.5, "\(label): the mask separates something")
                    if decoded.images["focus"] != nil {
                        // A depth mask centred on the subject's disparity selects most of the face
                        // (a focus area or the centre, the fallbacks, may straddle depths).
                        let regionType = opened.info.metadata.xmp.map { XMPProperties.parse($0) }?
                            .text("http://www.metadataworkinggroup.com/schemas/regions/", "Type")
                        if regionType == "Face", let region = opened.subjectRegion {
                            let median = try quantileOver(region, of: mask, 0.5)
                            XCTAssertGreaterThanOrEqual(median, 0.9, "\(label): the mask's median over the subject region \(region)")
                            subjectsChecked += 1
                        }
                    }
                }
                if recipe == "portrait-blur.json" {
                    try checkPortraitBlur(decoded, photo: copy, label: label)
                    blurChecked += 1
                }
            }
        }
        XCTAssertGreaterThanOrEqual(blurChecked, 1)
        XCTAssertGreaterThanOrEqual(subjectsChecked, 8, "the masks of the shipped portrait at least")
    }

    /// The smallest and largest value of any channel of a data render of `image`.
    func extremes(_ image: Image) throws -> (Float, Float) {
        var options = ContextOptions()
        options.workingFormat = .rgbaf
        let buffer = try Context(options: options).render(image, format: .rgbaf, colorSpace: .data)
        let values = buffer.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        return (values.min() ?? 0, values.max() ?? 0)
    }

    /// The `q` quantile of the red channel over the pixels whose centres lie in `region`
    /// (normalised, lower-left origin) of `image`'s extent.
    func quantileOver(_ region: Rect, of image: Image, _ q: Double) throws -> Float {
        var options = ContextOptions()
        options.workingFormat = .rgbaf
        let buffer = try Context(options: options).render(image, format: .rgbaf, colorSpace: .data)
        let width = buffer.width, height = buffer.height
        var values: [Float] = []
        buffer.withUnsafeBytes { bytes in
            let floats = bytes.bindMemory(to: Float.self)
            for row in 0..<height {
                let v = 1 - (Double(row) + 0.5) / Double(height)  // rows top first
                guard v >= region.minY && v <= region.maxY else { continue }
                for x in 0..<width {
                    let u = (Double(x) + 0.5) / Double(width)
                    if u >= region.minX && u <= region.maxX { values.append(floats[(row * width + x) * 4]) }
                }
            }
        }
        values.sort()
        return values.isEmpty ? 0 : values[min(Int(q * Double(values.count)), values.count - 1)]
    }

    /// Renders the recipe's blur wide open (f/1.4) and compares it with the photo. Sharp where it
    /// should be: PSNR over the focus rectangle's pixels at the focus depth (refined disparity within
    /// 2% of f, the map's interquartile mean over the rectangle) with nothing nearer close by, when
    /// there are at least 20. Blurred where it should be: the Laplacian energy of luma over
    /// the pixels the blur map gives a radius of at least 4 px (`0.1·L/1.4·|d − f|/f − 1`, capped at
    /// 0.025·L behind and 0.0125·L in front) whose 9×9 neighbourhood all does, when
    /// they are at least 5% of the photo (a photo focused on its background has too few).
    func checkPortraitBlur(_ recipe: Recipe, photo: String, label: String) throws {
        var builder = RecipeBuilder(recipe: recipe)
        let photoImage = try builder.image(named: "photo", from: "test")
        let disparity = try builder.image(named: "disparity", from: "test")
        let region = try DepthPhoto(contentsOf: photo).subjectRegion ?? Rect(x: 0.45, y: 0.45, width: 0.1, height: 0.1)
        // Grain off (it restores pixel-level noise on purpose, which this measure would count).
        let blurred = try photoImage.applyingFilter("CIDepthBlurEffect", parameters: [
            "inputDisparityImage": .image(disparity), "inputAperture": .number(1.4), "inputFocusRect": .rect(region),
            "inputLumaNoiseScale": .number(1e-6)])
        let e = photoImage.extent
        let refined = try photoImage.applyingFilter("CIEdgePreserveUpsampleFilter", parameters: [
            "inputSmallImage": .image(disparity), "inputSpatialSigma": .number(1), "inputLumaSigma": .number(0.05)])
        let context = Context()
        func luma(_ image: Image) throws -> [Double] {
            let buffer = try context.render(image, format: .rgba8)
            return buffer.withUnsafeBytes { bytes in
                stride(from: 0, to: bytes.count, by: 4).map { 0.2126 * Double(bytes[$0]) + 0.7152 * Double(bytes[$0 + 1]) + 0.0722 * Double(bytes[$0 + 2]) }
            }
        }
        let (before, after) = (try luma(photoImage), try luma(blurred))
        let depthBuffer = try context.render(refined, format: .rgbaf, colorSpace: .data)
        let depth = depthBuffer.withUnsafeBytes { bytes in stride(from: 0, to: bytes.count / 4, by: 4).map { Double(bytes.bindMemory(to: Float.self)[$0]) } }
        let width = Int(e.width), height = Int(e.height)
        // Rows top first.
        var inRect: [Int] = []
        for row in 0..<height {
            let y = 1 - (Double(row) + 0.5) / Double(height)
            for x in 0..<width where y >= region.minY && y <= region.maxY {
                let u = (Double(x) + 0.5) / Double(width)
                if u >= region.minX && u <= region.maxX && depth[row * width + x].isFinite { inRect.append(row * width + x) }
            }
        }
        // f as the filter takes it: the interquartile mean of the map over the rectangle (rounded out).
        let map = try context.render(disparity, format: .rgbaf, colorSpace: .data)
        let m = disparity.extent
        let area = Rect(x: region.minX * m.width, y: region.minY * m.height, width: region.width * m.width, height: region.height * m.height).integral
        var values: [Double] = []
        map.withUnsafeBytes { bytes in
            let floats = bytes.bindMemory(to: Float.self), mapWidth = Int(m.width), mapHeight = Int(m.height)
            for y in max(Int(area.minY), 0)..<min(Int(area.maxY), mapHeight) {
                for x in max(Int(area.minX), 0)..<min(Int(area.maxX), mapWidth) {
                    let v = Double(floats[((mapHeight - 1 - y) * mapWidth + x) * 4])
                    if v.isFinite { values.append(v) }
                }
            }
        }
        values.sort()
        guard !values.isEmpty else { return XCTFail("\(label): empty focus region") }
        let middle = values[(values.count / 4)..<(values.count - values.count / 4)]
        let f = middle.reduce(0, +) / Double(middle.count)
        // At the focus depth, and with nothing nearer within the largest foreground blur (whose
        // blur rightly covers its edge).
        let reach = Int((0.0125 * Double(max(width, height))).rounded(.up))
        func nothingNearer(_ i: Int) -> Bool {
            let row = i / width, x = i % width
            for r in max(row - reach, 0)...min(row + reach, height - 1) {
                for c in max(x - reach, 0)...min(x + reach, width - 1) where depth[r * width + c] > 1.02 * f { return false }
            }
            return true
        }
        let focused = inRect.filter { abs(depth[$0] - f) <= 0.02 * f && nothingNearer($0) }
        let squared = focused.reduce(0.0) { $0 + pow(before[$1] - after[$1], 2) }
        let psnr = 10 * log10(255 * 255 / max(squared / Double(max(focused.count, 1)), 1e-12))
        if focused.count >= 20 { XCTAssertGreaterThanOrEqual(psnr, 40, "\(label): focus-region PSNR") }
        let k = 0.1 * Double(max(width, height)) / 1.4
        var predicted = [Bool](repeating: false, count: width * height)
        for i in 0..<(width * height) {
            let d = depth[i], cap = (d > f ? 0.0125 : 0.025) * Double(max(width, height))
            predicted[i] = min(k * abs(d - f) / f - 1, cap) >= 4
        }
        // Interiors only: every pixel within 4 px predicted too (depth edges, where the refined map
        // is uncertain and the nearer surface is kept sharp, are not "far background").
        var blurredPixels: [Int] = []
        for row in 8..<(height - 8) {
            for x in 8..<(width - 8) where predicted[row * width + x] {
                var interior = true
                for r in (row - 4)...(row + 4) where interior {
                    for c in (x - 4)...(x + 4) where !predicted[r * width + c] { interior = false; break }
                }
                if interior { blurredPixels.append(row * width + x) }
            }
        }
        func laplacianEnergy(_ l: [Double]) -> Double {
            blurredPixels.reduce(0.0) { total, i in
                let v = 4 * l[i] - l[i - 1] - l[i + 1] - l[i - width] - l[i + width]
                return total + v * v
            } / Double(max(blurredPixels.count, 1))
        }
        let ratio = laplacianEnergy(before) / max(laplacianEnergy(after), 1e-12)
        let share = Double(blurredPixels.count) / Double(width * height)
        print("\(label): focus PSNR \(String(format: "%.1f", psnr)) dB over \(focused.count) px; high-frequency energy "
              + "\(String(format: "%.0f", laplacianEnergy(before))) down \(String(format: "%.1f", ratio))× over \(String(format: "%.0f", share * 100))% of the photo")
        // Only where the photo has detail there to remove (a photo taken with a shallow depth of
        // field has a smooth background already): mean squared Laplacian ≥ 25 (8-bit luma).
        if share >= 0.05 && laplacianEnergy(before) >= 25 {
            XCTAssertGreaterThanOrEqual(ratio, 10, "\(label): background high-frequency energy")
        }
    }
}
