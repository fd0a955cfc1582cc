/// Builds minimal, valid ICC v4.3 display profiles in code so outputs can be tagged
/// without shipping profile files: header, desc/cprt (mluc), wtpt, chad, rXYZ/gXYZ/bXYZ
/// and rTRC/gTRC/bTRC sharing one 'para' curve. The profile ID (MD5) is filled in.
extension ICCProfile {
    /// sRGB 'para' function type 3 parameters: g, a, b, c, d.
    public static let sRGBTransferParameters: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]

    /// A minimal sRGB profile (parses back as `.sRGB`).
    public static let sRGBBytes: [UInt8] = makeRGBProfile(
        description: "sRGB (GraphCodecs)", primaries: .sRGB, transferFunctionType: 3, transfer: sRGBTransferParameters)

    /// A minimal Display P3 profile (P3 primaries, D65 white, sRGB curve; parses back as `.displayP3`).
    public static let displayP3Bytes: [UInt8] = makeRGBProfile(
        description: "Display P3 (GraphCodecs)", primaries: .displayP3, transferFunctionType: 3,
        transfer: sRGBTransferParameters)

    /// A minimal linear-light sRGB profile (gamma 1; parses back as `.linearSRGB`).
    public static let linearSRGBBytes: [UInt8] = makeRGBProfile(
        description: "Linear sRGB (GraphCodecs)", primaries: .sRGB, transferFunctionType: 0, transfer: [1.0])

    /// Builds an RGB display profile from primaries and a 'para' curve.
    public static func makeRGBProfile(
        description: String, primaries: ColorPrimaries, transferFunctionType: Int, transfer: [Double]
    ) -> [UInt8] {
        func fixed(_ value: Double) -> Int { Int((value * 65536).rounded()) }
        func xyzTag(_ v: [Double]) -> [UInt8] {
            var t: [UInt8] = Array("XYZ ".utf8) + [0, 0, 0, 0]
            for c in v { t.appendBE32(fixed(c)) }
            return t
        }
        func mluc(_ text: String) -> [UInt8] {
            var t: [UInt8] = Array("mluc".utf8) + [0, 0, 0, 0]
            let utf16 = Array(text.utf16)
            t.appendBE32(1)
            t.appendBE32(12)
            t += Array("enUS".utf8)
            t.appendBE32(utf16.count * 2)
            t.appendBE32(28)
            for unit in utf16 { t.appendBE16(Int(unit)) }
            return t
        }
        var para: [UInt8] = Array("para".utf8) + [0, 0, 0, 0]
        para.appendBE16(transferFunctionType)
        para.appendBE16(0)
        for p in transfer { para.appendBE32(fixed(p)) }

        let m = primaries.matrixD50
        let chad = primaries.adaptationToD50
        var chadTag: [UInt8] = Array("sf32".utf8) + [0, 0, 0, 0]
        for v in chad { chadTag.appendBE32(fixed(v)) }

        let tags: [(String, [UInt8])] = [
            ("desc", mluc(description)),
            ("cprt", mluc("No copyright, use freely")),
            ("wtpt", xyzTag(ColorPrimaries.d50)),
            ("chad", chadTag),
            ("rXYZ", xyzTag([m[0], m[3], m[6]])),
            ("gXYZ", xyzTag([m[1], m[4], m[7]])),
            ("bXYZ", xyzTag([m[2], m[5], m[8]])),
            ("rTRC", para), ("gTRC", para), ("bTRC", para),
        ]
        // Lay out tag data after the table, 4-byte aligned; identical TRCs share one copy.
        var table: [UInt8] = []
        var data: [UInt8] = []
        let dataStart = 128 + 4 + tags.count * 12
        var placed: [[UInt8]: Int] = [:]
        for (signature, body) in tags {
            let offset: Int
            if let existing = placed[body] {
                offset = existing
            } else {
                while data.count % 4 != 0 { data.append(0) }
                offset = dataStart + data.count
                placed[body] = offset
                data += body
            }
            table += Array(signature.utf8)
            table.appendBE32(offset)
            table.appendBE32(body.count)
        }
        while data.count % 4 != 0 { data.append(0) }

        var header = [UInt8](repeating: 0, count: 128)
        func put32(_ at: Int, _ value: Int) {
            for i in 0..<4 { header[at + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * i)) }
        }
        func put4CC(_ at: Int, _ s: String) { header.replaceSubrange(at..<at + 4, with: Array(s.utf8)) }
        let total = dataStart + data.count
        put32(0, total)
        put32(8, 0x0430_0000)
        put4CC(12, "mntr")
        put4CC(16, "RGB ")
        put4CC(20, "XYZ ")
        let date = [2024, 1, 1, 0, 0, 0]  // fixed: profiles are byte-for-byte reproducible
        for (i, v) in date.enumerated() {
            header[24 + 2 * i] = UInt8(v >> 8)
            header[25 + 2 * i] = UInt8(v & 0xFF)
        }
        put4CC(36, "acsp")
        put32(68, fixed(ColorPrimaries.d50[0]))
        put32(72, fixed(ColorPrimaries.d50[1]))
        put32(76, fixed(ColorPrimaries.d50[2]))
        var count: [UInt8] = []
        count.appendBE32(tags.count)
        var profile = header + count + table + data
        // Profile ID: MD5 of the profile with flags, rendering intent and ID zeroed (they are).
        let digest = MD5.hexDigest(profile)
        let hex = Array(digest.utf8)
        for i in 0..<16 {
            let hi = hexValue(hex[2 * i]), lo = hexValue(hex[2 * i + 1])
            profile[84 + i] = UInt8(hi << 4 | lo)
        }
        return profile
    }

    private static func hexValue(_ c: UInt8) -> Int {
        c >= 0x41 ? Int(c) - 0x41 + 10 : Int(c) - 0x30
    }
}
