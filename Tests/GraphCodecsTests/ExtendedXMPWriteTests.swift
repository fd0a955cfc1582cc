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
}
