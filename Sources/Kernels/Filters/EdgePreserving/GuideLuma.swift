import CRowKernels
import Foundation
import GraphEngine

/// The guide of the joint bilateral upsample (CIEdgePreserveUpsampleFilter): the photo's luma,
/// sRGB-encoded, `G = encode_sRGB(L(rgb / a))` with `L = 0.2125 r + 0.7154 g + 0.0721 b` (rgb / a only
/// where a > 0). The passes compute it from the photo's rows span by span as they load them, so no
/// full-size luma image, and no RGBA copy of the photo, is ever stored.
///
/// The encode goes through the engine's 4097-entry sRGB table with linear interpolation for
/// |L| ≤ 1 (the `linearToSRGB` instruction's: largest error 1.7e-5 over [0, 1], at the knee near 0.0033), the exact formula
/// beyond.
enum GuideLuma {
    /// `count` values of G from premultiplied planes: the passes' ``AreaOperation/reduction(input:)``
    /// of the guide, so they store G alone as the guide loads.
    static func row(_ r: UnsafePointer<Float>, _ g: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ a: UnsafePointer<Float>,
                    count: Int, into out: UnsafeMutablePointer<Float>) {
        TransferTables.encode.withUnsafeBufferPointer { table in
            guard let table = table.baseAddress else { return }
            graph_guide_luma_row(r, g, b, a, Int32(count), table, Int32(TransferTables.resolution), out)
        }
    }

    /// G of one premultiplied pixel, exactly, in Double (the reference).
    static func value(_ pixel: SIMD4<Float>) -> Double {
        let p = SIMD4<Double>(pixel)
        var y = 0.2125 * p[0] + 0.7154 * p[1] + 0.0721 * p[2]
        if p[3] > 0 { y /= p[3] }
        let magnitude = abs(y)
        let encoded = magnitude <= 0.0031308 ? 12.92 * magnitude : 1.055 * pow(magnitude, 1 / 2.4) - 0.055
        return y < 0 ? -encoded : encoded
    }
}
