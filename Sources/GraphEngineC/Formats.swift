import GraphEngine
import Kernels

/// The sample types of caller memory (`GE_UINT8`, `GE_UINT16`, `GE_FLOAT32` in graphengine.h).
enum SampleType: Int32 {
    case uint8 = 0, uint16 = 1, float32 = 2

    /// The type from its C value, or an error listing the accepted ones.
    init(code: Int32) throws {
        guard let type = SampleType(rawValue: code) else {
            throw BoundaryError("unknown sample type \(code): expected GE_UINT8 (0), GE_UINT16 (1) or GE_FLOAT32 (2)")
        }
        self = type
    }

    /// Bytes per sample.
    var byteCount: Int { self == .uint8 ? 1 : self == .uint16 ? 2 : 4 }

    /// The name in messages.
    var name: String { self == .uint8 ? "8-bit" : self == .uint16 ? "16-bit" : "float32" }
}

/// Memory layouts: channels and sample type to the engine's pixel formats.
enum MemoryLayout {
    /// The engine format that holds `channels` samples of `type` as they are, or nil (2-channel
    /// float: no such engine format).
    static func format(channels: Int, type: SampleType) -> PixelFormat? {
        switch (channels, type) {
        case (1, .uint8): return .gray8
        case (1, .uint16): return .gray16
        case (1, .float32): return .grayf
        case (2, .uint8): return .grayAlpha8
        case (2, .uint16): return .grayAlpha16
        case (3, .uint8): return .rgb8
        case (3, .uint16): return .rgb16
        case (3, .float32): return .rgbf
        case (4, .uint8): return .rgba8
        case (4, .uint16): return .rgba16
        case (4, .float32): return .rgbaf
        default: return nil
        }
    }

    /// The format of a render into caller memory, or an error saying what is accepted.
    static func renderFormat(channels: Int32, type code: Int32) throws -> PixelFormat {
        let type = try SampleType(code: code)
        guard let format = format(channels: Int(channels), type: type) else {
            throw BoundaryError("cannot render \(channels) channels of \(type.name) samples: 1, 2, 3 or 4 channels of 8 or 16 bits, "
                                + "or 1, 3 or 4 channels of float32")
        }
        return format
    }

    /// The alpha mode from its C value (`GE_ALPHA_PREMULTIPLIED` 0, `GE_ALPHA_STRAIGHT` 1, `GE_ALPHA_OPAQUE` 2).
    static func alphaMode(_ code: Int32) throws -> AlphaMode {
        switch code {
        case 0: return .premultiplied
        case 1: return .straight
        case 2: return .opaque
        default: throw BoundaryError("unknown alpha mode \(code): expected 0 (premultiplied), 1 (straight) or 2 (opaque)")
        }
    }
}

/// Colour space names at the boundary: `sRGB`, `displayP3`, `linearSRGB` and `data`.
enum ColorSpaceNames {
    /// The names accepted, for messages.
    static let accepted = "\"sRGB\", \"displayP3\", \"linearSRGB\" or \"data\""

    /// The space a source is in: nil for `data` (never converted); an unknown name is an error.
    static func source(_ name: String) throws -> ColorSpace? {
        if name == "data" { return nil }
        guard let space = NamedColorSpaces.space(named: name) else {
            throw BoundaryError("unknown colour space \"\(name)\": expected \(accepted)")
        }
        return space
    }

    /// The space an output is written in; nil name: the one the image's sources share, else sRGB.
    static func output(_ name: String?, for image: Image) throws -> OutputColorSpace {
        guard let name else {
            let spaces = image.sourceColorSpaces
            if spaces.count == 1, let only = spaces.first { return .space(only) }
            return .sRGB
        }
        return try source(name).map { .space($0) } ?? .data
    }
}
