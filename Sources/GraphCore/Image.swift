/// An image: an immutable, cheap recipe for pixels (Core Image's `CIImage`).
///
/// Building an image does no pixel work; a `Context` renders it. Images are values: equal
/// recipes compare equal, and they can be shared freely between threads.
public struct Image: Hashable, Sendable, CustomStringConvertible {
    /// The root node of the recipe.
    package let node: Node

    package init(node: Node) { self.node = node }

    /// Where the image may be non-transparent; ``Rect/infinite`` for generators and clamped images.
    public var extent: Rect { node.extent }

    /// `Image LABEL extent=[x y w h]`, for debugging.
    public var description: String { "Image \(node.label) extent=\(extent)" }

    // MARK: Sources

    /// An image of the pixels in `buffer`, extent `[0 0 width height]`.
    public init(buffer: ImageBuffer) {
        self.init(node: Node(.buffer(buffer), inputs: [],
                             extent: Rect(x: 0, y: 0, width: Double(buffer.width), height: Double(buffer.height))))
    }

    /// An image of a YCbCr 4:2:0 frame, extent `[0 0 width height]`; converted to RGB inside the
    /// first program that reads it.
    public init(yuv frame: YUVFrame) {
        self.init(node: Node(.yuv(frame), inputs: [],
                             extent: Rect(x: 0, y: 0, width: Double(frame.width), height: Double(frame.height))))
    }

    /// An infinite image of one colour, given as unpremultiplied RGBA in the working space.
    public init(color: [Double]) {
        self.init(node: Node(.color(ConstantColor(rgba: color)), inputs: [Node](), extent: .infinite))
    }

    /// An infinite image of one colour, given as unpremultiplied RGBA in `colorSpace` (Core Image's
    /// `CIColor`, sRGB unless said otherwise): converted into the working space when rendered.
    public init(color: [Double], colorSpace: ColorSpace) {
        self = Image(color: color).matchedToWorkingSpace(from: colorSpace)
    }

    // MARK: Colour spaces

    /// This image's colour, taken as being in `space`, converted into the working space
    /// (`CIImage.matchedToWorkingSpace(from:)`); unchanged when colour management is off.
    public func matchedToWorkingSpace(from space: ColorSpace) -> Image {
        Image(node: Node(.color(WorkingSpaceMatch(space: space, toWorkingSpace: true)), inputs: [node], extent: extent))
    }

    /// This image's colour converted from the working space into `space`
    /// (`CIImage.matchedFromWorkingSpace(to:)`), for maths defined in that space; unchanged when
    /// colour management is off.
    public func matchedFromWorkingSpace(to space: ColorSpace) -> Image {
        Image(node: Node(.color(WorkingSpaceMatch(space: space, toWorkingSpace: false)), inputs: [node], extent: extent))
    }

    // MARK: Geometry

    /// The image inside `rect`, transparent outside (`CIImage.cropped(to:)`).
    public func cropped(to rect: Rect) -> Image {
        if rect.contains(extent) { return self }
        return Image(node: Node(.crop(rect), inputs: [node], extent: extent.intersection(rect)))
    }

    /// The image moved by an affine transform, resampled bilinearly (or nearest on request). An
    /// image marked by ``samplingNearest()`` is resampled by the nearest pixel whatever `filter` says.
    public func transformed(by transform: AffineTransform, filter: SamplingFilter = .linear) -> Image {
        if transform.isIdentity { return self }
        if let source = nearestMarkerSource {
            return Image(node: Node(.affine(transform, .nearest), inputs: [source], extent: transform.apply(to: extent)))
        }
        return Image(node: Node(.affine(transform, filter), inputs: [node], extent: transform.apply(to: extent)))
    }

    /// The same pixels, marked to be resampled by the nearest pixel instead of bilinearly by the
    /// affine transforms applied to it next (`CIImage.samplingNearest()`, CISampleNearest): upscaled
    /// by ``transformed(by:filter:)`` it gives square blocks, each output pixel the input pixel
    /// containing its centre's source point. The mark is an identity transform with nearest sampling,
    /// kept through ``clampedToExtent()``; rendered as it is, the pixels are unchanged. Warp and
    /// general kernels downstream still sample bilinearly.
    public func samplingNearest() -> Image {
        if nearestMarkerSource != nil { return self }
        return Image(node: Node(.affine(.identity, .nearest), inputs: [node], extent: extent))
    }

    /// The image under a ``samplingNearest()`` mark, when this image is one.
    private var nearestMarkerSource: Node? {
        guard case .affine(let transform, .nearest) = node.kind, transform.isIdentity else { return nil }
        return node.inputs.first
    }

    /// The same pixels, computed once over the region a render reads before its tiles start and
    /// kept for them in the working format (Core Image's `insertingIntermediate()`): worth it for an
    /// image that tiles read with wide margins (each tile would compute those margins again), at the
    /// cost of holding it through the render. `name` names the stage in dumps. An image of
    /// infinite extent is returned as it is (there is no whole to compute).
    ///
    /// `cache` (Core Image's `insertingIntermediate(cache:)`): computed over its whole extent,
    /// whatever part a render reads, so that later renders with the same context (a recipe's other
    /// outputs, a preview of another region) reuse it from the context's cache; see
    /// ``insertingSharedIntermediates(_:)``.
    public func insertingIntermediate(named name: String = "intermediate", cache: Bool = false) -> Image {
        if extent.isInfinite { return self }
        return applying(Intermediate(name: name, coversExtent: cache))
    }

    /// The image with its edge pixels repeated to infinity (`clampedToExtent()`).
    public func clampedToExtent() -> Image {
        if extent.isInfinite { return self }
        if let source = nearestMarkerSource { return Image(node: source).clampedToExtent().samplingNearest() }
        return Image(node: Node(.clamp, inputs: [node], extent: .infinite))
    }

    /// This image over `background` (Porter-Duff source-over on premultiplied colour).
    public func composited(over background: Image) -> Image {
        Image(node: Node(.color(SourceOver()), inputs: [node, background.node], extent: extent.union(background.extent)))
    }

    // MARK: Operations

    /// Applies a 4×5 colour matrix (on unpremultiplied colour). The optimizer folds chains of these.
    public func applyingColorMatrix(_ matrix: ColorMatrix) -> Image {
        Image(node: Node(.matrix(matrix), inputs: [node], extent: extent))
    }

    /// Applies a colour operation to this image and `others` (in order). Extent defaults to this
    /// image's extent for one input and the union for several.
    package func applying(_ operation: any ColorOperation, with others: [Image] = [], extent: Rect? = nil) -> Image {
        let inputs = [self] + others
        let resolved = extent ?? inputs.dropFirst().reduce(self.extent) { $0.union($1.extent) }
        return Image(node: Node(.color(operation), inputs: inputs.map(\.node), extent: resolved))
    }

    /// Applies a warp operation; the extent is given by the caller.
    package func applying(_ operation: any WarpOperation, extent: Rect) -> Image {
        Image(node: Node(.warp(operation), inputs: [node], extent: extent))
    }

    /// Applies a general operation to this image and `others`; the extent is given by the caller.
    package func applying(_ operation: any GeneralOperation, with others: [Image] = [], extent: Rect) -> Image {
        Image(node: Node(.general(operation), inputs: ([self] + others).map(\.node), extent: extent))
    }

    /// Applies an area pass (a separable convolution pass, a box, morphology, resampling…) to this
    /// image and `others` (in order).
    package func applying(_ operation: any AreaOperation, with others: [Image] = []) -> Image {
        let inputs = [self] + others
        return Image(node: Node(.area(operation), inputs: inputs.map(\.node),
                                extent: operation.outputExtent(inputExtents: inputs.map(\.extent))))
    }

    /// Runs an image processor over this image and `others`.
    package func applying(_ processor: any ImageProcessor, with others: [Image] = []) -> Image {
        let inputs = [self] + others
        return Image(node: Node(.processor(processor), inputs: inputs.map(\.node),
                                extent: processor.outputExtent(inputExtents: inputs.map(\.extent))))
    }

    /// A colour operation with no image inputs (a generator such as a gradient); extent infinite
    /// unless given.
    package static func generated(by operation: any ColorOperation, extent: Rect = .infinite) -> Image {
        Image(node: Node(.color(operation), inputs: [], extent: extent))
    }
}
