import Foundation
import GraphEngine

/// CIMaximumScaleTransform (CICategoryGeometryAdjustment): the image scaled about the origin by
/// `sx = inputScale·inputAspectRatio` horizontally and `sy = inputScale` vertically, each output
/// pixel the per-channel maximum of the input pixels its footprint overlaps instead of a weighted
/// average: output pixel `(X, Y)` covers input `[X/sx, (X + 1)/sx) × [Y/sy, (Y + 1)/sy)`, so it
/// takes the maximum over columns `⌊X/sx⌋ … ⌈(X + 1)/sx⌉ − 1` and rows alike (one pixel or two
/// when enlarging, about `1/s` when shrinking). Thin bright lines and sparse bright pixels survive
/// a shrink (a mask's speckles, a depth map's near edge), which a linear average dims.
///
/// Core Image's edges: outside a finite input's extent the input is transparent (0), taken into
/// the maximum like any pixel; the extent is the scaled extent rounded out, as
/// CILanczosScaleTransform's. An infinite (clamped) input gives an infinite output whose crop reads
/// only the footprints it covers. NaN (a hole in a depth map) is ignored unless the whole footprint
/// is NaN. Apple does not publish its footprint; this one is ours.
enum MaximumScaleTransform {
    static let filter = FilterDescriptor(
        name: "CIMaximumScaleTransform",
        categories: ["CICategoryGeometryAdjustment", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"],
        summary: "Scales by (scale·aspect, scale) taking per channel the maximum of the input pixels each output pixel's footprint "
            + "[X/sx, (X + 1)/sx) × [Y/sy, (Y + 1)/sy) overlaps (0 outside a finite extent); extent: the scaled extent, integral.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputScale", .number, default: .number(1), minimum: 0, slider: 0.05...1.5,
                             "The vertical scale factor."),
                 FilterInput("inputAspectRatio", .number, default: .number(1), minimum: 0, slider: 0.5...2,
                             "The horizontal scale relative to the vertical one.")]
    ) { args in
        let image = try args.image("inputImage")
        let sy = try args.number("inputScale"), sx = sy * (try args.number("inputAspectRatio"))
        if sx == 1 && sy == 1 { return image }
        let e = image.extent
        if sx == 0 || sy == 0 { return image.cropped(to: Rect(x: 0, y: 0, width: 0, height: 0)) }
        let pass = MaximumScale(sx: sx, sy: sy, inputBounds: e.isInfinite ? nil : e.integral)
        if e.isInfinite { return image.applying(pass) }
        return image.applying(pass).cropped(to: ResamplingFilters.scaledExtent(e, sx: sx, sy: sy))
    }
}

/// CIMaximumScaleTransform's pass: per channel, the maximum over each output pixel's footprint,
/// rows first (each output row the maximum of its input rows across the tile), then columns.
/// Footprints depend only on the output position, so tiles and threads do not change the result.
struct MaximumScale: AreaOperation {
    let sx: Double, sy: Double
    /// A finite input's extent rounded out (the region of interest stays inside it: the footprints'
    /// parts outside read 0); nil for an infinite input.
    let inputBounds: Rect?

    var name: String { "CIMaximumScaleTransform" }
    var summary: String { "footprint maximum, scale \(sx)x\(sy)" }

    /// The first input index of output index `i`'s footprint along an axis of scale `s`.
    static func first(_ i: Int, _ s: Double) -> Int { index((Double(i) / s + 1e-9).rounded(.down)) }
    /// One past the last input index of output index `i`'s footprint (at least `first + 1`).
    static func end(_ i: Int, _ s: Double) -> Int {
        max(index((Double(i + 1) / s - 1e-9).rounded(.up)), first(i, s) + 1)
    }
    /// An index within ±2⁵², so a huge footprint never traps on conversion.
    static func index(_ v: Double) -> Int { Int(min(max(v, -4.5e15), 4.5e15)) }

    func outputExtent(inputExtents: [Rect]) -> Rect {
        let e = inputExtents[0]
        return e.isInfinite ? .infinite : ResamplingFilters.scaledExtent(e, sx: sx, sy: sy)
    }

    func regionOfInterest(input index: Int, for rect: Rect) -> Rect {
        let x0 = Int(rect.minX), y0 = Int(rect.minY), x1 = Int(rect.maxX), y1 = Int(rect.maxY)
        let x = Self.first(x0, sx), y = Self.first(y0, sy)
        let mapped = Rect(x: Double(x), y: Double(y), width: Double(Self.end(x1 - 1, sx) - x), height: Double(Self.end(y1 - 1, sy) - y))
        guard let bounds = inputBounds else { return mapped }
        let inside = mapped.intersection(bounds)
        // An output rectangle wholly outside the footprints of the extent reads one pixel of it.
        return inside.isEmpty ? Rect(x: bounds.minX, y: bounds.minY, width: 1, height: 1) : inside
    }

    func isOpaque(inputs: [AreaInputDescription]) -> Bool {
        // Every footprint inside the output extent overlaps the input's extent when that is whole pixels.
        inputs[0].isOpaque && (inputs[0].extent.isInfinite || inputs[0].extent == inputs[0].extent.integral)
    }

    func isGrey(inputs: [AreaInputDescription]) -> Bool { inputs[0].isGrey }

    func geometry(input index: Int) -> GraphEngine.AffineTransform? { GraphEngine.AffineTransform(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }

    func referenceValue(x: Int, y: Int, input: (Int, Int, Int) throws -> SIMD4<Float>) throws -> SIMD4<Float> {
        var result = SIMD4<Float>(repeating: .nan)
        for j in Self.first(y, sy)..<Self.end(y, sy) {
            for i in Self.first(x, sx)..<Self.end(x, sx) {
                let v = try input(0, i, j)
                for c in 0..<4 { result[c] = largest(result[c], v[c]) }
            }
        }
        return result + 0
    }
}

extension MaximumScale: CPUAreaPass {
    func run(_ tile: AreaTile) {
        let input = tile.inputs[0], output = tile.output
        // Column footprints, clipped to the loaded columns; a clipped footprint also takes 0.
        let columnStart = tile.scratch.integers(0, count: output.width), columnEnd = tile.scratch.integers(1, count: output.width)
        let columnOutside = tile.scratch.integers(2, count: output.width)
        for i in 0..<output.width {
            let a = Self.first(output.x + i, sx) - input.x, b = Self.end(output.x + i, sx) - input.x
            columnStart[i] = max(a, 0)
            columnEnd[i] = min(b, input.width)
            columnOutside[i] = a < 0 || b > input.width || columnStart[i] >= columnEnd[i] ? 1 : 0
        }
        let rowMaximum = tile.scratch.floats(0, count: input.width), values = tile.scratch.floats(1, count: output.width)
        for row in 0..<output.height {
            let a = Self.first(output.y + row, sy) - input.y, b = Self.end(output.y + row, sy) - input.y
            let rowStart = max(a, 0), rowEnd = min(b, input.height)
            let rowsOutside = a < 0 || b > input.height || rowStart >= rowEnd
            for channel in 0..<tile.channels {
                if rowStart < rowEnd {
                    rowMaximum.update(from: input.row(channel, rowStart), count: input.width)
                    for r in (rowStart + 1)..<max(rowEnd, rowStart + 1) {
                        let source = input.row(channel, r)
                        for i in 0..<input.width { rowMaximum[i] = largest(rowMaximum[i], source[i]) }
                    }
                    if rowsOutside { for i in 0..<input.width { rowMaximum[i] = largest(rowMaximum[i], 0) } }
                } else {
                    rowMaximum.update(repeating: 0, count: input.width)
                }
                for i in 0..<output.width {
                    var m: Float = columnOutside[i] != 0 ? 0 : .nan
                    for c in columnStart[i]..<max(columnEnd[i], columnStart[i]) { m = largest(m, rowMaximum[c]) }
                    // + 0 makes −0 and +0 one value.
                    values[i] = m + 0
                }
                output.store(channel: channel, row: row, from: values)
            }
        }
    }
}

/// The larger of two values, ignoring NaN (IEEE maxNum).
@inline(__always)
private func largest(_ a: Float, _ b: Float) -> Float { a.isNaN ? b : (b > a ? b : a) }
