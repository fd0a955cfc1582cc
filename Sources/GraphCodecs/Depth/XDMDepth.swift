/// Intel's XDM 1.0 (eXtensible Device Metadata, RealSense cameras, 2015; the format Dynamic
/// Depth grew out of): each `Device:Cameras` item may hold a `Camera:DepthMap` whose image is
/// inline, base64 in `Depthmap:Data` (a PNG, 16-bit on the R200), with GDepth's `Format`,
/// `Near` and `Far` (`Metric` says whether they are metres). The extended XMP carries it.
/// The first camera with depth data is read, as a ``GDepthMetadata`` (the same encoding).
public enum XDM {
    /// The XDM depth map namespace (`Depthmap:`).
    public static let depthMapNamespace = "http://ns.xdm.org/photos/1.0/depthmap/"

    /// Whether either packet has XDM depth map properties (a cheap text check before parsing).
    public static func isPresent(mainPacket: String?, extendedPacket: String?) -> Bool {
        [mainPacket, extendedPacket].contains { packet in packet.map { XMP.mentions($0, depthMapNamespace) } == true }
    }

    /// The first XDM depth map of the packets; nil when there are no `Depthmap:` properties; a
    /// `CodecError` naming the property when they cannot be used (no or unknown Format, no
    /// Near/Far, no or undecodable Data).
    public static func parse(mainPacket: String?, extendedPacket: String?) throws(CodecError) -> GDepthMetadata? {
        guard isPresent(mainPacket: mainPacket, extendedPacket: extendedPacket) else { return nil }
        let packets = [mainPacket, extendedPacket].compactMap { $0 }.map(XMPProperties.parse)
        let ns = depthMapNamespace
        guard packets.contains(where: { $0.hasNamespace(ns) }) else { return nil }
        func text(_ name: String) -> String? {
            for packet in packets { if let value = packet.text(ns, name) { return value } }
            return nil
        }
        func failure(_ message: String) -> CodecError {
            CodecError(.corrupt, "XDM: \(message)", format: .jpeg, segment: "APP1 XMP (XDM Depthmap)")
        }
        guard let formatText = text("Format") else { throw failure("no Depthmap:Format") }
        guard let format = GDepthMetadata.Format(rawValue: formatText) else {
            throw failure("unknown Depthmap:Format \"\(FileText.escaped(String(formatText.prefix(40))))\" (expected RangeInverse or RangeLinear)")
        }
        guard let near = text("Near").flatMap(parseXMLDouble), let far = text("Far").flatMap(parseXMLDouble) else {
            throw failure("Depthmap:Format \(formatText) needs Depthmap:Near and Depthmap:Far")
        }
        guard near != far, format == .rangeLinear || (near > 0 && far > 0) else {
            throw failure("Depthmap:Near \(near) and Far \(far) do not make a \(formatText) range")
        }
        guard let encoded = text("Data") else {
            throw failure(extendedPacket == nil
                ? "no Depthmap:Data: the extended XMP that should carry the depth map is missing or incomplete"
                : "no Depthmap:Data in the XMP")
        }
        guard let data = Base64.decode(encoded), !data.isEmpty else { throw failure("Depthmap:Data is not valid base64") }
        let metric = text("Metric")?.lowercased()
        return GDepthMetadata(format: format, near: near, far: far, units: metric == "true" ? "Meters" : nil,
                              measureType: nil, mime: text("Mime") ?? "image/png", data: data)
    }
}
