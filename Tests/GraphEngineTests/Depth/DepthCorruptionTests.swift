import Foundation
import GraphCodecs
import XCTest
@testable import GraphEngine

/// Damaged depth photos: every problem is an error or a warning naming the file and the part,
/// never a crash, a hang or silently wrong values.
final class DepthCorruptionTests: XCTestCase {
    /// Writes `bytes` as a file and returns its path.
    private func write(_ bytes: [UInt8], _ name: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Opens the file and asks for everything; returns the error descriptions (never throws).
    @discardableResult
    private func exercise(_ path: String) -> [String] {
        var problems: [String] = []
        do {
            let photo = try DepthPhoto(contentsOf: path)
            problems += photo.info.warnings + photo.auxiliaryImages.flatMap(\.problems)
            for auxiliary in [AuxiliaryImage.disparity, .portraitEffectsMatte] {
                do { _ = try photo.image(auxiliary) } catch { problems.append("\(error)") }
            }
        } catch {
            problems.append("\(error)")
        }
        return problems
    }

    private func index(of needle: String, in bytes: [UInt8], from start: Int = 0) -> Int? {
        let pattern = Array(needle.utf8)
        guard bytes.count >= pattern.count else { return nil }
        return (start...(bytes.count - pattern.count)).first { bytes[$0..<$0 + pattern.count].elementsEqual(pattern) }
    }

    // MARK: iPhone JPEG

    func testTruncatedAuxiliaryImagesAreNamed() throws {
        let source = try DepthTestData.path("iphoneX_depth_matte_shu223.jpg")
        let bytes = try ImageFile.read(path: source)
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try DepthPhoto(contentsOf: source)
        let matteStart = photo.auxiliaryImages[1].jpegRange.lowerBound

        // Cut inside the matte: the disparity still loads, the matte is refused by name.
        let cut = try write(Array(bytes[0..<(matteStart + 50_000)]), "cut-matte.jpg", in: folder)
        let damaged = try DepthPhoto(contentsOf: cut)
        XCTAssertEqual(try DepthTestData.values(try damaged.depthData().map).values,
                       try DepthTestData.values(try photo.depthData().map).values)
        XCTAssertThrowsError(try damaged.portraitEffectsMatte()) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains(cut) && text.contains("MPF image 3") && text.contains("truncated"), text)
        }

        // Cut right after the primary: both gone, the index still names them.
        let primaryEnd = try XCTUnwrap(JPEGStreams.endOfStream(bytes, from: 0))
        let bare = try write(Array(bytes[0..<primaryEnd]), "cut-primary.jpg", in: folder)
        XCTAssertThrowsError(try DepthData(contentsOf: bare)) { error in
            XCTAssertTrue("\(error)".contains(bare) && "\(error)".contains("no depth or disparity map"), "\(error)")
        }
        let info = try ImageFile.info(path: bare)
        XCTAssertTrue(info.warnings.contains { $0.contains("MPF image 2") && $0.contains("outside the file") }, "\(info.warnings)")

        // Every cut point, coarse: errors, never a crash.
        for end in stride(from: 0, to: bytes.count, by: 37_501) {
            exercise(try write(Array(bytes[0..<end]), "cut.jpg", in: folder))
        }
    }

    /// MPF offsets that no longer point at the images (as exiftool leaves them after editing the
    /// header): the images are found by scanning after the primary, with a warning.
    func testStaleMPFOffsetsFallBackToScanning() throws {
        let source = try DepthTestData.path("iphoneX_depth_matte_shu223.jpg")
        var bytes = try ImageFile.read(path: source)
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Grow the primary's header after the MPF segment (the images move, the MP header does not:
        // every offset is now 1002 bytes short).
        let mpfSegment = try XCTUnwrap(index(of: "MPF\u{0}", in: bytes)) - 4
        let comment: [UInt8] = [0xFF, 0xFE, 0x03, 0xE8] + [UInt8](repeating: 0x41, count: 998)
        bytes.insert(contentsOf: comment, at: mpfSegment + 2 + (Int(bytes[mpfSegment + 2]) << 8 | Int(bytes[mpfSegment + 3])))
        let stale = try write(bytes, "stale.jpg", in: folder)
        let photo = try DepthPhoto(contentsOf: stale)
        XCTAssertTrue(photo.info.warnings.contains { $0.contains("MPF image 2") && $0.contains("found by scanning") },
                      "\(photo.info.warnings)")
        XCTAssertEqual(photo.auxiliaryImages.map(\.kind), [.disparity, .portraitEffectsMatte])
        let original = try DepthPhoto(contentsOf: source)
        XCTAssertEqual(try DepthTestData.values(try photo.portraitEffectsMatte().map).values,
                       try DepthTestData.values(try original.portraitEffectsMatte().map).values)

        // Offsets pointing outside the file: warned, found by scanning too.
        var outside = try ImageFile.read(path: source)
        let mpf = try XCTUnwrap(index(of: "MPF\u{0}", in: outside))
        let entry2Offset = mpf + 4 + 50 + 16 + 8  // MP header + entry table + second entry's offset field
        outside.replaceSubrange(entry2Offset..<entry2Offset + 4, with: [0x7F, 0xFF, 0xFF, 0xF0])
        let far = try write(outside, "outside.jpg", in: folder)
        let farPhoto = try DepthPhoto(contentsOf: far)
        XCTAssertTrue(farPhoto.info.warnings.contains { $0.contains("outside the file") }, "\(farPhoto.info.warnings)")
        XCTAssertEqual(farPhoto.depthMapInfo?.kind, .disparity)
    }

    /// The case depth-formats.md 1.6 found: exiftool 12.57 rewrites the header and leaves the MPF
    /// offsets stale. The maps are still found, and read the same.
    func testFileEditedByExiftoolStillGivesItsMaps() throws {
        let source = try DepthTestData.path("iphone7plus_rw_test00.jpg")
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let edited = folder.appendingPathComponent("edited.jpg").path
        try FileManager.default.copyItem(atPath: source, toPath: edited)
        guard let result = try DepthTestData.run("exiftool", ["-overwrite_original", "-Comment=edited", "-XMP-dc:Title=edited", edited])
        else { throw XCTSkip("exiftool is not installed") }
        XCTAssertEqual(result.status, 0, result.error)
        let photo = try DepthPhoto(contentsOf: edited)
        XCTAssertEqual(photo.depthMapInfo?.kind, .disparity)
        XCTAssertEqual(try DepthTestData.values(try photo.depthData().map).values,
                       try DepthTestData.values(try DepthData(contentsOf: source).map).values)
    }

    func testXMPWithoutFloatMinIsRefusedByName() throws {
        let source = try DepthTestData.path("iphoneX_depth_shu223.jpg")
        var bytes = try ImageFile.read(path: source)
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let aux = try DepthPhoto(contentsOf: source).auxiliaryImages[0].jpegRange.lowerBound
        // Rename the property (same length), in both its tags.
        var at = aux
        while let found = index(of: "FloatMinValue", in: bytes, from: at) {
            bytes.replaceSubrange(found..<found + 13, with: Array("FloatMinVaLue".utf8))
            at = found + 13
        }
        let path = try write(bytes, "no-floatmin.jpg", in: folder)
        XCTAssertThrowsError(try DepthData(contentsOf: path)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains(path) && text.contains("MPF image 2") && text.contains("FloatMinValue"), text)
        }
        let info = try ImageFile.info(path: path)
        XCTAssertTrue(info.auxiliaryImages[0].problems.first?.contains("no apdi:FloatMinValue") == true)
    }

    /// Damaged entropy-coded data in the map: libjpeg's complaint comes back as an error, not a
    /// map with wrong values.
    func testDamagedMapDataIsAnError() throws {
        let source = try DepthTestData.path("iphone7plus_rw_test00.jpg")
        var bytes = try ImageFile.read(path: source)
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let range = try DepthPhoto(contentsOf: source).auxiliaryImages[0].jpegRange
        for offset in stride(from: range.lowerBound + 3_000, to: range.upperBound - 100, by: 97) {
            bytes[offset] = 0xFF  // markers in the middle of scan data
            bytes[offset + 1] = 0xD3
        }
        let path = try write(bytes, "bad-scan.jpg", in: folder)
        XCTAssertThrowsError(try DepthData(contentsOf: path)) { error in
            XCTAssertTrue("\(error)".contains(path) && "\(error)".contains("MPF image 2"), "\(error)")
        }
    }

    /// The main image is never decoded for its maps: a primary that cannot be decoded (its frame
    /// header now says 12-bit) still gives its disparity map, value for value.
    func testLoadingTheDisparityDoesNotDecodeTheMainImage() throws {
        let source = try DepthTestData.path("iphone7plus_rw_test00.jpg")
        var bytes = try ImageFile.read(path: source)
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The primary's SOF0, walking its segments (the EXIF thumbnail has one too).
        var sof = 2
        while bytes[sof + 1] != 0xC0 { sof += 2 + (Int(bytes[sof + 2]) << 8 | Int(bytes[sof + 3])) }
        bytes[sof + 4] = 12
        let path = try write(bytes, "12bit-primary.jpg", in: folder)
        XCTAssertThrowsError(try DepthTestData.values(try Image(contentsOf: path)))
        XCTAssertEqual(try DepthTestData.values(try Image(contentsOf: path, auxiliary: .disparity)).values,
                       try DepthTestData.values(try Image(contentsOf: source, auxiliary: .disparity)).values)
    }

    func testFlippedBytesInTheHeadersNeverCrash() throws {
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = SeededGenerator(seed: 8)
        for file in ["iphoneX_depth_matte_shu223.jpg", "iphone13pro_pug_depth.heic"] {
            let bytes = try ImageFile.read(path: try DepthTestData.path(file))
            let photo = try DepthPhoto(contentsOf: try DepthTestData.path(file))
            // Where the metadata lives: the MPF segment and each aux image's XMP, or the HEIF meta box.
            var regions: [Range<Int>] = []
            if let mpf = index(of: "MPF\u{0}", in: bytes) { regions.append(mpf..<mpf + 100) }
            for aux in photo.auxiliaryImages {
                if case .jpeg(let stream) = aux.location {
                    regions.append(stream.range.lowerBound..<stream.range.lowerBound + 3_000)
                }
            }
            if let meta = index(of: "meta", in: bytes) { regions.append(meta..<min(bytes.count, meta + 6_000)) }
            for region in regions {
                for round in 0..<6 {
                    var damaged = bytes
                    for _ in 0..<(1 + round % 4) {
                        let at = Int.random(in: region, using: &random)
                        damaged[at] ^= UInt8.random(in: 1...255, using: &random)
                    }
                    exercise(try write(damaged, "flipped-\(file)", in: folder))
                }
            }
        }
    }

    // MARK: GDepth

    func testExtendedXMPProblemsAreRefusedByName() throws {
        let source = try DepthTestData.path("gdepth_motorola_xt912_exifr.jpg")
        let bytes = try ImageFile.read(path: source)
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let prefix = "http://ns.adobe.com/xmp/extension/"
        var chunks: [Int] = []
        var from = 0
        while let found = index(of: prefix, in: bytes, from: from) {
            chunks.append(found)
            from = found + 1
        }
        XCTAssertEqual(chunks.count, 21)

        // One chunk with another GUID: that chunk is not the packet's; the packet is incomplete.
        var mismatched = bytes
        mismatched[chunks[5] + 35] = mismatched[chunks[5] + 35] == 0x41 ? 0x42 : 0x41
        // A chunk's data changed: the MD5 no longer matches the GUID.
        var altered = bytes
        altered[chunks[7] + 35 + 32 + 8 + 1000] ^= 0x01
        // A chunk removed entirely.
        let segmentStart = chunks[3] - 4
        let segmentLength = Int(bytes[segmentStart + 2]) << 8 | Int(bytes[segmentStart + 3])
        var missing = bytes
        missing.removeSubrange(segmentStart..<(segmentStart + 2 + segmentLength))

        for (damaged, name, expected) in [(mismatched, "guid.jpg", "extended XMP"), (altered, "md5.jpg", "MD5"),
                                          (missing, "missing.jpg", "extended XMP")] {
            let path = try write(damaged, name, in: folder)
            XCTAssertThrowsError(try DepthData(contentsOf: path), name) { error in
                let text = "\(error)"
                XCTAssertTrue(text.contains(path) && text.contains("GDepth") && text.contains(expected), text)
            }
            let info = try ImageFile.info(path: path)
            XCTAssertFalse(info.warnings.isEmpty && info.auxiliaryImages.allSatisfy(\.problems.isEmpty), name)
        }
        for end in stride(from: 0, to: bytes.count, by: 180_001) {
            exercise(try write(Array(bytes[0..<end]), "cut-gdepth.jpg", in: folder))
        }
    }

    // MARK: HEIC

    /// A depth item whose coded data is damaged: libheif's error, naming the file and the item.
    func testHEICDepthItemThatDoesNotDecode() throws {
        let source = try DepthTestData.path("iphone13pro_pug_depth.heic")
        var bytes = try ImageFile.read(path: source)
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let structure = try HEIFStructure.parse(bytes)
        let extent = try XCTUnwrap(structure.locations[54]?.extents.first)
        // Drop the NAL data: its length prefix now claims more than the extent holds.
        for offset in extent.offset..<(extent.offset + 8) { bytes[offset] = 0xFF }
        let path = try write(bytes, "bad-depth.heic", in: folder)
        XCTAssertThrowsError(try DepthData(contentsOf: path)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains(path) && text.contains("item 54"), text)
        }
        // The main image and its info are unaffected.
        XCTAssertEqual(try ImageFile.info(path: path).auxiliaryImages.count, 2)

        let original = try ImageFile.read(path: source)
        for end in [0, 12, 100, 2_000, 5_000, 300_000, 1_000_000, original.count - 10] {
            let cut = try write(Array(original[0..<end]), "cut.heic", in: folder)
            let problems = exercise(cut)
            XCTAssertFalse(problems.isEmpty, "cut at \(end)")
        }
    }
}
