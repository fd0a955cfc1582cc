import Foundation
import GraphCodecs
import Synchronization

/// An image file opened (its header read, header errors thrown at open) but not yet decoded: its
/// pixels decode when a render is planned (``ResolveFileSources``), on a thread of their own, top
/// first, so the render starts on the top rows while the bottom ones decode; an error in the image
/// data fails the render that reads it.
///
/// A render that may read the image in any order gets the whole decode, kept and shared by every
/// render of the image (``buffer(scale:)``). A render that reads it once, top to bottom (a streamed
/// encode) gets a *windowed* decode of its own (``sequentialBuffer(scale:)``): rows decode as the
/// render demands them and are released behind it (``RowProgress``), so memory holds a window of
/// rows whatever the height. JPEG files (``JPEGFileSource``) also decode at reduced DCT scales;
/// PNG files (``PNGFileSource``) at full size only.
package protocol FileSource: AnyObject, Sendable {
    var path: String { get }
    var format: ImageFormat { get }
    /// Full-size dimensions.
    var width: Int { get }
    var height: Int { get }
    /// The colour space from the ICC profile (or an override; nil: data).
    var colorSpace: ColorSpace? { get }
    /// Whether it has no alpha channel.
    var isOpaque: Bool { get }
    var metadata: ImageMetadata { get }
    /// Header warnings and colour-tagging notes.
    var warnings: [String] { get }
    /// The whole decodes made so far, per scale.
    var wholeDecodes: WholeDecodes { get }
    /// Starts decoding at 1/`scale` on a background thread and returns the buffer it fills (see
    /// ``startBackgroundDecode(width:height:format:alphaMode:windowed:decode:)``); `windowed`: only
    /// as far as the render demands, releasing the rows it has passed.
    func startDecode(scale: Int, windowed: Bool) throws -> ImageBuffer
    /// The size of a decode at 1/`scale` (2, 4 or 8), or nil when the file decodes at full size only:
    /// a JPEG decodes at reduced DCT scales, a PNG does not (``ResolveFileSources`` reads a reduced
    /// decode where a render shrinks the image).
    func reducedSize(scale: Int) -> (width: Int, height: Int)?
}

extension FileSource {
    /// The image decoded at 1/`scale`, streaming; the same buffer every time.
    package func buffer(scale: Int) throws -> ImageBuffer {
        try wholeDecodes.buffer(scale: scale) { try startDecode(scale: scale, windowed: false) }
    }

    /// A decode at 1/`scale` of its own for one render that reads the image once, top to bottom
    /// (a streamed encode): windowed, so only the rows near the band being rendered are held.
    /// Not kept: the rows it released are gone.
    package func sequentialBuffer(scale: Int) throws -> ImageBuffer {
        if let done = wholeDecodes.existing(scale: scale) { return done }  // decoded whole already: reuse it
        return try startDecode(scale: scale, windowed: true)
    }

    package var label: String {
        "\(format.rawValue) \(width)x\(height) \(colorSpace.map { "\"\($0.name)\"" } ?? "data") (decoded on demand) "
            + (path as NSString).lastPathComponent
    }

    /// A new buffer that `decode` fills top first on a detached thread of its own (a pool worker
    /// blocked in a decoder could starve the executor). `decode` gets the buffer and its progress
    /// and fills it with ``RowProgress/fill(_:from:path:readRows:)``; an error it throws fails the
    /// progress, naming the file, and so the render reading the buffer.
    package func startBackgroundDecode(width: Int, height: Int, format: PixelFormat, alphaMode: AlphaMode, windowed: Bool,
                               decode: @escaping @Sendable (ImageBuffer, RowProgress) throws -> Void) throws -> ImageBuffer {
        let progress = RowProgress(rows: height, windowed: windowed)
        let buffer = try ImageBuffer(width: width, height: height, format: format, alphaMode: alphaMode,
                                     colorSpace: colorSpace, rowProgress: progress)
        let path = self.path
        let thread = Thread {
            do {
                try decode(buffer, progress)
            } catch {
                progress.fail("\(path): \(error)")
            }
        }
        thread.stackSize = 1 << 20
        thread.start()
        return buffer
    }
}

/// The whole decodes of one file source, per scale: each started once and kept while the source
/// lives (an image rendered again reads the same pixels).
package final class WholeDecodes: Sendable {
    private let decoded = Mutex<[Int: ImageBuffer]>([:])

    package init() {}

    /// The decode at 1/`scale`, started by `start` the first time.
    func buffer(scale: Int, start: () throws -> ImageBuffer) rethrows -> ImageBuffer {
        if let done = existing(scale: scale) { return done }
        let buffer = try start()
        return decoded.withLock { cache in
            if let raced = cache[scale] { return raced }
            cache[scale] = buffer
            return buffer
        }
    }

    /// The decode at 1/`scale` if one was started.
    func existing(scale: Int) -> ImageBuffer? { decoded.withLock { $0[scale] } }
}

/// Where a file source's compressed bytes are.
package enum EncodedBytes: Sendable {
    /// In memory (an embedded image, bytes handed over whole).
    case bytes([UInt8])
    /// An open file and its first bytes (a JPEG's through its first SOS segment; 64 KiB of others:
    /// ``InputFile/jpegHeader()``); the rest is read as the decoder goes.
    case file(InputFile, header: [UInt8])

    /// The first bytes (for the format check).
    package var head: [UInt8] {
        switch self {
        case .bytes(let bytes): return bytes
        case .file(_, let header): return header
        }
    }

    /// Throws if the file was written since it was opened (``InputFile/checkUnchanged()``); bytes
    /// in memory cannot change.
    package func checkUnchanged() throws {
        if case .file(let file, _) = self { try file.checkUnchanged() }
    }

    /// The whole compressed file (for a re-encode without a render, or to embed it).
    package func fileBytes() throws(CodecError) -> [UInt8] {
        switch self {
        case .bytes(let bytes): return bytes
        case .file(let file, _): return try file.readAll()
        }
    }
}
