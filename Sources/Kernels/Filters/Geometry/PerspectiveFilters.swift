import Foundation
import GraphEngine

/// Perspective warps (CICategoryGeometryAdjustment): the unit square mapped onto the quadrilateral
/// of four control points by a homography, after Core Image's decompiled filters (the kernels
/// themselves are not public; their arguments, extents and regions of interest are). Each is one
/// ``ProjectiveWarp``, so it concatenates with its neighbours into one program.
enum PerspectiveFilters {
    static let categories = ["CICategoryGeometryAdjustment", "CICategoryVideo", "CICategoryStillImage"]
    static let all: [FilterDescriptor] = [transform, transformWithExtent, correction]

    static let cornerInputs: [FilterInput] = [
        FilterInput("inputTopLeft", .vector, default: .vector([118, 484]), count: 2, "Where the top-left corner goes."),
        FilterInput("inputTopRight", .vector, default: .vector([646, 507]), count: 2, "Where the top-right corner goes."),
        FilterInput("inputBottomRight", .vector, default: .vector([548, 140]), count: 2, "Where the bottom-right corner goes."),
        FilterInput("inputBottomLeft", .vector, default: .vector([155, 153]), count: 2, "Where the bottom-left corner goes."),
    ]

    /// The map of the unit square onto the control points: (0,0) → bottom left, (1,0) → bottom
    /// right, (1,1) → top right, (0,1) → top left.
    static func quadrilateral(_ args: FilterArguments) throws -> Homography {
        let corners = try ["inputBottomLeft", "inputBottomRight", "inputTopRight", "inputTopLeft"].map { key -> (Double, Double) in
            let v = try args.vector(key)
            return (v[0], v[1])
        }
        guard let homography = Homography(unitSquareTo: corners) else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputTopLeft",
                                              reason: "the four corners do not span a quadrilateral (three are collinear)")
        }
        return homography
    }

    /// The bounding box of the control points.
    static func bounds(_ args: FilterArguments) throws -> Rect {
        let points = try ["inputBottomLeft", "inputBottomRight", "inputTopRight", "inputTopLeft"].map { try args.vector($0) }
        let xs = points.map { $0[0] }, ys = points.map { $0[1] }
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { return .empty }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// `inputExtent` of the input mapped onto the quadrilateral: `out(p) = bilinear(in, e.origin +
    /// e.size·H⁻¹(p))` with `H` the unit square → quadrilateral homography; points with no preimage in
    /// front (`w ≤ 0`) are transparent. Extent: the control points' bounding box.
    static let transformWithExtent = FilterDescriptor(
        name: "CIPerspectiveTransformWithExtent", categories: categories,
        summary: "Maps the rectangle inputExtent of the image onto the quadrilateral of the four points: "
            + "out(p) = bilinear(in, e.origin + e.size·H⁻¹(p)), H the unit square → quadrilateral homography; "
            + "extent: the points' bounding box.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputExtent", .rect, default: .rect(Rect(x: 0, y: 0, width: 300, height: 300)),
                             "The rectangle of the input that fills the quadrilateral.")] + cornerInputs
    ) { args in
        let rect = try args.rect("inputExtent")
        guard !rect.isInfinite, rect.width > 0, rect.height > 0 else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputExtent",
                                              reason: "expected a finite rectangle with a positive width and height")
        }
        return try mapped(try args.image("inputImage"), from: rect, args)
    }

    /// CIPerspectiveTransformWithExtent with `inputExtent` = the input's extent.
    static let transform = FilterDescriptor(
        name: "CIPerspectiveTransform", categories: categories,
        summary: "Maps the image onto the quadrilateral of the four points: out(p) = bilinear(in, e.origin + "
            + "e.size·H⁻¹(p)), e the input's extent, H the unit square → quadrilateral homography; extent: the "
            + "points' bounding box.",
        inputs: [ColorAdjustmentFilters.imageInput] + cornerInputs
    ) { args in
        let image = try args.image("inputImage")
        guard !image.extent.isInfinite, !image.extent.isEmpty else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputImage",
                                              reason: "needs an image with a finite, non-empty extent (crop it first)")
        }
        return try mapped(image, from: image.extent, args)
    }

    private static func mapped(_ image: Image, from rect: Rect, _ args: FilterArguments) throws -> Image {
        guard let inverse = try quadrilateral(args).inverted else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputTopLeft", reason: "the corners are degenerate")
        }
        let toRect = Homography(rect.width, 0, rect.x, 0, rect.height, rect.y, 0, 0, 1)
        return image.applying(ProjectiveWarp(name: args.filter, destinationToSource: toRect.concatenating(inverse)),
                              extent: try bounds(args))
    }

    /// Core Image's CIPerspectiveCorrection (decompiled `-[CIPerspectiveCorrection outputImage]`):
    /// the quadrilateral is mapped onto the rectangle `[0 0 w h]`: `out(p) = bilinear(in, H(p.x/w,
    /// p.y/h))`. Size: `w = max(bottom, top)·rx`, `h = max(left, right)·ry` with the edge lengths of
    /// the quadrilateral and the foreshortening ratios `rx = max(left/right, right/left)`,
    /// `ry = max(bottom/top, top/bottom)`, both scaled by `2/max(rx, ry)` when that exceeds 2.
    /// `inputCrop` false keeps the whole corrected input (its corners' bounding box; infinite when a
    /// corner maps behind the horizon).
    static let correction = FilterDescriptor(
        name: "CIPerspectiveCorrection", categories: categories,
        summary: "Maps the quadrilateral of the four points onto the rectangle [0 0 w h]: out(p) = bilinear(in, "
            + "H(p.x/w, p.y/h)), H the unit square → quadrilateral homography; w = max(bottom, top)·rx, "
            + "h = max(left, right)·ry, rx, ry the left/right and bottom/top edge ratios (≥ 1, at most 2).",
        inputs: [ColorAdjustmentFilters.imageInput] + cornerInputs + [
            FilterInput("inputCrop", .bool, default: .bool(true), "Crop to the corrected rectangle."),
        ]
    ) { args in
        let image = try args.image("inputImage")
        let h = try quadrilateral(args)
        let (width, height) = try correctedSize(args)
        let toUnit = Homography(1 / width, 0, 0, 0, 1 / height, 0, 0, 0, 1)
        let warp = ProjectiveWarp(name: args.filter, destinationToSource: h.concatenating(toUnit))
        if try args.bool("inputCrop") {
            return image.applying(warp, extent: Rect(x: 0, y: 0, width: width, height: height))
        }
        // The input's corners in the unit square, scaled to the corrected size.
        let toCorrected = Homography(width, 0, 0, 0, height, 0, 0, 0, 1)
        let extent = h.inverted.flatMap { toCorrected.concatenating($0).mappedBounds(of: image.extent) } ?? .infinite
        return image.applying(warp, extent: extent)
    }

    /// The corrected rectangle's width and height (see ``correction``).
    static func correctedSize(_ args: FilterArguments) throws -> (Double, Double) {
        let tl = try args.vector("inputTopLeft"), tr = try args.vector("inputTopRight")
        let br = try args.vector("inputBottomRight"), bl = try args.vector("inputBottomLeft")
        func length(_ p: [Double], _ q: [Double]) -> Double { hypot(p[0] - q[0], p[1] - q[1]) }
        let left = length(bl, tl), right = length(tr, br), bottom = length(bl, br), top = length(tr, tl)
        guard left > 0, right > 0, bottom > 0, top > 0 else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputTopLeft",
                                              reason: "two corners coincide: the quadrilateral has an edge of length 0")
        }
        var rx = max(left / right, right / left), ry = max(bottom / top, top / bottom)
        let largest = max(rx, ry)
        if largest > 2 {
            rx *= 2 / largest
            ry *= 2 / largest
        }
        return (max(bottom, top) * rx, max(left, right) * ry)
    }
}

/// A plane projective transform (row-major 3×3):
/// `(x, y) ↦ ((a·x + b·y + c)/w, (d·x + e·y + f)/w)`, `w = g·x + h·y + i`.
struct Homography: Sendable {
    var m: [Double]

    init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double, _ g: Double, _ h: Double, _ i: Double) {
        m = [a, b, c, d, e, f, g, h, i]
    }

    /// The map of the unit square onto a quadrilateral, corners in the order (0,0), (1,0), (1,1),
    /// (0,1) (Heckbert, "Fundamentals of Texture Mapping and Image Warping", 1989, §2.2.3); nil when
    /// three corners are collinear.
    init?(unitSquareTo p: [(Double, Double)]) {
        let (x0, y0) = p[0], (x1, y1) = p[1], (x2, y2) = p[2], (x3, y3) = p[3]
        let sx = x0 - x1 + x2 - x3, sy = y0 - y1 + y2 - y3
        let dx1 = x1 - x2, dx2 = x3 - x2, dy1 = y1 - y2, dy2 = y3 - y2
        let det = dx1 * dy2 - dx2 * dy1
        // Relative to the edges' size, so rounding cannot pass three collinear corners.
        guard abs(det) > 1e-9 * (abs(dx1) + abs(dx2)) * (abs(dy1) + abs(dy2)), det.isFinite else { return nil }
        let g = (sx * dy2 - dx2 * sy) / det, h = (dx1 * sy - sx * dy1) / det
        self.init(x1 - x0 + g * x1, x3 - x0 + h * x3, x0, y1 - y0 + g * y1, y3 - y0 + h * y3, y0, g, h, 1)
        guard inverted != nil else { return nil }
    }

    /// The inverse (adjugate over determinant), or nil when singular.
    var inverted: Homography? {
        let (a, b, c, d, e, f, g, h, i) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
        let A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g
        let det = a * A + b * B + c * C
        guard det != 0, det.isFinite else { return nil }
        return Homography(A / det, -(b * i - c * h) / det, (b * f - c * e) / det,
                          B / det, (a * i - c * g) / det, -(a * f - c * d) / det,
                          C / det, -(a * h - b * g) / det, (a * e - b * d) / det)
    }

    /// `self` after `other`: p ↦ self(other(p)).
    func concatenating(_ other: Homography) -> Homography {
        var product = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                product[row * 3 + column] = (0..<3).reduce(0) { $0 + m[row * 3 + $1] * other.m[$1 * 3 + column] }
            }
        }
        return Homography(product[0], product[1], product[2], product[3], product[4], product[5],
                          product[6], product[7], product[8])
    }

    /// The image of a point, or nil when it lies on or behind the horizon (`w ≤ 0`).
    func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double)? {
        let w = m[6] * x + m[7] * y + m[8]
        guard w > 0 else { return nil }
        return ((m[0] * x + m[1] * y + m[2]) / w, (m[3] * x + m[4] * y + m[5]) / w)
    }

    /// The bounding box of `rect`'s four corners mapped; nil when `rect` is infinite or a corner
    /// lies on or behind the horizon (the image of the rectangle is then unbounded).
    func mappedBounds(of rect: Rect) -> Rect? {
        guard !rect.isInfinite else { return nil }
        let corners = [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.minX, rect.maxY), (rect.maxX, rect.maxY)]
            .compactMap { apply($0.0, $0.1) }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        guard corners.count == 4, let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// Samples the input at `H(p)` for each destination point `p`: `w = g·x + h·y + i`, the point is
/// `((a·x + b·y + c)/w, (d·x + e·y + f)/w)` where `w > 0`, and outside every image (a division by 0:
/// transparent) where not. The nine coefficients are uniforms, scaled so the largest is 1.
struct ProjectiveWarp: WarpOperation {
    let name: String
    let destinationToSource: Homography
    var structureKey: String { "ProjectiveWarp" }
    var uniformValues: [Float] {
        let largest = destinationToSource.m.map(abs).max() ?? 1
        return destinationToSource.m.map { Float($0 / largest) }
    }
    var argumentSummary: String { "H=[" + destinationToSource.m.map { String(format: "%.6g", $0) }.joined(separator: " ") + "]" }

    /// The bounding box of the rectangle's mapped corners when all lie in front (then the whole
    /// rectangle does: `w` is affine); otherwise all of the input.
    func regionOfInterest(for rect: Rect) -> Rect {
        guard !rect.isInfinite, !rect.isEmpty else { return rect.isEmpty ? .empty : .infinite }
        let corners = [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.minX, rect.maxY), (rect.maxX, rect.maxY)]
            .compactMap { destinationToSource.apply($0.0, $0.1) }
        guard corners.count == 4 else { return .infinite }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { return .infinite }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

extension ProjectiveWarp: WarpLowering {
    func emit(uniforms u: [Operand], destination p: (x: Operand, y: Operand),
              builder b: inout ProgramBuilder) throws -> (x: Operand, y: Operand) {
        func row(_ k: Int) -> Operand {
            b.ternary(.multiplyAdd, u[k], p.x, b.ternary(.multiplyAdd, u[k + 1], p.y, u[k + 2]))
        }
        let w = row(6)
        let inFront = b.ternary(.select, b.binary(.greaterThan, w, .constant(0)), w, .constant(0))
        return (b.binary(.divide, row(0), inFront), b.binary(.divide, row(3), inFront))
    }
}
