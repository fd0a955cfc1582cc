/// The media items a Google container appends after the primary JPEG (Dynamic Depth,
/// Ultra HDR, Motion Photo; depth-formats.md 4): the XMP `Container:Directory` lists them in
/// file order, each with its `Item:Semantic`, `Item:Mime`, `Item:Length` and optional
/// `Item:Padding` and `Item:DataURI`. A Pixel 8 writes no DataURI at all, so items are matched
/// by semantic and sliced by the lengths, never found by scanning for JPEG markers (its Original
/// item holds a JPEG of its own with a nested gain map).
public struct GoogleContainer: Sendable, Equatable {
    /// One media item of the directory.
    public struct Item: Sendable, Equatable, Hashable {
        /// `Item:Semantic`: "Primary", "GainMap", "Original", "Depth", "Confidence", "MotionPhoto" ...
        public var semantic: String
        /// `Item:Mime`: "image/jpeg", "image/png" ...
        public var mime: String
        /// `Item:Length` in bytes (0 or absent for the primary, which ends at its EOI).
        public var length: Int?
        /// `Item:Padding`: bytes between the end of this item and the next one.
        public var padding: Int
        /// `Item:DataURI` (older Dynamic Depth files: `android/depthmap`); nil when absent.
        public var dataURI: String?
        /// Where its bytes lie in the file; nil for the primary and for an item that could not
        /// be located (see ``problem``).
        public var range: Range<Int>?
        /// Why the item could not be located, naming it; nil when it was (and for the primary).
        public var problem: String?

        /// An item of the directory, before it is located.
        public init(semantic: String, mime: String, length: Int?, padding: Int = 0, dataURI: String? = nil, range: Range<Int>? = nil) {
            self.semantic = semantic
            self.mime = mime
            self.length = length
            self.padding = padding
            self.dataURI = dataURI
            self.range = range
        }
    }

    /// Every item, in directory (file) order; the first is the primary image.
    public var items: [Item]
    /// Set when every length is known but the items, laid back to back after the primary, do
    /// not end where the file does: some item's length is wrong (or data was appended after
    /// them), even if each item was found.
    public var layoutProblem: String?

    /// Why items could not be located (a length that runs past the end of the file, an offset
    /// not at the item's signature); each names the item.
    public var problems: [String] { items.compactMap(\.problem) }

    /// The container namespaces: Ultra HDR / Pixel 8 (`…/photos/1.0/container/`) and the
    /// Dynamic Depth 1.0 specification (`…/photos/dd/1.0/container/`), each with its item namespace.
    static let namespaces: [(container: String, item: String)] = [
        ("http://ns.google.com/photos/1.0/container/", "http://ns.google.com/photos/1.0/container/item/"),
        ("http://ns.google.com/photos/dd/1.0/container/", "http://ns.google.com/photos/dd/1.0/item/"),
    ]

    /// Largest item length or padding believed (1 TiB): more is a corrupt directory.
    static let maximumLength = 1 << 40

    /// Whether a main packet names a container directory at all (a cheap text check before parsing).
    public static func isPresent(inMainPacket xmp: String) -> Bool {
        namespaces.contains { xmp.contains($0.container) }
    }

    /// The directory of the main or extended packet, not yet located: nil when neither has one;
    /// a `CodecError` naming the item when one has no semantic or mime type, or a length or
    /// padding that is not a byte count.
    public static func directory(mainPacket: XMPProperties, extendedPacket: XMPProperties) throws(CodecError) -> [Item]? {
        for packet in [mainPacket, extendedPacket] {
            for (container, item) in namespaces {
                guard let entries = packet.structures(container, "Directory") else { continue }
                var items: [Item] = []
                for (index, fields) in entries.enumerated() {
                    func field(_ name: String) -> String? {
                        fields[XMPProperties.Name(item, name)]?.trimmingXMLSpace()
                    }
                    let what = "item \(index + 1)" + (field("Semantic").map { " (\($0))" } ?? "")
                    func byteCount(_ name: String) throws(CodecError) -> Int? {
                        guard let text = field(name) else { return nil }
                        guard let value = Int(text), value >= 0, value <= maximumLength else {
                            throw failure("\(what): Item:\(name) \"\(FileText.escaped(String(text.prefix(40))))\" is not a byte count")
                        }
                        return value
                    }
                    guard let semantic = field("Semantic"), !semantic.isEmpty else { throw failure("\(what) has no Item:Semantic") }
                    guard let mime = field("Mime"), !mime.isEmpty else { throw failure("\(what) has no Item:Mime") }
                    // Quoted in messages and `graph info`: escaped (``FileText``).
                    items.append(Item(semantic: FileText.escaped(semantic), mime: FileText.escaped(mime), length: try byteCount("Length"),
                                      padding: try byteCount("Padding") ?? 0, dataURI: field("DataURI")))
                }
                guard !items.isEmpty else { throw failure("the Container:Directory lists no items") }
                return items
            }
        }
        return nil
    }

    /// Locates `items` (a directory, the primary first) in `bytes`, whose primary JPEG stream
    /// ends at `primaryEnd`: the items follow it back to back, each after the previous one's
    /// padding (the primary's padding follows its EOI). Each start must hold its mime type's
    /// signature (JPEG `FF D8 FF`, PNG); when the walk from the primary fails, the items are
    /// placed back from the end of the file instead (where the lengths end exactly, as on a
    /// Pixel 8). An item placed neither way keeps no range and gets a problem.
    public static func locate(_ items: [Item], in bytes: [UInt8], primaryEnd: Int) -> GoogleContainer {
        guard var primary = items.first else { return GoogleContainer(items: [], layoutProblem: nil) }
        primary.range = nil
        var located = [primary] + items.dropFirst().map { item in
            var item = item
            item.range = nil
            return item
        }
        let secondary = Array(located.indices.dropFirst())
        // From the primary's end forwards, while lengths are known.
        var forward: [Int: Range<Int>] = [:]
        var position: Int? = primaryEnd + primary.padding
        for index in secondary {
            guard let start = position, let length = located[index].length, start <= bytes.count - length else {
                position = nil
                continue
            }
            forward[index] = start..<(start + length)
            position = start + length + located[index].padding
        }
        var layoutProblem: String?
        if let end = position, end != bytes.count {
            layoutProblem = "Dynamic Depth container: the items' lengths, laid after the primary image (ends at \(primaryEnd)), end at byte \(end) but the file has \(bytes.count) bytes: an Item:Length is wrong"
        }
        // From the end of the file backwards, while lengths are known.
        var backward: [Int: Range<Int>] = [:]
        position = bytes.count
        for index in secondary.reversed() {
            guard let end = position.map({ $0 - located[index].padding }), let length = located[index].length,
                  end - length >= primaryEnd else {
                position = nil
                continue
            }
            backward[index] = (end - length)..<end
            position = end - length
        }
        for index in secondary {
            let item = located[index]
            if let range = forward[index], hasSignature(item.mime, at: range, in: bytes) {
                located[index].range = range
            } else if let range = backward[index], hasSignature(item.mime, at: range, in: bytes) {
                located[index].range = range
            } else {
                let name = "Dynamic Depth container item \(index + 1) (\(item.semantic), \(item.mime))"
                if item.length == nil {
                    located[index].problem = "\(name) has no Item:Length, so it cannot be found"
                } else if let range = forward[index] {
                    located[index].problem = "\(name): offset \(range.lowerBound), after the primary image (ends at \(primaryEnd)) and the earlier items, is not the start of a \(item.mime) stream, nor is the place the lengths give from the end of the file"
                } else {
                    located[index].problem = "\(name): its Item:Length \(item.length ?? 0) with the earlier items' runs past the end of the file (\(bytes.count) bytes): the file is truncated or the lengths are wrong"
                }
            }
        }
        return GoogleContainer(items: located, layoutProblem: layoutProblem)
    }

    /// Whether `range` of `bytes` starts with the signature of `mime` (any bytes for a type
    /// without one known here).
    static func hasSignature(_ mime: String, at range: Range<Int>, in bytes: [UInt8]) -> Bool {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return false }
        let signature: [UInt8]
        switch mime.lowercased() {
        case "image/jpeg": signature = [0xFF, 0xD8, 0xFF]
        case "image/png": signature = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        default: return true
        }
        return range.count >= signature.count && bytes[range.lowerBound..<(range.lowerBound + signature.count)].elementsEqual(signature)
    }

    static func failure(_ message: String) -> CodecError {
        CodecError(.corrupt, "Dynamic Depth container: \(message)", format: .jpeg, segment: "APP1 XMP (Container:Directory)")
    }
}
