import Foundation
import GraphCodecs
import XCTest
@testable import GraphCLI

/// A file's bytes quoted in an error reach the terminal escaped, on one line (issue 31, item 4):
/// a HEIF box type of NUL, ESC, newline and a C1 byte, as `graph info` and `graph run` report it.
final class HostileTextTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws { folder = try makeWorkspace() }
    override func tearDown() { try? FileManager.default.removeItem(at: folder) }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// ftyp, then a box typed `00 1B 0A 9B` claiming 200 bytes of the 12 left
    /// (Fuzz/corpus/heif/regression-control-bytes-in-box-type).
    private func writeHostileHEIF() throws {
        func box(_ type: [UInt8], _ payload: [UInt8], size: UInt8? = nil) -> [UInt8] {
            [0, 0, 0, size ?? UInt8(8 + payload.count)] + type + payload
        }
        let bytes = box(Array("ftyp".utf8), Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
            + box([0x00, 0x1B, 0x0A, 0x9B], [1, 2, 3, 4], size: 200)
        try ImageFile.writeAtomically(bytes, to: path("hostile.heic"))
    }

    func testABoxTypeWithControlBytesIsReportedEscapedOnOneLine() throws {
        try writeHostileHEIF()
        let quoted = #"box '\x00\x1b\x0a\x9b' at offset 24 claims 200 bytes but 12 remain [\x00\x1b\x0a\x9b]"#
        let info = Graph.runInProcess(["info", path("hostile.heic")])
        XCTAssertEqual(info.status, 2)
        XCTAssertEqual(info.err, "graph: error: \(path("hostile.heic")): HEIF: \(quoted)\n")
        let recipe = #"{"version": 1, "images": {"out": {"file": "hostile.heic"}}, "outputs": [{"image": "out", "file": "out.png"}]}"#
        let run = Graph.runInProcess(["run", try writeRecipe(recipe, in: folder)])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.err.filter { $0 == "\n" }.count, 1, run.err)
        XCTAssertTrue(run.err.contains(quoted), run.err)
        XCTAssertFalse(run.err.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0 || $0.value == 0x9B }, run.err)
    }

    /// Whatever a message quotes, `graph: error:` lines are one line: the last line of defence
    /// escapes a newline or ESC that reached a message another way.
    /// Text from a file that `graph info` prints (here an ICC profile's description) reaches the
    /// terminal escaped too: an escape sequence in it cannot clear the screen, a newline cannot
    /// forge a line. The JSON form escapes it as JSON does.
    func testInfoPrintsTheFilesTextEscaped() throws {
        let profile = ICCProfile.makeRGBProfile(description: "sRGB\u{1B}[2J\nforged: yes", primaries: .sRGB,
                                                       transferFunctionType: 0, transfer: [2.2])
        let png = try PNGCodec.encode(width: 2, height: 2, channels: 3, bitDepth: 8, bytes: [UInt8](repeating: 90, count: 12),
                                      iccProfile: profile)
        try ImageFile.writeAtomically(png, to: path("profiled.png"))
        let text = Graph.runInProcess(["info", path("profiled.png")])
        XCTAssertEqual(text.status, 0, text.err)
        XCTAssertTrue(text.out.contains(#"colour profile: sRGB\x1b[2J\x0aforged: yes"#), text.out)
        XCTAssertFalse(text.out.unicodeScalars.contains { $0.value == 0x1B }, text.out)
        XCTAssertFalse(text.out.contains("\nforged"), text.out)
        let json = Graph.runInProcess(["info", path("profiled.png"), "--format", "json"])
        XCTAssertEqual(json.status, 0, json.err)
        XCTAssertTrue(json.out.contains(#"sRGB\u001b[2J\nforged: yes"#), json.out)
    }

    func testEveryDiagnosticIsOneLine() {
        let printed = Terminal.shared.capturing {
            Terminal.shared.diagnostic("graph: error: a\nb\u{1B}[2J")
        }
        XCTAssertEqual(printed.err, "graph: error: a\\x0ab\\x1b[2J\n")
    }
}
