import XCTest
import GraphEngine
@testable import Kernels

/// Colour filters on grey data (a disparity map, a mask) keep it grey: a program loads a grey input
/// as one register, computes one value for red, green and blue, and stores one plane, so the area
/// passes after it (blurs, morphology) compute one channel. The values are those of the reference
/// evaluator, which knows nothing of greyness.
final class GreyProgramTests: XCTestCase {
    static let width = 53, height = 41

    /// A grey, opaque Float32 map (one channel) with smooth and noisy parts, no NaN, values in
    /// 0.05…0.95 that never sit on a 1/256 step (Otsu's threshold is one).
    static func greyMap(seed: UInt64) throws -> Image {
        var rng = TestRandom(seed: seed)
        var values: [Float] = []
        for y in 0..<height {
            for x in 0..<width {
                let smooth = 0.5 + 0.3 * sin(Double(x) * 0.21 + Double(seed)) * cos(Double(y) * 0.17)
                let level = (smooth + 0.1 * (rng.unit() - 0.5)) * 255
                values.append(Float((level.rounded(.down) + 0.37) / 256))
            }
        }
        let buffer = try ImageBuffer(width: width, height: height, format: .grayf, alphaMode: .opaque, colorSpace: nil,
                                     bytes: values.withUnsafeBytes { Array($0) })
        return Image(buffer: buffer)
    }

    /// A morphology and a blur after `image` (clamped to its extent, so they stay opaque), cropped
    /// back to the map.
    static func areaPasses(_ image: Image) throws -> Image {
        try image.clampedToExtent().filtered("CIMorphologyMaximum", ["inputRadius": .number(2)])
            .filtered("CIGaussianBlur", ["inputRadius": .number(2.5)])
            .cropped(to: Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
    }

    /// Depth-mask chains of colour filters on grey maps, each followed by area passes.
    static func greyChains() throws -> [(name: String, image: Image)] {
        let map = try greyMap(seed: 3), other = try greyMap(seed: 8)
        let same: FilterValue = .vector([0.3, 0.5, 0.2, 0])
        let matrix = try map.filtered("CIColorMatrix", ["inputRVector": same, "inputGVector": same, "inputBVector": same,
                                                        "inputBiasVector": .vector([0.05, 0.05, 0.05, 0])])
        let clamped = try matrix.filtered("CIColorClamp", ["inputMinComponents": .vector([0.2, 0.2, 0.2, 0]),
                                                           "inputMaxComponents": .vector([0.8, 0.8, 0.8, 1])])
        let darker = try clamped.filtered("CIGammaAdjust", ["inputPower": .number(0.7)])
            .filtered("CIDarkenBlendMode", ["inputBackgroundImage": .image(other)])
        return [
            ("threshold", try areaPasses(try map.filtered("CIColorThresholdOtsu"))),
            ("matrix, clamp, gamma, darken, invert", try areaPasses(try darker.filtered("CIColorInvert"))),
            ("lighten, source in", try areaPasses(try map.filtered("CILightenBlendMode", ["inputBackgroundImage": .image(other)])
                .filtered("CISourceInCompositing", ["inputBackgroundImage": .image(other)]))),
        ]
    }

    /// The same filters where the data is not grey: a matrix with different rows, a clamp with
    /// different bounds per channel, a kernel mixing channels, a colour photo.
    static func colourChains() throws -> [(name: String, image: Image)] {
        let map = try greyMap(seed: 3)
        let mixing = try Kernel(source: "kernel vec4 mixing(__sample s) { return vec4(s.r, s.g * 0.5, s.b, 1.0); }")
        let photo = try randomImage(width: width, height: height, seed: 11, opaque: true).image
        return [
            ("matrix with different rows", try areaPasses(try map.filtered("CIColorMatrix", ["inputGVector": .vector([0, 0.9, 0, 0])])
                .filtered("CIColorClamp"))),
            ("clamp with a range per channel", try areaPasses(try map.filtered("CIColorClamp", ["inputMinComponents": .vector([0.3, 0.4, 0.5, 0])]))),
            ("kernel mixing channels", try areaPasses(try Image.applying(mixing, arguments: [.image(map)]).filtered("CIColorInvert"))),
            ("colour photo", try areaPasses(try photo.filtered("CIColorClamp").filtered("CIColorInvert"))),
        ]
    }

    /// The program and area stages of `image`'s plan below the root (not image processors, such
    /// as Otsu's threshold, a 1×1 reduction), with their stored format.
    func intermediates(_ image: Image, context: Context) throws -> [GraphDump.ProgramEntry] {
        try context.dump(image).programs.dropLast().filter { $0.kind != "processor" }
    }

    /// The rendered pixels and the reference evaluator's, compared as the colour-filter differential
    /// tests compare them.
    func assertMatchesReference(_ image: Image, context: Context, options: ContextOptions, _ label: String) throws -> Pixels {
        let rect = image.extent
        let fast = try renderPixels(image, rect, context: context)
        let reference = try ReferenceEvaluator().render(image, rect: rect, options: options).map { v in (0..<4).map { Double(v[$0]) } }
        assertPixels(fast, reference, tolerance: 2e-4, label)
        return fast
    }

    /// Float32 intermediates, no colour management: the planes hold the data as it is.
    static var dataOptions: ContextOptions {
        var options = ContextOptions()
        options.workingFormat = .rgbaf
        options.workingColorSpace = nil
        options.outputColorSpace = nil
        return options
    }

    func testGreyChainsStoreOnePlaneAndMatchTheReference() throws {
        var options = Self.dataOptions
        options.threads = 2
        options.tileSize = 16
        let context = Context(options: options)
        for (name, image) in try Self.greyChains() {
            let pixels = try assertMatchesReference(image, context: context, options: options, name)
            XCTAssertTrue(pixels.allSatisfy { $0[0] == $0[1] && $0[0] == $0[2] && $0[3] == 1 }, name)
            // Every intermediate, program or area pass, is grey: one plane, one channel computed.
            let stages = try intermediates(image, context: context)
            XCTAssertGreaterThanOrEqual(stages.filter { $0.kind == "area" }.count, 3, name)
            for stage in stages {
                XCTAssertEqual(stage.format, "RGBAf (grey: 1 plane)", "\(name): \(stage.kind) \(stage.name)")
            }
        }
    }

    func testColourChainsKeepTheirPlanes() throws {
        let options = Self.dataOptions
        let context = Context(options: options)
        for (name, image) in try Self.colourChains() {
            let pixels = try assertMatchesReference(image, context: context, options: options, name)
            XCTAssertTrue(pixels.contains { $0[0] != $0[1] || $0[1] != $0[2] }, name)
            // The colour program and the passes after it keep three planes.
            let stages = try intermediates(image, context: context)
            XCTAssertEqual(stages.filter { $0.format == "RGBAf (opaque: 3 planes)" }.count, stages.count, name)
            XCTAssertGreaterThanOrEqual(stages.filter { $0.kind == "area" }.count, 3, name)
        }
    }

    /// A colour photo blended with a grey mask: the mask's passes stay grey, the blend is colour.
    func testBlendWithAGreyMaskKeepsTheMaskGrey() throws {
        let options = Self.dataOptions
        let context = Context(options: options)
        let photo = try randomImage(width: Self.width, height: Self.height, seed: 12, opaque: true).image
        let mask = try Self.areaPasses(try Self.greyMap(seed: 5).filtered("CIColorThresholdOtsu"))
        let background = try photo.clampedToExtent().filtered("CIGaussianBlur", ["inputRadius": .number(3)]).cropped(to: photo.extent)
        let blended = try photo.filtered("CIBlendWithMask", ["inputBackgroundImage": .image(background), "inputMaskImage": .image(mask)])
        _ = try assertMatchesReference(blended, context: context, options: options, "blend with mask")
        let stages = try intermediates(blended, context: context)
        let grey = stages.filter { $0.format == "RGBAf (grey: 1 plane)" }
        // The threshold program and the mask's morphology and blur passes; the background's blur
        // passes are colour.
        XCTAssertEqual(grey.count, 4)
        XCTAssertEqual(grey.count + stages.filter { $0.format == "RGBAf (opaque: 3 planes)" }.count, stages.count)
    }

    /// An alpha range without 1 still clamps an opaque input's alpha (the grey clamp keeps its
    /// colour grey, not its alpha 1).
    func testClampWithAnAlphaRangeWithoutOneClampsAlpha() throws {
        let options = Self.dataOptions
        let context = Context(options: options)
        let clamped = try Self.greyMap(seed: 4).filtered("CIColorClamp", ["inputMaxComponents": .vector([0.6, 0.6, 0.6, 0.5])])
        let pixels = try assertMatchesReference(clamped, context: context, options: options, "alpha clamped to 0.5")
        // Colour clamped to 0.6 (as a Float), times alpha 0.5.
        XCTAssertTrue(pixels.allSatisfy { $0[3] == 0.5 && $0[0] == $0[1] && $0[0] == $0[2] && $0[0] <= Double(Float(0.6)) * 0.5 })
    }
}
