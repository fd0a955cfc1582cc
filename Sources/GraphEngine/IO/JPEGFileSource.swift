import Foundation
import GraphCodecs
import Synchronization

/// A JPEG file opened but not yet decoded. A render decides how much of it is needed: when the
/// image is only shown shrunk (an affine transform scaling by 1/2 or less), the planner asks for a
/// DCT-scaled decode at 1/2, 1/4 or 1/8 (libjpeg decodes fewer coefficients: much faster), and
/// at full size otherwise. Each scale is decoded once, streaming (a background thread fills rows
/// while the render reads them), and kept; a streamed encode gets a windowed decode of its own
/// instead (see ``sequentialBuffer(scale:)``).
///
/// A file opened by path stays open and its scan data is read as rows decode: only its header
/// is read at open, so the compressed file is never held whole either.
package final class JPEGFileSource: Sendable {
    package let path: String
    /// Full-size dimensions.
    package let width: Int, height: Int
    /// The colour space from the ICC profile (or an override; nil: data).
    package let colorSpace: ColorSpace?
    package let metadata: ImageMetadata
    /// Header warnings and colour-tagging notes.
    package let warnings: [String]
    /// Channels it decodes to: 3 for colour (CMYK is converted), 1 for grey.
    let channels: Int
    /// Where the compressed bytes are.
    enum Data: Sendable {
        /// In memory (an embedded image, bytes handed over whole).
        case bytes([UInt8])
        /// An open file and its header (through the first SOS segment).
        case file(InputFile, header: [UInt8])
    }
    let data: Data
    let options: DecodeOptions
    private let decoded = Mutex<[Int: ImageBuffer]>([:])

    /// Reads the header; nil when the file isn't a JPEG or has an EXIF orientation to apply (that
    /// needs the whole image, so it is decoded at once instead).
    init?(path: String, data: Data, options: DecodeOptions, colorSpace: ColorSpace??) throws {
        guard (try? ImageFile.format(of: data.head)) == .jpeg else { return nil }
        let info: (width: Int, height: Int, channels: Int, metadata: ImageMetadata, warnings: [String])
        do {
            info = try data.withDecoder(options: options) { ($0.width, $0.height, $0.channels, $0.metadata, $0.warnings) }
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

    /// The whole compressed file (for a re-encode without a render, or to embed it).
    func fileBytes() throws(CodecError) -> [UInt8] {
        switch data {
        case .bytes(let bytes): return bytes
        case .file(let file, _): return try file.readAll()
        }
    }

    /// The image decoded at 1/`scale` (1, 2, 4 or 8), streaming; the same buffer every time.
    func buffer(scale: Int) throws -> ImageBuffer {
        if let done = decoded.withLock({ $0[scale] }) { return done }
        let buffer = try startDecode(scale: scale, windowed: false)
        return decoded.withLock { cache in
            if let raced = cache[scale] { return raced }
            cache[scale] = buffer
            return buffer
        }
    }

    /// A decode at 1/`scale` of its own for one render that reads the image once, top to bottom
    /// (a streamed encode): windowed, so only the rows near the band being rendered are held.
    /// Not kept: the rows it released are gone.
    func sequentialBuffer(scale: Int) throws -> ImageBuffer {
        if let done = decoded.withLock({ $0[scale] }) { return done }  // decoded whole already: reuse it
        return try startDecode(scale: scale, windowed: true)
    }

    /// The size of the decode at 1/`scale` (libjpeg rounds up).
    func size(scale: Int) -> (width: Int, height: Int) {
        ((width + scale - 1) / scale, (height + scale - 1) / scale)
    }

    var label: String {
        "jpeg \(width)x\(height) \(colorSpace.map { "\"\($0.name)\"" } ?? "data") (decoded on demand) \((path as NSString).lastPathComponent)"
    }
}

extension JPEGFileSource.Data {
    /// The first bytes (for the format check).
    var head: [UInt8] {
        switch self {
        case .bytes(let bytes): return bytes
        case .file(_, let header): return header
        }
    }

    /// Runs `body` with a decoder of the data: reading the bytes in place, or the file as it goes.
    func withDecoder<Result>(options: DecodeOptions, _ body: (JPEGRowDecoder) throws -> Result) throws -> Result {
        switch self {
        case .bytes(let bytes):
            return try JPEGRowDecoder.reading(bytes, options: options, body)
        case .file(let file, let header):
            return try body(JPEGRowDecoder(fileDescriptor: file.descriptor, byteCount: file.byteCount, header: header,
                                           options: options))
        }
    }
}

/// Turns JPEG file sources into buffers before a render is planned, picking for each use the
/// smallest DCT scale that still gives it every pixel it needs: an affine transform that shrinks
/// the image by `s ≤ 1/2` reads a 1/k decode (k = 2, 4 or 8 with `s·k ≤ 1`) through the transform
/// rescaled by k. Everything else reads the full-size decode.
///
/// `sequential`: the render reads the image once, top to bottom (a streamed encode), so each file
/// gets a windowed decode of its own (``JPEGFileSource/sequentialBuffer(scale:)``), shared by every
/// use of it in this graph.
enum ResolveFileSources {
    static func run(_ root: Node, log: inout [String], sequential: Bool = false) throws -> Node {
        var failure: Error?
        var own: [DecodeKey: ImageBuffer] = [:]
        func decode(_ source: JPEGFileSource, scale: Int) throws -> ImageBuffer {
            guard sequential else { return try source.buffer(scale: scale) }
            let key = DecodeKey(source: ObjectIdentifier(source), scale: scale)
            if let buffer = own[key] { return buffer }
            let buffer = try source.sequentialBuffer(scale: scale)
            own[key] = buffer
            return buffer
        }
        /// The file an affine transform reads and the reduced scale it can read it at, if any.
        func reducedRead(_ node: Node) -> (source: JPEGFileSource, scale: Int, transform: AffineTransform, filter: SamplingFilter)? {
            guard case .affine(let transform, let filter) = node.kind, let input = node.inputs.first,
                  case .file(let source) = input.kind, let scale = reduction(for: transform) else { return nil }
            return (source, scale, transform, filter)
        }
        var rewriter = GraphRewriter()
        // A reduced read replaces the transform and its file together: the file is not visited
        // through it (only where something else reads it at full size).
        let resolved = rewriter.rewrite(root, descend: { reducedRead($0) == nil && !readsFileThroughResample($0) }) { node in
            if case .file(let source) = node.kind {
                do {
                    return Node(.buffer(try decode(source, scale: 1)), inputs: [], extent: node.extent)
                } catch {
                    failure = failure ?? error
                    return node
                }
            }
            if readsFileThroughResample(node) {
                return resampleFromReducedDecode(node, log: &log, failure: &failure, decode: decode) ?? node
            }
            guard let (source, scale, transform, filter) = reducedRead(node) else { return node }
            do {
                let reduced = try decode(source, scale: scale)
                let size = source.size(scale: scale)
                let toFull = AffineTransform(scaleX: Double(source.width) / Double(size.width),
                                             y: Double(source.height) / Double(size.height))
                let buffer = Node(.buffer(reduced), inputs: [], extent: Rect(x: 0, y: 0, width: Double(size.width),
                                                                             height: Double(size.height)))
                log.append("\(source.label): decoded at 1/\(scale) (\(size.width)x\(size.height)) for affine \(transform)")
                return Node(.affine(toFull.concatenating(transform), filter), inputs: [buffer], extent: node.extent)
            } catch {
                failure = failure ?? error
                return node
            }
        }
        if let failure { throw failure }
        return resolved
    }

    private struct DecodeKey: Hashable {
        let source: ObjectIdentifier
        let scale: Int
    }

    /// The largest k in {8, 4, 2} with `scale·k ≤ 1` for the transform's larger axis scale, or nil.
    static func reduction(for transform: AffineTransform) -> Int? {
        let scale = max((transform.a * transform.a + transform.b * transform.b).squareRoot(),
                        (transform.c * transform.c + transform.d * transform.d).squareRoot())
        return [8, 4, 2].first { scale * Double($0) <= 1 + 1e-9 }
    }
}
