import Foundation
import GraphEngine
import XCTest
@testable import GraphCLI

/// A fresh temporary folder with a small opaque `in.png` (8×6) in it.
func makeWorkspace() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("graph-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let image = Image(color: [0.8, 0.4, 0.2, 1]).cropped(to: Rect(x: 0, y: 0, width: 8, height: 6))
    try Context().write(image, to: folder.appendingPathComponent("in.png").path)
    return folder
}

/// Writes `text` as `recipe.json` in `folder` and returns its path.
func writeRecipe(_ text: String, in folder: URL, name: String = "recipe.json") throws -> String {
    let url = folder.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
}

func exists(_ folder: URL, _ name: String) -> Bool {
    FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path)
}
