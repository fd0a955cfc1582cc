import XCTest

@testable import GraphCodecs

/// Inputs the fuzz targets (Fuzz/, `scripts/fuzz.sh`) found to crash, hang or exhaust memory. Each
/// is also a file of the target's corpus (Fuzz/corpus/TARGET/regression-*), replayed by every run.
final class FuzzRegressionTests: XCTestCase {
    /// png: a 716-byte file whose iTXt chunk declares 1,912,602,687 bytes. libpng 1.6 only warns
    /// that the chunk is over its limit, then allocates and zeroes the declared length: `graph info`
    /// took 1.9 GB and 8 s. A chunk longer than the data left is truncation, refused at its header.
    func testPNGChunkDeclaringMoreThanTheFileIsRefusedBeforeAllocating() throws {
        var ihdr: [UInt8] = []
        ihdr.appendBE32(32)
        ihdr.appendBE32(32)
        ihdr += [4, 0, 0, 0, 0]
        var png = PNGCodec.signature + chunk("IHDR", ihdr) + chunk("gAMA", [0, 1, 0x86, 0xA0])
        png.appendBE32(1_912_602_687)
        png += Array("iTXtDescription".utf8) + [UInt8](repeating: 0x41, count: 200)
        // Refused at the chunk header: the message names the declared length (libpng's own error,
        // after allocating, says only that the file is truncated).
        let info = expectCodecError { () throws(CodecError) in try PNGCodec.readInfo(png) }
        let decode = expectCodecError { () throws(CodecError) in try PNGCodec.decode(png) }
        for error in [info, decode] {
            XCTAssertEqual(error?.kind, .truncated)
            XCTAssertTrue(error?.message.contains("chunk iTXt declares 1912602687 bytes, 207 remain") == true,
                          error?.description ?? "")
        }
        // A truncated image keeps libpng's own error (IDAT is read piecewise, never allocated whole).
        let whole = try PNGCodec.encode(width: 16, height: 16, channels: 3, bitDepth: 8,
                                        bytes: (0..<768).map { UInt8($0 % 251) })
        let cut = Array(whole.prefix(whole.count - 30))
        XCTAssertEqual(expectCodecError { () throws(CodecError) in try PNGCodec.decode(cut) }?.kind, .truncated)
    }

    /// heif (found reading HEIFStructure for the heif target): an iloc whose offset, length and
    /// index fields are all 0 bytes wide lets each 8-byte item entry list 65,535 extents of no
    /// bytes, 1 MB of extents per item: a 64 KB file made 8,000 such items, 8.4 GB. Refused.
    func testHEIFItemLocationsWithManyEmptyExtentsAreRefused() throws {
        let infe = box("infe", [2, 0, 0, 0, 0, 1, 0, 0] + Array("hvc1".utf8) + [0])
        let meta = box("meta", [0, 0, 0, 0] + box("pitm", [0, 0, 0, 0, 0, 1]) + box("iinf", [0, 0, 0, 0, 0, 1] + infe)
            // iloc version 1, every field size 0; one item (ID 1, method 0, data reference 0) with 65,535 extents.
            + box("iloc", [1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0xFF, 0xFF]))
        let file = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)) + meta
        let error = expectCodecError { () throws(CodecError) in try HEIFStructure.parse(file) }
        XCTAssertEqual(error?.segment, "iloc")
        XCTAssertTrue(error?.message.contains("item 1 lists 65535 extents") == true, error?.description ?? "no error")
        // One extent without fields (the whole file from the base offset) is still read.
        var one = file
        one[one.count - 1] = 1
        one[one.count - 2] = 0
        XCTAssertEqual(try HEIFStructure.parse(one).locations[1]?.extents.count, 1)
    }

    /// gdepth (corpus/gdepth/regression-quote-in-attribute): a GDepth:Units (or GFocus value,
    /// mime) holding a double quote, legal in a single-quoted attribute, was written back inside
    /// double quotes unescaped. The rewritten main packet ended its scan at that attribute, losing
    /// what followed it: GDepth:Mime and xmpNote:HasExtendedXMP, the link to the depth map.
    func testGDepthValuesWithQuotesAreWrittenEscaped() throws {
        let metadata = GDepthMetadata(format: .rangeLinear, near: 0.5, far: 4, units: #"m"x"#, measureType: #"Optical"Ray"#,
                                      mime: #"image/"png""#, data: [1, 2, 3], originalImageMime: "image/jpeg", originalImage: [4])
        let focus = [("FocalDistance", #"2"6"#)]
        let packets = GDepth.packets(metadata, focus: focus)
        XCTAssertNil(XMPProperties.parse(packets.main).problem)
        XCTAssertEqual(try GDepth.parse(mainPacket: packets.main, extendedPacket: packets.extended), metadata)
        XCTAssertEqual(GDepth.focusProperties(inMainPacket: packets.main).map { "\($0.0)=\($0.1)" }, [#"FocalDistance=2"6"#])
        XCTAssertEqual(XMP.extendedGUID(inMainPacket: packets.main), XMP.digestGUID(ofExtended: packets.extended))
    }

    /// aux-jpeg (found reading JPEGStreams for the aux-jpeg target): each MP entry's stream was
    /// walked on its own, so an index naming one stream many times (or offsets inside it) walked
    /// it as often: 4,000 entries (64 KB of index) on a stream of 10 MB of entropy-coded data had
    /// `graph info` walk 40 GB. An offset inside a stream already read names no image of its own
    /// and is skipped with a warning, so the file is walked once.
    func testMPFEntriesInsideAnEarlierStreamAreSkipped() throws {
        let primary = try JPEGCodec.encode(width: 8, height: 8, channels: 3, bytes: [UInt8](repeating: 90, count: 192))
        let aux = try JPEGCodec.encode(width: 4, height: 4, channels: 1, bytes: [UInt8](repeating: 9, count: 16))
        // An APP15 segment holding an SOI pattern (FF D8 FF D9: a stream of its own if read from there).
        let nested: [UInt8] = [0xFF, 0xD8, 0xFF, 0xEF, 0x00, 0x07, 0xFF, 0xD8, 0xFF, 0xD9, 0x00] + aux.dropFirst(2)
        let truncated = Array(aux.dropLast(2))  // no EOI: its walk stops at the next stream's SOI
        let file = try MPF.assemble(primary: primary, auxiliaries: [nested, truncated, aux])
        var entries = try JPEGCodec.readInfo(file, auxiliaryImages: false).metadata.mpfEntries
        XCTAssertEqual(entries.count, 4)
        let first = entries[1]
        for n in 0..<1000 {
            var again = first
            again.index = 4 + n
            entries.append(again)
        }
        var inside = first
        inside.index = 1004
        inside.absoluteOffset += 6
        entries.append(inside)
        var warnings: [String] = []
        let streams = JPEGStreams.auxiliaryImages(in: file, entries: entries, warnings: &warnings)
        XCTAssertEqual(streams.map(\.mpfImage), [2, 3, 4])
        XCTAssertEqual(streams.map(\.complete), [true, false, true])
        XCTAssertEqual(Array(file[streams[0].range]), nested)
        XCTAssertEqual(Array(file[streams[2].range]), aux)
        XCTAssertEqual(warnings.filter { $0.contains("lies inside MPF image 2's stream; image skipped") }.count, 1001)
        XCTAssertEqual(warnings.filter { $0.contains("MPF image 3 at offset") && $0.contains("truncated") }.count, 1)
    }

    /// xmp-props (corpus/xmp-props/regression-many-list-items): each rdf:li copied the list so
    /// far, so a list of n items took n²/2 copies: 7,000 empty items (63 KB) took 7.5 s in the fuzz
    /// build, and an extended XMP (megabytes, parsed by `graph info` when the main packet names
    /// GDepth) could take hours. Items are now appended in place. This test keeps a long list's
    /// items in order; it cannot catch the quadratic time by an assertion (tests are not timed),
    /// but it shows it: 103 s before the fix, 4 s after (debug build, loaded machine).
    func testLongRDFListsKeepEveryItemInOrder() throws {
        let items = (0..<60_000).map { "<rdf:li>\($0 % 7)</rdf:li>" }.joined()
        let packet = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">"#
            + #"<rdf:Description xmlns:a="urn:a"><a:b><rdf:Seq>"# + items + "</rdf:Seq></a:b></rdf:Description></rdf:RDF></x:xmpmeta>"
        let values = try XCTUnwrap(XMPProperties.parse(packet).numbers("urn:a", "b"))
        XCTAssertEqual(values.count, 60_000)
        XCTAssertEqual(values.prefix(9), [0, 1, 2, 3, 4, 5, 6, 0, 1])
    }

    private func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.appendBE32(8 + payload.count)
        return out + Array(type.utf8) + payload
    }

    private func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.appendBE32(data.count)
        let body = Array(type.utf8) + data
        out += body
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        out.appendBE32(Int(~crc))
        return out
    }
}
