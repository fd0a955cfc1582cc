#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// MD5 (RFC 1321), used only to verify extended-XMP GUIDs, which XMP defines as the MD5 of
/// the extended packet. Not for security.
enum MD5 {
    private static let shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
        5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ]
    private static let table: [UInt32] = (0..<64).map { i in
        UInt32(truncatingIfNeeded: Int64((abs(sin(Double(i + 1))) * 4_294_967_296.0).rounded(.down)))
    }

    /// The digest as 32 uppercase hex digits.
    static func hexDigest(_ message: [UInt8]) -> String {
        // The whole 64-byte blocks straight from the message, then the padded tail (1 or 2 blocks).
        let whole = message.count / 64 * 64
        var tail = Array(message[whole...])
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bitLength = UInt64(message.count) &* 8
        for i in 0..<8 { tail.append(UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(i)))) }
        var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476)
        message.withUnsafeBytes { compress($0, blocks: whole / 64, into: &state) }
        tail.withUnsafeBytes { compress($0, blocks: tail.count / 64, into: &state) }
        let (a0, b0, c0, d0) = state
        let hex: [Character] = Array("0123456789ABCDEF")
        var out = ""
        for word in [a0, b0, c0, d0] {
            for byteIndex in 0..<4 {
                let byte = Int((word >> (8 * UInt32(byteIndex))) & 0xFF)
                out.append(hex[byte >> 4])
                out.append(hex[byte & 0xF])
            }
        }
        return out
    }

    /// The MD5 rounds over `blocks` 64-byte blocks of `bytes`.
    private static func compress(_ bytes: UnsafeRawBufferPointer, blocks: Int,
                                 into state: inout (UInt32, UInt32, UInt32, UInt32)) {
        // Local copies (no lazy-global check per round), read through pointers (no bounds checks:
        // every index is a constant below 64 or 16).
        let table = MD5.table, shifts = MD5.shifts
        var words = (UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0),
                     UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0))
        table.withUnsafeBufferPointer { k in
            shifts.withUnsafeBufferPointer { r in
                withUnsafeMutableBytes(of: &words) { raw in
                    let m = raw.bindMemory(to: UInt32.self)
                    for block in 0..<blocks {
                        for i in 0..<16 {
                            m[i] = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: block * 64 + i * 4, as: UInt32.self))
                        }
                        var (a, b, c, d) = state
                        for i in 0..<64 {
                            var f: UInt32
                            let g: Int
                            switch i {
                            case 0..<16: f = (b & c) | (~b & d); g = i
                            case 16..<32: f = (d & b) | (~d & c); g = (5 * i + 1) & 15
                            case 32..<48: f = b ^ c ^ d; g = (3 * i + 5) & 15
                            default: f = c ^ (b | ~d); g = (7 * i) & 15
                            }
                            f = f &+ a &+ k[i] &+ m[g]
                            a = d
                            d = c
                            c = b
                            b = b &+ (f << r[i] | f >> (32 - r[i]))
                        }
                        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
                    }
                }
            }
        }
    }
}
