import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// The keystone corrections and CIPerspectiveRotate (``KeystoneFilters``) against float64 maps
/// written here: the straightened target quadrilateral solved back onto the guide, and the pinhole
/// camera turned by explicit rotation matrices; the source is sampled bilinearly between centres.
final class KeystoneFilterTests: XCTestCase {
    var source: GeometrySource!

    override func setUpWithError() throws { source = try GeometrySource() }

    static let guide: [String: [Double]] = ["inputTopLeft": [2, 8], "inputTopRight": [11, 7.5],
                                            "inputBottomRight": [10.2, 1], "inputBottomLeft": [3.1, 1.5]]
    static let order = ["inputBottomLeft", "inputBottomRight", "inputTopRight", "inputTopLeft"]

    func testKeystoneCorrectionsStraightenTheGuide() throws {
        let g = Self.order.map { (Self.guide[$0]![0], Self.guide[$0]![1]) }
        let left = (g[0].0 + g[3].0) / 2, right = (g[1].0 + g[2].0) / 2
        let bottom = (g[0].1 + g[1].1) / 2, top = (g[2].1 + g[3].1) / 2
        let targets: [(String, [(Double, Double)])] = [
            ("CIKeystoneCorrectionVertical", [(left, g[0].1), (right, g[1].1), (right, g[2].1), (left, g[3].1)]),
            ("CIKeystoneCorrectionHorizontal", [(g[0].0, bottom), (g[1].0, bottom), (g[2].0, top), (g[3].0, top)]),
            ("CIKeystoneCorrectionCombined", [(left, bottom), (right, bottom), (right, top), (left, top)]),
        ]
        for (name, target) in targets {
            let image = try source.image.applyingFilter(name, parameters: Self.guide.mapValues { FilterValue.vector($0) })
            let back = solveHomography(from: target, to: g), forward = solveHomography(from: g, to: target)
            let corners = [(0.0, 0.0), (13, 0), (13, 9), (0, 9)].compactMap { forward($0.0, $0.1) }
            XCTAssertEqual(corners.count, 4, name)
            XCTAssertEqual(image.extent.minX, corners.map(\.0).min() ?? 0, accuracy: 1e-6, name)
            XCTAssertEqual(image.extent.maxY, corners.map(\.1).max() ?? 0, accuracy: 1e-6, name)
            let error = try largestError(image, rect: Rect(x: 0, y: 0, width: 13, height: 9)) { x, y in
                guard let s = back(Double(x) + 0.5, Double(y) + 0.5) else { return [0, 0, 0, 0] }
                return self.source.bilinear(s.0, s.1)
            }
            XCTAssertLessThan(error, 5e-4, name)
        }
        var collinear = Self.guide.mapValues { FilterValue.vector($0) }
        collinear["inputTopRight"] = .vector([6.1, 4.5])  // halfway from bottom right to top left
        XCTAssertThrowsError(try source.image.applyingFilter("CIKeystoneCorrectionCombined", parameters: collinear))
        XCTAssertThrowsError(try source.image.applyingFilter("CIKeystoneCorrectionVertical", parameters: [:]))
    }

    func testPerspectiveRotateTurnsAPinholeCamera() throws {
        let (pitch, yaw, roll, focal) = (0.2, -0.15, 0.3, 35.0)
        let image = try source.image.applyingFilter("CIPerspectiveRotate", parameters: [
            "inputPitch": .number(pitch), "inputYaw": .number(yaw), "inputRoll": .number(roll), "inputFocalLength": .number(focal)])
        let f = focal / 36 * 13, cx = 6.5, cy = 4.5
        // R = Rz·Rx·Ry; the source of p is Rᵀ(p − c, f) projected.
        func product(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
            (0..<3).map { i in (0..<3).map { j in (0..<3).reduce(0) { $0 + a[i][$1] * b[$1][j] } } }
        }
        let rx = [[1, 0, 0], [0, cos(pitch), -sin(pitch)], [0, sin(pitch), cos(pitch)]]
        let ry = [[cos(yaw), 0, sin(yaw)], [0, 1, 0], [-sin(yaw), 0, cos(yaw)]]
        let rz = [[cos(roll), -sin(roll), 0], [sin(roll), cos(roll), 0], [0, 0, 1]]
        let r = product(rz, product(rx, ry))
        func map(_ x: Double, _ y: Double, inverse: Bool) -> (Double, Double)? {
            let v = [x - cx, y - cy, f]
            let s = (0..<3).map { i in (0..<3).reduce(0) { $0 + (inverse ? r[$1][i] : r[i][$1]) * v[$1] } }
            guard s[2] > 0 else { return nil }
            return (f * s[0] / s[2] + cx, f * s[1] / s[2] + cy)
        }
        let corners = [(0.0, 0.0), (13, 0), (13, 9), (0, 9)].compactMap { map($0.0, $0.1, inverse: false) }
        XCTAssertEqual(image.extent.minX, corners.map(\.0).min() ?? 0, accuracy: 1e-6)
        XCTAssertEqual(image.extent.minY, corners.map(\.1).min() ?? 0, accuracy: 1e-6)
        let error = try largestError(image, rect: Rect(x: -3, y: -3, width: 19, height: 15)) { x, y in
            guard let s = map(Double(x) + 0.5, Double(y) + 0.5, inverse: true) else { return [0, 0, 0, 0] }
            return self.source.bilinear(s.0, s.1)
        }
        XCTAssertLessThan(error, 5e-4)
        // No turn is the identity.
        let identity = try source.image.applyingFilter("CIPerspectiveRotate", parameters: [:])
        XCTAssertEqual(identity.extent, source.image.extent)
        XCTAssertLessThan(try largestError(identity, rect: source.image.extent) { x, y in self.source.pixel(x, y) }, 1e-5)
        XCTAssertThrowsError(try source.image.applyingFilter("CIPerspectiveRotate", parameters: ["inputFocalLength": .number(0)]))
    }

    func testAttributes() throws {
        try assertAttributes(KeystoneFilters.all.map(\.name))
    }
}
