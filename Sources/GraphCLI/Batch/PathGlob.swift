import Foundation
import GraphRecipes

/// Expands a shell-style glob pattern to the files it matches, sorted: `*`, `?` and `[...]`
/// match within one name (fnmatch(3); a leading dot must be written), and `**` as a whole
/// component matches any number of folders, so `photos/**/*.jpg` finds JPEGs at every depth.
/// Links to folders are not followed by `**` (no cycles).
enum PathGlob {
    static func expand(_ pattern: String) throws -> [String] {
        guard !pattern.isEmpty else { throw RecipeError("--glob", "empty pattern") }
        let absolute = pattern.hasPrefix("/")
        let components = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        // Each candidate is a path prefix as it will be printed ("" is the current folder).
        var candidates: [String] = [absolute ? "/" : ""]
        for (position, component) in components.enumerated() {
            let last = position == components.count - 1
            var next: [String] = []
            for prefix in candidates {
                if component == "**" {
                    next += [prefix] + subfolders(of: prefix)
                } else if !hasWildcard(component) {
                    next.append(join(prefix, component))
                } else {
                    for name in names(in: prefix) where fnmatch(component, name, FNM_PERIOD) == 0 {
                        let path = join(prefix, name)
                        if last || FileKind.of(path, followingLinks: true) == .directory { next.append(path) }
                    }
                }
            }
            candidates = next
        }
        var seen = Set<String>()
        return candidates.filter { FileKind.of($0, followingLinks: true) == .file && seen.insert($0).inserted }.sorted()
    }

    private static func hasWildcard(_ component: String) -> Bool {
        component.contains { $0 == "*" || $0 == "?" || $0 == "[" }
    }

    private static func join(_ prefix: String, _ name: String) -> String {
        prefix.isEmpty ? name : prefix.hasSuffix("/") ? prefix + name : "\(prefix)/\(name)"
    }

    private static func names(in prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: prefix.isEmpty ? "." : prefix)) ?? []).sorted()
    }

    /// Every folder below `prefix` (not hidden, links not followed), parents before children.
    private static func subfolders(of prefix: String) -> [String] {
        var result: [String] = []
        for name in names(in: prefix) where !name.hasPrefix(".") {
            let path = join(prefix, name)
            if FileKind.of(path, followingLinks: false) == .directory {
                result.append(path)
                result += subfolders(of: path)
            }
        }
        return result
    }
}
