import Foundation
import GraphCodecs

/// The text of a recipe: a file, or standard input for `-`.
package struct RecipeSource {
    /// The recipe's text.
    package let text: String
    /// How errors name it: the file's name, or `<stdin>`.
    package let name: String
    /// The folder its relative paths are resolved against: the file's folder, or the current
    /// folder for standard input.
    package let baseDirectory: String

    /// Reads `path` (`-`: standard input), with an error that says why a file cannot be read.
    package static func read(_ path: String) throws -> RecipeSource {
        if path == "-" {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            guard let text = String(data: data, encoding: .utf8) else {
                throw RecipeError("<stdin>", "the recipe on standard input is not UTF-8 text")
            }
            return RecipeSource(text: text, name: "<stdin>", baseDirectory: FileManager.default.currentDirectoryPath)
        }
        let url = URL(fileURLWithPath: path)
        if let problem = unreadable(path) { throw RecipeError(path, "cannot read the recipe file: \(problem)") }
        // Opened non-blocking and read only when it is a regular file: a FIFO or a device is an
        // error, never a hang.
        let bytes: [UInt8]
        do {
            bytes = try ImageFile.read(path: path)
        } catch {
            throw RecipeError(path, "cannot read the recipe file: \(error.message)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw RecipeError(path, "the recipe file is not UTF-8 text")
        }
        return RecipeSource(text: text, name: url.lastPathComponent, baseDirectory: url.deletingLastPathComponent().path)
    }

    /// Why `path` cannot be read as a file (no such file, a folder, no permission), or nil.
    package static func unreadable(_ path: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) { return "no such file (the folder '\(folder)' does not exist)" }
            return "no such file"
        }
        if isDirectory.boolValue { return "it is a directory, not a file" }
        if !FileManager.default.isReadableFile(atPath: path) { return "permission denied" }
        return nil
    }
}
