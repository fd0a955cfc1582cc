import GraphEngine

/// Small convolutions (CICategoryStylize in Core Image): `out(x, y) = bias + Σ_i Σ_j w[i·n + j]·in(x + j − c, y + c − i)`,
/// weights row by row from the top row, on premultiplied RGBA; the RGB variants filter R, G, B and
/// keep the centre pixel's alpha. The extent grows by the kernel's half size (clamp the input to its
/// extent first for hard edges). CIConvolution9X9 and CIConvolutionRGB9X9 are this engine's own:
/// Core Image's square convolutions stop at 7X7.
enum ConvolutionFilters {
    static let categories = ["CICategoryStylize", "CICategoryVideo", "CICategoryStillImage"]

    static let all: [FilterDescriptor] = [3, 5, 7, 9].flatMap { n in
        [square(n, colorOnly: false), square(n, colorOnly: true)]
    } + [line(horizontal: true, colorOnly: false), line(horizontal: false, colorOnly: false),
         line(horizontal: true, colorOnly: true), line(horizontal: false, colorOnly: true)]

    /// The identity kernel of `count` taps (1 in the middle).
    static func identity(_ count: Int) -> [Double] { (0..<count).map { $0 == count / 2 ? 1 : 0 } }

    static func inputs(_ count: Int, _ shape: String) -> [FilterInput] {
        [ColorAdjustmentFilters.imageInput,
         FilterInput("inputWeights", .vector, default: .vector(identity(count)), count: count,
                     "The \(shape) weights, row by row from the top row."),
         FilterInput("inputBias", .number, default: .number(0), "Added after the convolution.")]
    }

    static func square(_ n: Int, colorOnly: Bool) -> FilterDescriptor {
        let name = colorOnly ? "CIConvolutionRGB\(n)X\(n)" : "CIConvolution\(n)X\(n)"
        return FilterDescriptor(
            name: name, categories: categories,
            summary: "Convolves: bias + Σ_i Σ_j w[i·\(n) + j]·in(x + j − \(n / 2), y + \(n / 2) − i), weights from the top row"
                + (colorOnly ? " (R, G, B only; alpha kept)." : " (all four channels)."),
            inputs: inputs(n * n, "\(n)x\(n)")
        ) { args in try convolve(args, columns: n, rows: n, colorOnly: colorOnly, name: name) }
    }

    static func line(horizontal: Bool, colorOnly: Bool) -> FilterDescriptor {
        let name = (colorOnly ? "CIConvolutionRGB9" : "CIConvolution9") + (horizontal ? "Horizontal" : "Vertical")
        return FilterDescriptor(
            name: name, categories: categories,
            summary: "Convolves with 9 weights along " + (horizontal ? "a row" : "a column (top first)")
                + (colorOnly ? " (R, G, B only; alpha kept)." : "."),
            inputs: inputs(9, horizontal ? "9x1" : "1x9")
        ) { args in try convolve(args, columns: horizontal ? 9 : 1, rows: horizontal ? 1 : 9, colorOnly: colorOnly, name: name) }
    }

    static func convolve(_ args: FilterArguments, columns: Int, rows: Int, colorOnly: Bool, name: String) throws -> Image {
        let image = try args.image("inputImage"), weights = try args.vector("inputWeights"), bias = try args.number("inputBias")
        if weights == identity(weights.count) && bias == 0 { return image }
        return image.applying(SmallConvolution(columns: columns, rows: rows, weights: weights.map { Float($0) },
                                               bias: Float(bias), colorOnly: colorOnly, filterName: name))
    }
}
