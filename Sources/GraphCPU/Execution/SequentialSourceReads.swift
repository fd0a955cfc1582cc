/// How a render done in bands, top first (a streamed encode), reads its windowed sources (JPEG
/// and PNG files decoding for this render alone, see ``RowProgress``): before each band, the rows that
/// band and the next one need are demanded, so the decode runs a band ahead of the render, and the
/// rows no later band needs are released, so memory holds a window of rows whatever the height.
///
/// The rows come from the region of interest of every band, computed up front: a graph that reads
/// a file out of order (a flip, a rotation) keeps more rows, but never loses one it still needs.
package final class SequentialSourceReads {
    private let buffers: [ImageBuffer]
    /// Per buffer, per band: no band from this one on reads a row above this (memory rows, top first).
    private let keepFrom: [[Int]]
    /// Per buffer, per band: the rows to demand before the band (it and the next band's).
    private let demandTo: [[Int]]

    /// The most bytes of decoded rows held at once (before a band: from the first row kept to the
    /// last demanded, over every windowed source).
    let windowBytes: Int

    /// `bands`: the render's bands in the order they render.
    init(root: Node, order: [Node], bands: [PixelRect]) {
        var nodesByBuffer: [ObjectIdentifier: [Node]] = [:]
        var buffers: [ImageBuffer] = []
        for node in order {
            guard case .buffer(let buffer) = node.kind, buffer.rowProgress?.isWindowed == true else { continue }
            if nodesByBuffer[ObjectIdentifier(buffer)] == nil { buffers.append(buffer) }
            nodesByBuffer[ObjectIdentifier(buffer), default: []].append(node)
        }
        self.buffers = buffers
        guard !buffers.isEmpty else {
            keepFrom = []
            demandTo = []
            windowBytes = 0
            return
        }
        // First and end memory rows each band reads of each buffer (empty: height, 0).
        var first = buffers.map { Array(repeating: $0.height, count: bands.count) }
        var end = buffers.map { _ in Array(repeating: 0, count: bands.count) }
        // The image processors run before the first band's work units, over their regions for the
        // whole render (see ``Executor``): the first band reads what they read too.
        let area = bands.reduce(PixelRect.empty) { $0.union($1) }
        let processorReads = RegionOfInterest.processorReads(root: root, rect: area, order: order)
        for (k, band) in bands.enumerated() {
            var regions = RegionOfInterest.propagate(root: root, rect: band, order: order,
                                                     precomputed: RegionOfInterest.computedBeforeWorkUnits)
            if k == 0 { regions.merge(processorReads) { $0.union($1) } }
            for (b, buffer) in buffers.enumerated() {
                for node in nodesByBuffer[ObjectIdentifier(buffer)] ?? [] {
                    guard let region = regions[ObjectIdentifier(node)], !region.isEmpty else { continue }
                    first[b][k] = min(first[b][k], max(0, buffer.height - region.maxY))
                    end[b][k] = max(end[b][k], min(buffer.height, buffer.height - region.y))
                }
            }
        }
        let keepFrom = first.map { rows in
            var suffix = rows
            for k in stride(from: rows.count - 2, through: 0, by: -1) { suffix[k] = min(suffix[k], suffix[k + 1]) }
            return suffix
        }
        self.keepFrom = keepFrom
        let demandTo = end.map { rows in
            var ahead = rows
            for k in ahead.indices {
                if k + 1 < rows.count { ahead[k] = max(ahead[k], rows[k + 1]) }
                if k > 0 { ahead[k] = max(ahead[k], ahead[k - 1]) }
            }
            return ahead
        }
        self.demandTo = demandTo
        windowBytes = bands.indices.map { k in
            buffers.indices.reduce(0) { sum, b in
                sum + max(0, demandTo[b][k] - keepFrom[b][k]) * buffers[b].rowBytes
            }
        }.max() ?? 0
    }

    /// Before band `index` renders: releases the rows no band from it on reads and lets the
    /// decode run to the end of the next band's rows.
    package func prepare(band index: Int) {
        for (b, buffer) in buffers.enumerated() {
            buffer.releaseRows(above: keepFrom[b][index])
            buffer.rowProgress?.demand(rows: demandTo[b][index])
        }
    }

    /// The render of `root` is over (done, or failed at any point after its plan): its windowed
    /// decodes stop where they are, rather than wait for demand forever holding their files.
    package static func stopDecodes(of root: Node) {
        for node in RegionOfInterest.topologicalOrder(root) {
            if case .buffer(let buffer) = node.kind, let progress = buffer.rowProgress, progress.isWindowed { progress.stop() }
        }
    }

    /// The bands of `area`, `rows` high, top first (working-space y is up).
    static func bands(of area: PixelRect, rows: Int) -> [PixelRect] {
        stride(from: area.maxY, to: area.y, by: -max(rows, 1)).map { top in
            let bottom = max(area.y, top - max(rows, 1))
            return PixelRect(x: area.x, y: bottom, width: area.width, height: top - bottom)
        }
    }
}
