import Foundation
import GraphCodecs
import XCTest
@testable import GraphEngine

/// Google Dynamic Depth: the Pixel 8 portrait of `shared/testdata/depth-more` against its
/// README ground truth (exiftool 12.57), and synthetic files built here (a small primary, a
/// `Container:Directory`, the Device/Camera/DepthMap description in the extended XMP, depth and
/// confidence JPEGs appended) for exact values and for every way the container can be damaged.
final class DynamicDepthTests: XCTestCase {
    static func pixel8() throws -> String {
        try DepthTestData.path("../depth-more/pixel8_portrait_flowers_depthbox.jpg")
    }

    /// README: Depth item 2024×2688 8-bit grey JPEG (242,626 bytes), stored values 35–221,
    /// RangeInverse, Diopters, Near 0.208841, Far 5.702907, OpticalAxis, 256-entry focal table,
    /// fx = fy = 2938.025391, cx 1479.836060, cy 2039.145508 for 3072×4080; Confidence
    /// 2024×2688 all 255; Original 2024×2688 (857,951 bytes); GainMap 506×672 (the MPF image 2).
    func testPixel8MatchesTheGroundTruth() throws {
        let photo = try DepthPhoto(contentsOf: try Self.pixel8())
        XCTAssertEqual(photo.auxiliaryImages.map(\.kind), [.hdrGainMap, .original, .depth, .confidence])
        let aux = try XCTUnwrap(photo.depthMapInfo)
        XCTAssertEqual(aux.location, .containerItem(semantic: "Depth", range: 3_575_847..<3_818_473))
        XCTAssertEqual([aux.width, aux.height, aux.channels, aux.bitDepth], [2024, 2688, 1, 8])
        XCTAssertEqual(aux.problems, [])
        let depth = try XCTUnwrap(aux.dynamicDepth)
        XCTAssertEqual(depth.format, .rangeInverse)
        XCTAssertEqual(depth.units, "Diopters")
        XCTAssertEqual(depth.near, 0.208841)
        XCTAssertEqual(depth.far, 5.702907)
        XCTAssertEqual(depth.measureType, "OpticalAxis")
        XCTAssertEqual(depth.focalTableEntryCount, 256)
        XCTAssertEqual(depth.focalTable.count, 512)
        XCTAssertEqual(depth.distanceRange.near, 1 / 5.702907, accuracy: 1e-12)
        XCTAssertEqual(depth.distanceRange.far, 1 / 0.208841, accuracy: 1e-12)
        let model = try XCTUnwrap(depth.imagingModel)
        XCTAssertEqual([model.focalLengthX, model.focalLengthY, model.principalPointX, model.principalPointY],
                       [2938.025391, 2938.025391, 1479.836060, 2039.145508])
        XCTAssertEqual([model.imageWidth, model.imageHeight], [3072, 4080])

        // Disparity (1/m) of stored v: RangeInverse is linear in diopters, dark (0) = near = 5.702907.
        func disparity(_ v: Double) -> Double { 5.702907 - v / 255 * (5.702907 - 0.208841) }
        let data = try photo.depthData(as: .disparity)
        XCTAssertEqual(data.sourceFormat, .dynamicDepth)
        let map = try DepthTestData.values(data.map)
        XCTAssertEqual([map.width, map.height], [2024, 2688])
        XCTAssertEqual(Double(try XCTUnwrap(map.values.max())), disparity(35), accuracy: 1e-4)
        XCTAssertEqual(Double(try XCTUnwrap(map.values.min())), disparity(221), accuracy: 1e-4)
        // The stored samples themselves, decoded on their own, give the same values.
        guard case .containerItem(_, let range) = aux.location else { return XCTFail("not a container item") }
        let bytes = try ImageFile.read(path: photo.path)
        let samples = try DepthTestData.greySamples(Array(bytes[range]))
        XCTAssertEqual(samples.samples.min(), 35)
        XCTAssertEqual(samples.samples.max(), 221)
        for index in stride(from: 0, to: samples.samples.count, by: 99_991) {
            XCTAssertEqual(Double(map.values[index]), disparity(Double(samples.samples[index])), accuracy: 1e-5)
        }
        // As depth (metres): 1 / disparity.
        let metres = try DepthTestData.values(try photo.depthData(as: .depth).map)
        XCTAssertEqual(Double(try XCTUnwrap(metres.values.max())), 1 / disparity(221), accuracy: 1e-4)

        let confidence = try XCTUnwrap(photo.info(for: .confidence))
        XCTAssertEqual([confidence.width, confidence.height], [2024, 2688])
        let confidenceMap = try DepthTestData.values(try photo.image(.confidence))
        XCTAssertEqual([confidenceMap.width, confidenceMap.height], [2024, 2688])
        XCTAssertEqual(confidenceMap.values.min(), 1, "README: all 255")
        XCTAssertEqual(confidence.location, .containerItem(semantic: "Confidence", range: 3_818_473..<3_884_166))
        let original = try XCTUnwrap(photo.auxiliaryImages.first { $0.kind == .original })
        XCTAssertEqual(original.location, .containerItem(semantic: "Original", range: 2_717_896..<3_575_847))
        XCTAssertEqual([original.width, original.height, original.channels], [2024, 2688, 3])
        XCTAssertEqual(photo.info.warnings, [])
    }

    // MARK: Synthetic files

    /// A Dynamic Depth JPEG: a 40×30 primary whose main XMP holds the directory and whose
    /// extended XMP the depth description; then `items` (semantic, bytes) appended in order.
    /// `lengths` overrides the written `Item:Length` texts. `depthPNG`: the depth item is this
    /// PNG (`Item:Mime` image/png) instead of an 8-bit JPEG of `depth`.
    static func dynamicDepthFile(depth: [UInt8], width: Int, height: Int, confidence: [UInt8]? = nil,
                                 lengths: [String: String] = [:], format: String = "RangeLinear",
                                 near: String = "0.5", far: String = "4.5", units: String = "Meters",
                                 depthPNG: [UInt8]? = nil) throws -> [UInt8] {
        let depthItem = try depthPNG ?? JPEGCodec.encode(width: width, height: height, channels: 1, bytes: depth, quality: 100)
        let confidenceJPEG = try JPEGCodec.encode(width: width, height: height, channels: 1,
                                                  bytes: confidence ?? [UInt8](repeating: 255, count: width * height), quality: 100)
        let items: [(String, [UInt8])] = [("Depth", depthItem), ("Confidence", confidenceJPEG)]
        let entries = ([("Primary", "0")] + items.map { ($0.0, String($0.1.count)) }).map { semantic, length in
            let mime = semantic == "Depth" && depthPNG != nil ? "image/png" : "image/jpeg"
            return #"<rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="\#(mime)" Item:Length="\#(lengths[semantic] ?? length)" Item:Semantic="\#(semantic)"/></rdf:li>"#
        }.joined(separator: "\n")
        let extended = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:Device="http://ns.google.com/photos/dd/1.0/device/"
              xmlns:Camera="http://ns.google.com/photos/dd/1.0/camera/" xmlns:DepthMap="http://ns.google.com/photos/dd/1.0/depthmap/">
            <Device:Cameras><rdf:Seq><rdf:li rdf:parseType="Resource"><rdf:value rdf:parseType="Resource">
            <Camera:DepthMap rdf:parseType="Resource"><DepthMap:ItemSemantic>Depth</DepthMap:ItemSemantic>
            <DepthMap:Format>\(format)</DepthMap:Format><DepthMap:Units>\(units)</DepthMap:Units>
            <DepthMap:Near>\(near)</DepthMap:Near><DepthMap:Far>\(far)</DepthMap:Far></Camera:DepthMap>
            </rdf:value></rdf:li></rdf:Seq></Device:Cameras></rdf:Description></rdf:RDF></x:xmpmeta>
            """
        let main = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:xmpNote="http://ns.adobe.com/xmp/note/"
              xmlns:Container="http://ns.google.com/photos/1.0/container/" xmlns:Item="http://ns.google.com/photos/1.0/container/item/"
              xmpNote:HasExtendedXMP="\(XMP.digestGUID(ofExtended: extended))">
            <Container:Directory><rdf:Seq>
            \(entries)
            </rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>
            """
        let primary = try JPEGCodec.encode(width: 40, height: 30, channels: 3, bytes: [UInt8](repeating: 128, count: 40 * 30 * 3),
                                           xmp: main, extendedXMP: extended)
        return primary + items.flatMap(\.1)
    }

    func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let folder = try DepthTestData.temporaryFolder()
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// RangeLinear in metres: d = near + dn·(far − near); the values come back exactly (quality
    /// 100 keeps flat 8-bit blocks), the confidence map 0...1.
    func testSyntheticDynamicDepthValues() throws {
        let (width, height) = (16, 8)
        let depth = (0..<(width * height)).map { UInt8($0 < 64 ? 0 : 255) }
        let path = try write(try Self.dynamicDepthFile(depth: depth, width: width, height: height,
                                                       confidence: [UInt8](repeating: 51, count: width * height)), "dd.jpg")
        let photo = try DepthPhoto(contentsOf: path)
        XCTAssertEqual(photo.auxiliaryImages.map(\.kind), [.depth, .confidence])
        let metres = try DepthTestData.values(try Image(contentsOf: path, auxiliary: .depth)).values
        XCTAssertEqual(metres.min() ?? 0, 0.5, accuracy: 0.02)
        XCTAssertEqual(metres.max() ?? 0, 4.5, accuracy: 0.02)
        let disparity = try DepthTestData.values(try Image(contentsOf: path, auxiliary: .disparity)).values
        XCTAssertEqual(disparity.max() ?? 0, 2, accuracy: 0.05)
        let info = try XCTUnwrap(photo.auxiliaryImages.last)
        XCTAssertEqual(info.valueRange?.max, 1)
        let confidence = try DepthTestData.values(try Image(contentsOf: path, auxiliary: .confidence)).values
        XCTAssertEqual(confidence.min() ?? 0, 0.2, accuracy: 1 / 255)
        XCTAssertEqual(confidence.max() ?? 0, 0.2, accuracy: 1 / 255)
        XCTAssertEqual(photo.depthMapInfo?.valueRange?.min, 0.5)
        XCTAssertEqual(photo.depthMapInfo?.valueRange?.max, 4.5)
    }

    /// A length that is not a byte count is a `CodecError` of the directory naming the item;
    /// the depth map then says so when loaded.
    func testBadLengthsAreClearErrors() throws {
        let depth = [UInt8](repeating: 100, count: 64)
        for bad in ["abc", "-5", "1e3", "99999999999999999999"] {
            let bytes = try Self.dynamicDepthFile(depth: depth, width: 8, height: 8, lengths: ["Depth": bad])
            let info = try ImageFile.info(bytes)
            let main = XMPProperties.parse(try XCTUnwrap(info.metadata.xmp))
            XCTAssertThrowsError(try GoogleContainer.directory(mainPacket: main, extendedPacket: XMPProperties())) { error in
                guard let error = error as? CodecError else { return XCTFail("\(error) is not a CodecError") }
                XCTAssertEqual(error.kind, .corrupt)
                XCTAssertEqual(error.message, "Dynamic Depth container: item 2 (Depth): Item:Length \"\(bad)\" is not a byte count", bad)
            }
            let path = try write(bytes, "bad-length.jpg")
            XCTAssertThrowsError(try DepthData(contentsOf: path)) { error in
                XCTAssertTrue("\(error)".contains("Item:Length \"\(bad)\" is not a byte count"), "\(error)")
            }
        }
        // A length that runs past the end: the depth item is not found (the confidence item
        // still is, back from the end of the file), and loading the depth map says why.
        let pastTheEnd = try DepthPhoto(contentsOf: try write(try Self.dynamicDepthFile(depth: depth, width: 8, height: 8,
                                                                                        lengths: ["Depth": "900000"]), "long.jpg"))
        XCTAssertEqual(pastTheEnd.auxiliaryImages.first { $0.kind == .confidence }?.problems, [])
        XCTAssertThrowsError(try pastTheEnd.image(.disparity)) { error in
            XCTAssertTrue("\(error)".contains("Dynamic Depth item Depth cannot be used: Dynamic Depth container item 2 (Depth, image/jpeg): its Item:Length 900000 with the earlier items' runs past the end of the file"), "\(error)")
        }
        // Too short: the lengths no longer add up to the file (a warning), and the depth item's
        // stream, cut short, does not decode: the error names the item.
        let short = try DepthPhoto(contentsOf: try write(try Self.dynamicDepthFile(depth: depth, width: 8, height: 8,
                                                                                   lengths: ["Depth": "100"]), "short.jpg"))
        XCTAssertTrue(short.info.warnings.contains { $0.contains("an Item:Length is wrong") }, "\(short.info.warnings)")
        XCTAssertEqual(short.auxiliaryImages.first { $0.kind == .confidence }?.problems, [])
        XCTAssertThrowsError(try short.image(.disparity)) { error in
            XCTAssertTrue("\(error)".contains("Dynamic Depth item Depth"), "\(error)")
        }
    }

    /// A file cut inside the last item: the earlier items are still found (from the primary's
    /// end), the cut one is reported, and loading it fails with that report; cut inside the depth
    /// item, the depth map says the same. Nothing crashes at any cut.
    func testTruncatedItems() throws {
        let depth = (0..<256).map { UInt8($0) }
        let whole = try Self.dynamicDepthFile(depth: depth, width: 16, height: 16)
        let confidenceLength = try JPEGCodec.encode(width: 16, height: 16, channels: 1, bytes: [UInt8](repeating: 255, count: 256),
                                                    quality: 100).count
        let path = try write(Array(whole.dropLast(10)), "cut.jpg")
        let photo = try DepthPhoto(contentsOf: path)
        XCTAssertEqual(photo.depthMapInfo?.problems, [])
        XCTAssertNoThrow(try photo.depthData())
        let confidence = try XCTUnwrap(photo.auxiliaryImages.first { $0.kind == .confidence })
        XCTAssertEqual(confidence.problems.count, 1)
        XCTAssertTrue(confidence.problems[0].contains("Item:Length \(confidenceLength) with the earlier items' runs past the end of the file"),
                      "\(confidence.problems)")

        let inDepth = try write(Array(whole.dropLast(confidenceLength + 20)), "cut-depth.jpg")
        XCTAssertThrowsError(try DepthData(contentsOf: inDepth)) { error in
            XCTAssertTrue("\(error)".contains("Dynamic Depth item Depth cannot be used"), "\(error)")
            XCTAssertTrue("\(error)".contains("runs past the end of the file"), "\(error)")
        }
        for cut in stride(from: whole.count - 1, to: whole.count - confidenceLength - 600, by: -37) {
            let path = try write(Array(whole[..<cut]), "cut-\(cut).jpg")
            guard let photo = try? DepthPhoto(contentsOf: path) else { continue }
            _ = try? photo.depthData()
            for aux in AuxiliaryImage.allCases { _ = try? photo.image(aux) }
        }
    }

    /// A description that cannot be used (no Format, an unknown one, Near = Far) is a problem
    /// of the depth map naming the property.
    func testUnusableDescriptionIsNamed() throws {
        let depth = [UInt8](repeating: 9, count: 64)
        let cases: [(String, String, String, String)] = [
            ("", "0.5", "4.5", "Dynamic Depth: unknown DepthMap:Format \"\""),
            ("RangeCubic", "0.5", "4.5", "unknown DepthMap:Format \"RangeCubic\" (expected RangeInverse or RangeLinear)"),
            ("RangeInverse", "2", "2", "DepthMap:Near 2.0 and Far 2.0 (Meters) do not make a RangeInverse range"),
            ("RangeLinear", "x", "4.5", "DepthMap:Format RangeLinear needs DepthMap:Near and DepthMap:Far"),
        ]
        for (format, near, far, expected) in cases {
            let path = try write(try Self.dynamicDepthFile(depth: depth, width: 8, height: 8, format: format, near: near, far: far),
                                 "description.jpg")
            let photo = try DepthPhoto(contentsOf: path)
            XCTAssertTrue(photo.depthMapInfo?.problems.contains { $0.contains(expected) } == true,
                          "\(format): \(String(describing: photo.depthMapInfo?.problems))")
            XCTAssertThrowsError(try photo.depthData()) { error in XCTAssertTrue("\(error)".contains(expected), "\(error)") }
        }
    }
}
