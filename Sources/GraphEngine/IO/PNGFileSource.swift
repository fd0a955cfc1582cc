import Foundation
import GraphCodecs

extension Image {
    /// A PNG whose pixels decode on a thread of their own, as a JPEG's do (``JPEGFileSource``): the
    /// header and the chunks before the image data are read now (their errors throw here), and the
    /// image's buffer fills top-down, so a render starts on the top rows while the rest decode
    /// (T8: the decode overlaps the parallel PNG compression instead of preceding it), and an error
    /// in the image data fails the render that reads it. nil for anything not a PNG, and for what
    /// decodes whole now: an interlaced PNG, an EXIF orientation to apply, chunks after the image
    /// data (their metadata comes with the whole decode).
    static func decodingInBackground(png bytes: [UInt8], path: String, options: DecodeOptions, colorSpace: ColorSpace??)
        throws -> (image: Image, metadata: ImageMetadata, warnings: [String])?
    {
        guard (try? ImageFile.format(of: bytes)) == .png else { return nil }
        let header: (width: Int, height: Int, format: PixelFormat?, metadata: ImageMetadata, warnings: [String], whole: Bool)
        do {
            header = try PNGRowDecoder.reading(bytes, options: options) { decoder in
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
        let progress = RowProgress(rows: header.height)
        let buffer = try ImageBuffer(width: header.width, height: header.height, format: format,
                                     alphaMode: format.hasAlpha ? .straight : .opaque, colorSpace: space, rowProgress: progress)
        let job = PNGDecodeJob(bytes: bytes, options: options, buffer: buffer, progress: progress, path: path)
        // A detached thread of its own: a pool worker blocked in libpng could starve the executor.
        let thread = Thread { job.run() }
        thread.stackSize = 1 << 20
        thread.start()
        return (Image(buffer: buffer), header.metadata, header.warnings + (note.map { ["\(path): \($0)"] } ?? []))
    }
}

/// The background decode of one PNG: writes rows into the buffer top-down, 16 at a time, and
/// publishes each batch; an error fails the buffer's progress (and so the render reading it).
private final class PNGDecodeJob: @unchecked Sendable {
    let bytes: [UInt8]
    let options: DecodeOptions
    let buffer: ImageBuffer
    let progress: RowProgress
    let path: String

    init(bytes: [UInt8], options: DecodeOptions, buffer: ImageBuffer, progress: RowProgress, path: String) {
        self.bytes = bytes
        self.options = options
        self.buffer = buffer
        self.progress = progress
        self.path = path
    }

    func run() {
        do {
            try PNGRowDecoder.reading(bytes, options: options) { decoder in
                try progress.fill(buffer, rows: decoder.height, path: path) {
                    try decoder.readRows(into: $0, rowBytes: $1, maxRows: $2)
                }
            }
        } catch {
            progress.fail("\(path): \(error)")
        }
    }
}
