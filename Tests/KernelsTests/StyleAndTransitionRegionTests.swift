import XCTest
@testable import GraphEngine
@testable import Kernels

/// An infinite input costs only what the output needs, for the new filters that read
/// neighbourhoods or other points (general kernels): with every picture clamped to infinity (a
/// page curl's page and an accordion's folding picture stay finite, as they must), the region each
/// kernel input reads for a 16×16 output tile, near and far, is finite and small.
final class StyleAndTransitionRegionTests: XCTestCase {
    func testInfiniteInputsAreReadOnlyWhereNeeded() throws {
        let source = try GeometrySource(width: 41, height: 31)
        let finite = source.image, infinite = source.image.clampedToExtent()
        let shading = try GeometrySource(width: 9, height: 5).image
        let cases: [(String, [String: FilterValue])] = [
            ("CIComicEffect", ["inputImage": .image(infinite)]),
            ("CILineOverlay", ["inputImage": .image(infinite)]),
            ("CIShadedMaterial", ["inputImage": .image(infinite), "inputShadingImage": .image(shading)]),
            ("CIPointillize", ["inputImage": .image(infinite)]),
            ("CIColorCurves", ["inputImage": .image(infinite)]),
            ("CIRippleTransition", ["inputImage": .image(infinite), "inputTargetImage": .image(infinite), "inputShadingImage": .image(shading),
                                    "inputTime": .number(0.5)]),
            ("CIPageCurlTransition", ["inputImage": .image(infinite), "inputTargetImage": .image(infinite), "inputBacksideImage": .image(infinite),
                                      "inputShadingImage": .image(shading), "inputTime": .number(0.5)]),
            ("CIPageCurlWithShadowTransition", ["inputImage": .image(infinite), "inputTargetImage": .image(infinite),
                                                "inputBacksideImage": .image(infinite), "inputExtent": .rect(Rect(x: 0, y: 0, width: 300, height: 300)),
                                                "inputTime": .number(0.5)]),
            ("CIAccordionFoldTransition", ["inputImage": .image(finite), "inputTargetImage": .image(infinite), "inputTime": .number(0.3)]),
        ]
        for (name, parameters) in cases {
            let image = try Image.filter(name, parameters: parameters)
            guard case .general(let operation) = image.node.kind else {
                XCTFail("\(name): not a general kernel")
                continue
            }
            for rect in [Rect(x: 140, y: 150, width: 16, height: 16), Rect(x: -900, y: 2000, width: 16, height: 16)] {
                for input in 0..<image.node.inputs.count {
                    let region = operation.regionOfInterest(input: input, for: rect)
                    XCTAssertFalse(region.isInfinite, "\(name) input \(input) \(rect)")
                    XCTAssertLessThan(max(region.width, region.height), 400, "\(name) input \(input) \(rect)")
                }
            }
        }
    }
}
