import XCTest
@testable import GraphEngine
@testable import GraphCompiler

/// The plan passes decide, in order, what a render does, and say so in the dump.
final class PlanPassTests: XCTestCase {
    /// A photo blurred by `passes` box passes (radii 1, 2, ...) through one clamp, the results
    /// composited: each pass loads the photo through its conversion to the working space.
    func blurredByPasses(_ passes: Int) throws -> Image {
        let photo = Image(buffer: try makeTestBuffer(width: 40, height: 30, seed: 51))
        let blurs = (1...passes).map { radius in
            photo.clampedToExtent().applying(BoxMean(axis: .horizontal, radius: Double(radius), filterName: "box"))
                .cropped(to: photo.extent)
        }
        return blurs.dropFirst().reduce(blurs[0]) { $0.composited(over: $1) }
    }

    /// The colour conversion of the photo's only buffer in `plan`'s graph.
    func photoConversion(_ plan: Plan) throws -> Node {
        let conversions = RegionOfInterest.topologicalOrder(plan.root).filter { node in
            guard case .colorConversion = node.kind, case .buffer = node.inputs[0].kind else { return false }
            return true
        }
        XCTAssertEqual(conversions.count, 1)
        return try XCTUnwrap(conversions.first)
    }

    func testTheDumpListsEveryPlanPassInOrderWithItsDecisions() throws {
        let image = try Image(buffer: makeTestBuffer(width: 64, height: 48, seed: 1))
            .applyingFilter("CISepiaTone", parameters: ["inputIntensity": .number(1)])
        let dump = try Context().dump(image)
        XCTAssertEqual(dump.planPasses.map(\.pass),
                       ["cut-stages", "materialize", "fuse-source-decode", "fuse-output-encode", "lower", "row-kernels",
                        "assign-scratch"])
        XCTAssertEqual(dump.planPasses.map(\.pass), Planner.passes.map(\.name))
        let decisions = Dictionary(uniqueKeysWithValues: dump.planPasses.map { ($0.pass, $0.changes) })
        XCTAssertEqual(decisions["fuse-source-decode"]?.count, 1, dump.text(stages: [.plan]))
        XCTAssertTrue(decisions["fuse-source-decode"]?.first?.hasSuffix("in each reader") ?? false, dump.text(stages: [.plan]))
        XCTAssertEqual(decisions["fuse-output-encode"]?.count, 1, dump.text(stages: [.plan]))
        XCTAssertEqual(decisions["lower"]?.count, 1, "one program: \(dump.text(stages: [.plan]))")
        let text = dump.text(stages: [.plan])
        XCTAssertTrue(text.hasPrefix("plan render (cpu context)"), text)
        XCTAssertTrue(text.contains("// fuse-output-encode: #"), text)
        XCTAssertFalse(dump.text(stages: [.optimized, .programs]).contains("plan render"))
        // A float destination keeps the encode in the program: nothing fused into the store.
        let float = try Context().dumpWithProfile(image, format: .rgbaf)
        XCTAssertEqual(float.planPasses.first { $0.pass == "fuse-output-encode" }?.changes, [])
    }

    /// Fewer than four area passes decode the photo each as they load it; from four on, it is decoded
    /// once into an intermediate (``FuseSourceDecode/passesSharingADecode``).
    func testAPhotoManyAreaPassesReadIsDecodedOnce() throws {
        for passes in [2, 4] {
            let plan = try Context().plan(try blurredByPasses(passes), rect: PixelRect(x: 0, y: 0, width: 40, height: 30)).plan
            let conversion = try photoConversion(plan)
            XCTAssertTrue(plan.decodesWhileLoading(conversion))
            XCTAssertEqual(plan.isMaterialized(conversion), passes >= FuseSourceDecode.passesSharingADecode, "\(passes) passes")
            let decision = try XCTUnwrap(plan.log.first { $0.pass == "fuse-source-decode" }?.decisions.first)
            XCTAssertTrue(decision.hasSuffix(passes >= 4 ? "intermediate \(passes) area passes read" : "in each reader"), decision)
            XCTAssertEqual(plan.log.first { $0.pass == "cut-stages" }?.decisions.count, passes, "one cut per area pass")
            let areaStages = plan.stages.filter { if case .area = $0.work { return true } else { return false } }
            XCTAssertEqual(areaStages.count, passes)
        }
    }

    /// A node two nodes read (a translation a blend and a sepia tone read) is computed once; with
    /// fusion off, every node is.
    func testSharedNodesAreMaterialized() throws {
        let photo = Image(buffer: try makeTestBuffer(width: 32, height: 24, seed: 52))
        let shifted = photo.transformed(by: AffineTransform(translationX: 3.5, y: 0))
        let image = try shifted.composited(over: shifted.applyingFilter("CISepiaTone", parameters: ["inputIntensity": .number(1)]))
            .cropped(to: photo.extent)
        let rect = PixelRect(x: 0, y: 0, width: 32, height: 24)
        let plan = try Context().plan(image, rect: rect).plan
        let materialize = try XCTUnwrap(plan.log.first { $0.pass == "materialize" }?.decisions)
        XCTAssertEqual(materialize.count, 1, "\(materialize)")
        XCTAssertTrue(materialize.first?.hasSuffix("read by 2 nodes, computed once into an intermediate") ?? false, "\(materialize)")
        var unfused = ContextOptions()
        unfused.fusion = false
        let everything = try Context(options: unfused).plan(image, rect: rect).plan
        XCTAssertTrue(RegionOfInterest.topologicalOrder(everything.root).allSatisfy(everything.isMaterialized))
    }

    /// A clamp of an area pass's output (cropped) read by two nodes is not stored again at the
    /// readers' whole region (each reads the pass's pixels at clamped coordinates), and the render
    /// is the same as with every node stored.
    func testTheClampOfAStoredNodeIsNotMaterialized() throws {
        let photo = Image(buffer: try makeTestBuffer(width: 32, height: 24, seed: 53))
        let edges = try photo.applyingFilter("CIBoxBlur", parameters: ["inputRadius": .number(2)]).cropped(to: photo.extent).clampedToExtent()
        let image = edges.transformed(by: AffineTransform(translationX: 5, y: -3)).composited(over: edges).cropped(to: photo.extent)
        var options = ContextOptions()
        options.workingFormat = .rgbaf
        let plan = try Context(options: options).plan(image, rect: PixelRect(x: 0, y: 0, width: 32, height: 24)).plan
        let materialize = plan.log.first { $0.pass == "materialize" }?.decisions ?? []
        XCTAssertFalse(materialize.contains { $0.contains("clamp") }, "\(materialize)")
        let fused = try Context(options: options).render(image, rect: photo.extent, format: .rgbaf)
        options.fusion = false
        let everything = try Context(options: options).render(image, rect: photo.extent, format: .rgbaf)
        XCTAssertTrue(fused.bytes == everything.bytes, "the render differs from the one with every node stored")
    }

    /// The output stage's super-operations are plan decisions: an unfiltered camera frame written
    /// to RGBA8 takes the YUV row kernel, an unfiltered premultiplied RGBA8 buffer written to RGBA8
    /// is copied; any other destination, straight alpha or a filter keeps the program.
    func testRowKernelsAreChosenByThePlan() throws {
        var options = ContextOptions()
        options.workingColorSpace = nil
        let context = Context(options: options)
        func kernel(_ image: Image, _ format: PixelFormat, in context: Context) throws -> RowKernel? {
            let plan = try context.plan(image, rect: PixelRect(image.extent), destination: format).plan
            return plan.stages[plan.rootStage].rowKernel
        }
        let bytes = (0..<(8 * 6 + 2 * 4 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let frame = Image(yuv: try YUVFrame(bytes: bytes, width: 8, height: 6, layout: .planar))
        guard case .yuvToRGBA8? = try kernel(frame, .rgba8, in: context) else {
            return XCTFail("an unfiltered frame into RGBA8 takes the YUV row kernel")
        }
        XCTAssertNil(try kernel(frame, .rgbaf, in: context))
        XCTAssertNil(try kernel(frame.applyingFilter("CIHueAdjust", parameters: ["inputAngle": .number(1)]), .rgba8, in: context))

        let premultiplied = Image(buffer: try makeTestBuffer(width: 8, height: 6, seed: 53, alpha: .premultiplied))
        XCTAssertEqual(try kernel(premultiplied, .rgba8, in: context), .byteCopy)
        XCTAssertNil(try kernel(premultiplied, .rgb8, in: context))
        XCTAssertNil(try kernel(Image(buffer: try makeTestBuffer(width: 8, height: 6, seed: 53, alpha: .straight)), .rgba8, in: context))
        let dump = try context.dump(premultiplied)
        XCTAssertEqual(dump.planPasses.first { $0.pass == "row-kernels" }?.changes.count, 1, dump.text(stages: [.plan]))
    }
}
