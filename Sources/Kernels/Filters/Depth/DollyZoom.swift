import GraphEngine

/// The dolly zoom (Vertigo effect) of a depth photo: the camera moves toward the subject by
/// `inputAmount` (in the map's distance unit: metres for a 1/m disparity) while the focal length
/// shrinks so the subject keeps its size. Not a Core Image filter (GE = this engine).
enum DollyZoomFilters {
    static let all: [FilterDescriptor] = [dollyZoom]

    /// Each pixel p with disparity d moves about the image centre c to `c + (p − c)·k·(1 − t·d_s)/(1 − t·d)`
    /// (t = inputAmount, d_s the subject's disparity: the dominant disparity over inputFocusRect, as
    /// CIDepthBlurEffect), a pinhole reprojection; k ≥ 1 is the least magnification that leaves no
    /// border pixel to be made up (a receding background would otherwise leave an empty border), so
    /// the subject keeps its size only when nothing at the border recedes. See
    /// ``DollyZoomReprojection``. The disparity is read bilinearly, stretched to the photo's extent.
    /// Extent: the photo's.
    static let dollyZoom = FilterDescriptor(
        name: "GEDepthDollyZoom", categories: ["CICategoryDistortionEffect", "CICategoryStillImage"],
        summary: "Dolly zoom: p moves to c + (p − c)·k·(1 − t·d_s)/(1 − t·d) (k ≥ 1: no empty border), nearest pixel wins (z-buffer), holes filled from the background side (depth-aware pull-push plus mirrored detail).",
        inputs: [
            FilterInput("inputImage", .image, "The photo."),
            FilterInput("inputDisparityImage", .image, "Its disparity (red channel, any size).", photoMap: .disparity),
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
        let rect = try FocusRect.argument(args, filter: "GEDepthDollyZoom", size: (image.extent.width, image.extent.height), of: "the photo")
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
/// centres lie in its square scaled by σ (half-open, so equal neighbours tile the output), each edge
/// moved out to meet the neighbour across it when the two are one surface (disparities within 1 %:
/// a surface magnified unevenly, up close and far from the centre, would otherwise crack into holes
/// that the fill takes for disocclusions and shatters), and the
/// largest disparity wins (the first visited on a tie). A covered output pixel q takes the photo
/// sampled bilinearly (edges clamped) at `c + (q + ½ − c)/σ(d)`, d the winner's: a point in the
/// winner's square. Pixels no source covers are holes, and so are covered pixels torn from both
/// their neighbours on a ramp of a soft depth edge (see ``DollyZoomPixels/openTorn(_:disparity:)``).
/// Holes are filled from the background side only: a smooth estimate of the farthest surface
/// around them plus detail mirrored from it (see ``DollyZoomFill``), so a disocclusion shows the
/// surface behind, not the one in front; isolated specks of a nearer surface among holes are
/// refilled too. Output
/// alpha is 1 (no alpha plane), and a grey photo gives a grey result (one plane). A depth photo's
/// maps follow it (``MapFollowingProcessor``): the disparity map run through it (with the same
/// disparity input) is the reprojected disparity, at the map's resolution (a 1512×2016 matte: one
/// Float32 plane in and one out, 24 MB, where four planes in and out took 98 MB).
///
/// The photo and the result are planes of the working format (half float by default: 96 MB for
/// 12 MP, where Float32 took 192 MB each); the disparity stays Float32, since its exact values decide
/// which pixel wins and where it lands. Every pass runs in row ranges on the context's workers, and
/// gives the same bytes for any number of them (see ``DollyZoomPixels``).
struct DollyZoomReprojection: MapFollowingProcessor {
    let amount: Double

    var name: String { "GEDepthDollyZoom" }
    var structureKey: String { "dolly-zoom" }
    var uniformValues: [Float] { [] }
    var argumentSummary: String { "t=\(amount)" }

    func outputExtent(inputExtents: [Rect]) -> Rect { inputExtents[0] }

    func regionOfInterest(input index: Int, inputExtent: Rect, outputRect: Rect) -> Rect { inputExtent }

    func samples(input index: Int) -> ProcessorSamples { index == 0 ? .workingFormat : .float32 }

    var outputSamples: ProcessorSamples { .workingFormat }

    /// Only the photo's colour and the maps' red are read.
    func readsAlpha(input index: Int) -> Bool { false }

    /// Alpha is 1 everywhere: no alpha plane.
    func isOpaque(inputs: [AreaInputDescription]) -> Bool { true }

    /// A grey photo (a depth map or matte following it) gives a grey result: one plane.
    func isGrey(inputs: [AreaInputDescription]) -> Bool { inputs[0].isGrey }

    func process(inputs: [PlanarBuffer], output: PlanarBuffer) throws {
        try process(inputs: inputs, output: output, threads: ContextOptions.processorCount)
    }

    func process(inputs: [PlanarBuffer], output: PlanarBuffer, threads: Int) throws {
        let photo = inputs[0]
        guard photo.width > 0, photo.height > 0, inputs[1].width > 0, inputs[1].height > 0 else { return }
        let subject = Double(inputs[2].value(channel: 0, x: inputs[2].x, y: inputs[2].y))
        let disparity = StretchedDisparity(map: inputs[1], width: photo.width, height: photo.height)
        defer { disparity.deallocate() }
        let geometry = Geometry(amount: amount, subject: subject, photo: photo, disparity: disparity)
        // Built straight in the output's planes when it is the photo's rectangle (the usual case).
        let inPlace = output.x == photo.x && output.y == photo.y && output.width == photo.width && output.height == photo.height
        let colour = inPlace ? output : try PlanarBuffer(x: photo.x, y: photo.y, width: photo.width, height: photo.height,
                                                          samples: output.samples, channels: output.channels)
        let pixels = DollyZoomPixels(width: photo.width, height: photo.height, threads: threads)
        defer { pixels.deallocate() }
        pixels.splat(geometry, disparity: disparity)
        pixels.openTorn(geometry, disparity: disparity)
        pixels.colour(geometry, photo: photo, into: colour)
        if !inPlace { output.copy(from: colour) }
    }

    /// The scale about the centre for each disparity.
    struct Geometry {
        let amount: Double
        /// `1 − t·d_s`, times the magnification k.
        let numerator: Double
        /// Its reciprocal.
        let inverseNumerator: Double
        let cx: Double, cy: Double
        /// The photo's first pixel corner (its centre minus half its size).
        let x0: Double, y0: Double

        init(amount: Double, subject: Double, photo: PlanarBuffer, disparity: StretchedDisparity) {
            self.amount = amount
            cx = Double(photo.x) + Double(photo.width) / 2
            cy = Double(photo.y) + Double(photo.height) / 2
            x0 = cx - Double(photo.width) / 2
            y0 = cy - Double(photo.height) / 2
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
            inverseNumerator = 1 / numerator
        }

        /// σ(d), or nil for a pixel behind the camera (or a NaN disparity).
        @inline(__always)
        func scale(_ d: Float) -> Double? {
            let denominator = 1 - amount * Double(d)
            guard denominator > 0 else { return nil }
            let s = numerator / denominator
            return s > 0 && s.isFinite ? s : nil
        }

        /// The least and greatest σ(d) over the disparities `low...high` that have one (σ is
        /// monotonic in d on each side of the pole 1 − t·d = 0; the greatest is infinite when the
        /// range reaches the pole), or nil when none has one. The range is first widened by a
        /// millionth, so values a rounding away from it are inside.
        func scaleBounds(low: Float, high: Float) -> (least: Double, greatest: Double)? {
            guard numerator > 0, numerator.isFinite, low <= high else { return nil }
            let margin = 1e-6 * max(1, abs(Double(low)), abs(Double(high)))
            let low = Double(low) - margin, high = Double(high) + margin
            // The denominators 1 − t·d at the ends, the one nearer the pole first.
            let (near, far) = amount >= 0 ? (1 - amount * high, 1 - amount * low) : (1 - amount * low, 1 - amount * high)
            guard far > 0 else { return nil }
            return (numerator / far, near > 0 ? numerator / near : .infinity)
        }
    }

    /// The disparity at each photo pixel's centre, bilinear from the map (per-column and per-row
    /// taps and weights computed once).
    struct StretchedDisparity {
        /// The two map columns (or rows) a photo column (or row) reads and the second one's weight.
        struct Tap {
            let low: Int, high: Int, weight: Float
        }

        let map: UnsafePointer<Float>, mapWidth: Int
        let columns: UnsafeMutableBufferPointer<Tap>, rows: UnsafeMutableBufferPointer<Tap>
        /// Per map row, its least and greatest finite value (+∞ and −∞ when it has none).
        let rowRanges: UnsafeMutableBufferPointer<(low: Float, high: Float)>

        /// `map`: Float32 planes (its red channel is read).
        init(map buffer: PlanarBuffer, width: Int, height: Int) {
            map = UnsafePointer(buffer.planes[0])
            mapWidth = buffer.width
            func taps(_ count: Int, _ mapCount: Int) -> UnsafeMutableBufferPointer<Tap> {
                let taps = UnsafeMutableBufferPointer<Tap>.allocate(capacity: count)
                for i in 0..<count {
                    let u = (Double(i) + 0.5) * Double(mapCount) / Double(count) - 0.5
                    let low = Int(u.rounded(.down)), weight = Float(u - Double(low))
                    taps[i] = Tap(low: min(max(low, 0), mapCount - 1), high: min(max(low + 1, 0), mapCount - 1), weight: weight)
                }
                return taps
            }
            columns = taps(width, buffer.width)
            rows = taps(height, buffer.height)
            rowRanges = .allocate(capacity: buffer.height)
            for row in 0..<buffer.height {
                var low = Float.infinity, high = -Float.infinity
                for value in UnsafeBufferPointer(start: map + row * buffer.width, count: buffer.width) where value.isFinite {
                    low = min(low, value)
                    high = max(high, value)
                }
                rowRanges[row] = (low, high)
            }
        }

        func deallocate() {
            columns.deallocate()
            rows.deallocate()
            rowRanges.deallocate()
        }

        @inline(__always)
        private static func lerp(_ a: Float, _ b: Float, _ f: Float) -> Float { f == 0 ? a : (f == 1 ? b : a + (b - a) * f) }

        /// Row `row` of the stretched map into `values` (one float per photo column).
        func fill(row: Int, into values: UnsafeMutablePointer<Float>) {
            let tap = rows[row]
            let bottom = map + tap.low * mapWidth, top = map + tap.high * mapWidth
            if tap.weight == 0 {
                for (column, x) in columns.enumerated() { values[column] = Self.lerp(bottom[x.low], bottom[x.high], x.weight) }
            } else {
                for (column, x) in columns.enumerated() {
                    values[column] = Self.lerp(Self.lerp(bottom[x.low], bottom[x.high], x.weight),
                                               Self.lerp(top[x.low], top[x.high], x.weight), tap.weight)
                }
            }
        }

        @inline(__always)
        func value(column: Int, row: Int) -> Float {
            let x = columns[column], y = rows[row]
            let bottom = Self.lerp(map[y.low * mapWidth + x.low], map[y.low * mapWidth + x.high], x.weight)
            if y.weight == 0 { return bottom }
            return Self.lerp(bottom, Self.lerp(map[y.high * mapWidth + x.low], map[y.high * mapWidth + x.high], x.weight), y.weight)
        }

        /// The least and greatest finite value row `row` can have (its map rows' ranges joined).
        func range(row: Int) -> (low: Float, high: Float) {
            let tap = rows[row], a = rowRanges[tap.low], b = rowRanges[tap.high]
            return (min(a.low, b.low), max(a.high, b.high))
        }
    }
}
