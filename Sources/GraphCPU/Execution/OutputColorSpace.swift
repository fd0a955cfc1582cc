/// The colour space a render or a written file is in, chosen per output (``Context/render(_:rect:format:colorSpace:progress:)``,
/// `ImageWriteOptions.colorSpace`); nil there means the context's ``ContextOptions/outputColorSpace``.
///
/// With colour management off (no working colour space) nothing is converted or tagged whatever is asked.
public enum OutputColorSpace: Hashable, Sendable, CustomStringConvertible {
    /// No colour space: the working-space values are written as they are and the file is not tagged.
    /// For data (depth and disparity maps, masks) even when it was computed with a colour image as a
    /// guide, which would otherwise make the output a colour image converted to sRGB.
    case data
    /// Converted from the working space into this space and tagged with its ICC profile.
    case space(ColorSpace)

    /// Writes sRGB (the default for colour outputs).
    public static let sRGB = OutputColorSpace.space(.sRGB)
    /// Writes Display P3 (tagged), keeping colours outside sRGB.
    public static let displayP3 = OutputColorSpace.space(.displayP3)
    /// Writes linear sRGB (tagged).
    public static let linearSRGB = OutputColorSpace.space(.linearSRGB)

    /// The space's name, or `data`.
    public var description: String {
        switch self {
        case .data: return "data"
        case .space(let space): return space.name
        }
    }
}

extension Context {
    /// What a render for `output` converts its result to (nil: no output conversion) and what the
    /// pixels are then in (nil: data, untagged).
    package func outputTarget(_ output: OutputColorSpace?) -> (convertTo: ColorSpace?, tag: ColorSpace?) {
        guard let working = options.workingColorSpace else { return (nil, nil) }
        switch output {
        case nil: return (options.outputColorSpace, options.outputColorSpace ?? working)
        case .data?: return (nil, nil)
        case .space(let space)?: return (space, space)
        }
    }
}
