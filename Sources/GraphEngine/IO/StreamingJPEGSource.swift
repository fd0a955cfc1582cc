import Foundation
import GraphCodecs

extension JPEGFileSource {
    /// Starts decoding the file at 1/`scale` on a background thread of its own and returns the
    /// buffer its rows fill, top first: a render starts on the top rows as soon as they are ready,
    /// so decoding overlaps filtering and encoding. The decoder reads the bytes in place, or the
    /// file as it goes.
    ///
    /// `windowed`: rows decode only as the render demands them and are released behind it (see
    /// ``RowProgress``), for a render that reads the image once, top to bottom: memory then holds
    /// a window of rows, not the image. An error in the file fails the render that reads it.
    func startDecode(scale: Int, windowed: Bool) throws -> ImageBuffer {
        let size = self.size(scale: scale)
        let format: PixelFormat
        switch channels {
        case 1: format = .gray8
        case 3: format = .rgb8
        case 4: format = .rgba8
        default: throw GraphError.renderFailed("\(path): cannot decode a JPEG with \(channels) channels")
        }
        let progress = RowProgress(rows: size.height, windowed: windowed)
        let buffer = try ImageBuffer(width: size.width, height: size.height, format: format, alphaMode: .opaque,
                                     colorSpace: colorSpace, rowProgress: progress)
        var scaled = options
        scaled.jpegScaleDenominator = scale
        let job = DecodeJob(data: data, options: scaled, buffer: buffer, progress: progress, path: path)
        // A detached thread of its own: a pool worker blocked on libjpeg could starve the executor.
        let thread = Thread { job.run() }
        thread.stackSize = 1 << 20
        thread.start()
        return buffer
    }
}

/// The background decode of one streaming JPEG: writes rows into the buffer top-down in small
/// batches and publishes each batch (a windowed one: as far as demanded, and it ends early when
/// the render stops reading).
private final class DecodeJob: @unchecked Sendable {
    let data: JPEGFileSource.Data
    let options: DecodeOptions
    let buffer: ImageBuffer
    let progress: RowProgress
    let path: String

    init(data: JPEGFileSource.Data, options: DecodeOptions, buffer: ImageBuffer, progress: RowProgress, path: String) {
        self.data = data
        self.options = options
        self.buffer = buffer
        self.progress = progress
        self.path = path
    }

    func run() {
        do {
            try data.withDecoder(options: options) { decoder in
                guard decoder.width == buffer.width, decoder.height == buffer.height,
                      decoder.rowBytes == buffer.rowBytes else {
                    progress.fail("\(path): the decoder's size \(decoder.width)x\(decoder.height) is not the header's")
                    return
                }
                try progress.fill(buffer, rows: decoder.height, path: path) {
                    try decoder.readRows(into: $0, rowBytes: $1, maxRows: $2)
                }
            }
        } catch {
            progress.fail("\(path): \(error)")
        }
    }
}
