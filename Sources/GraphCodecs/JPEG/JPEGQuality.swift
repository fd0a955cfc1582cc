/// The libjpeg quality (1...100) a JPEG quantises about as finely as, from its luminance
/// quantisation table: the quality whose scaled standard table is nearest to the file's (summed
/// absolute difference over the 64 entries). libjpeg scales the standard table of ITU T.81
/// Annex K.1 by s = 5000/q below 50 and s = 200 − 2q from 50, each entry ⌊(t·s + 50)/100⌋
/// clamped to 1...255 (`jpeg_quality_scaling`). Cameras use tables of their own (a Pixel's
/// Original item comes out at 94), so this is the quality to write a re-encoded copy at to keep
/// about its fidelity and size, not the camera's setting.
public enum JPEGQuality {
    /// The standard luminance table (Annex K.1) in zig-zag order, as DQT segments store tables.
    static let standardLuminance: [Int] = [
        16, 11, 12, 14, 12, 10, 16, 14, 13, 14, 18, 17, 16, 19, 24, 40, 26, 24, 22, 22, 24, 49, 35, 37, 29, 40, 58, 51, 61, 60, 57, 51,
        56, 55, 64, 72, 92, 78, 64, 68, 87, 69, 55, 56, 80, 109, 81, 87, 95, 98, 103, 104, 103, 62, 77, 113, 121, 112, 100, 120, 92, 101,
        103, 99,
    ]

    /// The estimated quality of the JPEG stream `bytes`, or nil when its header holds no
    /// luminance table (table 0) before the first scan, or is not a JPEG.
    public static func estimate(_ bytes: [UInt8]) -> Int? {
        guard let table = luminanceTable(bytes) else { return nil }
        var best = (quality: 1, distance: Int.max)
        for quality in 1...100 {
            let distance = zip(scaledStandardTable(quality: quality), table).reduce(0) { $0 + abs($1.0 - $1.1) }
            if distance < best.distance { best = (quality, distance) }
        }
        return best.quality
    }

    /// libjpeg's luminance table for `quality`, zig-zag order.
    static func scaledStandardTable(quality: Int) -> [Int] {
        let scale = quality < 50 ? 5000 / quality : 200 - 2 * quality
        return standardLuminance.map { min(255, max(1, ($0 * scale + 50) / 100)) }
    }

    /// Quantisation table 0 of the first DQT segment that defines it, before the first SOS.
    static func luminanceTable(_ bytes: [UInt8]) -> [Int]? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var position = 2
        while position + 4 <= bytes.count {
            guard bytes[position] == 0xFF else { return nil }
            let marker = bytes[position + 1]
            if marker == 0xFF { position += 1; continue }  // fill byte
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { position += 2; continue }
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            let end = position + 2 + length
            guard length >= 2, end <= bytes.count else { return nil }
            if marker == 0xDB {
                var table = position + 4
                while table < end {
                    let precision = Int(bytes[table] >> 4), id = bytes[table] & 0x0F
                    let size = precision == 0 ? 64 : 128
                    guard table + 1 + size <= end else { return nil }
                    if id == 0 {
                        return (0..<64).map { entry in
                            precision == 0 ? Int(bytes[table + 1 + entry])
                                : Int(bytes[table + 1 + 2 * entry]) << 8 | Int(bytes[table + 2 + 2 * entry])
                        }
                    }
                    table += 1 + size
                }
            }
            position = end
        }
        return nil
    }
}
