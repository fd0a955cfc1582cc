import Dispatch
import Foundation
import GraphCodecs
import GraphEngine
import GraphRecipes

/// Runs a batch: `jobs` threads each take the next input in list order, so at most `jobs` files
/// are in flight (memory stays bounded whatever the length of the list), all rendering with one
/// context (its program cache stays warm from file to file). A file that fails is logged and
/// the batch goes on, unless `failFast`.
final class BatchRunner: @unchecked Sendable {
    struct Options {
        var jobs = 2
        /// Skip inputs whose outputs all exist and are not older than the input and the recipe.
        var skipExisting = false
        /// Start no more files after the first failure.
        var failFast = false
    }

    private let plan: BatchPlan
    private let recipe: BatchRecipe
    private let context: Context
    private let options: Options
    private let log: BatchLog
    private let progress: BatchProgressBar?
    /// The newest modification time of the recipe and the files it reads besides the inputs.
    private let newestDependency: timespec
    private let lock = NSLock()
    private var next = 0
    private var summary = BatchSummary()
    private let startTime = DispatchTime.now().uptimeNanoseconds

    init(plan: BatchPlan, recipe: BatchRecipe, context: Context, options: Options, log: BatchLog,
         progress: BatchProgressBar?) {
        self.plan = plan
        self.recipe = recipe
        self.context = context
        self.options = options
        self.log = log
        self.progress = progress
        newestDependency = recipe.fixedDependencies.compactMap(Self.modificationTime).max(by: Self.isEarlier)
            ?? timespec(tv_sec: 0, tv_nsec: 0)
        summary.total = plan.items.count
    }

    /// Runs every input (or until stopped) and returns the totals.
    func run() -> BatchSummary {
        let start = startTime
        let group = DispatchGroup()
        for _ in 0..<min(options.jobs, plan.items.count) {
            group.enter()
            let thread = Thread { [self] in
                while let item = nextItem() {
                    finish(process(item))
                    // Issue 31: the peak grew from file to file. No later file can use this
                    // file's cached images (each reads another photo): drop them (a file still
                    // in flight on another thread recomputes any it needs again). Then what
                    // was freed goes back to the system, not kept in glibc's arenas beside
                    // the next file's buffers.
                    context.removeCachedImages()
                    ResidentMemory.returnFreedMemory()
                }
                group.leave()
            }
            thread.stackSize = 8 << 20  // as the main thread: recipes build and plan recursively
            thread.start()
        }
        group.wait()
        progress?.finish()
        lock.lock(); defer { lock.unlock() }
        summary.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        summary.peakBytes = peakResidentBytes()
        return summary
    }

    /// Starts no more inputs; those in flight finish. The first reason given is kept; `note` is
    /// printed on stderr (above the progress bar).
    func stop(by reason: String, note: String? = nil) {
        lock.lock()
        if summary.stoppedBy == nil { summary.stoppedBy = reason }
        lock.unlock()
        guard let note else { return }
        if let progress {
            progress.aside { Terminal.shared.rawErr(note + "\n") }
        } else {
            Terminal.shared.err(note)
        }
    }

    /// The totals now, for a batch ended at once (a second signal): the files started and not
    /// finished count as abandoned; the progress bar is erased.
    func abandon(by reason: String) -> BatchSummary {
        progress?.finish()
        lock.lock(); defer { lock.unlock() }
        if summary.stoppedBy == nil { summary.stoppedBy = reason }
        var now = summary
        now.abandoned = next - summary.ok - summary.skipped - summary.failed
        now.seconds = Double(DispatchTime.now().uptimeNanoseconds - startTime) / 1e9
        now.peakBytes = peakResidentBytes()
        return now
    }

    private func nextItem() -> BatchItem? {
        lock.lock(); defer { lock.unlock() }
        guard summary.stoppedBy == nil, next < plan.items.count else { return nil }
        next += 1
        return plan.items[next - 1]
    }

    private func finish(_ entry: BatchEntry) {
        lock.lock()
        summary.count(entry.status)
        if entry.status == .failed && options.failFast && summary.stoppedBy == nil { summary.stoppedBy = "fail-fast" }
        lock.unlock()
        guard let progress else {
            log.record(entry.json)
            return
        }
        progress.count(entry.status)
        progress.aside {
            log.record(entry.json)
            if let error = entry.error { Terminal.shared.rawErr(FileText.escaped("graph: error: \(entry.item.input.path): \(error)") + "\n") }
        }
    }

    /// Renders and writes one input's outputs, each streamed into a temporary file beside its
    /// target; only when all are written are they renamed into place (a failure writes none).
    private func process(_ item: BatchItem) -> BatchEntry {
        let start = DispatchTime.now().uptimeNanoseconds
        func entry(_ status: BatchEntry.Status, _ error: String? = nil, warnings: [String] = []) -> BatchEntry {
            BatchEntry(item: item, status: status, error: error,
                       milliseconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6,
                       peakBytes: peakResidentBytes(), warnings: warnings)
        }
        if options.skipExisting && isUpToDate(item) { return entry(.skipped) }
        do {
            let recipe = try self.recipe.recipe(input: item.input.path, outputs: item.outputs, redirect: plan.redirectsOutputs)
            let session = try RecipeSession.prepare(recipe, settings: self.recipe.settings, context: context)
            let files = OutputFiles()
            defer { files.abandon() }
            for output in session.recipe.outputs { try files.prepare(output) }
            for (index, image) in session.images.enumerated() { try files.write(index, image: image, context: context) }
            try files.commit()
            return entry(.ok, warnings: session.warnings)
        } catch {
            return entry(.failed, "\(error)")
        }
    }

    /// Whether every output exists and is not older than the input, the recipe and the files the
    /// recipe reads besides (as make decides).
    private func isUpToDate(_ item: BatchItem) -> Bool {
        guard let input = Self.modificationTime(item.input.path) else { return false }
        let newest = Self.isEarlier(input, newestDependency) ? newestDependency : input
        return item.outputs.allSatisfy { output in
            guard FileKind.of(output, followingLinks: true) == .file, let time = Self.modificationTime(output) else { return false }
            return !Self.isEarlier(time, newest)
        }
    }

    private static func modificationTime(_ path: String) -> timespec? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mtim : nil
    }

    private static func isEarlier(_ a: timespec, _ b: timespec) -> Bool {
        a.tv_sec != b.tv_sec ? a.tv_sec < b.tv_sec : a.tv_nsec < b.tv_nsec
    }
}
