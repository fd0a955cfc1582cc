import GraphEngine

/// The dolly zoom (Vertigo effect) of a depth photo: the camera moves toward the subject by
/// `inputAmount` (in the map's distance unit: metres for a 1/m disparity) while the focal length
/// shrinks so the subject keeps its size. Not a Core Image filter (GE = this engine).
enum DollyZoomFilters {
    static let all: [FilterDescriptor] = [dollyZoom]

    /// Each pixel p with disparity d moves about the image centre c to `c + (p − c)·(1 − t·d_s)/(1 − t·d)`
    /// (t = inputAmount, d_s the subject's disparity: the interquartile mean over inputFocusRect, as
    /// CIDepthBlurEffect), a pinhole reprojection; see ``DollyZoomReprojection``. The disparity is
    /// stretched bilinearly to the photo's extent first. Extent: the photo's.
    static let dollyZoom = FilterDescriptor(
        name: "GEDepthDollyZoom", categories: ["CICategoryDistortionEffect", "CICategoryStillImage"],
        summary: "Dolly zoom: p moves to c + (p − c)·(1 − t·d_s)/(1 − t·d), nearest pixel wins (z-buffer), holes filled from their farthest neighbour.",
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
        let stretched = disparity.transformed(by: PortraitBlur.fit(disparity.extent, to: image.extent)).cropped(to: image.extent)
        return image.applying(DollyZoomReprojection(amount: try args.number("inputAmount")), with: [stretched, subject])
    }
}

/// Forward reprojection with a z-buffer. Inputs: the photo, its disparity over the same extent, and
/// a 1×1 image holding the subject's disparity d_s. Source pixels are visited bottom row first, left
/// to right; pixel p (centre p + ½) lands on the output pixel containing
/// `c + (p + ½ − c)·(1 − t·d_s)/(1 − t·d)` (c the extent's centre; skipped when 1 − t·d ≤ 0, behind
/// the camera). The largest disparity wins (near in front; the first visited on a tie). Pixels no
/// source reached are holes: in passes over the image, each hole takes the value of its
/// 8-neighbour filled before the pass with the smallest disparity (disocclusions show background),
/// until none is left. Output alpha is 1.
struct DollyZoomReprojection: ImageProcessor {
    let amount: Double

    var name: String { "GEDepthDollyZoom" }
    var structureKey: String { "dolly-zoom" }
    var uniformValues: [Float] { [] }
    var argumentSummary: String { "t=\(amount)" }

    func outputExtent(inputExtents: [Rect]) -> Rect { inputExtents[0] }

    func regionOfInterest(input index: Int, inputExtent: Rect, outputRect: Rect) -> Rect { inputExtent }

    func process(inputs: [PlanarBuffer], output: PlanarBuffer) throws {
        let photo = inputs[0], depth = inputs[1]
        let width = photo.width, height = photo.height, count = width * height
        guard count > 0 else { return }
        let subject = Double(inputs[2].value(channel: 0, x: inputs[2].x, y: inputs[2].y))
        let cx = Double(photo.x) + Double(width) / 2, cy = Double(photo.y) + Double(height) / 2
        var nearest = [Float](repeating: -.infinity, count: count)
        var source = [Int](repeating: -1, count: count)
        for row in 0..<height {
            for column in 0..<width {
                let x = photo.x + column, y = photo.y + row
                let d = depth.value(channel: 0, x: x, y: y)
                guard d.isFinite else { continue }
                let denominator = 1 - amount * Double(d)
                guard denominator > 0 else { continue }
                let s = (1 - amount * subject) / denominator
                let tx = cx + (Double(x) + 0.5 - cx) * s, ty = cy + (Double(y) + 0.5 - cy) * s
                let targetColumn = Int((tx - Double(photo.x)).rounded(.down)), targetRow = Int((ty - Double(photo.y)).rounded(.down))
                guard targetColumn >= 0, targetColumn < width, targetRow >= 0, targetRow < height else { continue }
                let target = targetRow * width + targetColumn
                if d > nearest[target] {
                    nearest[target] = d
                    source[target] = row * width + column
                }
            }
        }
        // Colours of the filled pixels, then hole filling.
        var colour = [SIMD4<Float>](repeating: .zero, count: count)
        for index in 0..<count where source[index] >= 0 {
            let s = source[index]
            colour[index] = SIMD4((0..<4).map { photo.planes[$0][s] })
        }
        var filled = source.map { $0 >= 0 }
        var holes = filled.filter { !$0 }.count
        while holes > 0 {
            let before = filled, depths = nearest, colours = colour
            var progress = false
            for row in 0..<height {
                for column in 0..<width where !before[row * width + column] {
                    var best = -1
                    for dy in -1...1 {
                        for dx in -1...1 where dx != 0 || dy != 0 {
                            let r = row + dy, c = column + dx
                            guard r >= 0, r < height, c >= 0, c < width, before[r * width + c] else { continue }
                            if best < 0 || depths[r * width + c] < depths[best] { best = r * width + c }
                        }
                    }
                    if best >= 0 {
                        let index = row * width + column
                        colour[index] = colours[best]
                        nearest[index] = depths[best]
                        filled[index] = true
                        holes -= 1
                        progress = true
                    }
                }
            }
            if !progress { break }
        }
        for row in 0..<height {
            for column in 0..<width {
                let c = colour[row * width + column]
                for channel in 0..<3 { output.setValue(c[channel], channel: channel, x: photo.x + column, y: photo.y + row) }
                output.setValue(1, channel: 3, x: photo.x + column, y: photo.y + row)
            }
        }
    }
}
