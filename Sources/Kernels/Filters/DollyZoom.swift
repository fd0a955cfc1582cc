import Dispatch
import GraphEngine

/// The dolly zoom (Vertigo effect) of a depth photo: the camera moves toward the subject by
/// `inputAmount` (in the map's distance unit: metres for a 1/m disparity) while the focal length
/// shrinks so the subject keeps its size. Not a Core Image filter (GE = this engine).
enum DollyZoomFilters {
    static let all: [FilterDescriptor] = [dollyZoom]

    /// Each pixel p with disparity d moves about the image centre c to `c + (p − c)·k·(1 − t·d_s)/(1 − t·d)`
    /// (t = inputAmount, d_s the subject's disparity: the interquartile mean over inputFocusRect, as
    /// CIDepthBlurEffect), a pinhole reprojection; k ≥ 1 is the least magnification that leaves no
    /// border pixel to be made up (a receding background would otherwise leave an empty border), so
    /// the subject keeps its size only when nothing at the border recedes. See
    /// ``DollyZoomReprojection``. The disparity is read bilinearly, stretched to the photo's extent.
    /// Extent: the photo's.
    static let dollyZoom = FilterDescriptor(
        name: "GEDepthDollyZoom", categories: ["CICategoryDistortionEffect", "CICategoryStillImage"],
        summary: "Dolly zoom: p moves to c + (p − c)·k·(1 − t·d_s)/(1 − t·d) (k ≥ 1: no empty border), nearest pixel wins (z-buffer), holes filled from the farthest surface around them.",
        inputs: [
            FilterInput("inputImage", .image, "The photo."),
            FilterInput("inputDisparityImage", .image, "Its disparity (red channel, any size)."),
            FilterInput("inputAmount", .number, default: .number(0.2), minimum: -10, maximum: 10, slider: -0.5...0.5,
                        "How far the camera moves toward the subject, in the disparity's distance unit (negative: away)."),
            FilterInput("inputFocusRect", .rect, default: nil,
                        "The subject, normalised (0…1, lower-left origin); default (0.45, 0.45, 0.1, 0.1)."),
        ]
    ) { args in
        let image = try args.image("inputImage"), disparity = try args.image("inputDisparityImage")
        for (key, value) in [("inputImage", image), ("inputDisparityImage", disparity)] where value.extent.isInfinite || value.extent.isEmpty {
            throw GraphError.invalidParameter(filter: "GEDepthDollyZoom", key: key, reason: "the image must have a finite, non-empty extent")
        }
        let rect = (try? args.rect("inputFocusRect")) ?? Rect(x: 0.45, y: 0.45, width: 0.1, height: 0.1)
        let blur = PortraitBlur(photo: image, disparity: disparity, matte: nil, focusRect: rect, aperture: 1, grain: 0)
        let subject = disparity.applying(FocusDisparity(area: blur.focusArea))
        return image.applying(DollyZoomReprojection(amount: try args.number("inputAmount")), with: [disparity, subject])
    }
}

/// Forward reprojection with a z-buffer, in time linear in the pixels. Inputs: the photo, its
/// disparity map (any size: read bilinearly at each photo pixel's centre, the map's pixels stretched
/// over the photo's, edges clamped; a NaN tap with a non-zero weight makes the pixel a hole), and
/// a 1×1 image holding the subject's disparity d_s.
///
/// With c the photo's centre, a pixel of disparity d scales about c by `σ(d) = k·(1 − t·d_s)/(1 − t·d)`
/// (pixels with 1 − t·d ≤ 0, behind the camera, are dropped). k = max(1, 1/min σ₁) over the border
/// pixels, σ₁ the scale with k = 1: the frame's edge then lands on or beyond the output's edge.
/// Source pixels are visited bottom row first, left to right; each covers the output pixels whose
/// centres lie in its square scaled by σ (half-open, so equal neighbours tile the output), and the
/// largest disparity wins (the first visited on a tie). A covered output pixel q takes the photo
/// sampled bilinearly (edges clamped) at `c + (q + ½ − c)/σ(d)`, d the winner's: a point in the
/// winner's square. Pixels no source covers are holes, filled from the background: filled pixels
/// spread their colour and disparity to open 8-neighbours, the smallest disparity first (see
/// ``ReprojectedPixels/fillHoles()``), so a disocclusion shows the surface behind, not the one in
/// front. Output alpha is 1. A depth photo's maps follow it (``MapFollowingProcessor``): the
/// disparity map run through it (with the same disparity input) is the reprojected disparity, at
/// the map's resolution.
struct DollyZoomReprojection: MapFollowingProcessor {
    let amount: Double

    var name: String { "GEDepthDollyZoom" }
    var structureKey: String { "dolly-zoom" }
    var uniformValues: [Float] { [] }
    var argumentSummary: String { "t=\(amount)" }

    func outputExtent(inputExtents: [Rect]) -> Rect { inputExtents[0] }

    func regionOfInterest(input index: Int, inputExtent: Rect, outputRect: Rect) -> Rect { inputExtent }

    func process(inputs: [PlanarBuffer], output: PlanarBuffer) throws {
        let photo = inputs[0]
        guard photo.width > 0, photo.height > 0, inputs[1].width > 0, inputs[1].height > 0 else { return }
        let subject = Double(inputs[2].value(channel: 0, x: inputs[2].x, y: inputs[2].y))
        let disparity = StretchedDisparity(map: inputs[1], photo: photo)
        let geometry = Geometry(amount: amount, subject: subject, photo: photo, disparity: disparity)
        // Built straight in the output's planes when it is the photo's rectangle (the usual case).
        let inPlace = output.x == photo.x && output.y == photo.y && output.width == photo.width && output.height == photo.height
        let pixels = ReprojectedPixels(width: photo.width, height: photo.height, colour: inPlace ? Array(output.planes[0..<3]) : nil)
        defer { pixels.deallocate() }
        pixels.splat(geometry, disparity: disparity)
        pixels.sampleColours(geometry, photo: photo)
        pixels.fillHoles()
        pixels.write(to: output, origin: (photo.x, photo.y))
    }

    /// The scale about the centre for each disparity.
    struct Geometry {
        let amount: Double
        /// `1 − t·d_s`, times the magnification k.
        let numerator: Double
        let cx: Double, cy: Double

        init(amount: Double, subject: Double, photo: PlanarBuffer, disparity: StretchedDisparity) {
            self.amount = amount
            cx = Double(photo.x) + Double(photo.width) / 2
            cy = Double(photo.y) + Double(photo.height) / 2
            let unmagnified = 1 - amount * subject
            var least = Double.infinity
            func border(_ column: Int, _ row: Int) {
                let d = Double(disparity.value(column: column, row: row)), denominator = 1 - amount * d
                if d.isFinite, denominator > 0 { least = min(least, unmagnified / denominator) }
            }
            for column in 0..<photo.width {
                border(column, 0)
                border(column, photo.height - 1)
            }
            for row in 0..<photo.height {
                border(0, row)
                border(photo.width - 1, row)
            }
            numerator = least > 0 && least < 1 ? unmagnified / least : unmagnified
        }

        /// σ(d), or nil for a pixel behind the camera (or a NaN disparity).
        @inline(__always)
        func scale(_ d: Float) -> Double? {
            let denominator = 1 - amount * Double(d)
            guard denominator > 0 else { return nil }
            let s = numerator / denominator
            return s > 0 && s.isFinite ? s : nil
        }
    }

    /// The disparity at each photo pixel's centre, bilinear from the map (per-column and per-row
    /// taps and weights computed once).
    struct StretchedDisparity {
        let map: PlanarBuffer
        let columns: [(Int, Int, Float)], rows: [(Int, Int, Float)]

        init(map: PlanarBuffer, photo: PlanarBuffer) {
            self.map = map
            func taps(_ count: Int, _ mapCount: Int) -> [(Int, Int, Float)] {
                (0..<count).map { i in
                    let u = (Double(i) + 0.5) * Double(mapCount) / Double(count) - 0.5
                    let low = Int(u.rounded(.down)), weight = Float(u - Double(low))
                    return (min(max(low, 0), mapCount - 1), min(max(low + 1, 0), mapCount - 1), weight)
                }
            }
            columns = taps(photo.width, map.width)
            rows = taps(photo.height, map.height)
        }

        /// Row `row` of the stretched map into `values` (`photo.width` floats).
        func fill(row: Int, into values: UnsafeMutablePointer<Float>) {
            for column in columns.indices { values[column] = value(column: column, row: row) }
        }

        @inline(__always)
        func value(column: Int, row: Int) -> Float {
            let (x0, x1, fx) = columns[column], (y0, y1, fy) = rows[row]
            let plane = map.planes[0], width = map.width
            func lerp(_ a: Float, _ b: Float, _ f: Float) -> Float { f == 0 ? a : (f == 1 ? b : a + (b - a) * f) }
            let bottom = lerp(plane[y0 * width + x0], plane[y0 * width + x1], fx)
            if fy == 0 { return bottom }
            return lerp(bottom, lerp(plane[y1 * width + x0], plane[y1 * width + x1], fx), fy)
        }
    }

    /// The output being built: per pixel the winning disparity (−∞: a hole) and RGB.
    final class ReprojectedPixels: @unchecked Sendable {
        let width: Int, height: Int, count: Int
        let depth: UnsafeMutablePointer<Float>
        let colour: [UnsafeMutablePointer<Float>]
        /// Whether `colour` was allocated here (else it is the output's).
        private let ownsColour: Bool

        /// `colour`: three planes of `width·height` floats to build the colours in, or nil to allocate them.
        init(width: Int, height: Int, colour planes: [UnsafeMutablePointer<Float>]?) {
            self.width = width
            self.height = height
            count = width * height
            depth = .allocate(capacity: count)
            depth.initialize(repeating: -.infinity, count: count)
            ownsColour = planes == nil
            colour = planes ?? (0..<3).map { _ in .allocate(capacity: width * height) }
            for plane in colour { plane.update(repeating: 0, count: count) }
        }

        func deallocate() {
            depth.deallocate()
            if ownsColour { for plane in colour { plane.deallocate() } }
        }

        /// The z-buffer: every source pixel's scaled square, nearest wins.
        func splat(_ geometry: Geometry, disparity: StretchedDisparity) {
            let x0 = geometry.cx - Double(width) / 2, y0 = geometry.cy - Double(height) / 2
            let values = UnsafeMutablePointer<Float>.allocate(capacity: width)
            defer { values.deallocate() }
            // The first output pixel (of `count`) whose centre i + ½ is at or after `edge` (relative to
            // the first pixel's left edge), clamped to 0...count (an edge far out cannot overflow).
            func firstCentre(_ edge: Double, _ count: Int) -> Int {
                Int(min(max((edge - 0.5).rounded(.up), 0), Double(count)))
            }
            for row in 0..<height {
                disparity.fill(row: row, into: values)
                let bottom = y0 + Double(row) - geometry.cy
                for column in 0..<width {
                    let d = values[column]
                    guard let s = geometry.scale(d) else { continue }
                    let left = x0 + Double(column) - geometry.cx
                    // Output pixels whose centres lie in [c + e·s, c + (e + 1)·s).
                    let firstColumn = firstCentre(geometry.cx + left * s - x0, width)
                    let endColumn = firstCentre(geometry.cx + (left + 1) * s - x0, width)
                    let firstRow = firstCentre(geometry.cy + bottom * s - y0, height)
                    let endRow = firstCentre(geometry.cy + (bottom + 1) * s - y0, height)
                    guard firstColumn < endColumn, firstRow < endRow else { continue }
                    for target in firstRow..<endRow {
                        let line = depth + target * width
                        for i in firstColumn..<endColumn where d > line[i] { line[i] = d }
                    }
                }
            }
        }

        /// Each covered pixel's colour: the photo at its point in the winner's square (rows in parallel).
        func sampleColours(_ geometry: Geometry, photo: PlanarBuffer) {
            DispatchQueue.concurrentPerform(iterations: height) { row in sampleColours(row: row, geometry, photo: photo) }
        }

        private func sampleColours(row: Int, _ geometry: Geometry, photo: PlanarBuffer) {
            let x0 = geometry.cx - Double(width) / 2, y0 = geometry.cy - Double(height) / 2
            let planes = photo.planes
            for column in 0..<width {
                let index = row * width + column
                guard let s = geometry.scale(depth[index]) else { continue }
                // Source position, relative to the photo's first pixel centre.
                let u = (x0 + Double(column) + 0.5 - geometry.cx) / s + geometry.cx - x0 - 0.5
                let v = (y0 + Double(row) + 0.5 - geometry.cy) / s + geometry.cy - y0 - 0.5
                let cu = min(max(u, 0), Double(width - 1)), cv = min(max(v, 0), Double(height - 1))
                let i0 = Int(cu), j0 = Int(cv)
                let i1 = min(i0 + 1, width - 1), j1 = min(j0 + 1, height - 1)
                let fx = Float(cu - Double(i0)), fy = Float(cv - Double(j0))
                for channel in 0..<3 {
                    let p = planes[channel]
                    let low = p[j0 * width + i0] + (p[j0 * width + i1] - p[j0 * width + i0]) * fx
                    let high = p[j1 * width + i0] + (p[j1 * width + i1] - p[j1 * width + i0]) * fx
                    colour[channel][index] = low + (high - low) * fy
                }
            }
        }

        /// Holes filled from the farthest surface around them: filled pixels spread to their open
        /// 8-neighbours in order of increasing disparity (first the pixels that border a hole,
        /// sorted by disparity then position; each filled hole spreads in turn, after those of
        /// smaller disparity and, on a tie, after the pixels queued before it). The order is a merge
        /// of the sorted border pixels with the queue of filled holes, whose disparities never
        /// decrease: linear after the sort.
        func fillHoles() {
            let filled = UnsafeMutablePointer<Bool>.allocate(capacity: count)
            defer { filled.deallocate() }
            for index in 0..<count { filled[index] = depth[index] != -.infinity }
            // The filled pixels next to a hole, each once.
            let bordering = UnsafeMutablePointer<Bool>.allocate(capacity: count)
            defer { bordering.deallocate() }
            bordering.initialize(repeating: false, count: count)
            var border: [Int] = []
            for index in 0..<count where !filled[index] {
                forEachNeighbour(of: index) { n in
                    if filled[n], !bordering[n] {
                        bordering[n] = true
                        border.append(n)
                    }
                }
            }
            border.sort { depth[$0] < depth[$1] || (depth[$0] == depth[$1] && $0 < $1) }
            var queue: [Int] = []
            var head = 0, next = 0
            while next < border.count || head < queue.count {
                let from: Int
                if head < queue.count, next == border.count || depth[queue[head]] < depth[border[next]] {
                    from = queue[head]
                    head += 1
                } else {
                    from = border[next]
                    next += 1
                }
                forEachNeighbour(of: from) { n in
                    guard !filled[n] else { return }
                    filled[n] = true
                    depth[n] = depth[from]
                    for channel in 0..<3 { colour[channel][n] = colour[channel][from] }
                    queue.append(n)
                }
            }
        }

        /// Calls `body` with the 8-neighbours of `index` inside the image, rows from below, columns
        /// from the left.
        @inline(__always)
        private func forEachNeighbour(of index: Int, _ body: (Int) -> Void) {
            let row = index / width, column = index % width
            for r in max(row - 1, 0)...min(row + 1, height - 1) {
                for c in max(column - 1, 0)...min(column + 1, width - 1) where r != row || c != column {
                    body(r * width + c)
                }
            }
        }

        /// RGB into the output's planes (its pixels of the photo; already there when built in them), alpha 1.
        func write(to output: PlanarBuffer, origin: (x: Int, y: Int)) {
            let columns = max(output.x, origin.x)..<min(output.x + output.width, origin.x + width)
            let rows = max(output.y, origin.y)..<min(output.y + output.height, origin.y + height)
            guard !columns.isEmpty, !rows.isEmpty else { return }
            for y in rows {
                let source = (y - origin.y) * width + (columns.lowerBound - origin.x)
                let destination = (y - output.y) * output.width + (columns.lowerBound - output.x)
                if ownsColour {
                    for channel in 0..<3 { (output.planes[channel] + destination).update(from: colour[channel] + source, count: columns.count) }
                }
                (output.planes[3] + destination).update(repeating: 1, count: columns.count)
            }
        }
    }
}
