import Foundation
import XCTest
@testable import GraphEngine
@testable import Kernels

/// The distortion filters against float64 implementations of their documented maps: the map is
/// evaluated in Double and the source bilinearly sampled in Double (``GeometrySource``). The
/// renders use Float32 intermediates (``exactContext(tileSize:)``, 8-pixel tiles, so every region
/// of interest is exercised at tile edges); the kernels compute coordinates in Float32, an error of
/// about 1e-5 pixel on these small images, which moves a bilinear sample of the random source
/// (neighbours differ by at most 1) by about 1e-5, so a tolerance of 2e-3 passes them and fails
/// any wrong map (a wrong sample differs by ~0.1 or more on most pixels).
final class DistortionFilterTests: XCTestCase {
    let tolerance = 2e-3

    func source() throws -> GeometrySource { try GeometrySource(width: 41, height: 31, seed: 11) }

    /// The rendered filter over `rect` against `bilinear(source, map(x, y))`, `map` nil where the
    /// output is transparent; pixels where `skip` is true (on a seam of the map) are not compared.
    func check(_ name: String, _ parameters: [String: FilterValue], clamped: Bool = false,
               rect: Rect = Rect(x: -4, y: -4, width: 49, height: 39), extent: Rect? = nil,
               skip: (Double, Double) -> Bool = { _, _ in false },
               map: (Double, Double) -> (Double, Double)?, file: StaticString = #filePath, line: UInt = #line) throws {
        let s = try source()
        var parameters = parameters
        parameters["inputImage"] = .image(clamped ? s.image.clampedToExtent() : s.image)
        let image = try Image.filter(name, parameters: parameters)
        if let extent {
            XCTAssertEqual(image.extent, extent, "\(name) extent", file: file, line: line)
        }
        var compared = 0
        let error = try largestError(image, rect: rect) { i, j in
            let x = Double(i) + 0.5, y = Double(j) + 0.5
            if skip(x, y) { return nil }
            compared += 1
            if !image.extent.isInfinite, x < image.extent.minX || x > image.extent.maxX
                || y < image.extent.minY || y > image.extent.maxY { return [0, 0, 0, 0] }
            guard let q = map(x, y) else { return [0, 0, 0, 0] }
            return s.bilinear(q.0, q.1, clamped: clamped)
        }
        XCTAssertLessThan(error, tolerance, "\(name) \(clamped ? "clamped" : "finite")", file: file, line: line)
        XCTAssertGreaterThan(compared, Int(rect.width * rect.height * 0.7), "\(name): most pixels compared", file: file, line: line)
    }

    /// Checks the finite input (extent: `finiteExtent`, default the input's) and its clamped,
    /// infinite version (infinite extent, clamped samples).
    func checkBoth(_ name: String, _ parameters: [String: FilterValue], finiteExtent: Rect? = Rect(x: 0, y: 0, width: 41, height: 31),
                   skip: @escaping (Double, Double) -> Bool = { _, _ in false },
                   map: @escaping (Double, Double) -> (Double, Double)?, file: StaticString = #filePath, line: UInt = #line) throws {
        try check(name, parameters, extent: finiteExtent, skip: skip, map: map, file: file, line: line)
        try check(name, parameters, clamped: true, extent: .infinite, skip: skip, map: map, file: file, line: line)
    }

    let c = (17.3, 14.2)

    func testBump() throws {
        for scale in [0.5, -0.8] {
            try checkBoth("CIBumpDistortion", ["inputCenter": .vector([17.3, 14.2]), "inputRadius": .number(12), "inputScale": .number(scale)]) { x, y in
                let vx = x - self.c.0, vy = y - self.c.1
                let k = max(1 - (vx * vx + vy * vy) / 144, 0)
                let f = 1 - scale * k * k
                return (self.c.0 + vx * f, self.c.1 + vy * f)
            }
        }
    }

    func testBumpLinear() throws {
        let a = 0.6
        try checkBoth("CIBumpDistortionLinear", ["inputCenter": .vector([17.3, 14.2]), "inputRadius": .number(9), "inputScale": .number(0.7),
                                                 "inputAngle": .number(a)]) { x, y in
            let n = (-sin(a), cos(a))
            let s = (x - self.c.0) * n.0 + (y - self.c.1) * n.1
            let k = max(1 - s * s / 81, 0)
            return (x - n.0 * s * 0.7 * k * k, y - n.1 * s * 0.7 * k * k)
        }
    }

    func testTwirlAndVortex() throws {
        for angle in [Double.pi, -2.5] {
            try checkBoth("CITwirlDistortion", ["inputCenter": .vector([17.3, 14.2]), "inputRadius": .number(13), "inputAngle": .number(angle)]) { x, y in
                let vx = x - self.c.0, vy = y - self.c.1
                let u = max(1 - hypot(vx, vy) / 13, 0)
                let t = -angle * u * u * (3 - 2 * u)
                return (self.c.0 + cos(t) * vx - sin(t) * vy, self.c.1 + sin(t) * vx + cos(t) * vy)
            }
        }
        try checkBoth("CIVortexDistortion", ["inputCenter": .vector([17.3, 14.2]), "inputRadius": .number(13), "inputAngle": .number(7)]) { x, y in
            let vx = x - self.c.0, vy = y - self.c.1
            let u = max(1 - hypot(vx, vy) / 13, 0)
            let t = 7 * u * u
            return (self.c.0 + cos(t) * vx - sin(t) * vy, self.c.1 + sin(t) * vx + cos(t) * vy)
        }
        // Counter-clockwise: a point a quarter turn counter-clockwise of the centre's right is read
        // back from the right, so the content moved that way.
        let s = try source()
        let spun = try Image.filter("CITwirlDistortion", parameters: ["inputImage": .image(s.image), "inputCenter": .vector([20.5, 15.5]),
                                                                     "inputRadius": .number(1000), "inputAngle": .number(Double.pi / 2)])
        let above = try renderPixels(spun.cropped(to: Rect(x: 20, y: 17, width: 1, height: 1)), Rect(x: 20, y: 17, width: 1, height: 1),
                                     context: exactContext())
        let u = 1 - 2 / 1000.0, theta = Double.pi / 2 * u * u * (3 - 2 * u)
        assertPixels(above, [s.bilinear(20.5 + 2 * sin(theta), 15.5 + 2 * cos(theta))], tolerance: 1e-3)
        XCTAssertEqual(sin(theta), 1, accuracy: 1e-4)
    }

    func testPinch() throws {
        try checkBoth("CIPinchDistortion", ["inputCenter": .vector([17.3, 14.2]), "inputRadius": .number(14), "inputScale": .number(0.8)]) { x, y in
            let vx = x - self.c.0, vy = y - self.c.1
            let t = min(max(hypot(vx, vy) / 14, 1e-6), 1)
            let f = pow(t, -0.8 / 1.8)
            return (self.c.0 + vx * f, self.c.1 + vy * f)
        }
    }

    func testHole() throws {
        let r = 6.0
        try checkBoth("CIHoleDistortion", ["inputCenter": .vector([17.3, 14.2]), "inputRadius": .number(r)],
                      skip: { x, y in abs(hypot(x - self.c.0, y - self.c.1) - r) < 0.05 }) { x, y in
            let vx = x - self.c.0, vy = y - self.c.1, d2 = vx * vx + vy * vy
            guard d2 >= r * r else { return nil }
            let f = sqrt((d2 - r * r) / d2)
            return (self.c.0 + vx * f, self.c.1 + vy * f)
        }
        XCTAssertThrowsError(try Image.filter("CIHoleDistortion", parameters: ["inputImage": .image(try source().image), "inputRadius": .number(0)]))
    }

    func testCircleSplashAndLightTunnel() throws {
        try checkBoth("CICircleSplashDistortion", ["inputCenter": .vector([17.3, 14.2]), "inputRadius": .number(8)], finiteExtent: .infinite) { x, y in
            let vx = x - self.c.0, vy = y - self.c.1, f = 8 / max(hypot(vx, vy), 8)
            return (self.c.0 + vx * f, self.c.1 + vy * f)
        }
        try checkBoth("CILightTunnel", ["inputCenter": .vector([17.3, 14.2]), "inputRadius": .number(7), "inputRotation": .number(1.2)],
                      finiteExtent: .infinite) { x, y in
            let vx = x - self.c.0, vy = y - self.c.1, d = max(hypot(vx, vy), 7)
            let w = 1.2 * log(d / 7), ux = vx * 7 / d, uy = vy * 7 / d
            return (self.c.0 + cos(w) * ux - sin(w) * uy, self.c.1 + sin(w) * ux + cos(w) * uy)
        }
        // Far out the splash still shows the rim (its region of interest is the disc, not the output).
        let s = try source()
        let far = try Image.filter("CICircleSplashDistortion", parameters: ["inputImage": .image(s.image), "inputCenter": .vector([17.3, 14.2]),
                                                                             "inputRadius": .number(8)])
        let error = try largestError(far, rect: Rect(x: 300, y: -200, width: 9, height: 9)) { i, j in
            let vx = Double(i) + 0.5 - 17.3, vy = Double(j) + 0.5 - 14.2, f = 8 / hypot(vx, vy)
            return s.bilinear(17.3 + vx * f, 14.2 + vy * f)
        }
        XCTAssertLessThan(error, tolerance)
        XCTAssertThrowsError(try Image.filter("CILightTunnel", parameters: ["inputImage": .image(s.image), "inputRadius": .number(0)]))
    }

    /// The lens shift of ``DistortionLensFilters/refractionSource`` in Double.
    func lensShift(_ vx: Double, _ vy: Double, _ r: Double, _ eta: Double) -> (Double, Double) {
        let v2 = vx * vx + vy * vy
        guard v2 < r * r else { return (0, 0) }
        let h = sqrt(r * r - v2)
        let n = (vx / r, vy / r, h / r)
        let k = 1 - eta * eta * (1 - n.2 * n.2)
        let m = eta * n.2 - sqrt(max(k, 0))
        let t = (m * n.0, m * n.1, -eta + m * n.2)
        var shift = (t.0 * (h + r) / max(-t.2, 0.001), t.1 * (h + r) / max(-t.2, 0.001))
        let length = hypot(shift.0, shift.1)
        let limit = min(1, 2 * r / max(length, 1e-6))
        shift = (shift.0 * limit, shift.1 * limit)
        return shift
    }

    func testGlassLozengeAndTorus() throws {
        for refraction in [1.7, 0.8] {
            try checkBoth("CIGlassLozenge", ["inputPoint0": .vector([10.2, 13.1]), "inputPoint1": .vector([27.6, 18.3]),
                                             "inputRadius": .number(7), "inputRefraction": .number(refraction)],
                          skip: { x, y in
                              let wx = x - 10.2, wy = y - 13.1, s = min(max((wx * 17.4 + wy * 5.2) / (17.4 * 17.4 + 5.2 * 5.2), 0), 1)
                              return abs(hypot(wx - 17.4 * s, wy - 5.2 * s) - 7) < 0.05  // the rim is a seam
                          }) { x, y in
                let ax = 17.4, ay = 5.2, wx = x - 10.2, wy = y - 13.1
                let s = min(max((wx * ax + wy * ay) / (ax * ax + ay * ay), 0), 1)
                let shift = self.lensShift(wx - ax * s, wy - ay * s, 7, 1 / refraction)
                return (x + shift.0, y + shift.1)
            }
            try checkBoth("CITorusLensDistortion", ["inputCenter": .vector([17.3, 14.2]), "inputRadius": .number(13), "inputWidth": .number(8),
                                                    "inputRefraction": .number(refraction)],
                          skip: { x, y in abs(abs(hypot(x - self.c.0, y - self.c.1) - 9) - 4) < 0.05 }) { x, y in
                let wx = x - self.c.0, wy = y - self.c.1, f = 1 - 9 / max(hypot(wx, wy), 1e-6)
                let shift = self.lensShift(wx * f, wy * f, 4, 1 / refraction)
                return (x + shift.0, y + shift.1)
            }
        }
        // A refraction of 1 is the identity.
        let s = try source()
        let flat = try Image.filter("CIGlassLozenge", parameters: ["inputImage": .image(s.image), "inputPoint0": .vector([10, 10]),
                                                                   "inputPoint1": .vector([30, 10]), "inputRadius": .number(8),
                                                                   "inputRefraction": .number(1)])
        XCTAssertLessThan(try largestError(flat, rect: Rect(x: 0, y: 0, width: 41, height: 31)) { i, j in s.pixel(i, j) }, 1e-4)
    }

    func testCircularWrap() throws {
        let r = 5.0, angle = 0.4
        // Rows above c.y reach out to r + (31 − 14.2), and the top row's bilinear footprint half a pixel further.
        let reach = r + 31.5 - 14.2
        try check("CICircularWrap", ["inputCenter": .vector([17.3, 14.2]), "inputRadius": .number(r), "inputAngle": .number(angle)],
                  rect: Rect(x: -10, y: -12, width: 60, height: 54),
                  extent: Rect(x: 17.3 - reach, y: 14.2 - reach, width: 2 * reach, height: 2 * reach),
                  skip: { x, y in
                      let wx = x - self.c.0, wy = y - self.c.1
                      let vx = cos(angle) * wx + sin(angle) * wy, vy = cos(angle) * wy - sin(angle) * wx
                      return abs(hypot(vx, vy) - r) < 0.05 || (vy < 0 && abs(vx) < 0.05)
                  }) { x, y in
            let wx = x - self.c.0, wy = y - self.c.1
            let vx = cos(angle) * wx + sin(angle) * wy, vy = cos(angle) * wy - sin(angle) * wx
            let d = hypot(vx, vy)
            guard d >= r else { return nil }
            return (self.c.0 + r * atan2(vx, vy), self.c.1 + d - r)
        }
        var parameters: [String: FilterValue] = ["inputImage": .image(try source().image.clampedToExtent()), "inputCenter": .vector([17.3, 14.2])]
        XCTAssertTrue(try Image.filter("CICircularWrap", parameters: parameters).extent.isInfinite)
        // An image wholly below the centre wraps to nothing.
        parameters["inputImage"] = .image(try source().image)
        parameters["inputCenter"] = .vector([17, 40])
        XCTAssertTrue(try Image.filter("CICircularWrap", parameters: parameters).extent.isEmpty)
    }

    /// A smooth displacement / texture image: channel values varying slowly across 41×31.
    func smoothMap() throws -> Image {
        var bytes: [UInt8] = []
        for row in 0..<31 {
            for column in 0..<41 {
                let y = 30 - row
                bytes += [UInt8(40 + column * 4), UInt8(230 - y * 6), UInt8((column * y) % 200), 255]
            }
        }
        return Image(buffer: try ImageBuffer(width: 41, height: 31, format: .rgba8, alphaMode: .straight, colorSpace: nil, bytes: bytes))
    }

    func mapPixel(_ i: Int, _ j: Int) -> [Double] {
        guard i >= 0, j >= 0, i < 41, j < 31 else { return [0, 0, 0, 0] }
        return [Double(40 + i * 4) / 255, Double(230 - j * 6) / 255, Double((i * j) % 200) / 255, 1]
    }

    func testDisplacement() throws {
        let map = try smoothMap()
        try checkBoth("CIDisplacementDistortion", ["inputDisplacementImage": .image(map), "inputScale": .number(9)]) { x, y in
            let m = self.mapPixel(Int(x.rounded(.down)), Int(y.rounded(.down)))
            return (x + 9 * (m[0] - 0.5), y + 9 * (m[1] - 0.5))
        }
    }

    func testGlass() throws {
        let texture = try smoothMap()
        // The texture's centre (20.5, 15.5) is placed on inputCenter (18.5, 13.5): offset (2, 2).
        func luma(_ i: Int, _ j: Int) -> Double {
            let p = mapPixel(i, j)
            return 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]
        }
        try checkBoth("CIGlassDistortion", ["inputTexture": .image(texture), "inputCenter": .vector([18.5, 13.5]), "inputScale": .number(20)]) { x, y in
            let i = Int((x + 2).rounded(.down)), j = Int((y + 2).rounded(.down))
            let gx = min(max(0.5 * (luma(i + 1, j) - luma(i - 1, j)), -1), 1)
            let gy = min(max(0.5 * (luma(i, j + 1) - luma(i, j - 1)), -1), 1)
            return (x + 20 * gx, y + 20 * gy)
        }
    }

    func testDroste() throws {
        // Inset (16, 12)–(24, 18): m = (20, 15), h = (4, 3); the largest frame inside 41×31 is 5 times it.
        let m = (20.0, 15.0), h = (4.0, 3.0), s = 5.0
        for (strands, periodicity, zoom, rotation) in [(1.0, 1.0, 1.0, 0.0), (-2.0, 2.0, 1.6, 0.7), (0.0, 1.0, 1.0, 0.0)] {
            let r0 = s * (h.0 * h.1).squareRoot()
            let k = (periodicity, -strands * log(s) / (2 * Double.pi))
            func map(_ x: Double, _ y: Double) -> (Double, Double) {
                let zx = x - m.0, zy = y - m.1
                let rho = log(hypot(zx, zy) / r0) - log(zoom), theta = atan2(zy, zx) + rotation
                let rs = k.0 * rho - k.1 * theta + log(r0), ts = k.0 * theta + k.1 * rho
                var z = (exp(rs) * cos(ts), exp(rs) * sin(ts))
                let n = (log(max(abs(z.0) / h.0, abs(z.1) / h.1)) / log(s)).rounded(.down)
                z = (z.0 * pow(s, -n), z.1 * pow(s, -n))
                return (m.0 + z.0, m.1 + z.1)
            }
            // The spiral jumps where it steps a frame and along the negative x axis (the branch of arg).
            let seam = { (x: Double, y: Double) -> Bool in
                let q = map(x, y)
                return [(0.02, 0.0), (-0.02, 0.0), (0.0, 0.02), (0.0, -0.02)].contains { d in
                    let r = map(x + d.0, y + d.1)
                    return hypot(r.0 - q.0, r.1 - q.1) > 0.2
                } || hypot(x - m.0, y - m.1) < 1
            }
            try check("CIDroste", ["inputInsetPoint0": .vector([16, 12]), "inputInsetPoint1": .vector([24, 18]), "inputStrands": .number(strands),
                                   "inputPeriodicity": .number(periodicity), "inputZoom": .number(zoom), "inputRotation": .number(rotation)],
                      extent: .infinite, skip: seam, map: map)
        }
        let image = try source().image
        XCTAssertThrowsError(try Image.filter("CIDroste", parameters: ["inputImage": .image(image.clampedToExtent())]))
        XCTAssertThrowsError(try Image.filter("CIDroste", parameters: ["inputImage": .image(image), "inputInsetPoint0": .vector([5, 5]),
                                                                       "inputInsetPoint1": .vector([5, 9])]))
    }

    func testEveryKernelCompiles() {
        let kernels: [(String, CatalogueKernel)] = [
            ("bump", DistortionFilters.bumpKernel), ("bump linear", DistortionFilters.bumpLinearKernel),
            ("splash", DistortionFilters.circleSplashKernel), ("hole", DistortionFilters.holeKernel),
            ("tunnel", DistortionFilters.lightTunnelKernel), ("pinch", DistortionFilters.pinchKernel),
            ("twirl", DistortionFilters.twirlKernel), ("vortex", DistortionFilters.vortexKernel),
            ("lozenge", DistortionLensFilters.lozengeKernel), ("torus", DistortionLensFilters.torusKernel),
            ("wrap", DistortionLensFilters.circularWrapKernel), ("displacement", DistortionLensFilters.displacementKernel),
            ("glass", DistortionLensFilters.glassKernel), ("droste", DrosteFilter.kernel),
        ]
        for (name, kernel) in kernels {
            XCTAssertNil(kernel.compileError, "\(name): \(kernel.compileError.map { "\($0)" } ?? "")")
        }
    }

    /// Core Image's names, categories, defaults, hard minima and slider ranges, from the reference.
    func testAttributesMatchCoreImage() throws {
        let names = ["CIBumpDistortion", "CIBumpDistortionLinear", "CICircleSplashDistortion", "CICircularWrap", "CIDisplacementDistortion",
                     "CIGlassDistortion", "CIGlassLozenge", "CIHoleDistortion", "CILightTunnel", "CIPinchDistortion",
                     "CITorusLensDistortion", "CITwirlDistortion", "CIVortexDistortion", "CIDroste"]
        try assertAttributes(names)
    }
}

/// Holds the catalogue's descriptors of `names` to ``CoreImageAttributeTable``.
func assertAttributes(_ names: [String], file: StaticString = #filePath, line: UInt = #line) throws {
    for name in names {
        let descriptor = try FilterRegistry.standard.descriptor(named: name)
        guard let reference = CoreImageAttributeTable.filters[name] else {
            XCTFail("no reference for \(name)", file: file, line: line)
            continue
        }
        XCTAssertEqual(descriptor.categories, reference.categories, name, file: file, line: line)
        XCTAssertEqual(Set(descriptor.inputs.map(\.key)), Set(reference.inputs.keys), name, file: file, line: line)
        XCTAssertFalse(descriptor.summary.isEmpty, name, file: file, line: line)
        for input in descriptor.inputs {
            guard let want = reference.inputs[input.key] else { continue }
            let context = "\(name).\(input.key)"
            switch input.defaultValue {
            case .number(let n)?: XCTAssertEqual(want.value, [n], context, file: file, line: line)
            case .vector(let v)?: XCTAssertEqual(want.value, v, context, file: file, line: line)
            case .color(let v, _)?: XCTAssertEqual(want.value, v, context, file: file, line: line)
            case .rect(let r)?: XCTAssertEqual(want.value, [r.x, r.y, r.width, r.height], context, file: file, line: line)
            default: XCTAssertNil(want.value, context, file: file, line: line)
            }
            XCTAssertEqual(input.minimum, want.minimum, context, file: file, line: line)
            XCTAssertEqual(input.sliderMinimum, want.sliderMinimum, context, file: file, line: line)
            XCTAssertEqual(input.sliderMaximum, want.sliderMaximum, context, file: file, line: line)
        }
    }
}
