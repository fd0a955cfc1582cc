import Foundation
import GraphCodecs

/// A PNG file opened but not yet decoded (see ``FileSource``): the header and the chunks before
/// the image data are read at open (their errors throw there); the pixels decode at full size on a
/// thread of their own when a render needs them, reading the file as they go (an open file is
/// never held whole), and an error in the image data fails the render that reads it.
package final class PNGFileSource: FileSource {
    package let path: String
    package var format: ImageFormat { .png }
    package let width: Int, height: Int
    package let colorSpace: ColorSpace?
    package var isOpaque: Bool { !pixelFormat.hasAlpha }
    package let metadata: ImageMetadata
    package let warnings: [String]
    package let wholeDecodes = WholeDecodes()
    /// What libpng decodes it to: 1 to 4 channels of 8 or 16 bits.
    let pixelFormat: PixelFormat
    let data: EncodedBytes
    let options: DecodeOptions

    /// Reads the header and the chunks before the image data; nil for anything not a PNG, and for
    /// what decodes whole at open instead: an interlaced PNG (Adam7 passes cover the whole image),
    /// an EXIF orientation to apply, chunks after the image data (their metadata comes with the
    /// whole decode).
    init?(path: String, data: EncodedBytes, options: DecodeOptions, colorSpace: ColorSpace??) throws {
        guard (try? ImageFile.format(of: data.head)) == .png else { return nil }
        let header: (width: Int, height: Int, format: PixelFormat?, metadata: ImageMetadata, warnings: [String], whole: Bool)
        do {
            header = try data.withPNGDecoder(options: options) { decoder in
                (decoder.width, decoder.height, ImageBuffer.format(channels: decoder.channels, bitDepth: decoder.bitDepth),
                 decoder.metadata, decoder.warnings,
                 decoder.isInterlaced || decoder.hasChunksAfterImageData
                    || (options.applyOrientation && decoder.metadata.exifOrientation != 1))
            }
        } catch let error as CodecError {
            throw error.at(path: path)
        }
        guard !header.whole, let format = header.format else { return nil }
        var (space, note): (ColorSpace?, String?) = ImageBuffer.colorSpace(of: header.metadata)
        if let override = colorSpace { (space, note) = (override, nil) }
        self.path = path
        self.data = data
        self.options = options
        self.width = header.width
        self.height = header.height
        self.pixelFormat = format
        self.colorSpace = space
        self.metadata = header.metadata
        self.warnings = header.warnings + (note.map { ["\(path): \($0)"] } ?? [])
    }

    /// Starts decoding the file on a background thread of its own and returns the buffer its rows
    /// fill, top first (straight alpha, if any). PNG has no reduced decodes: `scale` is 1.
    package func startDecode(scale: Int, windowed: Bool) throws -> ImageBuffer {
        guard scale == 1 else { throw GraphError.renderFailed("\(path): a PNG decodes at full size only, not at 1/\(scale)") }
        let (data, options, path) = (self.data, self.options, self.path)
        return try startBackgroundDecode(width: width, height: height, format: pixelFormat,
                                         alphaMode: pixelFormat.hasAlpha ? .straight : .opaque, windowed: windowed) { buffer, progress in
            try data.withPNGDecoder(options: options) { decoder in
                try progress.fill(buffer, from: (decoder.width, decoder.height, decoder.rowBytes), path: path,
                                  checkSource: data.checkUnchanged) {
                    try decoder.readRows(into: $0, rowBytes: $1, maxRows: $2)
                }
            }
        }
    }

    /// None: a PNG decodes at full size only.
    package func reducedSize(scale: Int) -> (width: Int, height: Int)? { nil }
}

extension EncodedBytes {
    /// Runs `body` with a PNG decoder of the data: reading the bytes in place, or the file as it goes.
    func withPNGDecoder<Result>(options: DecodeOptions, _ body: (PNGRowDecoder) throws -> Result) throws -> Result {
        switch self {
        case .bytes(let bytes):
            return try PNGRowDecoder.reading(bytes, options: options, body)
        case .file(let file, _):
            return try body(PNGRowDecoder(fileDescriptor: file.descriptor, byteCount: file.byteCount, options: options))
        }
    }
}
