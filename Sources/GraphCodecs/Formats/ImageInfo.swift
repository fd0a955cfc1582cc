/// What can be learnt from a file without decoding its pixels (for `graph info`).
public struct ImageInfo: Sendable {
    /// The container format.
    public var format: ImageFormat
    /// Stored size (before any EXIF orientation).
    public var width: Int
    /// Stored height (before any EXIF orientation).
    public var height: Int
    /// Channels / components as stored (PNG palette = 1, JPEG CMYK = 4).
    public var channels: Int
    /// Sample precision as stored (PNG 1...16, JPEG 8 or 12).
    public var bitDepth: Int
    /// "grey", "RGB", "palette", "grey+alpha", "RGBA", "YCbCr", "CMYK", "YCCK" ...
    public var colorModel: String
    /// The file's metadata (profile, EXIF, XMP, segments, MPF).
    public var metadata: ImageMetadata
    /// Problems found in the headers that did not stop reading them.
    public var warnings: [String]
    /// Depth and disparity maps, mattes and other auxiliary images, from their headers.
    public var auxiliaryImages: [AuxiliaryImageInfo]

    /// What was learnt from a file's headers.
    public init(
        format: ImageFormat, width: Int, height: Int, channels: Int, bitDepth: Int, colorModel: String,
        metadata: ImageMetadata, warnings: [String], auxiliaryImages: [AuxiliaryImageInfo] = []
    ) {
        self.auxiliaryImages = auxiliaryImages
        self.format = format
        self.width = width
        self.height = height
        self.channels = channels
        self.bitDepth = bitDepth
        self.colorModel = colorModel
        self.metadata = metadata
        self.warnings = warnings
    }

    /// The parsed ICC profile, when present.
    public var iccProfile: ICCProfile? { metadata.parsedICCProfile }

    /// Size once the EXIF orientation is applied.
    public var orientedWidth: Int { metadata.exifOrientation >= 5 ? height : width }
    /// Height once the EXIF orientation is applied.
    public var orientedHeight: Int { metadata.exifOrientation >= 5 ? width : height }

    /// Human-readable lines: format, size, depth, profile, orientation, segments, MPF entries.
    public var summaryLines: [String] { summaryLines(notingAuxiliaryImage: { _ in nil }) }

    /// ``summaryLines`` with `note(index)` appended to the line of auxiliary image `index` when
    /// it gives one (the CLI adds the recipe name that loads the image).
    public func summaryLines(notingAuxiliaryImage note: (Int) -> String?) -> [String] {
        var lines = ["format: \(format.name)", "size: \(width)x\(height)", "channels: \(channels) (\(colorModel))", "bit depth: \(bitDepth)"]
        if let profile = iccProfile {
            lines.append("colour profile: \(profile.description.isEmpty ? "(no description)" : profile.description) [\(profile.kind.rawValue), ICC \(profile.version), \(profile.bytes.count) bytes]")
        } else if metadata.iccProfile != nil {
            lines.append("colour profile: unparseable ICC data")
        } else if let intent = metadata.pngSRGBIntent {
            lines.append("colour profile: sRGB chunk (intent \(intent))")
        } else {
            lines.append("colour profile: none")
        }
        if let gamma = metadata.pngGamma { lines.append("gamma: \(gamma)") }
        lines.append("orientation: \(metadata.exifOrientation)" + (metadata.exifOrientation != 1 ? " (displays as \(orientedWidth)x\(orientedHeight))" : ""))
        lines += metadata.exifSummary.map { $0.summaryLines } ?? ["exif: none"]
        if format == .jpeg {
            var coding = metadata.jpegProgressive ? "progressive" : "baseline/sequential"
            if metadata.jpegArithmetic { coding += ", arithmetic" }
            lines.append("jpeg: \(coding), \(metadata.jpegSubsampling.map(\.rawValue) ?? "sampling \(metadata.jpegSampling)")")
        }
        if metadata.xmp != nil { lines.append("xmp: \(metadata.xmp?.utf8.count ?? 0) bytes") }
        if let guid = metadata.extendedXMPGUID {
            lines.append("extended xmp: \(guid), \(metadata.extendedXMPLength ?? 0) bytes" + (metadata.extendedXMP == nil ? " (incomplete)" : ""))
        }
        for segment in metadata.segments {
            lines.append("segment: \(segment.name) at \(segment.offset), \(segment.length) bytes")
        }
        for entry in metadata.mpfEntries {
            lines.append("mpf image \(entry.index + 1): \(entry.typeName), offset \(entry.absoluteOffset), \(entry.length) bytes")
        }
        for (index, image) in auxiliaryImages.enumerated() {
            lines.append("auxiliary image: \(image.summary)" + (note(index).map { ", \($0)" } ?? ""))
            for problem in image.problems { lines.append("warning: \(problem)") }
        }
        for warning in warnings { lines.append("warning: \(warning)") }
        return lines
    }
}
