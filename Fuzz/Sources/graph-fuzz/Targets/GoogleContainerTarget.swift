@testable import GraphCodecs

extension FuzzTarget {
    /// A Google container (Dynamic Depth, Ultra HDR): the main XMP packet, a NUL byte, the
    /// extended packet, a NUL byte, then the bytes after the primary image (no NUL: packets
    /// only). The directory and the Dynamic Depth description are parsed as the JPEG reader does,
    /// the items located in a file made of a 2-byte stand-in primary and the tail: every range
    /// found must lie after the primary, inside the file, and start with its mime type's
    /// signature; an item without a range must say why.
    static let googleContainer = FuzzTarget(name: "google-container") { bytes in
        let first = bytes.firstIndex(of: 0)
        let second = first.flatMap { bytes[($0 + 1)...].firstIndex(of: 0) }
        let main = XMPProperties.parse(String(decoding: bytes[..<(first ?? bytes.endIndex)], as: UTF8.self))
        let extended = XMPProperties.parse(String(decoding: bytes[(first.map { $0 + 1 } ?? bytes.endIndex)..<(second ?? bytes.endIndex)],
                                                  as: UTF8.self))
        if let depth = try? DynamicDepth.parse(mainPacket: main, extendedPacket: extended) {
            let range = depth.distanceRange
            _ = depth.gDepthEquivalent
            if depth.units?.lowercased() == "diopters", !(range.near <= range.far) {
                fatalError("diopters \(depth.near)/\(depth.far) give a near plane \(range.near) beyond the far one \(range.far)")
            }
        }
        guard let items = try? GoogleContainer.directory(mainPacket: main, extendedPacket: extended) else { return }
        let primaryEnd = 2
        let file: [UInt8] = [0xFF, 0xD9] + (second.map { Array(bytes[($0 + 1)...]) } ?? [])
        let container = GoogleContainer.locate(items, in: file, primaryEnd: primaryEnd)
        guard container.items.count == items.count else {
            fatalError("locate returned \(container.items.count) items for \(items.count)")
        }
        for (index, item) in container.items.enumerated().dropFirst() {
            if let range = item.range {
                guard range.lowerBound >= primaryEnd, range.upperBound <= file.count,
                      GoogleContainer.hasSignature(item.mime, at: range, in: file) else {
                    fatalError("item \(index + 1) (\(item.semantic)) located at \(range) in \(file.count) bytes")
                }
            } else if item.problem == nil {
                fatalError("item \(index + 1) (\(item.semantic)) has neither a range nor a problem")
            }
        }
    }
}
