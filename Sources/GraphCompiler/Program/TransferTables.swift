/// Tables that make the sRGB transfer functions cheap in span loops.
///
/// `pow` per channel would dominate a colour-managed render, so values in [−1, 1] go through a
/// 4097-entry table with linear interpolation (largest error about 2e-5, far below an 8-bit step);
/// values outside (extended range) and NaN use the exact formula. 8-bit sources are decoded with an
/// exact 256-entry table while they load.
package enum TransferTables {
    package static let resolution = 4096

    /// `linearToSRGB(k / 4096)` for k in 0...4096.
    package static let encode: [Float] = (0...resolution).map { ScalarMath.linearToSRGB(Float(Double($0) / Double(resolution))) }
    /// `srgbToLinear(k / 4096)` for k in 0...4096.
    package static let decode: [Float] = (0...resolution).map { ScalarMath.srgbToLinear(Float(Double($0) / Double(resolution))) }
    /// The exact decode of every 8-bit code, computed in Double.
    static let decode8: [Float] = (0...255).map { code -> Float in
        let y = Double(code) / 255
        return Float(y <= 0.04045 ? y / 12.92 : Foundation.pow((y + 0.055) / 1.055, 2.4))
    }

    /// 8-bit sRGB codes of linear values `k / 65535` (the encode fused into 8-bit stores): within one
    /// code of exact rounding, and exact except within 1/40 of a code of a rounding boundary.
    package static let encode8: [UInt8] = (0...65535).map { k -> UInt8 in
        let x = Double(k) / 65535
        let y = x <= 0.0031308 ? x * 12.92 : 1.055 * Foundation.pow(x, 1 / 2.4) - 0.055
        return UInt8(min(max((y * 255).rounded(), 0), 255))
    }

    /// The 256-entry table that decodes 8-bit codes through `transfer` while they load.
    package static func byteDecode(for transfer: ColorSpace.Transfer) -> [Float]? {
        switch transfer {
        case .sRGB: return decode8
        case .curve(let curve): return curve.byteTable
        case .linear: return nil
        }
    }
}

import Foundation
