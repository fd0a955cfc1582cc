/// "Did you mean ...?" suggestions for misspelt names.
package enum NameSuggestion {
    /// The candidate closest to `name`: within a small edit distance, or containing `name`'s letters
    /// in order (`smoth` → `smoothstep`). `nil` when nothing is plausibly meant.
    package static func closest(to name: String, among candidates: [String]) -> String? {
        let lowered = name.lowercased()
        guard lowered.count >= 3 else { return nil }  // one- and two-letter names suggest noise
        var best: (candidate: String, score: Int)?
        for candidate in Set(candidates) where candidate != name {
            let other = candidate.lowercased()
            let distance = editDistance(lowered, other)
            let limit = lowered.count <= 3 ? 1 : Swift.max(2, lowered.count / 3)
            let plausible = distance <= limit || (lowered.count >= 3 && isSubsequence(lowered, of: other))
            guard plausible else { continue }
            if let current = best, (distance, candidate) >= (current.score, current.candidate) { continue }
            best = (candidate, distance)
        }
        return best?.candidate
    }

    package static func suffix(for name: String, among candidates: [String]) -> String {
        guard let suggestion = closest(to: name, among: candidates) else { return "" }
        return " (did you mean '\(suggestion)'?)"
    }

    package static func isSubsequence(_ short: String, of long: String) -> Bool {
        var iterator = long.makeIterator()
        outer: for c in short {
            while let d = iterator.next() { if d == c { continue outer } }
            return false
        }
        return true
    }

    package static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        // Optimal string alignment: insertions, deletions, substitutions and adjacent transpositions.
        var d = Array(repeating: Array(repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { d[i][0] = i }
        for j in 0...y.count { d[0][j] = j }
        for i in 1...x.count {
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                d[i][j] = Swift.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    d[i][j] = Swift.min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[x.count][y.count]
    }
}
