import Foundation
import GraphEngine
import GraphVideo
import XCTest

/// The backdrop mask follows the moving square frame by frame, and holds still away from its
/// edges when the depth is noisy and holey (with the temporal smoothing; measured without).
final class DepthMaskTests: XCTestCase {
    func testMaskFollowsTheSquare() throws {
        let folder = try VideoTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = SyntheticClip()
        let video = folder.appendingPathComponent("in.mp4").path, depth = folder.appendingPathComponent("depth.mkv").path
        try clip.write(video: video, depth: depth)
        let recipe = try VideoRecipe(path: VideoTestSupport.example("backdrop.json"))
        let masks = try VideoTestSupport.masks(recipe: recipe, video: video, depth: depth, filter: DepthFilter())
        XCTAssertEqual(masks.count, clip.frames)
        for (index, mask) in masks.enumerated() {
            let s = clip.square(index)
            var wrong = 0, counted = 0
            for y in 0..<clip.height {
                for x in 0..<clip.width {
                    // Three pixels either side of the edge are the blur's and the upsampling's.
                    let nearEdge = x >= s.x - 3 && x < s.x + s.size + 3 && y >= s.y - 3 && y < s.y + s.size + 3
                        && !(x >= s.x + 3 && x < s.x + s.size - 3 && y >= s.y + 3 && y < s.y + s.size - 3)
                    if nearEdge { continue }
                    let insideX = x >= s.x && x < s.x + s.size, insideY = y >= s.y && y < s.y + s.size
                    counted += 1
                    if mask[y * clip.width + x] != (insideX && insideY) { wrong += 1 }
                }
            }
            XCTAssertGreaterThan(counted, clip.width * clip.height / 2)
            XCTAssertEqual(wrong, 0, "frame \(index): \(wrong) of \(counted) mask pixels away from the square's edges are wrong")
        }
    }

    func testSmoothingKeepsTheMaskStillAwayFromMovingEdges() throws {
        let folder = try VideoTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var clip = SyntheticClip()
        clip.frames = 16
        clip.noise = 40
        clip.holes = 0.05
        // A floor slanting away: from 1.1 m at the top row to 2.5 m at the bottom, so a band of
        // it, away from the square, lies near the threshold (the subject's 1 m plus 25 cm) where
        // noise flips the mask.
        clip.background = { _, y in 1100 + Double(y) * 40 }
        let video = folder.appendingPathComponent("in.mp4").path, depth = folder.appendingPathComponent("depth.mkv").path
        try clip.write(video: video, depth: depth)
        let recipe = try VideoRecipe(path: VideoTestSupport.example("backdrop.json"))
        func flicker(_ filter: DepthFilter) throws -> Double {
            let masks = try VideoTestSupport.masks(recipe: recipe, video: video, depth: depth, filter: filter)
            var changed = 0, counted = 0
            for index in 1..<masks.count {
                let a = clip.square(index - 1), b = clip.square(index)
                for y in 0..<clip.height {
                    for x in 0..<clip.width {
                        // Away from the square's edges in either frame (4 px: blur and upsampling).
                        let near = [a, b].contains { s in
                            x >= s.x - 4 && x < s.x + s.size + 4 && y >= s.y - 4 && y < s.y + s.size + 4
                                && !(x >= s.x + 4 && x < s.x + s.size - 4 && y >= s.y + 4 && y < s.y + s.size - 4)
                        }
                        if near { continue }
                        counted += 1
                        if masks[index][y * clip.width + x] != masks[index - 1][y * clip.width + x] { changed += 1 }
                    }
                }
            }
            return Double(changed) / Double(counted)
        }
        let off = try flicker(DepthFilter(alpha: 1))
        let on = try flicker(DepthFilter())
        print("mask change per frame away from edges: smoothing off \(String(format: "%.2f", off * 100)) %, on \(String(format: "%.2f", on * 100)) %")
        XCTAssertLessThan(on, 0.01)
        XCTAssertGreaterThan(off, on)
    }
}
