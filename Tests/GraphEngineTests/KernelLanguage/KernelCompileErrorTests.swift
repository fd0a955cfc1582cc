import XCTest
@testable import GraphEngine

/// Compile errors: exact line:column and message for the common mistakes.
final class KernelCompileErrorTests: XCTestCase {
    func testAssigningWrongType() {
        assertCompileError(
            """
            kernel vec4 k(__sample s) {
                float x = 1.0;
                x = s.rgb;
                return s;
            }
            """, "3:5: cannot assign a vec3 to 'x' of type float")
    }

    func testAssigningWrongTypeToSwizzle() {
        assertCompileError(
            """
            kernel vec4 k(__sample s) {
              s.rgb = s.xy;
              return s;
            }
            """, "2:3: cannot assign a vec2 to 's.rgb' of type vec3")
    }

    func testCompoundAssignmentWidening() {
        assertCompileError(
            """
            kernel vec4 k(__sample s) {
              float x = 1.0;
              x *= s.rgb;
              return s;
            }
            """, "3:3: cannot assign a vec3 to 'x' of type float")
    }

    func testInitialiserType() {
        assertCompileError(
            "kernel vec4 k(__sample s) { vec3 c = s; return s; }",
            "1:38: cannot initialise 'c' of type vec3 with a vec4")
    }

    func testUnknownFunctionWithSuggestion() {
        assertCompileError(
            """
            kernel vec4 k(__sample s) {
              float t = 0.5;
              return vec4(smoth(0.0, 1.0, t));
            }
            """, "3:15: unknown function 'smoth' (did you mean 'smoothstep'?)")
        assertCompileError(
            "kernel vec4 k(__sample s) { return vec4(clmap(s.r, 0.0, 1.0)); }",
            "1:41: unknown function 'clmap' (did you mean 'clamp'?)")
        assertCompileError(
            "kernel vec4 k(__sample s) { return vec4(frobnicate(s.r)); }",
            "1:41: unknown function 'frobnicate'")
    }

    func testKernelReturnType() {
        assertCompileError(
            "kernel float k(__sample s) { return s.r; }",
            "1:1: a kernel must return vec4 (colour/general) or vec2 (warp), not float")
    }

    func testMissingReturn() {
        assertCompileError(
            """
            kernel vec4 k(__sample s) {
              vec4 c = s;
              if (c.a > 0.5) {
                return c;
              }
              c.rgb = vec3(0.0);
              }
            """, "7:3: missing return at the end of 'k'")
    }

    func testMissingSemicolon() {
        assertCompileError(
            """
            kernel vec4 k(__sample s) {
              vec4 c = s


              return c;
            }
            """, "2:13: expected ';' after the declaration")
        assertCompileError(
            "kernel vec4 k(__sample s) { return s }",
            "1:37: expected ';' after the return value")
    }

    func testSyntaxErrors() {
        assertCompileError(
            "kernel vec4 k(__sample s) { return (s + ; }",
            "1:41: expected an expression, found ';'")
        assertCompileError(
            "kernel vec4 k(__sample s) { return vec4(s.r, s.g; }",
            "1:49: expected ')' to close the argument list of 'vec4', found ';'")
        assertCompileError(
            "kernel vec4 k(__sample s) { return s;",
            "1:38: expected '}' before the end of the source")
        assertCompileError(
            "kernel vec4 k(__sample s) { return s @ s; }",
            "1:38: unexpected character '@'")
        assertCompileError(
            "kernel vec4 k(__sample s) { /* unfinished\n return s; }",
            "1:29: unterminated comment: '/*' has no matching '*/'")
        assertCompileError(
            "kernel vec4 k(__sample s) { return s % 2.0; }",
            "1:38: '%' is not supported; use mod(x, y)")
    }

    func testBuiltinArgumentCount() {
        assertCompileError(
            "kernel vec4 k(__sample s) { return vec4(clamp(s.r, 0.0)); }",
            "1:41: 'clamp' takes 3 arguments, but 2 were given")
        assertCompileError(
            "kernel vec4 k(__sample s) { return vec4(atan(s.r, s.g, s.b)); }",
            "1:41: 'atan' takes 1 or 2 arguments, but 3 were given")
    }

    func testBuiltinArgumentTypes() {
        assertCompileError(
            "kernel vec4 k(__sample s) { return vec4(clamp(s.rgb, s.rg, 1.0), 1.0); }",
            "1:41: cannot call 'clamp' with (vec3, vec2, float); expected clamp(genType x, genType minVal, genType maxVal) or clamp(genType x, float minVal, float maxVal), where genType is float, vec2, vec3 or vec4 (the same in one call)")
        assertCompileError(
            "kernel vec4 k(__sample s) { return vec4(cross(s.rg, s.ba), 1.0, 1.0); }",
            "1:41: cannot call 'cross' with (vec2, vec2); expected cross(vec3 x, vec3 y)")
    }

    func testUndeclaredVariable() {
        assertCompileError(
            """
            kernel vec4 k(__sample s) {
              vec4 colour = s;
              return color;
            }
            """, "3:10: use of undeclared variable 'color' (did you mean 'colour'?)")
    }

    func testRedeclaration() {
        assertCompileError(
            """
            kernel vec4 k(__sample s) {
              float a = 1.0;
              vec2 a = vec2(0.0);
              return s;
            }
            """, "3:8: redeclaration of 'a' (already declared at 2:9)")
        assertCompileError(
            "kernel vec4 k(__sample s) { vec4 s = vec4(0.0); return s; }",
            "1:34: redeclaration of 's' (already declared at 1:24)")
    }

    func testSwizzleOutOfRange() {
        assertCompileError(
            "kernel vec4 k(__sample s) { vec2 p = s.xy; return vec4(p.z); }",
            "1:58: swizzle '.z' is out of range for a vec2 (it has no 'z')")
        assertCompileError(
            "kernel vec4 k(__sample s) { return s.xg; }",
            "1:38: swizzle '.xg' mixes component sets; use only one of rgba, xyzw or stpq")
        assertCompileError(
            "kernel vec4 k(__sample s) { s.rr = vec2(1.0); return s; }",
            "1:31: swizzle '.rr' repeats a component, so it cannot be assigned to")
    }

    func testSampleOnNonSampler() {
        assertCompileError(
            "kernel vec4 k(__sample s) { return sample(s, destCoord()); }",
            "1:43: 'sample' needs a sampler as its first argument, but this is a vec4 (a __sample parameter is already the input's pixel; use it directly, or declare the parameter as sampler)")
    }

    func testKernelCount() {
        assertCompileError(
            "vec4 f(vec4 c) { return c; }",
            "1:1: no 'kernel' function found; mark the entry function with 'kernel', e.g. kernel vec4 f(__sample s)")
        assertCompileError(
            """
            kernel vec4 a(__sample s) { return s; }
            kernel vec4 b(__sample s) { return s; }
            """, "2:1: only one 'kernel' function is allowed, but 'b' is a second one after 'a'")
    }

    func testRecursion() {
        assertCompileError(
            """
            float f(float x) { return g(x); }
            float g(float x) { return f(x) * 0.5; }
            kernel vec4 k(__sample s) { return vec4(f(s.r)); }
            """, "2:27: recursion is not supported in kernels: 'f' calls 'g' calls 'f'")
        assertCompileError(
            """
            float f(float x) { return x > 0.0 ? f(x - 1.0) : 0.0; }
            kernel vec4 k(__sample s) { return vec4(f(s.r)); }
            """, "1:37: recursion is not supported in kernels: 'f' calls itself")
    }

    func testConditionMustBeBool() {
        assertCompileError(
            "kernel vec4 k(__sample s) { if (s.a) { return s; } return s.bgra; }",
            "1:33: the condition of 'if' must be a bool, but this is a float (compare it, e.g. x > 0.0)")
    }

    func testVectorSizeMismatch() {
        assertCompileError(
            "kernel vec4 k(__sample s) { return vec4(s.rgb + s.rg, 1.0); }",
            "1:47: cannot add a vec3 and a vec2; vector sizes must match (or one side must be a float)")
    }

    func testReturnTypeOfHelper() {
        assertCompileError(
            "float f(vec4 c) { return c.rgb; } kernel vec4 k(__sample s) { return vec4(f(s)); }",
            "1:26: cannot return a vec3 from 'f', which returns float")
    }

    func testHelperArguments() {
        assertCompileError(
            "float f(vec4 c, float x) { return c.r * x; } kernel vec4 k(__sample s) { return vec4(f(s)); }",
            "1:86: 'f' takes 2 arguments, but 1 was given")
        assertCompileError(
            "float f(vec4 c, float x) { return c.r * x; } kernel vec4 k(__sample s) { return vec4(f(s, s.rg)); }",
            "1:91: argument 2 of 'f' must be a float for parameter 'x', but this is a vec2")
    }

    func testInvalidKernelParameter() {
        assertCompileError(
            "kernel vec4 k(__sample s, bool b) { return s; }",
            "1:27: invalid kernel parameter type 'bool' for 'b'; kernel parameters can be float, vec2, vec3, vec4, __sample, __color or sampler")
        assertCompileError(
            "kernel vec4 k(mat3 m) { return vec4(1.0); }",
            "1:15: invalid kernel parameter type 'mat3' for 'm'; kernel parameters can be float, vec2, vec3, vec4, __sample, __color or sampler")
    }

    func testConstructorComponentCounts() {
        assertCompileError(
            "kernel vec4 k(__sample s) { return vec4(s.rgb); }",
            "1:36: not enough components for vec4: got 3, need 4")
        assertCompileError(
            "kernel vec4 k(__sample s) { return vec4(s.rgb, s.rg); }",
            "1:36: too many components for vec4: got 5, need 4")
    }

    func testUnsupportedStatements() {
        assertCompileError(
            "kernel vec4 k(__sample s) { while (true) { } return s; }",
            "1:29: 'while' loops are not supported; use a 'for' loop with a constant number of iterations")
        assertCompileError(
            "kernel vec4 k(__sample s) { float a[4]; return s; }",
            "1:36: arrays are not supported")
    }

    func testLoopErrors() {
        assertCompileError(
            "kernel vec4 k(__sample s) { for (int i = 0; i < 1000; i++) { s.r += 0.001; } return s; }",
            "1:29: this loop runs more than 256 times; loops are unrolled when the kernel is compiled, so at most 256 iterations are allowed")
        assertCompileError(
            "kernel vec4 k(__sample s) { for (int i = 0; i < s.a; i++) { } return s; }",
            "1:47: the loop condition must compare 'i' with a constant, e.g. i < 8")
        assertCompileError(
            "kernel vec4 k(__sample s) { for (int i = 0; i < 4; i++) { i = 2.0; } return s; }",
            "1:59: cannot assign to the loop counter 'i'")
    }

    func testWarpKernelSignature() {
        assertCompileError(
            "kernel vec2 w(__sample s) { return destCoord(); }",
            "1:15: a warp kernel (one returning vec2) cannot take a __sample parameter; it returns the coordinate to sample its input at")
    }

    func testDeepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "(", count: 5000) + "1.0" + String(repeating: ")", count: 5000)
        do {
            _ = try Kernel(source: "kernel vec4 k() { return vec4(\(deep)); }")
            XCTFail("expected an error")
        } catch {
            XCTAssertTrue(error.message.contains("nested too deeply"), error.description)
        }
        let long = Array(repeating: "s.r", count: 3000).joined(separator: " + ")
        do {
            _ = try Kernel(source: "kernel vec4 k(__sample s) { return vec4(\(long)); }")
            XCTFail("expected an error")
        } catch {
            XCTAssertTrue(error.message.contains("too complex"), error.description)
        }
        let ifs = String(repeating: "if (true) ", count: 3000)
        do {
            _ = try Kernel(source: "kernel vec4 k(__sample s) { \(ifs) return s; return s; }")
            XCTFail("expected an error")
        } catch {
            XCTAssertTrue(error.message.contains("nested too deeply"), error.description)
        }
    }

    func testGarbageNeverCrashes() {
        // Every prefix of a valid kernel either compiles or reports an error; none crashes.
        let source = """
            float luma(vec3 c) { return dot(c, vec3(0.2126, 0.7152, 0.0722)); }
            kernel vec4 k(__sample s, float t) {
                vec4 c = s; /* comment */
                if (luma(c.rgb) > t) { c.rgb *= 2.0; } else if (t < 0.5) c.a = .5; else { return c.bgra; }
                for (int i = 0; i < 3; i++) c.r += 1e-3;
                return c.a > 0.0 ? vec4(c.rgb, 1.0) : -c;
            }
            """
        let characters = Array(source)
        for length in 0...characters.count {
            _ = try? Kernel(source: String(characters[0..<length]))
        }
        XCTAssertNoThrow(try Kernel(source: source))
    }

    func testErrorDescriptionFormat() {
        let error = KernelCompileError(line: 4, column: 20, message: "expected ';' after the declaration")
        XCTAssertEqual(error.description, "4:20: expected ';' after the declaration")
    }
}
