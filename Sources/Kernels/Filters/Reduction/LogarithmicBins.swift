import Foundation

/// CIAreaLogarithmicHistogram's bin of a colour value, `clamp(⌊(log₂ v − minimumStop)·perStop⌋, 0,
/// count − 1)` in Double (v ≤ 0 in bin 0), looked up by the value's upper 16 bits (sign, exponent
/// and 7 mantissa bits): a table says the bin wherever every Float sharing those bits has the same
/// one, and only values in cells a bin edge crosses (a few percent) compute the logarithm.
///
/// The lookup is exact: adjacent Floats differ by at least 2⁻²⁴ relatively, so their computed
/// `log₂` (within an ulp of Double) keep their order, the formula is monotonic over Floats, and a
/// cell whose lowest and highest values share a bin holds no other.
struct LogarithmicBins: Sendable {
    let count: Int, minimumStop: Double, perStop: Double
    /// Per upper 16 bits of a positive finite Float: its bin, or −1 where a bin edge falls inside.
    private let cells: [Int16]

    init(count: Int, minimumStop: Double, maximumStop: Double) {
        self.count = count
        self.minimumStop = minimumStop
        perStop = Double(count) / (maximumStop - minimumStop)
        let perStop = perStop
        cells = (0..<Self.finiteCells).map { cell in
            let low = Self.computed(Float(bitPattern: max(UInt32(cell) << 16, 1)), count: count, minimumStop: minimumStop, perStop: perStop)
            let high = Self.computed(Float(bitPattern: UInt32(cell) << 16 | 0xFFFF), count: count, minimumStop: minimumStop, perStop: perStop)
            return low == high ? Int16(low) : -1
        }
    }

    /// Cells of positive finite Floats (below the bits of +∞).
    private static let finiteCells = 0x7F80

    /// The bin by the formula itself.
    static func computed(_ v: Float, count: Int, minimumStop: Double, perStop: Double) -> Int {
        AreaReduction.bin(v > 0 ? (log2(Double(v)) - minimumStop) * perStop : -Double.infinity, count)
    }

    /// The bin by the formula itself.
    func computed(_ v: Float) -> Int { Self.computed(v, count: count, minimumStop: minimumStop, perStop: perStop) }

    /// The bin of a value that is not NaN.
    func bin(_ v: Float) -> Int {
        cells.withUnsafeBufferPointer { table in bin(v, table) }
    }

    /// Counts the bins of the non-NaN values of `run[0 ..< n]` into `counts`; returns how many.
    func count(_ run: UnsafePointer<Float>, _ n: Int, into counts: UnsafeMutablePointer<Int>) -> Int {
        cells.withUnsafeBufferPointer { table in
            var counted = 0
            for i in 0..<n where !run[i].isNaN {
                counts[bin(run[i], table)] += 1
                counted += 1
            }
            return counted
        }
    }

    @inline(__always)
    private func bin(_ v: Float, _ table: UnsafeBufferPointer<Int16>) -> Int {
        guard v > 0 else { return 0 }
        let cell = Int(v.bitPattern >> 16)
        if cell < Self.finiteCells, let base = table.baseAddress {
            let known = base[cell]
            if known >= 0 { return Int(known) }
        }
        return computed(v)
    }
}
