/// An axis-aligned map from one image's pixel grid to another's, the form a crop, a scale, a flip,
/// a quarter turn (and EXIF orientations) give: `x' = a·x + b·y + tx`, `y' = c·x + d·y + ty`
/// with either `b = c = 0` or `a = d = 0`. Coordinates have their origin at the top-left corner
/// of the image, y down, pixel edges at integers (pixel (i, j) covers i...i+1, j...j+1): Apple's
/// intrinsics ("the origin is the upper left of the frame") and Android's camera intrinsics
/// (`(0,0)` is the top-left of the pre-correction active array), which a Pixel's Dynamic Depth
/// `Camera:ImagingModel` comes from. In that convention a scale by s takes a principal point cx
/// to cx·s (a pixel-centre convention would give (cx + 0.5)·s − 0.5).
///
/// Camera intrinsics follow such a map exactly (``CameraCalibration/mapped(by:width:height:)``,
/// ``DynamicDepthMetadata/ImagingModel/mapped(by:width:height:)``); a rotation by another angle
/// or a warp has no such form.
public struct PixelGridMap: Sendable, Equatable, Hashable {
    /// The coefficients: `x' = a·x + b·y + tx`, `y' = c·x + d·y + ty`.
    public let a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    /// Relative size of the off-axis coefficients below which a map counts as axis-aligned.
    public static let alignmentTolerance = 1e-9

    /// The map with these coefficients; nil when it is not axis-aligned (both diagonals non-zero,
    /// beyond ``alignmentTolerance`` of the larger), singular or not finite. The near-zero
    /// diagonal is set to exactly zero.
    public init?(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        guard [a, b, c, d, tx, ty].allSatisfy(\.isFinite) else { return nil }
        let scale = max(abs(a), abs(b), abs(c), abs(d))
        guard scale > 0 else { return nil }
        let limit = Self.alignmentTolerance * scale
        if abs(b) <= limit && abs(c) <= limit && abs(a) > limit && abs(d) > limit {
            (self.a, self.b, self.c, self.d) = (a, 0, 0, d)
        } else if abs(a) <= limit && abs(d) <= limit && abs(b) > limit && abs(c) > limit {
            (self.a, self.b, self.c, self.d) = (0, b, c, 0)
        } else {
            return nil
        }
        (self.tx, self.ty) = (tx, ty)
    }

    /// The map that changes nothing.
    public static let identity = PixelGridMap(uncheckedA: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    private init(uncheckedA a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    /// A scale by `sx` along x and `sy` along y about the origin (a `W`×`H` image to `W·sx`×`H·sy`).
    public static func scale(_ sx: Double, _ sy: Double) -> PixelGridMap? {
        PixelGridMap(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// A shift by (`x`, `y`): a crop whose top-left corner is at (−x, −y) of the source.
    public static func translation(_ x: Double, _ y: Double) -> PixelGridMap {
        PixelGridMap(uncheckedA: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    /// How a `width`×`height` image stored with EXIF `orientation` (1...8) is turned to show it
    /// upright: 6 (a quarter turn clockwise) takes `(x, y)` to `(height − y, x)`. Anything but 2...8 is the identity.
    public static func orientation(_ orientation: Int, width w: Double, height h: Double) -> PixelGridMap {
        switch orientation {
        case 2: return PixelGridMap(uncheckedA: -1, b: 0, c: 0, d: 1, tx: w, ty: 0)
        case 3: return PixelGridMap(uncheckedA: -1, b: 0, c: 0, d: -1, tx: w, ty: h)
        case 4: return PixelGridMap(uncheckedA: 1, b: 0, c: 0, d: -1, tx: 0, ty: h)
        case 5: return PixelGridMap(uncheckedA: 0, b: 1, c: 1, d: 0, tx: 0, ty: 0)
        case 6: return PixelGridMap(uncheckedA: 0, b: -1, c: 1, d: 0, tx: h, ty: 0)
        case 7: return PixelGridMap(uncheckedA: 0, b: -1, c: -1, d: 0, tx: h, ty: w)
        case 8: return PixelGridMap(uncheckedA: 0, b: 1, c: -1, d: 0, tx: 0, ty: w)
        default: return .identity
        }
    }

    /// Whether x and y trade places (a quarter turn, or orientations 5...8).
    public var swapsAxes: Bool { a == 0 }

    /// How much the map stretches the source's x and y axes (positive; a flip does not count).
    public var sourceScales: (x: Double, y: Double) { swapsAxes ? (abs(c), abs(b)) : (abs(a), abs(d)) }

    /// Whether this is exactly the identity.
    public var isIdentity: Bool { self == .identity }

    /// The point (`x`, `y`) mapped.
    public func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) { (a * x + b * y + tx, c * x + d * y + ty) }

    /// `self` followed by `next`.
    public func followed(by next: PixelGridMap) -> PixelGridMap {
        let origin = next.apply(tx, ty)
        return PixelGridMap(uncheckedA: next.a * a + next.b * c, b: next.a * b + next.b * d,
                            c: next.c * a + next.d * c, d: next.c * b + next.d * d, tx: origin.x, ty: origin.y)
    }
}
