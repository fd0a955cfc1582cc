/// Apple's auxiliary-image type names (depth-formats.md 2.2): the URN of a HEIF item's `auxC`
/// box, which an iPhone JPEG repeats as the `apdi:AuxiliaryImageType` of the MPF image's XMP
/// (`urn:com:apple:photo:2020:aux:hdrgainmap`, `urn:com:apple:photo:2019:aux:semanticskinmatte`).
/// One table so that the HEIF and JPEG readers name the same image the same way, whatever
/// position it has among the file's auxiliary images.
public enum AppleAuxiliaryType {
    /// What a type names: the portrait effects matte, the HDR gain map or a semantic matte; nil
    /// for any other type (depth and disparity are recognised by their own readers, which also
    /// look at the XMP).
    public static func kind(of type: String) -> AuxiliaryImageInfo.Kind? {
        let type = type.lowercased()
        if type.hasSuffix(":aux:portraiteffectsmatte") { return .portraitEffectsMatte }
        if type.hasSuffix(":aux:hdrgainmap") { return .hdrGainMap }
        if semanticSubject(of: type) != nil { return .semanticMatte }
        return nil
    }

    /// What a semantic matte segments, from its type `…:aux:semantic<subject>matte`: "skin",
    /// "hair", "teeth", "glasses" or "sky" in the files known (any other word is returned as
    /// written, lower-cased); nil when `type` is not a semantic matte's.
    public static func semanticSubject(of type: String) -> String? {
        let type = type.lowercased()
        guard let marker = type.ranges(of: ":aux:semantic").last, type.hasSuffix("matte") else { return nil }
        let subject = type[marker.upperBound...].dropLast("matte".count)
        return subject.isEmpty ? nil : String(subject)
    }
}
