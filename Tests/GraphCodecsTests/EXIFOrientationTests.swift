import XCTest

@testable import GraphCodecs

/// `EXIF.settingOrientation`: rewrites IFD0 Orientation in place (byte order and SHORT/LONG
/// storage honoured, nothing else touched) and never traps on truncated or hostile input.
final class EXIFOrientationTests: XCTestCase {
    /// The EXIF TIFF structure of a real iPhone 7 Plus photo (big endian, orientation 6).
    private func iPhoneEXIF() throws -> [UInt8] {
        let folder = try TestPaths.sharedTestData("depth")
        let info = try ImageFile.info(path: folder + "/iphone7plus_rw_test00.jpg")
        let exif = try XCTUnwrap(info.metadata.exif)
        XCTAssertEqual(EXIF.orientation(tiff: exif), 6)
        return exif
    }

    /// Offsets where two equally long byte arrays differ.
    private func differences(_ a: [UInt8], _ b: [UInt8]) -> [Int] {
        XCTAssertEqual(a.count, b.count)
        var offsets: [Int] = []
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                for i in 0..<min(a.count, b.count) where a[i] != b[i] { offsets.append(i) }
            }
        }
        return offsets
    }

    func testRealIPhoneEXIFIsRewrittenInPlace() throws {
        let exif = try iPhoneEXIF()
        let upright = EXIF.settingOrientation(1, in: exif)
        XCTAssertEqual(EXIF.orientation(tiff: upright), 1)
        // Only the low byte of the big-endian SHORT changes (6 -> 1).
        let changed = differences(exif, upright)
        XCTAssertEqual(changed.count, 1)
        if let at = changed.first {
            XCTAssertEqual([exif[at - 1], exif[at], upright[at - 1], upright[at]], [0, 6, 0, 1])
        }

        // With the JPEG prefix: the prefix is kept and the same byte changes.
        let prefixed = EXIF.settingOrientation(1, in: EXIF.jpegPrefix + exif)
        XCTAssertEqual(prefixed, EXIF.jpegPrefix + upright)

        // Through the JPEG encoder and decoder: the file now reads upright and the rest of
        // the block is carried byte for byte.
        let pixels = [UInt8](repeating: 128, count: 16 * 8 * 3)
        let jpeg = try JPEGCodec.encode(width: 16, height: 8, channels: 3, bytes: pixels, exif: upright)
        let image = try JPEGCodec.decode(jpeg)
        XCTAssertEqual(image.metadata.exif, upright)
        XCTAssertEqual(image.metadata.exifOrientation, 1)
        XCTAssertFalse(image.metadata.orientationApplied)
        XCTAssertEqual([image.width, image.height], [16, 8])
    }

    func testByteOrderAndStorageType() {
        for littleEndian in [false, true] {
            for long in [false, true] {
                var tiff = EXIF.makeOrientationTIFF(6, littleEndian: littleEndian)
                // Entry at 10: tag 10..<12, type 12..<14, count 14..<18, value 18..<22.
                if long {
                    tiff.replaceSubrange(12..<14, with: littleEndian ? [4, 0] : [0, 4])
                    tiff.replaceSubrange(18..<22, with: littleEndian ? [6, 0, 0, 0] : [0, 0, 0, 6])
                }
                let label = "\(littleEndian ? "II" : "MM") \(long ? "LONG" : "SHORT")"
                XCTAssertEqual(EXIF.orientation(tiff: tiff), 6, label)
                let out = EXIF.settingOrientation(3, in: tiff)
                XCTAssertEqual(EXIF.orientation(tiff: out), 3, label)
                let expected: [UInt8] =
                    switch (littleEndian, long) {
                    case (false, false): [0, 3, 0, 0]
                    case (true, false): [3, 0, 0, 0]
                    case (false, true): [0, 0, 0, 3]
                    case (true, true): [3, 0, 0, 0]
                    }
                XCTAssertEqual(Array(out[18..<22]), expected, label)
                XCTAssertEqual(Array(out[..<18]), Array(tiff[..<18]), label)
                XCTAssertEqual(Array(out[22...]), Array(tiff[22...]), label)
            }
        }
    }

    func testInputComesBackUnchangedWhenThereIsNothingToSet() {
        let tiff = EXIF.makeOrientationTIFF(6)
        // Not an orientation.
        XCTAssertEqual(EXIF.settingOrientation(0, in: tiff), tiff)
        XCTAssertEqual(EXIF.settingOrientation(9, in: tiff), tiff)
        // Tag absent: IFD0 holds 0x0110 (Model) instead.
        var other = tiff
        other.replaceSubrange(10..<12, with: [0x01, 0x10])
        XCTAssertNil(EXIF.orientation(tiff: other))
        XCTAssertEqual(EXIF.settingOrientation(1, in: other), other)
        // Type BYTE (1) is not a valid Orientation storage.
        var byteType = tiff
        byteType.replaceSubrange(12..<14, with: [0, 1])
        XCTAssertEqual(EXIF.settingOrientation(1, in: byteType), byteType)
        // A count of 3 SHORTs does not fit the entry: the field is an offset, not the value.
        var offsetValue = tiff
        offsetValue.replaceSubrange(14..<18, with: [0, 0, 0, 3])
        XCTAssertEqual(EXIF.settingOrientation(1, in: offsetValue), offsetValue)
        // Not TIFF at all, empty, only the prefix, bad magic number.
        XCTAssertEqual(EXIF.settingOrientation(1, in: []), [])
        XCTAssertEqual(EXIF.settingOrientation(1, in: EXIF.jpegPrefix), EXIF.jpegPrefix)
        XCTAssertEqual(EXIF.settingOrientation(1, in: Array("hello, world".utf8)), Array("hello, world".utf8))
        var badMagic = tiff
        badMagic[3] = 43
        XCTAssertEqual(EXIF.settingOrientation(1, in: badMagic), badMagic)
        // IFD0 offset past the end, and an entry count running past the end.
        var farIFD = tiff
        farIFD.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0xF0])
        XCTAssertEqual(EXIF.settingOrientation(1, in: farIFD), farIFD)
        var manyEntries = tiff
        manyEntries.replaceSubrange(8..<10, with: [0xFF, 0xFF])
        manyEntries.replaceSubrange(10..<12, with: [0x01, 0x10])
        XCTAssertEqual(EXIF.settingOrientation(1, in: manyEntries), manyEntries)
    }

    /// Every truncation of a real EXIF block, with and without the prefix, and single-byte
    /// corruptions of its IFD0 region: never a trap, and either the input unchanged or only
    /// the value bytes changed with the result reading 1.
    func testTruncatedAndCorruptedEXIFNeverTraps() throws {
        let exif = try iPhoneEXIF()
        func check(_ input: [UInt8], prefixed: Bool, _ label: @autoclosure () -> String) {
            let out = EXIF.settingOrientation(1, in: input)
            guard out != input else { return }
            let changed = differences(input, out)
            XCTAssertTrue(changed.count <= 4, label())
            let bare = prefixed ? Array(out[EXIF.jpegPrefix.count...]) : out
            XCTAssertEqual(EXIF.orientation(tiff: bare), 1, label())
            if prefixed { XCTAssertEqual(Array(out.prefix(6)), EXIF.jpegPrefix, label()) }
        }
        let lengths = Array(0...exif.count)
        var rewritten = 0
        for length in lengths {
            let cut = Array(exif.prefix(length))
            check(cut, prefixed: false, "length \(length)")
            check(EXIF.jpegPrefix + cut, prefixed: true, "prefixed length \(length)")
            if EXIF.settingOrientation(1, in: cut) != cut { rewritten += 1 }
        }
        // Once IFD0's Orientation entry is inside the cut, it is rewritten.
        XCTAssertGreaterThan(rewritten, lengths.count - 100)

        var generator = SplitMix64(seed: 0x0112)
        for offset in 0..<min(exif.count, 256) {
            for value: UInt8 in [0x00, 0xFF, UInt8(truncatingIfNeeded: generator.next())] {
                var corrupt = exif
                corrupt[offset] = value
                check(corrupt, prefixed: false, "byte \(offset) = \(value)")
            }
        }
    }
}
