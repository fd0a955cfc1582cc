/// Base64 (RFC 4648, standard alphabet) for binary data carried in XMP text: GDepth's depth map
/// and original image, Apple's rendering parameters.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// 6-bit value of each byte; 0xFF for bytes outside the alphabet.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// Decodes `text`, ignoring XML white space (writers wrap long values); padding is optional.
    /// Nil when a character is outside the alphabet, padding sits in the middle or runs past two,
    /// or the length leaves a single dangling character.
    package static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode($0) }
    }

    /// The same for UTF-8 bytes.
    package static func decode(_ text: [UInt8]) -> [UInt8]? {
        text.withUnsafeBufferPointer { decode($0) }
    }

    private static func decode(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let values = Base64.values  // once, not a lazy-global check per character
        var valid = true
        let decoded = [UInt8](unsafeUninitializedCapacity: input.count / 4 * 3 + 3) { output, written in
            var accumulator: UInt32 = 0
            var bits = 0
            var padding = 0
            var count = 0
            for byte in input {
                let value = values[Int(byte)]
                if value != 0xFF && padding == 0 {
                    accumulator = accumulator << 6 | UInt32(value)
                    bits += 6
                    if bits >= 8 {
                        bits -= 8
                        output[count] = UInt8(truncatingIfNeeded: accumulator >> UInt32(bits))
                        count += 1
                        accumulator &= (1 << UInt32(bits)) - 1
                    }
                } else if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                    continue
                } else if byte == 0x3D && padding < 2 {  // '='
                    padding += 1
                } else {
                    valid = false
                    break
                }
            }
            // 2 or 4 leftover bits are the zero fill of a final group; 6 would be a lone character.
            if bits >= 6 { valid = false }
            written = count
        }
        return valid ? decoded : nil
    }

    /// Encodes with padding and no line breaks.
    package static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out += [alphabet[Int(group >> 18)], alphabet[Int(group >> 12 & 63)], alphabet[Int(group >> 6 & 63)],
                    alphabet[Int(group & 63)]]
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            let group = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
            out += [alphabet[Int(group >> 18)], alphabet[Int(group >> 12 & 63)]]
            out += rest == 2 ? [alphabet[Int(group >> 6 & 63)], 0x3D] : [0x3D, 0x3D]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
