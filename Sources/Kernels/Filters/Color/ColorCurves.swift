import Foundation
import GraphEngine

/// CIColorCurves (CICategoryColorEffect): a curve per channel given as a table of RGB Float32
/// triples. Apple documents "a three-channel one-dimensional color table" over `inputCurvesDomain`;
/// ours interpolates it linearly: with `n` entries and the domain `[lo, hi]`, each unpremultiplied
/// channel `c` maps to `u = clamp((c − lo)/(hi − lo), 0, 1)·(n − 1)` and reads its own column of the
/// table at `u` (linear between entries), premultiplied again; in `inputColorSpace` (default the
/// working space). The table is a one-row image the kernel samples, so any length works.
enum ColorCurves {
    /// Three entries, the identity on 0…1 (Core Image's default is 36 bytes, three RGB triples).
    static let identity: FilterValue = .floats([0, 0, 0, 0.5, 0.5, 0.5, 1, 1, 1])

    static let filter = FilterDescriptor(
        name: "CIColorCurves", categories: LabFilters.categories.filter { $0 != "CICategoryHighDynamicRange" },
        summary: "Per-channel curves from a table of RGB triples: u = clamp((c − lo)/(hi − lo), 0, 1)·(n − 1), each channel reads its "
            + "column at u, linear between entries; in inputColorSpace.",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputCurvesData", .data, default: identity, "RGB Float32 triples (native byte order), the curve's entries."),
                 FilterInput("inputCurvesDomain", .vector, default: .vector([0, 1]), count: 2, "The input values the first and last entries stand for."),
                 ColorCubeFilters.colorSpaceInput]
    ) { args in
        let values = try args.floats("inputCurvesData"), domain = try args.vector("inputCurvesDomain")
        guard !values.isEmpty, values.count % 3 == 0, values.allSatisfy(\.isFinite) else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputCurvesData",
                                              reason: "expected finite RGB Float32 triples, got \(values.count) values")
        }
        guard domain[1] > domain[0] else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputCurvesDomain", reason: "the domain's end must be above its start, got \(domain)")
        }
        let count = values.count / 3
        var texels: [Float] = []
        for i in 0..<count { texels += [values[3 * i], values[3 * i + 1], values[3 * i + 2], 1] }
        let bytes = texels.withUnsafeBytes { Array($0) }
        let table = Image(buffer: try ImageBuffer(width: count, height: 1, format: .rgbaf, alphaMode: .premultiplied, colorSpace: nil, bytes: bytes))
        let tableRegion = table.extent
        return try args.image("inputImage").applyingInSpace(try args.colorSpace("inputColorSpace")) { image in
            try kernel.apply([.image(image), .image(table), .vector(domain)], extent: image.extent,
                             regionOfInterest: .callback { index, rect in index == 0 ? rect : tableRegion })
        }
    }

    static let kernel = CatalogueKernel("""
        kernel vec4 CIColorCurves(sampler image, sampler table, vec2 domain) {
            vec4 s = sample(image, destCoord());
            vec4 e = samplerExtent(table);
            vec3 u = clamp((unpremultiply(s).rgb - domain.x) / (domain.y - domain.x), 0.0, 1.0) * (e.z - 1.0);
            float r = sample(table, vec2(e.x + 0.5 + u.r, e.y + 0.5)).r;
            float g = sample(table, vec2(e.x + 0.5 + u.g, e.y + 0.5)).g;
            float b = sample(table, vec2(e.x + 0.5 + u.b, e.y + 0.5)).b;
            return vec4(vec3(r, g, b) * s.a, s.a);
        }
        """)
}
