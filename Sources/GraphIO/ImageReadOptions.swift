import GraphCodecs

/// How `Image.init(contentsOf:options:)` reads a file (Core Image's `CIImageOption`s in one
/// type): its colour, its orientation, which of its images, and the safety limits.
///
/// ```swift
/// let photo = try Image(contentsOf: "photo.jpg")                                     // colour from its profile, upright
/// let mask = try Image(contentsOf: "mask.png", options: ImageReadOptions(color: .data))  // never colour-converted
/// let raw = try Image(contentsOf: "photo.jpg", options: ImageReadOptions(applyOrientation: false)).oriented(6)
/// let depth = try Image(contentsOf: "portrait.heic", options: ImageReadOptions(auxiliary: .disparity))
/// ```
public struct ImageReadOptions: Sendable {
    /// What the file's pixel values mean.
    public enum Color: Sendable, Hashable {
        /// The colour space of the embedded ICC profile (sRGB without one): the default.
        case profile
        /// This colour space, whatever the file says (`CIImageOption.colorSpace`).
        case assume(ColorSpace)
        /// Data (a mask, a depth map, a LUT image): no colour space, never converted (Core Image's
        /// `NSNull` colour space).
        case data
    }

    /// What the pixel values mean; `.profile` by default.
    public var color: Color
    /// Turn the pixels upright by the file's EXIF orientation (HEIF: its own transformations);
    /// true by default (`CIImageOption.applyOrientationProperty`). With false, the image comes as
    /// stored: ``/GraphCore/Image/oriented(_:)`` turns it later.
    public var applyOrientation: Bool
    /// Read this auxiliary image of a depth photo (its disparity or depth map, or portrait matte)
    /// instead of the main image: a data image with real values, upright with the photo (Core
    /// Image's `auxiliaryDisparity`, `auxiliaryDepth`, `auxiliaryPortraitEffectsMatte`).
    public var auxiliary: AuxiliaryImage?
    /// The largest width × height accepted, checked from the header before any pixel memory is
    /// allocated (256 M pixels by default).
    public var maximumPixelCount: Int

    /// Options with every default unless given.
    public init(color: Color = .profile, applyOrientation: Bool = true, auxiliary: AuxiliaryImage? = nil,
                maximumPixelCount: Int = DecodeOptions.defaultMaxPixelCount) {
        self.color = color
        self.applyOrientation = applyOrientation
        self.auxiliary = auxiliary
        self.maximumPixelCount = maximumPixelCount
    }

    /// The codec options these stand for.
    var decodeOptions: DecodeOptions { DecodeOptions(maxPixelCount: maximumPixelCount, applyOrientation: applyOrientation) }

    /// The colour-space override of ``Image/decoding(path:options:colorSpace:)``.
    var colorSpaceOverride: ColorSpace?? {
        switch color {
        case .profile: return nil
        case .assume(let space): return .some(space)
        case .data: return .some(nil)
        }
    }
}
