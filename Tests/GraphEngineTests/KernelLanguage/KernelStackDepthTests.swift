import Foundation
import XCTest
@testable import GraphEngine
@testable import GraphCompiler

/// The nesting limit keeps compiling and lowering within a modest thread stack: a kernel at the limit
/// compiles on a 2 MiB stack even in a debug build (Linux threads get 8 MiB by default).
final class KernelStackDepthTests: XCTestCase {
    func testMaximumNestingCompilesOnASmallStack() throws {
        let depth = Parser.maximumNesting - 5
        let parens = String(repeating: "(x + ", count: depth) + "1.0" + String(repeating: ")", count: depth)
        let unary = String(repeating: "- ", count: depth) + "s.g"
        let chain = Array(repeating: "s.b", count: depth).joined(separator: " * ")
        let ifs = String(repeating: "if (s.a > 0.5) ", count: depth / 2) + "return vec4(1.0);"
        let source = """
            float h(float x) { return \(parens); }
            kernel vec4 k(__sample s) {
                \(ifs)
                return vec4(h(s.r), \(unary), \(chain), 1.0);
            }
            """
        let finished = expectation(description: "compiled")
        let outcome = Outcome()
        let thread = Thread {
            do {
                let kernel = try Kernel(source: source)
                var builder = ProgramBuilder()
                let pixel = builder.load(input: 0)
                let result = try kernel.lower(into: &builder, arguments: [.pixel(pixel)], destination: (.constant(0), .constant(0)))
                outcome.set("ok \(result.count)")
            } catch {
                outcome.set("\(error)")
            }
            finished.fulfill()
        }
        thread.stackSize = 2 * 1024 * 1024
        thread.start()
        wait(for: [finished], timeout: 60)
        XCTAssertEqual(outcome.get(), "ok 4")
    }
}

private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var value = ""
    func set(_ text: String) { lock.lock(); value = text; lock.unlock() }
    func get() -> String { lock.lock(); defer { lock.unlock() }; return value }
}
