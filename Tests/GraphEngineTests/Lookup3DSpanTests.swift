import CRowKernels
import XCTest

/// The lut3d span kernel's AVX and SSE paths give the same bits as its portable loop, on awkward inputs.
final class Lookup3DSpanTests: XCTestCase {
    func testVectorAndPortablePathsAgreeBitForBit() {
        var state: UInt64 = 99
        func unit() -> Float {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(state >> 40) / Float(1 << 24)
        }
        let n = 203
        for dimension in [2, 5, 33] {
            let table = (0..<(dimension * dimension * dimension * 4)).map { _ in unit() * 2 - 0.5 }
            var planes = (0..<4).map { _ in (0..<n).map { _ in unit() * 2.4 - 0.7 } }
            let specials: [Float] = [.nan, .infinity, -.infinity, 0, 1, -0.0, 1e-30, 3e38]
            for (i, value) in specials.enumerated() {
                planes[i % 3][i * 7] = value
                planes[3][i * 11] = [0, -1, .nan, 1][i % 4]
            }
            for extrapolate: Int32 in [0, 1] {
                var fast = [[Float]](repeating: [Float](repeating: 0, count: n), count: 4)
                var portable = fast, sse = fast
                graph_lookup3d_span_sse(planes[0], planes[1], planes[2], planes[3], &sse[0], &sse[1], &sse[2], &sse[3],
                                        table, Int32(dimension), extrapolate, Int32(n))
                graph_lookup3d_span(planes[0], planes[1], planes[2], planes[3], &fast[0], &fast[1], &fast[2], &fast[3],
                                    table, Int32(dimension), extrapolate, Int32(n))
                graph_lookup3d_span_portable(planes[0], planes[1], planes[2], planes[3], &portable[0], &portable[1],
                                             &portable[2], &portable[3], table, Int32(dimension), extrapolate, Int32(n))
                XCTAssertEqual(fast.map { $0.map(\.bitPattern) }, portable.map { $0.map(\.bitPattern) },
                               "dimension \(dimension) extrapolate \(extrapolate)")
                XCTAssertEqual(sse.map { $0.map(\.bitPattern) }, portable.map { $0.map(\.bitPattern) },
                               "SSE: dimension \(dimension) extrapolate \(extrapolate)")
            }
        }
    }
}
