import Foundation
import GraphEngine

/// Reductions (CICategoryReduction): image processors whose output is a tiny image at the origin
/// (fusion barriers). The area is `inputExtent` (default the image's extent) rounded out to whole
/// pixels; pixels of it outside the image's extent are transparent (0), as everywhere outside an
/// extent. NaN samples (holes in depth maps) are skipped. Sums run in Double in one fixed order (row
/// by row, left to right), so results are the same bytes for any thread count or tile size.
enum ReductionFilters {
    static let categories = ["CICategoryReduction", "CICategoryVideo", "CICategoryStillImage"]
    static let all: [FilterDescriptor] = [
        areaMinMaxRed, areaAverage, areaMaximum, areaMinimum, areaMinMax, areaHistogram, rowAverage, columnAverage,
        histogramDisplay,
    ]

    static let extentInput = FilterInput("inputExtent", .rect, default: nil, "The area to reduce; default the image's extent.")
    /// Core Image's default `[0, 0, 0, 0]`, meaning the image's extent.
    static let zeroExtentInput = FilterInput("inputExtent", .rect, default: .rect(Rect(x: 0, y: 0, width: 0, height: 0)),
                                             "The area to reduce; an empty one (the default) means the image's extent.")

    /// A reduction filter of `kind` over inputImage's `inputExtent`.
    /// With `coreImageExtent`, inputExtent defaults to Core Image's `[0, 0, 0, 0]` and an empty
    /// inputExtent means the image's extent (ours).
    static func reduction(_ name: String, categories: [String] = categories, coreImageExtent: Bool = false, summary: String,
                          extraInputs: [FilterInput] = [],
                          _ kind: @escaping @Sendable (FilterArguments) throws -> AreaReduction.Kind) -> FilterDescriptor {
        let extent = coreImageExtent ? zeroExtentInput : extentInput
        return FilterDescriptor(name: name, categories: categories, summary: summary,
                                inputs: [ColorAdjustmentFilters.imageInput, extent] + extraInputs) { args in
            let image = try args.image("inputImage")
            var given = try? args.rect("inputExtent")
            if coreImageExtent, let rect = given, rect.width == 0 || rect.height == 0 { given = nil }
            let area = (given ?? image.extent).integral
            if area.isInfinite || area.isEmpty {
                throw GraphError.invalidParameter(filter: name, key: "inputExtent",
                                                  reason: "the area \(area) is infinite or empty: give inputExtent or crop the image")
            }
            return image.applying(AreaReduction(name: name, kind: try kind(args), area: area))
        }
    }

    /// A 1×1 image: `r = min(red)`, `g = max(red)` over the area, `b = 0`, `a = 1`.
    static let areaMinMaxRed = reduction("CIAreaMinMaxRed", summary: "The minimum and maximum red value in an area (r = min, g = max).") { _ in
        .minMaxRed
    }

    /// A 1×1 image: the mean of each premultiplied channel over the area's pixels.
    static let areaAverage = reduction("CIAreaAverage", summary: "The average colour of an area.") { _ in .average }

    /// A 1×1 image: the maximum of each channel over the area (channels independently).
    static let areaMaximum = reduction("CIAreaMaximum", summary: "The maximum of each channel in an area.") { _ in .maximum }

    /// A 1×1 image: the minimum of each channel over the area.
    static let areaMinimum = reduction("CIAreaMinimum", summary: "The minimum of each channel in an area.") { _ in .minimum }

    /// A 2×1 image: the per-channel minimum at x = 0, the maximum at x = 1.
    static let areaMinMax = reduction("CIAreaMinMax", summary: "The minimum (left pixel) and maximum (right pixel) of each channel.") { _ in
        .minMax
    }

    /// An inputCount×1 image: per channel, bin `i` holds `scale·n_i/N`, where `n_i` counts the
    /// area's values `v` with `clamp(⌊v·count⌋, 0, count − 1) = i` and `N` the values counted (so
    /// with scale 1 each channel's bins sum to 1). Values are the premultiplied working-space ones.
    static let areaHistogram = reduction(
        "CIAreaHistogram", summary: "Per-channel histograms of an area, as an image count pixels wide.",
        extraInputs: [FilterInput("inputScale", .number, default: .number(1), minimum: 0, slider: 0...100, "Scales every bin."),
                      FilterInput("inputCount", .number, default: .number(64), minimum: 1, maximum: 2048, slider: 1...1024,
                                  "The number of bins (a whole number).")]
    ) { args in
        let count = try args.number("inputCount")
        guard count == count.rounded() else {
            throw GraphError.invalidParameter(filter: "CIAreaHistogram", key: "inputCount", reason: "expected a whole number, got \(count)")
        }
        return .histogram(bins: Int(count), scale: try args.number("inputScale"))
    }

    /// A (area height)×1 image: pixel `i` is the mean colour of the area's row `i` (from the bottom).
    static let rowAverage = reduction("CIRowAverage", summary: "The average colour of each row of an area, as a one-pixel-high image.") { _ in
        .rowAverage
    }

    /// An (area width)×1 image: pixel `i` is the mean colour of the area's column `i`.
    static let columnAverage = reduction("CIColumnAverage", summary: "The average colour of each column of an area, as a one-pixel-high image.") { _ in
        .columnAverage
    }

    /// Bars from a CIAreaHistogram image: an inputHeight-high image as wide as the histogram, where
    /// channel c of pixel (x, y) is 1 when `y + 0.5 < clamp((h_c(x) − low)/(high − low), 0, 1)·height`,
    /// else 0 (alpha 1), `h` being the histogram's bottom row. Ours: Apple does not document how the
    /// limits shape the bars.
    static let histogramDisplay = FilterDescriptor(
        name: "CIHistogramDisplayFilter", categories: ["CICategoryReduction", "CICategoryVideo", "CICategoryStillImage"],
        summary: "Draws a CIAreaHistogram image as bars.",
        inputs: [FilterInput("inputImage", .image, "A histogram (CIAreaHistogram's output)."),
                 FilterInput("inputHeight", .number, default: .number(100), minimum: 1, maximum: 4096, slider: 1...200, "The height in pixels."),
                 FilterInput("inputHighLimit", .number, default: .number(1), minimum: 0, maximum: 1, slider: 0...1, "The value of a full bar."),
                 FilterInput("inputLowLimit", .number, default: .number(0), minimum: 0, maximum: 1, slider: 0...1, "The value of an empty bar.")]
    ) { args in
        let histogram = try args.image("inputImage")
        guard !histogram.extent.isInfinite, !histogram.extent.isEmpty else {
            throw GraphError.invalidParameter(filter: "CIHistogramDisplayFilter", key: "inputImage",
                                              reason: "expected a histogram of finite extent, got \(histogram.extent)")
        }
        let height = try args.number("inputHeight").rounded()
        let low = try args.number("inputLowLimit"), high = try args.number("inputHighLimit")
        return try histogramDisplayKernel.apply(
            [.image(histogram), .number(height), .number(low), .number(high != low ? 1 / (high - low) : 1e30)],
            extent: Rect(x: 0, y: 0, width: histogram.extent.integral.width, height: height), regionOfInterest: .wholeInput)
    }

    static let histogramDisplayKernel = CatalogueKernel("""
        kernel vec4 CIHistogramDisplayFilter(sampler histogram, float height, float low, float inverseRange) {
            vec4 e = samplerExtent(histogram);
            vec2 p = destCoord();
            vec4 h = sample(histogram, vec2(e.x + p.x, e.y + 0.5));
            vec3 bar = clamp((h.rgb - low) * inverseRange, 0.0, 1.0) * height;
            return vec4(p.y < bar.r ? 1.0 : 0.0, p.y < bar.g ? 1.0 : 0.0, p.y < bar.b ? 1.0 : 0.0, 1.0);
        }
        """)
}

/// Every reduction of the catalogue over an integral area, combined in a fixed order.
struct AreaReduction: ImageProcessor {
    enum Kind: Hashable, Sendable {
        case minMaxRed, average, maximum, minimum, minMax, rowAverage, columnAverage
        case histogram(bins: Int, scale: Double)
        /// Otsu's threshold of the luma (CIColorThresholdOtsu): a 1×1 image (t, t, t, 1).
        case otsuThreshold
        /// The area's pixel of least (or greatest) alpha, the first in row order on ties.
        case minimumAlpha, maximumAlpha
        /// `(mean red, max red, 0, 1)`.
        case averageMaximumRed
        /// The bounding box of red > 0, normalised to the area: `(x, y, w, h)`.
        case boundsRed
        /// Histograms of the unpremultiplied RGB, each pixel weighted by its alpha.
        case alphaWeightedHistogram(bins: Int, scale: Double)
        /// Histograms of `log2` of R, G, B over stops `[minimumStop, maximumStop]`, and of alpha.
        case logarithmicHistogram(bins: Int, scale: Double, minimumStop: Double, maximumStop: Double)
    }

    let name: String
    let kind: Kind
    /// Integral and finite.
    let area: Rect

    var structureKey: String { "\(name) \(kind) \(area)" }
    var uniformValues: [Float] { [] }
    var argumentSummary: String { "extent=\(area)" }

    func outputExtent(inputExtents: [Rect]) -> Rect {
        switch kind {
        case .minMax: return Rect(x: 0, y: 0, width: 2, height: 1)
        case .rowAverage: return Rect(x: 0, y: 0, width: area.height, height: 1)
        case .columnAverage: return Rect(x: 0, y: 0, width: area.width, height: 1)
        case .histogram(let bins, _), .alphaWeightedHistogram(let bins, _), .logarithmicHistogram(let bins, _, _, _):
            return Rect(x: 0, y: 0, width: Double(bins), height: 1)
        case .minMaxRed, .average, .maximum, .minimum, .otsuThreshold, .minimumAlpha, .maximumAlpha, .averageMaximumRed, .boundsRed: return Rect(x: 0, y: 0, width: 1, height: 1)
        }
    }

    func regionOfInterest(input index: Int, inputExtent: Rect, outputRect: Rect) -> Rect {
        area.intersection(inputExtent)
    }

    func process(inputs: [PlanarBuffer], output: PlanarBuffer) throws {
        let pixels = AreaPixels(buffer: inputs[0], area: area)
        func write(_ values: [Float], x: Int) {
            for channel in 0..<4 { output.setValue(values[channel], channel: channel, x: x, y: 0) }
        }
        switch kind {
        case .minMaxRed:
            let (low, high) = pixels.extremes()
            write([low[0], high[0], 0, 1], x: 0)
        case .average:
            write(pixels.mean(columns: 0..<pixels.width, rows: 0..<pixels.height), x: 0)
        case .maximum:
            write(pixels.extremes().high, x: 0)
        case .minimum:
            write(pixels.extremes().low, x: 0)
        case .minMax:
            let (low, high) = pixels.extremes()
            write(low, x: 0)
            write(high, x: 1)
        case .rowAverage:
            for row in 0..<pixels.height { write(pixels.mean(columns: 0..<pixels.width, rows: row..<(row + 1)), x: row) }
        case .columnAverage:
            for column in 0..<pixels.width { write(pixels.mean(columns: column..<(column + 1), rows: 0..<pixels.height), x: column) }
        case .histogram(let bins, let scale):
            let histogram = pixels.histogram(bins: bins)
            for bin in 0..<bins {
                write((0..<4).map { Float(Double(histogram.counts[$0][bin]) / Double(max(histogram.totals[$0], 1)) * scale) }, x: bin)
            }
        case .otsuThreshold:
            let t = Float(OtsuThreshold.threshold(histogram: pixels.lumaHistogram(bins: 256)))
            write([t, t, t, 1], x: 0)
        case .minimumAlpha, .maximumAlpha:
            write(pixels.extremeAlphaPixel(greatest: kind == .maximumAlpha), x: 0)
        case .averageMaximumRed:
            let mean = pixels.mean(columns: 0..<pixels.width, rows: 0..<pixels.height)
            write([mean[0], pixels.extremes().high[0], 0, 1], x: 0)
        case .boundsRed:
            write(pixels.boundsOfRed(), x: 0)
        case .alphaWeightedHistogram(let bins, let scale):
            var counts = [[Double]](repeating: [Double](repeating: 0, count: bins), count: 3)
            pixels.forEachPixel { p in
                let alpha = Double(p[3])
                guard alpha > 0 else { return }
                for c in 0..<3 {
                    let value = Double(p[c]) / alpha
                    if value.isNaN { continue }
                    counts[c][AreaReduction.bin(value * Double(bins), bins)] += alpha
                }
            }
            let total = Double(pixels.width * pixels.height)
            for bin in 0..<bins { write((0..<3).map { Float(counts[$0][bin] / total * scale) } + [1], x: bin) }
        case .logarithmicHistogram:
            try process(inputs: inputs, output: output, threads: 1)
        }
    }

    /// The same; the logarithmic histogram counts rows on up to `threads` workers (counts are
    /// integers, so the result is the same for any split).
    func process(inputs: [PlanarBuffer], output: PlanarBuffer, threads: Int) throws {
        guard case .logarithmicHistogram(let bins, let scale, let minimumStop, let maximumStop) = kind else {
            return try process(inputs: inputs, output: output)
        }
        let pixels = AreaPixels(buffer: inputs[0], area: area)
        let (counts, totals) = pixels.logarithmicHistogram(LogarithmicBins(count: bins, minimumStop: minimumStop, maximumStop: maximumStop),
                                                           threads: threads)
        for bin in 0..<bins {
            for channel in 0..<4 {
                let value = Float(Double(counts[channel][bin]) / max(Double(totals[channel]), 1) * scale)
                output.setValue(value, channel: channel, x: bin, y: 0)
            }
        }
    }

    /// `clamp(⌊scaled⌋, 0, bins − 1)` in Double, safe for infinities (NaN gives 0).
    static func bin(_ scaled: Double, _ bins: Int) -> Int {
        scaled < 1 ? 0 : (scaled >= Double(bins - 1) ? bins - 1 : Int(scaled))
    }
}

extension AreaPixels {
    /// Calls `body` with every area pixel's `(r, g, b, a)` in row order, bottom row first
    /// (transparent zeros outside the buffer).
    func forEachPixel(_ body: (SIMD4<Float>) -> Void) {
        for row in 0..<height {
            let runs = (0..<4).map { bufferedRun(channel: $0, row: row, columns: 0..<width) }
            for column in 0..<width {
                var p = SIMD4<Float>(repeating: 0)
                for c in 0..<4 {
                    if let (run, first, count) = runs[c], column >= first, column < first + count { p[c] = run[column - first] }
                }
                body(p)
            }
        }
    }

    /// CIAreaLogarithmicHistogram's counts: per colour channel of the bins of `bins`, for alpha of
    /// `clamp(⌊a·count⌋, 0, count − 1)`, over the non-NaN values (pixels outside the buffer are 0:
    /// bin 0), and the values counted. Rows are counted in chunks of 64 on up to `threads` workers,
    /// each into counts of its own, summed after.
    func logarithmicHistogram(_ bins: LogarithmicBins, threads: Int) -> (counts: [[Int]], totals: [Int]) {
        let chunkRows = 64, chunks = (height + chunkRows - 1) / chunkRows
        // Per chunk and channel: the bins, the values counted, the values buffered.
        let perChannel = bins.count + 2, perChunk = 4 * perChannel
        var partial = [Int](repeating: 0, count: chunks * perChunk)
        partial.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            nonisolated(unsafe) let shared = base
            ProcessorWorkers.forEach(chunks, threads: threads) { chunk in
                for row in (chunk * chunkRows)..<min(height, (chunk + 1) * chunkRows) {
                    for channel in 0..<4 {
                        guard let (run, _, n) = bufferedRun(channel: channel, row: row, columns: 0..<width) else { continue }
                        let counts = shared + chunk * perChunk + channel * perChannel
                        var counted = 0
                        if channel == 3 {
                            let scale = Double(bins.count)
                            for i in 0..<n where !run[i].isNaN {
                                counts[AreaReduction.bin(Double(run[i]) * scale, bins.count)] += 1
                                counted += 1
                            }
                        } else {
                            counted = bins.count(run, n, into: counts)
                        }
                        counts[bins.count] += counted
                        counts[bins.count + 1] += n
                    }
                }
            }
        }
        var counts = [[Int]](repeating: [Int](repeating: 0, count: bins.count), count: 4), totals = [0, 0, 0, 0]
        for chunk in 0..<chunks {
            for channel in 0..<4 {
                let offset = chunk * perChunk + channel * perChannel
                for bin in 0..<bins.count { counts[channel][bin] += partial[offset + bin] }
                totals[channel] += partial[offset + bins.count]
                // The pixels outside the buffer (0) this chunk's rows hold.
                let rows = min(height, (chunk + 1) * chunkRows) - chunk * chunkRows
                let unbuffered = rows * width - partial[offset + bins.count + 1]
                counts[channel][0] += unbuffered
                totals[channel] += unbuffered
            }
        }
        return (counts, totals)
    }

    /// The pixel of least (or greatest) non-NaN alpha, the first in row order on ties; transparent
    /// zeros when every alpha is NaN.
    func extremeAlphaPixel(greatest: Bool) -> [Float] {
        var best: SIMD4<Float>?
        forEachPixel { p in
            guard !p[3].isNaN else { return }
            if let b = best, greatest ? !(p[3] > b[3]) : !(p[3] < b[3]) { return }
            best = p
        }
        let pixel = best ?? SIMD4<Float>(repeating: 0)
        return [pixel[0], pixel[1], pixel[2], pixel[3]]
    }

    /// `(x₀/W, y₀/H, (x₁ − x₀ + 1)/W, (y₁ − y₀ + 1)/H)` for the smallest box of area columns
    /// `x₀…x₁` and rows `y₀…y₁` holding every pixel with red > 0, `W × H` the area's size; zeros when none.
    func boundsOfRed() -> [Float] {
        var low = (x: Int.max, y: Int.max), high = (x: -1, y: -1)
        for row in 0..<height {
            guard let (run, first, count) = bufferedRun(channel: 0, row: row, columns: 0..<width) else { continue }
            for i in 0..<count where run[i] > 0 {
                low = (min(low.x, first + i), min(low.y, row))
                high = (max(high.x, first + i), max(high.y, row))
            }
        }
        guard high.x >= 0 else { return [0, 0, 0, 0] }
        let w = Double(width), h = Double(height)
        return [Float(Double(low.x) / w), Float(Double(low.y) / h), Float(Double(high.x - low.x + 1) / w), Float(Double(high.y - low.y + 1) / h)]
    }
}

/// The pixels of an integral area, read from the part of it a buffer holds (0 elsewhere).
struct AreaPixels {
    let buffer: PlanarBuffer
    let x: Int, y: Int, width: Int, height: Int

    init(buffer: PlanarBuffer, area: Rect) {
        self.buffer = buffer
        x = Int(area.x); y = Int(area.y); width = Int(area.width); height = Int(area.height)
    }

    /// Row `row` (from the area's bottom) of channel `channel` as it reads (an opaque input's alpha
    /// without a plane reads 1), columns in the buffer only: `(pointer to the first buffered column,
    /// its area column, count)`, or nil outside the buffer.
    func bufferedRun(channel: Int, row: Int, columns: Range<Int>) -> (UnsafePointer<Float>, Int, Int)? {
        let bufferRow = y + row - buffer.y
        guard bufferRow >= 0, bufferRow < buffer.height else { return nil }
        let start = max(x + columns.lowerBound, buffer.x), end = min(x + columns.upperBound, buffer.x + buffer.width)
        guard end > start else { return nil }
        return (buffer.readingRow(channel: channel, row: bufferRow) + (start - buffer.x), start - x, end - start)
    }

    /// Per channel: the mean over `columns × rows` of the non-NaN values (unbuffered pixels are 0).
    func mean(columns: Range<Int>, rows: Range<Int>) -> [Float] {
        (0..<4).map { channel in
            var total = 0.0, counted = 0
            for row in rows {
                var rowSum = 0.0, rowCount = columns.count
                if let (run, _, count) = bufferedRun(channel: channel, row: row, columns: columns) {
                    for i in 0..<count {
                        let v = run[i]
                        if v.isNaN { rowCount -= 1 } else { rowSum += Double(v) }
                    }
                }
                total += rowSum
                counted += rowCount
            }
            return counted > 0 ? Float(total / Double(counted)) : .nan
        }
    }

    /// Per channel minimum and maximum of the non-NaN values (NaN when there are none).
    func extremes() -> (low: [Float], high: [Float]) {
        var low = [Float](repeating: .nan, count: 4), high = [Float](repeating: .nan, count: 4)
        let buffered = (0..<height).reduce(0) { $0 + (bufferedRun(channel: 0, row: $1, columns: 0..<width)?.2 ?? 0) }
        for channel in 0..<4 {
            // A grey buffer's channels are one plane: computed once.
            if channel > 0, height > 0, buffer.readingRow(channel: channel, row: 0) == buffer.readingRow(channel: 0, row: 0) {
                (low[channel], high[channel]) = (low[0], high[0])
                continue
            }
            // Sixteen running extremes side by side (a NaN compares false: skipped, as one by one);
            // pixels outside the buffer count as 0.
            let hasUnbuffered = buffered < width * height
            var lows = SIMD16<Float>(repeating: hasUnbuffered ? 0 : .infinity)
            var highs = SIMD16<Float>(repeating: hasUnbuffered ? 0 : -.infinity)
            for row in 0..<height {
                guard let (run, _, count) = bufferedRun(channel: channel, row: row, columns: 0..<width) else { continue }
                var i = 0
                while i + 16 <= count {
                    let v = UnsafeRawPointer(run + i).loadUnaligned(as: SIMD16<Float>.self)
                    lows.replace(with: v, where: v .< lows)
                    highs.replace(with: v, where: v .> highs)
                    i += 16
                }
                while i < count {
                    let v = SIMD16<Float>(repeating: run[i])
                    lows.replace(with: v, where: v .< lows)
                    highs.replace(with: v, where: v .> highs)
                    i += 1
                }
            }
            let lowest = lows.min(), highest = highs.max()
            if lowest <= highest { (low[channel], high[channel]) = (lowest, highest) }
        }
        return (low, high)
    }

    /// Per channel bin counts of the non-NaN values (unbuffered pixels in bin 0) and their totals.
    func histogram(bins: Int) -> (counts: [[Int]], totals: [Int]) {
        var counts = [[Int]](repeating: [Int](repeating: 0, count: bins), count: 4)
        var totals = [Int](repeating: 0, count: 4)
        let scale = Float(bins)
        for channel in 0..<4 {
            var buffered = 0
            for row in 0..<height {
                guard let (run, _, count) = bufferedRun(channel: channel, row: row, columns: 0..<width) else { continue }
                buffered += count
                for i in 0..<count {
                    let v = run[i]
                    if v.isNaN { continue }
                    counts[channel][Self.bin(v * scale, bins)] += 1
                    totals[channel] += 1
                }
            }
            counts[channel][0] += width * height - buffered
            totals[channel] += width * height - buffered
        }
        return (counts, totals)
    }

    /// Counts of `clamp(L, 0, 1)` for the buffered pixels, `L` the luma of the unpremultiplied colour.
    func lumaHistogram(bins: Int) -> [Int] {
        var counts = [Int](repeating: 0, count: bins)
        let scale = Float(bins)
        for row in 0..<height {
            guard let (r, _, count) = bufferedRun(channel: 0, row: row, columns: 0..<width),
                  let (g, _, _) = bufferedRun(channel: 1, row: row, columns: 0..<width),
                  let (b, _, _) = bufferedRun(channel: 2, row: row, columns: 0..<width),
                  let (a, _, _) = bufferedRun(channel: 3, row: row, columns: 0..<width) else { continue }
            for i in 0..<count {
                let alpha = a[i], inverse: Float = alpha > 0 ? 1 / alpha : 1
                let luma = (0.2125 * r[i] + 0.7154 * g[i] + 0.0721 * b[i]) * inverse
                if luma.isNaN { continue }
                counts[Self.bin(luma * scale, bins)] += 1
            }
        }
        return counts
    }

    /// `clamp(⌊scaled⌋, 0, bins − 1)`, safe for infinities.
    static func bin(_ scaled: Float, _ bins: Int) -> Int {
        scaled < 1 ? 0 : (scaled >= Float(bins - 1) ? bins - 1 : Int(scaled))
    }
}

/// Otsu's method: the split of a histogram maximising the between-class variance.
enum OtsuThreshold {
    /// `(k + 1)/bins` for the best last dark bin `k` (the first of equal maxima); 1/bins when the
    /// histogram has a single value.
    static func threshold(histogram: [Int]) -> Double {
        let bins = histogram.count
        let total = Double(histogram.reduce(0, +))
        guard total > 0 else { return 0.5 }
        let weightedTotal = histogram.enumerated().reduce(0.0) { $0 + Double($1.offset) * Double($1.element) }
        var darkCount = 0.0, darkWeighted = 0.0, best = -1.0, bestBin = 0
        for k in 0..<(bins - 1) {
            darkCount += Double(histogram[k])
            darkWeighted += Double(k) * Double(histogram[k])
            let lightCount = total - darkCount
            guard darkCount > 0, lightCount > 0 else { continue }
            let difference = darkWeighted / darkCount - (weightedTotal - darkWeighted) / lightCount
            let variance = darkCount * lightCount * difference * difference
            if variance > best { best = variance; bestBin = k }
        }
        return Double(bestBin + 1) / Double(bins)
    }
}
