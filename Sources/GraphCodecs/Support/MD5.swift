#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// MD5 (RFC 1321), used only to verify extended-XMP GUIDs, which XMP defines as the MD5 of
/// the extended packet. Not for security.
enum MD5 {
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

    /// `x` rotated left by `s` bits (0 < s < 32).
    @inline(__always)
    private static func rotl(_ x: UInt32, _ s: UInt32) -> UInt32 { x << s | x >> (32 - s) }

    /// The MD5 rounds over `blocks` 64-byte blocks of `bytes`.
    private static func compress(_ bytes: UnsafeRawBufferPointer, blocks: Int,
                                 into state: inout (UInt32, UInt32, UInt32, UInt32)) {
        // Local copies (no lazy-global check per round), read through pointers (no bounds checks:
        // every index is a constant below 64 or 16).
        let table = MD5.table
        var words = (UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0),
                     UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0))
        table.withUnsafeBufferPointer { k in
            withUnsafeMutableBytes(of: &words) { raw in
                let m = raw.bindMemory(to: UInt32.self)
                for block in 0..<blocks {
                    for i in 0..<16 {
                        m[i] = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: block * 64 + i * 4, as: UInt32.self))
                    }
                    var (a, b, c, d) = state
                    // RFC 1321's steps [abcd k s i] with the variables taking turns, four per
                    // iteration so every rotation amount is a constant.
                    var i = 0
                    while i < 16 {
                        a = b &+ rotl(((b & c) | (~b & d)) &+ a &+ k[i] &+ m[i], 7)
                        d = a &+ rotl(((a & b) | (~a & c)) &+ d &+ k[i + 1] &+ m[i + 1], 12)
                        c = d &+ rotl(((d & a) | (~d & b)) &+ c &+ k[i + 2] &+ m[i + 2], 17)
                        b = c &+ rotl(((c & d) | (~c & a)) &+ b &+ k[i + 3] &+ m[i + 3], 22)
                        i += 4
                    }
                    while i < 32 {
                        a = b &+ rotl(((b & d) | (c & ~d)) &+ a &+ k[i] &+ m[(5 * i + 1) & 15], 5)
                        d = a &+ rotl(((a & c) | (b & ~c)) &+ d &+ k[i + 1] &+ m[(5 * i + 6) & 15], 9)
                        c = d &+ rotl(((d & b) | (a & ~b)) &+ c &+ k[i + 2] &+ m[(5 * i + 11) & 15], 14)
                        b = c &+ rotl(((c & a) | (d & ~a)) &+ b &+ k[i + 3] &+ m[(5 * i + 16) & 15], 20)
                        i += 4
                    }
                    while i < 48 {
                        a = b &+ rotl((b ^ c ^ d) &+ a &+ k[i] &+ m[(3 * i + 5) & 15], 4)
                        d = a &+ rotl((a ^ b ^ c) &+ d &+ k[i + 1] &+ m[(3 * i + 8) & 15], 11)
                        c = d &+ rotl((d ^ a ^ b) &+ c &+ k[i + 2] &+ m[(3 * i + 11) & 15], 16)
                        b = c &+ rotl((c ^ d ^ a) &+ b &+ k[i + 3] &+ m[(3 * i + 14) & 15], 23)
                        i += 4
                    }
                    while i < 64 {
                        a = b &+ rotl((c ^ (b | ~d)) &+ a &+ k[i] &+ m[(7 * i) & 15], 6)
                        d = a &+ rotl((b ^ (a | ~c)) &+ d &+ k[i + 1] &+ m[(7 * i + 7) & 15], 10)
                        c = d &+ rotl((a ^ (d | ~b)) &+ c &+ k[i + 2] &+ m[(7 * i + 14) & 15], 15)
                        b = c &+ rotl((d ^ (c | ~a)) &+ b &+ k[i + 3] &+ m[(7 * i + 21) & 15], 21)
                        i += 4
                    }
                    state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
                }
            }
        }
    }
}
