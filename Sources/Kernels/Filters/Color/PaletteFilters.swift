import Foundation
import GraphEngine

/// Colour palettes (issue 25): CIKMeans finds the dominant colours of an area, CIPalettize paints an
/// image with a palette, CIPaletteCentroid finds where each palette colour lies. A palette is an
/// image whose pixels, row by row from the bottom-left of its extent, are the colours: their R, G, B
/// taken as they are stored (not divided by alpha), alpha the weight, as CIKMeans writes them (Apple
/// shows its palettes with `settingAlphaOne(in:)`). A pixel's colour is its unpremultiplied R, G, B,
/// counted with its alpha as weight (transparent pixels do not count). "Perceptual" compares and
/// averages colours in CIE L*a*b* (the working space's RGB as linear sRGB, D65, as
/// CIConvertRGBtoLab) instead of the working space's RGB. Apple does not publish its seeding,
/// perceptual space or tie rules: those here are ours.
enum PaletteFilters {
    static let all: [FilterDescriptor] = [kMeans, palettize, paletteCentroid]

    /// No seeds: CIKMeans seeds itself.
    static let noMeans = Image(color: [0, 0, 0, 0]).cropped(to: Rect(x: 0, y: 0, width: 0, height: 0))

    static let perceptualInput = FilterInput("inputPerceptual", .bool, default: .bool(false),
                                             "Compare colours in CIE L*a*b* rather than the working space's RGB.")

    /// k-means (Lloyd) of the area's colours, weighted by alpha. Seeds: the first inputCount pixels
    /// of inputMeans (row by row from its bottom-left, their R, G, B as stored); when it has fewer,
    /// the rest by farthest point: the area's weighted mean colour when there is no seed at all,
    /// then each time the area's colour farthest from its nearest seed (the first in row order on
    /// ties). Each of inputPasses passes assigns every colour to its nearest mean (the first on
    /// ties) and moves each mean to the weighted mean of its colours (a mean with none stays). The
    /// output is inputCount×1 at the origin: pixel j is `(mean_j, w_j)`, `w_j` the alpha of the
    /// colours nearest mean j over the alpha of all (assigned to the final means). inputCount 0 means
    /// as many as inputMeans has pixels (up to 128).
    static let kMeans = FilterDescriptor(
        name: "CIKMeans", categories: ["CICategoryReduction", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"],
        summary: "The area's dominant colours by k-means (alpha-weighted, seeds from inputMeans then farthest points, inputPasses Lloyd "
            + "passes): an inputCount×1 image, pixel j = (mean colour j, its share of the alpha).",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputExtent", .rect, default: .rect(Rect(x: 0, y: 0, width: 0, height: 0)),
                             "The area to analyse; an empty one (the default) means the image's extent."),
                 FilterInput("inputMeans", .image, default: .image(noMeans),
                             "Seed colours: the pixels of an image, row by row from its bottom-left (CIKMeans' output; alpha ignored); the rest by farthest point."),
                 FilterInput("inputCount", .number, default: .number(8), minimum: 0, maximum: 128,
                             "The number of colours (a whole number); 0: as many as inputMeans has pixels."),
                 FilterInput("inputPasses", .number, default: .number(5), minimum: 0, maximum: 20,
                             "The number of k-means passes (a whole number)."),
                 perceptualInput]
    ) { args in
        let name = "CIKMeans"
        let image = try args.image("inputImage")
        var area = try args.rect("inputExtent")
        if area.width == 0 || area.height == 0 { area = image.extent }
        area = area.integral
        guard !area.isInfinite, !area.isEmpty else {
            throw GraphError.invalidParameter(filter: name, key: "inputExtent",
                                              reason: "the area \(area) is infinite or empty: give inputExtent or crop the image")
        }
        let count = try wholeNumber(args, "inputCount"), passes = try wholeNumber(args, "inputPasses")
        let means = try args.image("inputMeans")
        let seedArea = means.extent.isEmpty ? nil : means.extent.integral
        if let seedArea, seedArea.isInfinite {
            throw GraphError.invalidParameter(filter: name, key: "inputMeans", reason: "the seeds must have a finite extent (crop them)")
        }
        let seedPixels = seedArea.map { min(Int($0.width * $0.height), 128) } ?? 0
        let clusters = count > 0 ? count : seedPixels
        guard clusters > 0 else {
            throw GraphError.invalidParameter(filter: name, key: "inputCount", reason: "0 colours and no inputMeans: give either")
        }
        // The seed rows the clusters use, from the bottom.
        let seedRows = seedArea.map { s in
            Rect(x: s.minX, y: s.minY, width: s.width, height: min(s.height, (Double(min(clusters, seedPixels)) / s.width).rounded(.up)))
        }
        let processor = KMeans(area: area, clusters: clusters, passes: passes, perceptual: try args.bool("inputPerceptual"), seeds: seedRows)
        return seedRows == nil ? image.applying(processor) : image.applying(processor, with: [means])
    }

    /// Each pixel takes the nearest palette colour (the first on ties), keeping its alpha:
    /// `out = (p_j·a, a)`, `j = argmin ‖c − p_j‖` over the palette's pixels, c the pixel's
    /// unpremultiplied colour. Extent the input's.
    static let palettize = FilterDescriptor(
        name: "CIPalettize", categories: ["CICategoryColorEffect", "CICategoryVideo", "CICategoryStillImage"],
        summary: "Paints each pixel with the nearest colour of the palette image (its pixels' R, G, B, e.g. CIKMeans' output), keeping "
            + "its alpha: out = (p_j·a, a), j = argmin ‖rgb/a − p_j‖; extent the input's.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputPaletteImage", .image, "The palette: every pixel of its extent is a colour (CIKMeans' output)."),
                 perceptualInput]
    ) { args in
        let image = try args.image("inputImage")
        let palette = try paletteArea(args, "CIPalettize")
        return image.applying(Palettize(palette: palette, perceptual: try args.bool("inputPerceptual")),
                              with: [try args.image("inputPaletteImage")])
    }

    /// For each palette colour, where the pixels nearest to it lie: an N×1 image (N palette pixels),
    /// pixel j = `(x̄_j, ȳ_j, 0, w_j)`, the alpha-weighted mean of the centres `(x + ½, y + ½)`
    /// (working-space pixels) of the input's pixels whose nearest palette colour is j, and `w_j`
    /// their share of the alpha (0 for a colour no pixel takes). The input must be finite.
    static let paletteCentroid = FilterDescriptor(
        name: "CIPaletteCentroid", categories: ["CICategoryColorEffect", "CICategoryVideo", "CICategoryStillImage"],
        summary: "For each palette colour, the alpha-weighted mean position (x + ½, y + ½) of the pixels nearest to it: an N×1 image, "
            + "pixel j = (x̄, ȳ, 0, share of the alpha).",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputPaletteImage", .image, "The palette: every pixel of its extent is a colour (CIKMeans' output)."),
                 perceptualInput]
    ) { args in
        let name = "CIPaletteCentroid"
        let image = try args.image("inputImage")
        guard !image.extent.isInfinite, !image.extent.isEmpty else {
            throw GraphError.invalidParameter(filter: name, key: "inputImage", reason: "needs a finite, non-empty extent (crop it first)")
        }
        let palette = try paletteArea(args, name)
        return image.applying(PaletteCentroid(area: image.extent.integral, palette: palette, perceptual: try args.bool("inputPerceptual")),
                              with: [try args.image("inputPaletteImage")])
    }

    /// inputPaletteImage's extent, integral: finite, with 1 to 1024 pixels.
    static func paletteArea(_ args: FilterArguments, _ name: String) throws -> Rect {
        let extent = try args.image("inputPaletteImage").extent.integral
        guard !extent.isInfinite, !extent.isEmpty, extent.width * extent.height <= 1024 else {
            throw GraphError.invalidParameter(filter: name, key: "inputPaletteImage",
                                              reason: "a palette needs a finite extent of 1 to 1024 pixels, got \(extent)")
        }
        return extent
    }

    static func wholeNumber(_ args: FilterArguments, _ key: String) throws -> Int {
        let value = try args.number(key)
        guard value == value.rounded() else {
            throw GraphError.invalidParameter(filter: args.filter, key: key, reason: "expected a whole number, got \(value)")
        }
        return Int(value)
    }
}

/// CIE L*a*b* of linear sRGB (D65), as CIConvertRGBtoLab, and back.
enum PaletteLab {
    @inline(__always)
    static func f(_ t: Double) -> Double { t > 0.008856451679035631 ? cbrt(t) : t / 0.12841854934601665 + 0.13793103448275862 }
    @inline(__always)
    static func inverse(_ f: Double) -> Double { f > 0.20689655172413793 ? f * f * f : 0.12841854934601665 * (f - 0.13793103448275862) }

    @inline(__always)
    static func lab(_ r: Double, _ g: Double, _ b: Double) -> SIMD3<Double> {
        let x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
        let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
        let z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883
        let fy = f(y)
        return SIMD3(116 * fy - 16, 500 * (f(x) - fy), 200 * (fy - f(z)))
    }

    static func rgb(_ lab: SIMD3<Double>) -> SIMD3<Double> {
        let fy = (lab.x + 16) / 116
        let x = 0.95047 * inverse(fy + lab.y / 500), y = inverse(fy), z = 1.08883 * inverse(fy - lab.z / 200)
        return SIMD3(3.2404542 * x - 1.5371385 * y - 0.4985314 * z,
                     -0.9692660 * x + 1.8760108 * y + 0.0415560 * z,
                     0.0556434 * x - 0.2040259 * y + 1.0572252 * z)
    }

    /// The colour compared: the RGB itself, or its Lab.
    @inline(__always)
    static func space(_ r: Double, _ g: Double, _ b: Double, perceptual: Bool) -> SIMD3<Double> {
        perceptual ? lab(r, g, b) : SIMD3(r, g, b)
    }
}

/// The index of the point of `points` nearest to `c` (squared distance, the first on ties).
@inline(__always)
private func nearest(_ c: SIMD3<Double>, _ points: UnsafeBufferPointer<SIMD3<Double>>) -> Int {
    var best = 0, bestDistance = Double.infinity
    for j in 0..<points.count {
        let d = c - points[j]
        let distance = (d * d).sum()
        if distance < bestDistance { best = j; bestDistance = distance }
    }
    return best
}

/// The palette's colours (row by row from the bottom-left, R, G, B as stored), in the compared space.
private func paletteColors(_ read: (Int, Int) throws -> SIMD3<Double>, _ area: Rect, perceptual: Bool) rethrows -> [SIMD3<Double>] {
    var colors: [SIMD3<Double>] = []
    for y in Int(area.minY)..<Int(area.maxY) {
        for x in Int(area.minX)..<Int(area.maxX) {
            let c = try read(x, y)
            colors.append(PaletteLab.space(c.x, c.y, c.z, perceptual: perceptual))
        }
    }
    return colors
}

/// Calls `body(colour, alpha, x, y)` for every pixel of `area` with alpha > 0 (NaN skipped), row by
/// row from the bottom, colour unpremultiplied and in the compared space.
@inline(__always)
private func forEachColor(_ buffer: PlanarBuffer, _ area: Rect, perceptual: Bool, _ body: (SIMD3<Double>, Double, Int, Int) -> Void) {
    let pixels = AreaPixels(buffer: buffer, area: area)
    for row in 0..<pixels.height {
        guard let (r, first, count) = pixels.bufferedRun(channel: 0, row: row, columns: 0..<pixels.width),
              let (g, _, _) = pixels.bufferedRun(channel: 1, row: row, columns: 0..<pixels.width),
              let (b, _, _) = pixels.bufferedRun(channel: 2, row: row, columns: 0..<pixels.width),
              let (a, _, _) = pixels.bufferedRun(channel: 3, row: row, columns: 0..<pixels.width) else { continue }
        for i in 0..<count {
            let alpha = Double(a[i])
            guard alpha > 0 else { continue }
            let c = PaletteLab.space(Double(r[i]) / alpha, Double(g[i]) / alpha, Double(b[i]) / alpha, perceptual: perceptual)
            guard c.x.isFinite, c.y.isFinite, c.z.isFinite else { continue }
            body(c, alpha, pixels.x + first + i, pixels.y + row)
        }
    }
}

/// CIKMeans' processor (see ``PaletteFilters/kMeans``). Sums run in Double in row order.
struct KMeans: ImageProcessor {
    /// Integral and finite.
    let area: Rect
    let clusters: Int
    let passes: Int
    let perceptual: Bool
    /// The rows of inputMeans the seeds come from (input 1), or nil without seeds.
    let seeds: Rect?

    var name: String { "CIKMeans" }
    var structureKey: String { "CIKMeans \(area) \(clusters) \(passes) \(perceptual) \(seeds.map { "\($0)" } ?? "-")" }
    var uniformValues: [Float] { [] }
    var argumentSummary: String { "extent=\(area) count=\(clusters) passes=\(passes)" + (perceptual ? " perceptual" : "") }

    func outputExtent(inputExtents: [Rect]) -> Rect { Rect(x: 0, y: 0, width: Double(clusters), height: 1) }

    func regionOfInterest(input index: Int, inputExtent: Rect, outputRect: Rect) -> Rect {
        (index == 0 ? area : seeds ?? area).intersection(inputExtent)
    }

    func process(inputs: [PlanarBuffer], output: PlanarBuffer) throws {
        let image = inputs[0]
        var means: [SIMD3<Double>] = []
        if let seeds, inputs.count > 1 {
            means = paletteColors({ x, y in SIMD3((0..<3).map { Double(inputs[1].value(channel: $0, x: x, y: y)) }) }, seeds, perceptual: perceptual)
            means = Array(means.prefix(clusters))
        }
        if means.count < clusters { farthestPointSeeds(image, &means) }
        // Per mean: the weighted sums of its colours and their weight (unsafe: no checks per pixel).
        let sums = UnsafeMutableBufferPointer<SIMD4<Double>>.allocate(capacity: clusters)
        defer { sums.deallocate() }
        func assign() {
            sums.update(repeating: .zero)
            means.withUnsafeBufferPointer { points in
                forEachColor(image, area, perceptual: perceptual) { c, alpha, _, _ in
                    sums[nearest(c, points)] += SIMD4(c.x * alpha, c.y * alpha, c.z * alpha, alpha)
                }
            }
        }
        for _ in 0..<passes {
            assign()
            for j in 0..<clusters where sums[j].w > 0 { means[j] = SIMD3(sums[j].x, sums[j].y, sums[j].z) / sums[j].w }
        }
        assign()
        let total = sums.reduce(0) { $0 + $1.w }
        for j in 0..<clusters {
            let color = perceptual ? PaletteLab.rgb(means[j]) : means[j]
            let weight = total > 0 ? sums[j].w / total : 0
            for (channel, value) in [color.x, color.y, color.z, weight].enumerated() {
                output.setValue(Float(value), channel: channel, x: j, y: 0)
            }
        }
    }

    /// Completes `means` to `clusters` seeds: the weighted mean colour when empty, then the colour
    /// farthest from its nearest seed (the first in row order on ties).
    func farthestPointSeeds(_ image: PlanarBuffer, _ means: inout [SIMD3<Double>]) {
        if means.isEmpty {
            var sum = SIMD4<Double>.zero
            forEachColor(image, area, perceptual: perceptual) { c, alpha, _, _ in sum += SIMD4(c.x * alpha, c.y * alpha, c.z * alpha, alpha) }
            means.append(sum.w > 0 ? SIMD3(sum.x, sum.y, sum.z) / sum.w : .zero)
        }
        // Each colour's squared distance to its nearest seed so far, in row order.
        let distances = UnsafeMutableBufferPointer<Double>.allocate(capacity: max(Int(area.width * area.height), 1))
        defer { distances.deallocate() }
        var best = -1.0, chosen = SIMD3<Double>.zero, index = 0
        means.withUnsafeBufferPointer { points in
            forEachColor(image, area, perceptual: perceptual) { c, _, _, _ in
                let d = c - points[nearest(c, points)], distance = (d * d).sum()
                distances[index] = distance
                if distance > best { best = distance; chosen = c }
                index += 1
            }
        }
        while means.count < clusters {
            means.append(chosen)
            guard means.count < clusters else { break }
            // The distances to the seed just added, and the next farthest colour, in one pass.
            let seed = chosen
            best = -1
            index = 0
            forEachColor(image, area, perceptual: perceptual) { c, _, _, _ in
                let d = c - seed, distance = min(distances[index], (d * d).sum())
                distances[index] = distance
                if distance > best { best = distance; chosen = c }
                index += 1
            }
        }
    }
}

/// CIPalettize's pass: a point operation reading the whole palette (input 1) for every tile.
struct Palettize: AreaOperation {
    /// The palette's extent, integral.
    let palette: Rect
    let perceptual: Bool

    var name: String { "CIPalettize" }
    var summary: String { "nearest of \(Int(palette.width * palette.height)) palette colours" + (perceptual ? " in Lab" : "") }

    func outputExtent(inputExtents: [Rect]) -> Rect { inputExtents[0] }
    func regionOfInterest(input index: Int, for rect: Rect) -> Rect { index == 0 ? rect : palette }
    func inputChannels(_ index: Int) -> Int { index == 0 ? 4 : 3 }
    func isOpaque(inputs: [AreaInputDescription]) -> Bool { inputs[0].isOpaque }
    func geometry(input index: Int) -> GraphEngine.AffineTransform? { index == 0 ? .identity : nil }

    func referenceValue(x: Int, y: Int, input: (Int, Int, Int) throws -> SIMD4<Float>) throws -> SIMD4<Float> {
        let stored = try paletteColors({ px, py in let p = try input(1, px, py); return SIMD3(Double(p.x), Double(p.y), Double(p.z)) },
                                       palette, perceptual: false)
        let points = stored.map { PaletteLab.space($0.x, $0.y, $0.z, perceptual: perceptual) }
        let v = try input(0, x, y)
        guard v.w > 0 else { return .zero }
        let c = PaletteLab.space(Double(v.x) / Double(v.w), Double(v.y) / Double(v.w), Double(v.z) / Double(v.w), perceptual: perceptual)
        let p = points.withUnsafeBufferPointer { stored[nearest(c, $0)] }
        return SIMD4(Float(p.x) * v.w, Float(p.y) * v.w, Float(p.z) * v.w, v.w)
    }
}

extension Palettize: CPUAreaPass {
    func run(_ tile: AreaTile) {
        let input = tile.inputs[0], colors = tile.inputs[1], output = tile.output
        let count = colors.width * colors.height
        // The palette as stored (R, G, B) and in the compared space, once per tile.
        let stored = tile.scratch.floats(0, count: 3 * count)
        let compared = UnsafeMutableRawPointer(tile.scratch.floats(1, count: 8 * count))
            .bindMemory(to: SIMD3<Double>.self, capacity: count)
        for i in 0..<count {
            for channel in 0..<3 { stored[3 * i + channel] = colors.row(channel, i / colors.width)[i % colors.width] }
            compared[i] = PaletteLab.space(Double(stored[3 * i]), Double(stored[3 * i + 1]), Double(stored[3 * i + 2]), perceptual: perceptual)
        }
        let points = UnsafeBufferPointer(start: compared, count: count)
        let values = tile.scratch.floats(2, count: 4 * output.width)
        let offset = output.x - input.x
        for row in 0..<output.height {
            let r = input.row(0, row + output.y - input.y) + offset, g = input.row(1, row + output.y - input.y) + offset
            let b = input.row(2, row + output.y - input.y) + offset, a = input.row(3, row + output.y - input.y) + offset
            for i in 0..<output.width {
                let alpha = a[i]
                var out = SIMD4<Float>.zero
                if alpha > 0 {
                    let inverse = 1 / Double(alpha)
                    let c = PaletteLab.space(Double(r[i]) * inverse, Double(g[i]) * inverse, Double(b[i]) * inverse, perceptual: perceptual)
                    let j = nearest(c, points)
                    out = SIMD4(stored[3 * j] * alpha, stored[3 * j + 1] * alpha, stored[3 * j + 2] * alpha, alpha)
                }
                for channel in 0..<4 { values[channel * output.width + i] = out[channel] }
            }
            for channel in 0..<tile.channels { output.store(channel: channel, row: row, from: values + channel * output.width) }
        }
    }
}

/// CIPaletteCentroid's processor (see ``PaletteFilters/paletteCentroid``). Sums in Double, row order.
struct PaletteCentroid: ImageProcessor {
    /// The input's extent, integral.
    let area: Rect
    /// The palette's extent, integral.
    let palette: Rect
    let perceptual: Bool

    var name: String { "CIPaletteCentroid" }
    var structureKey: String { "CIPaletteCentroid \(area) \(palette) \(perceptual)" }
    var uniformValues: [Float] { [] }
    var argumentSummary: String { "palette=\(palette)" + (perceptual ? " perceptual" : "") }

    func outputExtent(inputExtents: [Rect]) -> Rect { Rect(x: 0, y: 0, width: palette.width * palette.height, height: 1) }

    func regionOfInterest(input index: Int, inputExtent: Rect, outputRect: Rect) -> Rect {
        (index == 0 ? area : palette).intersection(inputExtent)
    }

    func process(inputs: [PlanarBuffer], output: PlanarBuffer) throws {
        let points = paletteColors({ x, y in SIMD3((0..<3).map { Double(inputs[1].value(channel: $0, x: x, y: y)) }) }, palette,
                                   perceptual: perceptual)
        var sums = [SIMD3<Double>](repeating: .zero, count: points.count)
        points.withUnsafeBufferPointer { points in
            forEachColor(inputs[0], area, perceptual: perceptual) { c, alpha, x, y in
                sums[nearest(c, points)] += SIMD3((Double(x) + 0.5) * alpha, (Double(y) + 0.5) * alpha, alpha)
            }
        }
        let total = sums.reduce(0) { $0 + $1.z }
        for (j, sum) in sums.enumerated() {
            let values = sum.z > 0 ? [sum.x / sum.z, sum.y / sum.z, 0, sum.z / total] : [0, 0, 0, 0]
            for channel in 0..<4 { output.setValue(Float(values[channel]), channel: channel, x: j, y: 0) }
        }
    }
}
