import GraphCodecs

/// Where a depth photo says its subject is, normalised to the upright photo with a lower-left
/// origin, and which of its metadata said so: the default focus rectangle of the depth effects
/// (`inputFocusRect`), shown by `graph info` and `graph dump`.
public struct SubjectRegion: Sendable, Equatable {
    /// The metadata a subject region comes from.
    public enum Source: String, Sendable {
        /// A Metadata Working Group region of type Face (iPhones write the face the camera found).
        case face = "the photo's face region"
        /// An MWG region of type Focus (iPhones write the focus point or the tapped area).
        case focus = "the photo's focus region"
        /// An MWG region of another or no type.
        case region = "the photo's MWG region"
        /// Google Lens Blur's `GFocus:FocalPointX/Y`: a square of ``SubjectRegion/pointSide`` of
        /// each side centred on the point.
        case focalPoint = "the photo's GFocus focal point"
    }

    /// Normalised (0…1), lower-left origin, in the upright photo.
    public var rect: Rect
    /// The metadata it comes from.
    public var source: Source

    /// The side of the square around a focal point, as a fraction of each side of the photo: the
    /// size of the effects' default centre rectangle.
    public static let pointSide = 0.1

    /// A region `rect` from `source`.
    public init(rect: Rect, source: Source) {
        self.rect = rect
        self.source = source
    }
}

extension DepthPhoto {
    /// The region the camera found the subject in, for effects that focus on it: the Metadata
    /// Working Group region of the photo's XMP (iPhones write the face and the focus point there),
    /// else Google Lens Blur's GFocus focal point (a square of ``SubjectRegion/pointSide`` around
    /// it); normalised to the upright photo with a lower-left origin. When the XMP lists several
    /// MWG regions this is the first one written (the flat XMP reader keeps one value per
    /// property; iPhones write the face before the focus point). Nil when the file has neither.
    public var subject: SubjectRegion? {
        guard let packet = info.metadata.xmp else { return nil }
        let xmp = XMPProperties.parse(packet)
        let area = "http://ns.adobe.com/xmp/sType/Area#", regions = "http://www.metadataworkinggroup.com/schemas/regions/"
        if let x = xmp.number(area, "x"), let y = xmp.number(area, "y"), let w = xmp.number(area, "w"),
           let h = xmp.number(area, "h"), w > 0, h > 0, xmp.text(area, "unit") ?? "normalized" == "normalized" {
            let source: SubjectRegion.Source
            switch xmp.text(regions, "Type") {
            case "Face": source = .face
            case "Focus": source = .focus
            default: source = .region
            }
            // MWG: (x, y) is the centre, top-left origin, in the stored (unrotated) image.
            return upright(centre: (x, y), size: (w, h)).map { SubjectRegion(rect: $0, source: source) }
        }
        let focus = GDepth.focusNamespace
        if let x = xmp.number(focus, "FocalPointX"), let y = xmp.number(focus, "FocalPointY"), x.isFinite, y.isFinite {
            // GFocus: a point, top-left origin, in the stored image.
            let side = SubjectRegion.pointSide
            return upright(centre: (x, y), size: (side, side)).map { SubjectRegion(rect: $0, source: .focalPoint) }
        }
        return nil
    }

    /// The rectangle of the photo's ``subject``, nil when it has none.
    public var subjectRegion: Rect? { subject?.rect }

    /// The rectangle of `size` centred on `centre` (normalised, top-left origin, in the stored
    /// image) in the upright photo with a lower-left origin, clipped to it; nil when nothing is left.
    private func upright(centre: (Double, Double), size: (Double, Double)) -> Rect? {
        let (x, y) = centre, (w, h) = size
        let corners = [(x - w / 2, y - h / 2), (x + w / 2, y + h / 2)].map {
            MWGRegionOrientation.upright($0.0, $0.1, info.metadata.exifOrientation)
        }
        let left = min(corners[0].0, corners[1].0), right = max(corners[0].0, corners[1].0)
        let top = min(corners[0].1, corners[1].1), bottom = max(corners[0].1, corners[1].1)
        let clipped = Rect(x: left, y: 1 - bottom, width: right - left, height: bottom - top)
            .intersection(Rect(x: 0, y: 0, width: 1, height: 1))
        return clipped.isEmpty ? nil : clipped
    }
}
