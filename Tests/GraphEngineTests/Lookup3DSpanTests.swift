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
                typealias Path = (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>,
                                  UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>,
                                  UnsafeMutablePointer<Float>, UnsafePointer<Float>, Int32, Int32, Int32) -> Void
                func run(_ path: Path) -> [[UInt32]] {
                    var r = [Float](repeating: 0, count: n), g = r, b = r, a = r
                    path(planes[0], planes[1], planes[2], planes[3], &r, &g, &b, &a, table, Int32(dimension), extrapolate, Int32(n))
                    return [r, g, b, a].map { $0.map(\.bitPattern) }
                }
                let portable = run(graph_lookup3d_span_portable)
                XCTAssertEqual(run(graph_lookup3d_span), portable, "dimension \(dimension) extrapolate \(extrapolate)")
                XCTAssertEqual(run(graph_lookup3d_span_sse), portable, "SSE: dimension \(dimension) extrapolate \(extrapolate)")
            }
        }
    }
}
