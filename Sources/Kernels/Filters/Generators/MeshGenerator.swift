import GraphEngine

/// CIMeshGenerator: line segments `(x0, y0, x1, y1)` (working-space pixels, y up) drawn `w` pixels
/// wide in one colour, `out = color·c`. Apple does not publish its line drawing; ours: each segment
/// is a capsule (round caps) of radius `w/2`, its coverage at a pixel centre `p` the one-pixel box
/// across its edge, `clamp(½ + w/2 − d(p), 0, 1)` with `d` the distance from `p` to the segment
/// (as ``RectangleGenerators``; a hairline of width 0 has coverage ½ on its line), and where
/// segments meet `c` is the largest of their coverages. The extent is the segments' bounding box
/// grown by `w/2 + 1` (the lines and their anti-aliased edge), rounded out to whole pixels.
///
/// The coverage is drawn in float64 segment by segment, each over its own bounding box, into a
/// Float32 mask the size of the extent, which a kernel multiplies by the colour.
enum MeshGenerator {
    static let filter = FilterDescriptor(
        name: "CIMeshGenerator",
        categories: ["CICategoryGenerator", "CICategoryVideo", "CICategoryStillImage", "CICategoryHighDynamicRange"],
        summary: "Line segments w wide in one colour: color·max over segments of clamp(½ + w/2 − d, 0, 1), d the distance to the segment "
            + "(round caps); extent the segments' bounds grown by w/2 + 1.",
        inputs: [FilterInput("inputWidth", .number, default: .number(1.5), minimum: 0, slider: 1...10, "The lines' width in pixels."),
                 FilterInput("inputColor", .color, default: .color([1, 1, 1, 1]), "The lines' colour."),
                 FilterInput("inputMesh", .vectors, count: 4, "The line segments, each a vector x0 y0 x1 y1 (working-space pixels).")]
    ) { args in
        let segments = try args.vectors("inputMesh"), width = try args.number("inputWidth")
        guard !segments.isEmpty else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputMesh", reason: "the mesh has no segments")
        }
        let reach = width / 2 + 1
        let xs = segments.flatMap { [$0[0], $0[2]] }, ys = segments.flatMap { [$0[1], $0[3]] }
        let bounds = Rect(x: (xs.min() ?? 0) - reach, y: (ys.min() ?? 0) - reach,
                          width: (xs.max() ?? 0) - (xs.min() ?? 0) + 2 * reach, height: (ys.max() ?? 0) - (ys.min() ?? 0) + 2 * reach).integral
        let pixels = bounds.width * bounds.height
        guard pixels * 4 <= Double(ImageBuffer.maximumByteCount) else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputMesh",
                                              reason: "the mesh spans \(Int(bounds.width)) × \(Int(bounds.height)) pixels, more than an image can hold")
        }
        let mask = try coverage(of: segments, width: width, in: bounds)
        return try kernel.apply([.image(try args.colorImage("inputColor")), .image(mask), .vector([bounds.x, bounds.y])], extent: bounds,
                                regionOfInterest: .callback { index, rect in index == 1 ? mask.extent : rect })
    }

    /// The mask of `bounds` (integral), data at `[0 0 width height]`: each pixel the largest
    /// coverage of the segments.
    static func coverage(of segments: [[Double]], width lineWidth: Double, in bounds: Rect) throws -> Image {
        let width = Int(bounds.width), height = Int(bounds.height)
        let radius = lineWidth / 2, reach = radius + 1
        let buffer = try ImageBuffer(width: width, height: height, format: .grayf, alphaMode: .opaque, colorSpace: nil) { storage, rowBytes in
            for segment in segments {
                let (ax, ay, bx, by) = (segment[0] - bounds.x, segment[1] - bounds.y, segment[2] - bounds.x, segment[3] - bounds.y)
                let (dx, dy) = (bx - ax, by - ay)
                let lengthSquared = dx * dx + dy * dy
                let x0 = max(0, Int((min(ax, bx) - reach).rounded(.down))), x1 = min(width - 1, Int((max(ax, bx) + reach).rounded(.up)))
                let y0 = max(0, Int((min(ay, by) - reach).rounded(.down))), y1 = min(height - 1, Int((max(ay, by) + reach).rounded(.up)))
                guard x0 <= x1, y0 <= y1 else { continue }
                for y in y0...y1 {
                    let row = (storage + (height - 1 - y) * rowBytes).assumingMemoryBound(to: Float.self)
                    let py = Double(y) + 0.5 - ay
                    for x in x0...x1 {
                        let px = Double(x) + 0.5 - ax
                        let t = lengthSquared > 0 ? min(max((px * dx + py * dy) / lengthSquared, 0), 1) : 0
                        let (ex, ey) = (px - t * dx, py - t * dy)
                        let c = Float(min(max(0.5 + radius - (ex * ex + ey * ey).squareRoot(), 0), 1))
                        if c > row[x] { row[x] = c }
                    }
                }
            }
        }
        return Image(buffer: buffer)
    }

    static let kernel = CatalogueKernel("""
        kernel vec4 CIMeshGenerator(sampler color, sampler coverage, vec2 origin) {
            return sample(color, destCoord()) * sample(coverage, destCoord() - origin).r;
        }
        """)
}
