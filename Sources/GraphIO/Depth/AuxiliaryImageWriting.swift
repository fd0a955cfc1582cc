import GraphCodecs

extension Context {
    /// The options a JPEG or PNG output is finally written with, and the auxiliary JPEGs to
    /// append after the primary (Apple style, see `MPF.assemble`), as work still to do: they do not
    /// depend on the primary, so they can render beside it.
    ///
    /// - Apple: each map renders to values (as data), is normalised over its own minimum and
    ///   maximum (the recomputed FloatMin/FloatMax) to 8 bits and written as a grey JPEG with
    ///   its Apple XMP; a map still as the file stored it is copied byte for byte.
    /// - GDepth: the depth (disparity is converted) is normalised between its minimum (Near)
    ///   and maximum (Far) in the file's Format (RangeInverse by default) to an 8-bit grey PNG
    ///   (16-bit when the file's map was);
    ///   main and extended XMP packets replace the carried ones.
    /// - Dynamic Depth: the container's items made first (their lengths go into the primary's
    ///   XMP), see `dynamicDepthOutput`.
    /// - A carried XMP packet describing GDepth or a Google container (Dynamic Depth, Ultra HDR)
    ///   is dropped when neither is written: its depth map would no longer match the pixels,
    ///   and the container's items are not appended to the output.
    /// NaN values (holes) are written as the range's minimum: 8-bit maps cannot hold them.
    func preparingAuxiliaryImages(_ options: ImageWriteOptions, format: OutputFileFormat) throws
        -> (options: ImageWriteOptions, appended: AppendedImages?)
    {
        var options = options
        let auxiliary = options.auxiliaryImages
        let carriesGDepth = options.metadata?.xmp.map { GDepth.isPresent(inMainPacket: $0) || GoogleContainer.isPresent(inMainPacket: $0) } ?? false
        if auxiliary.isEmpty || !format.saving.carriesAuxiliaryImages {
            if carriesGDepth { options.replacedXMP = XMPPackets(main: nil, extended: nil) }
            return (options, nil)
        }
        let container = auxiliary.writtenFormat
        switch container {
        case .appleHEIC:
            throw GraphError.invalidParameter(filter: "output", key: "auxiliaryImages.format", reason: container.unwritableReason ?? "")
        case .appleJPEG:
            if carriesGDepth { options.replacedXMP = XMPPackets(main: nil, extended: nil) }
            return (options, AppendedImages { [self] in
                var appended: [[UInt8]] = []
                if let depth = auxiliary.depthData { appended.append(try appleJPEG(depth, quality: auxiliary.quality)) }
                if let matte = auxiliary.portraitEffectsMatte { appended.append(try appleJPEG(matte, quality: auxiliary.quality)) }
                for carried in auxiliary.carriedMaps { appended.append(try appleJPEG(carried, quality: auxiliary.quality)) }
                return appended
            })
        case .gDepth:
            guard let depth = auxiliary.depthData else { return (options, nil) }
            var metadata = try gDepthMetadata(depth)
            if let original = auxiliary.originalImage {
                // Still the file's GImage: copied as is; otherwise rendered.
                if case .file(let source as JPEGFileSource) = original.node.kind {
                    metadata.originalImage = try source.fileBytes()
                } else {
                    metadata.originalImage = try encodedData(original, format: .jpeg,
                                                             options: ImageWriteOptions(quality: auxiliary.quality))
                }
                metadata.originalImageMime = "image/jpeg"
            }
            let focus = options.metadata?.xmp.map(GDepth.focusProperties(inMainPacket:)) ?? []
            let packets = GDepth.packets(metadata, focus: focus)
            options.replacedXMP = XMPPackets(main: packets.main, extended: packets.extended)
            return (options, nil)
        case .dynamicDepth:
            guard let depth = auxiliary.depthData, let container = auxiliary.dynamicDepth else {
                if carriesGDepth { options.replacedXMP = XMPPackets(main: nil, extended: nil) }
                return (options, nil)
            }
            let (written, appended) = try dynamicDepthOutput(options, depth: depth, container: container, quality: auxiliary.quality)
            return (written, appended)
        }
    }

    /// A depth map as an Apple auxiliary JPEG.
    func appleJPEG(_ depth: DepthData, quality: Int) throws -> [UInt8] {
        if let stored = depth.unchangedStoredMap, case .appleJPEG(let bytes) = stored.encoded { return bytes }
        let map = try mapValues(depth.map, what: "the \(depth.kind.rawValue) map")
        guard let (low, high) = map.finiteRange else {
            throw GraphError.invalidParameter(filter: "output", key: "auxiliaryImages.depthData",
                                              reason: "the \(depth.kind.rawValue) map has no finite value")
        }
        var apple = AppleAuxiliaryMetadata()
        apple.auxiliaryImageType = depth.kind.rawValue
        if case .apple(_, _, _, _, let native, _)? = depth.storedEncoding, depth.storedKind == depth.kind {
            apple.nativeFormat = native
        } else {
            apple.nativeFormat = AppleAuxiliaryMetadata.code(depth.kind == .disparity ? "hdis" : "hdep")
        }
        apple.storedFormat = AppleAuxiliaryMetadata.code("L008")
        (apple.floatMinValue, apple.floatMaxValue, apple.intMinValue, apple.intMaxValue) = (low, high, 0, 255)
        apple.depthDataVersion = depth.version ?? 65538
        apple.accuracy = (depth.accuracy ?? .relative).rawValue
        apple.filtered = depth.isFiltered ?? false
        apple.quality = depth.quality
        apple.calibration = depth.calibration
        let samples = map.quantized { high > low ? ($0 - low) / (high - low) : 0 }
        return try JPEGCodec.encode(width: map.width, height: map.height, channels: 1, bytes: samples, quality: quality,
                                    xmp: AppleDepthXMP.packet(apple))
    }

    /// A portrait matte as an Apple auxiliary JPEG (values 0...1 to 0...255).
    func appleJPEG(_ matte: PortraitEffectsMatte, quality: Int) throws -> [UInt8] {
        if let stored = matte.unchangedStoredMap, case .appleJPEG(let bytes) = stored.encoded { return bytes }
        let map = try mapValues(matte.map, what: "the portrait matte")
        var apple = AppleAuxiliaryMetadata()
        apple.portraitEffectsMatteVersion = matte.version ?? 65536
        apple.auxiliaryImageType = "depth"  // as Apple writes it; the sub-type says what it is
        apple.auxiliaryImageSubType = "portraiteffectsmatte"
        apple.nativeFormat = AppleAuxiliaryMetadata.code("L008")
        apple.storedFormat = apple.nativeFormat
        return try JPEGCodec.encode(width: map.width, height: map.height, channels: 1, bytes: map.quantized { $0 }, quality: quality,
                                    xmp: AppleDepthXMP.packet(apple))
    }

    /// The GDepth depth map and properties of `depth`: the file's own while the map is unchanged.
    func gDepthMetadata(_ depth: DepthData) throws -> GDepthMetadata {
        if let stored = depth.unchangedStoredMap, case .gDepth(let metadata) = stored.encoded {
            var kept = metadata
            kept.originalImage = nil
            kept.originalImageMime = nil
            return kept
        }
        let values = try mapValues(depth.converting(to: .depth).map, what: "the depth map")
        guard let (low, high) = values.finiteRange else {
            throw GraphError.invalidParameter(filter: "output", key: "auxiliaryImages.depthData", reason: "the depth map has no finite value")
        }
        var format: GDepthMetadata.Format = .rangeInverse
        var units: String?
        if case .gDepth(let stored, _, _, let storedUnits)? = depth.storedEncoding { (format, units) = (stored, storedUnits) }
        if low <= 0 { format = .rangeLinear }  // RangeInverse needs positive depths
        let far = high > low ? high : low + max(abs(low) * 1e-6, 1e-6)
        var metadata = GDepthMetadata(format: format, near: low, far: far, units: units, mime: "image/png", data: [])
        // A 16-bit map stays 16-bit: its PNG is written at the precision it was read with.
        let range = metadata
        let deep = depth.storedBitDepth == 16
        let samples = deep ? values.quantized16 { range.normalized(depth: $0) } : values.quantized { range.normalized(depth: $0) }
        metadata.data = try PNGCodec.encode(width: values.width, height: values.height, channels: 1, bitDepth: deep ? 16 : 8,
                                            bytes: samples)
        return metadata
    }

    /// A map rendered to Float32 values over its extent, as data (no colour conversion).
    func mapValues(_ map: Image, what: String) throws -> MapValues {
        guard !map.extent.isInfinite, !map.extent.isEmpty else {
            throw GraphError.invalidExtent("\(what) has no finite, non-empty extent (\(map.extent)); crop it")
        }
        let buffer = try render(map, format: .grayf, colorSpace: .data)
        let values = buffer.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        return MapValues(values: values, width: buffer.width, height: buffer.height)
    }
}

/// A rendered map: one Float32 value per pixel, top row first.
struct MapValues {
    let values: [Float]
    let width: Int
    let height: Int

    /// The smallest and largest finite values, or nil when there is none. As the shortest
    /// decimals of their Float32 values (1.498047, not 1.4980469942092896): what the files print.
    var finiteRange: (Double, Double)? {
        var low = Float.infinity, high = -Float.infinity
        for value in values where value.isFinite {
            low = min(low, value)
            high = max(high, value)
        }
        guard low <= high, let shortLow = Double(low.description), let shortHigh = Double(high.description) else { return nil }
        return (shortLow, shortHigh)
    }

    /// 8-bit samples of `normalized(value)` (0...1, clamped, rounded; NaN to 0).
    func quantized(_ normalized: (Double) -> Double) -> [UInt8] {
        values.map { value in
            let unit = normalized(Double(value))
            guard unit.isFinite else { return unit == .infinity ? 255 : 0 }
            return UInt8(max(0, min(255, (unit * 255).rounded())))
        }
    }

    /// 16-bit samples of `normalized(value)` (0...1 to 0...65535, clamped, rounded; NaN to 0), as
    /// native-endian bytes (what `PNGCodec.encode` takes at 16 bits).
    func quantized16(_ normalized: (Double) -> Double) -> [UInt8] {
        let samples = values.map { value -> UInt16 in
            let unit = normalized(Double(value))
            guard unit.isFinite else { return unit == .infinity ? 65535 : 0 }
            return UInt16(max(0, min(65535, (unit * 65535).rounded())))
        }
        return samples.withUnsafeBytes { Array($0) }
    }
}
