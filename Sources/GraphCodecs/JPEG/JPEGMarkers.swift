/// JPEG marker-level parsing: the header walk (SOI ... SOS) in pure Swift, and turning APPn
/// segments into `ImageMetadata` (EXIF, XMP, Extended XMP, ICC chunks, MPF, Adobe, COM).
///
/// The decoder feeds this with libjpeg's saved markers (jpeg_save_markers); the header-only
/// `info` path feeds it with the Swift walk, which also supplies absolute file offsets.
struct JPEGSegment {
    /// The marker code's second byte (0xE0...0xEF for APP0...15, 0xFE for COM).
    var marker: UInt8
    /// Absolute offset of the 0xFF marker byte, when known.
    var offset: Int?
    var payload: [UInt8]

    /// Absolute offset of the payload (after the marker and length), when known.
    var payloadOffset: Int? { offset.map { $0 + 4 } }
}

/// The frame header (SOFn) fields.
struct JPEGFrameHeader {
    var marker: UInt8
    var precision: Int
    var width: Int
    var height: Int
    /// (id, h, v) per component.
    var components: [(id: Int, h: Int, v: Int)]

    var progressive: Bool { [0xC2, 0xC6, 0xCA, 0xCE].contains(marker) }
    var arithmetic: Bool { marker >= 0xC9 }
    var lossless: Bool { [0xC3, 0xC7, 0xCB, 0xCF].contains(marker) }
}

enum JPEGMarkers {
    static let iccPrefix: [UInt8] = Array("ICC_PROFILE".utf8) + [0]

    /// Walks the marker segments from SOI to the first SOS (never into entropy-coded data).
    /// Returns the APPn/COM segments, the frame header and a note when the walk was cut short.
    static func scanHeader(_ data: [UInt8]) -> (segments: [JPEGSegment], frame: JPEGFrameHeader?, problem: String?) {
        var segments: [JPEGSegment] = []
        var frame: JPEGFrameHeader?
        guard data.count >= 2, data[0] == 0xFF, data[1] == 0xD8 else { return ([], nil, "no SOI marker") }
        var position = 2
        let reader = ByteReader(data)
        while position < data.count {
            guard data[position] == 0xFF else {
                return (segments, frame, "expected a marker at offset \(position)")
            }
            var markerAt = position
            while markerAt + 1 < data.count, data[markerAt + 1] == 0xFF { markerAt += 1 }  // fill bytes
            guard let marker = reader.u8(markerAt + 1) else { break }
            position = markerAt + 2
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }  // standalone
            if marker == 0xD9 { break }
            guard let length = reader.u16(position).map(Int.init), length >= 2 else {
                return (segments, frame, "truncated segment length at offset \(position)")
            }
            guard let payload = reader.slice(position + 2, length - 2) else {
                return (segments, frame, "segment 0x\(String(marker, radix: 16)) at offset \(markerAt) runs past the end")
            }
            if (0xE0...0xEF).contains(marker) || marker == 0xFE {
                segments.append(JPEGSegment(marker: marker, offset: markerAt, payload: payload))
            }
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC, frame == nil {
                let header = ByteReader(payload)
                if let precision = header.u8(0), let height = header.u16(1), let width = header.u16(3),
                    let count = header.u8(5)
                {
                    var components: [(id: Int, h: Int, v: Int)] = []
                    for c in 0..<Int(count) {
                        guard let id = header.u8(6 + c * 3), let hv = header.u8(7 + c * 3) else { break }
                        components.append((Int(id), Int(hv >> 4), Int(hv & 0xF)))
                    }
                    frame = JPEGFrameHeader(
                        marker: marker, precision: Int(precision), width: Int(width), height: Int(height),
                        components: components)
                }
            }
            if marker == 0xDA { break }
            position += length
        }
        return (segments, frame, nil)
    }

    /// The offset just past the first SOS segment's header, or nil when `data` ends before it
    /// (or is not a JPEG). A header prefix of this length is all ``scanHeader(_:)`` reads.
    static func headerLength(_ data: [UInt8]) -> Int? {
        guard data.count >= 2, data[0] == 0xFF, data[1] == 0xD8 else { return nil }
        var position = 2
        let reader = ByteReader(data)
        while position < data.count {
            guard data[position] == 0xFF else { return nil }
            var markerAt = position
            while markerAt + 1 < data.count, data[markerAt + 1] == 0xFF { markerAt += 1 }  // fill bytes
            guard let marker = reader.u8(markerAt + 1) else { return nil }
            position = markerAt + 2
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }  // standalone
            guard marker != 0xD9, let length = reader.u16(position).map(Int.init), length >= 2 else { return nil }
            position += length
            if marker == 0xDA { return position <= data.count ? position : nil }
        }
        return nil
    }

    /// A short name for a segment, used in `ImageMetadata.segments` and error messages.
    static func name(of segment: JPEGSegment) -> String {
        let p = segment.payload
        switch segment.marker {
        case 0xFE: return "COM"
        case 0xE0 where p.hasBytePrefix(Array("JFIF".utf8) + [0]): return "APP0 JFIF"
        case 0xE0 where p.hasBytePrefix(Array("JFXX".utf8) + [0]): return "APP0 JFXX"
        case 0xE1 where p.hasBytePrefix(EXIF.jpegPrefix): return "APP1 Exif"
        case 0xE1 where p.hasBytePrefix(XMP.jpegPrefix): return "APP1 XMP"
        case 0xE1 where p.hasBytePrefix(XMP.extendedPrefix): return "APP1 ExtendedXMP"
        case 0xE2 where p.hasBytePrefix(iccPrefix):
            return p.count >= 14 ? "APP2 ICC_PROFILE \(p[12])/\(p[13])" : "APP2 ICC_PROFILE"
        case 0xE2 where p.hasBytePrefix(MPF.jpegPrefix): return "APP2 MPF"
        case 0xEE where p.hasBytePrefix(Array("Adobe".utf8)): return "APP14 Adobe"
        default:
            let n = Int(segment.marker) - 0xE0
            let tag = p.prefix(while: { $0 >= 0x20 && $0 < 0x7F }).prefix(24)
            return tag.isEmpty ? "APP\(n)" : "APP\(n) \(String(decoding: tag, as: UTF8.self))"
        }
    }

    /// Fills the JPEG metadata fields of `metadata` from APPn/COM segments.
    static func apply(segments: [JPEGSegment], to metadata: inout ImageMetadata, warnings: inout [String]) {
        var iccChunks: [(sequence: Int, count: Int, data: ArraySlice<UInt8>)] = []
        var extendedChunks: [XMP.Chunk] = []
        for segment in segments {
            let p = segment.payload
            metadata.segments.append(MetadataSegment(name: name(of: segment), offset: segment.offset ?? -1, length: p.count))
            switch segment.marker {
            case 0xE1 where p.hasBytePrefix(EXIF.jpegPrefix):
                guard metadata.exif == nil else { warnings.append("extra APP1 Exif segment ignored"); continue }
                EXIF.apply(tiff: Array(p[EXIF.jpegPrefix.count...]), to: &metadata, warnings: &warnings)
            case 0xE1 where p.hasBytePrefix(XMP.jpegPrefix):
                guard metadata.xmp == nil else { warnings.append("extra APP1 XMP segment ignored"); continue }
                metadata.xmp = XMP.packetText(Array(p[XMP.jpegPrefix.count...]))
            case 0xE1 where p.hasBytePrefix(XMP.extendedPrefix):
                if let chunk = XMP.parseChunk(p) {
                    extendedChunks.append(chunk)
                } else {
                    warnings.append("malformed extended XMP chunk (APP1) ignored")
                }
            case 0xE2 where p.hasBytePrefix(iccPrefix):
                guard p.count >= 14 else { warnings.append("ICC_PROFILE chunk too short"); continue }
                iccChunks.append((Int(p[12]), Int(p[13]), p[14...]))
            case 0xE2 where p.hasBytePrefix(MPF.jpegPrefix):
                guard metadata.mpfEntries.isEmpty else { continue }
                metadata.mpfEntries = MPF.parse(payload: p, tiffHeaderOffset: segment.payloadOffset.map { $0 + 4 }, warnings: &warnings)
            case 0xEE where p.hasBytePrefix(Array("Adobe".utf8)) && p.count >= 12:
                metadata.jpegAdobeTransform = Int(p[11])
            case 0xFE:
                metadata.comments.append(String(decoding: p, as: UTF8.self))
            default:
                break
            }
        }
        if !iccChunks.isEmpty {
            metadata.iccProfile = assembleICC(iccChunks, warnings: &warnings)
        }
        let expected = metadata.xmp.flatMap(XMP.extendedGUID(inMainPacket:))
        if !extendedChunks.isEmpty || expected != nil,
            let extended = XMP.reassemble(chunks: extendedChunks, expectedGUID: expected, warnings: &warnings)
        {
            metadata.extendedXMPGUID = extended.guid
            metadata.extendedXMPLength = extended.fullLength
            metadata.extendedXMP = extended.text
            metadata.extendedXMPDigestMatches = extended.digestMatches
        }
    }

    /// Joins APP2 ICC_PROFILE chunks by sequence number (1-based; any order). Duplicate or
    /// zero sequence numbers and count mismatches are warnings; a missing chunk is a warning
    /// and drops the profile (a partial profile is not a profile).
    static func assembleICC(
        _ chunks: [(sequence: Int, count: Int, data: ArraySlice<UInt8>)], warnings: inout [String]
    ) -> [UInt8]? {
        var bySequence: [Int: ArraySlice<UInt8>] = [:]
        let counts = Set(chunks.map(\.count))
        if counts.count > 1 {
            warnings.append("ICC_PROFILE chunks disagree on the chunk count (\(counts.sorted().map(String.init).joined(separator: ", ")))")
        }
        for chunk in chunks {
            if chunk.sequence == 0 {
                warnings.append("ICC_PROFILE chunk with sequence number 0 ignored")
                continue
            }
            if bySequence[chunk.sequence] != nil {
                warnings.append("duplicate ICC_PROFILE chunk \(chunk.sequence) ignored")
                continue
            }
            bySequence[chunk.sequence] = chunk.data
        }
        guard let last = bySequence.keys.max() else {
            warnings.append("no usable ICC_PROFILE chunk")
            return nil
        }
        let declared = counts.max() ?? last
        if last > declared {
            warnings.append("ICC_PROFILE chunk sequence number \(last) exceeds the declared chunk count \(declared)")
        }
        let total = max(last, declared)
        var profile: [UInt8] = []
        for sequence in 1...total {
            guard let data = bySequence[sequence] else {
                warnings.append("ICC_PROFILE chunk \(sequence) of \(total) is missing; profile ignored")
                return nil
            }
            profile += data
        }
        if let declaredSize = ByteReader(profile).u32(0), Int(declaredSize) != profile.count {
            warnings.append("ICC profile header says \(declaredSize) bytes but \(profile.count) were found")
        }
        return profile
    }
}
