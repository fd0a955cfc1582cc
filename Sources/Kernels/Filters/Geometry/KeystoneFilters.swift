import Foundation
import GraphEngine

/// Keystone corrections and CIPerspectiveRotate (CICategoryGeometryAdjustment): one
/// ``ProjectiveWarp`` each, `out(p) = bilinear(in, H⁻¹(p))` with `H` the source → destination
/// homography. Apple's solvers are not public; ours are stated per filter. Extent: the input's
/// corners mapped by `H` (infinite when the input is, or when a corner maps behind the horizon).
enum KeystoneFilters {
    static let categories = ["CICategoryGeometryAdjustment", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"]
    static let all: [FilterDescriptor] = [vertical, horizontal, combined, rotate]

    static let guideInputs: [FilterInput] = [
        ColorAdjustmentFilters.imageInput,
        FilterInput("inputFocalLength", .number, default: .number(28),
                    "The 35 mm equivalent focal length (accepted for Core Image's signature; the guides alone fix our correction)."),
        FilterInput("inputTopLeft", .vector, count: 2, "The top left point of the guide."),
        FilterInput("inputTopRight", .vector, count: 2, "The top right point of the guide."),
        FilterInput("inputBottomRight", .vector, count: 2, "The bottom right point of the guide."),
        FilterInput("inputBottomLeft", .vector, count: 2, "The bottom left point of the guide."),
    ]

    /// The axes a keystone correction straightens.
    struct Axes: OptionSet, Sendable {
        let rawValue: Int
        static let vertical = Axes(rawValue: 1), horizontal = Axes(rawValue: 2)
    }

    /// Ours: the guide quadrilateral (bottom left, bottom right, top right, top left) is mapped onto
    /// the target whose left and right edges are vertical at the mean x of each (vertical), whose
    /// bottom and top edges are horizontal at the mean y of each (horizontal), or both (a rectangle):
    /// `H = T∘G⁻¹`, `G` and `T` the unit square → guide and → target homographies.
    static func keystone(_ args: FilterArguments, _ axes: Axes) throws -> Image {
        let image = try args.image("inputImage")
        var guide = try ["inputBottomLeft", "inputBottomRight", "inputTopRight", "inputTopLeft"].map { key -> (Double, Double) in
            let v = try args.vector(key)
            return (v[0], v[1])
        }
        let g = guide
        if axes.contains(.vertical) {
            let left = (g[0].0 + g[3].0) / 2, right = (g[1].0 + g[2].0) / 2
            guide = [(left, guide[0].1), (right, guide[1].1), (right, guide[2].1), (left, guide[3].1)]
        }
        if axes.contains(.horizontal) {
            let bottom = (g[0].1 + g[1].1) / 2, top = (g[2].1 + g[3].1) / 2
            guide = [(guide[0].0, bottom), (guide[1].0, bottom), (guide[2].0, top), (guide[3].0, top)]
        }
        guard let source = Homography(unitSquareTo: g), let target = Homography(unitSquareTo: guide),
              let toUnit = target.inverted, let forward = source.inverted.map({ target.concatenating($0) }) else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputTopLeft",
                                              reason: "the guide's corners (or their straightened target) do not span a quadrilateral")
        }
        return warped(image, destinationToSource: source.concatenating(toUnit), forward: forward, args.filter)
    }

    /// The warp, with the input's corners mapped by `forward` as the extent.
    static func warped(_ image: Image, destinationToSource: Homography, forward: Homography, _ name: String) -> Image {
        let extent = forward.mappedBounds(of: image.extent) ?? .infinite
        return image.applying(ProjectiveWarp(name: name, destinationToSource: destinationToSource), extent: extent)
    }

    static let vertical = FilterDescriptor(
        name: "CIKeystoneCorrectionVertical", categories: categories,
        summary: "Straightens the guide's left and right edges: the guide maps onto the quadrilateral with those edges vertical at their mean x "
            + "(ours), out(p) = bilinear(in, H⁻¹(p)); extent: the input's corners mapped.",
        inputs: guideInputs
    ) { args in try keystone(args, .vertical) }

    static let horizontal = FilterDescriptor(
        name: "CIKeystoneCorrectionHorizontal", categories: categories,
        summary: "Straightens the guide's bottom and top edges: the guide maps onto the quadrilateral with those edges horizontal at their mean y "
            + "(ours), out(p) = bilinear(in, H⁻¹(p)); extent: the input's corners mapped.",
        inputs: guideInputs
    ) { args in try keystone(args, .horizontal) }

    static let combined = FilterDescriptor(
        name: "CIKeystoneCorrectionCombined", categories: categories,
        summary: "Straightens the guide into a rectangle (edges at the mean x of left and right, mean y of bottom and top; ours): "
            + "out(p) = bilinear(in, H⁻¹(p)); extent: the input's corners mapped.",
        inputs: guideInputs
    ) { args in try keystone(args, [.vertical, .horizontal]) }

    /// Ours (Apple's conventions are not public): a pinhole camera with focal length
    /// `f = focalLength/36·max(w, h)` pixels (the longer side is the 35 mm frame's 36 mm) on the
    /// input's centre `c` turns by `R = Rz(roll)·Rx(pitch)·Ry(yaw)` (right-handed, angles in radians):
    /// `H = K·R·K⁻¹` with `K = [f 0 c.x; 0 f c.y; 0 0 1]`, `out(p) = bilinear(in, K·Rᵀ·K⁻¹(p))`.
    static let rotate = FilterDescriptor(
        name: "CIPerspectiveRotate", categories: categories,
        summary: "Turns the camera: H = K·R·K⁻¹, R = Rz(roll)·Rx(pitch)·Ry(yaw), K the pinhole of focal length focalLength/36·max(w, h) "
            + "pixels on the centre; out(p) = bilinear(in, H⁻¹(p)); extent: the input's corners mapped.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputFocalLength", .number, default: .number(28), slider: 15...100, "The 35 mm equivalent focal length."),
                 FilterInput("inputPitch", .number, default: .number(0), slider: -Double.pi / 6...Double.pi / 6, "The turn about x in radians."),
                 FilterInput("inputYaw", .number, default: .number(0), slider: -Double.pi / 6...Double.pi / 6, "The turn about y in radians."),
                 FilterInput("inputRoll", .number, default: .number(0), slider: -Double.pi / 4...Double.pi / 4,
                             "The turn about the optical axis in radians.")]
    ) { args in
        let image = try args.image("inputImage")
        let e = image.extent
        guard !e.isInfinite, !e.isEmpty else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputImage",
                                              reason: "needs an image with a finite, non-empty extent (crop it first)")
        }
        let focal = try args.number("inputFocalLength")
        guard focal > 0 else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputFocalLength", reason: "the focal length must be above 0, got \(focal)")
        }
        let r = rotation(pitch: try args.number("inputPitch"), yaw: try args.number("inputYaw"), roll: try args.number("inputRoll"))
        let f = focal / 36 * max(e.width, e.height), cx = e.x + e.width / 2, cy = e.y + e.height / 2
        let k = Homography(f, 0, cx, 0, f, cy, 0, 0, 1), kInverse = Homography(1 / f, 0, -cx / f, 0, 1 / f, -cy / f, 0, 0, 1)
        let transposed = Homography(r[0], r[3], r[6], r[1], r[4], r[7], r[2], r[5], r[8])
        let forward = k.concatenating(Homography(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8])).concatenating(kInverse)
        return warped(image, destinationToSource: k.concatenating(transposed).concatenating(kInverse), forward: forward, args.filter)
    }

    /// `Rz(roll)·Rx(pitch)·Ry(yaw)`, row-major.
    static func rotation(pitch: Double, yaw: Double, roll: Double) -> [Double] {
        func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
            var product = [Double](repeating: 0, count: 9)
            for row in 0..<3 {
                for column in 0..<3 {
                    for k in 0..<3 { product[row * 3 + column] += a[row * 3 + k] * b[k * 3 + column] }
                }
            }
            return product
        }
        let (sp, cp, sy, cy, sr, cr) = (sin(pitch), cos(pitch), sin(yaw), cos(yaw), sin(roll), cos(roll))
        let rx: [Double] = [1, 0, 0, 0, cp, -sp, 0, sp, cp]
        let ry: [Double] = [cy, 0, sy, 0, 1, 0, -sy, 0, cy]
        let rz: [Double] = [cr, -sr, 0, sr, cr, 0, 0, 0, 1]
        return multiply(rz, multiply(rx, ry))
    }
}
