import GraphEngine

/// Reductions: image processors whose output is a tiny image (fusion barriers).
enum ReductionFilters {
    static let all: [FilterDescriptor] = [areaMinMaxRed]

    /// A 1×1 image at the origin: `r = min(red)`, `g = max(red)` over `inputExtent`, `b = 0`, `a = 1`.
    /// NaN samples (holes in unfiltered depth maps) are skipped.
    static let areaMinMaxRed = FilterDescriptor(
        name: "CIAreaMinMaxRed", categories: ["CICategoryReduction", "CICategoryStillImage"],
        summary: "Finds the minimum and maximum red value in an area (r = min, g = max).",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputExtent", .rect, default: nil, "The area to reduce; default the image's extent.")]
    ) { args in
        let image = try args.image("inputImage")
        let area = (try? args.rect("inputExtent")) ?? image.extent
        if area.isInfinite {
            throw GraphError.invalidParameter(filter: "CIAreaMinMaxRed", key: "inputExtent",
                                              reason: "the area is infinite: give inputExtent or crop the image")
        }
        return image.applying(AreaMinMaxRed(area: area))
    }
}

/// Min and max of the red channel, combined row by row in a fixed order (deterministic).
struct AreaMinMaxRed: ImageProcessor {
    let area: Rect
    var name: String { "CIAreaMinMaxRed" }
    var structureKey: String { "CIAreaMinMaxRed \(area)" }
    var uniformValues: [Float] { [] }
    var argumentSummary: String { "extent=\(area)" }

    func outputExtent(inputExtents: [Rect]) -> Rect { Rect(x: 0, y: 0, width: 1, height: 1) }

    func regionOfInterest(input index: Int, inputExtent: Rect, outputRect: Rect) -> Rect {
        area.intersection(inputExtent)
    }

    func process(inputs: [PlanarBuffer], output: PlanarBuffer) throws {
        let input = inputs[0]
        var low = Float.infinity, high = -Float.infinity
        let red = input.planes[0]
        for i in 0..<(input.width * input.height) {
            let v = red[i]
            if v.isNaN { continue }
            if v < low { low = v }
            if v > high { high = v }
        }
        if low > high { low = .nan; high = .nan }
        output.setValue(low, channel: 0, x: 0, y: 0)
        output.setValue(high, channel: 1, x: 0, y: 0)
        output.setValue(0, channel: 2, x: 0, y: 0)
        output.setValue(1, channel: 3, x: 0, y: 0)
    }
}
