/// The JPEG scaled (DCT) decode for area resampling (CILanczosScaleTransform,
/// CIBicubicScaleTransform): a ``Resample`` that shrinks a JPEG file (directly or clamped to its
/// extent) by 2k or more reads the 1/k decode instead, its steps divided by the exact size ratio.
/// `decode` gives the buffer of a source at a scale. Nil when the pattern does not apply (see ``readsFileThroughResample(_:)``).
func resampleFromReducedDecode(_ node: Node, log: inout [String], failure: inout Error?,
                               decode: (any FileSource, Int) throws -> ImageBuffer) -> Node? {
    guard case .area(let op) = node.kind, let resample = op as? Resample, let k = resample.sourceReduction,
          let input = node.inputs.first else { return nil }
    let clamped: Bool
    let source: any FileSource
    switch input.kind {
    case .file(let file): (source, clamped) = (file, false)
    case .clamp:
        guard case .file(let file) = input.inputs[0].kind else { return nil }
        (source, clamped) = (file, true)
    default: return nil
    }
    guard let size = source.reducedSize(scale: k) else { return nil }
    do {
        let reduced = try decode(source, k)
        let fx = Double(size.width) / Double(source.width), fy = Double(size.height) / Double(source.height)
        var read = Node(.buffer(reduced), inputs: [], extent: Rect(x: 0, y: 0, width: Double(size.width), height: Double(size.height)))
        if clamped { read = Node(.clamp, inputs: [read], extent: .infinite) }
        log.append("\(source.label): decoded at 1/\(k) (\(size.width)x\(size.height)) for \(resample.name)")
        return Node(.area(resample.readingInput(scaledBy: fx, fy)), inputs: [read], extent: node.extent)
    } catch {
        failure = failure ?? error
        return nil
    }
}

/// Whether `node` is a ``Resample`` with a source reduction reading a file with reduced decodes (a
/// JPEG, ``FileSource/reducedSize(scale:)``) directly or through
/// a clamp: the pattern ``resampleFromReducedDecode(_:log:failure:decode:)`` rewrites.
func readsFileThroughResample(_ node: Node) -> Bool {
    guard case .area(let op) = node.kind, let resample = op as? Resample, resample.sourceReduction != nil,
          let input = node.inputs.first else { return false }
    switch input.kind {
    case .file(let source): return source.reducedSize(scale: 2) != nil
    case .clamp: if case .file(let source) = input.inputs[0].kind { return source.reducedSize(scale: 2) != nil } else { return false }
    default: return false
    }
}
