import Foundation
import GraphEngine

/// CIAccordionFoldTransition (CICategoryTransition): the input folds up like an accordion and the
/// target, of its own size, unfolds. Apple's kernel is not public; ours: the fold angle is
/// `α = (π/2)·(1 − |2t − 1|)` (flat at the ends, folded shut halfway), the picture is the input
/// before `t = ½` and the target from then on. For the picture's extent `[x y w h]`, the part above
/// `y_b = y + bottomHeight` (length `L = h − bottomHeight`) is `2n` panels of length `ℓ = L/(2n)`,
/// each foreshortened to `ℓ·cos α` (`cos α` at least 10⁻³). At `p` with `s = p.y − y_b`: below
/// (`s < 0`) the picture at `p`; above the folded length (`s > L·cos α`) transparent; else in panel
/// `k = floor(s/(ℓ cos α))` the picture at `(p.x, y_b + kℓ + (s − kℓ cos α)/cos α)`, odd panels
/// (facing away) darkened by `shadow·sin α`. Extent: the union of the two pictures'.
enum AccordionFoldTransition {
    static let filter = FilterDescriptor(
        name: "CIAccordionFoldTransition", categories: TransitionFilters.categories,
        summary: "The input folds shut and the target unfolds: α = (π/2)(1 − |2t − 1|), 2n panels of the picture above bottomHeight, "
            + "each foreshortened by cos α, panel k read at y_b + kℓ + (s − kℓ cos α)/cos α, odd panels darkened by shadow·sin α.",
        inputs: [TransitionFilters.imageInput, TransitionFilters.targetInput,
                 FilterInput("inputBottomHeight", .number, default: .number(0), minimum: 0,
                             "The height in pixels of the bottom strip that stays flat."),
                 FilterInput("inputNumberOfFolds", .number, default: .number(3), minimum: 1, slider: 1...10,
                             "The number of folds (each two panels; rounded)."),
                 FilterInput("inputFoldShadowAmount", .number, default: .number(0.1), minimum: 0, slider: 0...1,
                             "How dark the panels facing away are."),
                 TransitionFilters.timeInput]
    ) { args in
        let t = try args.number("inputTime")
        let picture = try args.image(t < 0.5 ? "inputImage" : "inputTargetImage")
        let extent = try args.image("inputImage").extent.union(try args.image("inputTargetImage").extent)
        guard !picture.extent.isInfinite, !picture.extent.isEmpty else {
            throw GraphError.invalidParameter(filter: args.filter, key: t < 0.5 ? "inputImage" : "inputTargetImage",
                                              reason: "the folding picture must have a finite extent (crop it), got \(picture.extent)")
        }
        let folds = max((try args.number("inputNumberOfFolds")).rounded(), 1)
        let bottom = min(try args.number("inputBottomHeight"), picture.extent.height)
        let alpha = Double.pi / 2 * (1 - abs(2 * t - 1))
        let length = picture.extent.height - bottom
        let region = picture.extent
        return try kernel.apply([.image(picture),
                                 .vector([picture.extent.y + bottom, length, max(length / (2 * folds), 1e-6), max(cos(alpha), 1e-3)]),
                                 .number((try args.number("inputFoldShadowAmount")) * sin(alpha))],
                                extent: extent, regionOfInterest: .callback { _, _ in region })
    }

    static let kernel = CatalogueKernel("""
        kernel vec4 CIAccordionFoldTransition(sampler picture, vec4 fold, float shadow) {
            vec2 p = destCoord();
            float s = p.y - fold.x;
            float folded = fold.z * fold.w;
            float k = floor(s / folded);
            vec4 c = sample(picture, vec2(p.x, fold.x + k * fold.z + (s - k * folded) / fold.w));
            float odd = mod(k, 2.0);
            vec4 panel = vec4(c.rgb * (1.0 - shadow * odd), c.a);
            return s < 0.0 ? sample(picture, p) : (s > fold.y * fold.w ? vec4(0.0) : panel);
        }
        """)
}
