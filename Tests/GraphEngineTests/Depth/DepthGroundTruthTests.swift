import Foundation
import GraphCodecs
import XCTest
@testable import GraphEngine

/// The five real depth photos against their README ground truth: kind, stored size, range,
/// matte size, orientation handling, and decoded values (checked against an independent
/// extraction by exiftool where it is installed, converted with the formula written here).
final class DepthGroundTruthTests: XCTestCase {
    struct Expected {
        let file: String
        let kind: DepthData.Kind
        /// Stored size of the map, and its size once upright with the photo.
        let stored: (Int, Int)
        let upright: (Int, Int)
        /// The stated range (FloatMin/FloatMax, d_min/d_max or Near/Far).
        let range: (Double, Double)
        let matte: (Int, Int)?
    }

    static let photos: [Expected] = [
        Expected(file: "iphone7plus_rw_test00.jpg", kind: .disparity, stored: (768, 576), upright: (576, 768),
                 range: (0.787109, 1.735352), matte: nil),
        Expected(file: "iphoneX_depth_shu223.jpg", kind: .disparity, stored: (576, 768), upright: (576, 768),
                 range: (0.650879, 2.509766), matte: nil),
        Expected(file: "iphoneX_depth_matte_shu223.jpg", kind: .disparity, stored: (576, 768), upright: (576, 768),
                 range: (0.864746, 1.366211), matte: (1512, 2016)),
        Expected(file: "iphone13pro_pug_depth.heic", kind: .disparity, stored: (768, 576), upright: (768, 576),
                 range: (1.498047, 4.382812), matte: nil),
        Expected(file: "gdepth_motorola_xt912_exifr.jpg", kind: .depth, stored: (1536, 2048), upright: (1536, 2048),
                 range: (18.849538803100586, 633.323486328125), matte: nil),
    ]

    func testEveryPhotoMatchesItsGroundTruth() throws {
        for expected in Self.photos {
            let path = try DepthTestData.path(expected.file)
            let photo = try DepthPhoto(contentsOf: path)
            let aux = try XCTUnwrap(photo.depthMapInfo, expected.file)
            XCTAssertEqual(aux.kind.rawValue, expected.kind.rawValue, expected.file)
            XCTAssertEqual([aux.width, aux.height], [expected.stored.0, expected.stored.1], expected.file)
            XCTAssertTrue(aux.problems.isEmpty, "\(expected.file): \(aux.problems)")

            let depth = try photo.depthData()
            XCTAssertEqual(depth.kind, expected.kind, expected.file)
            let range = try XCTUnwrap(depth.storedRange, expected.file)
            XCTAssertEqual(range.lowerBound, expected.range.0, accuracy: 1e-6, expected.file)
            XCTAssertEqual(range.upperBound, expected.range.1, accuracy: 1e-6, expected.file)

            let upright = try DepthTestData.values(depth.map)
            XCTAssertEqual([upright.width, upright.height], [expected.upright.0, expected.upright.1], expected.file)
            let stored = try DepthTestData.values(try photo.depthData(orientation: .stored).map)
            XCTAssertEqual([stored.width, stored.height], [expected.stored.0, expected.stored.1], expected.file)

            // Decoded extremes: within one 8-bit step of the stated range (Apple, HEIC: the maps
            // span the range), or inside it (GDepth: its samples span 63...248, see below).
            let low = Double(try XCTUnwrap(upright.values.min())), high = Double(try XCTUnwrap(upright.values.max()))
            if expected.kind == .disparity {
                let step = (expected.range.1 - expected.range.0) / 255
                XCTAssertEqual(low, expected.range.0, accuracy: step + 1e-6, expected.file)
                XCTAssertEqual(high, expected.range.1, accuracy: step + 1e-6, expected.file)
            } else {
                XCTAssertGreaterThanOrEqual(low, expected.range.0, expected.file)
                XCTAssertLessThanOrEqual(high, expected.range.1, expected.file)
            }

            if let matteSize = expected.matte {
                let matte = try DepthTestData.values(try photo.portraitEffectsMatte().map)
                XCTAssertEqual([matte.width, matte.height], [matteSize.0, matteSize.1], expected.file)
                XCTAssertEqual(try XCTUnwrap(matte.values.min()), 0, expected.file)
                XCTAssertEqual(try XCTUnwrap(matte.values.max()), 1, expected.file)
            } else {
                XCTAssertNil(photo.portraitEffectsMatteInfo, expected.file)
            }
        }
    }

    /// The iPhone 7 Plus map is stored sensor-landscape like its photo (EXIF orientation 6):
    /// upright, pixel (x, y) is stored pixel (y, H − 1 − x).
    /// The subject region (the default focus of depth effects) from each photo's MWG XMP regions,
    /// as exiftool lists them (centre x, y, size w, h, top-left origin, stored orientation): the
    /// first region (the face where there is one), upright, lower-left origin, else the GFocus
    /// focal point's square; with its source (MWG Type, GFocus). The 7 Plus is stored rotated
    /// (EXIF 6: stored (u, v) is upright (1 − v, u)).
    func testSubjectRegionsAreTheXMPRegionsUpright() throws {
        func normal(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect {
            Rect(x: x - w / 2, y: 1 - (y + h / 2), width: w, height: h)
        }
        let (x, y, w, h) = (0.5975, 0.659, 0.119, 0.158)
        let expected: [(String, Rect?)] = [
            ("iphoneX_depth_matte_shu223.jpg", normal(0.56349998712539673, 0.14650000631809237, 0.11900000274181366, 0.089000001549720764)),
            ("iphoneX_depth_shu223.jpg", normal(0.66200000047683716, 0.43849998712539673, 0.15800000727176666, 0.11900000274181366)),
            ("iphone7plus_rw_test00.jpg", Rect(x: 1 - (y + h / 2), y: 1 - (x + w / 2), width: h, height: w)),
            ("iphone13pro_pug_depth.heic", nil),
            // No MWG region: a 0.1 square around GFocus:FocalPointX/Y.
            ("gdepth_motorola_xt912_exifr.jpg", normal(0.29814816, 0.53194445, 0.1, 0.1)),
        ]
        let sources: [String: SubjectRegion.Source] = [
            "iphoneX_depth_matte_shu223.jpg": .face, "iphoneX_depth_shu223.jpg": .focus,
            "iphone7plus_rw_test00.jpg": .focus, "gdepth_motorola_xt912_exifr.jpg": .focalPoint,
        ]
        for (file, rect) in expected {
            // Read outside the assertion: its autoclosure would turn the missing-data XCTSkip into a failure.
            let photo = try DepthPhoto(contentsOf: try DepthTestData.path(file))
            XCTAssertEqual(photo.subject?.source, sources[file], file)
            let region = photo.subjectRegion
            XCTAssertEqual(region == nil, rect == nil, file)
            guard let region, let rect else { continue }
            for (a, b) in [(region.minX, rect.minX), (region.minY, rect.minY), (region.width, rect.width), (region.height, rect.height)] {
                XCTAssertEqual(a, b, accuracy: 1e-12, "\(file): \(region) against \(rect)")
            }
        }
    }

    func testIPhone7PlusMapIsRotatedLikeItsPhoto() throws {
        let path = try DepthTestData.path("iphone7plus_rw_test00.jpg")
        let photo = try Image(contentsOf: path)
        XCTAssertEqual(photo.extent, Rect(x: 0, y: 0, width: 3024, height: 4032))
        let upright = try DepthTestData.values(try Image(contentsOf: path, auxiliary: .disparity))
        let stored = try DepthTestData.values(try Image(contentsOf: path, auxiliary: .disparity, orientation: .stored))
        XCTAssertEqual([upright.width, upright.height, stored.width, stored.height], [576, 768, 768, 576])
        for y in stride(from: 0, to: 768, by: 7) {
            for x in stride(from: 0, to: 576, by: 5) {
                XCTAssertEqual(upright.values[y * 576 + x], stored.values[(575 - x) * 768 + y], "(\(x), \(y))")
            }
        }
        XCTAssertEqual(try DepthData(contentsOf: path, orientation: .stored).orientation, 6)
        XCTAssertEqual(try DepthData(contentsOf: path).orientation, 1)
        // The stored map has the sensor geometry's calibration (exiftool: principal point
        // 2034.18, 1533.53 of 4032×3024); the upright map's is turned a quarter clockwise with it:
        // (3024 − 1533.53, 2034.18) of 3024×4032.
        let sensor = try XCTUnwrap(try DepthData(contentsOf: path, orientation: .stored).calibration)
        XCTAssertEqual([sensor.referenceWidth, sensor.referenceHeight, sensor.intrinsicMatrix[6], sensor.intrinsicMatrix[7]],
                       [4032, 3024, 2034.180908203125, 1533.525390625])
        let turned = try XCTUnwrap(try DepthData(contentsOf: path).calibration)
        XCTAssertEqual([turned.referenceWidth, turned.referenceHeight, turned.intrinsicMatrix[6], turned.intrinsicMatrix[7]],
                       [3024, 4032, 3024 - 1533.525390625, 2034.180908203125])
    }

    /// Every Apple map against exiftool's own extraction (`-b -MPImage2`/`-MPImage3`), converted
    /// with `FloatMin + v/255·(FloatMax − FloatMin)` in Double here; GDepth against
    /// `-b -DepthImage` with `d = Far·Near / (Far − dn·(Far − Near))`.
    func testValuesMatchExiftoolsExtraction() throws {
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [(String, String, (Double) -> Double)] = [
            ("iphone7plus_rw_test00.jpg", "-MPImage2", { 0.787109 + $0 / 255 * (1.735352 - 0.787109) }),
            ("iphoneX_depth_shu223.jpg", "-MPImage2", { 0.650879 + $0 / 255 * (2.509766 - 0.650879) }),
            ("iphoneX_depth_matte_shu223.jpg", "-MPImage2", { 0.864746 + $0 / 255 * (1.366211 - 0.864746) }),
            ("iphoneX_depth_matte_shu223.jpg", "-MPImage3", { $0 / 255 }),
            ("gdepth_motorola_xt912_exifr.jpg", "-DepthImage", { v in
                let near = 18.849538803100586, far = 633.323486328125
                return far * near / (far - v / 255 * (far - near))
            }),
        ]
        for (file, tag, formula) in cases {
            let path = try DepthTestData.path(file)
            guard let extracted = try DepthTestData.run("exiftool", ["-b", tag, path]) else {
                throw XCTSkip("exiftool is not installed: the independent extraction check needs it")
            }
            XCTAssertEqual(extracted.status, 0, extracted.error)
            let reference = try DepthTestData.greySamples(Array(extracted.output))
            let map = tag == "-MPImage3" ? try PortraitEffectsMatte(contentsOf: path, orientation: .stored).map
                : try DepthData(contentsOf: path, orientation: .stored).map
            let ours = try DepthTestData.values(map)
            XCTAssertEqual([ours.width, ours.height], [reference.width, reference.height], "\(file) \(tag)")
            var worst = 0.0
            for index in stride(from: 0, to: ours.values.count, by: 3) {
                let expected = formula(Double(reference.samples[index]))
                worst = max(worst, abs(Double(ours.values[index]) - expected) / expected)
            }
            XCTAssertLessThan(worst, 1e-6, "\(file) \(tag): largest relative difference")
            if file.hasPrefix("gdepth") {
                // Its samples span 63...248, so the decoded extremes are the formula's values there.
                XCTAssertEqual(reference.samples.min(), 63)
                XCTAssertEqual(reference.samples.max(), 248)
                XCTAssertEqual(Double(try XCTUnwrap(ours.values.min())), formula(63), accuracy: 1e-4)
                XCTAssertEqual(Double(try XCTUnwrap(ours.values.max())), formula(248), accuracy: 1e-3)
            }
        }
    }

    /// Depth asked of a file that stores disparity: 1 / disparity, pixel by pixel, and the range
    /// 1/FloatMax...1/FloatMin.
    func testDepthFromADisparityFileIsConverted() throws {
        let path = try DepthTestData.path("iphoneX_depth_shu223.jpg")
        let disparity = try DepthTestData.values(try Image(contentsOf: path, auxiliary: .disparity))
        let depth = try DepthData(contentsOf: path, as: .depth)
        XCTAssertEqual(depth.kind, .depth)
        XCTAssertEqual(depth.storedKind, .disparity)
        let range = try XCTUnwrap(depth.storedRange)
        XCTAssertEqual(range.lowerBound, 1 / 2.509766, accuracy: 1e-9)
        XCTAssertEqual(range.upperBound, 1 / 0.650879, accuracy: 1e-9)
        let values = try DepthTestData.values(depth.map)
        for (d, p) in zip(values.values, disparity.values) { XCTAssertEqual(Double(d), 1 / Double(p), accuracy: 1e-6 / Double(p)) }
        XCTAssertEqual(try DepthTestData.values(depth.converting(to: .disparity).map).values.first!, disparity.values.first!,
                       accuracy: 1e-6)
    }

    /// Asking for what a file lacks names the file and lists what it has.
    func testMissingAuxiliaryImagesAreNamed() throws {
        let heic = try DepthTestData.path("iphone13pro_pug_depth.heic")
        XCTAssertThrowsError(try Image(contentsOf: heic, auxiliary: .portraitEffectsMatte)) { error in
            XCTAssertEqual("\(error)", "\(heic): HEIF file has no portrait effects matte; its auxiliary images: "
                           + "hdrGainMap (HEIF item 52 (urn:com:apple:photo:2020:aux:hdrgainmap)), "
                           + "disparity (HEIF item 54 (urn:mpeg:hevc:2015:auxid:2))")
        }
        let gdepth = try DepthTestData.path("gdepth_motorola_xt912_exifr.jpg")
        XCTAssertThrowsError(try PortraitEffectsMatte(contentsOf: gdepth)) { error in
            XCTAssertTrue("\(error)".hasSuffix("JPEG file has no portrait effects matte; its auxiliary images: depth (GDepth depth map)"),
                          "\(error)")
        }
    }

    /// The HEIC photo decodes at 4032×3024 (Display P3) and its 768×576 map covers it with the
    /// same scale on both axes (5.25), neither rotated (irot 0 on both items).
    func testHEICMainImageAndMapLineUp() throws {
        let path = try DepthTestData.path("iphone13pro_pug_depth.heic")
        let decoded = try Image.decoding(path: path)
        XCTAssertEqual(decoded.image.extent, Rect(x: 0, y: 0, width: 4032, height: 3024))
        XCTAssertEqual(decoded.metadata.parsedICCProfile?.kind, .displayP3)
        XCTAssertEqual(decoded.metadata.exifOrientation, 1)
        let depth = try DepthData(contentsOf: path)
        XCTAssertEqual(depth.map.extent, Rect(x: 0, y: 0, width: 768, height: 576))
        XCTAssertEqual(decoded.image.extent.width / depth.map.extent.width, 5.25)
        XCTAssertEqual(decoded.image.extent.height / depth.map.extent.height, 5.25)
        XCTAssertEqual(depth.sourceFormat, .appleHEIC)
        // The range comes from the XMP; the depth SEI says the same in binary floating point.
        let info = try XCTUnwrap(DepthPhoto(contentsOf: path).depthMapInfo?.depthRepresentation)
        XCTAssertEqual(info.type, 1)
        XCTAssertEqual(info.dMin, 1.498046875)
        XCTAssertEqual(info.dMax, 4.3828125)
        // A bright (near) pug in the middle, a darker background at the top corners.
        let values = try DepthTestData.values(depth.map)
        let centre = values.values[288 * 768 + 384], corner = values.values[10 * 768 + 10]
        XCTAssertGreaterThan(centre, corner)
    }
}

/// A HEIC portrait matte: no real file has one, so the pug photo's gain-map item is retyped
/// `urn:com:apple:photo:2018:aux:portraiteffectsmatte` (its `auxC` box rewritten, the boxes around
/// it and the `iloc` file offsets after it moved by the 10 bytes it grows).
final class HEICMatteTests: XCTestCase {
    func testAuxiliaryItemTypedAsMatteIsTheMatte() throws {
        let source = try DepthTestData.path("iphone13pro_pug_depth.heic")
        var bytes = try ImageFile.read(path: source)
        func u32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        func setU32(_ at: Int, _ value: Int) { for i in 0..<4 { bytes[at + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * i)) } }
        func find(_ text: String, from: Int = 0) -> Int? {  // in the meta box, near the start
            let needle = Array(text.utf8)
            return (from..<5_000).first { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
        }
        let oldURN = "urn:com:apple:photo:2020:aux:hdrgainmap", newURN = "urn:com:apple:photo:2018:aux:portraiteffectsmatte"
        let delta = newURN.utf8.count - oldURN.utf8.count
        let urnAt = try XCTUnwrap(find(oldURN))
        let auxC = urnAt - 12  // size, "auxC", version and flags
        // Enclosing boxes: each one starting before the auxC box and ending after it.
        for type in ["meta", "iprp", "ipco", "auxC"] {
            var at = 0
            while let found = find(type, from: at) {
                let start = found - 4
                if start <= auxC && start + u32(start) > urnAt { setU32(start, u32(start) + delta) }
                at = found + 1
            }
        }
        // iloc version 1, 4-byte offsets and lengths, no base offset: file offsets after the meta box move.
        let iloc = try XCTUnwrap(find("iloc")) - 4
        XCTAssertEqual([bytes[iloc + 8], bytes[iloc + 12], bytes[iloc + 13]], [1, 0x44, 0x00])
        var position = iloc + 16
        let count = Int(bytes[iloc + 14]) << 8 | Int(bytes[iloc + 15])
        for _ in 0..<count {
            let method = Int(bytes[position + 3]) & 0xF
            let extents = Int(bytes[position + 6]) << 8 | Int(bytes[position + 7])
            position += 8
            for _ in 0..<extents {
                if method == 0 { setU32(position, u32(position) + delta) }
                position += 8
            }
        }
        bytes.replaceSubrange(urnAt..<(urnAt + oldURN.utf8.count), with: Array(newURN.utf8))
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("matte.heic").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let photo = try DepthPhoto(contentsOf: path)
        XCTAssertEqual(photo.auxiliaryImages.map(\.kind), [.portraitEffectsMatte, .disparity])
        let matte = try DepthTestData.values(try photo.portraitEffectsMatte().map)
        XCTAssertEqual([matte.width, matte.height], [2016, 1512])
        // The same samples as the original file's item 52, over 255.
        let item = try HEIFCodec.decodeAuxiliary(try ImageFile.read(path: source), itemID: 52)
        XCTAssertEqual(matte.values.count, item.bytes.count)
        for (value, sample) in zip(matte.values, item.bytes) { XCTAssertEqual(value, Float(sample) / 255) }
        XCTAssertEqual(try photo.depthData().kind, .disparity)
    }
}
