/// The EXIF fields a person asks about a photo (`graph info`): camera, exposure, orientation,
/// dates and whether GPS is present. Read from IFD0, the Exif IFD (0x8769) and the GPS IFD pointer
/// (0x8825) of a TIFF structure; every read is bounds-checked, and a field that is absent, of an
/// unexpected type or broken is nil.
public struct EXIFSummary: Sendable, Equatable {
    /// Camera maker (0x010F) and model (0x0110).
    public var make: String?
    /// Camera model (0x0110).
    public var model: String?
    /// Lens model (0xA434).
    public var lensModel: String?
    /// Software that wrote the file (0x0131).
    public var software: String?
    /// Exposure time in seconds (0x829A).
    public var exposureTime: Double?
    /// F-number (0x829D).
    public var fNumber: Double?
    /// ISO speed (0x8827, PhotographicSensitivity).
    public var iso: Int?
    /// Focal length in millimetres (0x920A), and the 35 mm equivalent (0xA405).
    public var focalLength: Double?
    /// Focal length in 35 mm film equivalent (0xA405).
    public var focalLengthIn35mm: Int?
    /// Orientation (0x0112) as stored, 1...8.
    public var orientation: Int?
    /// When the photo was taken (0x9003 DateTimeOriginal, `YYYY:MM:DD HH:MM:SS`), and when the
    /// file was last changed (0x0132 DateTime).
    public var dateTimeOriginal: String?
    /// When the file was last changed (0x0132 DateTime).
    public var dateTime: String?
    /// Whether a GPS IFD is present (position not decoded).
    public var hasGPS = false

    /// Reads the summary of a TIFF structure (with or without the JPEG `Exif\0\0` prefix); nil when
    /// it is not one.
    public init?(tiff given: [UInt8]) {
        let tiff = given.hasBytePrefix(EXIF.jpegPrefix) ? Array(given.dropFirst(EXIF.jpegPrefix.count)) : given
        guard tiff.count >= 8 else { return nil }
        var reader = ByteReader(tiff)
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): reader.littleEndian = true
        case (0x4D, 0x4D): reader.littleEndian = false
        default: return nil
        }
        guard reader.u16(2) == 42, let ifd0 = reader.u32(4).map(Int.init) else { return nil }
        let main = Self.entries(reader, at: ifd0)
        make = main[0x010F]?.text(reader)
        model = main[0x0110]?.text(reader)
        software = main[0x0131]?.text(reader)
        dateTime = main[0x0132]?.text(reader)
        orientation = main[0x0112]?.integer(reader)
        hasGPS = main[0x8825] != nil
        if let exifIFD = main[0x8769]?.integer(reader) {
            let exif = Self.entries(reader, at: exifIFD)
            exposureTime = exif[0x829A]?.rational(reader)
            fNumber = exif[0x829D]?.rational(reader)
            iso = exif[0x8827]?.integer(reader)
            dateTimeOriginal = exif[0x9003]?.text(reader)
            focalLength = exif[0x920A]?.rational(reader)
            focalLengthIn35mm = exif[0xA405]?.integer(reader)
            lensModel = exif[0xA434]?.text(reader)
        }
    }

    /// One IFD entry: its type, count and the offset of its value (inline or pointed to).
    private struct Entry {
        let type: UInt16
        let count: Int
        let valueOffset: Int

        /// ASCII (type 2), trimmed of NULs and spaces; nil when empty.
        func text(_ reader: ByteReader) -> String? {
            guard type == 2, count <= 4096, let bytes = reader.slice(valueOffset, count) else { return nil }
            let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self).trimmingCharacters(in: " ")
            return text.isEmpty ? nil : text
        }

        /// SHORT (3) or LONG (4).
        func integer(_ reader: ByteReader) -> Int? {
            guard count >= 1 else { return nil }
            switch type {
            case 3: return reader.u16(valueOffset).map(Int.init)
            case 4: return reader.u32(valueOffset).map(Int.init)
            default: return nil
            }
        }

        /// RATIONAL (5) or SRATIONAL (10), as a Double; nil for a zero denominator.
        func rational(_ reader: ByteReader) -> Double? {
            guard count >= 1, type == 5 || type == 10 else { return nil }
            guard let n = reader.u32(valueOffset), let d = reader.u32(valueOffset + 4), d != 0 else { return nil }
            return type == 5 ? Double(n) / Double(d) : Double(Int32(bitPattern: n)) / Double(Int32(bitPattern: d))
        }
    }

    /// The entries of the IFD at `offset`, by tag (the first of a repeated tag).
    private static func entries(_ reader: ByteReader, at offset: Int) -> [UInt16: Entry] {
        guard let count = reader.u16(offset) else { return [:] }
        let sizes: [UInt16: Int] = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8]
        var result: [UInt16: Entry] = [:]
        for index in 0..<Int(count) {
            let at = offset + 2 + index * 12
            guard let tag = reader.u16(at), let type = reader.u16(at + 2), let items = reader.u32(at + 4) else { break }
            guard let size = sizes[type], items <= UInt32(Int32.max) else { continue }
            let length = Int(items) * size
            let valueOffset = length <= 4 ? at + 8 : reader.u32(at + 8).map(Int.init) ?? -1
            if result[tag] == nil { result[tag] = Entry(type: type, count: Int(items), valueOffset: valueOffset) }
        }
        return result
    }

    /// The lines `graph info` prints: `camera: Apple iPhone 12 Pro`, `exposure: 1/120 s, f/1.6,
    /// ISO 32, 4.2 mm (26 mm in 35 mm)`, `taken: 2021:05:01 12:00:00`, `gps: present`.
    public var summaryLines: [String] {
        var lines: [String] = []
        let camera = [make, model].compactMap { $0 }
        if !camera.isEmpty {
            // Models usually repeat the make ("Canon" "Canon EOS 5D").
            let joined = camera.count == 2 && ((model ?? "") + " ").hasPrefix((make ?? "") + " ") ? (model ?? "") : camera.joined(separator: " ")
            lines.append("camera: \(joined)")
        }
        if let lensModel { lines.append("lens: \(lensModel)") }
        var exposure: [String] = []
        if let exposureTime { exposure.append("\(Self.exposureText(exposureTime)) s") }
        if let fNumber { exposure.append("f/\(Self.short(fNumber))") }
        if let iso { exposure.append("ISO \(iso)") }
        if let focalLength {
            exposure.append("\(Self.short(focalLength)) mm" + (focalLengthIn35mm.map { " (\($0) mm in 35 mm)" } ?? ""))
        }
        if !exposure.isEmpty { lines.append("exposure: " + exposure.joined(separator: ", ")) }
        if let dateTimeOriginal { lines.append("taken: \(dateTimeOriginal)") }
        if let dateTime, dateTime != dateTimeOriginal { lines.append("modified: \(dateTime)") }
        if let software { lines.append("software: \(software)") }
        lines.append("gps: \(hasGPS ? "present" : "none")")
        return lines
    }

    /// `1/125` for short exposures, `0.5` or `2` otherwise.
    public static func exposureText(_ seconds: Double) -> String {
        if seconds > 0, seconds < 0.5 {
            let denominator = (1 / seconds).rounded()
            if abs(1 / denominator - seconds) / seconds < 0.01 { return "1/\(Int(denominator))" }
        }
        return short(seconds)
    }

    /// A number with at most 2 decimals and no trailing zeros.
    static func short(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

extension ImageMetadata {
    /// The EXIF fields of the file's EXIF block, or nil when it has none (or it is broken).
    public var exifSummary: EXIFSummary? { exif.flatMap { EXIFSummary(tiff: $0) } }
}

private extension String {
    func trimmingCharacters(in character: Character) -> String {
        var result = Substring(self)
        while result.first == character { result.removeFirst() }
        while result.last == character { result.removeLast() }
        return String(result)
    }
}
