/// XMP packets in JPEG APP1 segments, including Extended XMP (XMP spec part 3, 1.1.3.1):
/// a main packet naming `xmpNote:HasExtendedXMP="GUID"` plus chunks, each carrying the GUID
/// (MD5 of the full extended packet, 32 hex digits), the full length and its own offset.
public enum XMP {
    /// Namespace prefix of a standard XMP APP1 segment.
    public static let jpegPrefix: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    /// Namespace prefix of an Extended XMP APP1 chunk.
    public static let extendedPrefix: [UInt8] = Array("http://ns.adobe.com/xmp/extension/".utf8) + [0]

    /// Largest main packet that fits one APP1 segment.
    public static let maxMainPacketBytes = 65533 - 29

    /// One Extended XMP chunk as found in a segment.
    struct Chunk {
        var guid: String
        var fullLength: Int
        var offset: Int
        var data: ArraySlice<UInt8>
    }

    /// Parses an Extended XMP APP1 payload (starting with `extendedPrefix`).
    static func parseChunk(_ payload: [UInt8]) -> Chunk? {
        let start = extendedPrefix.count
        guard payload.hasBytePrefix(extendedPrefix), payload.count >= start + 40 else { return nil }
        let reader = ByteReader(payload)
        guard let length = reader.u32(start + 32), let offset = reader.u32(start + 36) else { return nil }
        let guid = String(decoding: payload[start..<start + 32], as: UTF8.self)
        return Chunk(guid: guid, fullLength: Int(length), offset: Int(offset), data: payload[(start + 40)...])
    }

    /// The GUID named by `xmpNote:HasExtendedXMP` in a main packet (attribute or element form).
    public static func extendedGUID(inMainPacket xmp: String) -> String? {
        let text = Array(xmp.utf8)
        let needle = Array("HasExtendedXMP".utf8)
        guard text.count >= needle.count,
            let start = (0...(text.count - needle.count)).first(where: { text[$0..<$0 + needle.count].elementsEqual(needle) })
        else { return nil }
        func isHex(_ c: UInt8) -> Bool { (0x30...0x39).contains(c) || (0x41...0x46).contains(c) || (0x61...0x66).contains(c) }
        var guid: [UInt8] = []
        for c in text[(start + needle.count)...].prefix(64) {
            if isHex(c) {
                guid.append(c)
                if guid.count == 32 { return String(decoding: guid, as: UTF8.self).uppercased() }
            } else if !guid.isEmpty {
                guid = []
            }
        }
        return nil
    }

    /// Result of reassembling the extended packet.
    struct Extended {
        var guid: String
        var fullLength: Int
        var text: String?
        var digestMatches: Bool?
    }

    /// Reassembles the chunks belonging to `expectedGUID` (or the only GUID present when the
    /// main packet names none). Gaps, overlaps beyond the length and GUID mismatches become
    /// warnings; an incomplete packet yields `text == nil`.
    static func reassemble(chunks: [Chunk], expectedGUID: String?, warnings: inout [String]) -> Extended? {
        guard !chunks.isEmpty else {
            if let expectedGUID {
                warnings.append("XMP names extended XMP \(expectedGUID) but no extension chunk is present")
            }
            return nil
        }
        let guids = Set(chunks.map { $0.guid.uppercased() })
        let guid: String
        if let expectedGUID {
            guard guids.contains(expectedGUID) else {
                warnings.append("extended XMP chunks carry GUID(s) \(guids.sorted().joined(separator: ", ")), not \(expectedGUID) named by HasExtendedXMP")
                return nil
            }
            guid = expectedGUID
        } else {
            guard guids.count == 1, let only = guids.first else {
                warnings.append("extended XMP chunks with \(guids.count) different GUIDs and no HasExtendedXMP: ignored")
                return nil
            }
            warnings.append("extended XMP present but the main packet has no HasExtendedXMP")
            guid = only
        }
        let mine = chunks.filter { $0.guid.uppercased() == guid }.sorted { $0.offset < $1.offset }
        let fullLength = mine[0].fullLength
        var result = Extended(guid: guid, fullLength: fullLength, text: nil, digestMatches: nil)
        guard mine.allSatisfy({ $0.fullLength == fullLength }) else {
            warnings.append("extended XMP chunks disagree on the full length")
            return result
        }
        guard fullLength <= 64 << 20 else {
            warnings.append("extended XMP full length \(fullLength) is implausible")
            return result
        }
        var buffer = [UInt8](repeating: 0, count: fullLength)
        var covered = 0  // chunks sorted by offset: contiguous coverage up to `covered`
        for chunk in mine {
            guard chunk.offset <= fullLength, chunk.data.count <= fullLength - chunk.offset else {
                warnings.append("extended XMP chunk at offset \(chunk.offset) runs past the full length \(fullLength)")
                return result
            }
            if chunk.offset > covered {
                warnings.append("extended XMP is missing bytes \(covered)..<\(chunk.offset)")
                return result
            }
            buffer.replaceSubrange(chunk.offset..<chunk.offset + chunk.data.count, with: chunk.data)
            covered = max(covered, chunk.offset + chunk.data.count)
        }
        if covered < fullLength {
            warnings.append("extended XMP is incomplete: \(covered) of \(fullLength) bytes")
            return result
        }
        let matches = MD5.hexDigest(buffer) == guid
        if !matches { warnings.append("extended XMP MD5 does not match its GUID \(guid)") }
        result.digestMatches = matches
        result.text = String(decoding: buffer, as: UTF8.self)
        return result
    }
}
