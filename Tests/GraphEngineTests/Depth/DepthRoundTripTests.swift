import Foundation
import GraphCodecs
import XCTest
@testable import GraphEngine

/// Depth written back: read a photo's disparity and matte, write them into a new JPEG, read
/// again; and the written file opened by exiftool and Pillow.
final class DepthRoundTripTests: XCTestCase {
    /// Maps the write leaves unchanged are the file's own auxiliary JPEGs, byte for byte.
    func testUnchangedMapsAreCarriedAsTheyAre() throws {
        let source = try DepthTestData.path("iphoneX_depth_matte_shu223.jpg")
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try DepthPhoto(contentsOf: source)
        let depth = try photo.depthData(), matte = try photo.portraitEffectsMatte()
        let output = folder.appendingPathComponent("copy.jpg").path
        var options = ImageWriteOptions(quality: 80)
        options.auxiliaryImages = AuxiliaryImages(depthData: depth, portraitEffectsMatte: matte)
        // Any primary will do: the maps are attached explicitly (a small crop keeps the test quick).
        try Context().write(try Image(contentsOf: source).cropped(to: Rect(x: 0, y: 0, width: 64, height: 48)), to: output,
                            options: options)

        let written = try DepthPhoto(contentsOf: output)
        XCTAssertEqual(written.info.metadata.mpfEntries.count, 3)
        XCTAssertEqual(written.auxiliaryImages.map(\.kind), [.disparity, .portraitEffectsMatte])
        let bytes = try ImageFile.read(path: output), original = try ImageFile.read(path: source)
        for (new, old) in zip(written.auxiliaryImages, photo.auxiliaryImages) {
            guard case .jpeg(let newStream) = new.location, case .jpeg(let oldStream) = old.location else {
                return XCTFail("not MPF images")
            }
            XCTAssertFalse(newStream.foundByScan)
            XCTAssertEqual(Array(bytes[newStream.range]), Array(original[oldStream.range]), "\(new.kind) copied as is")
        }
        let reread = try written.depthData()
        XCTAssertEqual(reread.kind, .disparity)
        XCTAssertEqual(reread.storedRange, depth.storedRange)
        XCTAssertEqual(reread.calibration, depth.calibration)
        XCTAssertEqual(try DepthTestData.values(reread.map).values, try DepthTestData.values(depth.map).values)
    }

    /// Maps written from their values (here a HEIC's, which has no JPEG to copy, and a JPEG's
    /// made to re-encode) come back with the same kind and size, the range of their values, and
    /// each value within one 8-bit step of what that range holds (two for a few pixels: JPEG at
    /// quality 100 still rounds in its DCT). The HEIC map spans its stated range, so there the
    /// values are within one step of the originals.
    func testReencodedMapsComeBackWithinOneStep() throws {
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for file in ["iphone13pro_pug_depth.heic", "iphoneX_depth_matte_shu223.jpg"] {
            let source = try DepthTestData.path(file)
            let photo = try DepthPhoto(contentsOf: source)
            let original = try photo.depthData()
            let depth = original.replacingMap(original.map, calibration: original.calibration)
            let matte = try photo.portraitEffectsMatteInfo.map { _ in try photo.portraitEffectsMatte() }
            let output = folder.appendingPathComponent("\(file).jpg").path
            var options = ImageWriteOptions()
            options.auxiliaryImages = AuxiliaryImages(depthData: depth, portraitEffectsMatte: matte?.replacingMap(matte!.map))
            let primary = Image(color: [0.5, 0.5, 0.5, 1]).cropped(to: Rect(x: 0, y: 0, width: 64, height: 48))
            try Context().write(primary, to: output, options: options)

            let reread = try DepthData(contentsOf: output)
            XCTAssertEqual(reread.kind, .disparity, file)
            XCTAssertEqual(reread.sourceFormat, .appleJPEG, file)
            XCTAssertEqual(reread.calibration, original.calibration, file)
            let before = try DepthTestData.values(original.map), after = try DepthTestData.values(reread.map)
            XCTAssertEqual([after.width, after.height], [before.width, before.height], file)
            let low = Double(before.values.min()!), high = Double(before.values.max()!)
            let range = try XCTUnwrap(reread.storedRange)
            XCTAssertEqual(range.lowerBound, low, accuracy: 1e-6, file)
            XCTAssertEqual(range.upperBound, high, accuracy: 1e-6, file)
            let stated = original.storedRange!
            XCTAssertEqual(low, stated.lowerBound, accuracy: (stated.upperBound - stated.lowerBound) / 255 + 1e-6, file)
            // What the 8 bits over the written range hold, in Double.
            let step = (high - low) / 255
            let errors = zip(before.values, after.values).map { original, reread in
                let held = low + ((Double(original) - low) / step).rounded() * step
                return abs(held - Double(reread)) / step
            }
            let beyondOne = errors.filter { $0 > 1 + 1e-3 }.count
            XCTAssertLessThan(Double(beyondOne), Double(errors.count) * 1e-3, "\(file): pixels off by more than one step")
            XCTAssertLessThanOrEqual(errors.max() ?? 0, 2 + 1e-3, file)
            if let matte {
                let matteBefore = try DepthTestData.values(matte.map)
                let matteAfter = try DepthTestData.values(try PortraitEffectsMatte(contentsOf: output).map)
                let matteErrors = zip(matteBefore.values, matteAfter.values).map { abs(Double($0) - Double($1)) * 255 }
                XCTAssertLessThan(Double(matteErrors.filter { $0 > 1 + 1e-3 }.count), Double(matteErrors.count) * 1e-3, file)
                XCTAssertLessThanOrEqual(matteErrors.max() ?? 0, 2 + 1e-3, file)
            }
        }
    }

    /// exiftool extracts each written auxiliary image (`-b -MPImage2`, `-MPImage3`) with its Apple
    /// XMP, and Pillow opens the file as an MPO with all three frames.
    func testExiftoolAndPillowReadTheWrittenFile() throws {
        let source = try DepthTestData.path("iphoneX_depth_matte_shu223.jpg")
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try DepthPhoto(contentsOf: source)
        let depth = try photo.depthData(), matte = try photo.portraitEffectsMatte()
        let output = folder.appendingPathComponent("written.jpg").path
        var options = ImageWriteOptions()
        // Re-encoded maps (so the file is entirely ours), on an edited photo.
        options.auxiliaryImages = AuxiliaryImages(depthData: depth.replacingMap(depth.map, calibration: depth.calibration),
                                                  portraitEffectsMatte: matte.replacingMap(matte.map))
        let warmer = ColorMatrix(rgb: [1.05, 0, 0, 0, 1, 0, 0, 0, 0.95], sourceName: "warmer")
        let edited = try Image(contentsOf: source).cropped(to: Rect(x: 0, y: 0, width: 300, height: 400)).applyingColorMatrix(warmer)
        try Context().write(edited, to: output, options: options)

        guard let disparity = try DepthTestData.run("exiftool", ["-b", "-MPImage2", output]),
              let matteJPEG = try DepthTestData.run("exiftool", ["-b", "-MPImage3", output]) else {
            throw XCTSkip("exiftool is not installed (apt-get install libimage-exiftool-perl)")
        }
        XCTAssertEqual(disparity.status, 0, disparity.error)
        let extracted = try DepthTestData.greySamples(Array(disparity.output))
        XCTAssertEqual([extracted.width, extracted.height], [576, 768])
        let written = try DepthPhoto(contentsOf: output)
        let expected = try DepthTestData.greySamples(Array(try ImageFile.read(path: output)[written.auxiliaryImages[0].jpegRange]))
        XCTAssertEqual(extracted.samples, expected.samples)
        let xmp = try JPEGCodec.readInfo(Array(disparity.output)).metadata.xmp ?? ""
        XCTAssertEqual(AppleDepthXMP.parse(xmp)?.auxiliaryImageType, "disparity")
        XCTAssertEqual(AppleDepthXMP.parse(xmp)?.floatMaxValue, written.depthMapInfo?.apple?.floatMaxValue)
        let extractedMatte = try DepthTestData.greySamples(Array(matteJPEG.output))
        XCTAssertEqual([extractedMatte.width, extractedMatte.height], [1512, 2016])
        let matteXMP = try JPEGCodec.readInfo(Array(matteJPEG.output)).metadata.xmp ?? ""
        XCTAssertEqual(AppleDepthXMP.parse(matteXMP)?.isPortraitEffectsMatte, true)
        if let warnings = try DepthTestData.run("exiftool", ["-validate", "-warning", "-a", "-s", output]) {
            XCTAssertFalse(String(decoding: warnings.output, as: UTF8.self).contains("MPImage"),
                           String(decoding: warnings.output, as: UTF8.self))
        }

        let script = """
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1])
            sizes = []
            for frame in range(im.n_frames):
                im.seek(frame)
                im.load()
                sizes.append("%dx%d" % im.size)
            print(im.format, im.n_frames, " ".join(sizes))
            """
        guard let pillow = try DepthTestData.run("python3", ["-c", script, output]),
              !pillow.error.contains("No module named 'PIL'") else {
            throw XCTSkip("Pillow is not installed (pip install Pillow)")
        }
        XCTAssertEqual(pillow.status, 0, pillow.error)
        XCTAssertEqual(String(decoding: pillow.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
                       "MPO 3 300x400 576x768 1512x2016")
    }
}

final class GDepthRoundTripTests: XCTestCase {
    /// A GDepth photo is written back as GDepth: unchanged, its depth PNG and original image are
    /// copied as they are; cropped, the depth map and the original image are cropped with it and
    /// Near/Far become the cropped map's range. exiftool reads the depth image back.
    func testGDepthIsWrittenBackAsGDepth() throws {
        let source = try DepthTestData.path("gdepth_motorola_xt912_exifr.jpg")
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try DepthPhoto(contentsOf: source)
        let photo = try Image(contentsOf: source)
        let original = try XCTUnwrap(file.depthMapInfo?.gDepth)

        let (same, _) = file.auxiliaryImages(following: photo, from: photo)
        XCTAssertEqual(same.writtenFormat, .gDepth)
        let copy = folder.appendingPathComponent("copy.jpg").path
        let decoded = try Image.decoding(path: source)
        try Context().write(photo, to: copy, options: ImageWriteOptions(metadata: decoded.metadata, auxiliaryImages: same))
        let copied = try XCTUnwrap(try DepthPhoto(contentsOf: copy).depthMapInfo?.gDepth)
        XCTAssertEqual(copied.data, original.data)
        XCTAssertEqual(copied.originalImage, original.originalImage)
        XCTAssertEqual([copied.near, copied.far], [original.near, original.far])
        let focus = XMPProperties.parse(try XCTUnwrap(try ImageFile.info(path: copy).metadata.xmp))
        XCTAssertEqual(focus.number(GDepth.focusNamespace, "FocalDistance"), 26.517597)

        let crop = Rect(x: 200, y: 300, width: 800, height: 1000)
        let edited = photo.cropped(to: crop)
        let (moved, warnings) = file.auxiliaryImages(following: edited, from: photo)
        XCTAssertEqual(warnings, [])
        let cropped = folder.appendingPathComponent("cropped.jpg").path
        try Context().write(edited, to: cropped, options: ImageWriteOptions(auxiliaryImages: moved))
        let written = try DepthPhoto(contentsOf: cropped)
        XCTAssertEqual(written.info.auxiliaryImages.first?.problems, [])
        let depth = try written.depthData()
        XCTAssertEqual(depth.sourceFormat, .gDepth)
        let after = try DepthTestData.values(depth.map)
        XCTAssertEqual([after.width, after.height], [800, 1000])
        let before = try DepthTestData.values(try file.depthData().map.cropped(to: crop))
        let near = Double(before.values.min()!), far = Double(before.values.max()!)
        XCTAssertEqual(depth.storedRange?.lowerBound ?? 0, near, accuracy: 1e-3)
        XCTAssertEqual(depth.storedRange?.upperBound ?? 0, far, accuracy: 1e-2)
        // RangeInverse over near...far: one 8-bit step in dn, at each value.
        let gdepth = GDepthMetadata(format: .rangeInverse, near: near, far: far, mime: "", data: [])
        for index in stride(from: 0, to: before.values.count, by: 5) {
            let value = before.values[index], reread = after.values[index]
            let dn = gdepth.normalized(depth: Double(value))
            let held = gdepth.depth(normalized: (dn * 255).rounded() / 255)
            XCTAssertEqual(Double(reread), held, accuracy: 1e-3 * held)
        }
        let originalImage = try XCTUnwrap(try written.originalImage())
        XCTAssertEqual(originalImage.extent, Rect(x: 0, y: 0, width: 800, height: 1000))

        guard let extracted = try DepthTestData.run("exiftool", ["-b", "-DepthImage", cropped]) else {
            throw XCTSkip("exiftool is not installed")
        }
        let samples = try DepthTestData.greySamples(Array(extracted.output))
        XCTAssertEqual([samples.width, samples.height], [800, 1000])
    }
}

extension AuxiliaryImageInfo {
    /// The bytes of an MPF auxiliary image in its file.
    var jpegRange: Range<Int> {
        if case .jpeg(let stream) = location { return stream.range }
        return 0..<0
    }
}
