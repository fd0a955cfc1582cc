/// The auxiliary images of a Google container (``GoogleContainer``) in a JPEG: the Dynamic
/// Depth depth map (with its ``DynamicDepthMetadata``) and confidence map, the original photo
/// and the gain map, each described from its own header, never decoded.
extension JPEGAuxiliaryImages {
    /// Whether the packets may describe a container: its directory in the main packet (Pixel 8)
    /// or any Dynamic Depth namespace in the extended one (the specification's layout).
    static func mayHaveContainer(_ metadata: ImageMetadata) -> Bool {
        metadata.xmp.map(GoogleContainer.isPresent(inMainPacket:)) == true
            || metadata.extendedXMP.map { XMP.mentions($0, "http://ns.google.com/photos/dd/1.0/") } == true
    }

    /// The container's items after the primary, except those `existing` already describes (the
    /// gain map an MPF index also names). A directory or depth description that cannot be used
    /// becomes a warning, and, when it concerns the depth map, a problem of that map (so that
    /// loading it says why).
    static func describeContainer(_ bytes: [UInt8], metadata: ImageMetadata, existing: [AuxiliaryImageInfo],
                                  warnings: inout [String]) -> [AuxiliaryImageInfo] {
        guard mayHaveContainer(metadata) else { return [] }
        let main = metadata.xmp.map(XMPProperties.parse) ?? XMPProperties()
        let extended = metadata.extendedXMP.map(XMPProperties.parse) ?? XMPProperties()
        var depthDescription: DynamicDepthMetadata?
        var depthProblem: String?
        do throws(CodecError) {
            depthDescription = try DynamicDepth.parse(mainPacket: main, extendedPacket: extended)
        } catch {
            depthProblem = error.message
        }
        if depthDescription != nil || depthProblem != nil, metadata.extendedXMPDigestMatches == false {
            warnings.append("Dynamic Depth: the extended XMP's MD5 does not match its GUID \(metadata.extendedXMPGUID ?? ""): the description may be damaged")
        }
        let describesDepth = depthDescription != nil || depthProblem != nil
        // The depth map the XMP describes but that cannot be found: listed with why, so that
        // loading it says so; any other container problem is a warning.
        func depthPlaceholder(_ problem: String) -> [AuxiliaryImageInfo] {
            guard describesDepth else {
                warnings.append(problem)
                return []
            }
            let info = AuxiliaryImageInfo(kind: .depth, type: "Dynamic Depth", location: .containerItem(semantic: "Depth", range: 0..<0),
                                          width: 0, height: 0, channels: 0, bitDepth: 8, codec: "?",
                                          orientation: metadata.exifOrientation, problems: [depthProblem ?? problem])
            return [info]
        }
        let directory: [GoogleContainer.Item]
        do throws(CodecError) {
            guard let found = try GoogleContainer.directory(mainPacket: main, extendedPacket: extended) else {
                return depthPlaceholder("Dynamic Depth: the XMP describes a depth map but has no Container:Directory listing its item")
            }
            directory = found
        } catch {
            return depthPlaceholder(error.message)
        }
        guard let primaryEnd = JPEGStreams.endOfStream(bytes, from: 0) else {
            return depthPlaceholder("Dynamic Depth container: the primary JPEG stream has no EOI, so its items cannot be found")
        }
        let container = GoogleContainer.locate(directory, in: bytes, primaryEnd: primaryEnd)
        if let problem = container.layoutProblem { warnings.append(problem) }
        let known = Set(existing.compactMap { image -> Int? in
            if case .jpeg(let stream) = image.location { return stream.range.lowerBound }
            return nil
        })
        var images: [AuxiliaryImageInfo] = []
        var foundDepth = false
        for item in container.items.dropFirst() {
            if let range = item.range, known.contains(range.lowerBound) { continue }
            let kind = self.kind(of: item, depth: depthDescription)
            var info = AuxiliaryImageInfo(kind: kind, type: "Dynamic Depth \(item.semantic)",
                                          location: .containerItem(semantic: item.semantic, range: item.range ?? 0..<0),
                                          width: 0, height: 0, channels: 0, bitDepth: 8, codec: item.mime,
                                          orientation: metadata.exifOrientation)
            if kind == .depth {
                foundDepth = true
                info.dynamicDepth = depthDescription
                if let depthProblem { info.problems.append(depthProblem) }
            }
            if let problem = item.problem { info.problems.append(problem) }
            // Images only: a Motion Photo's video item keeps its mime type as its codec.
            if let range = item.range, item.mime.lowercased().hasPrefix("image/") {
                describeHeader(&info, bytes[range], semantic: item.semantic)
            }
            images.append(info)
        }
        if !foundDepth, describesDepth {
            images += depthPlaceholder("Dynamic Depth: the Container:Directory has no item for the depth map (DepthMap:ItemSemantic \(depthDescription?.itemSemantic ?? "Depth"))")
        }
        return images
    }

    /// What an item holds: the depth map the description names (by `DataURI` or semantic), its
    /// confidence map, the original photo, the gain map.
    static func kind(of item: GoogleContainer.Item, depth: DynamicDepthMetadata?) -> AuxiliaryImageInfo.Kind {
        let semantic = item.semantic.lowercased()
        if let uri = item.dataURI, let depth {
            if uri == depth.depthURI { return .depth }
            if uri == depth.confidenceURI { return .confidence }
        }
        if let depth, semantic == (depth.itemSemantic ?? "Depth").lowercased() { return .depth }
        switch semantic {
        case "confidence": return .confidence
        case "original": return .original
        case "gainmap": return .hdrGainMap
        default: return .unknown
        }
    }

    /// Size, channels and codec from the item's own header (JPEG frame header or PNG IHDR).
    static func describeHeader(_ info: inout AuxiliaryImageInfo, _ data: ArraySlice<UInt8>, semantic: String) {
        let bytes = Array(data)
        let name = "Dynamic Depth item \(semantic)"
        switch ImageFormat.sniff(bytes) {
        case .jpeg:
            let scan = JPEGMarkers.scanHeader(bytes)
            info.codec = "JPEG"
            if let frame = scan.frame {
                (info.width, info.height, info.channels, info.bitDepth) = (frame.width, frame.height, frame.components.count, frame.precision)
            } else {
                info.problems.append("\(name): no JPEG frame header (\(scan.problem ?? "no SOF before the first scan"))")
            }
            if JPEGStreams.endOfStream(bytes, from: 0) == nil {
                info.problems.append("\(name) is truncated: its JPEG stream has no EOI")
            }
        case .png:
            do throws(CodecError) {
                let header = try ImageFile.info(bytes)
                (info.width, info.height, info.channels, info.bitDepth) = (header.width, header.height, header.channels, header.bitDepth)
                info.codec = "PNG"
            } catch {
                info.problems.append("\(name): \(error.message)")
            }
        default:
            info.problems.append("\(name) is not a JPEG or PNG image (\(info.codec))")
        }
    }
}
