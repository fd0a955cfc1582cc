import Foundation
import XCTest
@testable import GraphEngine

/// Each built-in, lowered and run on a pixel, against the GLSL / Core Image formula in Double.
final class KernelBuiltinTests: XCTestCase {
    let a: [Double] = [0.3, -1.2, 2.5, 0.75]
    let b: [Double] = [0.9, 0.4, -0.5, 2.0]
    let c: [Double] = [0.5, 0.25, 0.8, 0.1]
    let x = 0.6, y = -0.35

    /// Evaluates `expression` (a vec4) in a kernel with uniforms a, b, c (vec4) and x, y (float).
    func evaluate(_ expression: String, file: StaticString = #filePath, line: UInt = #line) throws -> [Float] {
        let source = "kernel vec4 k(vec4 a, vec4 b, vec4 c, float x, float y) { return \(expression); }"
        let run = try runKernel(
            source, [.vector(a.map(Float.init)), .vector(b.map(Float.init)), .vector(c.map(Float.init)), .float(Float(x)), .float(Float(y))],
            file: file, line: line)
        return run.values
    }

    func check(_ expression: String, _ expected: [Double], tolerance: Double = 2e-6, file: StaticString = #filePath, line: UInt = #line) throws {
        assertClose(try evaluate(expression, file: file, line: line), expected, tolerance: tolerance, file: file, line: line)
    }

    func each(_ v: [Double], _ f: (Double) -> Double) -> [Double] { v.map(f) }
    func each(_ v: [Double], _ w: [Double], _ f: (Double, Double) -> Double) -> [Double] { zip(v, w).map(f) }

    func glslMod(_ p: Double, _ q: Double) -> Double { p - q * Foundation.floor(p / q) }
    func glslSign(_ p: Double) -> Double { p > 0 ? 1 : (p < 0 ? -1 : 0) }
    func smooth(_ e0: Double, _ e1: Double, _ v: Double) -> Double {
        let t = Swift.min(Swift.max((v - e0) / (e1 - e0), 0), 1)
        return t * t * (3 - 2 * t)
    }

    func testClampMixStepSmoothstep() throws {
        try check("clamp(a, vec4(-1.0), c)", zip(a, c).map { Swift.min(Swift.max($0, -1), $1) })
        try check("clamp(a, -1.0, 1.0)", a.map { Swift.min(Swift.max($0, -1), 1) })
        try check("vec4(clamp(y, 0.0, 1.0))", Array(repeating: 0, count: 4))
        try check("mix(a, b, c)", (0..<4).map { a[$0] + (b[$0] - a[$0]) * c[$0] })
        try check("mix(a, b, x)", (0..<4).map { a[$0] + (b[$0] - a[$0]) * x })
        try check("step(b, a)", each(b, a) { $1 < $0 ? 0 : 1 })
        try check("step(x, a)", a.map { $0 < x ? 0 : 1 })
        try check("vec4(step(x, y))", Array(repeating: 0, count: 4))
        try check("smoothstep(vec4(0.0), vec4(1.0), c)", c.map { smooth(0, 1, $0) })
        try check("smoothstep(-1.0, 3.0, a)", a.map { smooth(-1, 3, $0) })
        try check("vec4(smoothstep(0.0, 1.0, x))", Array(repeating: smooth(0, 1, x), count: 4))
    }

    func testMinMaxAbsSignRounding() throws {
        try check("min(a, b)", each(a, b, Swift.min))
        try check("min(a, x)", a.map { Swift.min($0, x) })
        try check("max(a, b)", each(a, b, Swift.max))
        try check("max(a, y)", a.map { Swift.max($0, y) })
        try check("abs(a)", a.map { Swift.abs($0) })
        try check("sign(vec4(a.xy, 0.0, -0.0))", [1, -1, 0, 0])
        try check("floor(a)", a.map { Foundation.floor($0) })
        try check("ceil(a)", a.map { Foundation.ceil($0) })
        try check("fract(a)", a.map { $0 - Foundation.floor($0) })
        try check("mod(a, b)", each(a, b, glslMod))
        try check("mod(a, x)", a.map { glslMod($0, x) })
        try check("vec4(abs(y), floor(y), fract(y), sign(y))", [0.35, -1, y - Foundation.floor(y), -1])
    }

    func testExponentials() throws {
        try check("pow(c, b)", each(c, b) { Foundation.pow($0, $1) }, tolerance: 1e-5)
        try check("vec4(pow(x, 2.5))", Array(repeating: Foundation.pow(x, 2.5), count: 4), tolerance: 1e-5)
        try check("sqrt(c)", c.map { $0.squareRoot() })
        try check("inversesqrt(c)", c.map { 1 / $0.squareRoot() })
        try check("exp(a)", a.map { Foundation.exp($0) }, tolerance: 1e-5)
        try check("exp2(a)", a.map { Foundation.exp2($0) }, tolerance: 1e-5)
        try check("log(c)", c.map { Foundation.log($0) }, tolerance: 1e-5)
        try check("log2(c)", c.map { Foundation.log2($0) }, tolerance: 1e-5)
    }

    func testTrigonometry() throws {
        try check("sin(a)", a.map { Foundation.sin($0) })
        try check("cos(a)", a.map { Foundation.cos($0) })
        try check("tan(a)", a.map { Foundation.tan($0) }, tolerance: 1e-5)
        try check("asin(c)", c.map { Foundation.asin($0) })
        try check("acos(c)", c.map { Foundation.acos($0) })
        try check("atan(a)", a.map { Foundation.atan($0) })
        try check("atan(a, b)", each(a, b) { Foundation.atan2($0, $1) })
        try check("vec4(atan(y, x))", Array(repeating: Foundation.atan2(y, x), count: 4))
        try check("radians(a)", a.map { $0 * Double.pi / 180 })
        try check("degrees(a)", a.map { $0 * 180 / Double.pi }, tolerance: 1e-5)
        try check("vec4(sincos(x), cossin(x))", [Foundation.sin(x), Foundation.cos(x), Foundation.cos(x), Foundation.sin(x)])
        try check("vec4(sin_(x), cos_(x), tan_(x), cossin_(x).y)", [Foundation.sin(x), Foundation.cos(x), Foundation.tan(x), Foundation.sin(x)])
    }

    func testGeometry() throws {
        let dot = zip(a, b).map(*).reduce(0, +)
        let length = a.map { $0 * $0 }.reduce(0, +).squareRoot()
        let distance = zip(a, b).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot()
        try check("vec4(dot(a, b), length(a), distance(a, b), dot(a.xy, b.zw))",
                  [dot, length, distance, a[0] * b[2] + a[1] * b[3]], tolerance: 1e-5)
        try check("normalize(a)", a.map { $0 / length }, tolerance: 1e-5)
        try check("vec4(normalize(a.xy), normalize(y), length(y))",
                  [a[0] / Foundation.hypot(a[0], a[1]), a[1] / Foundation.hypot(a[0], a[1]), -1, 0.35], tolerance: 1e-5)
        try check("vec4(cross(a.xyz, b.xyz), 1.0)",
                  [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0], 1], tolerance: 1e-5)
        try check("vec4(distance(x, y), dot(x, y), 0.0, 0.0)", [0.95, x * y, 0, 0])
    }

    func testCompareAndAlpha() throws {
        try check("compare(a, b, c)", (0..<4).map { a[$0] < 0 ? b[$0] : c[$0] })
        try check("vec4(compare(y, x, 2.0))", Array(repeating: x, count: 4))
        try check("premultiply(a)", [a[0] * a[3], a[1] * a[3], a[2] * a[3], a[3]])
        try check("unpremultiply(a)", [a[0] / a[3], a[1] / a[3], a[2] / a[3], a[3]])
        try check("unpremultiply(vec4(a.rgb, 0.0))", [a[0], a[1], a[2], 0])
        try check("unpremultiply(premultiply(c))", c, tolerance: 1e-5)
    }

    func testCoordinateBuiltins() throws {
        let source = """
            kernel vec4 k(sampler src) {
                vec2 d = destCoord();
                vec2 s = samplerCoord(src);
                vec2 t = samplerTransform(src, d + vec2(1.0, 2.0));
                return vec4(d - s, t) + vec4(0.0, 0.0, samplerOrigin(src) * 0.0)
                    + vec4(0.0) * samplerExtent(src) + vec4(samplerSize(src), 0.0, 0.0) * 0.0;
            }
            """
        let run = try runKernel(source, [.sampler(extent: [10, 20, 300, 200], { _, _ in [0, 0, 0, 0] })], at: (12.5, 7.5))
        assertClose(run.values, [0, 0, 13.5, 9.5])
        let extent = try runKernel(
            "kernel vec4 k(sampler src) { return vec4(samplerOrigin(src) + samplerSize(src), samplerExtent(src).zw); }",
            [.sampler(extent: [10, 20, 300, 200], { _, _ in [0, 0, 0, 0] })])
        assertClose(extent.values, [310, 220, 300, 200])
    }
}
