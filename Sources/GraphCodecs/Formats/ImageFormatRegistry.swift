/// Every image format the engine knows, and the one place that picks a format for a file: by
/// its first bytes (``sniff(_:)``) or by its name's suffix (``format(suffix:)``). Messages that
/// list the supported formats are built here from the entries, so they name what is accepted.
/// Formats recognised only to be named in an error (TIFF, WebP...) are `UnsupportedFormat`'s.
public enum ImageFormatRegistry {
    /// The entries, in the order files are sniffed (one per ``ImageFormat`` case).
    public static let entries: [ImageFormatEntry] = ImageFormat.allCases.map(\.entry)

    /// The entries that can be written, in the order messages list them.
    public static let savable: [ImageFormatEntry] = entries.filter { $0.saving != nil }

    /// The format a file starting with `bytes` is in; nil when no entry recognises them.
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        entries.first { $0.isA(bytes) }?.format
    }

    /// The format whose damaged signature `bytes` look like (``ImageFormatEntry/isDamagedA``), to
    /// let its loader say what is wrong; nil when none.
    public static func damagedFormat(_ bytes: [UInt8]) -> ImageFormat? {
        entries.first { $0.isDamagedA?(bytes) == true }?.format
    }

    /// The format a file-name suffix names (any case, no dot: `JPG` is JPEG), or nil.
    public static func format(suffix: String) -> ImageFormat? {
        entries.first { $0.hasSuffix(suffix) }?.format
    }

    /// "PNG, JPEG and HEIF" (`conjunction` "and") or "PNG, JPEG or HEIF": the readable formats.
    public static func names(conjunction: String) -> String { list(entries.map(\.name), conjunction: conjunction) }

    /// ".png, .jpg, .jpeg or .heic": the suffixes of the formats that can be written.
    public static var savableSuffixes: String {
        list(savable.flatMap { $0.suffixes.map { ".\($0)" } }, conjunction: "or")
    }

    /// `"png", "jpeg" or "heic"`: the names a recipe output's `"format"` takes.
    public static var savableKeys: String {
        list(savable.compactMap { $0.saving.map { "\"\($0.key)\"" } }, conjunction: "or")
    }

    /// "JPEG": the names of the written formats that carry auxiliary images.
    public static var auxiliaryImageCarriers: String {
        list(savable.compactMap { $0.saving?.carriesAuxiliaryImages == true ? $0.saving?.name : nil }, conjunction: "or")
    }

    /// `items` as a sentence lists them: "a", "a or b", "a, b or c".
    public static func list(_ items: [String], conjunction: String) -> String {
        guard let last = items.last else { return "" }
        guard items.count > 1 else { return last }
        return items.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}
