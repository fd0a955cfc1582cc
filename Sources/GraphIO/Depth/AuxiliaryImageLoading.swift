import GraphCodecs

extension Image {
    /// Opens a file's auxiliary image as a data image (Core Image's `auxiliaryDisparity`,
    /// `auxiliaryDepth` and `auxiliaryPortraitEffectsMatte` options): disparity or depth with
    /// real values (converted when the file stores the other kind), or the portrait matte (0...1).
    /// Upright with the photo unless `orientation` is `.stored`. Only the auxiliary image is
    /// decoded. A file without it is an ``AuxiliaryImageError`` naming what the file has.
    ///
    /// ```swift
    /// let disparity = try Image(contentsOf: "portrait.jpg", auxiliary: .disparity)
    /// ```
    public init(contentsOf path: String, auxiliary: AuxiliaryImage, orientation: AuxiliaryOrientation = .upright) throws {
        self = try DepthPhoto(contentsOf: path).image(auxiliary, orientation: orientation)
    }
}

extension DepthData {
    /// The depth data of a photo file with its metadata (see ``DepthPhoto/depthData(as:orientation:)``).
    public init(contentsOf path: String, as kind: Kind? = nil, orientation: AuxiliaryOrientation = .upright) throws {
        self = try DepthPhoto(contentsOf: path).depthData(as: kind, orientation: orientation)
    }
}

extension PortraitEffectsMatte {
    /// The portrait effects matte of a photo file (see ``DepthPhoto/portraitEffectsMatte(orientation:)``).
    public init(contentsOf path: String, orientation: AuxiliaryOrientation = .upright) throws {
        self = try DepthPhoto(contentsOf: path).portraitEffectsMatte(orientation: orientation)
    }
}
