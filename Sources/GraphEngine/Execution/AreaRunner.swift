/// Runs one area pass over one output rectangle: loads each input over the rectangle the pass asks
/// for into Float32 planes (once, through the input's view: edge mode, 8-bit decode, half floats),
/// calls the pass, and writes alpha 1 when the output is known to be opaque.
///
/// One per worker; its buffers grow and are reused from tile to tile.
final class AreaRunner {
    private var inputBuffers: [UnsafeMutablePointer<Float>] = []
    private var inputCapacities: [Int] = []
    /// Where loads of channels a pass does not read go (one span).
    private let discard = UnsafeMutablePointer<Float>.allocate(capacity: SpanInterpreter.spanWidth)
    /// A row of ones (the alpha of opaque outputs).
    private var ones = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    private var onesCapacity = 0
    let scratch = AreaScratch()

    deinit {
        for buffer in inputBuffers { buffer.deallocate() }
        discard.deallocate()
        ones.deallocate()
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

    /// Computes `area` (default: all of `output.rect`) of `operation` applied to `inputs`.
    func run(_ operation: any AreaOperation, inputs: [InputView], output: PlaneSet, area: PixelRect? = nil, opaque: Bool) {
        let rect = area ?? output.rect
        guard !rect.isEmpty else { return }
        var planes: [AreaPlanes] = []
        planes.reserveCapacity(inputs.count)
        for (index, view) in inputs.enumerated() {
            let wanted = PixelRect(operation.regionOfInterest(input: index, for: rect.rect))
            let channels = min(max(operation.inputChannels(index), 1), 4)
            let count = wanted.pixelCount
            let base = inputBuffer(index, count: max(count * channels, 1))
            for row in 0..<wanted.height {
                var x = 0
                while x < wanted.width {
                    let n = min(SpanInterpreter.spanWidth, wanted.width - x)
                    func target(_ channel: Int) -> UnsafeMutablePointer<Float> {
                        channel < channels ? base + channel * count + row * wanted.width + x : discard
                    }
                    view.load(x0: wanted.x + x, y: wanted.y + row, count: n, into: (target(0), target(1), target(2), target(3)))
                    x += n
                }
            }
            planes.append(AreaPlanes(x: wanted.x, y: wanted.y, width: wanted.width, height: wanted.height,
                                     channelCount: channels, base: base))
        }
        let tile = AreaTile(inputs: planes,
                            output: AreaOutput(x: rect.x, y: rect.y, width: rect.width, height: rect.height, planes: output),
                            channels: opaque ? 3 : 4, scratch: scratch)
        operation.run(tile)
        if opaque {
            let row = alphaRow(rect.width)
            for y in 0..<rect.height { tile.output.store(channel: 3, row: y, from: row) }
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
