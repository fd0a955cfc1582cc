import GraphCodecs

extension Context {
    /// A Dynamic Depth output (depth-formats.md 4): the container's items encoded (or copied while
    /// unchanged) in the photo's directory order, except that a kept gain map goes first, right
    /// after the primary, where the MPF index names it as Ultra HDR readers expect; and the XMP
    /// packets rewritten to list them (`DynamicDepthPackets` of GraphCodecs). The items are
    /// made before the primary: their lengths are part of the primary's XMP.
    func dynamicDepthOutput(_ options: ImageWriteOptions, depth: DepthData, container: DynamicDepthContainer, quality: Int) throws
        -> (options: ImageWriteOptions, appended: AppendedImages)
    {
        var items = container.items
        if let gain = items.firstIndex(where: { if case .gainMap = $0.content { return true } else { return false } }), gain > 0 {
            items.insert(items.remove(at: gain), at: 0)
        }
        var encoded: [[UInt8]] = []
        var depthRange: DynamicDepthPackets.DepthRange?
        for item in items {
            switch item.content {
            case .depth:
                let (bytes, range) = try dynamicDepthMap(depth, mime: item.mime, description: container.description, quality: quality)
                encoded.append(bytes)
                depthRange = range
            case .confidence(let map), .gainMap(let map, _):
                if let bytes = item.unchangedStoredBytes {
                    encoded.append(bytes)
                    continue
                }
                // A gain map keeps its packet and the quality its own tables are nearest to (its
                // values are an image's, not data a lossy step would bend); confidence: the maps' quality.
                var xmp: String?, itemQuality = quality
                if case .gainMap(_, let packet) = item.content {
                    xmp = packet
                    itemQuality = item.storedQuality ?? quality
                }
                let values = try mapValues(map, what: "the Dynamic Depth \(item.semantic) item")
                encoded.append(try greyItem(values.quantized { $0 }, width: values.width, height: values.height, mime: item.mime,
                                            quality: itemQuality, xmp: xmp))
            case .original(let image, let own):
                if let bytes = item.unchangedStoredBytes {
                    encoded.append(bytes)
                } else {
                    let written = ImageWriteOptions(quality: own?.quality ?? options.quality, subsampling: options.subsampling,
                                                    progressive: options.progressive)
                    encoded.append(try originalItem(image, own: own, options: written, mapQuality: quality))
                }
            }
        }
        let keptSemantics = Set(items.map { $0.semantic.lowercased() })
        func drops(_ semantic: String) -> Bool {
            container.sourceSemantics.contains { $0.lowercased() == semantic } && !keptSemantics.contains(semantic)
        }
        let directory = [DynamicDepthPackets.Item(semantic: "Primary", mime: "image/jpeg", length: 0)]
            + zip(items, encoded).map { DynamicDepthPackets.Item(semantic: $0.semantic, mime: $0.mime, length: $1.count, dataURI: $0.dataURI) }
        let source = container.description.imagingModel
        let changes = DynamicDepthPackets.Changes(
            directory: directory, depthRange: depthRange, dropsGainMap: drops("gainmap"), dropsOriginal: drops("original"),
            dropsImagingModel: source != nil && container.imagingModel == nil,
            imagingModel: container.imagingModel == source ? nil : container.imagingModel, dropsFrameNotes: container.pixelsMoved)
        // The carried main packet (regions moved with the edit) when it still holds the directory.
        let main = options.metadata?.xmp.flatMap { GoogleContainer.isPresent(inMainPacket: $0) ? $0 : nil } ?? container.mainPacket
        let packets = try DynamicDepthPackets.rewrite(main: main, extended: container.extendedPacket, changes: changes)
        var options = options
        options.replacedXMP = XMPPackets(main: packets.main, extended: packets.extended)
        let indexed = items.first.map { if case .gainMap = $0.content { return 1 } else { return 0 } } ?? 0
        return (options, AppendedImages(made: encoded, indexed: indexed))
    }

    /// A re-encoded Original item: `image` as a JPEG written with `options` (the quality the
    /// source Original's tables are nearest to, else the primary's; the primary's subsampling and
    /// scan mode), with the Original's own EXIF and XMP (`own`) and, when
    /// it had one, its gain map appended (copied while unchanged, else an 8-bit grey JPEG at the
    /// quality its own tables are nearest to, `mapQuality` when they give none, with its `hdrgm:`
    /// packet) and indexed by an MPF segment, the Original's
    /// `Container:Directory` listing it with its new length, as an Ultra HDR JPEG is laid out.
    /// Without `own`, a plain JPEG.
    func originalItem(_ image: Image, own: DynamicDepthContainer.Item.OriginalStructure?, options: ImageWriteOptions,
                      mapQuality: Int) throws -> [UInt8] {
        guard let own else { return try encodedData(image, format: .jpeg, options: options) }
        var gainMap: [UInt8]?
        if let map = own.gainMap {
            if let bytes = own.unchangedGainMapBytes {
                gainMap = bytes
            } else {
                let values = try mapValues(map, what: "the Dynamic Depth Original's gain map")
                gainMap = try greyItem(values.quantized { $0 }, width: values.width, height: values.height, mime: "image/jpeg",
                                       quality: own.gainMapQuality ?? mapQuality, xmp: own.gainMapPacket)
            }
        }
        var options = options
        // The packets go in as replacements: carried ones naming a Google container would be dropped.
        options.metadata = ImageMetadata(format: .jpeg)
        options.metadata?.exif = own.exif
        var packets = XMPPackets(main: own.mainPacket, extended: own.extendedPacket)
        if let main = own.mainPacket, GoogleContainer.isPresent(inMainPacket: main) {
            let directory = [DynamicDepthPackets.Item(semantic: "Primary", mime: "image/jpeg", length: 0)]
                + (gainMap.map { [DynamicDepthPackets.Item(semantic: "GainMap", mime: "image/jpeg", length: $0.count)] } ?? [])
            let rewritten = try DynamicDepthPackets.rewrite(main: main, extended: own.extendedPacket,
                                                            changes: DynamicDepthPackets.Changes(directory: directory, dropsGainMap: gainMap == nil))
            packets = XMPPackets(main: rewritten.main, extended: rewritten.extended)
        }
        options.replacedXMP = packets
        let primary = try encodedData(image, format: .jpeg, options: options)
        guard let gainMap else { return primary }
        return try AppendedImages(made: [gainMap], indexed: 1).assemble(primary: primary)
    }

    /// The depth map as the item of `mime`: the file's bytes while unchanged; else its depths
    /// (metres, or the file's unit) in the photo's Format over the photo's Near...Far when they
    /// fit in it (the XMP keeps its values), else over their own range (returned, in the file's
    /// units: in diopters the smaller value is `Near`, as a Pixel writes it), 8-bit, or 16-bit in a
    /// PNG item when the file's map was 16-bit.
    func dynamicDepthMap(_ depth: DepthData, mime: String, description: DynamicDepthMetadata, quality: Int) throws
        -> (bytes: [UInt8], range: DynamicDepthPackets.DepthRange?)
    {
        if let stored = depth.unchangedStoredMap, case .containerItem(let bytes) = stored.encoded { return (bytes, nil) }
        let values = try mapValues(depth.converting(to: .depth).map, what: "the depth map")
        guard let (low, high) = values.finiteRange else {
            throw GraphError.invalidParameter(filter: "output", key: "auxiliaryImages.depthData", reason: "the depth map has no finite value")
        }
        let photo = description.gDepthEquivalent
        var metadata = GDepthMetadata(format: photo.format, near: photo.near, far: photo.far, mime: mime, data: [])
        var range: DynamicDepthPackets.DepthRange?
        let tolerance = 1e-6 * max(abs(photo.near), abs(photo.far))
        if low < min(photo.near, photo.far) - tolerance || high > max(photo.near, photo.far) + tolerance {
            let format: GDepthMetadata.Format = low > 0 ? photo.format : .rangeLinear
            let far = high > low ? high : low + max(abs(low) * 1e-6, 1e-6)
            metadata = GDepthMetadata(format: format, near: low, far: far, mime: mime, data: [])
            let diopters = description.units?.lowercased() == "diopters"
            guard !diopters || low > 0 else {
                throw GraphError.invalidParameter(filter: "output", key: "auxiliaryImages.depthData",
                                                  reason: "the depth map has depths down to \(low), which diopters cannot express")
            }
            range = diopters ? DynamicDepthPackets.DepthRange(format: format, near: 1 / far, far: 1 / low)
                : DynamicDepthPackets.DepthRange(format: format, near: low, far: far)
        }
        // A 16-bit map in a PNG item stays 16-bit (a JPEG item is 8-bit).
        if depth.storedBitDepth == 16 && mime.lowercased() == "image/png" {
            let samples = values.quantized16 { metadata.normalized(depth: $0) }
            return (try PNGCodec.encode(width: values.width, height: values.height, channels: 1, bitDepth: 16, bytes: samples), range)
        }
        let samples = values.quantized { metadata.normalized(depth: $0) }
        return (try greyItem(samples, width: values.width, height: values.height, mime: mime, quality: quality, xmp: nil), range)
    }

    /// 8-bit grey samples as a container item: PNG when `mime` says so, else JPEG (with `xmp`).
    func greyItem(_ samples: [UInt8], width: Int, height: Int, mime: String, quality: Int, xmp: String?) throws -> [UInt8] {
        if mime.lowercased() == "image/png" {
            return try PNGCodec.encode(width: width, height: height, channels: 1, bitDepth: 8, bytes: samples)
        }
        return try JPEGCodec.encode(width: width, height: height, channels: 1, bytes: samples, quality: quality, xmp: xmp)
    }
}
