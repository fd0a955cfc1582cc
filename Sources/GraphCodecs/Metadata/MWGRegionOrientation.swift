/// Turns the Metadata Working Group regions of an XMP packet (face and focus areas: `stArea:x/y/w/h`,
/// normalised, centre and size, top-left origin, in the stored pixels) to the upright frame, for a
/// writer that stores the pixels upright (EXIF orientation 1) where the source stored them rotated,
/// and swaps `mwg-rs:AppliedToDimensions`' width and height when the rotation is a quarter turn.
/// The packet's text is edited in place (element or attribute form, whatever the prefixes), so
/// everything else in it stays byte for byte.
public enum MWGRegionOrientation {
    /// The `stArea` namespace.
    package static let areaNamespace = "http://ns.adobe.com/xmp/sType/Area#"
    /// The `stDim` namespace.
    static let dimensionsNamespace = "http://ns.adobe.com/xap/1.0/sType/Dimensions#"

    /// `packet` with its regions seen upright, for pixels stored in EXIF `orientation` (1…8)
    /// turned upright; unchanged for orientation 1 or a packet without regions. A region whose
    /// fields are not all numbers is left as it is.
    public static func upright(_ packet: String, from orientation: Int) -> String {
        guard (2...8).contains(orientation) else { return packet }
        var edits: [(Range<String.Index>, String)] = []
        if let area = prefix(of: areaNamespace, in: packet) {
            for region in groups(of: ["x", "y", "w", "h"], prefix: area, in: packet) {
                guard let x = Double(packet[region[0]]), let y = Double(packet[region[1]]),
                      let w = Double(packet[region[2]]), let h = Double(packet[region[3]]) else { continue }
                let (u, v) = upright(x, y, orientation)
                let turned = orientation >= 5
                edits += [(region[0], "\(u)"), (region[1], "\(v)"), (region[2], "\(turned ? h : w)"), (region[3], "\(turned ? w : h)")]
            }
        }
        if orientation >= 5, let dimensions = prefix(of: dimensionsNamespace, in: packet) {
            for size in groups(of: ["w", "h"], prefix: dimensions, in: packet) {
                edits += [(size[0], String(packet[size[1]])), (size[1], String(packet[size[0]]))]
            }
        }
        var result = packet
        for (range, text) in edits.sorted(by: { $0.0.lowerBound > $1.0.lowerBound }) {
            result.replaceSubrange(range, with: text)
        }
        return result
    }

    /// `packet` with every region `(x, y, w, h)` (normalised centre and size, top-left origin)
    /// replaced by `move(x, y, w, h)` and `mwg-rs:AppliedToDimensions` set to `width`×`height`:
    /// for an edit that crops or scales the photo. The packet's text is edited in place, as by
    /// ``upright(_:from:)``. A region whose fields are not all numbers is left as it is.
    public static func moved(_ packet: String, width: Int, height: Int,
                             _ move: (Double, Double, Double, Double) -> (Double, Double, Double, Double)) -> String {
        var edits: [(Range<String.Index>, String)] = []
        if let area = prefix(of: areaNamespace, in: packet) {
            for region in groups(of: ["x", "y", "w", "h"], prefix: area, in: packet) {
                guard let x = Double(packet[region[0]]), let y = Double(packet[region[1]]),
                      let w = Double(packet[region[2]]), let h = Double(packet[region[3]]) else { continue }
                let (u, v, width, height) = move(x, y, w, h)
                edits += [(region[0], "\(u)"), (region[1], "\(v)"), (region[2], "\(width)"), (region[3], "\(height)")]
            }
        }
        if let dimensions = prefix(of: dimensionsNamespace, in: packet) {
            for size in groups(of: ["w", "h"], prefix: dimensions, in: packet) {
                edits += [(size[0], String(width)), (size[1], String(height))]
            }
        }
        var result = packet
        for (range, text) in edits.sorted(by: { $0.0.lowerBound > $1.0.lowerBound }) {
            result.replaceSubrange(range, with: text)
        }
        return result
    }

    /// `packet` with GDepth's focal point (`GFocus:FocalPointX/Y`, normalised, top-left origin)
    /// replaced by `move(x, y)`, edited in place like the regions; unchanged without one.
    public static func movedFocalPoint(_ packet: String, _ move: (Double, Double) -> (Double, Double)) -> String {
        guard let focus = prefix(of: GDepth.focusNamespace, in: packet) else { return packet }
        var result = packet
        for point in groups(of: ["FocalPointX", "FocalPointY"], prefix: focus, in: packet).reversed() {
            guard let x = Double(packet[point[0]]), let y = Double(packet[point[1]]) else { continue }
            let (u, v) = move(x, y)
            for (range, text) in [(point[0], "\(u)"), (point[1], "\(v)")].sorted(by: { $0.0.lowerBound > $1.0.lowerBound }) {
                result.replaceSubrange(range, with: text)
            }
        }
        return result
    }

    /// A normalised point (top-left origin) of an image stored in EXIF `orientation`, seen upright.
    public static func upright(_ u: Double, _ v: Double, _ orientation: Int) -> (Double, Double) {
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

    /// The prefix the packet binds to `namespace` (`xmlns:PREFIX="namespace"`), if any.
    static func prefix(of namespace: String, in packet: String) -> String? {
        for quote in ["\"", "'"] {
            guard let binding = packet.firstRange(of: "=" + quote + namespace + quote) else { continue }
            let before = packet[..<binding.lowerBound]
            guard let xmlns = before.ranges(of: "xmlns:").last else { continue }
            let name = before[xmlns.upperBound...]
            if !name.isEmpty, name.allSatisfy(isNameCharacter) { return String(name) }
        }
        return nil
    }

    /// Whether `c` may appear in an XML namespace prefix (letters, digits, `-`, `_`, `.`).
    static func isNameCharacter(_ c: Character) -> Bool {
        c.isLetter || c.isNumber || c == "-" || c == "_" || c == "."
    }

    /// The value ranges of the fields `names` under `prefix`, as elements (`<p:x>v</p:x>`) or
    /// attributes (`p:x="v"`), grouped in order of appearance: a group closes when all its fields
    /// are found; a field seen again before that starts a new group (the incomplete one is dropped).
    static func groups(of names: [String], prefix: String, in packet: String) -> [[Range<String.Index>]] {
        var found: [(field: Int, range: Range<String.Index>)] = []
        for (field, name) in names.enumerated() {
            let qualified = prefix + ":" + name
            for open in packet.ranges(of: "<" + qualified + ">") {
                if let close = packet[open.upperBound...].firstRange(of: "</" + qualified + ">") {
                    found.append((field, open.upperBound..<close.lowerBound))
                }
            }
            for quote in ["\"", "'"] {
                for start in packet.ranges(of: qualified + "=" + quote) {
                    // An attribute, not the tail of a longer name (`q:p:x` cannot occur; `xp:x` can).
                    if start.lowerBound > packet.startIndex {
                        guard packet[packet.index(before: start.lowerBound)].isWhitespace else { continue }
                    }
                    if let end = packet[start.upperBound...].firstIndex(of: Character(quote)) {
                        found.append((field, start.upperBound..<end))
                    }
                }
            }
        }
        var groups: [[Range<String.Index>]] = []
        var current: [Range<String.Index>?] = Array(repeating: nil, count: names.count)
        for (field, range) in found.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            if current[field] != nil { current = Array(repeating: nil, count: names.count) }
            current[field] = range
            if current.allSatisfy({ $0 != nil }) {
                groups.append(current.compactMap { $0 })
                current = Array(repeating: nil, count: names.count)
            }
        }
        return groups
    }
}
