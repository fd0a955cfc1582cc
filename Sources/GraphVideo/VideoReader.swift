import CVideoShims
import GraphEngine

/// Decodes one video stream of a file with FFmpeg's libavformat and libavcodec, frame by frame,
/// in presentation order. Colour frames come out in the codec's own 4:2:0 planes (no RGB
/// detour); grey frames (depth streams) as sample values, and with `lumaOnly` so do the luma
/// (Y) planes of colour frames (depth stored as YUV).
///
/// Not thread-safe: one thread reads it at a time (it may move between threads).
public final class VideoReader: @unchecked Sendable {
    /// The file read.
    public let path: String
    /// What the stream holds.
    public let info: VideoStreamInfo
    private var reader: OpaquePointer?
    private var nextIndex = 0

    /// Opens `path`'s video stream `stream` (nil: the file's main video stream), decoding on
    /// `threads` threads (0: FFmpeg's choice). With `lumaOnly` every frame is `.grey`: its grey
    /// or luma samples as stored (a 10-bit sample 0...1023; ``VideoStreamInfo/sampleBits`` says
    /// how many bits), and a stream without such a plane (RGB, palette) is an error.
    public init(path: String, stream: Int? = nil, threads: Int = 0, lumaOnly: Bool = false) throws {
        self.path = path
        var handle: OpaquePointer?
        var raw = gv_stream_info()
        var message = [CChar](repeating: 0, count: 512)
        let code = gv_reader_open(path, Int32(stream ?? -1), Int32(threads), lumaOnly ? 1 : 0, &handle, &raw, &message, message.count)
        guard code == 0, let handle else {
            throw VideoError(file: path, VideoReader.text(message))
        }
        reader = handle
        info = VideoStreamInfo(raw)
    }

    deinit { gv_reader_close(reader) }

    /// The indices of the file's video streams (cover art excluded).
    public static func videoStreams(of path: String) throws -> [Int] {
        var indices = [Int32](repeating: 0, count: 64)
        var message = [CChar](repeating: 0, count: 512)
        let count = gv_probe_video_streams(path, &indices, Int32(indices.count), &message, message.count)
        guard count >= 0 else { throw VideoError(file: path, text(message)) }
        return indices.prefix(Int(min(count, 64))).map(Int.init)
    }

    /// The next frame, or nil at the end of the stream. A frame that cannot be decoded is an error
    /// naming it.
    public func next() throws -> DecodedFrame? {
        guard let reader else { return nil }
        var frame = gv_frame()
        var message = [CChar](repeating: 0, count: 512)
        let code = gv_reader_next(reader, &frame, &message, message.count)
        if code == 0 { return nil }
        guard code > 0 else {
            throw VideoError(file: path, frame: nextIndex, VideoReader.text(message))
        }
        nextIndex += 1
        let samples: DecodedFrame.Samples
        do {
            samples = try copySamples(frame)
        } catch {
            throw VideoError(file: path, frame: Int(frame.index), seconds: frame.seconds, "\(error)")
        }
        return DecodedFrame(index: Int(frame.index), pts: frame.pts, seconds: frame.seconds, samples: samples)
    }

    /// The planes copied out of FFmpeg's buffers (which the next call reuses): one array per
    /// frame, tightly packed, so the engine reads it natively.
    private func copySamples(_ frame: gv_frame) throws -> DecodedFrame.Samples {
        let width = Int(frame.width), height = Int(frame.height)
        guard width > 0, height > 0 else { throw VideoError("the decoder gave an empty frame") }
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        switch Int32(frame.format) {
        case Int32(GV_PIX_I420.rawValue), Int32(GV_PIX_NV12.rawValue):
            let nv12 = frame.format == Int32(GV_PIX_NV12.rawValue)
            let chromaRow = nv12 ? chromaWidth * 2 : chromaWidth
            let lumaBytes = width * height, chromaBytes = chromaRow * chromaHeight
            let total = lumaBytes + (nv12 ? chromaBytes : 2 * chromaBytes)
            let bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, count in
                guard let out = buffer.baseAddress else { count = 0; return }
                Self.copyPlane(frame.data.0, Int(frame.linesize.0), to: out, rowBytes: width, rows: height)
                Self.copyPlane(frame.data.1, Int(frame.linesize.1), to: out + lumaBytes, rowBytes: chromaRow, rows: chromaHeight)
                if !nv12 {
                    Self.copyPlane(frame.data.2, Int(frame.linesize.2), to: out + lumaBytes + chromaBytes, rowBytes: chromaRow,
                                   rows: chromaHeight)
                }
                count = total
            }
            return .yuv(try YUVFrame(bytes: bytes, width: width, height: height, layout: nv12 ? .biPlanar : .planar,
                                     matrix: matrix, range: range, siting: siting))
        case Int32(GV_PIX_GRAY8.rawValue), Int32(GV_PIX_GRAY16.rawValue), Int32(GV_PIX_GRAYF.rawValue):
            guard let plane = frame.data.0 else { throw VideoError("the decoder gave no samples") }
            let stride = Int(frame.linesize.0)
            let values = [Float](unsafeUninitializedCapacity: width * height) { buffer, count in
                for y in 0..<height {
                    let row = plane + y * stride
                    let out = y * width
                    switch Int32(frame.format) {
                    case Int32(GV_PIX_GRAY8.rawValue):
                        for x in 0..<width { buffer[out + x] = Float(row[x]) }
                    case Int32(GV_PIX_GRAY16.rawValue):
                        let samples = UnsafeRawPointer(row)
                        for x in 0..<width { buffer[out + x] = Float(samples.loadUnaligned(fromByteOffset: 2 * x, as: UInt16.self)) }
                    default:
                        let samples = UnsafeRawPointer(row)
                        for x in 0..<width { buffer[out + x] = samples.loadUnaligned(fromByteOffset: 4 * x, as: Float.self) }
                    }
                }
                count = width * height
            }
            return .grey(values, width: width, height: height)
        default:
            throw VideoError("the pixel format '\(info.pixelFormat)' cannot be read")
        }
    }

    private static func copyPlane(_ source: UnsafePointer<UInt8>?, _ stride: Int, to out: UnsafeMutablePointer<UInt8>,
                                  rowBytes: Int, rows: Int) {
        guard let source else {
            out.update(repeating: 128, count: rowBytes * rows)
            return
        }
        for y in 0..<rows { (out + y * rowBytes).update(from: source + y * stride, count: rowBytes) }
    }

    /// The YCbCr matrix the stream declares (BT.601 for `bt470bg`/`smpte170m`; unspecified: BT.709
    /// from 720 lines up, BT.601 below, as players guess).
    var matrix: YUVFrame.Matrix {
        switch info.colorSpace {
        case 1: return .bt709
        case 5, 6: return .bt601
        default: return info.height >= 720 ? .bt709 : .bt601
        }
    }

    /// Full range for `AVCOL_RANGE_JPEG` (and `yuvj` formats), video range otherwise.
    var range: YUVFrame.Range {
        info.colorRange == 2 || info.pixelFormat.hasPrefix("yuvj") ? .full : .video
    }

    /// Centred chroma for `AVCHROMA_LOC_CENTER`, left (the MPEG-2/H.264/HEVC default) otherwise.
    var siting: YUVFrame.ChromaSiting { info.chromaLocation == 2 ? .center : .left }

    static func text(_ message: [CChar]) -> String {
        message.withUnsafeBufferPointer { buffer in
            let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
