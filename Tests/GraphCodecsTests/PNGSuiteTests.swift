import XCTest

@testable import GraphCodecs

/// PngSuite conformance: every valid file decodes to the same samples as pypng (an
/// independent pure-Python decoder; see Fixtures/make_pngsuite_checksums.py), every
/// deliberately corrupt x*.png is refused with a clear error.
final class PNGSuiteTests: XCTestCase {
    func testValidFilesMatchIndependentDecoder() throws {
        let folder = try TestPaths.sharedTestData("pngsuite")
        var expected: [String: [String]] = [:]
        for line in try TestPaths.readLines(TestPaths.fixtures + "/pngsuite_checksums.txt") {
            let fields = line.split(separator: " ").map(String.init)
            expected[fields[0]] = Array(fields[1...])
        }
        XCTAssertEqual(expected.count, 161)
        var identical = 0
        for name in TestPaths.listFiles(folder) where name.hasSuffix(".png") && !name.hasPrefix("x") {
            guard let reference = expected[name] else {
                XCTFail("\(name) has no reference checksum")
                continue
            }
            do {
                let image = try ImageFile.decode(path: folder + "/" + name, options: DecodeOptions(applyOrientation: false))
                let actual = ["\(image.width)", "\(image.height)", "\(image.channels)", "\(image.bitDepth)", canonicalFNV(image)]
                XCTAssertEqual(actual, reference, name)
                if actual == reference { identical += 1 }
            } catch {
                XCTFail("\(name): \(error)")
            }
        }
        XCTAssertEqual(identical, 161, "PngSuite valid files identical to pypng")
        print("PngSuite: \(identical)/161 valid files identical to pypng")
    }

    func testCorruptFilesAreRejected() throws {
        let folder = try TestPaths.sharedTestData("pngsuite")
        let corrupt = TestPaths.listFiles(folder).filter { $0.hasPrefix("x") && $0.hasSuffix(".png") }
        XCTAssertEqual(corrupt.count, 14)
        var rejected = 0
        for name in corrupt {
            do {
                _ = try ImageFile.decode(path: folder + "/" + name)
                XCTFail("\(name) decoded but is corrupt")
            } catch {
                XCTAssertEqual(error.path, folder + "/" + name)
                XCTAssertFalse((error.libraryMessage ?? error.message).isEmpty)
                print("PngSuite \(name): \(error.message)")
                rejected += 1
            }
        }
        XCTAssertEqual(rejected, 14)
        // Specific messages name the problem.
        let messages = [
            ("xs1n0g01.png", "signature"), ("xcrn0g04.png", "signature"), ("xhdn0g08.png", "CRC"),
            ("xc1n0g08.png", "color type"), ("xd0n2c08.png", "bit depth"), ("xcsn0g01.png", "CRC"),
            ("xdtn0g01.png", "IDAT"),
        ]
        for (name, needle) in messages {
            let error = expectCodecError { () throws(CodecError) in try ImageFile.decode(path: folder + "/" + name) }
            XCTAssertTrue(error?.description.lowercased().contains(needle.lowercased()) == true, "\(name): \(error?.description ?? "")")
        }
    }
}
