import FilterBuilderGeneration
import Foundation
import GraphEngine
@testable import Kernels
import XCTest
@testable import GraphCLI

/// The typed `Filters.*` classes: generated from the registry (the committed file must be what the
/// generator writes now), and the same images as `applyingFilter`.
final class FilterBuilderTests: XCTestCase {
    func testGeneratedFileMatchesTheRegistry() throws {
        let file = #filePath
        let repository = String(file[..<(file.range(of: "/Tests/")?.lowerBound ?? file.endIndex)])
        let path = repository + "/Sources/Kernels/Builders/FilterBuilders.generated.swift"
        let committed = try String(contentsOfFile: path, encoding: .utf8)
        let generated = FilterBuilderGenerator.source(for: .standard)
        XCTAssertTrue(committed == generated,
                      "Sources/Kernels/Builders/FilterBuilders.generated.swift disagrees with the registry: run scripts/generate-filter-builders.sh")
        // One class per filter, one property per input.
        for filter in FilterRegistry.standard.filters {
            XCTAssertTrue(generated.contains("public final class \(FilterBuilderGenerator.typeName(filter.name)): BuiltinFilter {"), filter.name)
            for input in filter.inputs {
                XCTAssertTrue(generated.contains("(`\(input.key)`).\n        public var \(FilterBuilderGenerator.propertyName(input.key)):"),
                              "\(filter.name).\(input.key)")
            }
        }
    }

    func testNamesFollowCoreImage() {
        XCTAssertEqual(FilterBuilderGenerator.functionName("CIGaussianBlur"), "gaussianBlur")
        XCTAssertEqual(FilterBuilderGenerator.functionName("CIXRay"), "xRay")
        XCTAssertEqual(FilterBuilderGenerator.propertyName("inputRadius"), "radius")
        XCTAssertEqual(FilterBuilderGenerator.propertyName("inputRVector"), "rVector")
        XCTAssertEqual(FilterBuilderGenerator.propertyName("inputEV"), "ev")
        XCTAssertEqual(FilterBuilderGenerator.propertyName("inputColor0"), "color0")
        XCTAssertEqual(FilterBuilderGenerator.propertyName("inputImage"), "inputImage")
        XCTAssertEqual(FilterBuilderGenerator.propertyName("inputBackgroundImage"), "backgroundImage")
    }

    func testBuildersMakeTheSameImagesAsApplyingFilter() throws {
        let photo = Image(color: [0.8, 0.4, 0.2, 1]).cropped(to: Rect(x: 0, y: 0, width: 16, height: 12))
        let context = Context()
        let blur = Filters.gaussianBlur()
        XCTAssertNil(blur.outputImage, "no input image yet")
        XCTAssertThrowsError(try blur.output())
        blur.inputImage = photo
        XCTAssertEqual(blur.radius, 10, "the registry's default")
        blur.radius = 3
        let expected = try photo.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": 3])
        XCTAssertEqual(try XCTUnwrap(blur.outputImage), expected)

        let matrix = Filters.colorMatrix()
        matrix.inputImage = photo
        matrix.rVector = [0, 1, 0, 0]
        matrix.biasVector = [0.1, 0, 0, 0]
        let viaLiterals = try photo.applyingFilter("CIColorMatrix", parameters: ["inputRVector": [0, 1, 0, 0], "inputBiasVector": [0.1, 0, 0, 0]])
        XCTAssertEqual(try context.render(try matrix.output(), format: .rgba8).bytes, try context.render(viaLiterals, format: .rgba8).bytes)

        let sepia = Filters.sepiaTone()
        sepia.inputImage = photo
        sepia.intensity = 2
        XCTAssertNil(sepia.outputImage)
        XCTAssertThrowsError(try sepia.output()) { XCTAssertTrue("\($0)".contains("above the maximum"), "\($0)") }
        sepia["inputIntensity"] = 0.5
        XCTAssertEqual(sepia.intensity, 0.5)
    }

    func testLiteralsAndLibraryErrorsWithSuggestions() throws {
        let photo = Image(color: [0.5, 0.5, 0.5, 1]).cropped(to: Rect(x: 0, y: 0, width: 4, height: 4))
        XCTAssertNoThrow(try photo.applyingFilter("CISepiaTone", parameters: ["inputIntensity": 0.8]))
        XCTAssertNoThrow(try photo.applyingFilter("CIExposureAdjust", parameters: ["inputEV": 1]))
        XCTAssertThrowsError(try photo.applyingFilter("CISepiaTon")) {
            XCTAssertEqual("\($0)", #"unknown filter "CISepiaTon" (did you mean "CISepiaTone"?)"#)
        }
        XCTAssertThrowsError(try photo.applyingFilter("CIPersonSegmentation")) {
            XCTAssertTrue("\($0)".hasPrefix("CIPersonSegmentation is a Core Image filter this engine does not provide: it runs"), "\($0)")
        }
        XCTAssertThrowsError(try photo.applyingFilter("CISepiaTone", parameters: ["inputIntesity": 1])) {
            XCTAssertEqual("\($0)", #"CISepiaTone has no input "inputIntesity" (did you mean "inputIntensity"?)"#)
        }
        let value: FilterValue = true
        if case .bool(true) = value {} else { XCTFail("bool literal") }
        let space: FilterValue = "sRGB"
        if case .string("sRGB") = space {} else { XCTFail("string literal") }
    }

    func testEveryCoreImageNameIsKnownAndEveryProvidedNameIsCoreImages() {
        let provided = Set(FilterRegistry.standard.filters.map(\.name))
        // The engine's own: the Porter-Duff complements (Core Image has them only as CIBlendKernel
        // .destinationOver/In/Out/Atop and .exclusiveOr, not as filters) and 9x9 convolutions (Core
        // Image's square convolutions stop at 7X7; 9 taps only as 9Horizontal/9Vertical), and the
        // depth dolly zoom, the subject's disparity and the guided upsampling of a depth mask and the stretch of a mask onto its frame (GE: the
        // engine's prefix for filters Core Image has no counterpart of).
        let ours: Set<String> = ["CIDestinationAtopCompositing", "CIDestinationInCompositing", "CIDestinationOutCompositing",
                                 "CIDestinationOverCompositing", "CIExclusiveOrCompositing",
                                 "CIConvolution9X9", "CIConvolutionRGB9X9", "GEDepthDollyZoom", "GEFocusDisparity", "GEGuidedUpsample", "GEScaleToImage"]
        XCTAssertEqual(provided.subtracting(CoreImageFilterNames.all), ours)
        XCTAssertGreaterThan(CoreImageFilterNames.all.count, 230)
        // Every Core Image filter is provided but Apple's four neural ones (issue 25).
        XCTAssertEqual(CoreImageFilterNames.all.subtracting(provided), Set(CoreImageFilterNames.neural.keys))
        XCTAssertEqual(FilterRegistry.standard.unknownFilterMessage("CIPersonSegmentaton"),
                       #"unknown filter "CIPersonSegmentaton" (did you mean "CIPersonSegmentation", a Core Image filter this engine does not provide?)"#)
    }

    /// Apple's four neural filters are answered with the reason and what to use instead, by the
    /// library, a recipe and `graph filters NAME` (issue 25).
    func testTheNeuralFiltersSayWhyTheyAreMissing() throws {
        XCTAssertEqual(Set(CoreImageFilterNames.neural.keys),
                       ["CIPersonSegmentation", "CISaliencyMapFilter", "CICoreMLModelFilter", "CIDocumentEnhancer"])
        for name in CoreImageFilterNames.neural.keys {
            XCTAssertTrue(CoreImageFilterNames.all.contains(name), name)
            XCTAssertTrue(FilterRegistry.standard.unknownFilterMessage(name).hasPrefix("\(name) is a Core Image filter this engine does not provide: it runs "), name)
        }
        let listed = Graph.runInProcess(["filters", "CIPersonSegmentation"])
        XCTAssertEqual(listed.status, 2)
        XCTAssertTrue(listed.err.contains("Vision person-segmentation network"), listed.err)
        XCTAssertTrue(listed.err.contains(#""auxiliary": "matte""#), listed.err)
    }
}
