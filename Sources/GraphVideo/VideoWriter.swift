import CVideoShims
import GraphCodecs

/// Encodes frames with FFmpeg's libavcodec into a container written by libavformat: into a
/// temporary file beside the target that ``finish(audioUntil:)`` renames into place, so a failed or
/// interrupted write leaves no partial output (the temporary is removed on errors, on release,
/// and on SIGINT/SIGTERM/SIGHUP once `ImageFile.removeTemporaryFilesOnSignals()` was called).
///
/// Not thread-safe: one thread writes it at a time.
public final class VideoWriter: @unchecked Sendable {
    /// What the frames given to ``VideoWriter/write(_:rowBytes:pts:)`` are.
    public enum Input: Sendable {
        /// 8-bit RGBA rows (converted to the encoder's 4:2:0 with the stream's matrix and range: by
        /// `gv_rgba_to_i420` for yuv420p encoders, by libswscale for others).
        case rgba
        /// Tightly packed 8-bit I420 (Y, then Cb, then Cr).
        case i420
        /// 8- or 16-bit grey (depth streams), one plane.
        case gray8, gray16
    }

    /// The stream to write: size, timing and the tags carried from the source.
    public struct Stream: Sendable {
        /// Frame size in pixels.
        public var width: Int, height: Int
        /// Timestamps count `timeBase.numerator / timeBase.denominator` seconds.
        public var timeBase: (numerator: Int, denominator: Int)
        /// Frames per second as a fraction.
        public var frameRate: (numerator: Int, denominator: Int)
        /// Clockwise display rotation in degrees (written as a display matrix).
        public var rotation = 0
        /// FFmpeg's colour tags (`AVColorRange` etc.; 0/2 unspecified).
        public var colorRange = 0, colorPrimaries = 2, colorTransfer = 2, colorSpace = 2
        /// A file whose audio streams are copied unchanged (nil: no audio).
        public var audioSource: String?

        /// A stream of `width`×`height` frames at `frameRate`, timestamps in `timeBase`.
        public init(width: Int, height: Int, timeBase: (numerator: Int, denominator: Int),
                    frameRate: (numerator: Int, denominator: Int)) {
            self.width = width
            self.height = height
            self.timeBase = timeBase
            self.frameRate = frameRate
        }

        /// The source's size, timing, rotation, colour tags and audio.
        public init(like source: VideoStreamInfo, audioFrom path: String?) {
            self.init(width: source.width, height: source.height, timeBase: source.timeBase,
                      frameRate: source.frameRate.numerator > 0 ? source.frameRate : (25, 1))
            rotation = source.rotation
            colorRange = source.colorRange == 0 ? 1 : source.colorRange
            colorPrimaries = source.colorPrimaries
            colorTransfer = source.colorTransfer
            colorSpace = source.colorSpace == 2 ? (source.height >= 720 ? 1 : 6) : source.colorSpace
            audioSource = source.audioStreams > 0 ? path : nil
        }
    }

    /// The file written (the target, visible once finished).
    public let path: String
    private let input: Input
    private let width: Int, height: Int
    private var writer: OpaquePointer?
    private var pending: PendingFile?
    private var framesWritten = 0
    private var lastPTS: Int64 = .min

    /// Creates the temporary file beside `path` (its folder must exist) and opens the encoder;
    /// the container follows `path`'s extension (`.mp4`, `.mov`, `.mkv`).
    public init(path: String, stream: Stream, input: Input, encoding: VideoEncoding) throws {
        self.path = path
        self.input = input
        self.width = stream.width
        self.height = stream.height
        let pending: PendingFile
        do {
            pending = try PendingFile(path: path)
        } catch {
            throw VideoError(file: path, "\(error.message)")
        }
        var config = gv_writer_config()
        config.width = Int32(stream.width)
        config.height = Int32(stream.height)
        config.crf = Int32(encoding.crf ?? -1)
        config.time_base_num = Int32(stream.timeBase.numerator)
        config.time_base_den = Int32(stream.timeBase.denominator)
        config.frame_rate_num = Int32(stream.frameRate.numerator)
        config.frame_rate_den = Int32(stream.frameRate.denominator)
        switch input {
        case .rgba: config.input_format = Int32(GV_PIX_RGBA.rawValue)
        case .i420: config.input_format = Int32(GV_PIX_I420.rawValue)
        case .gray8: config.input_format = Int32(GV_PIX_GRAY8.rawValue)
        case .gray16: config.input_format = Int32(GV_PIX_GRAY16.rawValue)
        }
        config.rotation = Int32(stream.rotation)
        config.color_range = Int32(stream.colorRange)
        config.color_primaries = Int32(stream.colorPrimaries)
        config.color_transfer = Int32(stream.colorTransfer)
        config.color_space = Int32(stream.colorSpace)
        config.threads = Int32(encoding.threads)
        var handle: OpaquePointer?
        var message = [CChar](repeating: 0, count: 512)
        let code = encoding.codec.withCString { codec in
            (encoding.preset ?? "").withCString { preset in
                withOptionalCString(stream.audioSource) { audio in
                    config.codec = codec
                    config.preset = preset
                    config.audio_source = audio
                    return gv_writer_open(pending.temporaryPath, path, &config, &handle, &message, message.count)
                }
            }
        }
        guard code == 0, let handle else {
            pending.discard()
            throw VideoError(file: path, VideoReader.text(message))
        }
        self.writer = handle
        self.pending = pending
    }

    deinit { abandon() }

    /// Frames encoded so far.
    public var frameCount: Int { framesWritten }

    /// Encodes one frame whose rows are `rowBytes` apart (I420: the Y plane's; chroma rows are
    /// half as long, planes packed one after another), at `pts` in the stream's time base
    /// (strictly increasing).
    public func write(_ pixels: UnsafeRawPointer, rowBytes: Int, pts: Int64) throws {
        guard let writer else { throw VideoError(file: path, "the video was already finished or abandoned") }
        guard pts > lastPTS else {
            throw VideoError(file: path, frame: framesWritten, "timestamp \(pts) does not follow the previous one (\(lastPTS))")
        }
        let base = pixels.assumingMemoryBound(to: UInt8.self)
        let chromaRow = rowBytes / 2 + rowBytes % 2
        let lumaBytes = rowBytes * height, chromaBytes = chromaRow * ((height + 1) / 2)
        var planes: (UnsafePointer<UInt8>?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?) = (base, nil, nil)
        var strides: (Int32, Int32, Int32) = (Int32(rowBytes), 0, 0)
        if case .i420 = input {
            planes = (base, base + lumaBytes, base + lumaBytes + chromaBytes)
            strides = (Int32(rowBytes), Int32(chromaRow), Int32(chromaRow))
        }
        var message = [CChar](repeating: 0, count: 512)
        let code = withUnsafePointer(to: &planes) { planePointer in
            withUnsafePointer(to: &strides) { stridePointer in
                planePointer.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 3) { p in
                    stridePointer.withMemoryRebound(to: Int32.self, capacity: 3) { s in
                        gv_writer_write(writer, p, s, pts, &message, message.count)
                    }
                }
            }
        }
        guard code == 0 else {
            throw VideoError(file: path, frame: framesWritten, VideoReader.text(message))
        }
        lastPTS = pts
        framesWritten += 1
    }

    /// Flushes the encoder, copies the rest of the audio (up to `audioUntil` seconds: the end of
    /// a video cut short; all of it by default), closes the file and renames it into place
    /// (replacing an older file of that name).
    public func finish(audioUntil: Double = .infinity) throws {
        guard let writer, let pending else { throw VideoError(file: path, "the video was already finished or abandoned") }
        var message = [CChar](repeating: 0, count: 512)
        let code = gv_writer_finish(writer, audioUntil.isFinite ? audioUntil : 1e300, &message, message.count)
        gv_writer_free(writer)
        self.writer = nil
        guard code == 0 else {
            abandon()
            throw VideoError(file: path, VideoReader.text(message))
        }
        guard framesWritten > 0 else {
            abandon()
            throw VideoError(file: path, "no frame was written")
        }
        do {
            try pending.commit()
        } catch {
            abandon()
            throw VideoError(file: path, "\(error.message)")
        }
        self.pending = nil
    }

    /// Stops writing and removes the temporary file; the target is untouched.
    public func abandon() {
        if let writer { gv_writer_free(writer) }
        writer = nil
        pending?.discard()
        pending = nil
    }
}

/// `body` with a C string for `text`, or nil.
private func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}
