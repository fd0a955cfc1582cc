import XCTest

@testable import GraphCodecs

#if canImport(Glibc)
import Glibc
#endif

/// Locates shared test data and fixtures relative to this source file, so the tests work
/// in any checkout that has `shared/` beside the repository.
enum TestPaths {
    /// This test folder (symlinks resolved).
    static var testsFolder: String {
        let file = #filePath
        let folder = String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)])
        guard let resolved = realpath(folder, nil) else { return folder }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static var fixtures: String { testsFolder + "/Fixtures" }

    /// `<repo>/../shared/testdata/<sub>`; skips the test with a clear message when absent.
    static func sharedTestData(_ sub: String) throws -> String {
        let path = testsFolder + "/../../../shared/testdata/" + sub
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw XCTSkip("shared test data not found at \(path) (expected shared/ beside the repository)")
        }
        return path
    }

    static func listFiles(_ folder: String) -> [String] {
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    static func readLines(_ path: String) throws -> [String] {
        let bytes = try ImageFile.read(path: path)
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}

/// 64-bit FNV-1a over canonical samples (16-bit samples as big-endian), matching the
/// Python reference scripts in Fixtures/.
func canonicalFNV(_ image: DecodedImage) -> String {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    func mix(_ byte: UInt8) {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01B3
    }
    if image.bitDepth == 16 {
        image.bytes.withUnsafeBytes { raw in
            for sample in raw.bindMemory(to: UInt16.self) {
                let be = sample.bigEndian
                mix(UInt8(truncatingIfNeeded: UInt16(bigEndian: be) >> 8))
                mix(UInt8(truncatingIfNeeded: UInt16(bigEndian: be)))
            }
        }
    } else {
        for byte in image.bytes { mix(byte) }
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
}

/// Expects `body` to throw a CodecError and returns it.
func expectCodecError<T>(_ body: () throws(CodecError) -> T, file: StaticString = #filePath, line: UInt = #line) -> CodecError? {
    do {
        _ = try body()
        XCTFail("expected a CodecError", file: file, line: line)
        return nil
    } catch {
        XCTAssertFalse(error.description.isEmpty, file: file, line: line)
        return error
    }
}

/// A small deterministic generator (SplitMix64) for fuzz inputs: the same bytes on every run.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
