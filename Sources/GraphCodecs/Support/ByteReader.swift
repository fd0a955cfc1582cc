/// Bounds-checked integer reads from untrusted bytes: every accessor returns nil instead of
/// trapping when the read would run past the end.
struct ByteReader {
    let bytes: [UInt8]
    /// Little-endian when true (TIFF "II"), big-endian otherwise.
    var littleEndian: Bool

    init(_ bytes: [UInt8], littleEndian: Bool = false) {
        self.bytes = bytes
        self.littleEndian = littleEndian
    }

    func u8(_ offset: Int) -> UInt8? {
        guard offset >= 0, offset < bytes.count else { return nil }
        return bytes[offset]
    }

    func u16(_ offset: Int) -> UInt16? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
        return littleEndian ? (b << 8 | a) : (a << 8 | b)
    }

    func u32(_ offset: Int) -> UInt32? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        var value: UInt32 = 0
        for i in 0..<4 {
            let byte = UInt32(bytes[offset + (littleEndian ? 3 - i : i)])
            value = value << 8 | byte
        }
        return value
    }

    func s32(_ offset: Int) -> Int32? {
        u32(offset).map { Int32(bitPattern: $0) }
    }

    /// A copy of bytes[offset..<offset+count], or nil when out of range.
    func slice(_ offset: Int, _ count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= bytes.count, count <= bytes.count - offset else { return nil }
        return Array(bytes[offset..<offset + count])
    }

    /// Four ASCII characters (ICC signatures, tag types, PNG chunk and HEIF brand names), escaped
    /// (``FileText``) as they are often quoted in messages.
    func fourCC(_ offset: Int) -> String? {
        guard let raw = slice(offset, 4) else { return nil }
        return FileText.escaped(raw)
    }
}

extension Array where Element == UInt8 {
    /// Whether the bytes start with the given ASCII/byte prefix.
    func hasBytePrefix(_ prefix: [UInt8]) -> Bool {
        count >= prefix.count && self[0..<prefix.count].elementsEqual(prefix)
    }

    mutating func appendBE16(_ value: Int) {
        append(UInt8(truncatingIfNeeded: value >> 8))
        append(UInt8(truncatingIfNeeded: value))
    }

    mutating func appendBE32(_ value: Int) {
        appendBE16(value >> 16)
        appendBE16(value)
    }
}
