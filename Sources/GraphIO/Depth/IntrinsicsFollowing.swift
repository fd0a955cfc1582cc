import GraphCodecs

/// How an edit moved a photo's pixel grid, for the camera intrinsics that describe it (Apple's
/// calibration, Dynamic Depth's `Camera:ImagingModel`): an axis-aligned map (crops, scales, flips,
/// quarter turns, their compositions) they follow exactly, or why there is none.
enum EditedPixelGrid: Equatable {
    /// The photo's pixel (x, y), top-left origin, to the edited image's.
    case mapped(PixelGridMap)
    /// The edit moves pixels in a way intrinsics cannot follow (the reason, for a warning).
    case unmappable(String)

    /// The grid map of a traced working-space `transform` (y up) from a photo covering
    /// `photoExtent` to an edited image covering `editedExtent`: a photo pixel (u, v) sits at
    /// (minX + u, maxY − v) in working space. Unmappable when the transform is not axis-aligned
    /// (a rotation by another angle than a quarter turn, a shear).
    init(transform: AffineTransform, photoExtent: Rect, editedExtent: Rect) {
        func edited(_ u: Double, _ v: Double) -> (x: Double, y: Double) {
            let p = transform.apply(x: photoExtent.minX + u, y: photoExtent.maxY - v)
            return (p.x - editedExtent.minX, editedExtent.maxY - p.y)
        }
        let origin = edited(0, 0), alongX = edited(1, 0), alongY = edited(0, 1)
        if let map = PixelGridMap(a: alongX.x - origin.x, b: alongY.x - origin.x, c: alongX.y - origin.y, d: alongY.y - origin.y,
                                  tx: origin.x, ty: origin.y) {
            self = .mapped(map)
        } else {
            self = .unmappable("the edit rotates or shears the pixels (it is not a crop, scale, flip or quarter turn)")
        }
    }

    /// The map from a `width`×`height` frame the intrinsics refer to, scaled onto the photo's
    /// `photoWidth`×`photoHeight` pixels and then moved like them; nil (with the reason) when
    /// the edit is unmappable or the two sizes do not share a frame (their scale factors differ
    /// by more than `DynamicDepthMetadata.ImagingModel.framingTolerance`).
    func map(fromFrame width: Double, _ height: Double, photoWidth: Double, photoHeight: Double) -> (map: PixelGridMap?, problem: String?) {
        let edit: PixelGridMap
        switch self {
        case .unmappable(let reason): return (nil, reason)
        case .mapped(let map): edit = map
        }
        let sx = photoWidth / width, sy = photoHeight / height
        guard let scale = PixelGridMap.scale(sx, sy),
              abs(sx - sy) <= DynamicDepthMetadata.ImagingModel.framingTolerance * max(sx, sy) else {
            return (nil, "they describe a \(Int(width))x\(Int(height)) frame, not the photo's \(Int(photoWidth))x\(Int(photoHeight))")
        }
        return (scale.followed(by: edit), nil)
    }
}

extension DepthPhoto {
    /// The depth data's Apple calibration (`calibration`, in the geometry the map was loaded
    /// with, which is the photo's: `photo` covers `photoExtent`) for the edited image of
    /// `editedExtent`: moved by `grid` (`CameraCalibration.mapped(by:width:height:)`: a crop
    /// shifts the principal point and the distortion centre, a scale scales them with the focal
    /// lengths and the pixel size, a quarter turn swaps the axes), its reference size the
    /// output's. Nil, with a warning, when the edit cannot be followed (a warp, a rotation by
    /// another angle, an uneven scale).
    func movedCalibration(_ calibration: CameraCalibration?, grid: EditedPixelGrid, photoExtent: Rect, editedExtent: Rect,
                          warnings: inout [String]) -> CameraCalibration? {
        guard let calibration else { return nil }
        let name = "\(path): its camera calibration (the depth data's intrinsics) is not written"
        let (map, problem) = grid.map(fromFrame: calibration.referenceWidth, calibration.referenceHeight,
                                      photoWidth: photoExtent.width, photoHeight: photoExtent.height)
        guard let map else {
            warnings.append("\(name): \(problem ?? "the edit cannot be followed")")
            return nil
        }
        guard let moved = calibration.mapped(by: map, width: editedExtent.width, height: editedExtent.height) else {
            warnings.append("\(name): the edit scales x and y differently, which its radial lens distortion cannot follow")
            return nil
        }
        return moved
    }
}
