/// Where an edited image's pixels come from in a source image, so a photo's depth map and matte
/// can follow the edit.
///
/// The recipe is walked from the edited image's root down to the source. Nodes that keep every
/// pixel where it is pass the geometry through: colour kernels, matrices and conversions (per
/// pixel), crops, clamps and convolutions (a neighbourhood around the same position). Affine
/// transforms compose. An image processor that maps follow by running it on them
/// (``MapFollowingProcessor``: the dolly zoom) is a step of its own when the source reaches it
/// through its first input only. Anything else on the way (warps, general kernels, other image
/// processors) may move pixels in ways a map cannot follow: the trace fails and says which node.
enum AuxiliaryGeometry {
    enum Trace: Equatable {
        /// The source does not reach the edited image.
        case notReached
        /// Source working coordinates to edited working coordinates.
        case transform(AffineTransform)
        /// `before` takes source coordinates to the first processor's input; each processor then
        /// moves the pixels, and its `after` takes its output's coordinates to the next
        /// processor's input (the last: to the edited image's).
        case processed(before: AffineTransform, steps: [ProcessorStep])
        /// The source reaches it, but not through geometry a map can follow.
        case unfollowable(String)
    }

    /// A ``MapFollowingProcessor`` on the way from the source to the edited image.
    struct ProcessorStep: Equatable {
        /// The processor's node; its first input carries the source.
        let node: Node
        let after: AffineTransform

        static func == (a: ProcessorStep, b: ProcessorStep) -> Bool { a.node === b.node && a.after == b.after }
    }

    /// Largest number of node visits before giving up (recipes with many shared branches).
    static let maxVisits = 100_000

    static func trace(_ edited: Image, to source: Image) -> Trace {
        let target = source.node
        // Which nodes have the source among their inputs, bottom-up without recursion (recipes
        // may be deep).
        var reaches: [ObjectIdentifier: Bool] = [:]
        var pending: [(Node, expanded: Bool)] = [(edited.node, false)]
        while let (node, expanded) = pending.popLast() {
            let id = ObjectIdentifier(node)
            if reaches[id] != nil { continue }
            if node === target {
                reaches[id] = true
            } else if expanded {
                reaches[id] = node.inputs.contains { reaches[ObjectIdentifier($0)] == true }
            } else {
                pending.append((node, true))
                for input in node.inputs where reaches[ObjectIdentifier(input)] == nil { pending.append((input, false)) }
            }
        }
        func reachesSource(_ node: Node) -> Bool { reaches[ObjectIdentifier(node)] == true }
        guard reachesSource(edited.node) else { return .notReached }

        var found: [(before: AffineTransform, steps: [ProcessorStep])] = []
        var problem: String?
        var visits = 0
        // (node, transform from the node's coordinates to the next processor's input or the edited
        // image's, the processors above it, nearest first)
        var stack: [(Node, AffineTransform, [ProcessorStep])] = [(edited.node, .identity, [])]
        while let (node, toNext, above) = stack.popLast(), problem == nil {
            visits += 1
            if visits > maxVisits { return .unfollowable("the recipe has too many paths from the output to the photo to follow") }
            if node === target {
                found.append((toNext, above))
                continue
            }
            guard reachesSource(node) else { continue }
            switch node.kind {
            case .color, .matrix, .colorConversion, .crop, .clamp:
                for input in node.inputs { stack.append((input, toNext, above)) }
            case .processor(let processor) where processor is Intermediate:
                // The same pixels, stored.
                for input in node.inputs { stack.append((input, toNext, above)) }
            case .area(let operation):
                for (index, input) in node.inputs.enumerated() {
                    guard let geometry = operation.geometry(input: index) else {
                        problem = "the photo passes through \(node.label), which moves pixels in a way no affine map describes"
                        break
                    }
                    stack.append((input, geometry.concatenating(toNext), above))
                }
            case .affine(let transform, _):
                for input in node.inputs { stack.append((input, transform.concatenating(toNext), above)) }
            case .processor(let processor) where !(processor is any MapFollowingProcessor) && node.inputs.indices.allSatisfy({ processor.geometry(input: $0) != nil }):
                // A processor that keeps its inputs' geometry (an affine map from each): as an area pass.
                for (index, input) in node.inputs.enumerated() {
                    stack.append((input, (processor.geometry(input: index) ?? .identity).concatenating(toNext), above))
                }
            case .processor(let processor as any MapFollowingProcessor):
                if let other = node.inputs.indices.dropFirst().first(where: { reachesSource(node.inputs[$0]) }) {
                    problem = "the photo reaches \(processor.name) through its input \(other), which maps cannot follow"
                } else if let input = node.inputs.first {
                    stack.append((input, .identity, [ProcessorStep(node: node, after: toNext)] + above))
                }
            case .warp, .general, .processor:
                problem = "the photo passes through \(node.label), which may move pixels"
            case .buffer, .yuv, .file:
                break
            }
        }
        if let problem { return .unfollowable(problem) }
        guard let first = found.first else { return .notReached }
        for other in found.dropFirst() where !nearlyEqual(other.before, first.before) || other.steps != first.steps {
            return .unfollowable("the photo reaches the output twice, with different geometry (\(first.before) and \(other.before))")
        }
        return first.steps.isEmpty ? .transform(first.before) : .processed(before: first.before, steps: first.steps)
    }

    /// libjpeg's DCT scaling (1, 2, 4 or 8) for a map moved by `transform`: the largest that still
    /// decodes at least as many pixels as the moved map keeps (a quarter-size preview decodes its
    /// matte at a quarter).
    static func decodeShrink(for transform: AffineTransform) -> Int {
        let c = transform.coefficients
        let scale = max((c[0] * c[0] + c[1] * c[1]).squareRoot(), (c[2] * c[2] + c[3] * c[3]).squareRoot())
        guard scale > 0 else { return 1 }
        return [8, 4, 2].first { Double($0) * scale <= 1 + 1e-9 } ?? 1
    }

    static func nearlyEqual(_ a: AffineTransform, _ b: AffineTransform, tolerance: Double = 1e-9) -> Bool {
        zip(a.coefficients, b.coefficients).allSatisfy { abs($0 - $1) <= tolerance * max(1, abs($0), abs($1)) }
    }

    /// `map` (covering `photoExtent` at its own resolution) moved like the photo by `transform`
    /// and cut to `editedExtent`, at the same resolution relative to the photo: the result's
    /// extent is `[0 0 w h]` with `w ≈ editedExtent.width · resolution.width / photoExtent.width`,
    /// `resolution` the map's stored size (its extent unless it was decoded smaller).
    /// Edge values extend past the map, so rotated corners get the nearest edge value.
    static func follow(_ map: Image, photoExtent: Rect, transform: AffineTransform, editedExtent: Rect,
                       resolution: Rect? = nil) -> Image {
        let mapExtent = map.extent, stored = resolution ?? mapExtent
        let toPhoto = AffineTransform(translationX: -mapExtent.x, y: -mapExtent.y)
            .concatenating(AffineTransform(scaleX: photoExtent.width / mapExtent.width, y: photoExtent.height / mapExtent.height))
            .concatenating(AffineTransform(translationX: photoExtent.x, y: photoExtent.y))
        let width = max(1, (editedExtent.width * stored.width / photoExtent.width).rounded())
        let height = max(1, (editedExtent.height * stored.height / photoExtent.height).rounded())
        let toMap = AffineTransform(translationX: -editedExtent.x, y: -editedExtent.y)
            .concatenating(AffineTransform(scaleX: width / editedExtent.width, y: height / editedExtent.height))
        let whole = toPhoto.concatenating(transform).concatenating(toMap)
        let output = Rect(x: 0, y: 0, width: width, height: height)
        if nearlyEqual(whole, .identity) && mapExtent == output { return map }
        return map.clampedToExtent().transformed(by: whole).cropped(to: output)
    }

    /// `map` moved like the photo through `steps`: to each processor's input (``follow(_:photoExtent:transform:editedExtent:resolution:)``),
    /// through the processor run on it with the processor's other inputs, and on to `editedExtent`.
    static func follow(_ map: Image, photoExtent: Rect, before: AffineTransform, steps: [ProcessorStep], editedExtent: Rect) -> Image {
        var moved = map, covered = photoExtent, transform = before
        for step in steps {
            guard case .processor(let processor) = step.node.kind, let input = step.node.inputs.first else { continue }
            moved = follow(moved, photoExtent: covered, transform: transform, editedExtent: input.extent)
            moved = moved.applying(processor, with: step.node.inputs.dropFirst().map { Image(node: $0) })
            covered = step.node.extent
            transform = step.after
        }
        return follow(moved, photoExtent: covered, transform: transform, editedExtent: editedExtent)
    }
}

extension DepthPhoto {
    /// The auxiliary images to write with `edited`, an edit of `photo` (this file's main image as
    /// loaded with `orientation`): the depth data, matte and (GDepth) original image, each moved
    /// like the photo (see `AuxiliaryGeometry`) at its own resolution. Maps the edit leaves in
    /// place are kept as the file stores them; the calibration of a moved depth map follows a
    /// crop, scale, flip or quarter turn (`movedCalibration`) and is dropped with a warning under
    /// other motion. When the edit cannot be followed, or a map cannot be read, nothing is
    /// attached and `warnings` say why. A Dynamic Depth photo (a Pixel portrait) comes with its
    /// container (``AuxiliaryImages/dynamicDepth``: confidence map, Original, Ultra HDR gain map),
    /// written back as Dynamic Depth. Otherwise an Ultra HDR gain map and a confidence map are
    /// not written: when the photo has any and `edited` is an edit of it, a warning names them.
    ///
    /// `fromOriginal`: `photo` is the file's original (``originalImage(colorSpace:)``: a Lens Blur
    /// or Pixel portrait's sharp capture) rather than its main image, so `edited` is a new
    /// rendering from it, like Google's own main image: the original is then written unchanged
    /// (it is still the capture the output came from) while the edit keeps the geometry, and
    /// dropped with a warning when it moves the pixels.
    public func auxiliaryImages(following edited: Image, from photo: Image, orientation: AuxiliaryOrientation = .upright,
                                fromOriginal: Bool = false) -> (images: AuxiliaryImages, warnings: [String])
    {
        var (images, warnings) = carriedAuxiliaryImages(following: edited, from: photo, orientation: orientation,
                                                        fromOriginal: fromOriginal)
        // A Dynamic Depth container carries them (or warns about each one it drops).
        if images.dynamicDepth == nil, let note = droppedAuxiliaryImagesNote,
           !images.isEmpty || AuxiliaryGeometry.trace(edited, to: photo) != .notReached {
            warnings.append(note)
        }
        return (images, warnings)
    }

    /// "PATH: its depth confidence map is not written …", or nil when the photo has no auxiliary
    /// image that an output drops (semantic mattes and the gain map are carried: Apple's format).
    var droppedAuxiliaryImagesNote: String? {
        var names: [String] = []
        if auxiliaryImages.contains(where: { $0.kind == .hdrGainMap && !$0.isApple }) { names.append("Ultra HDR gain map") }
        if auxiliaryImages.contains(where: { $0.kind == .confidence }) { names.append("depth confidence map") }
        guard !names.isEmpty else { return nil }
        return "\(path): its \(names.joined(separator: " and ")) \(names.count > 1 ? "are" : "is") not written to the output "
            + "(the depth map, the portrait matte and Apple's semantic mattes and HDR gain map are carried)"
    }

    private func carriedAuxiliaryImages(following edited: Image, from photo: Image, orientation: AuxiliaryOrientation,
                                        fromOriginal: Bool) -> (images: AuxiliaryImages, warnings: [String])
    {
        let carriesMaps = auxiliaryImages.contains { ($0.kind == .semanticMatte || $0.kind == .hdrGainMap) && $0.isApple }
        guard depthMapInfo != nil || portraitEffectsMatteInfo != nil || carriesMaps else { return (AuxiliaryImages(), []) }
        let photoExtent = photo.extent, editedExtent = edited.extent.integral
        // `follow(map, resolution)`: the map moved like the photo; `resolution` is its stored size
        // when it was decoded `shrink` times smaller (an affine edit only).
        let unchanged: Bool, shrink: Int, follow: (Image, Rect?) -> Image, grid: EditedPixelGrid
        switch AuxiliaryGeometry.trace(edited, to: photo) {
        case .notReached: return (AuxiliaryImages(), [])
        case .unfollowable(let reason): return (AuxiliaryImages(), ["\(path): depth data not written: \(reason)"])
        case .transform(let transform):
            unchanged = AuxiliaryGeometry.nearlyEqual(transform, .identity) && editedExtent == photoExtent
            grid = unchanged ? .mapped(.identity) : EditedPixelGrid(transform: transform, photoExtent: photoExtent, editedExtent: editedExtent)
            shrink = AuxiliaryGeometry.decodeShrink(for: transform)
            follow = {
                AuxiliaryGeometry.follow($0, photoExtent: photoExtent, transform: transform, editedExtent: editedExtent, resolution: $1)
            }
        case .processed(let before, let steps):
            unchanged = false
            shrink = 1
            grid = .unmappable("the edit runs \(steps.map(\.node.label).joined(separator: ", ")) on the pixels, which moves them unevenly")
            follow = { map, _ in
                AuxiliaryGeometry.follow(map, photoExtent: photoExtent, before: before, steps: steps, editedExtent: editedExtent)
            }
        }
        guard !photoExtent.isInfinite, !photoExtent.isEmpty, !editedExtent.isInfinite, !editedExtent.isEmpty else {
            return (AuxiliaryImages(), [])
        }
        var images = AuxiliaryImages()
        var warnings: [String] = []
        do {
            if depthMapInfo != nil {
                let depth = try depthData(orientation: orientation)
                images.depthData = unchanged ? depth : depth.replacingMap(follow(depth.map, nil), calibration: movedCalibration(
                    depth.calibration, grid: grid, photoExtent: photoExtent, editedExtent: editedExtent, warnings: &warnings))
                images.dynamicDepth = dynamicDepthContainer(following: edited, from: photo, orientation: orientation, unchanged: unchanged,
                                                            fromOriginal: fromOriginal, grid: grid, follow: { follow($0, nil) },
                                                            warnings: &warnings)
                if images.dynamicDepth == nil, let original = try originalImage() {
                    if fromOriginal {
                        if unchanged {
                            images.originalImage = original
                        } else {
                            warnings.append("\(path): GImage:Data (the original image) not written: the output is rendered from it and moves its pixels")
                        }
                    } else if orientation == .upright && info.metadata.exifOrientation != 1 {
                        // GImage is stored like the primary's pixels; it is not rotated here.
                        warnings.append("\(path): GImage:Data (the original image) not written: the photo is rotated by its EXIF orientation")
                    } else if let edited = edited.replacingSource(photo, with: original) {
                        // The whole edit replayed on the original, so a GDepth-aware app that
                        // renders from GImage shows the edit too.
                        images.originalImage = edited
                    } else {
                        let (a, b) = (original.extent, photo.extent)
                        warnings.append("\(path): the original (unblurred) image is not written: it is \(Int(a.width))x\(Int(a.height)) "
                                        + "where the photo is \(Int(b.width))x\(Int(b.height)), so the edit cannot be replayed on it")
                    }
                }
            }
            if let aux = portraitEffectsMatteInfo {
                if !unchanged, shrink > 1, case .jpeg = aux.location {
                    // A shrinking edit: the matte decoded smaller, written at its usual resolution.
                    let turned = orientation == .upright && aux.orientation >= 5
                    let stored = Rect(x: 0, y: 0, width: Double(turned ? aux.height : aux.width),
                                      height: Double(turned ? aux.width : aux.height))
                    let matte = try portraitEffectsMatte(orientation: orientation, shrink: shrink)
                    images.portraitEffectsMatte = matte.replacingMap(follow(matte.map, stored))
                } else {
                    let matte = try portraitEffectsMatte(orientation: orientation)
                    images.portraitEffectsMatte = unchanged ? matte : matte.replacingMap(follow(matte.map, nil))
                }
            }
            if carriesMaps {
                images.carriedMaps = try carriedMaps(orientation: orientation).map { unchanged ? $0 : $0.replacingMap(follow($0.map, nil)) }
            }
        } catch {
            return (AuxiliaryImages(), ["depth data not written: \(error)"])
        }
        return (images, warnings)
    }
}
