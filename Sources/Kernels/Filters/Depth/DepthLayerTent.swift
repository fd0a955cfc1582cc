import GraphEngine

/// Which share of a pixel of blur value `c` one layer of a layered lens blur (CIDepthBlurEffect)
/// takes: the tent, in c², of the layer's radius `mid` between its lattice neighbours `low` and
/// `high` (signed radii, all on the layer's side of the focus plane):
/// `(c² − low²)/(mid² − low²)` below mid, `(high² − c²)/(high² − mid²)` above, clamped to [0, 1],
/// 0 for a c of the other sign or NaN. Neighbouring layers' tents sum to 1, and a tent in c² mixes
/// the two neighbouring discs with the spread (variance r²/4) of the disc of radius |c| between
/// them, where a tent in c renders it wider.
package struct DepthLayerTent: Hashable, Sendable {
    package let low: Float, mid: Float, high: Float
    /// The squared radii of the tent's foot nearer the focus, its peak and its far foot.
    let inner: Float, middle: Float, outer: Float

    package init(low: Double, mid: Double, high: Double) {
        (self.low, self.mid, self.high) = (Float(low), Float(mid), Float(high))
        let near = min(abs(low), abs(high)), far = max(abs(low), abs(high))
        (inner, middle, outer) = (Float(near * near), Float(mid * mid), Float(far * far))
    }

    var summary: String {
        "depth layer radius \(formatFloat(Double(mid))) (tent in c² \(formatFloat(Double(low)))…\(formatFloat(Double(high))))"
    }

    /// The weight of blur value `c`, the slopes as reciprocals (as ``weights(_:)``).
    @inline(__always)
    func weight(_ c: Float) -> Float {
        let q = c * c
        let w = q < middle ? (q - inner) * (1 / (middle - inner)) : (outer - q) * (1 / (outer - middle))
        return w > 0 && c * mid > 0 ? min(w, 1) : 0
    }

    /// ``weight(_:)`` of eight values, lane by lane the same operations.
    @inline(__always)
    func weights(_ c: SIMD8<Float>) -> SIMD8<Float> {
        let q = c * c
        var w = (q - inner) * (1 / (middle - inner))
        w.replace(with: (outer - q) * (1 / (outer - middle)), where: .!(q .< middle))
        w.replace(with: 0, where: .!((w .> 0) .& (c * mid .> 0)))
        return w.replacing(with: 1, where: w .> 1)
    }
}
