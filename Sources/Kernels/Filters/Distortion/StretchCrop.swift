import Foundation
import GraphEngine

/// CIStretchCrop (CICategoryDistortionEffect): the input fitted to `inputSize` `(W, H)` by cropping
/// and stretching. Ours (Apple's kernel is not public): the input `w × h` is cropped, centred, to
/// `s = mix((w, h), a, crop)` with `a` the largest centred rectangle of the output's aspect ratio,
/// then stretched onto `[0, 0, W, H]` with `r = (W, H)/s`, `k = min(r.x, r.y)` and per axis the
/// centre slope `t = mix(r/k, 1, centerStretch)`: with `u = (p − (W, H)/2)/((W, H)/2)`,
/// `v = u·t/(1 + (t − 1)|u|)` (monotone, `v(±1) = ±1`, slope `t` at the centre, so 0 keeps the
/// centre's aspect ratio and 1 stretches uniformly), `out(p) = bilinear(in, centre + v·s/2)`.
enum StretchCrop {
    static let filter = FilterDescriptor(
        name: "CIStretchCrop", categories: ["CICategoryDistortionEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"],
        summary: "Fits the image to inputSize (ours): cropped to mix(size, the centred rectangle of the output's aspect, cropAmount), then "
            + "v = u·t/(1 + (t − 1)|u|) per axis, t = mix(r/min(r), 1, centerStretchAmount), r = output/cropped size; extent [0 0 W H].",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputSize", .vector, default: .vector([1280, 720]), count: 2, "The output's width and height in pixels."),
                 FilterInput("inputCropAmount", .number, default: .number(0.25), minimum: 0, maximum: 1, slider: 0...1,
                             "0 only stretches, 1 only crops (to the output's aspect ratio)."),
                 FilterInput("inputCenterStretchAmount", .number, default: .number(0.25), minimum: 0, maximum: 1, slider: 0...1,
                             "0 keeps the centre's aspect ratio (the edges stretch more), 1 stretches uniformly.")]
    ) { args in
        let image = try args.image("inputImage")
        let e = image.extent
        guard !e.isInfinite, !e.isEmpty else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputImage",
                                              reason: "needs an image with a finite, non-empty extent (crop it first)")
        }
        let size = try args.vector("inputSize")
        guard size[0] > 0, size[1] > 0, size[0].isFinite, size[1].isFinite else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputSize", reason: "the size must be positive, got \(size)")
        }
        let (sw, sh) = croppedSize(e, size, try args.number("inputCropAmount"))
        let rx = size[0] / sw, ry = size[1] / sh, k = min(rx, ry), c = try args.number("inputCenterStretchAmount")
        let t = [rx / k + (1 - rx / k) * c, ry / k + (1 - ry / k) * c]
        return try kernel.apply([.image(image), .vector([size[0] / 2, size[1] / 2, sw / 2, sh / 2]),
                                 .vector([e.x + e.width / 2, e.y + e.height / 2]), .vector(t)],
                                extent: Rect(x: 0, y: 0, width: size[0], height: size[1]))
    }

    /// `mix((w, h), a, crop)`, `a` the largest rectangle of aspect `W/H` inside `w × h`.
    static func croppedSize(_ e: Rect, _ size: [Double], _ crop: Double) -> (Double, Double) {
        let aspect = size[0] / size[1]
        let a = e.width / e.height > aspect ? (e.height * aspect, e.height) : (e.width, e.width / aspect)
        return (e.width + (a.0 - e.width) * crop, e.height + (a.1 - e.height) * crop)
    }

    static let kernel = CatalogueKernel("""
        kernel vec2 CIStretchCrop(vec4 frame, vec2 center, vec2 t) {
            vec2 u = (destCoord() - frame.xy) / frame.xy;
            vec2 v = u * t / (1.0 + (t - 1.0) * abs(u));
            return center + v * frame.zw;
        }
        """)
}
