@testable import GraphCodecs
import GraphEngine

extension FuzzTarget {
    /// An EXIF TIFF structure: what a JPEG APP1 Exif segment or a PNG eXIf chunk holds. Read as
    /// the decoders do, then the orientation and the Exif IFD's pixel dimensions rewritten in
    /// place as outputs carry them (same length; setting the same size twice changes nothing more).
    static let exif = FuzzTarget(name: "exif") { bytes in
        var metadata = ImageMetadata(format: .jpeg)
        var warnings: [String] = []
        EXIF.apply(tiff: bytes, to: &metadata, warnings: &warnings)
        for orientation in [1, 6, 8] {
            let rewritten = EXIF.settingOrientation(orientation, in: bytes)
            guard rewritten != bytes else { continue }
            let tiff = rewritten.hasBytePrefix(EXIF.jpegPrefix) ? Array(rewritten.dropFirst(EXIF.jpegPrefix.count)) : rewritten
            let read = EXIF.orientation(tiff: tiff)
            if read != orientation {
                fatalError("settingOrientation(\(orientation)) changed the bytes but the orientation reads \(String(describing: read))")
            }
        }
        for (width, height) in [(1, 1), (1200, 1600), (70_000, 3)] {
            let sized = EXIF.settingPixelDimensions(width: width, height: height, in: bytes)
            if sized.count != bytes.count { fatalError("settingPixelDimensions changed the block's length") }
            if EXIF.settingPixelDimensions(width: width, height: height, in: sized) != sized {
                fatalError("settingPixelDimensions(\(width), \(height)) is not idempotent")
            }
        }
    }

    /// An ICC profile: parsed, recognised, turned into a colour space when it is a matrix/TRC
    /// profile, and used: a tiny image tagged with it is rendered colour-managed (the profile's
    /// curves become program instructions).
    static let icc = FuzzTarget(name: "icc") { bytes in
        var metadata = ImageMetadata(format: .png)
        metadata.iccProfile = bytes
        let (space, _) = ImageBuffer.colorSpace(of: metadata)
        guard let profile = try? ICCProfile(bytes: bytes), ColorSpace(profile: profile) != nil else { return }
        let pixels: [UInt8] = [0, 0, 0, 255, 255, 255, 255, 255, 12, 128, 250, 128, 255, 0, 64, 0]
        guard let buffer = try? ImageBuffer(width: 2, height: 2, format: .rgba8, alphaMode: .straight,
                                            colorSpace: space, bytes: pixels) else { return }
        var options = ContextOptions()
        options.threads = 1
        options.outputColorSpace = space
        _ = try? Context(options: options).render(Image(buffer: buffer), format: .rgba16)
    }

    /// XMP in JPEG: segments as 2-byte big-endian lengths each followed by that many bytes. The
    /// first is the main packet, the others extended-XMP chunks (GUID, full length, offset, data),
    /// both without their namespace prefix, which is added here. Reassembled as the decoders do,
    /// then written back as outputs carry it.
    static let xmp = FuzzTarget(name: "xmp") { bytes in
        var parts: [[UInt8]] = []
        var position = 0
        while position + 2 <= bytes.count {
            let length = Int(bytes[position]) << 8 | Int(bytes[position + 1])
            let end = min(bytes.count, position + 2 + length)
            parts.append(Array(bytes[(position + 2)..<end]))
            position = end
        }
        guard let main = parts.first else { return }
        let segments = [JPEGSegment(marker: 0xE1, offset: nil, payload: XMP.jpegPrefix + main)]
            + parts.dropFirst().map { JPEGSegment(marker: 0xE1, offset: nil, payload: XMP.extendedPrefix + $0) }
        var metadata = ImageMetadata(format: .jpeg)
        var warnings: [String] = []
        JPEGMarkers.apply(segments: segments, to: &metadata, warnings: &warnings)
        let packet = metadata.xmp ?? ""
        if let guid = XMP.extendedGUID(inMainPacket: packet) {
            _ = XMP.settingExtendedGUID(guid, inMainPacket: packet)
        }
        if let extended = metadata.extendedXMP {
            _ = try? XMP.extendedPayloads(extended, mainPacket: packet)
        }
        _ = metadata.carriableExtendedXMP
    }

    /// An MPF APP2 payload without its "MPF\0" prefix (the TIFF structure of the MP index).
    static let mpf = FuzzTarget(name: "mpf") { bytes in
        var warnings: [String] = []
        _ = MPF.parse(payload: MPF.jpegPrefix + bytes, tiffHeaderOffset: 100, warnings: &warnings)
        _ = MPF.parse(payload: MPF.jpegPrefix + bytes, tiffHeaderOffset: nil, warnings: &warnings)
    }
}
