import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// A small straight-alpha RGBA8 source and the float64 formulas the geometry and stylize filters
/// are checked against (bilinear sampling between pixel centres, transparent or clamped outside).
struct GeometrySource {
    let width: Int, height: Int
    let bytes: [UInt8]
    let image: Image

    init(width: Int = 13, height: Int = 9, seed: UInt64 = 5) throws {
        self.width = width
        self.height = height
        var state = seed
        bytes = (0..<(width * height * 4)).map { i in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let v = Int(state >> 56)
            return UInt8(i % 4 == 3 ? 60 + v % 196 : v)
        }
        image = Image(buffer: try ImageBuffer(width: width, height: height, format: .rgba8, alphaMode: .straight,
                                              colorSpace: nil, bytes: bytes))
    }

    /// Premultiplied pixel (column `i`, working-space row `j`); 0 outside unless `clamped`.
    func pixel(_ i: Int, _ j: Int, clamped: Bool = false) -> [Double] {
        var (i, j) = (i, j)
        if clamped {
            i = min(max(i, 0), width - 1)
            j = min(max(j, 0), height - 1)
        }
        guard i >= 0, j >= 0, i < width, j < height else { return [0, 0, 0, 0] }
        let o = ((height - 1 - j) * width + i) * 4
        let a = Double(bytes[o + 3]) / 255
        return [Double(bytes[o]) / 255 * a, Double(bytes[o + 1]) / 255 * a, Double(bytes[o + 2]) / 255 * a, a]
    }

    /// Bilinear between pixel centres at working-space point (x, y).
    func bilinear(_ x: Double, _ y: Double, clamped: Bool = false) -> [Double] {
        let fx = x - 0.5, fy = y - 0.5
        let i = Int(fx.rounded(.down)), j = Int(fy.rounded(.down))
        let u = fx - fx.rounded(.down), v = fy - fy.rounded(.down)
        let p00 = pixel(i, j, clamped: clamped), p10 = pixel(i + 1, j, clamped: clamped)
        let p01 = pixel(i, j + 1, clamped: clamped), p11 = pixel(i + 1, j + 1, clamped: clamped)
        return (0..<4).map { c in
            p00[c] * (1 - u) * (1 - v) + p10[c] * u * (1 - v) + p01[c] * (1 - u) * v + p11[c] * u * v
        }
    }
}

/// A context without colour management and with Float32 intermediates, in small tiles (so regions
/// of interest are exercised at every tile edge).
func exactContext(tileSize: Int = 8) -> Context {
    var options = ContextOptions()
    options.workingColorSpace = nil
    options.workingFormat = .rgbaf
    options.tileSize = tileSize
    return Context(options: options)
}

/// Renders `rect` and returns the largest difference from `expected(x, y)` over its pixels,
/// skipping pixels where `expected` is nil.
func largestError(_ image: Image, rect: Rect, context: Context = exactContext(),
                  expected: (Int, Int) -> [Double]?) throws -> Double {
    let area = PixelRect(rect)
    let rendered = try context.render(image, rect: area.rect, format: .rgbaf)
    var worst = 0.0
    for y in area.y..<area.maxY {
        for x in area.x..<area.maxX {
            guard let want = expected(x, y) else { continue }
            let got = rendered.pixel(x: x - area.x, row: area.maxY - 1 - y)
            for c in 0..<4 { worst = max(worst, abs(Double(got[c]) - want[c])) }
        }
    }
    return worst
}

/// The homography taking four points onto four points, by solving the 8×8 direct linear system
/// (an algorithm independent of the filters' closed form): returns the map (x, y) ↦ (u, v), nil
/// where the point is behind the horizon.
func solveHomography(from: [(Double, Double)], to: [(Double, Double)]) -> (Double, Double) -> (Double, Double)? {
    var rows: [[Double]] = []
    for ((x, y), (u, v)) in zip(from, to) {
        rows.append([x, y, 1, 0, 0, 0, -x * u, -y * u, u])
        rows.append([0, 0, 0, x, y, 1, -x * v, -y * v, v])
    }
    // Gaussian elimination with partial pivoting on the augmented matrix.
    for column in 0..<8 {
        let pivot = (column..<8).max { abs(rows[$0][column]) < abs(rows[$1][column]) } ?? column
        rows.swapAt(column, pivot)
        for row in 0..<8 where row != column {
            let factor = rows[row][column] / rows[column][column]
            for k in column..<9 { rows[row][k] -= factor * rows[column][k] }
        }
    }
    let h = (0..<8).map { rows[$0][8] / rows[$0][$0] }
    return { x, y in
        let w = h[6] * x + h[7] * y + 1
        guard w > 0 else { return nil }
        return ((h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w)
    }
}

final class GeometryFilterTests: XCTestCase {
    var source: GeometrySource!

    override func setUpWithError() throws { source = try GeometrySource() }

    // MARK: CIAffineClamp

    func testAffineClampSamplesTheClampedSource() throws {
        let t = GraphEngine.AffineTransform(a: 1.7 * cos(0.5), b: 1.7 * sin(0.5), c: -1.7 * sin(0.5), d: 1.7 * cos(0.5),
                                            tx: 6.3, ty: -2.2)
        let image = try source.image.applyingFilter("CIAffineClamp", parameters: ["inputTransform": .transform(t)])
        XCTAssertTrue(image.extent.isInfinite)
        let det = t.a * t.d - t.b * t.c
        let error = try largestError(image, rect: Rect(x: -15, y: -10, width: 50, height: 45)) { x, y in
            let dx = Double(x) + 0.5 - t.tx, dy = Double(y) + 0.5 - t.ty
            return self.source.bilinear((t.d * dx - t.c * dy) / det, (-t.b * dx + t.a * dy) / det, clamped: true)
        }
        XCTAssertLessThan(error, 1e-5)
        let singular = GraphEngine.AffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 0, ty: 0)
        XCTAssertThrowsError(try source.image.applyingFilter("CIAffineClamp", parameters: ["inputTransform": .transform(singular)])) {
            XCTAssertTrue("\($0)".contains("CIAffineClamp.inputTransform"), "\($0)")
        }
    }

    // MARK: CIAffineTransform of a clamped image

    /// Clamp, CIAffineTransform, crop: the transform of the infinite image stays infinite, and a
    /// crop of it equals the float64 bilinear of the clamped source at `T⁻¹(p)` within 46 dB
    /// (default context: half-float intermediates), borders included.
    func testAffineTransformOfAClampedImageCropsToTheClampedReference() throws {
        let t = GraphEngine.AffineTransform(a: 1.6 * cos(0.3), b: 1.6 * sin(0.3), c: -1.6 * sin(0.3), d: 1.6 * cos(0.3),
                                            tx: 4.2, ty: -1.7)
        let data = source.image
        let transformed = try data.clampedToExtent().applyingFilter("CIAffineTransform", parameters: ["inputTransform": .transform(t)])
        XCTAssertTrue(transformed.extent.isInfinite)
        let rect = t.apply(to: data.extent).integral
        let cropped = transformed.cropped(to: rect)
        var options = ContextOptions()
        options.workingColorSpace = nil
        let area = PixelRect(rect)
        let buffer = try Context(options: options).render(cropped, rect: area.rect, format: .rgbaf)
        let det = t.a * t.d - t.b * t.c
        var squares = 0.0, count = 0
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX {
                let dx = Double(x) + 0.5 - t.tx, dy = Double(y) + 0.5 - t.ty
                let want = source.bilinear((t.d * dx - t.c * dy) / det, (-t.b * dx + t.a * dy) / det, clamped: true)
                let got = buffer.pixel(x: x - area.x, row: area.maxY - 1 - y)
                for c in 0..<4 {
                    squares += (Double(got[c]) - want[c]) * (Double(got[c]) - want[c])
                    count += 1
                }
            }
        }
        XCTAssertGreaterThan(count, 600)
        XCTAssertGreaterThan(10 * log10(Double(count) / max(squares, 1e-30)), 46)
    }

    // MARK: CIStraightenFilter

    /// Rotation by θ about the centre scaled by `cos θ + (W/m)·|sin θ|` (the smallest scale whose
    /// rotated image covers the extent), cropped to the extent; a half turn is a plain rotation.
    func testStraightenRotatesAndScalesToCoverTheExtent() throws {
        let w = Double(source.width), h = Double(source.height)
        let (cx, cy) = (w / 2, h / 2)
        for angle in [0.2, -0.7, Double.pi, Double.pi / 2] {
            let image = try source.image.applyingFilter("CIStraightenFilter", parameters: ["inputAngle": .number(angle)])
            XCTAssertEqual(image.extent, source.image.extent, "angle \(angle)")
            let quarter = abs(cos(angle)) < 0.001
            let scale = abs(sin(angle)) < 0.001 ? 1 : (quarter ? max(w, h) / min(w, h)
                                                                : cos(angle) + max(w, h) / min(w, h) * abs(sin(angle)))
            let error = try largestError(image, rect: image.extent) { x, y in
                // Inverse: rotate by −θ about the centre, divide by the scale.
                let dx = Double(x) + 0.5 - cx, dy = Double(y) + 0.5 - cy
                let sx = (cos(angle) * dx + sin(angle) * dy) / scale, sy = (-sin(angle) * dx + cos(angle) * dy) / scale
                return self.source.bilinear(cx + sx, cy + sy)
            }
            XCTAssertLessThan(error, 2e-5, "angle \(angle)")
        }
        XCTAssertEqual(try source.image.applyingFilter("CIStraightenFilter", parameters: ["inputAngle": .number(0)]), source.image)
    }

    // MARK: Perspective

    static let corners: [String: [Double]] = [
        "inputTopLeft": [2.4, 30.5], "inputTopRight": [40.2, 36.1], "inputBottomRight": [35.6, 3.3], "inputBottomLeft": [5.1, 1.2],
    ]
    static let cornerOrder = ["inputBottomLeft", "inputBottomRight", "inputTopRight", "inputTopLeft"]

    func parameters(_ corners: [String: [Double]]) -> [String: FilterValue] {
        corners.mapValues { FilterValue.vector($0) }
    }

    func testPerspectiveTransformMapsTheImageOntoTheQuadrilateral() throws {
        let image = try source.image.applyingFilter("CIPerspectiveTransform", parameters: parameters(Self.corners))
        let quad = Self.cornerOrder.map { (Self.corners[$0]![0], Self.corners[$0]![1]) }
        XCTAssertEqual(image.extent, Rect(x: 2.4, y: 1.2, width: 40.2 - 2.4, height: 36.1 - 1.2))
        let w = Double(source.width), h = Double(source.height)
        let back = solveHomography(from: quad, to: [(0, 0), (w, 0), (w, h), (0, h)])
        let error = try largestError(image, rect: Rect(x: -2, y: -2, width: 48, height: 42)) { x, y in
            guard x >= 2, x < 41, y >= 1, y < 37, let s = back(Double(x) + 0.5, Double(y) + 0.5) else { return [0, 0, 0, 0] }
            return self.source.bilinear(s.0, s.1)
        }
        XCTAssertLessThan(error, 5e-4)
    }

    func testPerspectiveTransformWithExtentMapsTheGivenRectangle() throws {
        var values = parameters(Self.corners)
        values["inputExtent"] = .rect(Rect(x: 2, y: 1.5, width: 8, height: 6))
        let image = try source.image.applyingFilter("CIPerspectiveTransformWithExtent", parameters: values)
        let quad = Self.cornerOrder.map { (Self.corners[$0]![0], Self.corners[$0]![1]) }
        let back = solveHomography(from: quad, to: [(2, 1.5), (10, 1.5), (10, 7.5), (2, 7.5)])
        let error = try largestError(image, rect: image.extent) { x, y in
            guard let s = back(Double(x) + 0.5, Double(y) + 0.5) else { return [0, 0, 0, 0] }
            return self.source.bilinear(s.0, s.1)
        }
        XCTAssertLessThan(error, 5e-4)
        values["inputExtent"] = .rect(Rect(x: 0, y: 0, width: 0, height: 3))
        XCTAssertThrowsError(try source.image.applyingFilter("CIPerspectiveTransformWithExtent", parameters: values))
        var collinear = parameters(Self.corners)
        collinear["inputTopRight"] = .vector([19.0, 16.9])  // halfway from bottom right to top left
        XCTAssertThrowsError(try source.image.applyingFilter("CIPerspectiveTransform", parameters: collinear)) {
            XCTAssertTrue("\($0)".contains("CIPerspectiveTransform.inputTopLeft"), "\($0)")
        }
    }

    func testPerspectiveCorrectionMapsTheQuadrilateralOntoARectangle() throws {
        let corners: [String: [Double]] = ["inputTopLeft": [0.6, 7.9], "inputTopRight": [12.1, 8.4],
                                           "inputBottomRight": [11.3, 0.7], "inputBottomLeft": [1.5, 2.2]]
        let quad = Self.cornerOrder.map { (corners[$0]![0], corners[$0]![1]) }
        // The corrected size, after Core Image: the longer opposite edges, stretched by the ratio of
        // the other pair (at most 2).
        func length(_ a: (Double, Double), _ b: (Double, Double)) -> Double { hypot(a.0 - b.0, a.1 - b.1) }
        let (bl, br, tr, tl) = (quad[0], quad[1], quad[2], quad[3])
        let left = length(bl, tl), right = length(br, tr), bottom = length(bl, br), top = length(tl, tr)
        var rx = max(left, right) / min(left, right), ry = max(bottom, top) / min(bottom, top)
        if max(rx, ry) > 2 { (rx, ry) = (rx * 2 / max(rx, ry), ry * 2 / max(rx, ry)) }
        let w = max(bottom, top) * rx, h = max(left, right) * ry
        let image = try source.image.applyingFilter("CIPerspectiveCorrection", parameters: parameters(corners))
        XCTAssertEqual(image.extent.x, 0)
        XCTAssertEqual(image.extent.width, w, accuracy: 1e-9)
        XCTAssertEqual(image.extent.height, h, accuracy: 1e-9)
        let forward = solveHomography(from: [(0, 0), (w, 0), (w, h), (0, h)], to: quad)
        let error = try largestError(image, rect: image.extent) { x, y in
            guard let s = forward(Double(x) + 0.5, Double(y) + 0.5) else { return [0, 0, 0, 0] }
            return self.source.bilinear(s.0, s.1)
        }
        XCTAssertLessThan(error, 5e-4)

        // Uncropped: the whole input, corrected; its extent is its corners' images.
        var values = parameters(corners)
        values["inputCrop"] = .bool(false)
        let whole = try source.image.applyingFilter("CIPerspectiveCorrection", parameters: values)
        let back = solveHomography(from: quad, to: [(0, 0), (w, 0), (w, h), (0, h)])
        let mapped = [(0.0, 0.0), (13, 0), (13, 9), (0, 9)].compactMap { back($0.0, $0.1) }
        XCTAssertEqual(mapped.count, 4)
        XCTAssertEqual(whole.extent.minX, mapped.map(\.0).min() ?? 0, accuracy: 1e-6)
        XCTAssertEqual(whole.extent.maxY, mapped.map(\.1).max() ?? 0, accuracy: 1e-6)
        let wholeError = try largestError(whole, rect: whole.extent) { x, y in
            guard let s = forward(Double(x) + 0.5, Double(y) + 0.5) else { return [0, 0, 0, 0] }
            return self.source.bilinear(s.0, s.1)
        }
        XCTAssertLessThan(wholeError, 5e-4)
    }

    /// Points whose preimage lies on or behind the horizon (`w ≤ 0`) are transparent; in front the
    /// warp divides by `w`.
    func testProjectiveWarpIsTransparentBehindTheHorizon() throws {
        let h = Homography(1, 0.2, 0, 0, 1, 0, -0.1, 0.01, 1)  // w = 1 − 0.1x + 0.01y
        // Clamped, so a point mapped behind the horizon would not read transparent by chance.
        let image = source.image.clampedToExtent().applying(ProjectiveWarp(name: "test", destinationToSource: h),
                                          extent: Rect(x: 0, y: 0, width: 16, height: 12))
        var behind = 0
        let error = try largestError(image, rect: image.extent) { x, y in
            let px = Double(x) + 0.5, py = Double(y) + 0.5
            let w = 1 - 0.1 * px + 0.01 * py
            guard w > 0 else {
                behind += 1
                return [0, 0, 0, 0]
            }
            return self.source.bilinear((px + 0.2 * py) / w, py / w, clamped: true)
        }
        XCTAssertLessThan(error, 5e-4)
        XCTAssertGreaterThan(behind, 50)
    }

    // MARK: Cell effects

    /// `c + s·floor((p − c)/s + ½)`, pixels on a cell boundary (within 1e-4 of a cell) skipped.
    func testPixellateSamplesTheCellCentres() throws {
        for (center, scale) in [((3.3, 2.7), 5.0), ((150.0, 150.0), 8.0), ((-1.25, 4.5), 2.6)] {
            let image = try source.image.applyingFilter("CIPixellate", parameters: [
                "inputCenter": .vector([center.0, center.1]), "inputScale": .number(scale)])
            let grow = (scale / 2).rounded(.down)
            XCTAssertEqual(image.extent, source.image.extent.outset(dx: grow, dy: grow).integral)
            var skipped = 0
            let error = try largestError(image, rect: image.extent) { x, y in
                let gx = (Double(x) + 0.5 - center.0) / scale + 0.5, gy = (Double(y) + 0.5 - center.1) / scale + 0.5
                if abs(gx - gx.rounded()) < 1e-4 || abs(gy - gy.rounded()) < 1e-4 {
                    skipped += 1
                    return nil
                }
                return self.source.bilinear(center.0 + scale * gx.rounded(.down), center.1 + scale * gy.rounded(.down))
            }
            XCTAssertLessThan(error, 1e-5, "centre \(center) scale \(scale)")
            XCTAssertLessThan(skipped, 40)
        }
        XCTAssertThrowsError(try source.image.applyingFilter("CIPixellate", parameters: ["inputScale": .number(0.5)]))
    }

    /// The nearest point of the triangular lattice `c + (s·i + s/2·(j mod 2), h·j)`, `h = s·1.7321/2`,
    /// found by brute force over nearby lattice points; pixels nearly equidistant from two skipped.
    func testHexagonalPixellateSamplesTheNearestLatticePoint() throws {
        for (center, scale) in [((4.2, 3.9), 4.0), ((150.0, 150.0), 8.0), ((0.0, 0.0), 2.5)] {
            let image = try source.image.applyingFilter("CIHexagonalPixellate", parameters: [
                "inputCenter": .vector([center.0, center.1]), "inputScale": .number(scale)])
            XCTAssertEqual(image.extent, source.image.extent.outset(dx: scale, dy: scale))
            let h = scale * 1.7321 / 2
            var skipped = 0
            let error = try largestError(image, rect: image.extent) { x, y in
                let px = Double(x) + 0.5, py = Double(y) + 0.5
                let row = Int(((py - center.1) / h).rounded())
                var best: (Double, Double, Double)?, second = Double.infinity
                for j in (row - 2)...(row + 2) {
                    let shift = j.isMultiple(of: 2) ? 0 : scale / 2
                    let column = Int(((px - center.0 - shift) / scale).rounded())
                    for i in (column - 2)...(column + 2) {
                        let qx = center.0 + Double(i) * scale + shift, qy = center.1 + Double(j) * h
                        let d = (px - qx) * (px - qx) + (py - qy) * (py - qy)
                        if d < best?.2 ?? .infinity {
                            second = best?.2 ?? .infinity
                            best = (qx, qy, d)
                        } else if d < second {
                            second = d
                        }
                    }
                }
                guard let nearest = best, second - nearest.2 > 1e-3 * scale else {
                    skipped += 1
                    return nil
                }
                return self.source.bilinear(nearest.0, nearest.1)
            }
            XCTAssertLessThan(error, 1e-5, "centre \(center) scale \(scale)")
            XCTAssertLessThan(skipped, 40)
        }
    }

    /// The documented hash, in Float32 in the documented order.
    static func crystalHash(_ i: Float, _ j: Float) -> (Float, Float) {
        func fract(_ v: Float) -> Float { v - v.rounded(.down) }
        let x = fract(i * 0.1031), y = fract(j * 0.1030), z = fract(i * 0.0973)
        let xy: Float = x * (y + 33.33)
        let t: Float = z * (x + 33.33) + (y * (z + 33.33) + xy)
        let (qx, qy, qz) = (x + t, y + t, z + t)
        return (fract((qx + qy) * qz), fract((qx + qz) * qy))
    }

    /// The nearest jittered point `a + d·(k + ½ + 0.65·(hash(k) − ½))` over the 5×5 cells around the
    /// pixel's (brute force), pixels nearly equidistant from two points skipped.
    func testCrystallizeSamplesTheNearestCellPoint() throws {
        for (center, radius) in [((150.0, 150.0), 20.0), ((3.4, 2.6), 5.0), ((-7.0, 1.0), 3.3)] {
            let image = try source.image.applyingFilter("CICrystallize", parameters: [
                "inputCenter": .vector([center.0, center.1]), "inputRadius": .number(radius)])
            let d = 2 * (radius / 2).rounded(), a = (center.0.rounded(), center.1.rounded())
            XCTAssertEqual(image.extent, source.image.extent.outset(dx: 1.5 * d, dy: 1.5 * d))
            var skipped = 0
            let error = try largestError(image, rect: image.extent) { x, y in
                let gx = (Double(x) + 0.5 - a.0) / d, gy = (Double(y) + 0.5 - a.1) / d
                var best: (Double, Double, Double)?, second = Double.infinity
                for j in (Int(gy.rounded(.down)) - 2)...(Int(gy.rounded(.down)) + 2) {
                    for i in (Int(gx.rounded(.down)) - 2)...(Int(gx.rounded(.down)) + 2) {
                        let h = Self.crystalHash(Float(i), Float(j))
                        let fx = Double(i) + 0.5 + 0.65 * (Double(h.0) - 0.5), fy = Double(j) + 0.5 + 0.65 * (Double(h.1) - 0.5)
                        let distance = (gx - fx) * (gx - fx) + (gy - fy) * (gy - fy)
                        if distance < best?.2 ?? .infinity {
                            second = best?.2 ?? .infinity
                            best = (fx, fy, distance)
                        } else if distance < second {
                            second = distance
                        }
                    }
                }
                guard let nearest = best, second - nearest.2 > 1e-4 else {
                    skipped += 1
                    return nil
                }
                return self.source.bilinear(a.0 + d * nearest.0, a.1 + d * nearest.1)
            }
            XCTAssertLessThan(error, 1e-4, "centre \(center) radius \(radius)")
            XCTAssertLessThan(skipped, 40)
        }
    }

    // MARK: Fusion and the reference evaluator

    /// Each warp samples its input directly and concatenates with the colour work after it: a
    /// buffer through a warp and a colour filter is one program (with colour management, whose
    /// decode happens in the gather).
    func testWarpsConcatenateIntoOnePrograms() throws {
        let warps: [(String, [String: FilterValue])] = [
            ("CIPerspectiveTransform", parameters(Self.corners)), ("CIPerspectiveCorrection", [:]),
            ("CIPixellate", ["inputCenter": .vector([3, 3])]), ("CIHexagonalPixellate", ["inputCenter": .vector([3, 3])]),
            ("CIAffineClamp", ["inputTransform": .vector([1.2, 0.1, -0.1, 1.2, 3, 4])]),
            ("CIStraightenFilter", ["inputAngle": .number(0.3)]), ("CICrystallize", ["inputRadius": .number(4)]),
        ]
        let photo = Image(buffer: try ImageBuffer(width: 13, height: 9, format: .rgba8, alphaMode: .straight,
                                                  bytes: source.bytes))
        for (name, values) in warps {
            let image = try photo.applyingFilter(name, parameters: values).applyingFilter("CISepiaTone")
            let rect = image.extent.isInfinite ? Rect(x: 0, y: 0, width: 20, height: 20) : image.extent
            let dump = try Context().dump(image, rect: rect)
            XCTAssertEqual(dump.programs.count, 1, "\(name):\n\(dump.text())")
        }
    }

    /// Every filter of this family, alone and chained, renders as the node-by-node reference
    /// evaluator does (default context: half-float intermediates, colour management on).
    func testFiltersMatchTheReferenceEvaluator() throws {
        let photo = Image(buffer: try ImageBuffer(width: 13, height: 9, format: .rgba8, alphaMode: .straight,
                                                  bytes: source.bytes))
        let pixellated = try photo.applyingFilter("CIPixellate", parameters: ["inputCenter": .vector([3.5, 2]), "inputScale": .number(3)])
        let images: [(String, Image)] = [
            ("perspective", try photo.applyingFilter("CIPerspectiveTransform", parameters: parameters(Self.corners))),
            ("correction", try photo.applyingFilter("CIPerspectiveCorrection", parameters: [
                "inputTopLeft": .vector([0.6, 7.9]), "inputTopRight": .vector([12.1, 8.4]),
                "inputBottomRight": .vector([11.3, 0.7]), "inputBottomLeft": .vector([1.5, 2.2])])),
            ("hexagons", try photo.applyingFilter("CIHexagonalPixellate", parameters: ["inputCenter": .vector([1, 2]), "inputScale": .number(3)])),
            ("straighten", try photo.applyingFilter("CIStraightenFilter", parameters: ["inputAngle": .number(-0.4)])),
            ("crystallize", try photo.applyingFilter("CICrystallize", parameters: ["inputCenter": .vector([2, 3]), "inputRadius": .number(5)])),
            ("pixellate, sepia, perspective", try pixellated.applyingFilter("CISepiaTone")
                .applyingFilter("CIPerspectiveTransform", parameters: parameters(Self.corners))),
            ("clamp, hexagons, crop", try photo.applyingFilter("CIAffineClamp", parameters: ["inputTransform": .vector([0.8, 0.3, -0.3, 0.8, 2, 1])])
                .applyingFilter("CIHexagonalPixellate", parameters: ["inputCenter": .vector([0, 0]), "inputScale": .number(4)])
                .cropped(to: Rect(x: -3, y: -3, width: 22, height: 18))),
        ]
        for (name, image) in images {
            for options in [ContextOptions(), { var o = ContextOptions(); o.workingColorSpace = nil; o.tileSize = 8; return o }()] {
                let rect = image.extent.integral
                let fast = try Context(options: options).render(image, rect: rect, format: .rgbaf)
                let reference = try ReferenceEvaluator().render(image, rect: rect, options: options)
                var worst: Float = 0, index = 0
                for row in (0..<fast.height).reversed() {
                    for x in 0..<fast.width {
                        let p = fast.pixel(x: x, row: row)
                        for c in 0..<4 { worst = max(worst, abs(p[c] - reference[index][c])) }
                        index += 1
                    }
                }
                XCTAssertLessThan(worst, 6e-3, "\(name), colour management \(options.workingColorSpace != nil)")
            }
        }
    }
}
