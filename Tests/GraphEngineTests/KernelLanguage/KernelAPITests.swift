import XCTest
@testable import GraphEngine

/// The public surface: name, kind, parameters, identity, argument checking.
final class KernelAPITests: XCTestCase {
    func testKindsAndParameters() throws {
        let color = try Kernel(source: "kernel vec4 tint(__sample s, __color c, vec3 v, vec2 p, float f) { return s * c; }")
        XCTAssertEqual(color.name, "tint")
        XCTAssertEqual(color.kind, .color)
        XCTAssertEqual(color.parameters, [
            KernelParameter(name: "s", type: .sample), KernelParameter(name: "c", type: .color),
            KernelParameter(name: "v", type: .vec3), KernelParameter(name: "p", type: .vec2),
            KernelParameter(name: "f", type: .float),
        ])
        let general = try Kernel(source: "kernel vec4 g(sampler a, vec4 v) { return sample(a, destCoord()) * v; }")
        XCTAssertEqual(general.kind, .general)
        XCTAssertEqual(general.parameters.map(\.type), [.sampler, .vec4])
        let warp = try Kernel(source: "// a warp\nkernel vec2 w() { return destCoord() * 0.5; }")
        XCTAssertEqual(warp.kind, .warp)
        XCTAssertEqual(warp.parameters, [])
    }

    func testEqualityBySource() throws {
        let a = try Kernel(source: "kernel vec4 k(__sample s) { return s; }")
        let b = try Kernel(source: "kernel vec4 k(__sample s) { return s; }")
        let c = try Kernel(source: "kernel vec4 k(__sample s) { return s.bgra; }")
        XCTAssertEqual(a, b)
        XCTAssertNotEqual(a, c)
        XCTAssertEqual(Set([a, b, c]).count, 2)
    }

    func testArgumentChecking() throws {
        let kernel = try Kernel(source: "kernel vec4 darken(__sample s, __sample d,\n    float power) { return s * pow(d.r, power); }")
        var builder = ProgramBuilder()
        let pixel = builder.load(input: 0)
        func message(_ arguments: [KernelArgumentValue]) -> String? {
            var b = builder
            do {
                _ = try kernel.lower(into: &b, arguments: arguments, destination: (.constant(0), .constant(0)))
                return nil
            } catch {
                return error.description
            }
        }
        XCTAssertEqual(message([.pixel(pixel), .pixel(pixel)]), "1:1: kernel 'darken' takes 3 arguments, but 2 were given")
        XCTAssertEqual(
            message([.pixel(pixel), .pixel(pixel), .vector([.constant(1), .constant(2)])]),
            "2:11: parameter 'power' of kernel 'darken' is a float and needs a scalar, but a vector of 2 was given")
        XCTAssertEqual(
            message([.scalar(.constant(1)), .pixel(pixel), .scalar(.constant(1))]),
            "1:29: parameter 's' of kernel 'darken' is a __sample and needs a pixel (.pixel), but a scalar was given")
        XCTAssertNil(message([.pixel(pixel), .pixel(pixel), .scalar(.constant(1))]))

        let vectors = try Kernel(source: "kernel vec4 k(vec3 v, sampler src) { return vec4(v, 1.0) * sample(src, destCoord()); }")
        var b = ProgramBuilder()
        XCTAssertThrowsError(try vectors.lower(into: &b, arguments: [.vector([.constant(1)]), .sampler(slot: 0, extent: Array(repeating: .constant(0), count: 4))], destination: (.constant(0), .constant(0)))) { error in
            XCTAssertEqual((error as? KernelCompileError)?.message, "parameter 'v' of kernel 'k' is a vec3 and needs a vector of 3, but a vector of 1 was given")
        }
        XCTAssertThrowsError(try vectors.lower(into: &b, arguments: [.vector([.constant(1), .constant(1), .constant(1)]), .sampler(slot: 0, extent: [])], destination: (.constant(0), .constant(0)))) { error in
            XCTAssertEqual((error as? KernelCompileError)?.message, "parameter 'src' of kernel 'k' is a sampler and needs a sampler binding (.sampler), but a sampler extent of 0 values was given")
        }
    }

    func testLoweringLeavesOriginAlone() throws {
        let kernel = try Kernel(source: "kernel vec4 k(__sample s) { return sqrt(s); }")
        var builder = ProgramBuilder()
        builder.currentOrigin = "node 7"
        let pixel = builder.load(input: 0)
        _ = try kernel.lower(into: &builder, arguments: [.pixel(pixel)], destination: (.constant(0), .constant(0)))
        XCTAssertEqual(builder.currentOrigin, "node 7")
        XCTAssertEqual(Set(builder.origins), ["node 7"])
    }

    func testCommentsAndNumberForms() throws {
        let run = try runKernel(
            """
            /* header
               comment */ kernel vec4 k() { // line comment
                return vec4(1, 1.0, .5, 1e-3) + vec4(2.5e1, 1.E2, 3.0f, 0.0); /* trailing */
            }
            """)
        assertClose(run.values, [26, 101, 3.5, 0.001])
    }
}
