import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// The tile filters against float64 implementations of their documented maps, as
/// ``DistortionFilterTests`` (same source, Float32 intermediates, tolerance 2e-3). Tiles are
/// discontinuous at their seams, so a pixel is not compared where the map jumps within 0.02 pixel
/// of it (checked in Double), where Float32 coordinates may fall on either side.
final class TileFilterTests: XCTestCase {
    let tolerance = 2e-3
    let rect = Rect(x: -30, y: -25, width: 101, height: 81)

    func source() throws -> GeometrySource { try GeometrySource(width: 41, height: 31, seed: 23) }

    func mod(_ x: Double, _ y: Double) -> Double { x - y * (x / y).rounded(.down) }
    func fold(_ x: Double) -> Double { 0.5 - abs(mod(x + 0.5, 2) - 1) }

    /// Renders filter `name` (finite input, and clamped when `clamped`) over ``rect`` against
    /// `bilinear(source, map(x, y))`; checks the extent is infinite.
    func check(_ name: String, _ parameters: [String: FilterValue], clamped: [Bool] = [false, true], referenceClamped: Bool = false,
               compareAtLeast fraction: Double = 0.8, skip: @escaping (Double, Double) -> Bool = { _, _ in false },
               fade: @escaping (Double, Double) -> Double = { _, _ in 1 },
               map: @escaping (Double, Double) -> (Double, Double)?, file: StaticString = #filePath, line: UInt = #line) throws {
        let s = try source()
        for clamp in clamped {
            var parameters = parameters
            parameters["inputImage"] = .image(clamp ? s.image.clampedToExtent() : s.image)
            let image = try Image.filter(name, parameters: parameters)
            XCTAssertTrue(image.extent.isInfinite, "\(name) extent", file: file, line: line)
            var compared = 0
            let error = try largestError(image, rect: rect) { i, j in
                let x = Double(i) + 0.5, y = Double(j) + 0.5
                if skip(x, y) { return nil }
                guard let q = map(x, y) else { return [0, 0, 0, 0] }
                for (dx, dy) in [(0.02, 0.0), (-0.02, 0.0), (0.0, 0.02), (0.0, -0.02)] {
                    guard let r = map(x + dx, y + dy), hypot(r.0 - q.0, r.1 - q.1) < 0.2 else { return nil }
                }
                compared += 1
                let f = fade(x, y)
                return s.bilinear(q.0, q.1, clamped: clamp || referenceClamped).map { $0 * f }
            }
            XCTAssertGreaterThan(compared, Int(rect.width * rect.height * fraction), "\(name): most pixels compared", file: file, line: line)
            XCTAssertLessThan(error, tolerance, "\(name) \(clamp ? "clamped" : "finite")", file: file, line: line)
        }
    }

    let c = (20.3, 15.1), w = 9.0, a = 0.3

    var frame: [String: FilterValue] { ["inputCenter": .vector([20.3, 15.1]), "inputWidth": .number(9), "inputAngle": .number(0.3)] }
    func toTile(_ x: Double, _ y: Double) -> (Double, Double) {
        let vx = (x - c.0) / w, vy = (y - c.1) / w
        return (cos(a) * vx + sin(a) * vy, cos(a) * vy - sin(a) * vx)
    }
    func fromTile(_ u: (Double, Double)) -> (Double, Double) {
        (c.0 + w * (cos(a) * u.0 - sin(a) * u.1), c.1 + w * (sin(a) * u.0 + cos(a) * u.1))
    }

    func testParallelogramTiles() throws {
        let alpha = 1.1
        var parameters = frame
        parameters["inputAcuteAngle"] = .number(alpha)
        func st(_ x: Double, _ y: Double) -> (Double, Double) {
            let u = toTile(x, y), t = u.1 / sin(alpha)
            return (u.0 - t * cos(alpha), t)
        }
        func back(_ s: Double, _ t: Double) -> (Double, Double) { fromTile((s + t * cos(alpha), t * sin(alpha))) }
        try check("CIFourfoldTranslatedTile", parameters) { x, y in
            let (s, t) = st(x, y)
            return back(s - (s + 0.5).rounded(.down), t - (t + 0.5).rounded(.down))
        }
        try check("CIFourfoldReflectedTile", parameters) { x, y in
            let (s, t) = st(x, y)
            return back(self.fold(s), self.fold(t))
        }
        try check("CIParallelogramTile", parameters) { x, y in
            let (s, t) = st(x, y)
            return back(self.fold(s), t - (t + 0.5).rounded(.down))
        }
        parameters["inputAcuteAngle"] = .number(Double.pi)
        XCTAssertThrowsError(try Image.filter("CIFourfoldTranslatedTile", parameters: parameters.merging(["inputImage": .image(try source().image)]) { $1 }))
    }

    func testSquareTiles() throws {
        try check("CIFourfoldRotatedTile", frame) { x, y in
            let u = self.toTile(x, y)
            let v = (self.mod(u.0 + 0.5, 2) - 1, self.mod(u.1 + 0.5, 2) - 1)
            var r = v
            if v.0 >= 0 && v.1 < 0 { r = (v.1, -v.0) }
            if v.0 >= 0 && v.1 >= 0 { r = (-v.0, -v.1) }
            if v.0 < 0 && v.1 >= 0 { r = (-v.1, v.0) }
            return self.fromTile((r.0 + 0.5, r.1 + 0.5))
        }
        try check("CIEightfoldReflectedTile", frame) { x, y in
            let u = self.toTile(x, y)
            let g = (abs(self.fold(u.0)), abs(self.fold(u.1)))
            return self.fromTile((max(g.0, g.1), min(g.0, g.1)))
        }
        try check("CIGlideReflectedTile", frame) { x, y in
            let u = self.toTile(x, y)
            let j = (u.1 + 0.5).rounded(.down)
            let odd = self.mod(j, 2) > 0.5
            var s = u.0 + (odd ? 0.5 : 0)
            s -= (s + 0.5).rounded(.down)
            return self.fromTile((odd ? -s : s, u.1 - j))
        }
        var op = frame
        op["inputScale"] = .number(1.7)
        try check("CIOpTile", op) { x, y in
            let u = self.toTile(x, y)
            let k = ((u.0 + 0.5).rounded(.down), (u.1 + 0.5).rounded(.down))
            return self.fromTile((k.0 + 1.7 * (u.0 - k.0), k.1 + 1.7 * (u.1 - k.1)))
        }
        var flat = frame
        flat["inputWidth"] = .number(0)
        flat["inputImage"] = .image(try source().image)
        XCTAssertThrowsError(try Image.filter("CIEightfoldReflectedTile", parameters: flat))
    }

    /// `u` relative to the nearest point of the triangular lattice of spacing √3 with points
    /// `√3·(i + j/2, j·√3/2)`, by search over a 5×5 neighbourhood (not the kernel's rhombus).
    func hexVector(_ u: (Double, Double)) -> (Double, Double) {
        let s = 3.0.squareRoot()
        let j0 = (u.1 / (s * s / 2)).rounded(), i0 = (u.0 / s - j0 / 2).rounded()
        var best = (0.0, 0.0), nearest = Double.infinity
        for j in Int(j0) - 2...Int(j0) + 2 {
            for i in Int(i0) - 2...Int(i0) + 2 {
                let p = (s * (Double(i) + Double(j) / 2), s * Double(j) * s / 2)
                let v = (u.0 - p.0, u.1 - p.1), d = hypot(v.0, v.1)
                if d < nearest { nearest = d; best = v }
            }
        }
        return best
    }

    func polar(_ r: Double, _ phi: Double) -> (Double, Double) { (r * cos(phi), r * sin(phi)) }

    func testHexagonalTiles() throws {
        let sixty = Double.pi / 3, thirty = Double.pi / 6
        try check("CISixfoldRotatedTile", frame) { x, y in
            let v = self.hexVector(self.toTile(x, y)), phi = atan2(v.1, v.0)
            let k = ((phi - thirty) / sixty).rounded(.down)
            return self.fromTile(self.polar(hypot(v.0, v.1), phi - k * sixty))
        }
        try check("CISixfoldReflectedTile", frame) { x, y in
            let v = self.hexVector(self.toTile(x, y))
            let t = (atan2(v.1, v.0) - thirty) / sixty
            return self.fromTile(self.polar(hypot(v.0, v.1), thirty + sixty * (1 - abs(self.mod(t, 2) - 1))))
        }
        try check("CITwelvefoldReflectedTile", frame) { x, y in
            let v = self.hexVector(self.toTile(x, y))
            let t = (atan2(v.1, v.0) - thirty) / thirty
            return self.fromTile(self.polar(hypot(v.0, v.1), thirty + thirty * (1 - abs(self.mod(t, 2) - 1))))
        }
        try check("CITriangleTile", frame) { x, y in
            let u = self.toTile(x, y), h = 3.0.squareRoot() / 2
            let g0 = (u.0 + 0.5, u.1 + h / 3)
            let beta = g0.1 / h, alpha = g0.0 - beta / 2
            var g = (alpha - alpha.rounded(.down), beta - beta.rounded(.down))
            if g.0 + g.1 > 1 { g = (1 - g.0, 1 - g.1) }
            return self.fromTile((g.0 + g.1 / 2 - 0.5, h * g.1 - h / 3))
        }
    }

    func testKaleidoscopes() throws {
        let count = 5.0, angle = 0.4, wedge = Double.pi / count
        try check("CIKaleidoscope", ["inputCenter": .vector([20.3, 15.1]), "inputCount": .number(count), "inputAngle": .number(angle)]) { x, y in
            let vx = x - self.c.0, vy = y - self.c.1
            let t = (atan2(vy, vx) - angle) / wedge
            let phi = angle + wedge * (1 - abs(self.mod(t, 2) - 1))
            return (self.c.0 + hypot(vx, vy) * cos(phi), self.c.1 + hypot(vx, vy) * sin(phi))
        }
        // The triangle kaleidoscope: the sixfold reflection about a hexagon centre placed so the
        // central triangle's centroid is the point, faded with distance.
        let size = 11.0, rotation = 5.9, decay = 0.6
        let point = (20.3, 15.1)
        let o = (size * 3.0.squareRoot() / 6, size / 2)
        let hexCentre = (point.0 - (cos(rotation) * o.0 - sin(rotation) * o.1), point.1 - (sin(rotation) * o.0 + cos(rotation) * o.1))
        try check("CITriangleKaleidoscope", ["inputPoint": .vector([point.0, point.1]), "inputSize": .number(size),
                                             "inputRotation": .number(rotation), "inputDecay": .number(decay)],
                  fade: { x, y in pow(decay, hypot(x - point.0, y - point.1) / size) }) { x, y in
            let vx = (x - hexCentre.0) / size, vy = (y - hexCentre.1) / size
            let u = (cos(rotation) * vx + sin(rotation) * vy, cos(rotation) * vy - sin(rotation) * vx)
            let v = self.hexVector(u)
            let t = (atan2(v.1, v.0) - Double.pi / 6) / (Double.pi / 3)
            let p = self.polar(hypot(v.0, v.1), Double.pi / 6 + Double.pi / 3 * (1 - abs(self.mod(t, 2) - 1)))
            return (hexCentre.0 + size * (cos(rotation) * p.0 - sin(rotation) * p.1),
                    hexCentre.1 + size * (sin(rotation) * p.0 + cos(rotation) * p.1))
        }
    }

    func testAffineAndPerspectiveTiles() throws {
        // Affine: T⁻¹·p wrapped into the 41×31 extent, the input clamped at the seams.
        let t = AffineTransform(a: 0.8, b: 0.3, c: -0.2, d: 0.9, tx: 5, ty: -3)
        let det = t.a * t.d - t.b * t.c
        try check("CIAffineTile", ["inputTransform": .transform(t)], clamped: [false], referenceClamped: true) { x, y in
            let qx = (t.d * (x - t.tx) - t.c * (y - t.ty)) / det, qy = (-t.b * (x - t.tx) + t.a * (y - t.ty)) / det
            return (self.mod(qx, 41), self.mod(qy, 31))
        }
        // The seams read the clamped edge: compare the finite input's render with the clamped formula.
        let s = try source()
        let tiled = try Image.filter("CIAffineTile", parameters: ["inputImage": .image(s.image)])
        let seam = try largestError(tiled, rect: Rect(x: 38, y: -3, width: 6, height: 6)) { i, j in
            s.bilinear(self.mod(Double(i) + 0.5, 41), self.mod(Double(j) + 0.5, 31), clamped: true)
        }
        XCTAssertLessThan(seam, 1e-4)
        // Perspective: the unit square onto four corners, the plane tiled with the extent.
        let corners = ["inputBottomLeft": [2.0, 3.0], "inputBottomRight": [30.0, 1.0], "inputTopRight": [25.0, 20.0], "inputTopLeft": [6.0, 18.0]]
        guard let h = Homography(unitSquareTo: [(2, 3), (30, 1), (25, 20), (6, 18)])?.inverted else { return XCTFail("homography") }
        // Near the horizon (|s|, |t| large) Float32 loses the fraction: compared within 40 tiles.
        try check("CIPerspectiveTile", corners.mapValues { FilterValue.vector($0) }, clamped: [false], referenceClamped: true,
                  compareAtLeast: 0.3, skip: { x, y in
                      guard let st = h.apply(x, y) else { return false }
                      return max(abs(st.x), abs(st.y)) > 40
                  }) { x, y in
            guard let st = h.apply(x, y) else { return nil }
            return (41 * (st.x - st.x.rounded(.down)), 31 * (st.y - st.y.rounded(.down)))
        }
        XCTAssertThrowsError(try Image.filter("CIAffineTile", parameters: ["inputImage": .image(s.image.clampedToExtent())]))
        XCTAssertThrowsError(try Image.filter("CIPerspectiveTile", parameters: ["inputImage": .image(s.image.clampedToExtent())]))
    }

    func testEveryKernelCompiles() {
        let kernels: [(String, CatalogueKernel)] = [
            ("affine", TileFilters.affineKernel), ("perspective", TileFilters.perspectiveKernel),
            ("translated", TileFilters.fourfoldTranslatedKernel), ("reflected", TileFilters.fourfoldReflectedKernel),
            ("parallelogram", TileFilters.parallelogramKernel), ("rotated", TileFilters.fourfoldRotatedKernel),
            ("eightfold", TileFilters.eightfoldReflectedKernel), ("glide", TileFilters.glideReflectedKernel), ("op", TileFilters.opKernel),
            ("sixfold rotated", HexagonalTileFilters.sixfoldRotatedKernel), ("sixfold reflected", HexagonalTileFilters.sixfoldReflectedKernel),
            ("twelvefold", HexagonalTileFilters.twelvefoldReflectedKernel), ("triangle", HexagonalTileFilters.triangleKernel),
            ("kaleidoscope", HexagonalTileFilters.kaleidoscopeKernel), ("triangle kaleidoscope", HexagonalTileFilters.triangleKaleidoscopeKernel),
        ]
        for (name, kernel) in kernels {
            XCTAssertNil(kernel.compileError, "\(name): \(kernel.compileError.map { "\($0)" } ?? "")")
        }
    }

    func testAttributesMatchCoreImage() throws {
        try assertAttributes(["CIAffineTile", "CIEightfoldReflectedTile", "CIFourfoldReflectedTile", "CIFourfoldRotatedTile",
                              "CIFourfoldTranslatedTile", "CIGlideReflectedTile", "CIKaleidoscope", "CIOpTile", "CIParallelogramTile",
                              "CIPerspectiveTile", "CISixfoldReflectedTile", "CISixfoldRotatedTile", "CITriangleKaleidoscope",
                              "CITriangleTile", "CITwelvefoldReflectedTile"])
    }
}

/// An infinite input costs only what the output needs: for every distortion and tile filter at its
/// defaults, the region of the input read for a 16×16 output tile is finite (the filters that need
/// a finite input to define their tile or frame get the finite one).
final class DistortionAndTileRegionTests: XCTestCase {
    func inputRegion(_ image: Image, _ rect: Rect) -> Rect? {
        switch image.node.kind {
        case .warp(let operation): return operation.regionOfInterest(for: rect)
        case .general(let operation): return operation.regionOfInterest(input: 0, for: rect)
        default: return nil
        }
    }

    func testInfiniteInputsAreReadOnlyWhereNeeded() throws {
        let source = try GeometrySource(width: 41, height: 31)
        let finiteOnly: Set<String> = ["CIAffineTile", "CIPerspectiveTile", "CIDroste"]
        let names = (DistortionFilters.all + TileFilters.all).map(\.name)
        XCTAssertEqual(names.count, 29)
        for name in names {
            // CIDroste's default inset (200, 200)–(400, 400) needs a picture around it.
            let frame = source.image.transformed(by: AffineTransform(a: 15, b: 0, c: 0, d: 20, tx: 0, ty: 0))
            var parameters: [String: FilterValue] = ["inputImage": .image(finiteOnly.contains(name) ? frame : source.image.clampedToExtent())]
            let descriptor = try FilterRegistry.standard.descriptor(named: name)
            for key in ["inputDisplacementImage", "inputTexture"] where descriptor.input(key) != nil {
                parameters[key] = .image(source.image)
            }
            let image = try Image.filter(name, parameters: parameters)
            for rect in [Rect(x: 140, y: 150, width: 16, height: 16), Rect(x: -900, y: 2000, width: 16, height: 16)] {
                guard let region = inputRegion(image, rect) else {
                    XCTFail("\(name): not a warp or general kernel")
                    continue
                }
                XCTAssertFalse(region.isInfinite, "\(name) \(rect)")
                XCTAssertLessThan(max(region.width, region.height), 5000, "\(name) \(rect)")
            }
        }
    }
}
