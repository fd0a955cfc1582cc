import XCTest
import GraphEngine
@testable import Kernels

/// The colour part of the catalogue as a whole: every catalogue kernel compiles, every filter
/// renders with its defaults, keeps its extent, and renders a sub-rectangle exactly as the same
/// pixels of a whole render (its region of interest is right).
final class ColorCatalogueTests: XCTestCase {
    static let families: [FilterDescriptor] = ColorCubeFilters.all + ToneFilters.all + ColorMappingFilters.all + LookFilters.all
        + BlendModeFilters.all + GradientFilters.all + DisparityFilters.all + ReductionFilters.all + CompositingFilters.all
        + GeneratorFilters.all

    func testEveryCatalogueKernelCompiles() {
        let kernels: [(String, CatalogueKernel)] = [
            ("vibrance", ToneFilters.vibranceKernel), ("shadows", ToneFilters.shadowHighlightKernel),
            ("shadows guided", ToneFilters.shadowHighlightGuidedKernel), ("white point", ToneFilters.whitePointKernel),
            ("monochrome", ColorMappingFilters.monochromeKernel), ("posterize", ColorMappingFilters.posterizeKernel),
            ("false colour", ColorMappingFilters.falseColorKernel), ("colour map", ColorMappingFilters.colorMapKernel),
            ("max", ColorMappingFilters.maximumComponentKernel), ("min", ColorMappingFilters.minimumComponentKernel),
            ("threshold", ColorMappingFilters.thresholdKernel), ("otsu", ColorMappingFilters.thresholdImageKernel),
            ("dither", ColorMappingFilters.ditherKernel), ("random", GeneratorFilters.randomKernel),
            ("linear", GradientFilters.linearKernel), ("smooth", GradientFilters.smoothLinearKernel),
            ("radial", GradientFilters.radialKernel), ("gaussian", GradientFilters.gaussianKernel),
            ("checkerboard", GradientFilters.checkerboardKernel), ("stripes", GradientFilters.stripesKernel),
            ("vignette", LookFilters.vignetteKernel), ("reciprocal", DisparityFilters.reciprocal),
            ("histogram display", ReductionFilters.histogramDisplayKernel),
        ] + BlendModeFilters.kernels.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            + CompositingFilters.operatorKernels.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        for (name, kernel) in kernels {
            XCTAssertNil(kernel.compileError, "\(name): \(kernel.compileError.map { "\($0)" } ?? "")")
        }
    }

    /// Default parameters for the inputs without a default (images).
    func arguments(_ descriptor: FilterDescriptor, _ image: Image, _ other: Image) -> [String: FilterValue] {
        var parameters: [String: FilterValue] = [:]
        for input in descriptor.inputs where input.type == .image && input.defaultValue == nil {
            parameters[input.key] = .image(input.key == "inputImage" ? image : other)
        }
        return parameters
    }

    func testEveryFilterRendersKeepsItsExtentAndItsRegionOfInterest() throws {
        let (image, _) = try randomImage(width: 23, height: 17, seed: 1)
        let (other, _) = try randomImage(width: 19, height: 21, seed: 2)
        let shifted = other.transformed(by: AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 3, ty: -2))
        let context = exactContext()
        XCTAssertGreaterThan(Self.families.count, 85)
        for descriptor in Self.families {
            let parameters = arguments(descriptor, image, shifted)
            let output = try FilterRegistry.standard.apply(descriptor.name, parameters: parameters)
            let isGenerator = !descriptor.inputs.contains { $0.key == "inputImage" }
            let isReduction = descriptor.categories.contains("CICategoryReduction")
            if isGenerator {
                XCTAssertTrue(output.extent.isInfinite, descriptor.name)
            } else if !isReduction {
                let expected: Rect
                switch descriptor.name {
                case _ where descriptor.input("inputBackgroundImage") != nil:
                    let intersect = ["CIMultiplyCompositing", "CISourceInCompositing", "CIDestinationInCompositing"].contains(descriptor.name)
                    expected = intersect ? image.extent.intersection(shifted.extent) : image.extent.union(shifted.extent)
                default:
                    expected = image.extent
                }
                XCTAssertEqual(output.extent, expected, descriptor.name)
            }
            let whole = output.extent.isInfinite ? Rect(x: -5, y: -5, width: 30, height: 30) : output.extent
            let all = try renderPixels(output, whole, context: context)
            XCTAssertFalse(all.isEmpty, descriptor.name)
            // A sub-rectangle renders as the same pixels of the whole render.
            guard whole.width >= 4, whole.height >= 3 else { continue }
            let sub = Rect(x: whole.x + 1, y: whole.y + 1, width: whole.width - 3, height: whole.height - 2)
            let part = try renderPixels(output, sub, context: context)
            let width = Int(whole.width)
            let expected = (0..<Int(sub.height)).flatMap { row in
                (0..<Int(sub.width)).map { column in all[(row + 1) * width + column + 1] }
            }
            assertPixels(part, expected, tolerance: 0, descriptor.name)
        }
    }
}
