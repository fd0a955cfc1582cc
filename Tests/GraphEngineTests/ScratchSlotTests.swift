import XCTest
@testable import GraphEngine
@testable import GraphCompiler
import Kernels

/// Work units compute stages into worker scratch planes that stages share when they are never live
/// at once (a stage is live from its computation to its last reader's).
final class ScratchSlotTests: XCTestCase {
    /// Every pair of stages sharing a slot: the first one's readers have all run before the second.
    func assertNoLiveSharing(_ plan: Plan, file: StaticString = #filePath, line: UInt = #line) {
        var lastReader = Array(plan.stages.indices)
        for (index, stage) in plan.stages.enumerated() {
            for input in stage.work.stageInputs { lastReader[input] = max(lastReader[input], index) }
        }
        for a in plan.stages.indices {
            for b in plan.stages.indices where b > a {
                guard let slot = plan.scratchSlots[a], plan.scratchSlots[b] == slot else { continue }
                XCTAssertLessThan(lastReader[a], b, "stages \(a) and \(b) share slot \(slot) while \(a) is live", file: file, line: line)
            }
        }
        XCTAssertNil(plan.scratchSlots[plan.rootStage], "the root writes the destination", file: file, line: line)
    }

    func plan(_ image: Image) throws -> Plan {
        try Context().plan(image, rect: PixelRect(image.extent)).plan
    }

    /// A chain of twelve passes: each reads the one before, so two planes serve them all.
    func testAChainOfPassesKeepsTwoPlanesLive() throws {
        let source = Image(buffer: try makeTestBuffer(width: 50, height: 40, seed: 41))
        var image = source
        for k in 0..<12 {
            image = image.clampedToExtent().applying(BoxMean(axis: k % 2 == 0 ? .horizontal : .vertical, radius: 2, filterName: "box"))
                .cropped(to: source.extent)
        }
        let plan = try plan(image)
        XCTAssertGreaterThanOrEqual(plan.stages.count, 13)
        XCTAssertEqual(plan.scratchSlotCount, 2)
        assertNoLiveSharing(plan)
    }

    /// The portrait blur: shared stages, pyramids and intermediates.
    func testThePortraitBlurNeverSharesLivePlanes() throws {
        let photo = Image(buffer: try makeTestBuffer(width: 640, height: 480, seed: 42))
        let disparity = Image(buffer: try makeTestBuffer(width: 160, height: 120, seed: 43).withColorSpace(nil))
        let blurred = try photo.applyingFilter("CIDepthBlurEffect", parameters: ["inputDisparityImage": .image(disparity)])
        let plan = try plan(blurred)
        XCTAssertGreaterThan(plan.stages.count, 15)
        XCTAssertLessThan(plan.scratchSlotCount, plan.stages.count / 2)
        assertNoLiveSharing(plan)
    }
}
