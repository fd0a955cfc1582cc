/// Runs one area pass over one output rectangle: loads each input over the rectangle the pass asks
/// for into Float32 planes (once, through the input's view: edge mode, 8-bit decode, half floats),
/// calls the pass, and writes alpha 1 when the output is known to be opaque (and green and blue
/// from red when it is grey) if the output has planes for them.
///
/// One per worker; its buffers grow and are reused from tile to tile.
final class AreaRunner {
    private var inputBuffers: [UnsafeMutablePointer<Float>] = []
    private var inputCapacities: [Int] = []
    /// Inputs loaded as 8-bit codes (``AreaOperation/readsCodes(input:)``), by input index.
    private var codeBuffers: [UnsafeMutablePointer<Int16>] = []
    private var codeCapacities: [Int] = []
    /// Where loads of channels a pass does not read go (one row; grown as rows get wider).
    private var discard = UnsafeMutablePointer<Float>.allocate(capacity: SpanInterpreter.spanWidth)
    private var discardCapacity = SpanInterpreter.spanWidth
    /// One span of RGBA, for inputs a pass reduces to one value per pixel as they load.
    private let span = UnsafeMutablePointer<Float>.allocate(capacity: 4 * SpanInterpreter.spanWidth)
    /// A row of ones (the alpha of opaque outputs).
    private var ones = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    private var onesCapacity = 0
    let scratch = AreaScratch()

    deinit {
        for buffer in inputBuffers { buffer.deallocate() }
        for buffer in codeBuffers { buffer.deallocate() }
        discard.deallocate()
        span.deallocate()
        ones.deallocate()
    }

    /// The bytes of the input loads and pass scratch kept from earlier tiles.
    var heldBytes: Int {
        inputCapacities.reduce(0, +) * MemoryLayout<Float>.stride + codeCapacities.reduce(0, +) * MemoryLayout<Int16>.stride
            + scratch.heldBytes
    }

    /// Frees each input position's load buffer that `oversized(held, loadBytes[position])` says
    /// is too large for the coming render, and the passes' scratch when it holds more than all the
    /// loads together may.
    func releaseOversized(loadBytes: [Int], where oversized: (Int, Int) -> Bool) {
        for index in inputBuffers.indices {
            let needed = index < loadBytes.count ? loadBytes[index] : 0
            if oversized(inputCapacities[index] * MemoryLayout<Float>.stride, needed) {
                inputBuffers[index].deallocate()
                inputBuffers[index] = .allocate(capacity: 1)
                inputCapacities[index] = 1
            }
        }
        if oversized(scratch.heldBytes, loadBytes.reduce(0, +)) { scratch.release() }
    }

    private func inputBuffer(_ index: Int, count: Int) -> UnsafeMutablePointer<Float> {
        while inputBuffers.count <= index {
            inputBuffers.append(.allocate(capacity: 1))
            inputCapacities.append(1)
        }
        if inputCapacities[index] < count {
            inputBuffers[index].deallocate()
            inputBuffers[index] = .allocate(capacity: count)
            inputCapacities[index] = count
        }
        return inputBuffers[index]
    }

    private func codeBuffer(_ index: Int, count: Int) -> UnsafeMutablePointer<Int16> {
        while codeBuffers.count <= index {
            codeBuffers.append(.allocate(capacity: 1))
            codeCapacities.append(1)
        }
        if codeCapacities[index] < count {
            codeBuffers[index].deallocate()
            codeBuffers[index] = .allocate(capacity: count)
            codeCapacities[index] = count
        }
        return codeBuffers[index]
    }

    /// Computes `area` (default: all of `output.rect`) of `operation` applied to `inputs`, by the
    /// operation's CPU implementation (``CPUAreaPass``), into `output`, or into `codes` when given
    /// (``AreaOperation/writesCodes``, opaque RGB: `output` is not touched).
    func run(_ operation: any AreaOperation, inputs: [InputView], output: PlaneSet, area: PixelRect? = nil, layout: AreaLayout,
             codes: CodeRows? = nil) {
        let rect = area ?? output.rect
        guard !rect.isEmpty else { return }
        // Every area operation the engine and Kernels declare conforms beside its description; a
        // missing conformance is a defect of the code, not of a recipe (every filter's tests render it).
        guard let pass = operation as? any CPUAreaPass else {
            preconditionFailure("area operation \(operation.name) has no CPU implementation (CPUAreaPass conformance)")
        }
        var planes: [AreaPlanes] = []
        planes.reserveCapacity(inputs.count)
        for (index, view) in inputs.enumerated() {
            let wanted = PixelRect(operation.regionOfInterest(input: index, for: rect.rect))
            let reduction = operation.reduction(input: index)
            let channels = layout.greyInputs[index] || reduction != nil ? 1 : min(max(operation.inputChannels(index), 1), 4)
            // A primaries change needs red, green and blue to compute any of them.
            let loaded = view.primaries == nil ? channels : max(channels, 3)
            let count = wanted.pixelCount
            let base = inputBuffer(index, count: max(count * loaded, 1))
            if operation.readsCodes(input: index), reduction == nil, !layout.greyInputs[index], view.hasCodes {
                // Red, green and blue codes, one Int16 plane each (the Float32 planes stay unloaded).
                let codes = codeBuffer(index, count: max(3 * count, 1))
                for row in 0..<wanted.height {
                    let offset = row * wanted.width
                    view.loadCodes(x0: wanted.x, y: wanted.y + row, count: wanted.width,
                                   into: (codes + offset, codes + count + offset, codes + 2 * count + offset))
                }
                var codePlanes = AreaPlanes(x: wanted.x, y: wanted.y, width: wanted.width, height: wanted.height,
                                         channelCount: 3, base: base)
                codePlanes.codes = codes
                planes.append(codePlanes)
                continue
            }
            // A row per load call (the view's setup once per row, not per span), except where the
            // load goes through one span of scratch: a reduction's, or a YUV frame's chroma.
            var width = SpanInterpreter.spanWidth
            if reduction == nil, !view.isYUV {
                width = max(wanted.width, 1)
                if discardCapacity < width {
                    discard.deallocate()
                    discard = .allocate(capacity: width)
                    discardCapacity = width
                }
            }
            for row in 0..<wanted.height {
                var x = 0
                while x < wanted.width {
                    let n = min(width, wanted.width - x)
                    if let reduction {
                        // RGBA into one span, then one value per pixel into the plane.
                        view.load(x0: wanted.x + x, y: wanted.y + row, count: n, into: (span, span + width, span + 2 * width, span + 3 * width))
                        reduction(span, span + width, span + 2 * width, span + 3 * width, n, base + row * wanted.width + x)
                    } else {
                        func target(_ channel: Int) -> UnsafeMutablePointer<Float> {
                            channel < loaded ? base + channel * count + row * wanted.width + x : discard
                        }
                        view.load(x0: wanted.x + x, y: wanted.y + row, count: n, into: (target(0), target(1), target(2), target(3)))
                    }
                    x += n
                }
            }
            planes.append(AreaPlanes(x: wanted.x, y: wanted.y, width: wanted.width, height: wanted.height,
                                     channelCount: channels, base: base))
        }
        let tile = AreaTile(inputs: planes,
                            output: AreaOutput(x: rect.x, y: rect.y, width: rect.width, height: rect.height, planes: output,
                                               codes: codes),
                            channels: layout.channels, scratch: scratch)
        pass.run(tile)
        if codes != nil { return }
        // Planes the pass does not compute, when the output keeps them (a stage's own planes keep
        // only what it computes: see ``Plan/Stage/storedChannels``).
        if layout.channels < 4 && output.stores(channel: 3) {
            let row = alphaRow(rect.width)
            for y in 0..<rect.height { tile.output.store(channel: 3, row: y, from: row) }
        }
        if layout.channels == 1 && output.stores(channel: 1) {
            for y in 0..<rect.height {
                let row = y + rect.y - output.rect.y, column = rect.x - output.rect.x
                output.copy(channel: 0, to: 1, row: row, column: column, count: rect.width)
                output.copy(channel: 0, to: 2, row: row, column: column, count: rect.width)
            }
        }
    }

    private func alphaRow(_ width: Int) -> UnsafeMutablePointer<Float> {
        if onesCapacity < width {
            ones.deallocate()
            ones = .allocate(capacity: width)
            ones.initialize(repeating: 1, count: width)
            onesCapacity = width
        }
        return ones
    }
}
