import Foundation
import GraphCodecs

/// A JPEG file opened but not yet decoded (see ``FileSource``). A render decides how much of it is
/// needed: when the image is only shown shrunk (an affine transform scaling by 1/2 or less), the
/// planner asks for a DCT-scaled decode at 1/2, 1/4 or 1/8 (libjpeg decodes fewer coefficients:
/// much faster), and at full size otherwise. Each scale is decoded once, streaming, and kept; a
/// streamed encode gets a windowed decode of its own instead.
///
/// A file opened by path stays open and its scan data is read as rows decode: only its header
/// is read at open, so the compressed file is never held whole either.
package final class JPEGFileSource: FileSource {
    package let path: String
    package var format: ImageFormat { .jpeg }
    package let width: Int, height: Int
    package let colorSpace: ColorSpace?
    package var isOpaque: Bool { true }
    package let metadata: ImageMetadata
    package let warnings: [String]
    package let wholeDecodes = WholeDecodes()
    /// Channels it decodes to: 3 for colour (CMYK is converted), 1 for grey.
    let channels: Int
    let data: EncodedBytes
    let options: DecodeOptions

    /// Reads the header; nil when the file isn't a JPEG or has an EXIF orientation to apply (that
    /// needs the whole image, so it is decoded at once instead).
    init?(path: String, data: EncodedBytes, options: DecodeOptions, colorSpace: ColorSpace??) throws {
        guard (try? ImageFile.format(of: data.head)) == .jpeg else { return nil }
        let info: (width: Int, height: Int, channels: Int, metadata: ImageMetadata, warnings: [String])
        do {
            info = try data.withJPEGDecoder(options: options) { ($0.width, $0.height, $0.channels, $0.metadata, $0.warnings) }
        } catch let error as CodecError {
            throw error.at(path: path)
        }
        if options.applyOrientation && info.metadata.exifOrientation != 1 { return nil }
        var (space, note): (ColorSpace?, String?) = ImageBuffer.colorSpace(of: info.metadata)
        if let override = colorSpace { (space, note) = (override, nil) }
        self.path = path
        self.data = data
        self.options = options
        self.width = info.width
        self.height = info.height
        self.channels = info.channels
        self.colorSpace = space
        self.metadata = info.metadata
        self.warnings = info.warnings + (note.map { ["\(path): \($0)"] } ?? [])
    }

    /// The whole compressed file (to embed it).
    func fileBytes() throws(CodecError) -> [UInt8] { try data.fileBytes() }

    /// The size of the decode at 1/`scale` (libjpeg rounds up).
    func size(scale: Int) -> (width: Int, height: Int) {
        ((width + scale - 1) / scale, (height + scale - 1) / scale)
    }

    /// Every scale: libjpeg decodes at 1/2, 1/4 and 1/8.
    package func reducedSize(scale: Int) -> (width: Int, height: Int)? { size(scale: scale) }
}

extension EncodedBytes {
    /// Runs `body` with a JPEG decoder of the data: reading the bytes in place, or the file as it goes.
    func withJPEGDecoder<Result>(options: DecodeOptions, _ body: (JPEGRowDecoder) throws -> Result) throws -> Result {
        switch self {
        case .bytes(let bytes):
            return try JPEGRowDecoder.reading(bytes, options: options, body)
        case .file(let file, let header):
            return try body(JPEGRowDecoder(fileDescriptor: file.descriptor, byteCount: file.byteCount, header: header,
                                           options: options))
        }
    }
}

