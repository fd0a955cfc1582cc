#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// Extended packet bytes per chunk: Adobe's chunk size, which leaves the prefix, GUID,
    /// length and offset room in one APP1 segment.
    static let extendedChunkBytes = 65400

    /// Largest extended packet read or written (the 32-bit length field allows more; real
    /// packets, depth maps included, stay far below).
    static let maxExtendedPacketBytes = 64 << 20

    /// Whether `packet` contains `needle`, comparing UTF-8 bytes: a cheap check before parsing
    /// a packet that may be megabytes long (an extended packet with images in base64), where
    /// `String.contains` is many times slower.
    public static func mentions(_ packet: String, _ needle: String) -> Bool {
        var packet = packet, needle = needle
        return packet.withUTF8 { text in
            needle.withUTF8 { pattern in
                guard let first = pattern.first, pattern.count <= text.count else { return pattern.isEmpty }
                guard let start = text.baseAddress, let wanted = pattern.baseAddress else { return false }
                // memchr to each candidate first byte, memcmp for the rest (both vectorised by libc).
                var i = 0
                let last = text.count - pattern.count
                while i <= last {
                    guard let hit = memchr(start + i, Int32(first), last - i + 1) else { return false }
                    i = start.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if memcmp(start + i, wanted, pattern.count) == 0 { return true }
                    i += 1
                }
                return false
            }
        }
    }

    /// The text of an XMP packet stored as bytes (a JPEG APP1 payload, a HEIF `mime` item): UTF-8 up to the end of its
    /// `<?xpacket end="…"?>` trailer when it has one, and without trailing NUL bytes. What follows
    /// the packet (Apple's HEIC writer ends every XMP item with a NUL) is not part of the XMP.
    public static func packetText(_ bytes: [UInt8]) -> String {
        var end = bytes.count
        let trailer = Array("<?xpacket end=".utf8)
        if let start = bytes.firstRange(of: trailer)?.lowerBound,
           let close = bytes[start...].firstRange(of: Array("?>".utf8))?.upperBound {
            end = close
        }
        while end > 0, bytes[end - 1] == 0 { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// The GUID named by `xmpNote:HasExtendedXMP` in a main packet (attribute or element form).
    public static func extendedGUID(inMainPacket xmp: String) -> String? {
        let text = Array(xmp.utf8)
        return extendedGUIDRange(in: text).map { String(decoding: text[$0], as: UTF8.self).uppercased() }
    }

    /// The GUID that names `packet` as extended XMP: the MD5 of its UTF-8 bytes as 32
    /// uppercase hex digits (the form Adobe writes), for callers building the main packet.
    public static func digestGUID(ofExtended packet: String) -> String {
        MD5.hexDigest(Array(packet.utf8))
    }

    /// The main packet with the GUID its `xmpNote:HasExtendedXMP` names replaced by `guid`
    /// (for when the extended packet changed; see `digestGUID(ofExtended:)`). Nil when the
    /// packet names no GUID or `guid` is not 32 hex digits: adding the property to a packet
    /// without one is XML editing, left to whoever builds the packet.
    public static func settingExtendedGUID(_ guid: String, inMainPacket xmp: String) -> String? {
        let replacement = Array(guid.utf8)
        var text = Array(xmp.utf8)
        guard replacement.count == 32, replacement.allSatisfy(isHexDigit), let range = extendedGUIDRange(in: text) else {
            return nil
        }
        text.replaceSubrange(range, with: replacement)
        return String(decoding: text, as: UTF8.self)
    }

    /// Where the GUID named by `HasExtendedXMP` sits in a main packet's UTF-8 bytes: the first
    /// run of 32 hex digits within the 64 bytes after the property name.
    static func extendedGUIDRange(in text: [UInt8]) -> Range<Int>? {
        let needle = Array("HasExtendedXMP".utf8)
        guard text.count >= needle.count,
            let start = (0...(text.count - needle.count)).first(where: { text[$0..<$0 + needle.count].elementsEqual(needle) })
        else { return nil }
        let from = start + needle.count
        var run = from
        for index in from..<min(text.count, from + 64) {
            if !isHexDigit(text[index]) {
                run = index + 1
            } else if index + 1 - run == 32 {
                return run..<index + 1
            }
        }
        return nil
    }

    private static func isHexDigit(_ c: UInt8) -> Bool {
        (0x30...0x39).contains(c) || (0x41...0x46).contains(c) || (0x61...0x66).contains(c)
    }

    /// The Extended XMP APP1 payloads carrying `extended`, in order. The main packet must
    /// name the extended packet's MD5 in `xmpNote:HasExtendedXMP` (readers check it); each
    /// chunk is `extendedPrefix`, the GUID as the main packet spells it, the full length and
    /// the chunk's offset (both UInt32 big endian), then at most `extendedChunkBytes` of data.
    static func extendedPayloads(_ extended: String, mainPacket: String?) throws(CodecError) -> [[UInt8]] {
        let segment = "APP1 ExtendedXMP"
        let packet = Array(extended.utf8)
        let digest = MD5.hexDigest(packet)
        guard let mainPacket else {
            throw CodecError(.invalidArgument, "extended XMP needs a main XMP packet naming it with xmpNote:HasExtendedXMP=\"\(digest)\"", format: .jpeg, segment: segment)
        }
        let main = Array(mainPacket.utf8)
        guard let range = extendedGUIDRange(in: main) else {
            throw CodecError(.invalidArgument, "the main XMP packet has no xmpNote:HasExtendedXMP; it must name the extended packet's GUID \(digest)", format: .jpeg, segment: segment)
        }
        let named = String(decoding: main[range], as: UTF8.self)
        guard named.uppercased() == digest else {
            throw CodecError(.invalidArgument, "the main XMP packet names extended XMP \(named) but the extended packet's MD5 is \(digest)", format: .jpeg, segment: segment)
        }
        guard packet.count <= maxExtendedPacketBytes else {
            throw CodecError(.invalidArgument, "extended XMP packet is \(packet.count) bytes; at most \(maxExtendedPacketBytes) are written", format: .jpeg, segment: segment)
        }
        var payloads: [[UInt8]] = []
        var offset = 0
        repeat {
            let end = min(packet.count, offset + extendedChunkBytes)
            var payload = extendedPrefix + main[range]
            payload.appendBE32(packet.count)
            payload.appendBE32(offset)
            payload += packet[offset..<end]
            payloads.append(payload)
            offset = end
        } while offset < packet.count
        return payloads
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
        guard fullLength <= maxExtendedPacketBytes else {
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
