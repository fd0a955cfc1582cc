import Foundation
import GraphEngine

/// CINinePartStretched and CINinePartTiled (CICategoryDistortionEffect): the input cut at two
/// breakpoints `b0 < b1` (positions in the image) into nine parts, the corners kept, the middle
/// band grown by `g` pixels per axis. Ours (Apple's kernels are not public; the picture is the
/// usual nine-slice): per axis, `src(x) = x` below `b0`, `x − g` from `b1 + g` on, and between them
/// the band `[b0, b1)` stretched (`b0 + (x − b0)·(b1 − b0)/(b1 − b0 + g)`) or tiled
/// (`b0 + mod(x − b0, b1 − b0)`, every other tile mirrored in y when inputFlipYTiles);
/// `out(p) = bilinear(in, src(p))`. Extent: the input's, `g` wider and taller.
enum NinePartFilters {
    static let categories = ["CICategoryDistortionEffect", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"]
    static let all: [FilterDescriptor] = [stretched, tiled]

    static let commonInputs: [FilterInput] = [
        ColorAdjustmentFilters.imageInput,
        FilterInput("inputBreakpoint0", .vector, default: .vector([50, 50]), count: 2, "The lower left corner of the middle band."),
        FilterInput("inputBreakpoint1", .vector, default: .vector([150, 150]), count: 2, "The upper right corner of the middle band."),
        FilterInput("inputGrowAmount", .vector, default: .vector([100, 100]), count: 2, "How many pixels the image grows by in x and y."),
    ]

    /// The input (finite), `(b0, b1)` and `g`, checked, and the grown extent.
    static func parameters(_ args: FilterArguments) throws -> (Image, [KernelArgument], Rect) {
        let image = try args.image("inputImage")
        let e = image.extent
        guard !e.isInfinite, !e.isEmpty else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputImage",
                                              reason: "needs an image with a finite, non-empty extent (crop it first)")
        }
        let b0 = try args.vector("inputBreakpoint0"), b1 = try args.vector("inputBreakpoint1"), g = try args.vector("inputGrowAmount")
        guard b1[0] > b0[0], b1[1] > b0[1] else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputBreakpoint1",
                                              reason: "breakpoint 1 must lie above and right of breakpoint 0, got \(b0) and \(b1)")
        }
        guard b1[0] - b0[0] + g[0] > 0, b1[1] - b0[1] + g[1] > 0, e.width + g[0] > 0, e.height + g[1] > 0 else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputGrowAmount",
                                              reason: "shrinks the middle band or the image to nothing, got \(g)")
        }
        let extent = Rect(x: e.x, y: e.y, width: e.width + g[0], height: e.height + g[1])
        return (image, [.vector([b0[0], b0[1], b1[0], b1[1]]), .vector([g[0], g[1]])], extent)
    }

    static let stretched = FilterDescriptor(
        name: "CINinePartStretched", categories: categories,
        summary: "Nine-slice stretch: per axis src = x below b0, x − g from b1 + g, b0 + (x − b0)(b1 − b0)/(b1 − b0 + g) between (ours); "
            + "out(p) = bilinear(in, src(p)); extent: the input's grown by g.",
        inputs: commonInputs
    ) { args in
        let (image, arguments, extent) = try parameters(args)
        return try stretchedKernel.apply([.image(image)] + arguments, extent: extent)
    }

    static let tiled = FilterDescriptor(
        name: "CINinePartTiled", categories: categories,
        summary: "Nine-slice tiling: per axis src = x below b0, x − g from b1 + g, b0 + mod(x − b0, b1 − b0) between, odd tiles mirrored in y "
            + "when inputFlipYTiles (ours); out(p) = bilinear(in, src(p)); extent: the input's grown by g.",
        inputs: commonInputs + [FilterInput("inputFlipYTiles", .bool, default: .bool(true), "Mirror every other tile in y.")]
    ) { args in
        let (image, arguments, extent) = try parameters(args)
        return try tiledKernel.apply([.image(image)] + arguments + [.number(try args.bool("inputFlipYTiles") ? 1 : 0)], extent: extent)
    }

    static let stretchedKernel = CatalogueKernel("""
        float stretchAxis(float x, float b0, float b1, float g) {
            return x < b0 ? x : (x < b1 + g ? b0 + (x - b0) * (b1 - b0) / (b1 - b0 + g) : x - g);
        }
        kernel vec2 CINinePartStretched(vec4 breaks, vec2 grow) {
            vec2 p = destCoord();
            return vec2(stretchAxis(p.x, breaks.x, breaks.z, grow.x), stretchAxis(p.y, breaks.y, breaks.w, grow.y));
        }
        """)
    static let tiledKernel = CatalogueKernel("""
        float tileAxis(float x, float b0, float b1, float g, float flip) {
            float h = b1 - b0;
            float u = (x - b0) / h;
            float k = floor(u);
            float f = (u - k) * h;
            float m = mix(f, h - f, flip * step(0.5, mod(k, 2.0)));
            return x < b0 ? x : (x < b1 + g ? b0 + m : x - g);
        }
        kernel vec2 CINinePartTiled(vec4 breaks, vec2 grow, float flip) {
            vec2 p = destCoord();
            return vec2(tileAxis(p.x, breaks.x, breaks.z, grow.x, 0.0), tileAxis(p.y, breaks.y, breaks.w, grow.y, flip));
        }
        """)
}
