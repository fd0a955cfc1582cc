#if canImport(Glibc)
import Glibc
#endif
import GraphCodecs
import GraphEngine

extension FuzzTarget {
    /// A whole depth photo (iPhone JPEG or HEIC, GDepth or Dynamic Depth JPEG) as a user hands it
    /// over: what `graph info` prints as text, then every auxiliary map loaded as `DepthPhoto`,
    /// `DepthData(contentsOf:)` and `Image(contentsOf:auxiliary:)` load it (disparity and depth,
    /// upright and as stored, the portrait matte, the semantic mattes and gain map, GDepth's
    /// original image) and the corner of each
    /// rendered. Those read paths, so the input goes to a file in /dev/shm first (removed after).
    static let depthPhoto = FuzzTarget(name: "depth-photo") { bytes in
        guard writeScratchFile(bytes) else { return }
        defer { unlink(scratchPath) }
        guard let photo = try? DepthPhoto(contentsOf: scratchPath) else { return }
        _ = photo.info.summaryLines
        var maps: [Image] = []
        for kind in [DepthData.Kind.disparity, .depth] {
            for orientation in [AuxiliaryOrientation.upright, .stored] {
                if let data = try? photo.depthData(as: kind, orientation: orientation) { maps.append(data.map) }
            }
        }
        if let matte = try? photo.portraitEffectsMatte() { maps.append(matte.map) }
        for named in [AuxiliaryImage.skinMatte, .hairMatte, .teethMatte, .glassesMatte, .skyMatte, .gainMap, .confidence] {
            if let map = try? photo.normalizedMap(named) { maps.append(map) }
        }
        if let original = try? photo.originalImage() { maps.append(original) }
        for map in maps {
            let extent = map.extent
            let corner = Rect(x: extent.minX, y: extent.minY, width: min(extent.width, 8), height: min(extent.height, 8))
            _ = try? fuzzContext.render(map, rect: corner, format: .rgba8)
        }
    }
}

/// The file the depth-photo target writes each input to (one per process: parallel runs differ).
let scratchPath = "/dev/shm/graph-fuzz-depth-photo-\(getpid())"

/// Writes `bytes` to ``scratchPath``; false when it cannot (no /dev/shm).
func writeScratchFile(_ bytes: [UInt8]) -> Bool {
    guard let file = fopen(scratchPath, "wb") else { return false }
    let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    return fclose(file) == 0 && written == bytes.count
}
