import Foundation
import GraphCodecs
import XCTest
@testable import GraphEngine

/// Apple's semantic segmentation mattes and HDR gain maps, loaded by name (`.skinMatte`,
/// `.gainMap` ...): the iPhone 14 HEIC of `shared/testdata/depth-more` against its README ground
/// truth, and a synthetic iPhone-style JPEG whose gain map comes before the disparity among the
/// MPF images (no real file of that layout is available).
final class SemanticMatteTests: XCTestCase {
    /// `shared/testdata/depth-more/iphone14_front_portrait_7aux_fidmaa.heic`; skips when absent.
    static func iPhone14() throws -> String {
        try DepthTestData.path("../depth-more/iphone14_front_portrait_7aux_fidmaa.heic")
    }

    /// README: items 39 teeth (stored 0–2), 43 gain map (20–195), 45 skin, 47 hair, 51 glasses
    /// (0–65), every one 1158×1544 8-bit grey HEVC.
    func testIPhone14MattesAndGainMapMatchTheGroundTruth() throws {
        let photo = try DepthPhoto(contentsOf: try Self.iPhone14())
        let expected: [(AuxiliaryImage, item: UInt32, kind: AuxiliaryImageInfo.Kind, stored: ClosedRange<Int>?)] = [
            (.teethMatte, 39, .semanticMatte, 0...2), (.gainMap, 43, .hdrGainMap, 20...195), (.skinMatte, 45, .semanticMatte, nil),
            (.hairMatte, 47, .semanticMatte, nil), (.glassesMatte, 51, .semanticMatte, 0...65),
        ]
        for (auxiliary, item, kind, stored) in expected {
            let info = try XCTUnwrap(photo.info(for: auxiliary), "\(auxiliary)")
            XCTAssertEqual(info.location, .heifItem(item), "\(auxiliary)")
            XCTAssertEqual(info.kind, kind, "\(auxiliary)")
            XCTAssertEqual(info.semanticMatteSubject, auxiliary.semanticMatteSubject, "\(auxiliary)")
            XCTAssertEqual([info.width, info.height, info.channels, info.bitDepth], [1158, 1544, 1, 8], "\(auxiliary)")
            XCTAssertEqual(info.problems, [], "\(auxiliary)")

            let map = try DepthTestData.values(try photo.image(auxiliary))
            XCTAssertEqual([map.width, map.height], [1158, 1544], "\(auxiliary)")
            let low = try XCTUnwrap(map.values.min()), high = try XCTUnwrap(map.values.max())
            if let stored {
                XCTAssertEqual(low * 255, Float(stored.lowerBound), accuracy: 1e-3, "\(auxiliary)")
                XCTAssertEqual(high * 255, Float(stored.upperBound), accuracy: 1e-3, "\(auxiliary)")
            } else {
                // Skin and hair: a person fills the frame, so each matte spans background to fully set.
                XCTAssertEqual(low, 0, "\(auxiliary)")
                XCTAssertEqual(high, 1, "\(auxiliary)")
            }
            // The library's one-call form gives the same map.
            let direct = try DepthTestData.values(try Image(contentsOf: photo.path, auxiliary: auxiliary))
            XCTAssertEqual(direct.values, map.values, "\(auxiliary)")
        }
        XCTAssertNil(photo.info(for: .skyMatte))
        XCTAssertThrowsError(try photo.image(.skyMatte)) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("has no semantic sky matte"), message)
            XCTAssertTrue(message.contains("semanticskinmatte"), message)
        }
    }

    /// An iPhone JPEG names a gain map and a semantic matte by their HEIF URN in the MPF image's
    /// `apdi:AuxiliaryImageType`. With the gain map first, the disparity is still the disparity.
    func testJPEGGainMapBeforeTheDisparityIsPickedByType() throws {
        let (width, height) = (8, 6)
        let primary = try JPEGCodec.encode(width: 32, height: 24, channels: 3, bytes: [UInt8](repeating: 120, count: 32 * 24 * 3))
        func grey(_ value: UInt8, xmp: String) throws -> [UInt8] {
            try JPEGCodec.encode(width: width, height: height, channels: 1, bytes: [UInt8](repeating: value, count: width * height),
                                 quality: 100, xmp: xmp)
        }
        func appleTyped(_ type: String, extra: String) -> String {
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:apdi="http://ns.apple.com/pixeldatainfo/1.0/" \(extra)>
            <apdi:AuxiliaryImageType>\(type)</apdi:AuxiliaryImageType></rdf:Description></rdf:RDF></x:xmpmeta>
            """
        }
        var disparity = AppleAuxiliaryMetadata()
        (disparity.auxiliaryImageType, disparity.floatMinValue, disparity.floatMaxValue) = ("disparity", 0.5, 3.0)
        let gainXMP = appleTyped("urn:com:apple:photo:2020:aux:hdrgainmap",
                                 extra: #"xmlns:HDRGainMap="http://ns.apple.com/HDRGainMap/1.0/""#)
        let skinXMP = appleTyped("urn:com:apple:photo:2019:aux:semanticskinmatte",
                                 extra: #"xmlns:semanticSegmentationMatte="http://ns.apple.com/semanticSegmentationMatte/1.0/""#)
        let file = try MPF.assemble(primary: primary, auxiliaries: [
            try grey(51, xmp: gainXMP), try grey(255, xmp: AppleDepthXMP.packet(disparity)), try grey(204, xmp: skinXMP),
        ])
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("gain-first.jpg").path
        try Data(file).write(to: URL(fileURLWithPath: path))

        let photo = try DepthPhoto(contentsOf: path)
        XCTAssertEqual(photo.auxiliaryImages.map(\.kind), [.hdrGainMap, .disparity, .semanticMatte])
        guard case .jpeg(let stream)? = photo.info(for: .disparity)?.location else { return XCTFail("no disparity") }
        XCTAssertEqual(stream.mpfImage, 3)
        XCTAssertEqual(try DepthTestData.values(try photo.depthData().map).values, [Float](repeating: 3.0, count: width * height))
        let gain = try DepthTestData.values(try photo.image(.gainMap)).values
        XCTAssertEqual(gain.min() ?? 0, 0.2, accuracy: 2 / 255)
        XCTAssertEqual(gain.max() ?? 0, 0.2, accuracy: 2 / 255)
        let skin = try DepthTestData.values(try photo.image(.skinMatte)).values
        XCTAssertEqual(skin.min() ?? 0, 0.8, accuracy: 2 / 255)
        XCTAssertThrowsError(try photo.image(.hairMatte))
        XCTAssertThrowsError(try photo.portraitEffectsMatte())
    }

    /// Loading a matte reads its item only: a photo whose primary image cannot be decoded still
    /// gives its gain map (the Pixel 8's Ultra HDR gain map, MPF image 2).
    func testUltraHDRGainMapLoadsWithoutThePrimary() throws {
        let path = try DepthTestData.path("../depth-more/pixel8_portrait_flowers_depthbox.jpg")
        var bytes = try ImageFile.read(path: path)
        let photo = try DepthPhoto(contentsOf: path)
        let info = try XCTUnwrap(photo.info(for: .gainMap))
        XCTAssertEqual([info.width, info.height], [506, 672])
        XCTAssertEqual(info.type, "hdrgm (Ultra HDR)")
        // Zero 20 KB of the primary's entropy-coded data (its headers end at 1.18 MB, its stream
        // at 2,695,433): decoding it would fail or warn; its auxiliary images stay readable.
        for i in 2_000_000..<2_020_000 { bytes[i] = 0 }
        let primary = try? ImageFile.decode(bytes)
        XCTAssertNotEqual(primary.map { $0.warnings.isEmpty }, true, "the damaged primary decodes without a warning")
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken-primary.jpg").path
        try Data(bytes).write(to: URL(fileURLWithPath: broken))
        let gain = try DepthTestData.values(try Image(contentsOf: broken, auxiliary: .gainMap))
        XCTAssertEqual([gain.width, gain.height], [506, 672])
    }

    /// README: the iPhone XS JPEG's portrait matte (MPF image 3, 1158×1544) says
    /// `apdi:AuxiliaryImageType=depth` with SubType portraiteffectsmatte; the depth map is the
    /// disparity of MPF image 2 (480×640, FloatMin 0.554199 / FloatMax 2.808594), not the matte.
    func testIPhoneXSMatteLabelledDepthIsTheMatte() throws {
        let photo = try DepthPhoto(contentsOf: try DepthTestData.path("../depth-more/iphoneXS_front_portrait_matte_fidmaa.jpg"))
        XCTAssertEqual(photo.auxiliaryImages.map(\.kind), [.disparity, .portraitEffectsMatte])
        let matteInfo = try XCTUnwrap(photo.portraitEffectsMatteInfo)
        XCTAssertEqual(matteInfo.apple?.auxiliaryImageType, "depth")
        guard case .jpeg(let matteStream) = matteInfo.location, case .jpeg(let depthStream)? = photo.depthMapInfo?.location else {
            return XCTFail("not MPF images")
        }
        XCTAssertEqual([matteStream.mpfImage, depthStream.mpfImage], [3, 2])
        let depth = try photo.depthData()
        XCTAssertEqual(depth.kind, .disparity)
        XCTAssertEqual(depth.storedRange, 0.554199...2.808594)
        let map = try DepthTestData.values(depth.map)
        XCTAssertEqual([map.width, map.height], [480, 640])
        let step = Float(2.808594 - 0.554199) / 255
        XCTAssertEqual(try XCTUnwrap(map.values.max()), 2.808594, accuracy: step)
        XCTAssertEqual(try XCTUnwrap(map.values.min()), 0.554199, accuracy: step)
        let matte = try DepthTestData.values(try photo.portraitEffectsMatte().map)
        XCTAssertEqual([matte.width, matte.height], [1158, 1544])
        XCTAssertEqual(matte.values.min(), 0)
        XCTAssertEqual(matte.values.max(), 1)
    }
}
