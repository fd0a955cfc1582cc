@testable import GraphCodecs

extension FuzzTarget {
    /// A whole JPEG file as an iPhone writes a depth photo: the primary's end found by the
    /// marker walk, its MPF index, the auxiliary JPEG streams the index names (or that a scan
    /// finds after stale offsets), each described from its own header and XMP. Then the streams
    /// found are written back with `MPF.assemble` and read again: the new index must name
    /// exactly those streams, byte for byte, at offsets that land on them.
    static let auxJPEG = FuzzTarget(name: "aux-jpeg") { bytes in
        let primaryEnd = JPEGStreams.endOfStream(bytes, from: 0)
        guard let info = try? JPEGCodec.readInfo(bytes, auxiliaryImages: false) else { return }
        var warnings: [String] = []
        let streams = JPEGStreams.auxiliaryImages(in: bytes, entries: info.metadata.mpfEntries, warnings: &warnings)
        for stream in streams {
            guard stream.range.lowerBound >= 0, stream.range.upperBound <= bytes.count,
                  bytes[stream.range].starts(with: [0xFF, 0xD8]) else {
                fatalError("auxiliaryImages returned \(stream.range), not a JPEG stream inside the \(bytes.count) bytes")
            }
            if stream.complete, JPEGStreams.endOfStream(bytes, from: stream.range.lowerBound) != stream.range.upperBound {
                fatalError("a complete stream at \(stream.range) does not end where endOfStream says")
            }
        }
        _ = JPEGAuxiliaryImages.describe(bytes, metadata: info.metadata, warnings: &warnings)

        // Round trip: the primary and the complete auxiliary streams, assembled and read back.
        guard let primaryEnd else { return }
        let auxiliaries = streams.filter { $0.complete && $0.range.lowerBound >= primaryEnd }.map { Array(bytes[$0.range]) }
        guard let assembled = try? MPF.assemble(primary: Array(bytes[..<primaryEnd]), auxiliaries: auxiliaries) else { return }
        guard let reread = try? JPEGCodec.readInfo(assembled, auxiliaryImages: false) else {
            fatalError("MPF.assemble wrote a file whose header no longer reads")
        }
        var rereadWarnings: [String] = []
        let found = JPEGStreams.auxiliaryImages(in: assembled, entries: reread.metadata.mpfEntries, warnings: &rereadWarnings)
        guard reread.metadata.mpfEntries.count == auxiliaries.count + 1, found.count == auxiliaries.count,
              zip(found, auxiliaries).allSatisfy({ !$0.foundByScan && $0.complete && Array(assembled[$0.range]) == $1 }) else {
            fatalError("MPF.assemble of \(auxiliaries.count) auxiliary images reads back as \(reread.metadata.mpfEntries.count) MP entries and \(found.count) streams (\(rereadWarnings))")
        }
    }

    /// The XMP packet of an iPhone auxiliary image (`apdi:`, `depthData:`, `portraitEffectsMatte:`
    /// properties): parsed, written back with `AppleDepthXMP.packet` and parsed again, which must
    /// give the same metadata.
    static let appleXMP = FuzzTarget(name: "apple-xmp") { bytes in
        guard let metadata = AppleDepthXMP.parse(String(decoding: bytes, as: UTF8.self)) else { return }
        _ = metadata.valueEncodingProblem
        _ = metadata.isPortraitEffectsMatte
        _ = metadata.nativeFormat.map(AppleAuxiliaryMetadata.fourCC)
        let reread = AppleDepthXMP.parse(AppleDepthXMP.packet(metadata)) ?? AppleAuxiliaryMetadata()
        if reread != metadata {
            fatalError("AppleDepthXMP.packet does not read back:\n\(metadata)\n\(reread)")
        }
    }

    /// GDepth XMP: the main packet, a NUL byte, then the extended packet (no NUL: main packet
    /// only). Parsed as the JPEG reader does (as XDM too); what parses is written back with
    /// `GDepth.packets` and must read back the same. The base64 decoder is checked on the whole
    /// input too: whatever it decodes re-encodes and decodes to the same bytes.
    static let gDepth = FuzzTarget(name: "gdepth") { bytes in
        let split = bytes.firstIndex(of: 0)
        let main = String(decoding: bytes[..<(split ?? bytes.endIndex)], as: UTF8.self)
        let extended = split.map { String(decoding: bytes[($0 + 1)...], as: UTF8.self) }
        if let decoded = Base64.decode(bytes), Base64.decode(Base64.encode(decoded)) != decoded {
            fatalError("Base64 does not round-trip \(decoded.count) bytes")
        }
        _ = GDepth.isPresent(inMainPacket: main)
        _ = GDepth.focusProperties(inMainPacket: main)
        // The same packets as Intel XDM (RealSense), which stores its depth map the same way.
        if let xdm = try? XDM.parse(mainPacket: main, extendedPacket: extended) { _ = xdm.depth(normalized: 0.5) }
        guard let parsed = try? GDepth.parse(mainPacket: main, extendedPacket: extended) else { return }
        _ = parsed.depth(normalized: 0.5)
        _ = parsed.normalized(depth: parsed.near)
        let packets = GDepth.packets(parsed, focus: GDepth.focusProperties(inMainPacket: main))
        let reread: GDepthMetadata?
        do throws(CodecError) {
            reread = try GDepth.parse(mainPacket: packets.main, extendedPacket: packets.extended)
        } catch {
            fatalError("GDepth.packets wrote packets that do not parse: \(error.message)")
        }
        if reread != parsed {
            fatalError("GDepth.packets does not read back:\n\(parsed)\n\(String(describing: reread))")
        }
    }

    /// Any XMP packet through the namespace-aware property scanner, every property then read
    /// as text, number, list and Boolean as the depth readers do.
    static let xmpProperties = FuzzTarget(name: "xmp-props") { bytes in
        let properties = XMPProperties.parse(String(decoding: bytes, as: UTF8.self))
        for name in properties.values.keys {
            _ = properties.text(name.namespace, name.local)
            _ = properties.number(name.namespace, name.local)
            _ = properties.numbers(name.namespace, name.local)
            _ = properties.bool(name.namespace, name.local)
            _ = properties.hasNamespace(name.namespace)
        }
    }

    /// A `.cube` colour table (Adobe/Resolve text), as `CIColorCube` recipes load it.
    static let cube = FuzzTarget(name: "cube") { bytes in
        guard let table = try? CubeLUT(bytes: bytes) else { return }
        let n = table.dimension
        guard (2...CubeLUT.dimensionLimit).contains(n), table.rgb.count == n * n * n * 3, table.rgbaFloats.count == n * n * n * 4 else {
            fatalError("CubeLUT of dimension \(n) holds \(table.rgb.count) values")
        }
    }
}
