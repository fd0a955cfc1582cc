/// Pixel formats of buffers at the edges of the engine (sources, render targets).
///
/// Inside, pixels are premultiplied RGBA computed in Float32 and stored in the working format.
/// Samples are in the order the name gives: `bgra8` holds bytes B, G, R, A (the usual display
/// and video frame-buffer layout, Core Image's `kCIFormatBGRA8`).
public enum PixelFormat: String, Hashable, Sendable, CaseIterable {
    /// RGBA with 8- or 16-bit integer, half-float or float channels.
    case rgba8 = "RGBA8", rgba16 = "RGBA16", rgbah = "RGBAh", rgbaf = "RGBAf"
    /// BGRA with 8-bit channels (the order displays and video use).
    case bgra8 = "BGRA8"
    /// RGB without alpha, 8 or 16 bits, or float (NumPy's packed RGB float images).
    case rgb8 = "RGB8", rgb16 = "RGB16", rgbf = "RGBf"
    /// Grey with alpha, 8 or 16 bits.
    case grayAlpha8 = "LA8", grayAlpha16 = "LA16"
    /// Grey, 8 or 16 bits, half float or float (depth maps, masks).
    case gray8 = "L8", gray16 = "L16", grayh = "Lh", grayf = "Lf"

    /// Samples per pixel.
    public var channels: Int {
        switch self {
        case .rgba8, .bgra8, .rgba16, .rgbah, .rgbaf: return 4
        case .rgb8, .rgb16, .rgbf: return 3
        case .grayAlpha8, .grayAlpha16: return 2
        case .gray8, .gray16, .grayh, .grayf: return 1
        }
    }

    /// The type of each channel.
    public var component: ComponentType {
        switch self {
        case .rgba8, .bgra8, .rgb8, .grayAlpha8, .gray8: return .uint8
        case .rgba16, .rgb16, .grayAlpha16, .gray16: return .uint16
        case .rgbah, .grayh: return .float16
        case .rgbaf, .rgbf, .grayf: return .float32
        }
    }

    /// Bytes per pixel: channels × bytes per channel.
    public var bytesPerPixel: Int { channels * component.byteCount }
    /// Where red and blue sit in a pixel's samples.
    package var redAndBlueIndices: (red: Int, blue: Int) { self == .bgra8 ? (2, 0) : (0, 2) }
    /// Whether the format has an alpha channel (grey-alpha or RGBA/BGRA).
    public var hasAlpha: Bool { channels == 2 || channels == 4 }
}

/// The numeric type of one sample.
public enum ComponentType: String, Hashable, Sendable {
    /// Unsigned 8- or 16-bit integers (normalised), half floats, floats.
    case uint8, uint16, float16, float32
    /// Bytes per channel.
    public var byteCount: Int {
        switch self {
        case .uint8: return 1
        case .uint16, .float16: return 2
        case .float32: return 4
        }
    }
}

/// How a buffer's colour relates to its alpha.
public enum AlphaMode: String, Hashable, Sendable {
    /// Colour already multiplied by alpha (the engine's internal convention).
    case premultiplied
    /// Colour not multiplied by alpha (PNG's convention): premultiplied when read.
    case straight
    /// No alpha channel, or one to ignore: alpha reads as 1 whatever the bytes hold (Core
    /// Graphics' "skip" alpha, RGBX).
    case opaque
}

/// The working format: how materialised intermediates are stored (compute is always Float32).
public enum WorkingFormat: String, Hashable, Sendable, CaseIterable {
    /// 8 bits per channel, clamped to 0...1 (fast, loses extended range and precision).
    case rgba8 = "RGBA8"
    /// IEEE half float per channel: extended range, ~3 significant digits (the default, as in Core Image).
    case rgbah = "RGBAh"
    /// Float32 per channel.
    case rgbaf = "RGBAf"

    package var bytesPerSample: Int {
        switch self {
        case .rgba8: return 1
        case .rgbah: return 2
        case .rgbaf: return 4
        }
    }
}
