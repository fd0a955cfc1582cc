import Foundation
import GraphCodecs

extension Image {
    /// A JPEG image whose rows decode on a background thread while renders read them: a render
    /// starts on the top rows as soon as they are ready, so decoding overlaps filtering and
    /// encoding. Returns nil when streaming can't apply (not a JPEG, or an EXIF orientation to
    /// apply, which needs the whole image); callers then decode the whole file.
    ///
    /// Header errors throw here; an error later in the file fails the render that reads it.
    static func streamingJPEG(_ bytes: [UInt8], path: String, options: DecodeOptions, colorSpace: ColorSpace??) throws
        -> (image: Image, metadata: ImageMetadata, warnings: [String])?
    {
        guard (try? ImageFile.format(of: bytes)) == .jpeg else { return nil }
        let decoder = try JPEGRowDecoder(bytes, options: options)
        if options.applyOrientation && decoder.metadata.exifOrientation != 1 { return nil }
        let format: PixelFormat
        switch decoder.channels {
        case 1: format = .gray8
        case 3: format = .rgb8
        case 4: format = .rgba8
        default: return nil
        }
        var (space, note): (ColorSpace?, String?) = ImageBuffer.colorSpace(of: decoder.metadata)
        if let override = colorSpace { (space, note) = (override, nil) }
        let progress = RowProgress(rows: decoder.height)
        let buffer = try ImageBuffer(width: decoder.width, height: decoder.height, format: format, alphaMode: .opaque,
                                     colorSpace: space, rowProgress: progress)
        let job = DecodeJob(decoder: decoder, buffer: buffer, progress: progress, path: path)
        // A detached thread of its own: a pool worker blocked on libjpeg could starve the executor.
        let thread = Thread { job.run() }
        thread.stackSize = 1 << 20
        thread.start()
        return (Image(buffer: buffer), decoder.metadata, decoder.warnings + (note.map { ["\(path): \($0)"] } ?? []))
    }
}

/// The background decode of one streaming JPEG: owns the decoder, writes rows into the buffer
/// top-down in small batches and publishes each batch.
private final class DecodeJob: @unchecked Sendable {
    let decoder: JPEGRowDecoder
    let buffer: ImageBuffer
    let progress: RowProgress
    let path: String

    init(decoder: JPEGRowDecoder, buffer: ImageBuffer, progress: RowProgress, path: String) {
        self.decoder = decoder
        self.buffer = buffer
        self.progress = progress
        self.path = path
    }

    func run() {
        let base = buffer.mutableStorageForFilling
        var row = 0
        do {
            while row < decoder.height {
                let count = try decoder.readRows(into: base + row * buffer.rowBytes, rowBytes: buffer.rowBytes, maxRows: 16)
                if count == 0 { break }
                row += count
                progress.publish(row)
            }
            if row < decoder.height { progress.fail("\(path): the decoder stopped at row \(row) of \(decoder.height)") }
        } catch {
            progress.fail("\(path): \(error)")
        }
    }
}
