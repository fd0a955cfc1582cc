/// The loops of the `stencil` instruction (``Instruction/stencil(input:dx:dy:destination:)``): a
/// `sample` at `destCoord() + (dx, dy)` for whole-pixel offsets, read from rows of the input
/// converted once instead of gathered point by point (Halide's and Core Image's lowering of
/// constant-offset reads).
///
/// Per worker, each input that stencil taps read keeps the rows of its footprint for the current
/// span as planar Float32 (converted by ``InputView/load(x0:y:count:into:)``, edges included): a tap
/// is then a copy from a row at a column offset, and a 3×3 kernel converts each input row once per
/// span (three times less, and no coordinate arithmetic, than nine gathers). Rows are slots
/// indexed by row number modulo the footprint's height, so the next row's span reuses all but one.
///
/// The values are those of ``SpanGather`` bit for bit. At a pixel centre plus whole pixels the
/// bilinear weights are `(1, 0, 0, 0)`, so the gather computes `((p00 + p10·0) + p01·0) + p11·0`
/// (``SamplingFilter/nearest``: `p00`), which is `p00` unless a row holds a non-finite value or
/// −0; rows that do (flagged when loaded) get that sum, lane by lane. Points whose coordinates are
/// not exact in Float (beyond 2²² pixels) and storages whose row reads are not known to be the
/// gather's conversion (YUV frames, 16-bit and RGB(A) float buffers, a primaries change on load)
/// are gathered as before.
final class StencilRows {
    /// The rows and columns around the destination that one input's taps read, with the
    /// gather's right and upper neighbours: offsets `minX ... maxX + 1`, `minY ... maxY + 1`.
    struct Footprint: Equatable, Sendable {
        var minX: Int, maxX: Int, minY: Int, maxY: Int
        /// Slots (rows) held: the footprint's height.
        var rows: Int { maxY - minY + 2 }
        /// Floats per channel of a row: a span and the columns around it.
        var width: Int { SpanInterpreter.spanWidth + maxX - minX + 1 }
    }

    /// Beyond this, `Float(x) + 0.5 + dx` may round, so the gather's point is not the pixel's.
    static let exactCoordinateLimit = 1 << 22

    private struct Key: Equatable {
        var row: Int, x0: Int, count: Int
    }

    private var footprints: [Footprint?] = []
    /// Per input, the first slot.
    private var firstSlot: [Int] = []
    private var keys: [Key?] = []
    /// Per slot: the row holds a non-finite value or −0.
    private var special: [Bool] = []
    /// Per slot, four channels of ``Footprint/width`` floats.
    private var slotOffset: [Int] = []
    private var storage: UnsafeMutablePointer<Float>
    private var capacity: Int

    init() {
        capacity = 0
        storage = .allocate(capacity: 0)
    }

    deinit { storage.deallocate() }

    /// The footprints of `executable`'s stencil taps, by input (nil for inputs without taps).
    static func footprints(of ops: [SpanInterpreter.Executable.Op], inputCount: Int) -> [Footprint?] {
        var footprints = [Footprint?](repeating: nil, count: inputCount)
        for op in ops {
            guard case .stencil(let input, let dx, let dy, _, _, _, _) = op, input < inputCount else { continue }
            if var f = footprints[input] {
                (f.minX, f.maxX, f.minY, f.maxY) = (min(f.minX, dx), max(f.maxX, dx), min(f.minY, dy), max(f.maxY, dy))
                footprints[input] = f
            } else {
                footprints[input] = Footprint(minX: dx, maxX: dx, minY: dy, maxY: dy)
            }
        }
        return footprints
    }

    /// Forgets every held row (a new run reads other inputs, or other contents in the same memory)
    /// and lays out slots for `footprints`.
    func reset(for footprints: [Footprint?]) {
        if footprints != self.footprints {
            self.footprints = footprints
            firstSlot = []
            slotOffset = []
            var slots = 0, floats = 0
            for footprint in footprints {
                firstSlot.append(slots)
                guard let footprint else { continue }
                for _ in 0..<footprint.rows {
                    slotOffset.append(floats)
                    floats += 4 * footprint.width
                }
                slots += footprint.rows
            }
            if floats > capacity {
                storage.deallocate()
                storage = .allocate(capacity: floats)
                capacity = floats
            }
            special = Array(repeating: false, count: slots)
            keys = Array(repeating: nil, count: slots)
        } else {
            for i in keys.indices { keys[i] = nil }
        }
    }

    /// Writes the tap `(dx, dy)` of input `input` (read through `view`) for pixels `x0 ..< x0 + n`
    /// of row `y` into `out`. `coordinates`: two registers of scratch for the gathered fallback;
    /// `scratch`: ``SpanGather/scratchRegisters`` registers.
    func tap(_ view: InputView, input: Int, dx: Int, dy: Int, x0: Int, y: Int, count n: Int, into out: InputView.Channels,
             coordinates: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>), scratch: UnsafeMutableRawPointer) {
        guard input < footprints.count, let footprint = footprints[input], Self.readsRows(view),
              Self.exact(x0 + footprint.minX, y + footprint.minY), Self.exact(x0 + n + footprint.maxX + 1, y + footprint.maxY + 1)
        else {
            // The gather at the points the program computed: (Float(x) + 0.5) + dx, (Float(y) + 0.5) + dy.
            let (xs, ys) = coordinates
            let start = Float(x0) + 0.5, row = Float(y) + 0.5
            for i in 0..<n {
                xs[i] = (start + Float(i)) + Float(dx)
                ys[i] = row + Float(dy)
            }
            return view.sample(xs: xs, ys: ys, count: n, into: out, scratch: scratch)
        }
        let (a, aSpecial) = row(view, input: input, footprint, y + dy, x0: x0, count: n)
        let column = dx - footprint.minX
        if view.filter == .nearest || !aSpecial && !row(view, input: input, footprint, y + dy + 1, x0: x0, count: n).special {
            for c in 0..<4 { channel(out, c).update(from: a + c * footprint.width + column, count: n) }
            return
        }
        let (b, _) = row(view, input: input, footprint, y + dy + 1, x0: x0, count: n)
        for c in 0..<4 {
            let p0 = a + c * footprint.width + column, p1 = b + c * footprint.width + column, d = channel(out, c)
            for i in 0..<n { d[i] = ((p0[i] + p0[i + 1] * 0) + p1[i] * 0) + p1[i + 1] * 0 }
        }
    }

    /// Row `y` of the footprint of the span at `x0` (columns `x0 + minX ..< x0 + count + maxX + 1`,
    /// four channels `width` apart), loaded now unless its slot holds it.
    private func row(_ view: InputView, input: Int, _ footprint: Footprint, _ y: Int, x0: Int, count: Int)
        -> (UnsafeMutablePointer<Float>, special: Bool)
    {
        let slot = firstSlot[input] + ((y % footprint.rows) + footprint.rows) % footprint.rows
        let base = storage + slotOffset[slot], key = Key(row: y, x0: x0, count: count)
        if keys[slot] == key { return (base, special[slot]) }
        let w = footprint.width, columns = count + footprint.maxX - footprint.minX + 1
        view.load(x0: x0 + footprint.minX, y: y, count: columns, into: (base, base + w, base + 2 * w, base + 3 * w))
        // Non-finite (exponent all ones) or −0 anywhere in the row.
        var flags: UInt32 = 0
        for c in 0..<4 {
            let p = UnsafeRawPointer(base + c * w).assumingMemoryBound(to: UInt32.self)
            for i in 0..<columns {
                let bits = p[i]
                flags |= (bits & 0x7F80_0000 == 0x7F80_0000 ? 1 : 0) | (bits == 0x8000_0000 ? 1 : 0)
            }
        }
        keys[slot] = key
        special[slot] = flags != 0
        return (base, flags != 0)
    }

    @inline(__always)
    private func channel(_ out: InputView.Channels, _ c: Int) -> UnsafeMutablePointer<Float> {
        c == 0 ? out.0 : c == 1 ? out.1 : c == 2 ? out.2 : out.3
    }

    private static func exact(_ x: Int, _ y: Int) -> Bool {
        abs(x) < exactCoordinateLimit && abs(y) < exactCoordinateLimit
    }

    /// Whether ``InputView/load(x0:y:count:into:)`` converts this storage exactly as
    /// ``SpanGather``'s sources do: planes, 8-bit buffers and grey float buffers, without a
    /// primaries change (the gather does not apply one).
    static func readsRows(_ view: InputView) -> Bool {
        guard view.primaries == nil else { return false }
        switch view.storage {
        case .planes(let planes): return planes.storage != nil
        case .buffer(let buffer): return buffer.format.component == .uint8 || buffer.format == .grayf || buffer.format == .grayh
        case .yuv: return false
        }
    }
}
