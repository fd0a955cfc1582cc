import Foundation
import XCTest
@testable import GraphEngine
@testable import GraphCompiler

/// Graphs thousands of nodes deep (a recipe chaining 10,000 filters) plan, render, compare and dump
/// without deep recursion: every walk over the graph keeps its own stack. Each test runs on a
/// thread with a 1 MiB stack (an eighth of Linux's default), in a debug build, where frames are
/// largest; before the walks were iterative a chain of 2,000 filters overflowed 8 MiB.
final class DeepGraphTests: XCTestCase {
    /// A colour kernel adding 1/1024 each time (exact in Float32 for 10,000 steps): one program of
    /// 10,000 nodes, lowered inputs first from the lowering's own stack.
    func testTenThousandColorKernelsRenderInOneProgram() throws {
        try runOnSmallStack {
            let add = try addKernel()
            var image = try deepPixel(0.25)
            for _ in 0..<deepChain { image = try Image.applying(add, arguments: [.image(image)]) }
            let context = dataContext()
            XCTAssertEqual(try redValue(image, context), 0.25 + Float(deepChain) / 1024)
            let dump = try context.dump(image)
            XCTAssertEqual(dump.programs.count, 1)
            // The program's name nests its nodes' names only so far (it used to hold all 10,000).
            let name = try XCTUnwrap(dump.programs.first?.name)
            XCTAssertLessThanOrEqual(name.utf8.count, StageLowering.programNameLimit + 8, name)
            XCTAssertTrue(name.hasPrefix("add("), name)
            XCTAssertTrue(name.contains("(…)"), name)
        }
    }

    /// Planning a chain costs memory linear in its depth: 6,000 folded colour matrices and 6,000
    /// fused colour kernels each plan within 48 MiB of peak growth. Before, every matrix made
    /// while folding kept the names of all the matrices before it, and every kernel's program name
    /// nested all those below it: memory grew with the square of the depth (this plan took about
    /// 290 MB for the matrices; 20,000 chained point filters took 6.8 GB through `graph dump`).
    func testPlanningADeepChainTakesMemoryLinearInItsDepth() throws {
        var matrices = try deepPixel(0.25)
        for index in 0..<6_000 {
            matrices = matrices.applyingColorMatrix(ColorMatrix(r: [1, 0, 0, 0], g: [0, 1, 0, 0], b: [0, 0, 1, 0], a: [0, 0, 0, 1],
                                                                bias: [Double(index % 3 + 1) / 65_536, 0, 0, 0],
                                                                sourceName: "m\(index)"))
        }
        let add = try addKernel()
        var kernels = try deepPixel(0.25)
        for _ in 0..<6_000 { kernels = try Image.applying(add, arguments: [.image(kernels)]) }
        let context = dataContext()
        for (what, image) in [("matrices", matrices), ("kernels", kernels)] {
            guard ResidentMemory.resetPeak(), let before = ResidentMemory.currentBytes else {
                throw XCTSkip("/proc/self/clear_refs cannot reset the peak here")
            }
            let dump = try context.dump(image)
            let grown = (ResidentMemory.peakBytes ?? .max) - before
            XCTAssertLessThan(grown, 48 << 20, "\(what): planning grew the peak by \(grown >> 20) MiB")
            XCTAssertEqual(dump.programs.count, 1, what)
        }
    }

    /// A matrix folded from many keeps the first and last few names and a count, so that folding a
    /// chain does not copy every name into every matrix made along the way; up to the limit, all.
    func testFoldedMatrixKeepsABoundedListOfNames() {
        func named(_ name: String) -> ColorMatrix { .identity(sourceName: name) }
        var few = named("a")
        for name in ["b", "c", "d", "e", "f", "g", "h"] { few = named(name).concatenating(after: few) }
        XCTAssertEqual(few.sourceNames, ["a", "b", "c", "d", "e", "f", "g", "h"])
        XCTAssertEqual(few.sourceCount, 8)

        var many = named("n0")
        for index in 1..<10_000 { many = named("n\(index)").concatenating(after: many) }
        XCTAssertEqual(many.sourceCount, 10_000)
        XCTAssertEqual(many.sourceNames, ["n0", "n1", "n2", "n3", "… 9992 more …", "n9996", "n9997", "n9998", "n9999"])

        // Folded the other way round (a long chain after a short one, and two long ones) too.
        var after = named("x")
        after = many.concatenating(after: after)
        XCTAssertEqual(after.sourceNames, ["x", "n0", "n1", "n2", "… 9993 more …", "n9996", "n9997", "n9998", "n9999"])
        let both = after.concatenating(after: few)
        XCTAssertEqual(both.sourceCount, 10_009)
        XCTAssertEqual(both.sourceNames, ["a", "b", "c", "d", "… 10001 more …", "n9996", "n9997", "n9998", "n9999"])
        let short = named("z").concatenating(after: many)
        XCTAssertEqual(short.sourceNames, ["n0", "n1", "n2", "n3", "… 9993 more …", "n9997", "n9998", "n9999", "z"])
    }

    /// An identity warp reads its input through a sample, so each is a stage of its own: 3,000
    /// stages (recursive planning overflowed 1 MiB at about 200) planned from the planner's stack,
    /// producers first.
    func testTenThousandStagesPlanProducersFirst() throws {
        try runOnSmallStack {
            let identity = try Kernel(source: "kernel vec2 same() { return destCoord(); }"), add = try addKernel()
            var image = try deepPixel(0.5)
            for _ in 0..<stageChain {
                image = try Image.applying(identity, arguments: [.image(image)], regionOfInterest: .destination)
                image = try Image.applying(add, arguments: [.image(image)])
            }
            let context = dataContext()
            XCTAssertEqual(try redValue(image, context), 0.5 + Float(stageChain) / 1024)
            let dump = try context.dump(image)
            XCTAssertEqual(dump.programs.count, stageChain)
            // Every program reads only programs before it (the executor runs them in order).
            for program in dump.programs {
                for input in program.inputs where input.source.hasPrefix("program ") {
                    XCTAssertLessThan(Int(input.source.dropFirst(8)) ?? .max, program.id)
                }
            }
            XCTAssertLessThan(dump.text().utf8.count, 20 << 20, "indentation is capped")
        }
    }

    /// A chain of crops (merged) and translations (folded) goes through every optimizer pass; without
    /// fusion every node of a chain is its own stage.
    func testDeepChainsThroughEveryPassAndUnfused() throws {
        try runOnSmallStack {
            var image = try deepPixel(0.75)
            for index in 0..<deepChain {
                image = index % 2 == 0 ? image.transformed(by: AffineTransform(translationX: 1, y: 0))
                    : image.cropped(to: Rect(x: -Double(index), y: -1, width: 2 * Double(deepChain), height: 3))
            }
            XCTAssertEqual(image.extent, Rect(x: Double(deepChain / 2), y: 0, width: 1, height: 1))
            XCTAssertEqual(try redValue(image, dataContext()), 0.75)

            let add = try addKernel()
            var chain = try deepPixel(0)
            for _ in 0..<1_000 { chain = try Image.applying(add, arguments: [.image(chain)]) }
            var options = ContextOptions()
            options.workingColorSpace = nil
            options.workingFormat = .rgbaf
            options.fusion = false
            XCTAssertEqual(try redValue(chain, Context(options: options)), 1_000 / 1024)
        }
    }

    /// Two deep chains built separately are equal (compared pair by pair, not recursively).
    func testDeepChainsCompareEqual() throws {
        try runOnSmallStack {
            let source = try deepPixel(0.5)
            func chain() -> Image {
                var image = source
                for index in 0..<deepChain {
                    image = image.applyingColorMatrix(ColorMatrix(r: [1, 0, 0, 0], g: [0, 1, 0, 0], b: [0, 0, 1, 0],
                                                                  a: [0, 0, 0, 1], bias: [Double(index % 3) / 8, 0, 0, 0],
                                                                  sourceName: "m"))
                }
                return image
            }
            let a = chain(), b = chain()
            XCTAssertFalse(a.node === b.node)
            XCTAssertEqual(a, b)
        }
    }
}

private let deepChain = 10_000
private let stageChain = 3_000

/// Adds 1/1024 to the colour.
private func addKernel() throws -> Kernel {
    try Kernel(source: "kernel vec4 add(__sample s) { return vec4(s.rgb + 0.0009765625, s.a); }")
}

/// One pixel of data (never colour-converted) with value `value` in every channel but alpha.
private func deepPixel(_ value: Float) throws -> Image {
    var bytes: [UInt8] = []
    for sample in [value, value, value, 1] { withUnsafeBytes(of: sample) { bytes += $0 } }
    return Image(buffer: try ImageBuffer(width: 1, height: 1, format: .rgbaf, alphaMode: .premultiplied,
                                         colorSpace: nil, bytes: bytes))
}

/// A context without colour management, with Float32 intermediates.
private func dataContext() -> Context {
    var options = ContextOptions()
    options.workingColorSpace = nil
    options.workingFormat = .rgbaf
    return Context(options: options)
}

/// The red channel of `image` rendered as Float32.
private func redValue(_ image: Image, _ context: Context) throws -> Float {
    try context.render(image, format: .rgbaf).pixel(x: 0, row: 0)[0]
}

/// Runs `body` on a thread with a 1 MiB stack and waits for it.
func runOnSmallStack(_ body: @escaping @Sendable () throws -> Void) throws {
    let done = DispatchSemaphore(value: 0)
    let failure = ErrorBox()
    let thread = Thread {
        do { try body() } catch { failure.set(error) }
        done.signal()
    }
    thread.stackSize = 1 << 20
    thread.start()
    done.wait()
    if let error = failure.get() { throw error }
}

/// An error handed from one thread to another.
final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var error: Error?
    func set(_ value: Error) { lock.lock(); error = value; lock.unlock() }
    func get() -> Error? { lock.lock(); defer { lock.unlock() }; return error }
}
