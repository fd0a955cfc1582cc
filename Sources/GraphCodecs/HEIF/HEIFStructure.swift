/// The item structure of a HEIF file (ISO/IEC 23008-12 on ISOBMFF), read from its `meta` box
/// without decoding anything: items, their properties, the references between them and where
/// their data lies. `graph info` and the depth reader use it; libheif decodes the pixels.
///
/// `parse(_:)` is a pure, bounds-checked function of the bytes: every count is checked against
/// the bytes left before anything is allocated, boxes nest at fixed places only (no recursion).
package struct HEIFStructure: Sendable, Equatable {
    /// One item of the `iinf` box with its associated properties.
    package struct Item: Sendable, Equatable {
        /// The item's id.
        package var id: UInt32
        /// Item type: `hvc1`, `av01`, `grid`, `iden`, `Exif`, `mime` ...
        package var type: String
        /// The item's name (`infe` name), often empty.
        package var name: String
        /// For `mime` items: the content type (`application/rdf+xml` for XMP).
        package var contentType: String?
        /// The `infe` hidden flag (tiles, auxiliary images).
        package var hidden: Bool
        /// Associated properties in `ipma` order (transformations apply in this order).
        package var properties: [Property]
    }

    /// An item property from `ipco`.
    package enum Property: Sendable, Equatable {
        /// `ispe`: stored width and height.
        case spatialExtent(width: Int, height: Int)
        /// `irot`: rotation anticlockwise by `quarterTurns` × 90°.
        case rotation(quarterTurns: Int)
        /// `imir`: mirroring about a vertical axis (0: left and right swap) or a horizontal one (1).
        case mirror(axis: Int)
        /// `pixi`: bits per channel.
        case pixelInformation(bitsPerChannel: [Int])
        /// `auxC`: the auxiliary type URN and its subtype bytes.
        case auxiliaryType(urn: String, subtype: [UInt8])
        /// `colr` with an ICC profile (`prof` or `rICC`).
        case iccProfile([UInt8])
        /// `colr` `nclx`: CICP code points.
        case nclx(primaries: Int, transfer: Int, matrix: Int, fullRange: Bool)
        /// Any other property box, by type.
        case other(String)
    }

    /// An `iref` reference: `from` refers to each of `to` (`auxl`: an auxiliary image to its
    /// master, `cdsc`: metadata to what it describes, `dimg`: a grid to its tiles, `thmb`).
    package struct Reference: Sendable, Equatable {
        /// The reference type (`auxl`, `cdsc`, `dimg`, `thmb`...).
        package var type: String
        /// The item the reference is from.
        package var from: UInt32
        /// The items it refers to.
        package var to: [UInt32]
    }

    /// Where an item's data lies (`iloc`).
    package struct Location: Sendable, Equatable {
        /// 0: file offsets; 1: offsets into `idat`; 2: item references (not read).
        package var constructionMethod: Int
        /// The data's extents: offset (per ``constructionMethod``) and length.
        package var extents: [(offset: Int, length: Int)]

        /// Equal when method and extents are.
        package static func == (a: Location, b: Location) -> Bool {
            a.constructionMethod == b.constructionMethod && a.extents.elementsEqual(b.extents, by: { $0 == $1 })
        }
    }

    /// The `ftyp` major brand (`heic`, `mif1`...).
    package var majorBrand: String
    /// The `ftyp` compatible brands.
    package var compatibleBrands: [String]
    /// The primary item (`pitm`): the main image.
    package var primaryItemID: UInt32
    /// Every item, in `iinf` order.
    package var items: [Item]
    /// Every item reference (`iref`).
    package var references: [Reference]
    /// Where each item's data is (`iloc`), by item id.
    package var locations: [UInt32: Location]
    /// The `idat` box's payload in the file.
    package var itemDataRange: Range<Int>?

    /// Largest metadata item read into memory (Exif, XMP).
    package static let maxItemDataBytes = 64 << 20

    /// The item with id `id`, if any.
    package func item(_ id: UInt32) -> Item? { items.first { $0.id == id } }

    /// Items that refer to `id` with a reference of `type` (e.g. the `auxl` images of the primary).
    package func items(referring type: String, to id: UInt32) -> [Item] {
        references.filter { $0.type == type && $0.to.contains(id) }.compactMap { item($0.from) }
    }

    /// The bytes of an item's data (Exif, XMP), from file offsets or `idat`.
    package func data(of id: UInt32, in bytes: [UInt8]) throws(CodecError) -> [UInt8] {
        guard let location = locations[id] else {
            throw HEIFStructure.failure("item \(id) has no location in iloc", box: "iloc")
        }
        var out: [UInt8] = []
        for extent in location.extents {
            let base: Int
            let limit: Int
            switch location.constructionMethod {
            case 0: (base, limit) = (0, bytes.count)
            case 1:
                guard let idat = itemDataRange else { throw HEIFStructure.failure("item \(id) lies in idat but there is none", box: "iloc") }
                (base, limit) = (idat.lowerBound, idat.upperBound)
            default:
                throw CodecError(.unsupported, "item \(id) uses iloc construction method \(location.constructionMethod)", format: .heif, segment: "iloc")
            }
            let (start, overflow) = base.addingReportingOverflow(extent.offset)
            guard !overflow, extent.length >= 0, start >= base, start <= limit, extent.length <= limit - start else {
                throw HEIFStructure.failure("item \(id)'s data (offset \(extent.offset), \(extent.length) bytes) lies outside the file", box: "iloc")
            }
            guard out.count + extent.length <= Self.maxItemDataBytes else {
                throw CodecError(.tooLarge, "item \(id) is larger than \(Self.maxItemDataBytes) bytes", format: .heif, segment: "iloc")
            }
            out += bytes[start..<(start + extent.length)]
        }
        return out
    }

    static func failure(_ message: String, box: String) -> CodecError {
        CodecError(.corrupt, message, format: .heif, segment: box)
    }

    // MARK: Parsing

    /// Parses the `ftyp` and `meta` boxes of a HEIF file.
    package static func parse(_ bytes: [UInt8]) throws(CodecError) -> HEIFStructure {
        let top = try BoxCursor(bytes, range: 0..<bytes.count).boxes()
        guard let ftyp = top.first(where: { $0.type == "ftyp" }) else {
            throw failure("no ftyp box", box: "ftyp")
        }
        let reader = ByteReader(bytes)
        guard ftyp.payload.count >= 8, let major = reader.fourCC(ftyp.payload.lowerBound) else {
            throw failure("ftyp box too short", box: "ftyp")
        }
        var brands: [String] = []
        var at = ftyp.payload.lowerBound + 8
        while at + 4 <= ftyp.payload.upperBound, let brand = reader.fourCC(at) {
            brands.append(brand)
            at += 4
        }
        guard let meta = top.first(where: { $0.type == "meta" }) else { throw failure("no meta box", box: "meta") }
        guard meta.payload.count >= 4 else { throw failure("meta box too short", box: "meta") }
        let children = try BoxCursor(bytes, range: (meta.payload.lowerBound + 4)..<meta.payload.upperBound).boxes()

        var structure = HEIFStructure(majorBrand: major, compatibleBrands: brands, primaryItemID: 0, items: [],
                                      references: [], locations: [:], itemDataRange: nil)
        guard let pitm = children.first(where: { $0.type == "pitm" }) else { throw failure("no primary item (pitm)", box: "pitm") }
        var cursor = FieldReader(bytes, pitm.payload, box: "pitm")
        let (pitmVersion, _) = try cursor.fullBoxHeader()
        structure.primaryItemID = pitmVersion == 0 ? UInt32(try cursor.u16()) : try cursor.u32()

        guard let iinf = children.first(where: { $0.type == "iinf" }) else { throw failure("no item information (iinf)", box: "iinf") }
        structure.items = try parseItemInfo(bytes, iinf)
        if let iref = children.first(where: { $0.type == "iref" }) { structure.references = try parseReferences(bytes, iref) }
        if let iloc = children.first(where: { $0.type == "iloc" }) { structure.locations = try parseLocations(bytes, iloc) }
        structure.itemDataRange = children.first(where: { $0.type == "idat" })?.payload
        if let iprp = children.first(where: { $0.type == "iprp" }) {
            let parts = try BoxCursor(bytes, range: iprp.payload).boxes()
            if let ipco = parts.first(where: { $0.type == "ipco" }) {
                let properties = try BoxCursor(bytes, range: ipco.payload).boxes().map { parseProperty(bytes, $0) }
                for ipma in parts where ipma.type == "ipma" {
                    try associate(bytes, ipma, properties: properties, items: &structure.items)
                }
            }
        }
        guard structure.item(structure.primaryItemID) != nil else {
            throw failure("the primary item \(structure.primaryItemID) is not in iinf", box: "pitm")
        }
        return structure
    }

    static func parseItemInfo(_ bytes: [UInt8], _ iinf: Box) throws(CodecError) -> [Item] {
        var cursor = FieldReader(bytes, iinf.payload, box: "iinf")
        let (version, _) = try cursor.fullBoxHeader()
        let count = version == 0 ? Int(try cursor.u16()) : Int(try cursor.u32())
        let entries = try BoxCursor(bytes, range: cursor.position..<iinf.payload.upperBound).boxes()
        if entries.count < count {
            throw failure("iinf announces \(count) items but holds \(entries.count)", box: "iinf")
        }
        var items: [Item] = []
        for entry in entries where entry.type == "infe" {
            var field = FieldReader(bytes, entry.payload, box: "infe")
            let (infeVersion, flags) = try field.fullBoxHeader()
            var item = Item(id: 0, type: "mime", name: "", contentType: nil, hidden: flags & 1 != 0, properties: [])
            if infeVersion >= 2 {
                item.id = infeVersion == 2 ? UInt32(try field.u16()) : try field.u32()
                _ = try field.u16()  // protection index
                item.type = try field.fourCC()
                item.name = field.string()
                if item.type == "mime" { item.contentType = field.string() }
            } else {
                item.id = UInt32(try field.u16())
                _ = try field.u16()
                item.name = field.string()
                item.contentType = field.string()
            }
            items.append(item)
        }
        return items
    }

    static func parseReferences(_ bytes: [UInt8], _ iref: Box) throws(CodecError) -> [Reference] {
        var cursor = FieldReader(bytes, iref.payload, box: "iref")
        let (version, _) = try cursor.fullBoxHeader()
        var references: [Reference] = []
        for box in try BoxCursor(bytes, range: cursor.position..<iref.payload.upperBound).boxes() {
            var field = FieldReader(bytes, box.payload, box: "iref \(box.type)")
            let from = version == 0 ? UInt32(try field.u16()) : try field.u32()
            let count = Int(try field.u16())
            try field.require(count * (version == 0 ? 2 : 4), what: "\(count) references")
            var to: [UInt32] = []
            for _ in 0..<count { to.append(version == 0 ? UInt32(try field.u16()) : try field.u32()) }
            references.append(Reference(type: box.type, from: from, to: to))
        }
        return references
    }

    static func parseLocations(_ bytes: [UInt8], _ iloc: Box) throws(CodecError) -> [UInt32: Location] {
        var field = FieldReader(bytes, iloc.payload, box: "iloc")
        let (version, _) = try field.fullBoxHeader()
        guard version <= 2 else { throw CodecError(.unsupported, "iloc version \(version)", format: .heif, segment: "iloc") }
        let sizes = try field.u16()
        let offsetSize = Int(sizes >> 12), lengthSize = Int(sizes >> 8 & 0xF), baseOffsetSize = Int(sizes >> 4 & 0xF)
        let indexSize = version >= 1 ? Int(sizes & 0xF) : 0
        for size in [offsetSize, lengthSize, baseOffsetSize, indexSize] where ![0, 4, 8].contains(size) {
            throw failure("iloc field size \(size) is not 0, 4 or 8", box: "iloc")
        }
        let count = version < 2 ? Int(try field.u16()) : Int(try field.u32())
        try field.require(count * (version < 2 ? 2 : 4), what: "\(count) item locations")
        var locations: [UInt32: Location] = [:]
        for _ in 0..<count {
            let id = version < 2 ? UInt32(try field.u16()) : try field.u32()
            var method = 0
            if version >= 1 { method = Int(try field.u16() & 0xF) }
            _ = try field.u16()  // data reference index
            let base = try field.sized(baseOffsetSize)
            let extentCount = Int(try field.u16())
            let extentBytes = indexSize + offsetSize + lengthSize
            // Extents of no bytes each would let a few bytes of iloc list billions of them.
            guard extentBytes > 0 || extentCount <= 1 else {
                throw failure("item \(id) lists \(extentCount) extents but iloc gives them neither offset nor length fields", box: "iloc")
            }
            try field.require(extentCount * extentBytes, what: "\(extentCount) extents")
            var extents: [(offset: Int, length: Int)] = []
            for _ in 0..<extentCount {
                _ = try field.sized(indexSize)
                let offset = try field.sized(offsetSize)
                let length = try field.sized(lengthSize)
                let (sum, overflow) = base.addingReportingOverflow(offset)
                guard !overflow else { throw failure("item \(id)'s extent offset overflows", box: "iloc") }
                extents.append((sum, length))
            }
            locations[id] = Location(constructionMethod: method, extents: extents)
        }
        return locations
    }

    static func parseProperty(_ bytes: [UInt8], _ box: Box) -> Property {
        var field = FieldReader(bytes, box.payload, box: box.type)
        do throws(CodecError) {
            switch box.type {
            case "ispe":
                _ = try field.fullBoxHeader()
                return .spatialExtent(width: Int(try field.u32()), height: Int(try field.u32()))
            case "irot":
                return .rotation(quarterTurns: Int(try field.u8() & 3))
            case "imir":
                return .mirror(axis: Int(try field.u8() & 1))
            case "pixi":
                _ = try field.fullBoxHeader()
                let channels = Int(try field.u8())
                var bits: [Int] = []
                for _ in 0..<channels { bits.append(Int(try field.u8())) }
                return .pixelInformation(bitsPerChannel: bits)
            case "auxC":
                _ = try field.fullBoxHeader()
                let urn = field.string()
                return .auxiliaryType(urn: urn, subtype: Array(bytes[field.position..<box.payload.upperBound]))
            case "colr":
                let kind = try field.fourCC()
                if kind == "nclx" {
                    let primaries = Int(try field.u16()), transfer = Int(try field.u16()), matrix = Int(try field.u16())
                    return .nclx(primaries: primaries, transfer: transfer, matrix: matrix, fullRange: try field.u8() & 0x80 != 0)
                }
                if kind == "prof" || kind == "rICC" {
                    return .iccProfile(Array(bytes[field.position..<box.payload.upperBound]))
                }
                return .other("colr \(kind)")
            default:
                return .other(box.type)
            }
        } catch {
            return .other("\(box.type) (malformed)")
        }
    }

    static func associate(_ bytes: [UInt8], _ ipma: Box, properties: [Property], items: inout [Item]) throws(CodecError) {
        var field = FieldReader(bytes, ipma.payload, box: "ipma")
        let (version, flags) = try field.fullBoxHeader()
        let count = Int(try field.u32())
        try field.require(count * (version < 1 ? 3 : 5), what: "\(count) property associations")
        var positions: [UInt32: Int] = [:]
        for (at, item) in items.enumerated() where positions[item.id] == nil { positions[item.id] = at }
        for _ in 0..<count {
            let id = version < 1 ? UInt32(try field.u16()) : try field.u32()
            let associations = Int(try field.u8())
            var associated: [Property] = []
            for _ in 0..<associations {
                let index = flags & 1 != 0 ? Int(try field.u16() & 0x7FFF) : Int(try field.u8() & 0x7F)
                guard index > 0 else { continue }  // 0: no property
                guard index <= properties.count else {
                    throw failure("item \(id) names property \(index) but ipco has \(properties.count)", box: "ipma")
                }
                associated.append(properties[index - 1])
            }
            if let at = positions[id] { items[at].properties += associated }
        }
    }
}

/// A box: its type and payload range in the file.
struct Box {
    var type: String
    var payload: Range<Int>
}

/// Splits a byte range into consecutive boxes.
struct BoxCursor {
    let bytes: [UInt8]
    let range: Range<Int>

    init(_ bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        self.range = range
    }

    /// At most this many boxes at one level (real files have a few dozen to a few thousand).
    static let maxBoxes = 1 << 16

    func boxes() throws(CodecError) -> [Box] {
        let reader = ByteReader(bytes)
        var boxes: [Box] = []
        var position = range.lowerBound
        while position < range.upperBound {
            guard range.upperBound - position >= 8, let size32 = reader.u32(position), let type = reader.fourCC(position + 4) else {
                throw HEIFStructure.failure("a box header at offset \(position) runs past its container", box: "box")
            }
            var header = 8
            var size = Int(size32)
            if size32 == 1 {
                guard range.upperBound - position >= 16, let high = reader.u32(position + 8), let low = reader.u32(position + 12),
                      high < 0x8000_0000 else {
                    throw HEIFStructure.failure("the 64-bit size of box '\(type)' at offset \(position) is unreadable", box: type)
                }
                size = Int(high) << 32 | Int(low)
                header = 16
            } else if size32 == 0 {
                size = range.upperBound - position
            }
            if type == "uuid" { header += 16 }
            guard size >= header, size <= range.upperBound - position else {
                throw HEIFStructure.failure("box '\(type)' at offset \(position) claims \(size) bytes but \(range.upperBound - position) remain", box: type)
            }
            boxes.append(Box(type: type, payload: (position + header)..<(position + size)))
            guard boxes.count <= Self.maxBoxes else {
                throw HEIFStructure.failure("more than \(Self.maxBoxes) boxes in one container", box: type)
            }
            position += size
        }
        return boxes
    }
}

/// Reads big-endian fields inside one box, failing with the box's name when they run past it.
struct FieldReader {
    let bytes: [UInt8]
    let end: Int
    let box: String
    var position: Int

    init(_ bytes: [UInt8], _ range: Range<Int>, box: String) {
        self.bytes = bytes
        self.end = range.upperBound
        self.box = box
        self.position = range.lowerBound
    }

    func require(_ count: Int, what: String) throws(CodecError) {
        guard count >= 0, count <= end - position else {
            throw HEIFStructure.failure("\(what) do not fit in the '\(box)' box", box: box)
        }
    }

    mutating func u8() throws(CodecError) -> UInt8 {
        try require(1, what: "fields")
        defer { position += 1 }
        return bytes[position]
    }

    mutating func u16() throws(CodecError) -> UInt16 {
        try require(2, what: "fields")
        defer { position += 2 }
        return UInt16(bytes[position]) << 8 | UInt16(bytes[position + 1])
    }

    mutating func u32() throws(CodecError) -> UInt32 {
        try require(4, what: "fields")
        defer { position += 4 }
        return (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[position + $1]) }
    }

    /// An unsigned field of 0, 4 or 8 bytes (iloc), refused above Int.max / 2.
    mutating func sized(_ size: Int) throws(CodecError) -> Int {
        switch size {
        case 0: return 0
        case 4: return Int(try u32())
        default:
            let high = try u32(), low = try u32()
            guard high < 0x4000_0000 else { throw HEIFStructure.failure("a 64-bit field is out of range", box: box) }
            return Int(high) << 32 | Int(low)
        }
    }

    mutating func fourCC() throws(CodecError) -> String {
        try require(4, what: "fields")
        defer { position += 4 }
        return FileText.escaped(bytes[position..<position + 4])
    }

    /// Version and flags of a FullBox.
    mutating func fullBoxHeader() throws(CodecError) -> (version: Int, flags: UInt32) {
        let word = try u32()
        return (Int(word >> 24), word & 0xFF_FFFF)
    }

    /// A NUL-terminated UTF-8 string (to the end of the box when unterminated).
    mutating func string() -> String {
        let start = min(position, end)
        var stop = start
        while stop < end, bytes[stop] != 0 { stop += 1 }
        position = min(end, stop + 1)
        return String(decoding: bytes[start..<stop], as: UTF8.self)
    }
}
