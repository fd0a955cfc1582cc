import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// CINinePartStretched and CINinePartTiled (``NinePartFilters``) against the float64 per-axis maps
/// written here, the source sampled bilinearly between pixel centres (transparent outside).
final class NinePartFilterTests: XCTestCase {
    var source: GeometrySource!

    override func setUpWithError() throws { source = try GeometrySource() }

    let values: [String: FilterValue] = ["inputBreakpoint0": .vector([3, 2]), "inputBreakpoint1": .vector([8, 6]),
                                         "inputGrowAmount": .vector([4, 3])]

    func stretch(_ x: Double, _ b0: Double, _ b1: Double, _ g: Double) -> Double {
        x < b0 ? x : (x < b1 + g ? b0 + (x - b0) * (b1 - b0) / (b1 - b0 + g) : x - g)
    }

    func tile(_ x: Double, _ b0: Double, _ b1: Double, _ g: Double, flip: Bool) -> Double {
        let h = b1 - b0, k = ((x - b0) / h).rounded(.down), f = x - b0 - k * h
        let odd = Int(k) % 2 != 0
        return x < b0 ? x : (x < b1 + g ? b0 + (flip && odd ? h - f : f) : x - g)
    }

    func testStretched() throws {
        let image = try source.image.applyingFilter("CINinePartStretched", parameters: values)
        XCTAssertEqual(image.extent, Rect(x: 0, y: 0, width: 17, height: 12))
        let error = try largestError(image, rect: Rect(x: -2, y: -2, width: 21, height: 16)) { x, y in
            guard x >= 0, y >= 0, x < 17, y < 12 else { return [0, 0, 0, 0] }
            let px = Double(x) + 0.5, py = Double(y) + 0.5
            return self.source.bilinear(self.stretch(px, 3, 8, 4), self.stretch(py, 2, 6, 3))
        }
        XCTAssertLessThan(error, 5e-4)
    }

    func testTiled() throws {
        for flip in [true, false] {
            var parameters = values
            parameters["inputGrowAmount"] = .vector([7, 6])
            parameters["inputFlipYTiles"] = .bool(flip)
            let image = try source.image.applyingFilter("CINinePartTiled", parameters: parameters)
            XCTAssertEqual(image.extent, Rect(x: 0, y: 0, width: 20, height: 15))
            let error = try largestError(image, rect: image.extent) { x, y in
                let px = Double(x) + 0.5, py = Double(y) + 0.5
                return self.source.bilinear(self.tile(px, 3, 8, 7, flip: false), self.tile(py, 2, 6, 6, flip: flip))
            }
            XCTAssertLessThan(error, 5e-4, "flip \(flip)")
        }
    }

    func testInvalidBreakpointsAndAttributes() throws {
        var reversed = values
        reversed["inputBreakpoint1"] = .vector([2, 6])
        XCTAssertThrowsError(try source.image.applyingFilter("CINinePartStretched", parameters: reversed))
        var shrunk = values
        shrunk["inputGrowAmount"] = .vector([-5, 0])
        XCTAssertThrowsError(try source.image.applyingFilter("CINinePartTiled", parameters: shrunk))
        XCTAssertThrowsError(try Image.filter("CIConstantColorGenerator").applyingFilter("CINinePartStretched", parameters: values))
        try assertAttributes(NinePartFilters.all.map(\.name))
    }
}
