import GraphCodecs
import Synchronization

/// The file sources alive in this process, per open input file and decode settings, held weakly:
/// opening a file that is already open (``InputFile/shared(path:)``) with the same options gives
/// the same ``FileSource``, so a recipe naming one photo many times decodes it once (200 images
/// of one 4 MP PNG decoded it 200 times, 2.5 GB) and its nodes deduplicate.
final class OpenFileSources: Sendable {
    static let shared = OpenFileSources()

    private struct Entry {
        weak var source: (any FileSource)?
        let options: DecodeOptions
        let colorSpace: ColorSpace??
    }

    private struct Table {
        var entries: [ObjectIdentifier: [Entry]] = [:]
        /// Keys after the last sweep of dead entries; the next sweep comes at twice as many.
        var sweepAt = 64
    }

    private let table = Mutex(Table())

    /// The live source of `file` opened with `options` and `colorSpace`, or the one `open` makes
    /// (nil: the file is no lazy source), registered for the next opening. `open` runs unlocked.
    func source(of file: InputFile, options: DecodeOptions, colorSpace: ColorSpace??,
                open: () throws -> (any FileSource)?) rethrows -> (any FileSource)? {
        let key = ObjectIdentifier(file)
        if let existing = live(key, options, colorSpace) { return existing }
        guard let opened = try open() else { return nil }
        return table.withLock { table in
            var list = table.entries[key, default: []].filter { $0.source != nil }
            if let raced = list.first(where: { $0.options == options && $0.colorSpace == colorSpace })?.source { return raced }
            list.append(Entry(source: opened, options: options, colorSpace: colorSpace))
            table.entries[key] = list
            if table.entries.count >= table.sweepAt {
                table.entries = table.entries.compactMapValues { entries in
                    let alive = entries.filter { $0.source != nil }
                    return alive.isEmpty ? nil : alive
                }
                table.sweepAt = max(64, 2 * table.entries.count)
            }
            return opened
        }
    }

    private func live(_ key: ObjectIdentifier, _ options: DecodeOptions, _ colorSpace: ColorSpace??) -> (any FileSource)? {
        table.withLock { table in
            table.entries[key]?.first { $0.source != nil && $0.options == options && $0.colorSpace == colorSpace }?.source
        }
    }
}
