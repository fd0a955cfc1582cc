import Dispatch
import GraphCodecs

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Context {
    /// Renders `image` in bands of rows, top first, and PNG-filters each band on another thread
    /// while the next band renders (a ring of three bands between them, as for JPEG), which hands
    /// the filtered rows to the context's worker count of compression threads (``PNGRowEncoder``):
    /// neither the pixels nor, with a file destination, the file is ever held whole (a
    /// 32768×32768 output needed 4 GiB of pixels and a 4 GiB copy of them).
    ///
    /// The file is RGB when every pixel is opaque and RGBA with straight alpha otherwise, which is
    /// known only at the end; so the encode starts as RGB when alpha may be 1 everywhere and, at the
    /// first pixel that is not opaque, starts over as RGBA (the destination rewound). A destination
    /// that cannot be rewound (a pipe) gets RGBA from the start unless the image is known opaque.
    /// A `.data` output (a depth map, a mask) starts the same way as grey, and starts over in colour
    /// at the first pixel whose red, green and blue differ.
    func streamedPNG(_ image: Image, bitDepth: Int, colorSpace: OutputColorSpace?, iccProfile: [UInt8]?,
                     exif: [UInt8]?, xmp: String?, destination: EncodeDestination,
                     progress: RenderProgress?) throws -> [UInt8] {
        let area = try renderRect(image, nil)
        let format: PixelFormat = bitDepth == 16 ? .rgba16 : .rgba8
        let start = destination.offset
        var speculateOpaque: Bool?
        var speculateGrey = start != nil && colorSpace == .data
        while true {
            // Planned for each attempt: the files it reads decode windowed, for one pass only.
            let (root, plan, _) = try self.plan(image, rect: area, destination: format, colorSpace: colorSpace,
                                                sequential: true)
            defer { SequentialSourceReads.stopDecodes(of: root) }
            var executor = backend(for: plan)
            executor.progress = progress
            if speculateOpaque == nil { speculateOpaque = start != nil || Opacity.isOpaque(root) }
            progress?.restart(expecting: area.pixelCount)
            let pixelBytes = 4 * bitDepth / 8
            let (bands, reads) = try streamedBands(&executor, area: area, outputBytesPerPixel: pixelBytes, ringSlots: 3) {
                PNGRowEncoder.workingBytes(rowBytes: area.width * pixelBytes, threads: $0)
            }
            let settings = PNGBands(area: area, bitDepth: bitDepth, grey: speculateGrey, alpha: speculateOpaque != true,
                                    bands: bands, reads: reads)
            let encoder = try PNGRowEncoder(width: area.width, height: area.height, channels: settings.channels,
                                            bitDepth: bitDepth, iccProfile: iccProfile, exif: exif, xmp: xmp,
                                            threads: executor.threads, fileDescriptor: destination.fileDescriptor)
            do {
                try encodeBands(backend: executor, settings: settings, encoder: encoder)
                try plan.checkStreamingSources()
                return try encoder.finish()
            } catch let wider as WiderLayoutNeeded {
                // Some pixel has alpha or colour: start over wider from where the file began.
                if wider.alpha { speculateOpaque = false }
                if wider.colour { speculateGrey = false }
                try destination.rewind(to: start)
            }
        }
    }

    /// Renders the bands of `settings.area` into a ring and feeds them to `encoder` on a thread of
    /// its own. Throws ``WiderLayoutNeeded`` when an encode without alpha meets a pixel that is not
    /// opaque, or a grey encode one that is not grey.
    private func encodeBands(backend: some Backend, settings: PNGBands, encoder: PNGRowEncoder) throws {
        let area = settings.area, bandRows = settings.bands.first?.height ?? 1
        let rowBytes = area.width * 4 * settings.bytesPerSample
        let ring = BandRing(count: 3, bandBytes: rowBytes * bandRows)
        let consumer = PNGBandConsumer(encoder: encoder, ring: ring, settings: settings)
        guard let thread = JoinableThread({ consumer.run() }) else {
            throw GraphError.renderFailed("could not start the encoder thread")
        }
        let format: PixelFormat = settings.bytesPerSample == 2 ? .rgba16 : .rgba8
        try renderBands(settings.bands, reads: settings.reads, backend: backend, format: format,
                        rowBytes: rowBytes, ring: ring, encoderThread: thread)
        if let wider = consumer.widerLayout { throw wider }
        if let failure = consumer.failure { throw failure }
    }
}

/// Where an encoded file goes: memory (its bytes are returned) or an open file descriptor
/// (streamed at its current offset).
enum EncodeDestination {
    case memory
    case file(Int32)

    var fileDescriptor: Int32? {
        if case .file(let fd) = self { return fd }
        return nil
    }

    /// Where the file starts, when the destination can be rewound there (memory always can: the
    /// next encoder starts a new buffer); nil for a pipe or socket.
    var offset: Int? {
        guard case .file(let fd) = self else { return 0 }
        let position = lseek(fd, 0, SEEK_CUR)
        return position < 0 ? nil : Int(position)
    }

    /// Hands over a file encoded whole: returned for memory, written to the descriptor (then `[]`).
    func deliver(_ bytes: [UInt8]) throws -> [UInt8] {
        guard case .file(let fd) = self else { return bytes }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CodecError(.io, "write failed: \(String(cString: strerror(errno)))")
            }
            written += count
        }
        return []
    }

    /// Drops what was written since `offset` and continues writing there.
    func rewind(to offset: Int?) throws {
        guard case .file(let fd) = self else { return }
        guard let offset, ftruncate(fd, off_t(offset)) == 0, lseek(fd, off_t(offset), SEEK_SET) >= 0 else {
            throw GraphError.renderFailed("cannot rewind the output file to write it again with alpha")
        }
    }
}

/// A pixel the encode's layout cannot hold turned up: one with alpha in a layout without, or one
/// in colour in a grey layout.
private struct WiderLayoutNeeded: Error {
    var alpha = false
    var colour = false
}

/// The shape of a banded PNG encode.
private struct PNGBands {
    let area: PixelRect
    let bitDepth: Int
    /// Grey (every pixel so far grey) or RGB.
    let grey: Bool
    /// Straight alpha, or none (every pixel so far opaque).
    let alpha: Bool
    /// The bands, top first, and how they read windowed sources.
    let bands: [PixelRect]
    let reads: SequentialSourceReads
    var bytesPerSample: Int { bitDepth / 8 }
    var channels: Int { (grey ? 1 : 3) + (alpha ? 1 : 0) }
}

/// The encoder side of a banded PNG encode: turns each premultiplied RGBA band into the layout's
/// straight samples (RGBA, RGB, grey and alpha, or grey), then compresses it.
private final class PNGBandConsumer: @unchecked Sendable {
    let encoder: PNGRowEncoder
    let ring: BandRing
    let settings: PNGBands
    /// Set by the encoder thread before it ends; read after joining it.
    var failure: CodecError?
    var widerLayout: WiderLayoutNeeded?

    init(encoder: PNGRowEncoder, ring: BandRing, settings: PNGBands) {
        self.encoder = encoder
        self.ring = ring
        self.settings = settings
    }

    func run() {
        let width = settings.area.width
        while let (slot, rows, _) = ring.acquireFilled() {
            if rows == 0 {
                ring.release()
                return
            }
            let band = ring.band(slot)
            let pixels = width * rows
            let fits = settings.bitDepth == 16
                ? StraightAlpha.pack(band.assumingMemoryBound(to: UInt16.self), pixels: pixels, settings: settings)
                : StraightAlpha.pack(band.assumingMemoryBound(to: UInt8.self), pixels: pixels, settings: settings)
            if let wider = fits {
                widerLayout = wider
                ring.cancel()
                return
            }
            do {
                try encoder.writeRows(band, rowBytes: width * settings.channels * settings.bytesPerSample, count: rows)
            } catch {
                failure = error
                ring.cancel()
                return
            }
            ring.release()
        }
    }
}

/// Premultiplied RGBA samples to what PNG stores.
enum StraightAlpha {
    /// Premultiplied native-endian RGBA (8 or 16-bit) to straight, in place, rounding to nearest;
    /// returns whether every pixel is opaque.
    static func convert<Sample: FixedWidthInteger & UnsignedInteger>(_ words: UnsafeMutablePointer<Sample>, pixels: Int) -> Bool {
        var opaque = true
        let one = Int(Sample.max)
        for i in 0..<pixels {
            let a = Int(words[i * 4 + 3])
            if a == one { continue }
            opaque = false
            for c in 0..<3 {
                let value = a == 0 ? 0 : min(one, (Int(words[i * 4 + c]) * one + a / 2) / a)
                words[i * 4 + c] = Sample(value)
            }
        }
        return opaque
    }

    /// Premultiplied RGBA to the layout's straight samples in place; nil when done, or what the
    /// layout lacks for some pixel (the band is then left half converted).
    fileprivate static func pack<Sample: FixedWidthInteger & UnsignedInteger>(
        _ words: UnsafeMutablePointer<Sample>, pixels: Int, settings: PNGBands
    ) -> WiderLayoutNeeded? {
        let opaque = convert(words, pixels: pixels)
        if !settings.alpha && !opaque { return WiderLayoutNeeded(alpha: true) }
        if settings.grey {
            let step = settings.channels
            for i in 0..<pixels {
                let grey = words[i * 4]
                guard words[i * 4 + 1] == grey, words[i * 4 + 2] == grey else { return WiderLayoutNeeded(colour: true) }
                let alpha = words[i * 4 + 3]
                words[i * step] = grey
                if settings.alpha { words[i * step + 1] = alpha }
            }
        } else if !settings.alpha {
            dropAlpha(words, pixels: pixels)
        }
        return nil
    }

    /// RGBA to RGB in place (each pixel moves down to 3 samples).
    static func dropAlpha<Sample>(_ words: UnsafeMutablePointer<Sample>, pixels: Int) {
        for i in 0..<pixels {
            words[i * 3] = words[i * 4]
            words[i * 3 + 1] = words[i * 4 + 1]
            words[i * 3 + 2] = words[i * 4 + 2]
        }
    }
}
