import GraphCodecs

/// Whether an image file given where a map of a photo is expected (a disparity or depth map, a
/// matte) is a colour photo instead, such as the depth photo itself named where its disparity map
/// belongs: the engine would read its red channel as disparity, silently.
///
/// A file is a colour photo when it stores colour (its header says RGB, RGBA, palette or YCbCr,
/// not grey or grey+alpha) and its pixels show colour: more than 1% of them, sampled from a
/// 1/8-scale decode for JPEG, have channels that differ by more than a tenth of their range. So
/// a grey map is never one however it is stored: a grey or 16-bit grey PNG, or RGB with equal
/// channels (Google's GDepth PNG, a grey map saved by an RGB tool); a map the recipe computes (a
/// filter's or kernel's output) is no file and is never checked.
package enum ColourPhotoFile {
    /// The channel difference (in 0...1) above which a pixel counts as coloured.
    package static let colouredDifference = 0.1
    /// The fraction of coloured pixels above which a file is a colour photo.
    package static let colouredFraction = 0.01

    /// Whether `path` holds a colour photo (false when it cannot be read: reading it as an image
    /// reports that).
    package static func isColourPhoto(_ path: String) -> Bool {
        guard let info = try? ImageFile.info(path: path), !info.colorModel.hasPrefix("grey") else { return false }
        guard let decoded = try? ImageFile.decode(path: path, options: DecodeOptions(jpegScaleDenominator: 8)),
              decoded.channels >= 3 else { return false }
        return colouredFraction(of: decoded) > colouredFraction
    }

    /// The fraction of pixels of an RGB or RGBA image (8 or 16 bits) whose channels differ by more
    /// than ``colouredDifference``, over at most about 65,536 pixels spread evenly.
    package static func colouredFraction(of image: DecodedImage) -> Double {
        let pixels = image.width * image.height
        guard pixels > 0 else { return 0 }
        let step = max(1, pixels / 65_536)
        let wide = image.bitDepth == 16
        let limit = colouredDifference * (wide ? 65_535 : 255)
        var coloured = 0, sampled = 0
        image.bytes.withUnsafeBytes { raw in
            for pixel in stride(from: 0, to: pixels, by: step) {
                let first = pixel * image.channels
                let rgb = (0..<3).map { channel in
                    wide ? Double(raw.loadUnaligned(fromByteOffset: (first + channel) * 2, as: UInt16.self))
                         : Double(raw[first + channel])
                }
                if let low = rgb.min(), let high = rgb.max(), high - low > limit { coloured += 1 }
                sampled += 1
            }
        }
        return Double(coloured) / Double(sampled)
    }
}
