@testable import GraphCodecs
@testable import GraphIO

extension FuzzTarget {
    /// A HEIF file: the item structure (`HEIFStructure.parse`) and each item's data, the header
    /// and metadata as `graph info` reads them (auxiliary items described, their depth SEI
    /// parsed), then through libheif: the primary image and every auxiliary item decoded, with
    /// the small pixel limit.
    static let heif = FuzzTarget(name: "heif") { bytes in
        guard let structure = try? HEIFStructure.parse(bytes) else { return }
        for item in structure.items {
            _ = try? structure.data(of: item.id, in: bytes)
        }
        guard let info = try? HEIFCodec.readInfo(bytes) else { return }
        _ = try? HEIFCodec.decode(bytes, options: smallImages)
        for auxiliary in info.auxiliaryImages {
            guard case .heifItem(let id) = auxiliary.location else { continue }
            _ = try? HEIFCodec.decodeAuxiliary(bytes, itemID: id, options: smallImages)
        }
    }

    /// The `auxC` subtype of a HEIC depth item: NAL units holding the HEVC depth representation
    /// SEI (d_min/d_max, z_near/z_far), as Apple stores the map's range; then the map's value
    /// range as `graph info` shows it and the table that turns stored samples into values.
    static let hevcDepth = FuzzTarget(name: "hevc-depth") { bytes in
        guard let depth = HEVCDepthRepresentation.parse(auxiliarySubtype: bytes) else { return }
        var info = AuxiliaryImageInfo(kind: .disparity, type: "urn:mpeg:hevc:2015:auxid:2", location: .heifItem(2), width: 8,
                                      height: 6, channels: 1, bitDepth: 8, codec: "HEVC", orientation: 1)
        info.depthRepresentation = depth
        _ = info.valueRange
        _ = info.summary
        guard DepthValues.range(of: depth) != nil else { return }
        _ = DepthValues.table(maximum: 255, encoding: .depthRepresentation(depth))
    }
}
