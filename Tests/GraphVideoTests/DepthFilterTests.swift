import GraphVideo
import XCTest

/// Hole filling and the gated exponential average of `DepthFilter`.
final class DepthFilterTests: XCTestCase {
    func testHolesTakeTheFartherNeighbourOfTheirRow() throws {
        var filter = DepthFilter(alpha: 1)
        let map = try DepthMap(width: 5, height: 2, metres: [1, 0, 0, 3, 3,
                                                             0, 0, 0, 0, 0])
        let filled = try filter.apply(map)
        XCTAssertEqual(filled.metres, [1, 3, 3, 3, 3,
                                       1, 3, 3, 3, 3])
    }

    func testNaNIsAHoleAndAnEmptyFirstFrameIsAnError() throws {
        var filter = DepthFilter(alpha: 1)
        XCTAssertEqual(try filter.apply(try DepthMap(width: 3, height: 1, metres: [2, .nan, 2])).metres, [2, 2, 2])
        var fresh = DepthFilter()
        XCTAssertThrowsError(try fresh.apply(try DepthMap(width: 2, height: 1, metres: [0, .nan]))) { error in
            XCTAssertTrue("\(error)".contains("no measurement"), "\(error)")
        }
    }

    func testSmallChangesAreAveragedLargeOnesTakenAtOnce() throws {
        var filter = DepthFilter(alpha: 0.25, gate: 0.1)
        _ = try filter.apply(try DepthMap(width: 3, height: 1, metres: [2, 2, 2]))
        let next = try filter.apply(try DepthMap(width: 3, height: 1, metres: [2.08, 1.0, 0]))
        XCTAssertEqual(next.metres[0], 2.02, accuracy: 1e-6)  // averaged: 2 + 0.25 * 0.08
        XCTAssertEqual(next.metres[1], 1.0, accuracy: 1e-6)   // moved: taken at once
        XCTAssertEqual(next.metres[2], 2.0, accuracy: 1e-6)   // hole: the last value seen
    }
}
