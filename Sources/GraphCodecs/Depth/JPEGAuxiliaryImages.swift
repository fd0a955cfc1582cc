/// The auxiliary images of a JPEG file, from its headers: iPhone MPF images (each identified by
/// its own XMP, depth-formats.md 1.2-1.3), a Google GDepth depth map (3) and the items of a
/// Google container (Dynamic Depth, 4).
public enum JPEGAuxiliaryImages {
    /// Describes every auxiliary image of `bytes`, whose primary header gave `metadata`.
    /// Problems that make an image unusable are in its `problems`; problems with the index
    /// itself (stale offsets) go to `warnings`.
    package static func describe(_ bytes: [UInt8], metadata: ImageMetadata, warnings: inout [String]) -> [AuxiliaryImageInfo] {
        var images: [AuxiliaryImageInfo] = []
        for stream in JPEGStreams.auxiliaryImages(in: bytes, entries: metadata.mpfEntries, warnings: &warnings) {
            images.append(describe(stream, in: bytes, orientation: metadata.exifOrientation))
        }
        if let gDepth = describeGDepth(metadata) { images.append(gDepth) }
        if let xdm = describeXDM(metadata) { images.append(xdm) }
        images += describeContainer(bytes, metadata: metadata, existing: images, warnings: &warnings)
        return images
    }

    /// Whether a JPEG whose primary header gave `metadata` can have auxiliary images (an MPF index
    /// naming other images, or a GDepth XMP); when not, its body need not be read to look for them.
    public static func mayExist(in metadata: ImageMetadata) -> Bool {
        metadata.mpfEntries.contains { $0.index > 0 } || metadata.xmp.map(GDepth.isPresent(inMainPacket:)) == true
            || mayHaveContainer(metadata) || XDM.isPresent(mainPacket: metadata.xmp, extendedPacket: metadata.extendedXMP)
    }

    /// Adobe's gain-map namespace (`hdrgm:`), in the XMP of an Ultra HDR gain map image.
    static let ultraHDRGainMapNamespace = "http://ns.adobe.com/hdr-gain-map/1.0/"

    /// One MPF image: its frame header and its Apple XMP (or Ultra HDR gain-map XMP).
    static func describe(_ stream: JPEGStreams.Embedded, in bytes: [UInt8], orientation: Int) -> AuxiliaryImageInfo {
        let name = stream.mpfImage.map { "MPF image \($0)" } ?? "embedded JPEG"
        let scan = JPEGMarkers.scanHeader(Array(bytes[stream.range]))
        var info = AuxiliaryImageInfo(kind: .unknown, type: "undefined", location: .jpeg(stream), width: 0, height: 0, channels: 0,
                                      bitDepth: 8, codec: "JPEG", orientation: orientation)
        if let frame = scan.frame {
            (info.width, info.height, info.channels, info.bitDepth) = (frame.width, frame.height, frame.components.count, frame.precision)
        } else {
            info.problems.append("\(name): no JPEG frame header (\(scan.problem ?? "no SOF before the first scan"))")
        }
        if !stream.complete { info.problems.append("\(name) is truncated: its JPEG stream has no EOI") }
        let xmp = scan.segments.first { $0.marker == 0xE1 && $0.payload.hasBytePrefix(XMP.jpegPrefix) }
        let packet = xmp.map { String(decoding: $0.payload[XMP.jpegPrefix.count...], as: UTF8.self) }
        if let packet, packet.contains(ultraHDRGainMapNamespace) {
            // An Ultra HDR (ISO 21496-1 / Adobe `hdrgm:`) gain map, as Android phones append it.
            (info.kind, info.type) = (.hdrGainMap, "hdrgm (Ultra HDR)")
            return info
        }
        guard let packet, let apple = AppleDepthXMP.parse(packet) else { return info }
        info.apple = apple
        if apple.isPortraitEffectsMatte {
            info.kind = .portraitEffectsMatte
            info.type = "portraitEffectsMatte"
        } else if let type = apple.auxiliaryImageType {
            // iPhones name a gain map or a semantic matte by its HEIF URN here; they may come
            // before the disparity among the MPF images, so only the type says what each is.
            info.type = type
            switch type.lowercased() {
            case "disparity": info.kind = .disparity
            case "depth": info.kind = .depth
            default: info.kind = AppleAuxiliaryType.kind(of: type) ?? .unknown
            }
            if info.kind == .disparity || info.kind == .depth, let problem = apple.valueEncodingProblem {
                info.problems.append("\(name) (\(type)): \(problem)")
            }
        } else if apple.hdrGainMapVersion != nil {
            (info.kind, info.type) = (.hdrGainMap, "hdrGainMap")
        } else if apple.semanticSegmentationMatteVersion != nil {
            (info.kind, info.type) = (.semanticMatte, "semanticMatte")
        }
        return info
    }

    /// The GDepth map named by the main XMP, with its depth image's header.
    static func describeGDepth(_ metadata: ImageMetadata) -> AuxiliaryImageInfo? {
        guard let xmp = metadata.xmp, GDepth.isPresent(inMainPacket: xmp) else { return nil }
        return describeInlineDepth(metadata, type: "GDepth") { () throws(CodecError) in
            try GDepth.parse(mainPacket: xmp, extendedPacket: metadata.extendedXMP)
        }
    }

    /// An XMP-inline XDM depth map (RealSense, ``XDM``), read like GDepth's.
    static func describeXDM(_ metadata: ImageMetadata) -> AuxiliaryImageInfo? {
        guard XDM.isPresent(mainPacket: metadata.xmp, extendedPacket: metadata.extendedXMP) else { return nil }
        return describeInlineDepth(metadata, type: "XDM") { () throws(CodecError) in
            try XDM.parse(mainPacket: metadata.xmp, extendedPacket: metadata.extendedXMP)
        }
    }

    /// A depth image carried base64 in the XMP (GDepth, XDM), described by its header.
    static func describeInlineDepth(_ metadata: ImageMetadata, type: String,
                                    parse: () throws(CodecError) -> GDepthMetadata?) -> AuxiliaryImageInfo? {
        var info = AuxiliaryImageInfo(kind: .depth, type: type, location: .gDepth, width: 0, height: 0, channels: 0,
                                      bitDepth: 8, codec: "?", orientation: metadata.exifOrientation)
        if metadata.extendedXMPDigestMatches == false {
            info.problems.append("\(type): the extended XMP's MD5 does not match its GUID \(metadata.extendedXMPGUID ?? ""): the depth map may be damaged")
        }
        do throws(CodecError) {
            guard let gDepth = try parse() else { return nil }
            info.gDepth = gDepth
            // Header only, and never the depth image's own auxiliary images (no nesting).
            let header = ImageFormat.sniff(gDepth.data) == .jpeg
                ? try JPEGCodec.readInfo(gDepth.data, auxiliaryImages: false) : try ImageFile.info(gDepth.data)
            (info.width, info.height, info.channels, info.bitDepth) = (header.width, header.height, header.channels, header.bitDepth)
            info.codec = header.format.name
        } catch {
            info.problems.append(error.segment == nil ? "\(type) depth image: \(error.message)" : error.message)
        }
        return info
    }
}
