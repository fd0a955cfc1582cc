import XCTest

@testable import GraphCodecs

/// Extended XMP writing: the encoder splits the packet into APP1 chunks that the project's
/// reader reassembles byte for byte and verifies against the GUID the main packet names.
final class ExtendedXMPWriteTests: XCTestCase {
    /// An extended packet of exactly `bytes` UTF-8 bytes, with multi-byte characters so that
    /// chunk boundaries fall inside them.
    static func extendedPacket(bytes: Int) -> String {
        let head = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
            + "<rdf:Description rdf:about=\"\" xmlns:GDepth=\"http://ns.google.com/photos/1.0/depth/\" GDepth:Data=\""
        let tail = "\"/></rdf:RDF></x:xmpmeta>"
        var body = ""
        var index = 0
        while head.utf8.count + body.utf8.count + tail.utf8.count < bytes - 3 {
            body += index % 97 == 0 ? "深" : String(UnicodeScalar(UInt8(65 + index % 26)))
            index += 1
        }
        while head.utf8.count + body.utf8.count + tail.utf8.count < bytes { body += "=" }
        return head + body + tail
    }

    /// A main packet naming `guid` in `xmpNote:HasExtendedXMP` (attribute form).
    static func mainPacket(naming guid: String) -> String {
        "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?><x:xmpmeta xmlns:x=\"adobe:ns:meta/\">"
            + "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description rdf:about=\"\""
            + " xmlns:xmpNote=\"http://ns.adobe.com/xmp/note/\" xmpNote:HasExtendedXMP=\"\(guid)\"/>"
            + "</rdf:RDF></x:xmpmeta><?xpacket end=\"w\"?>"
    }

    static let pixels = (0..<(24 * 16 * 3)).map { UInt8(truncatingIfNeeded: $0 * 7) }

    static func encode(xmp: String?, extendedXMP: String?) throws(CodecError) -> [UInt8] {
        try JPEGCodec.encode(width: 24, height: 16, channels: 3, bytes: pixels, xmp: xmp, extendedXMP: extendedXMP, comment: "c")
    }

    /// The APP1 Extended XMP chunks of a file as (GUID, full length, offset, data size), in
    /// file order, checking they follow the main XMP segment directly.
    func extendedChunks(_ file: [UInt8]) -> [(guid: String, length: Int, offset: Int, size: Int)] {
        let segments = JPEGMarkers.scanHeader(file).segments
        let names = segments.map(JPEGMarkers.name(of:))
        let chunks = segments.filter { JPEGMarkers.name(of: $0) == "APP1 ExtendedXMP" }
        if let first = names.firstIndex(of: "APP1 ExtendedXMP") {
            XCTAssertEqual(first > 0 ? names[first - 1] : nil, "APP1 XMP")
            XCTAssertTrue(names[first..<first + chunks.count].allSatisfy { $0 == "APP1 ExtendedXMP" })
        }
        let start = XMP.extendedPrefix.count
        return chunks.map { segment in
            let p = segment.payload
            let reader = ByteReader(p)
            return (
                String(decoding: p[start..<start + 32], as: UTF8.self), Int(reader.u32(start + 32) ?? 0),
                Int(reader.u32(start + 36) ?? 0), p.count - start - 40
            )
        }
    }

    func testLargeExtendedPacketRoundTripsInFourChunks() throws {
        let extended = Self.extendedPacket(bytes: 200_000)
        XCTAssertEqual(extended.utf8.count, 200_000)
        let guid = XMP.digestGUID(ofExtended: extended)
        let main = Self.mainPacket(naming: guid)
        let file = try Self.encode(xmp: main, extendedXMP: extended)

        let chunks = extendedChunks(file)
        XCTAssertEqual(chunks.map(\.offset), [0, 65400, 130_800, 196_200])
        XCTAssertEqual(chunks.map(\.size), [65400, 65400, 65400, 3800])
        XCTAssertTrue(chunks.allSatisfy { $0.guid == guid && $0.length == 200_000 })

        // The whole-image decoder (libjpeg saved markers) and the header walk agree.
        let image = try JPEGCodec.decode(file)
        let info = try ImageFile.info(file)
        for metadata in [image.metadata, info.metadata] {
            XCTAssertEqual(metadata.xmp, main)
            XCTAssertEqual(metadata.extendedXMP, extended)
            XCTAssertEqual(metadata.extendedXMPDigestMatches, true)
            XCTAssertEqual(metadata.extendedXMPGUID, guid)
            XCTAssertEqual(metadata.extendedXMPLength, 200_000)
            XCTAssertEqual(metadata.comments, ["c"])
        }
        XCTAssertEqual(image.warnings, [])
        XCTAssertEqual(info.warnings, [])
        XCTAssertEqual([image.width, image.height], [24, 16])

        // The streaming encoder writes the same file.
        let encoder = try JPEGRowEncoder(width: 24, height: 16, channels: 3, xmp: main, extendedXMP: extended, comment: "c")
        try Self.pixels.withUnsafeBytes { raw in
            try encoder.writeRows(try XCTUnwrap(raw.baseAddress), rowBytes: 24 * 3, count: 16)
        }
        XCTAssertEqual(try encoder.finish(), file)
    }

    func testChunkBoundariesAndLowercaseGUID() throws {
        for (bytes, sizes) in [(65400, [65400]), (65401, [65400, 1]), (130_800, [65400, 65400])] {
            let extended = Self.extendedPacket(bytes: bytes)
            let guid = XMP.digestGUID(ofExtended: extended)
            let file = try Self.encode(xmp: Self.mainPacket(naming: guid), extendedXMP: extended)
            XCTAssertEqual(extendedChunks(file).map(\.size), sizes, "\(bytes) bytes")
            let metadata = try JPEGCodec.readInfo(file).metadata
            XCTAssertEqual(metadata.extendedXMP, extended, "\(bytes) bytes")
            XCTAssertEqual(metadata.extendedXMPDigestMatches, true, "\(bytes) bytes")
        }

        // A main packet spelling the GUID in lower case: chunks carry it as spelt there,
        // and readers (which compare case-insensitively) still verify it.
        let extended = Self.extendedPacket(bytes: 70000)
        let lower = XMP.digestGUID(ofExtended: extended).lowercased()
        let file = try Self.encode(xmp: Self.mainPacket(naming: lower), extendedXMP: extended)
        XCTAssertEqual(extendedChunks(file).map(\.guid), [lower, lower])
        let metadata = try JPEGCodec.decode(file).metadata
        XCTAssertEqual(metadata.extendedXMP, extended)
        XCTAssertEqual(metadata.extendedXMPDigestMatches, true)
    }

    func testEmptyExtendedPacketIsOneEmptyChunk() throws {
        let guid = XMP.digestGUID(ofExtended: "")
        XCTAssertEqual(guid, "D41D8CD98F00B204E9800998ECF8427E")
        let file = try Self.encode(xmp: Self.mainPacket(naming: guid), extendedXMP: "")
        XCTAssertEqual(extendedChunks(file).map(\.size), [0])
        let metadata = try JPEGCodec.readInfo(file).metadata
        XCTAssertEqual(metadata.extendedXMP, "")
        XCTAssertEqual(metadata.extendedXMPDigestMatches, true)
    }

    func testMissingOrMismatchedMainPacketIsAnError() throws {
        let extended = Self.extendedPacket(bytes: 1000)
        let digest = XMP.digestGUID(ofExtended: extended)

        let noMain = expectCodecError { () throws(CodecError) in try Self.encode(xmp: nil, extendedXMP: extended) }
        XCTAssertEqual(noMain?.kind, .invalidArgument)
        XCTAssertEqual(noMain?.segment, "APP1 ExtendedXMP")
        XCTAssertTrue(noMain?.message.contains("needs a main XMP packet") == true, noMain?.message ?? "")
        XCTAssertTrue(noMain?.message.contains(digest) == true, noMain?.message ?? "")

        let unnamed = expectCodecError { () throws(CodecError) in
            try Self.encode(xmp: "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>", extendedXMP: extended)
        }
        XCTAssertEqual(unnamed?.kind, .invalidArgument)
        XCTAssertEqual(unnamed?.segment, "APP1 ExtendedXMP")
        XCTAssertTrue(unnamed?.message.contains("has no xmpNote:HasExtendedXMP") == true, unnamed?.message ?? "")

        let other = XMP.digestGUID(ofExtended: extended + " ")
        let mismatch = expectCodecError { () throws(CodecError) in
            try Self.encode(xmp: Self.mainPacket(naming: other), extendedXMP: extended)
        }
        XCTAssertEqual(mismatch?.kind, .invalidArgument)
        XCTAssertEqual(mismatch?.segment, "APP1 ExtendedXMP")
        XCTAssertTrue(mismatch?.message.contains(other) == true && mismatch?.message.contains(digest) == true, mismatch?.message ?? "")

        // The streaming encoder checks the same before writing anything.
        let streaming = expectCodecError { () throws(CodecError) in
            try JPEGRowEncoder(width: 8, height: 8, channels: 1, xmp: Self.mainPacket(naming: other), extendedXMP: extended)
        }
        XCTAssertEqual(streaming?.segment, "APP1 ExtendedXMP")
    }

    func testSettingExtendedGUID() throws {
        let extended = Self.extendedPacket(bytes: 5000)
        let digest = XMP.digestGUID(ofExtended: extended)
        let stale = Self.mainPacket(naming: String(repeating: "0", count: 32))
        let fixed = try XCTUnwrap(XMP.settingExtendedGUID(digest, inMainPacket: stale))
        XCTAssertEqual(fixed, Self.mainPacket(naming: digest))
        XCTAssertEqual(XMP.extendedGUID(inMainPacket: fixed), digest)
        let metadata = try JPEGCodec.readInfo(try Self.encode(xmp: fixed, extendedXMP: extended)).metadata
        XCTAssertEqual(metadata.extendedXMPDigestMatches, true)

        // Element form.
        let element = "<rdf:Description><xmpNote:HasExtendedXMP>\(String(repeating: "a", count: 32))</xmpNote:HasExtendedXMP></rdf:Description>"
        XCTAssertEqual(
            XMP.settingExtendedGUID(digest, inMainPacket: element),
            "<rdf:Description><xmpNote:HasExtendedXMP>\(digest)</xmpNote:HasExtendedXMP></rdf:Description>")

        // No property to replace, or not a GUID.
        XCTAssertNil(XMP.settingExtendedGUID(digest, inMainPacket: "<x:xmpmeta/>"))
        XCTAssertNil(XMP.settingExtendedGUID("not a guid", inMainPacket: stale))
        XCTAssertNil(XMP.settingExtendedGUID(String(digest.dropLast()), inMainPacket: stale))
        XCTAssertNil(XMP.settingExtendedGUID(String(digest.dropLast()) + "G", inMainPacket: stale))
    }

    /// The real GDepth photo: its reassembled extended packet hashes to the GUID it carries.
    func testDigestGUIDOfRealExtendedPacket() throws {
        let folder = try TestPaths.sharedTestData("depth")
        let metadata = try ImageFile.info(path: folder + "/gdepth_motorola_xt912_exifr.jpg").metadata
        let extended = try XCTUnwrap(metadata.extendedXMP)
        XCTAssertEqual(XMP.digestGUID(ofExtended: extended), "07DA5AE24ECC10FD761F51CF86046830")
    }

    // MARK: - Transcoding

    func testTranscodeCarriesExtendedXMP() throws {
        let extended = Self.extendedPacket(bytes: 200_000)
        let main = Self.mainPacket(naming: XMP.digestGUID(ofExtended: extended))
        let pixels = (0..<(96 * 64 * 3)).map { UInt8(truncatingIfNeeded: $0 * 13) }
        let source = try JPEGCodec.encode(width: 96, height: 64, channels: 3, bytes: pixels, xmp: main, extendedXMP: extended)
        let output = try JPEGTranscoder.transcode(source, quality: 70, decodeOptions: DecodeOptions(jpegScaleDenominator: 2), bandRows: 8)
        let info = try JPEGCodec.readInfo(output)
        XCTAssertEqual([info.width, info.height], [48, 32])
        XCTAssertEqual(info.metadata.xmp, main)
        XCTAssertEqual(info.metadata.extendedXMP, extended)
        XCTAssertEqual(info.metadata.extendedXMPDigestMatches, true)
        XCTAssertEqual(info.warnings, [])
        XCTAssertEqual(extendedChunks(output).map(\.offset), [0, 65400, 130_800, 196_200])

        // To a file, the same bytes.
        let path = NSTemporaryDirectory() + "extended-xmp-\(getpid()).jpg"
        defer { unlink(path) }
        try JPEGTranscoder.transcode(source, toFile: path, quality: 70, decodeOptions: DecodeOptions(jpegScaleDenominator: 2), bandRows: 8)
        XCTAssertEqual(try ImageFile.read(path: path), output)

        let bare = try JPEGCodec.readInfo(try JPEGTranscoder.transcode(source, metadata: .none)).metadata
        XCTAssertNil(bare.xmp)
        XCTAssertNil(bare.extendedXMPGUID)
    }

    /// A source whose extended XMP is corrupt (digest mismatch), incomplete (a chunk cut
    /// out) or not the one the main packet names: the extended XMP is dropped, the rest
    /// carried, and the transcode does not fail.
    func testTranscodeDropsUnverifiedExtendedXMP() throws {
        let extended = Self.extendedPacket(bytes: 140_000)
        let main = Self.mainPacket(naming: XMP.digestGUID(ofExtended: extended))
        let source = try Self.encode(xmp: main, extendedXMP: extended)
        let chunks = JPEGMarkers.scanHeader(source).segments.filter { JPEGMarkers.name(of: $0) == "APP1 ExtendedXMP" }
        XCTAssertEqual(chunks.count, 3)
        let second = try XCTUnwrap(chunks.dropFirst().first)
        let secondStart = try XCTUnwrap(second.offset)

        var corrupt = source
        corrupt[secondStart + 4 + 75 + 100] ^= 0x01  // a data byte of the second chunk
        var incomplete = source
        incomplete.removeSubrange(secondStart..<secondStart + 4 + second.payload.count)
        // The main packet naming another GUID, or none (its property renamed): the chunks
        // are then complete and verified, but the encoder could not write them as named.
        let digest = Array(XMP.digestGUID(ofExtended: extended).utf8)
        let guidRange = try XCTUnwrap(source.firstRange(of: digest))
        var renamed = source
        renamed.replaceSubrange(guidRange, with: [UInt8](repeating: 0x46, count: 32))  // "F" x 32
        let propertyRange = try XCTUnwrap(source.firstRange(of: Array("HasExtendedXMP".utf8)))
        var unnamed = source
        unnamed[propertyRange.upperBound - 1] = 0x51  // "HasExtendedXMQ"

        for (label, input, warning) in [
            ("corrupt", corrupt, "MD5 does not match"), ("incomplete", incomplete, "missing bytes"),
            ("renamed", renamed, "not FFFFFFFF"), ("unnamed", unnamed, "main packet has no HasExtendedXMP"),
        ] {
            let sourceInfo = try JPEGCodec.readInfo(input)
            XCTAssertTrue(sourceInfo.warnings.contains { $0.contains(warning) }, "\(label): \(sourceInfo.warnings)")
            let output = try JPEGTranscoder.transcode(input)
            let metadata = try JPEGCodec.readInfo(output).metadata
            XCTAssertEqual(metadata.xmp, sourceInfo.metadata.xmp, label)
            XCTAssertEqual(metadata.comments, ["c"], label)
            XCTAssertEqual(extendedChunks(output).count, 0, label)
            XCTAssertNil(metadata.extendedXMP, label)
        }
    }

    /// A real GDepth photo: its 21-chunk extended XMP (depth and colour images) is carried,
    /// re-chunked at 65400 bytes, and still verifies.
    func testTranscodeCarriesRealGDepthExtendedXMP() throws {
        let folder = try TestPaths.sharedTestData("depth")
        let source = try ImageFile.read(path: folder + "/gdepth_motorola_xt912_exifr.jpg")
        let before = try JPEGCodec.readInfo(source).metadata
        let output = try JPEGTranscoder.transcode(source, decodeOptions: DecodeOptions(jpegScaleDenominator: 8))
        let after = try JPEGCodec.readInfo(output).metadata
        XCTAssertEqual(after.xmp, before.xmp)
        XCTAssertEqual(after.exif, before.exif)
        XCTAssertEqual(after.extendedXMPGUID, "07DA5AE24ECC10FD761F51CF86046830")
        XCTAssertEqual(after.extendedXMPDigestMatches, true)
        XCTAssertEqual(after.extendedXMP, before.extendedXMP)
        let length = try XCTUnwrap(before.extendedXMPLength)
        XCTAssertEqual(extendedChunks(output).count, (length + 65399) / 65400)
    }
}
