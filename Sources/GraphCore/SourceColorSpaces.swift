extension Image {
    /// The colour spaces of the pixels this image is made from: the files, buffers and frames it
    /// reads, wherever they sit in its graph. Data sources (depth maps, masks: no colour space)
    /// and generators are not counted. A tool writing an edit of one photo uses this to keep the
    /// photo's space (a Display P3 iPhone photo written back in Display P3, not clipped to sRGB).
    public var sourceColorSpaces: Set<ColorSpace> {
        var spaces: Set<ColorSpace> = []
        var seen: Set<ObjectIdentifier> = []
        var pending: [Node] = [node]
        while let next = pending.popLast() {
            guard seen.insert(ObjectIdentifier(next)).inserted else { continue }
            switch next.kind {
            case .buffer(let buffer): if let space = buffer.colorSpace { spaces.insert(space) }
            case .yuv(let frame): if let space = frame.colorSpace { spaces.insert(space) }
            case .file(let source): if let space = source.colorSpace { spaces.insert(space) }
            default: break
            }
            pending += next.inputs
        }
        return spaces
    }
}
