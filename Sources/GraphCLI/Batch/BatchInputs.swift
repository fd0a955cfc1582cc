import Foundation
import GraphRecipes

/// One file of a batch, with what output templates see of it.
struct BatchInput: Sendable, Equatable {
    /// The path as listed (relative to the current folder, or absolute).
    let path: String
    /// What `{dir}` names: the folder under the `--dir` root the file was found in, otherwise the
    /// listed path's folder; empty when there is none.
    let folder: String
    /// The position in the whole list, counted from `--first-index`.
    let index: Int
}

/// Where a batch's inputs come from: paths given as arguments, manifests (one path per line,
/// `-` for standard input), glob patterns and folders, listed in that order.
struct BatchInputSources {
    var paths: [String] = []
    var manifests: [String] = []
    var globs: [String] = []
    var folders: [String] = []
    /// Folders are searched through their subfolders too.
    var recursive = false
    /// The extensions (lower case, no dot) a folder's files must have to be listed.
    var extensions: Set<String> = ["jpg", "jpeg", "png"]

    var isEmpty: Bool { paths.isEmpty && manifests.isEmpty && globs.isEmpty && folders.isEmpty }

    /// Every input, numbered from `firstIndex`.
    func list(firstIndex: Int = 0) throws -> [BatchInput] {
        var found: [(path: String, folder: String)] = paths.map { ($0, Self.folder(of: $0)) }
        for manifest in manifests {
            found += try Self.readManifest(manifest).map { ($0, Self.folder(of: $0)) }
        }
        for pattern in globs {
            found += try PathGlob.expand(pattern).map { ($0, Self.folder(of: $0)) }
        }
        for root in folders {
            found += try listFolder(root)
        }
        return found.enumerated().map { BatchInput(path: $1.path, folder: $1.folder, index: firstIndex + $0) }
    }

    /// The folder part of a listed path (`photos/2024` of `photos/2024/a.jpg`), empty when none.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The non-empty lines of a manifest file, or of standard input for `-`.
    static func readManifest(_ manifest: String) throws -> [String] {
        let data: Data
        if manifest == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let read = FileManager.default.contents(atPath: manifest) else {
                throw RecipeError("--manifest", "cannot read '\(manifest)'")
            }
            data = read
        }
        // Lines end with \n or \r\n (one Character in Swift); empty lines are skipped.
        return String(decoding: data, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(String.init)
    }

    /// The image files in `root` (and its subfolders when recursive), sorted by path, skipping
    /// hidden names and never following links to folders (no cycles).
    private func listFolder(_ given: String) throws -> [(path: String, folder: String)] {
        var root = given
        while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
        guard FileKind.of(root, followingLinks: true) == .directory else {
            throw RecipeError("--dir", "'\(root)' is not a folder")
        }
        let base = root == "/" ? "" : root
        var found: [(String, String)] = []
        func walk(_ relative: String) throws {
            let folder = relative.isEmpty ? root : "\(base)/\(relative)"
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            } catch {
                throw RecipeError("--dir", "cannot list '\(folder)'")
            }
            for name in names where !name.hasPrefix(".") {
                let child = relative.isEmpty ? name : "\(relative)/\(name)"
                let path = "\(base)/\(child)"
                switch FileKind.of(path, followingLinks: false) {
                case .directory:
                    if recursive { try walk(child) }
                case .link:
                    if FileKind.of(path, followingLinks: true) == .file, hasImageExtension(name) { found.append((path, relative)) }
                case .file:
                    if hasImageExtension(name) { found.append((path, relative)) }
                case .other, .missing:
                    break
                }
            }
        }
        try walk("")
        return found
    }

    private func hasImageExtension(_ name: String) -> Bool {
        extensions.contains((name as NSString).pathExtension.lowercased())
    }
}

/// What a path names, from stat(2) or lstat(2).
enum FileKind {
    case file, directory, link, other, missing

    static func of(_ path: String, followingLinks: Bool) -> FileKind {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        case S_IFLNK: return .link
        default: return .other
        }
    }
}
