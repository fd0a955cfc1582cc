#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A parsed ICC colour profile: header, primaries (rXYZ/gXYZ/bXYZ), white point, tone
/// curves and description, plus recognition of the common spaces by their numbers (not by
/// name): sRGB, Display P3, linear sRGB, grey.
public struct ICCProfile: Sendable, Equatable {
    /// What the profile describes, judged from primaries and transfer curve.
    public enum Kind: String, Sendable, Equatable {
        /// sRGB, Display P3 or linear sRGB (recognised by their numbers), a grey profile, or any other.
        case sRGB, displayP3, linearSRGB, grey, other
    }

    /// A tone reproduction curve.
    public enum Curve: Sendable, Equatable {
        /// 'curv' with no entries.
        case identity
        /// 'curv' with one entry, or 'para' type 0.
        case gamma(Double)
        /// 'para' (function type 0...4 and its parameters g, a, b, c, d, e, f as present).
        case parametric(functionType: Int, parameters: [Double])
        /// 'curv' table, normalised to 0...1.
        case table([Double])

        /// Evaluates the curve at x in 0...1.
        public func evaluate(_ x: Double) -> Double {
            switch self {
            case .identity: return x
            case .gamma(let g): return pow(max(x, 0), g)
            case .table(let values):
                guard values.count > 1 else { return values.first ?? x }
                let position = min(max(x, 0), 1) * Double(values.count - 1)
                let i = min(Int(position), values.count - 2)
                let t = position - Double(i)
                return values[i] * (1 - t) + values[i + 1] * t
            case .parametric(let type, let p):
                func param(_ i: Int) -> Double { i < p.count ? p[i] : 0 }
                let g = param(0), a = param(1), b = param(2), c = param(3), d = param(4), e = param(5), f = param(6)
                func power(_ base: Double) -> Double { base <= 0 ? 0 : pow(base, g) }
                switch type {
                case 0: return power(x)
                case 1: return x >= -b / a ? power(a * x + b) : 0
                case 2: return x >= -b / a ? power(a * x + b) + c : c
                case 3: return x >= d ? power(a * x + b) : c * x
                case 4: return x >= d ? power(a * x + b) + e : c * x + f
                default: return x
                }
            }
        }
    }

    /// The profile's raw bytes.
    public var bytes: [UInt8]
    /// Version as "major.minor.bugfix".
    public var version: String
    /// Device class signature ('mntr', 'scnr', 'prtr', 'spac', ...).
    public var deviceClass: String
    /// Data colour space signature ('RGB ', 'GRAY', 'CMYK', ...).
    public var colorSpace: String
    /// Profile connection space ('XYZ ' or 'Lab ').
    public var connectionSpace: String
    /// Text of the 'desc' tag ('desc' or 'mluc' type); "" when absent.
    public var description: String
    /// Tag signatures in table order.
    public var tagSignatures: [String]
    /// Media white point (wtpt), XYZ.
    public var whitePoint: [Double]?
    /// Row-major 3x3 matrix whose columns are rXYZ, gXYZ, bXYZ (D50-adapted), when present.
    public var rgbToXYZD50: [Double]?
    /// Red, green, blue tone curves (or one grey curve for GRAY profiles).
    public var curves: [Curve]
    /// The profile's kind: RGB matrix/TRC, grey, or another.
    public var kind: Kind

    /// Parametric parameters of the (shared) transfer curve when all channels use the same
    /// 'para' curve: [g, a, b, c, d, (e, f)]. Nil otherwise.
    public var transfer: [Double]? {
        guard let first = curves.first, curves.allSatisfy({ $0 == first }) else { return nil }
        switch first {
        case .parametric(_, let parameters): return parameters
        case .gamma(let g): return [g]
        default: return nil
        }
    }

    /// Linear RGB of this profile to linear sRGB (row-major 3×3), for RGB matrix/TRC profiles:
    /// sRGB's D50-adapted matrix inverted, times the profile's (both adapted with Bradford, as
    /// the ICC requires, so the white points cancel). For GRAY profiles, the identity (grey maps
    /// to the same neutral). Nil without the colorant tags.
    public var toLinearSRGB: [Double]? {
        if colorSpace == "GRAY" { return [1, 0, 0, 0, 1, 0, 0, 0, 1] }
        guard colorSpace == "RGB ", let matrix = rgbToXYZD50 else { return nil }
        return Matrix3.multiply(Matrix3.inverse(ColorPrimaries.sRGB.matrixD50), matrix)
    }

    /// The one curve every channel uses (the grey curve of a GRAY profile), or nil when the
    /// channels differ or a curve is missing.
    public var sharedCurve: Curve? {
        guard let first = curves.first, curves.count == (colorSpace == "GRAY" ? 1 : 3),
              curves.allSatisfy({ $0 == first }) else { return nil }
        return first
    }

    /// Parses a profile. Throws for data that is not an ICC profile (bad size or signature);
    /// unknown or malformed individual tags are skipped.
    public init(bytes: [UInt8]) throws(CodecError) {
        let reader = ByteReader(bytes)
        guard bytes.count >= 132, let size = reader.u32(0), Int(size) <= bytes.count,
            reader.fourCC(36) == "acsp"
        else {
            throw CodecError(.corrupt, "not an ICC profile (bad size or missing 'acsp' signature)", segment: "ICC profile")
        }
        self.bytes = bytes
        let major = bytes[8], minor = bytes[9] >> 4, bugfix = bytes[9] & 0xF
        version = "\(major).\(minor).\(bugfix)"
        deviceClass = reader.fourCC(12) ?? ""
        colorSpace = reader.fourCC(16) ?? ""
        connectionSpace = reader.fourCC(20) ?? ""
        var tags: [String: (offset: Int, size: Int)] = [:]
        var signatures: [String] = []
        let tagCount = Int(reader.u32(128) ?? 0)
        for i in 0..<min(tagCount, 1000) {
            let entry = 132 + i * 12
            guard let signature = reader.fourCC(entry), let offset = reader.u32(entry + 4),
                let length = reader.u32(entry + 8)
            else { break }
            signatures.append(signature)
            if Int(offset) + Int(length) <= bytes.count { tags[signature] = (Int(offset), Int(length)) }
        }
        tagSignatures = signatures
        func tag(_ name: String) -> [UInt8]? {
            guard let location = tags[name] else { return nil }
            return reader.slice(location.offset, location.size)
        }
        description = tag("desc").flatMap(ICCProfile.parseText) ?? ""
        whitePoint = tag("wtpt").flatMap(ICCProfile.parseXYZ)
        if let r = tag("rXYZ").flatMap(ICCProfile.parseXYZ), let g = tag("gXYZ").flatMap(ICCProfile.parseXYZ),
            let b = tag("bXYZ").flatMap(ICCProfile.parseXYZ)
        {
            rgbToXYZD50 = [r[0], g[0], b[0], r[1], g[1], b[1], r[2], g[2], b[2]]
        } else {
            rgbToXYZD50 = nil
        }
        if colorSpace == "GRAY" {
            curves = tag("kTRC").flatMap(ICCProfile.parseCurve).map { [$0] } ?? []
        } else {
            curves = ["rTRC", "gTRC", "bTRC"].compactMap { tag($0).flatMap(ICCProfile.parseCurve) }
        }
        kind = .other
        kind = classify()
    }

    // MARK: Recognition

    /// sRGB's electro-optical transfer function.
    public static func srgbCurve(_ x: Double) -> Double {
        x >= 0.04045 ? pow((x + 0.055) / 1.055, 2.4) : x / 12.92
    }

    private func classify() -> Kind {
        if colorSpace == "GRAY" { return .grey }
        guard colorSpace == "RGB ", let matrix = rgbToXYZD50, curves.count == 3 else { return .other }
        let samples = (0...20).map { Double($0) / 20 }
        func curvesMatch(_ reference: (Double) -> Double) -> Bool {
            curves.allSatisfy { curve in samples.allSatisfy { abs(curve.evaluate($0) - reference($0)) < 0.01 } }
        }
        func matrixMatches(_ reference: [Double]) -> Bool {
            zip(matrix, reference).allSatisfy { abs($0 - $1) < 0.003 }
        }
        if matrixMatches(ColorPrimaries.sRGB.matrixD50) {
            if curvesMatch(ICCProfile.srgbCurve) { return .sRGB }
            if curvesMatch({ $0 }) { return .linearSRGB }
        }
        if matrixMatches(ColorPrimaries.displayP3.matrixD50), curvesMatch(ICCProfile.srgbCurve) {
            return .displayP3
        }
        return .other
    }

    // MARK: Tag types

    static func s15Fixed16(_ reader: ByteReader, _ offset: Int) -> Double? {
        reader.s32(offset).map { Double($0) / 65536 }
    }

    static func parseXYZ(_ data: [UInt8]) -> [Double]? {
        let reader = ByteReader(data)
        guard reader.fourCC(0) == "XYZ ", let x = s15Fixed16(reader, 8), let y = s15Fixed16(reader, 12),
            let z = s15Fixed16(reader, 16)
        else { return nil }
        return [x, y, z]
    }

    static func parseCurve(_ data: [UInt8]) -> Curve? {
        let reader = ByteReader(data)
        switch reader.fourCC(0) {
        case "curv":
            guard let count = reader.u32(8).map(Int.init) else { return nil }
            if count == 0 { return .identity }
            if count == 1 { return reader.u16(12).map { .gamma(Double($0) / 256) } }
            guard count <= (data.count - 12) / 2 else { return nil }
            return .table((0..<count).compactMap { i in reader.u16(12 + 2 * i).map { Double($0) / 65535 } })
        case "para":
            guard let type = reader.u16(8).map(Int.init) else { return nil }
            let counts = [1, 3, 4, 5, 7]
            guard type < counts.count else { return nil }
            let parameters = (0..<counts[type]).compactMap { s15Fixed16(reader, 12 + 4 * $0) }
            guard parameters.count == counts[type] else { return nil }
            return type == 0 ? .gamma(parameters[0]) : .parametric(functionType: type, parameters: parameters)
        default:
            return nil
        }
    }

    /// 'desc' (ASCII), 'mluc' (first record, UTF-16BE) or 'text'.
    static func parseText(_ data: [UInt8]) -> String? {
        let reader = ByteReader(data)
        switch reader.fourCC(0) {
        case "desc":
            guard let count = reader.u32(8).map(Int.init), let ascii = reader.slice(12, count) else { return nil }
            return String(decoding: ascii.prefix(while: { $0 != 0 }), as: UTF8.self)
        case "mluc":
            guard let records = reader.u32(8), records > 0, let length = reader.u32(20).map(Int.init),
                let offset = reader.u32(24).map(Int.init), let raw = reader.slice(offset, length)
            else { return nil }
            let units = stride(from: 0, to: raw.count - 1, by: 2).map { UInt16(raw[$0]) << 8 | UInt16(raw[$0 + 1]) }
            return String(decoding: units, as: UTF16.self).trimmingTrailingNULs()
        case "text":
            return String(decoding: data.dropFirst(8).prefix(while: { $0 != 0 }), as: UTF8.self)
        default:
            return nil
        }
    }
}

extension String {
    fileprivate func trimmingTrailingNULs() -> String {
        var s = self
        while s.last == "\u{0}" { s.removeLast() }
        return s
    }
}
