import Foundation
import XCTest
@testable import GraphEngine

/// The meaning of lowered kernels, checked by running them on concrete pixels.
final class KernelLoweringTests: XCTestCase {
    func testArithmeticAndBroadcasting() throws {
        let source = """
            kernel vec4 k(__sample s, float t) {
                vec3 v = s.rgb * t + 0.5;      // vec * float, + float
                vec3 w = 2.0 * v - s.rgb / 4.0; // float * vec
                float f = -(s.a - t) / 2.0;
                return vec4(w, f) + vec4(1e-3, .5, 1, 0.0) * vec4(1.0, 2.0, 3.0, 4.0);
            }
            """
        let s: [Double] = [0.2, 0.4, 0.8, 0.9], t = 1.5
        let run = try runKernel(source, [.pixel(s.map(Float.init)), .float(Float(t))])
        let v = s[0..<3].map { $0 * t + 0.5 }
        let w = (0..<3).map { 2 * v[$0] - s[$0] / 4 }
        assertClose(run.values, [w[0] + 1e-3, w[1] + 1, w[2] + 3, -(s[3] - t) / 2])
    }

    func testSwizzleReadAndWrite() throws {
        let source = """
            kernel vec4 k(__sample s) {
                vec4 c = s;
                c.rgb = c.bgr;
                c.a *= 2.0;
                c.xy = vec2(c.y, 7.0);
                c.zw -= vec2(1.0);
                c.stp.x += 100.0;   // nested swizzle target: c.s
                return c.wzyx + s.rrra * 0.0 + vec4(s.x, s.st, s.q) * 0.0;
            }
            """
        let run = try runKernel(source, [.pixel([1, 2, 3, 4])])
        // c = (3,2,1,4) -> a*2 -> (3,2,1,8) -> xy = (2,7) -> (2,7,1,8) -> zw-1 -> (2,7,0,7) -> s+100 -> (102,7,0,7)
        assertClose(run.values, [7, 0, 7, 102])
    }

    func testInvertOnPremultipliedData() throws {
        let run = try runKernel("kernel vec4 invert(__sample s) { s.rgb = s.aaa - s.rgb; return s; }", [.pixel([0.1, 0.2, 0.3, 0.5])])
        assertClose(run.values, [0.4, 0.3, 0.2, 0.5])
    }

    func testConstructors() throws {
        let source = """
            kernel vec4 k(__sample s, float a, float b) {
                vec2 p = vec2(a, b);
                vec3 q = vec3(s);             // truncates
                vec4 r = vec4(p, vec2(3.0));  // concatenates
                float f = float(a > b) + float(true);
                bool g = bool(b);
                return vec4(q, f) + r + vec4(g ? 10.0 : 20.0) + vec4(vec3(a), 1.0);
            }
            """
        let run = try runKernel(source, [.pixel([1, 2, 3, 4]), .float(5), .float(0)])
        // q=(1,2,3) f=2 r=(5,0,3,3) g=false -> 20 ; vec4(5,5,5,1)
        assertClose(run.values, [1 + 5 + 20 + 5, 2 + 0 + 20 + 5, 3 + 3 + 20 + 5, 2 + 3 + 20 + 1])
    }

    func testComparisonsAndLogic() throws {
        let source = """
            kernel vec4 k(__sample s) {
                bool a = s.r < s.g && !(s.b >= 1.0);
                bool b = s.r == 0.25 || s.a != s.a;
                bool c = s.rg == vec2(0.25, 0.5);
                bool d = s.rgb != vec3(0.25, 0.5, 0.75);
                return vec4(a ? 1.0 : 0.0, b ? 1.0 : 0.0, c ? 1.0 : 0.0, d ? 1.0 : 0.0);
            }
            """
        assertClose(try runKernel(source, [.pixel([0.25, 0.5, 0.75, 1])]).values, [1, 1, 1, 0])
        assertClose(try runKernel(source, [.pixel([0.5, 0.25, 1.0, 1])]).values, [0, 0, 0, 1])
    }

    func testIfElseChainPerPixel() throws {
        let source = """
            kernel vec4 k(__sample s) {
                vec4 c = s;
                if (s.r > 0.5) {
                    c.g = 1.0;
                } else if (s.r > 0.25)
                    c.g = 0.5;
                else {
                    c.g = 0.0;
                    c.b = -1.0;
                }
                return c;
            }
            """
        assertClose(try runKernel(source, [.pixel([0.7, 9, 9, 1])]).values, [0.7, 1, 9, 1])
        assertClose(try runKernel(source, [.pixel([0.3, 9, 9, 1])]).values, [0.3, 0.5, 9, 1])
        assertClose(try runKernel(source, [.pixel([0.1, 9, 9, 1])]).values, [0.1, 0, -1, 1])
    }

    func testEarlyReturn() throws {
        let source = """
            kernel vec4 k(__sample s) {
                if (s.a <= 0.0) return vec4(0.0);
                vec4 c = s;
                if (c.r > 0.5) {
                    c.rgb = vec3(1.0);
                    return c;
                }
                c.r += 0.25;
                if (c.r > 0.5) { return vec4(c.r); } else { c.g = 2.0; }
                return c * 2.0;
            }
            """
        assertClose(try runKernel(source, [.pixel([0.9, 0.2, 0.3, 0])]).values, [0, 0, 0, 0])
        assertClose(try runKernel(source, [.pixel([0.9, 0.2, 0.3, 1])]).values, [1, 1, 1, 1])
        assertClose(try runKernel(source, [.pixel([0.4, 0.2, 0.3, 1])]).values, [0.65, 0.65, 0.65, 0.65])
        assertClose(try runKernel(source, [.pixel([0.1, 0.2, 0.3, 0.5])]).values, [0.7, 4, 0.6, 1])
    }

    func testConstantConditionsLowerOnlyTheTakenBranch() throws {
        let run = try runKernel(
            "kernel vec4 k(__sample s) { if (1.0 > 2.0) { return sqrt(s); } else { return s; } }", [.pixel([1, 2, 3, 4])])
        assertClose(run.values, [1, 2, 3, 4])
        XCTAssertFalse(run.builder.instructions.contains { if case .unary(.sqrt, _, _) = $0 { return true } else { return false } })
    }

    func testHelperFunctionsWithEarlyReturns() throws {
        let source = """
            float luma(vec3 c) { return dot(c, vec3(0.25, 0.5, 0.25)); }
            vec3 tone(vec3 c, float k) {
                if (luma(c) > k) {
                    return c * 0.5;
                }
                if (c.r < 0.0) return vec3(0.0);
                return c + k;
            }
            kernel vec4 k(__sample s, float threshold) {
                return vec4(tone(s.rgb, threshold), luma(s.rgb));
            }
            """
        let bright = try runKernel(source, [.pixel([0.8, 0.8, 0.8, 1]), .float(0.5)])
        assertClose(bright.values, [0.4, 0.4, 0.4, 0.8])
        let dark = try runKernel(source, [.pixel([0.2, 0.2, 0.2, 1]), .float(0.5)])
        assertClose(dark.values, [0.7, 0.7, 0.7, 0.2])
        let negative = try runKernel(source, [.pixel([-0.2, 0.2, 0.2, 1]), .float(0.5)])
        assertClose(negative.values, [0, 0, 0, 0.1])
    }

    func testHelpersMayBeDeclaredAfterUseAndTakeSamplers() throws {
        let source = """
            kernel vec4 k(sampler src) { return twice(src, destCoord()); }
            vec4 twice(sampler image, vec2 p) { return sample(image, p) * 2.0; }
            """
        let run = try runKernel(source, [.sampler(extent: [0, 0, 10, 10], { x, y in [x, y, 0, 1] })], at: (3.5, 4.5))
        assertClose(run.values, [7, 9, 0, 2])
    }

    func testDepthDarkening() throws {
        let source = "kernel vec4 darken(__sample s, __sample d, float power) { return vec4(s.rgb * pow(d.r, power), s.a); }"
        let s: [Double] = [0.8, 0.6, 0.4, 0.9], d = 0.5, power = 2.2
        let run = try runKernel(source, [.pixel(s.map(Float.init)), .pixel([Float(d), 0, 0, 1]), .float(Float(power))])
        let factor = Foundation.pow(d, power)
        assertClose(run.values, [s[0] * factor, s[1] * factor, s[2] * factor, s[3]], tolerance: 1e-5)
        // One pow shared by the three channels, three multiplies, nothing else.
        let kernel = try Kernel(source: source)
        var builder = ProgramBuilder()
        let sq = builder.load(input: 0), dq = builder.load(input: 1)
        let before = builder.instructions.count
        _ = try kernel.lower(into: &builder, arguments: [.pixel(sq), .pixel(dq), .scalar(builder.uniform(2.2))], destination: (.constant(0), .constant(0)))
        XCTAssertEqual(builder.instructions.count - before, 4)
    }

    func testWarpMirror() throws {
        let source = "kernel vec2 mirror(float w) { return vec2(w - destCoord().x, destCoord().y); }"
        let kernel = try Kernel(source: source)
        XCTAssertEqual(kernel.kind, .warp)
        let run = try runKernel(source, [.float(100)], at: (10.5, 20.5))
        assertClose(run.values, [89.5, 20.5])
        let named = try Kernel(source: "kernel vec2 flip(sampler src) { vec2 e = samplerSize(src); return vec2(destCoord().x, e.y - destCoord().y); }")
        XCTAssertEqual(named.kind, .warp)
        let flipped = try runKernel(named.source, [.sampler(extent: [0, 0, 64, 48], { _, _ in [0, 0, 0, 0] })], at: (3.5, 10.5))
        assertClose(flipped.values, [3.5, 37.5])
    }

    func testGeneralKernelSamplesTwice() throws {
        let source = """
            kernel vec4 blur(sampler src, float radius) {
                vec2 p = samplerCoord(src);
                vec4 left = sample(src, samplerTransform(src, p - vec2(radius, 0.0)));
                vec4 right = sample(src, p + vec2(radius, 0.0));
                return (left + right) * 0.5;
            }
            """
        let run = try runKernel(source, [.sampler(extent: [0, 0, 100, 100], { x, y in [x, y, x * y, 1] }), .float(2)], at: (10.5, 5.5))
        // left (8.5, 5.5), right (12.5, 5.5)
        assertClose(run.values, [10.5, 5.5, (8.5 * 5.5 + 12.5 * 5.5) / 2, 1])
        let samples = run.builder.instructions.filter { if case .sample = $0 { return true } else { return false } }
        XCTAssertEqual(samples.count, 2)
    }

    func testForLoopsUnroll() throws {
        let source = """
            kernel vec4 k(__sample s) {
                float sum = 0.0;
                for (int i = 0; i < 4; i++) sum += s.r * float(i);
                vec4 c = vec4(0.0);
                for (float t = 1.0; t <= 2.0; t += 0.5) {
                    if (t == 1.5) { c.g += t; } else { c.r += t; }
                }
                const float n = 3.0;
                for (int j = n; j > 0; j--) { c.b += 1.0; }
                return vec4(sum, c.rgb) + c * 0.0;
            }
            """
        let run = try runKernel(source, [.pixel([2, 0, 0, 0])])
        assertClose(run.values, [12, 3, 1.5, 3])
    }

    func testReturnInsideLoop() throws {
        let source = """
            kernel vec4 k(__sample s) {
                for (int i = 0; i < 8; i++) {
                    if (s.r < float(i) * 0.1) return vec4(float(i));
                }
                return vec4(-1.0);
            }
            """
        assertClose(try runKernel(source, [.pixel([0.35, 0, 0, 0])]).values, [4, 4, 4, 4])
        assertClose(try runKernel(source, [.pixel([5, 0, 0, 0])]).values, [-1, -1, -1, -1])
    }

    func testConstantFolding() throws {
        func count(_ source: String, _ arguments: [KernelArgumentValue]) throws -> Int {
            let kernel = try Kernel(source: source)
            var builder = ProgramBuilder()
            for argument in arguments { if case .pixel = argument { _ = builder.load(input: 0) } }
            let before = builder.instructions.count
            _ = try kernel.lower(into: &builder, arguments: arguments, destination: (.constant(0), .constant(0)))
            return builder.instructions.count - before
        }
        var loader = ProgramBuilder()
        let pixel = loader.load(input: 0)
        XCTAssertEqual(try count("kernel vec4 k(__sample s) { return s * 1.0; }", [.pixel(pixel)]), 0)
        XCTAssertEqual(try count("kernel vec4 k(__sample s) { return 1.0 * s + 0.0; }", [.pixel(pixel)]), 0)
        XCTAssertEqual(try count("kernel vec4 k(__sample s) { return vec4(2.0 * 3.0 + 1.0, sqrt(4.0), pow(2.0, 3.0), s.a); }", [.pixel(pixel)]), 0)
        XCTAssertEqual(try count("kernel vec4 k(float g) { return vec4(g * 1.0); }", [.scalar(.constant(0.5))]), 0)
        // A constant argument folds through the whole body.
        let folded = try Kernel(source: "kernel vec4 k(float g) { float h = g * 2.0; if (h > 0.5) return vec4(h); return vec4(0.0); }")
        var builder = ProgramBuilder()
        let result = try folded.lower(into: &builder, arguments: [.scalar(.constant(0.5))], destination: (.constant(0), .constant(0)))
        XCTAssertEqual(builder.instructions.count, 0)
        XCTAssertEqual(result, Array(repeating: .constant(1), count: 4))
        // A uniform does not fold: h = g*2, compare, then selects.
        XCTAssertEqual(try count("kernel vec4 k(float g) { return vec4(g * 2.0); }", [.scalar(.uniform(0))]), 1)
    }

    func testSwizzlesAreFree() throws {
        let kernel = try Kernel(source: "kernel vec4 k(__sample s) { vec4 c = s.abgr; c.rg = c.gr; return c.wzyx; }")
        var builder = ProgramBuilder()
        let pixel = builder.load(input: 0)
        let result = try kernel.lower(into: &builder, arguments: [.pixel(pixel)], destination: (.constant(0), .constant(0)))
        XCTAssertEqual(builder.instructions.count, 1)
        XCTAssertEqual(result, [pixel.r, pixel.g, pixel.a, pixel.b])
    }
}
