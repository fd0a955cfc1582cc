import GraphCodecs
import GraphEngine

/// Decoders are given a small pixel limit: a header may claim any size, and the limit is what
/// keeps a hostile one from allocating gigabytes (that check is fuzzed too).
let smallImages = DecodeOptions(maxPixelCount: 1 << 20)

extension FuzzTarget {
    /// PNG through the libpng shim: header and metadata (`graph info`), a whole decode as 8-bit
    /// and as RGBA, and the image as the engine opens it (colour tagging from iCCP included).
    static let png = FuzzTarget(name: "png") { bytes in
        _ = try? PNGCodec.readInfo(bytes)
        _ = try? PNGCodec.decode(bytes, options: smallImages)
        var rgba = smallImages
        rgba.outputRGBA = true
        rgba.applyOrientation = false
        if let decoded = try? PNGCodec.decode(bytes, options: rgba) {
            _ = ImageBuffer.colorSpace(of: decoded.metadata)
            _ = try? ImageBuffer(decoded: decoded)
        }
    }

    /// JPEG through the libjpeg-turbo shim: the Swift header walk and metadata (`graph info`:
    /// EXIF, ICC chunks, XMP and extended XMP, MPF), a whole decode, a 1/4-scale decode, and the
    /// streaming row decoder the engine renders from, read to the end in small batches.
    static let jpeg = FuzzTarget(name: "jpeg") { bytes in
        _ = try? JPEGCodec.readInfo(bytes)
        _ = try? JPEGCodec.decode(bytes, options: smallImages)
        var scaled = smallImages
        scaled.jpegScaleDenominator = 4
        _ = try? JPEGCodec.decode(bytes, options: scaled)
        var streaming = smallImages
        streaming.applyOrientation = false
        streaming.maxJPEGScans = 64
        guard let decoder = try? JPEGRowDecoder(bytes, options: streaming) else { return }
        let rowBytes = decoder.rowBytes
        var rows = [UInt8](repeating: 0, count: rowBytes * 8)
        while decoder.nextRow < decoder.height {
            let read = rows.withUnsafeMutableBytes { buffer in
                (try? decoder.readRows(into: buffer.baseAddress!, rowBytes: rowBytes, maxRows: 8)) ?? 0
            }
            if read == 0 { break }
        }
    }
}
