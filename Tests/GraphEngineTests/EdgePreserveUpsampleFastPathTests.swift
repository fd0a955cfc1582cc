import XCTest
@testable import GraphEngine
import Kernels

/// The fast paths of CIEdgePreserveUpsampleFilter on a depth map: a grey small image upsampled as
/// one channel (a grid of two planes), the guide's luma computed from the photo's bytes (decoded and
/// converted from Display P3 while loading, no luma or photo intermediate), and the same bytes for
/// every tile size and thread count.
final class EdgePreserveUpsampleFastPathTests: XCTestCase {
    /// A 23×17 disparity-like map: a smooth ramp with a raised block and hashed noise.
    let smallValues: [Float] = (0..<(23 * 17)).map { i in
        let x = i % 23, y = i / 23
        let block: Float = (x > 8 && x < 16 && y > 4 && y < 12) ? 0.35 : 0
        return 0.2 + 0.02 * Float(x) + block + Float((i &* 2_654_435_761) >> 20 % 64) / 640
    }

    /// The map as a grey Float32 buffer (what a depth photo's disparity is).
    func greySmall() throws -> Image {
        Image(buffer: try ImageBuffer(width: 23, height: 17, format: .grayf, colorSpace: nil,
                                      bytes: smallValues.withUnsafeBytes { Array($0) }))
    }

    /// The same values as an opaque RGBA Float32 buffer, which the engine does not know is grey.
    func rgbaSmall() throws -> Image {
        let floats = smallValues.flatMap { v -> [Float] in [v, v, v, 1] }
        return Image(buffer: try ImageBuffer(width: 23, height: 17, format: .rgbaf, alphaMode: .opaque, colorSpace: nil,
                                             bytes: floats.withUnsafeBytes { Array($0) }))
    }

    /// An 8-bit Display P3 photo of 121×89 (straight alpha when `opaque` is false).
    func photo(opaque: Bool = true) throws -> Image {
        Image(buffer: try makeTestBuffer(width: 121, height: 89, seed: 21, alpha: opaque ? .opaque : .straight)
            .withColorSpace(.displayP3))
    }

    func context(tileSize: Int = 512, threads: Int = 2) -> Context {
        var options = ContextOptions()
        options.workingFormat = .rgbaf
        options.tileSize = tileSize
        options.threads = threads
        return Context(options: options)
    }

    func upsample(_ guide: Image, _ small: Image) throws -> Image {
        try guide.applyingFilter("CIEdgePreserveUpsampleFilter", parameters: ["inputSmallImage": .image(small)])
    }

    /// The dump entry of the upsample's grid stage.
    func upsampleStage(_ image: Image) throws -> GraphDump.ProgramEntry {
        let stage = try context().dump(image).programs.first { $0.name.hasPrefix("CIEdgePreserveUpsampleFilter(") }
        return try XCTUnwrap(stage)
    }

    /// The grey map takes the one-channel path (shown in the dump) and gives, bit for bit, the red
    /// channel of the four-channel path on the same values, in all three colour channels.
    func testGreyMapIsUpsampledAsOneChannelWithTheFourChannelPathsBits() throws {
        for opaque in [true, false] {
            let grey = try upsample(photo(opaque: opaque), greySmall()), rgba = try upsample(photo(opaque: opaque), rgbaSmall())
            XCTAssertEqual(try upsampleStage(grey).instructions.last, "grey: red only; red only read from in1, in2")
            XCTAssertFalse(try upsampleStage(rgba).instructions.contains { $0.hasPrefix("grey") })
            let fast = try context().render(grey, rect: grey.extent, format: .rgbaf)
            let full = try context().render(rgba, rect: rgba.extent, format: .rgbaf)
            var differing = 0
            for row in 0..<fast.height {
                for x in 0..<fast.width {
                    let f = fast.pixel(x: x, row: row), r = full.pixel(x: x, row: row)
                    if f[0] != r[0] || f[1] != r[0] || f[2] != r[0] || f[3] != 1 || r[3] != 1 { differing += 1 }
                }
            }
            XCTAssertEqual(differing, 0, "opaque \(opaque)")
        }
    }

    /// The grey map against the filter's own float64 statement (the reference evaluator: the photo
    /// converted from Display P3 node by node, the guide luma and the grid cells in Double), with the
    /// photo decoded and converted while it loads.
    func testGreyMapMatchesTheReference() throws {
        var options = ContextOptions()
        options.workingFormat = .rgbaf
        options.outputColorSpace = nil
        for opaque in [true, false] {
            let image = try upsample(photo(opaque: opaque), greySmall())
            let rect = Rect(x: 30, y: 20, width: 40, height: 30)
            let fast = bottomUpPixels(try Context(options: options).render(image, rect: rect, format: .rgbaf))
            let reference = try ReferenceEvaluator().render(image, rect: rect, options: options)
            assertClose(fast, reference, tolerance: 2e-5)
        }
    }

    /// A map under a sixteenth of the photo's size (4×3 on 121×89: 30 photo pixels per map pixel)
    /// has its low guide computed once, whole, not in every unit's margins; a larger one (23×17) in
    /// the units. The pixels are the reference's either way, for any tile size.
    func testATinyMapsGuideIsComputedOnce() throws {
        let tiny = Image(buffer: try ImageBuffer(width: 4, height: 3, format: .grayf, colorSpace: nil,
                                                 bytes: Array(smallValues.prefix(12)).withUnsafeBytes { Array($0) }))
        XCTAssertTrue(try context().dump(try upsample(photo(), tiny)).text().contains("CIEdgePreserveUpsampleFilter_guide_whole"))
        XCTAssertFalse(try context().dump(try upsample(photo(), greySmall())).text().contains("CIEdgePreserveUpsampleFilter_guide_whole"))
        var options = ContextOptions()
        options.workingFormat = .rgbaf
        options.outputColorSpace = nil
        let image = try upsample(photo(), tiny)
        let rect = Rect(x: 10, y: 5, width: 100, height: 80)
        let reference = try ReferenceEvaluator().render(image, rect: rect, options: options)
        for tile in [16, 512] {
            options.tileSize = tile
            assertClose(bottomUpPixels(try Context(options: options).render(image, rect: rect, format: .rgbaf)), reference, tolerance: 2e-5)
        }
    }

    /// Tiles of 16, 61 and 512 pixels on 1 and 3 threads give the same bytes, for the grey map on an
    /// opaque photo and a photo with alpha.
    func testSameBytesForEveryTileSizeAndThreadCount() throws {
        for opaque in [true, false] {
            let image = try upsample(photo(opaque: opaque), greySmall())
            var reference: [UInt8]?
            for tile in [16, 61, 512] {
                for threads in [1, 3] {
                    let bytes = try context(tileSize: tile, threads: threads).render(image, rect: image.extent, format: .rgbaf).bytes
                    if let reference {
                        XCTAssertTrue(bytes == reference, "opaque \(opaque): tile \(tile), \(threads) threads differ")
                    } else {
                        reference = bytes
                    }
                }
            }
        }
    }

    /// An area pass reads an 8-bit Display P3 photo from its bytes: decoded by the table and
    /// converted to linear sRGB primaries as it loads. A flat P3 red stays the converted red
    /// (the published P3 → sRGB matrix, extended range) after a blur.
    func testAreaPassesReadDisplayP3PhotosConvertedWhileLoading() throws {
        let red = try ImageBuffer(width: 24, height: 24, format: .rgba8, alphaMode: .opaque, colorSpace: .displayP3,
                                  bytes: (0..<(24 * 24)).flatMap { _ in [UInt8(255), 0, 0, 255] })
        let image = try Image(buffer: red).clampedToExtent().applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(3)])
            .cropped(to: Rect(x: 0, y: 0, width: 24, height: 24))
        let text = try context().dump(image).text()
        XCTAssertTrue(text.contains("transfer decoded by table primaries converted"), text)
        let pixel = try context().render(image, format: .rgbaf).pixel(x: 11, row: 7)
        func encode(_ x: Double) -> Double { x < 0 ? -encode(-x) : x <= 0.0031308 ? x * 12.92 : 1.055 * pow(x, 1 / 2.4) - 0.055 }
        for (c, linear) in [1.2249401, -0.0420569, -0.0196376].enumerated() {
            XCTAssertEqual(Double(pixel[c]), encode(linear), accuracy: 2e-4, "channel \(c)")
        }
    }

    /// A photo read by several programs and passes is decoded in each, never stored as a converted
    /// intermediate.
    func testDecodedPhotoIsNotMaterialisedForSeveralConsumers() throws {
        let photo = try photo()
        let image = try upsample(photo, greySmall()).applyingFilter("CIMultiplyCompositing", parameters: ["inputBackgroundImage": .image(photo)])
        let dump = try context().dump(image)
        XCTAssertEqual(dump.programs.count, 3, dump.text())  // the low guide, the upsample, the root
        XCTAssertFalse(dump.programs.contains { $0.name.hasPrefix("p3_to_linear") }, dump.text())
    }
}
