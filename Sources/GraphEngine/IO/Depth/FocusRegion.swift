import GraphCodecs

extension DepthPhoto {
    /// The region the camera found the subject in, for effects that focus on it (CIDepthBlurEffect's
    /// `inputFocusRect`): the Metadata Working Group region of the photo's XMP (iPhones write the
    /// face and the focus point there), normalised to the upright photo with a lower-left origin.
    /// When the XMP lists several regions this is the first one written (the flat XMP reader keeps
    /// one value per property; iPhones write the face before the focus point). Nil when the file
    /// has no region.
    public var subjectRegion: Rect? {
        guard let packet = info.metadata.xmp else { return nil }
        let xmp = XMPProperties.parse(packet)
        let area = "http://ns.adobe.com/xmp/sType/Area#"
        guard let x = xmp.number(area, "x"), let y = xmp.number(area, "y"), let w = xmp.number(area, "w"),
              let h = xmp.number(area, "h"), w > 0, h > 0, xmp.text(area, "unit") ?? "normalized" == "normalized" else { return nil }
        // MWG: (x, y) is the centre, top-left origin, in the stored (unrotated) image.
        let corners = [(x - w / 2, y - h / 2), (x + w / 2, y + h / 2)].map { Self.upright($0.0, $0.1, info.metadata.exifOrientation) }
        let left = min(corners[0].0, corners[1].0), right = max(corners[0].0, corners[1].0)
        let top = min(corners[0].1, corners[1].1), bottom = max(corners[0].1, corners[1].1)
        let clipped = Rect(x: left, y: 1 - bottom, width: right - left, height: bottom - top)
            .intersection(Rect(x: 0, y: 0, width: 1, height: 1))
        return clipped.isEmpty ? nil : clipped
    }

    /// A normalised point (top-left origin) of the stored image, seen in the upright image.
    static func upright(_ u: Double, _ v: Double, _ orientation: Int) -> (Double, Double) {
        switch orientation {
        case 2: return (1 - u, v)
        case 3: return (1 - u, 1 - v)
        case 4: return (u, 1 - v)
        case 5: return (v, u)
        case 6: return (1 - v, u)
        case 7: return (1 - v, 1 - u)
        case 8: return (v, 1 - u)
        default: return (u, v)
        }
    }
}
