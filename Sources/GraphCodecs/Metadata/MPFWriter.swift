/// Writing a Multi-Picture file the way iPhones do (depth-formats.md 5.1): the primary JPEG
/// with an APP2 MPF index, followed by the auxiliary JPEGs with no gap.
extension MPF {
    /// Bytes of the MPF APP2 segment (marker and length included) for `count` images.
    static func segmentLength(images count: Int) -> Int { 2 + 2 + 4 + 8 + 2 + 3 * 12 + 4 + 16 * count }

    /// One file of `primary` followed by `auxiliaries` (each a complete JPEG stream), with an
    /// MPF index in the primary. Any MPF segment the primary had is replaced; the new one goes
    /// after its leading APP0/APP1 segments (before the ICC profile, as Apple writes it). Offsets
    /// are computed once every header is final: big-endian, relative to the MP header (the
    /// segment's marker offset + 8), entry 1 the primary (attribute 0x030000, offset 0), the
    /// others attribute 0 ("Undefined", as Apple marks depth and matte images).
    public static func assemble(primary: [UInt8], auxiliaries: [[UInt8]]) throws(CodecError) -> [UInt8] {
        guard primary.count >= 4, primary[0] == 0xFF, primary[1] == 0xD8 else {
            throw CodecError(.invalidArgument, "the primary image is not a JPEG stream (no SOI)", format: .jpeg, segment: "APP2 MPF")
        }
        for (index, auxiliary) in auxiliaries.enumerated() {
            guard auxiliary.count >= 4, auxiliary[0] == 0xFF, auxiliary[1] == 0xD8, auxiliary[2] == 0xFF else {
                throw CodecError(.invalidArgument, "auxiliary image \(index + 2) is not a JPEG stream (no SOI)", format: .jpeg, segment: "APP2 MPF")
            }
        }
        // The primary's header segments without any MPF index, and where the new one goes.
        var head: [UInt8] = [0xFF, 0xD8]
        var insertAt: Int?
        var position = 2
        let reader = ByteReader(primary)
        while true {
            guard position + 4 <= primary.count, primary[position] == 0xFF, let marker = reader.u8(position + 1),
                  let length = reader.u16(position + 2).map(Int.init), length >= 2, position + 2 + length <= primary.count
            else {
                throw CodecError(.invalidArgument, "the primary image's header is malformed at offset \(position)", format: .jpeg, segment: "APP2 MPF")
            }
            if insertAt == nil && marker != 0xE0 && marker != 0xE1 { insertAt = head.count }
            if marker == 0xDA { break }
            let payload = primary[(position + 4)..<(position + 2 + length)]
            if !(marker == 0xE2 && payload.starts(with: jpegPrefix)) {
                head += primary[position..<(position + 2 + length)]
            }
            position += 2 + length
        }
        let images = 1 + auxiliaries.count
        let segmentBytes = segmentLength(images: images)
        let insert = insertAt ?? head.count
        let primaryLength = head.count + segmentBytes + (primary.count - position)
        let mpHeader = insert + 8
        var entries: [(attributes: UInt32, length: Int, offset: Int)] = [(0x0003_0000, primaryLength, 0)]
        var next = primaryLength
        for auxiliary in auxiliaries {
            entries.append((0, auxiliary.count, next - mpHeader))
            next += auxiliary.count
        }
        guard next <= Int(UInt32.max) else {
            throw CodecError(.invalidArgument, "a Multi-Picture file is limited to 4 GiB", format: .jpeg, segment: "APP2 MPF")
        }
        var segment: [UInt8] = [0xFF, 0xE2]
        segment.appendBE16(segmentBytes - 2)
        segment += jpegPrefix
        segment += [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08]  // "MM", 42, IFD at 8
        segment.appendBE16(3)
        segment += [0xB0, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x04] + Array("0100".utf8)  // MPFVersion
        segment += [0xB0, 0x01, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01]  // NumberOfImages, LONG
        segment.appendBE32(images)
        segment += [0xB0, 0x02, 0x00, 0x07]  // MPEntry, UNDEFINED
        segment.appendBE32(16 * images)
        segment.appendBE32(8 + 2 + 3 * 12 + 4)  // entries follow the IFD
        segment.appendBE32(0)  // no next IFD
        for entry in entries {
            segment.appendBE32(Int(entry.attributes))
            segment.appendBE32(entry.length)
            segment.appendBE32(entry.offset)
            segment.appendBE32(0)  // dependent images 1 and 2
        }
        var file: [UInt8] = []
        file.reserveCapacity(next)
        file += head[0..<insert]
        file += segment
        file += head[insert...]
        file += primary[position...]
        for auxiliary in auxiliaries { file += auxiliary }
        return file
    }
}
