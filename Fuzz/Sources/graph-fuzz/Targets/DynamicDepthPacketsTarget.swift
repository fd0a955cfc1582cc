@testable import GraphCodecs

extension FuzzTarget {
    /// The XMP of an edited Dynamic Depth photo: the main XMP packet, a NUL byte, the extended
    /// packet (none without the NUL). `DynamicDepthPackets.rewrite` lists a directory of three
    /// items, replaces the depth range and drops the gain map, Original and imaging model, as an
    /// edit writing the container does: never a crash or a hang; when it succeeds, the main
    /// packet fits one APP1 segment and names the new extended packet's MD5 (the unit tests read
    /// the directory back from well-formed packets).
    static let dynamicDepthPackets = FuzzTarget(name: "dynamic-depth-packets") { bytes in
        let split = bytes.firstIndex(of: 0)
        let main = String(decoding: bytes[..<(split ?? bytes.endIndex)], as: UTF8.self)
        let extended = split.map { String(decoding: bytes[($0 + 1)...], as: UTF8.self) }
        let directory = [
            DynamicDepthPackets.Item(semantic: "Primary", mime: "image/jpeg", length: 0),
            DynamicDepthPackets.Item(semantic: "Depth", mime: "image/jpeg", length: 1234, dataURI: "android/depthmap"),
            DynamicDepthPackets.Item(semantic: "Confidence", mime: "image/png", length: 56),
        ]
        let changes = DynamicDepthPackets.Changes(
            directory: directory, depthRange: DynamicDepthPackets.DepthRange(format: .rangeInverse, near: 0.25, far: 4),
            dropsGainMap: true, dropsOriginal: true, dropsImagingModel: true)
        guard let written = try? DynamicDepthPackets.rewrite(main: main, extended: extended, changes: changes) else { return }
        guard written.main.utf8.count <= XMP.maxMainPacketBytes else { fatalError("main packet of \(written.main.utf8.count) bytes") }
        if let newExtended = written.extended,
           XMP.extendedGUID(inMainPacket: written.main) != XMP.digestGUID(ofExtended: newExtended) {
            fatalError("the main packet does not name the rewritten extended packet's MD5")
        }
    }
}
