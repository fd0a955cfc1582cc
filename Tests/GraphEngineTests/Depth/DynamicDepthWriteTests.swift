import Foundation
import GraphCodecs
import XCTest
@testable import GraphEngine
@testable import Kernels

/// An edit of a Dynamic Depth photo is written back as Dynamic Depth (issue 24): the primary, a
/// `Container:Directory` listing the items appended in its order with their real lengths, the
/// depth map moved like the photo, the confidence map, the Original (the edit replayed on it) and
/// the Ultra HDR gain map (MPF image 2), and the photo's Device/Camera/DepthMap extended XMP.
final class DynamicDepthWriteTests: XCTestCase {
    func temporary(_ name: String) throws -> String {
        let folder = try DepthTestData.temporaryFolder()
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder.appendingPathComponent(name).path
    }

    /// The bytes of an auxiliary image in its file (a container item or an MPF image).
    func itemBytes(_ photo: DepthPhoto, _ kind: AuxiliaryImageInfo.Kind) throws -> [UInt8] {
        let info = try XCTUnwrap(photo.auxiliaryImages.first { $0.kind == kind }, "\(kind)")
        let bytes = try ImageFile.read(path: photo.path)
        switch info.location {
        case .containerItem(_, let range): return Array(bytes[range])
        case .jpeg(let stream): return Array(bytes[stream.range])
        default: XCTFail("\(kind) at \(info.location)"); return []
        }
    }

    /// The written directory (semantic, length) read back, checked against the file: the items'
    /// lengths laid back to back from the primary's end reach the end of the file exactly.
    func assertDirectoryMatchesTheFile(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let bytes = try ImageFile.read(path: path)
        let metadata = try ImageFile.info(bytes).metadata
        let items = try XCTUnwrap(try GoogleContainer.directory(mainPacket: XMPProperties.parse(try XCTUnwrap(metadata.xmp)),
                                                                 extendedPacket: XMPProperties()))
        let primaryEnd = try XCTUnwrap(JPEGStreams.endOfStream(bytes, from: 0))
        XCTAssertEqual(items.first?.length, 0, file: file, line: line)
        XCTAssertEqual(primaryEnd + items.reduce(0) { $0 + ($1.length ?? 0) }, bytes.count, "lengths add up to the file", file: file, line: line)
        let located = GoogleContainer.locate(items, in: bytes, primaryEnd: primaryEnd)
        XCTAssertEqual(located.problems, [], file: file, line: line)
        XCTAssertNil(located.layoutProblem, file: file, line: line)
        return items.map(\.semantic)
    }

    /// Mean absolute difference of two renders' 8-bit samples.
    func meanDifference(_ a: Image, _ b: Image) throws -> Double {
        let context = Context()
        let x = try context.render(a, format: .rgba8).bytes, y = try context.render(b, format: .rgba8).bytes
        XCTAssertEqual(x.count, y.count)
        return zip(x, y).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(max(1, x.count))
    }

    // MARK: The Pixel 8

    /// Identity edit (CIColorControls at its defaults) of the Pixel 8 portrait, written and read
    /// back: the same items in the same order (README: GainMap 506×672, Original 2024×2688,
    /// Depth 2024×2688 values 35–221, Confidence all 255), the depth, confidence and gain map
    /// copied byte for byte, the description unchanged (RangeInverse, Diopters, Near 0.208841,
    /// Far 5.702907, the focal table, the imaging model), no warning; exiftool reads the directory
    /// and the MPF gain map.
    func testPixel8IdentityEditRoundTrip() throws {
        let source = try DynamicDepthTests.pixel8()
        let file = try DepthPhoto(contentsOf: source)
        let photo = try Image(contentsOf: source)
        let edited = try photo.applyingFilter("CIColorControls")
        let (carried, warnings) = file.auxiliaryImages(following: edited, from: photo)
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(carried.writtenFormat, .dynamicDepth)
        let output = try temporary("pixel8-copy.jpg")
        try Context().write(edited, to: output, options: ImageWriteOptions(metadata: try Image.decoding(path: source).metadata,
                                                                           auxiliaryImages: carried))

        let written = try DepthPhoto(contentsOf: output)
        XCTAssertEqual(written.info.warnings, [])
        XCTAssertEqual(written.auxiliaryImages.map(\.kind), [.hdrGainMap, .original, .depth, .confidence])
        XCTAssertEqual(try assertDirectoryMatchesTheFile(output), ["Primary", "GainMap", "Original", "Depth", "Confidence"])
        for aux in written.auxiliaryImages { XCTAssertEqual(aux.problems, [], "\(aux.kind)") }
        for kind: AuxiliaryImageInfo.Kind in [.depth, .confidence, .hdrGainMap] {
            XCTAssertEqual(try itemBytes(written, kind), try itemBytes(file, kind), "\(kind) copied as the file stores it")
        }
        let aux = try XCTUnwrap(written.depthMapInfo)
        XCTAssertEqual([aux.width, aux.height, aux.channels], [2024, 2688, 1])
        let description = try XCTUnwrap(aux.dynamicDepth)
        XCTAssertEqual(description, file.depthMapInfo?.dynamicDepth)
        XCTAssertEqual(description.format, .rangeInverse)
        XCTAssertEqual(description.units, "Diopters")
        XCTAssertEqual([description.near, description.far], [0.208841, 5.702907])
        XCTAssertEqual(description.focalTable.count, 512)
        XCTAssertEqual(description.imagingModel?.focalLengthX, 2938.025391)
        // No pixel moved: the Google camera notes on the frame are all kept.
        XCTAssertEqual(DynamicDepthPackets.frameNotes(in: [written.info.metadata.xmp, written.info.metadata.extendedXMP].compactMap { $0 }),
                       ["GCamera:PortraitNote", "GCamera:RelitInputImageMime", "GCamera:RelitInputImageData",
                        "GCamera:PortraitRelightingRenderingOptions", "GCamera:PortraitRelightingLightPos"])
        let depth = try written.depthData(as: .disparity)
        XCTAssertEqual(depth.sourceFormat, .dynamicDepth)
        let map = try DepthTestData.values(depth.map)
        XCTAssertEqual([map.width, map.height], [2024, 2688])
        func disparity(_ v: Double) -> Double { 5.702907 - v / 255 * (5.702907 - 0.208841) }
        XCTAssertEqual(Double(try XCTUnwrap(map.values.max())), disparity(35), accuracy: 1e-4)
        XCTAssertEqual(Double(try XCTUnwrap(map.values.min())), disparity(221), accuracy: 1e-4)
        XCTAssertEqual(try DepthTestData.values(try written.image(.confidence)).values.min(), 1, "README: all 255")
        let gainMap = try XCTUnwrap(written.info(for: .gainMap))
        XCTAssertEqual([gainMap.width, gainMap.height], [506, 672])
        // The Original: 2024×2688, the identity edit replayed on it.
        let original = try XCTUnwrap(try written.originalImage())
        XCTAssertEqual(original.extent, Rect(x: 0, y: 0, width: 2024, height: 2688))
        let patch = Rect(x: 900, y: 1200, width: 64, height: 64)
        XCTAssertLessThan(try meanDifference(original.cropped(to: patch), try XCTUnwrap(try file.originalImage()).cropped(to: patch)), 2)

        guard let listed = try DepthTestData.run("exiftool", ["-a", "-s3", "-DirectoryItemSemantic", "-DirectoryItemLength", output]) else {
            throw XCTSkip("exiftool is not installed")
        }
        let bytes = try ImageFile.read(path: output)
        let originalLength = try itemBytes(written, .original).count
        XCTAssertEqual(String(decoding: listed.output, as: UTF8.self).split(separator: "\n"),
                       ["Primary", "GainMap", "Original", "Depth", "Confidence", "0", "22463", "\(originalLength)", "242626", "65693"])
        let mpf = try XCTUnwrap(try DepthTestData.run("exiftool", ["-s3", "-MPImageLength", "-MPImageStart", "-DepthMapNear",
                                                                   "-DepthMapFar", "-DepthMapUnits", "-Warning", output]))
        let primaryEnd = try XCTUnwrap(JPEGStreams.endOfStream(bytes, from: 0))
        XCTAssertEqual(String(decoding: mpf.output, as: UTF8.self).split(separator: "\n"),
                       ["22463", "\(primaryEnd)", "0.208841", "5.702907", "Diopters"], "no warning")
        let gain = try XCTUnwrap(try DepthTestData.run("exiftool", ["-b", "-MPImage2", output]))
        XCTAssertEqual(Array(gain.output), try itemBytes(file, .hdrGainMap))
    }

    /// The warning of an edit of the Pixel 8 that moves its pixels: one line naming each Google
    /// camera note on the unedited frame (README: the extended XMP holds PortraitNote,
    /// RelitInputImageMime/Data, PortraitRelightingRenderingOptions/LightPos), which are not
    /// written; `Camera:ImagingModel` follows a crop, scale or quarter turn, and is named first
    /// (`model`: why) when it cannot.
    static func movedPixelsWarnings(_ source: String, model: String? = nil) -> [String] {
        let notes = ["PortraitNote", "RelitInputImageMime", "RelitInputImageData", "PortraitRelightingRenderingOptions",
                     "PortraitRelightingLightPos"].map { "GCamera:\($0)" }
        let dropped = (model.map { ["Camera:ImagingModel (the primary's intrinsics; \($0))"] } ?? []) + notes
        return ["\(source): the edit moves its pixels, so its descriptions of the unedited frame are not written: "
                + dropped.joined(separator: ", ")]
    }

    /// A crop of the Pixel 8: every item cropped with the photo at its own resolution (depth,
    /// confidence and Original 2024/3072 of the crop, the gain map 506/3072), the depth values
    /// within the file's Near/Far kept (the XMP keeps them), `Camera:ImagingModel` moved with the
    /// crop (README: cx 1479.836060, cy 2039.145508 for 3072×4080; the crop's top-left corner is
    /// pixel (900, 4080 − 2800 = 1280), so cx 579.836060, cy 759.145508, 1200×1600, fx kept), the
    /// Google camera notes on the frame dropped with one warning naming each (they described the
    /// uncropped image), `GCamera:SpecialTypeID` and `HdrPlusMakernote` kept, the Original
    /// replayed on the crop.
    func testPixel8CropMovesEveryItem() throws {
        let source = try DynamicDepthTests.pixel8()
        let file = try DepthPhoto(contentsOf: source)
        let photo = try Image(contentsOf: source)
        let crop = Rect(x: 900, y: 1200, width: 1200, height: 1600)
        let edited = photo.cropped(to: crop)
        let (carried, warnings) = file.auxiliaryImages(following: edited, from: photo)
        XCTAssertEqual(warnings, Self.movedPixelsWarnings(source))
        let output = try temporary("pixel8-crop.jpg")
        try Context().write(edited, to: output, options: ImageWriteOptions(metadata: try Image.decoding(path: source).metadata,
                                                                           auxiliaryImages: carried))
        let written = try DepthPhoto(contentsOf: output)
        XCTAssertEqual(try assertDirectoryMatchesTheFile(output), ["Primary", "GainMap", "Original", "Depth", "Confidence"])
        let sizes = written.auxiliaryImages.map { "\($0.kind.rawValue) \($0.width)x\($0.height)" }
        // 1200·2024/3072 = 790.6, 1600·2688/4080 = 1054.1; 1200·506/3072 = 197.7, 1600·672/4080 = 263.5.
        XCTAssertEqual(sizes, ["hdrGainMap 198x264", "original 791x1054", "depth 791x1054", "confidence 791x1054"])
        // The moved gain map is re-encoded at the quality its own tables give (not the maps' 100).
        let gainQuality = try XCTUnwrap(JPEGQuality.estimate(try itemBytes(file, .hdrGainMap)))
        XCTAssertLessThan(gainQuality, 100)
        XCTAssertEqual(JPEGQuality.estimate(try itemBytes(written, .hdrGainMap)), gainQuality)
        // The primary's EXIF states the crop's size (README: the source says 3072×4080).
        if let listed = try DepthTestData.run("exiftool", ["-n", "-s3", "-ExifImageWidth", "-ExifImageHeight", "-Orientation", output]) {
            XCTAssertEqual(String(decoding: listed.output, as: UTF8.self).split(separator: "\n"), ["1200", "1600", "1"])
        }
        let description = try XCTUnwrap(written.depthMapInfo?.dynamicDepth)
        let model = try XCTUnwrap(description.imagingModel)
        XCTAssertEqual([model.focalLengthX, model.focalLengthY], [2938.025391, 2938.025391])
        XCTAssertEqual(model.principalPointX, 579.836060, accuracy: 1e-9)
        XCTAssertEqual(model.principalPointY, 759.145508, accuracy: 1e-9)
        XCTAssertEqual([model.imageWidth, model.imageHeight], [1200, 1600])
        XCTAssertEqual([description.near, description.far], [0.208841, 5.702907])
        XCTAssertEqual(description.focalTable.count, 512)
        let packets = [written.info.metadata.xmp, written.info.metadata.extendedXMP].compactMap { $0 }
        XCTAssertEqual(DynamicDepthPackets.frameNotes(in: packets), [])
        let camera = packets.map { XMPProperties.parse($0) }
        XCTAssertTrue(packets.contains { $0.contains("SpecialType-PORTRAIT") })
        XCTAssertTrue(camera.contains { $0.text(DynamicDepthPackets.googleCameraNamespace, "HdrPlusMakernote") != nil })
        XCTAssertEqual(written.info.metadata.extendedXMPDigestMatches, true)
        XCTAssertLessThan(try ImageFile.read(path: output).count, 3_000_000, "the 1.1 MB relighting input is gone")
        // Depth: the carried (moved) map, held in 8 bits linear in diopters: within a step or two.
        let step = (5.702907 - 0.208841) / 255
        let expected = try DepthTestData.values(try XCTUnwrap(carried.depthData).converting(to: .disparity).map)
        let reread = try DepthTestData.values(try written.depthData(as: .disparity).map)
        XCTAssertEqual([reread.width, reread.height], [expected.width, expected.height])
        var total = 0.0, worst = 0.0
        for (a, b) in zip(expected.values, reread.values) {
            total += abs(Double(a) - Double(b))
            worst = max(worst, abs(Double(a) - Double(b)))
        }
        XCTAssertLessThan(total / Double(expected.values.count), step)
        XCTAssertLessThan(worst, 3 * step)
        // The Original: the crop replayed on it, at its own resolution.
        let original = try XCTUnwrap(try written.originalImage())
        let fromFile = try XCTUnwrap(try file.originalImage())
        let ratio = 2024.0 / 3072.0
        let patch = Rect(x: 300, y: 400, width: 48, height: 48)
        let same = fromFile.transformed(by: AffineTransform(translationX: -crop.x * ratio, y: -crop.y * 2688 / 4080)).cropped(to: patch)
        XCTAssertLessThan(try meanDifference(original.cropped(to: patch), same), 4)
    }

    /// The Original item's own Ultra HDR structure, read with the engine's readers: its MPF
    /// entries, its `hdrgm:Version`, its directory's gain map bytes and size, and its EXIF.
    func originalStructure(_ item: [UInt8]) throws -> (mpfImages: Int, hdrgm: Bool, gainMap: [UInt8], gainSize: [Int], exif: [UInt8]?) {
        let metadata = try ImageFile.info(item).metadata
        let main = try XCTUnwrap(metadata.xmp, "the Original has XMP")
        let directory = try XCTUnwrap(try GoogleContainer.directory(mainPacket: XMPProperties.parse(main), extendedPacket: XMPProperties()))
        let located = GoogleContainer.locate(directory, in: item, primaryEnd: try XCTUnwrap(JPEGStreams.endOfStream(item, from: 0)))
        XCTAssertEqual(located.problems, [])
        XCTAssertNil(located.layoutProblem)
        let gain = try XCTUnwrap(located.items.first { $0.semantic == "GainMap" }?.range, "the Original lists its gain map")
        let gainInfo = try ImageFile.info(Array(item[gain]))
        let packet = try XCTUnwrap(gainInfo.metadata.xmp, "the gain map keeps its hdrgm packet")
        XCTAssertEqual(try XMPProperties.parse(packet).text("http://ns.adobe.com/hdr-gain-map/1.0/", "GainMapMax"), "1.794480")
        return (metadata.mpfEntries.count, main.contains("hdrgm:Version=\"1.0\""), Array(item[gain]), [gainInfo.width, gainInfo.height],
                metadata.exif)
    }

    /// A re-encoded Original keeps its own structure (README: the Pixel 8's Original is itself an
    /// Ultra HDR JPEG, 857,951 bytes, with a 506×672 gain map of 22,875 bytes, `hdrgm:Version`,
    /// EXIF): after an identity edit it is written at the quality its tables are nearest to (94)
    /// with its EXIF, its packet (directory listing the gain map's length), an MPF index of 2
    /// images and the gain map copied byte for byte; its size within 0.9...1.2 of the source's
    /// (888,106 bytes measured; it was 1.88 MB, a plain JPEG at quality 100, before). After a crop the gain map is cropped with it at its own
    /// resolution (1200·506/3072 = 197.7, 1600·672/4080 = 263.5) and keeps its hdrgm packet.
    func testPixel8OriginalKeepsItsOwnGainMapAndXMP() throws {
        let source = try DynamicDepthTests.pixel8()
        let file = try DepthPhoto(contentsOf: source)
        let stored = try originalStructure(try itemBytes(file, .original))
        XCTAssertEqual(stored.mpfImages, 2)
        XCTAssertTrue(stored.hdrgm)
        XCTAssertEqual([stored.gainMap.count] + stored.gainSize, [22875, 506, 672])
        let photo = try Image(contentsOf: source)
        for (name, edited, gainSize) in [("identity", try photo.applyingFilter("CIColorControls"), [506, 672]),
                                         ("crop", photo.cropped(to: Rect(x: 900, y: 1200, width: 1200, height: 1600)), [198, 264])] {
            let (carried, warnings) = file.auxiliaryImages(following: edited, from: photo)
            XCTAssertEqual(warnings, name == "crop" ? Self.movedPixelsWarnings(source) : [], name)
            let output = try temporary("pixel8-\(name).jpg")
            try Context().write(edited, to: output, options: ImageWriteOptions(metadata: try Image.decoding(path: source).metadata,
                                                                               auxiliaryImages: carried))
            let item = try itemBytes(try DepthPhoto(contentsOf: output), .original)
            let written = try originalStructure(item)
            XCTAssertEqual(written.mpfImages, 2, name)
            XCTAssertTrue(written.hdrgm, name)
            XCTAssertEqual(written.gainSize, gainSize, name)
            // Its EXIF, stating its written size (PixelXDimension/PixelYDimension).
            let exif = try XCTUnwrap(stored.exif)
            XCTAssertEqual(written.exif, name == "crop" ? EXIF.settingPixelDimensions(width: 791, height: 1054, in: exif) : exif, name)
            if name == "crop" {
                XCTAssertNotEqual(written.exif, exif)
                // The moved gain map is re-encoded at the quality of the Original's own (not the maps' 100).
                let own = try XCTUnwrap(JPEGQuality.estimate(stored.gainMap))
                XCTAssertLessThan(own, 100)
                XCTAssertEqual(JPEGQuality.estimate(written.gainMap), own)
            }
            if name == "identity" {
                XCTAssertEqual(written.gainMap, stored.gainMap, "copied while unchanged")
                let ratio = Double(item.count) / 857_951
                XCTAssertTrue((0.9...1.2).contains(ratio), "\(item.count) bytes")
                XCTAssertEqual(JPEGQuality.estimate(item), 94)
            }
            // exiftool reads the Original as an Ultra HDR JPEG: hdrgm version, MPF lengths, no warning.
            let itemPath = try temporary("pixel8-\(name)-original.jpg")
            try Data(item).write(to: URL(fileURLWithPath: itemPath))
            guard let listed = try DepthTestData.run("exiftool", ["-a", "-s3", "-XMP-hdrgm:Version", "-MPImageLength", "-Warning", itemPath]) else {
                throw XCTSkip("exiftool is not installed")
            }
            let primaryEnd = try XCTUnwrap(JPEGStreams.endOfStream(item, from: 0))
            XCTAssertEqual(String(decoding: listed.output, as: UTF8.self).split(separator: "\n"),
                           ["1.0", "\(primaryEnd)", "\(written.gainMap.count)"], name)
        }
    }

    // MARK: Synthetic files (no shared data needed)

    /// The synthetic Dynamic Depth file of ``DynamicDepthTests`` written back unchanged: depth and
    /// confidence copied, the directory's lengths and the extended packet's description kept.
    func testSyntheticDynamicDepthRoundTrip() throws {
        let depth = (0..<128).map { UInt8($0 * 2) }
        let path = try temporary("dd.jpg")
        try Data(try DynamicDepthTests.dynamicDepthFile(depth: depth, width: 16, height: 8,
                                                        confidence: [UInt8](repeating: 51, count: 128))).write(to: URL(fileURLWithPath: path))
        let file = try DepthPhoto(contentsOf: path)
        let photo = try Image(contentsOf: path)
        let (carried, warnings) = file.auxiliaryImages(following: photo, from: photo)
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(carried.dynamicDepth?.items.map(\.semantic), ["Depth", "Confidence"])
        let output = try temporary("dd-copy.jpg")
        try Context().write(photo, to: output, options: ImageWriteOptions(auxiliaryImages: carried))
        let written = try DepthPhoto(contentsOf: output)
        XCTAssertEqual(written.auxiliaryImages.map(\.kind), [.depth, .confidence])
        XCTAssertEqual(try assertDirectoryMatchesTheFile(output), ["Primary", "Depth", "Confidence"])
        XCTAssertEqual(try itemBytes(written, .depth), try itemBytes(file, .depth))
        XCTAssertEqual(try itemBytes(written, .confidence), try itemBytes(file, .confidence))
        let description = try XCTUnwrap(written.depthMapInfo?.dynamicDepth)
        XCTAssertEqual([description.near, description.far], [0.5, 4.5])
        XCTAssertEqual(description.units, "Meters")
        XCTAssertEqual(written.info.metadata.extendedXMPDigestMatches, true)
        let confidence = try DepthTestData.values(try written.image(.confidence)).values
        XCTAssertEqual(Double(confidence.max() ?? 0), 0.2, accuracy: 1 / 255)
    }

    /// A depth map that no longer fits the file's range is written over its own: in metres the
    /// new Near/Far are its minimum and maximum; in diopters `Near` is the smaller value (the far
    /// plane's, as a Pixel writes it) and `Far` the larger. Read back, the depths are the map's.
    func testANewDepthRangeIsWrittenInTheFileUnits() throws {
        let (width, height) = (8, 4)
        let metres = (0..<(width * height)).map { Float(0.4) + Float($0) / Float(width * height - 1) * 4.6 }  // 0.4...5
        let map = Image(buffer: try ImageBuffer(width: width, height: height, format: .grayf, colorSpace: nil,
                                                bytes: metres.withUnsafeBytes { Array($0) }))
        for (units, format, near, far, expected) in [("Meters", "RangeLinear", "0.5", "4.5", [0.4, 5.0]),
                                                     ("Diopters", "RangeInverse", "0.25", "2", [0.2, 2.5])] {
            let path = try temporary("dd-\(units).jpg")
            try Data(try DynamicDepthTests.dynamicDepthFile(depth: [UInt8](repeating: 128, count: width * height), width: width,
                                                            height: height, format: format, near: near, far: far, units: units))
                .write(to: URL(fileURLWithPath: path))
            let file = try DepthPhoto(contentsOf: path)
            let photo = try Image(contentsOf: path)
            var (carried, _) = file.auxiliaryImages(following: photo, from: photo)
            carried.depthData = try XCTUnwrap(carried.depthData).replacingMap(map, calibration: nil)
            let output = try temporary("dd-\(units)-new.jpg")
            try Context().write(photo, to: output, options: ImageWriteOptions(auxiliaryImages: carried))
            let written = try DepthPhoto(contentsOf: output)
            let description = try XCTUnwrap(written.depthMapInfo?.dynamicDepth)
            XCTAssertEqual([description.near, description.far], expected, units)
            XCTAssertEqual(description.units, units)
            let reread = try DepthTestData.values(try written.depthData(as: .depth).map).values
            XCTAssertEqual(Double(reread.min() ?? 0), 0.4, accuracy: 1e-3, units)
            XCTAssertEqual(Double(reread.max() ?? 0), 5, accuracy: 1e-2, units)
        }
    }

    /// A photo whose extended XMP (the description) does not match its GUID cannot be written
    /// back as Dynamic Depth: a warning says so and the depth map is written as GDepth.
    func testADamagedDescriptionFallsBackToGDepthWithAWarning() throws {
        var bytes = try DynamicDepthTests.dynamicDepthFile(depth: [UInt8](repeating: 90, count: 64), width: 8, height: 8)
        // One character of the extended packet changed: its MD5 no longer matches the GUID.
        let needle = Array("<DepthMap:Near>0.5".utf8)
        let at = try XCTUnwrap(bytes.firstRange(of: needle)).upperBound - 1
        bytes[at] = UInt8(ascii: "6")
        let path = try temporary("dd-damaged.jpg")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let file = try DepthPhoto(contentsOf: path)
        let photo = try Image(contentsOf: path)
        let (carried, warnings) = file.auxiliaryImages(following: photo, from: photo)
        XCTAssertNil(carried.dynamicDepth)
        XCTAssertEqual(carried.writtenFormat, .gDepth)
        XCTAssertTrue(warnings.contains { $0.contains("the Dynamic Depth container is not written") }, "\(warnings)")
    }
}
