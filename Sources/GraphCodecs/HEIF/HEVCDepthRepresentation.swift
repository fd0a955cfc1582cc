/// The HEVC depth representation information SEI (H.265 annex G, `depth_representation_info`,
/// payload type 177) that Apple puts in the `auxC` subtype of a HEIC depth item
/// (depth-formats.md 2.3): what the stored values mean and their range.
public struct HEVCDepthRepresentation: Sendable, Equatable, Hashable {
    /// `depth_representation_type`: 0 uniform inverse Z, 1 uniform disparity, 2 uniform Z,
    /// 3 non-uniform disparity.
    public var type: Int
    /// `z_near`: the nearest depth, for Z types.
    public var zNear: Double?
    /// `z_far`: the farthest depth, for Z types.
    public var zFar: Double?
    /// `d_min`: the smallest disparity, for disparity types.
    public var dMin: Double?
    /// `d_max`: the largest disparity, for disparity types.
    public var dMax: Double?
    /// `disparity_ref_view_id`, when given.
    public var disparityReferenceView: Int?

    /// A representation of `type` with the ranges the SEI gives.
    public init(type: Int, zNear: Double? = nil, zFar: Double? = nil, dMin: Double? = nil, dMax: Double? = nil,
                disparityReferenceView: Int? = nil) {
        self.type = type
        self.zNear = zNear
        self.zFar = zFar
        self.dMin = dMin
        self.dMax = dMax
        self.disparityReferenceView = disparityReferenceView
    }

    /// ``type`` in words (`uniform disparity`).
    public var typeName: String {
        switch type {
        case 0: return "uniform inverse Z"
        case 1: return "uniform disparity"
        case 2: return "uniform Z"
        case 3: return "non-uniform disparity"
        default: return "type \(type)"
        }
    }

    /// Parses an `auxC` subtype: a 32-bit length, then NAL units each with a 32-bit length,
    /// looking for a prefix or suffix SEI NAL unit with a depth representation message. Nil
    /// when there is none; malformed bytes also give nil (the caller reports the map as lacking
    /// a range), never a trap.
    public static func parse(auxiliarySubtype bytes: [UInt8]) -> HEVCDepthRepresentation? {
        let reader = ByteReader(bytes)
        guard let total = reader.u32(0).map(Int.init), total <= bytes.count - 4 else { return nil }
        var position = 4
        let end = 4 + total
        while position + 4 <= end {
            guard let length = reader.u32(position).map(Int.init), length >= 2, length <= end - position - 4 else { return nil }
            let nal = Array(bytes[(position + 4)..<(position + 4 + length)])
            position += 4 + length
            let nalType = (nal[0] >> 1) & 0x3F
            guard nalType == 39 || nalType == 40 else { continue }
            if let found = parseSEI(removingEmulationPrevention(nal[2...])) { return found }
        }
        return nil
    }

    /// SEI messages of one NAL unit's RBSP: type and size coded as runs of 0xFF plus a last byte.
    static func parseSEI(_ rbsp: [UInt8]) -> HEVCDepthRepresentation? {
        var position = 0
        while position < rbsp.count, rbsp[position] != 0x80 {  // 0x80: RBSP trailing bits
            var payloadType = 0, payloadSize = 0
            while position < rbsp.count, rbsp[position] == 0xFF { payloadType += 255; position += 1 }
            guard position < rbsp.count else { return nil }
            payloadType += Int(rbsp[position]); position += 1
            while position < rbsp.count, rbsp[position] == 0xFF { payloadSize += 255; position += 1 }
            guard position < rbsp.count else { return nil }
            payloadSize += Int(rbsp[position]); position += 1
            guard payloadSize <= rbsp.count - position else { return nil }
            if payloadType == 177 {
                return parsePayload(Array(rbsp[position..<(position + payloadSize)]))
            }
            position += payloadSize
        }
        return nil
    }

    /// The `depth_representation_info` payload bits.
    static func parsePayload(_ payload: [UInt8]) -> HEVCDepthRepresentation? {
        var bits = BitReader(payload)
        guard let zNearFlag = bits.bit(), let zFarFlag = bits.bit(), let dMinFlag = bits.bit(), let dMaxFlag = bits.bit(),
              let type = bits.unsignedExpGolomb() else { return nil }
        var info = HEVCDepthRepresentation(type: type)
        if dMinFlag || dMaxFlag {
            guard let view = bits.unsignedExpGolomb() else { return nil }
            info.disparityReferenceView = view
        }
        func element() -> Double?? {
            guard let sign = bits.bit(), let exponent = bits.bits(7), let lengthMinus1 = bits.bits(5),
                  let mantissa = bits.bits(lengthMinus1 + 1) else { return .none }
            let v = Double(lengthMinus1 + 1)
            let magnitude: Double?
            switch exponent {
            case 0: magnitude = Double(mantissa) * pow2(-(30 + v))
            case 127: magnitude = nil  // unspecified
            default: magnitude = pow2(Double(exponent) - 31) * (1 + Double(mantissa) * pow2(-v))
            }
            return .some(magnitude.map { sign ? -$0 : $0 })
        }
        if zNearFlag { guard let value = element() else { return nil }; info.zNear = value }
        if zFarFlag { guard let value = element() else { return nil }; info.zFar = value }
        if dMinFlag { guard let value = element() else { return nil }; info.dMin = value }
        if dMaxFlag { guard let value = element() else { return nil }; info.dMax = value }
        return info
    }

    /// 2^x for the exponents that occur here (|x| < 200), exactly.
    static func pow2(_ x: Double) -> Double {
        var result = 1.0
        let steps = Int(abs(x))
        for _ in 0..<steps { result = x < 0 ? result / 2 : result * 2 }
        return result
    }

    /// NAL payload bytes with the emulation prevention bytes (00 00 03 → 00 00) removed.
    static func removingEmulationPrevention(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var zeros = 0
        for byte in bytes {
            if zeros >= 2 && byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            out.append(byte)
        }
        return out
    }
}

/// Most-significant-bit-first reader over bytes; every read checks the end.
struct BitReader {
    let bytes: [UInt8]
    var position = 0  // in bits

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func bit() -> Bool? {
        guard position < bytes.count * 8 else { return nil }
        defer { position += 1 }
        return bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1 == 1
    }

    /// `count` bits (at most 32) as an unsigned number.
    mutating func bits(_ count: Int) -> Int? {
        guard count >= 0, count <= 32 else { return nil }
        var value = 0
        for _ in 0..<count {
            guard let b = bit() else { return nil }
            value = value << 1 | (b ? 1 : 0)
        }
        return value
    }

    /// ue(v): leading zeros n, a one, then n bits; value 2^n − 1 + bits (n at most 31).
    mutating func unsignedExpGolomb() -> Int? {
        var zeros = 0
        while true {
            guard let b = bit() else { return nil }
            if b { break }
            zeros += 1
            guard zeros <= 31 else { return nil }
        }
        guard let rest = bits(zeros) else { return nil }
        return (1 << zeros) - 1 + rest
    }
}
