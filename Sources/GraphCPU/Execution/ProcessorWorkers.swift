import Dispatch

/// Parallel loops for image processors (``ImageProcessor/process(inputs:output:threads:)``).
package enum ProcessorWorkers {
    /// Runs `body(k)` for every k in `0..<count` on up to `threads` workers, each taking the next k
    /// when it finishes one (so a worker the system slows does not hold the others up). `body`
    /// must write only what item k owns: the result must not depend on which worker runs what.
    package static func forEach(_ count: Int, threads: Int, _ body: (Int) -> Void) {
        let workers = min(max(threads, 1), count)
        if workers <= 1 {
            for k in 0..<count { body(k) }
            return
        }
        nonisolated(unsafe) let body = body
        let next = WorkCounter()
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let k = next.take(limit: count) { body(k) }
        }
    }
}
