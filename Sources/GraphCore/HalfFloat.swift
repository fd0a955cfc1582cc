/// IEEE binary16 to binary32, exact, without a library call per value (Swift's `Float(Float16)`
/// is one on x86-64 without F16C): rebias normals, renormalise subnormals through a float
/// subtraction, keep infinities and quiet NaNs as `VCVTPH2PS` does.
@usableFromInline package enum HalfFloat {
    @inlinable @inline(__always)
    package static func float(_ h: UInt16) -> Float {
        let magnitude = UInt32(h & 0x7FFF) << 13
        let exponent = magnitude & 0x0F80_0000
        var bits = magnitude &+ (112 << 23)
        if exponent == 0x0F80_0000 {
            bits = magnitude | 0x7F80_0000
            if magnitude & 0x007F_E000 != 0 { bits |= 0x0040_0000 }
        } else if exponent == 0 {
            bits = (Float(bitPattern: magnitude &+ (113 << 23)) - Float(bitPattern: 113 << 23)).bitPattern
        }
        return Float(bitPattern: bits | (UInt32(h & 0x8000) << 16))
    }
}
