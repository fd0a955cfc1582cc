import Foundation

/// The missing folders of an output path, made before the output is written (as `mkdir -p`) and
/// removed again, when still empty, after a failure: `graph run`, `apply`, `batch` and
/// `contact-sheet` all create an output's folders this way.
package enum OutputFolders {
    /// Creates the folders missing above `file`; returns them outermost first (empty when the
    /// folder existed). Throws a `RecipeError` under `key` naming the folder it cannot create.
    package static func create(for file: String, key: String) throws -> [String] {
        let folder = (file as NSString).deletingLastPathComponent
        guard !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) else { return [] }
        var missing: [String] = []
        var parent = folder
        while !parent.isEmpty, parent != "/", !FileManager.default.fileExists(atPath: parent) {
            missing.append(parent)
            parent = (parent as NSString).deletingLastPathComponent
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw RecipeError(key, "cannot create the folder '\(folder)'")
        }
        return missing.reversed()
    }

    /// Removes `folders` (from ``create(for:key:)``), innermost first, where they are empty.
    package static func removeIfEmpty(_ folders: [String]) {
        for folder in folders.reversed() { rmdir(folder) }
    }
}
