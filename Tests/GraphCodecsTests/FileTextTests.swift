import CLibHeif
import XCTest

@testable import GraphCodecs

/// File content quoted in messages is one line without terminal control codes (issue 31, item 4).
final class FileTextTests: XCTestCase {
    func testControlCharactersDELAndInvalidUTF8AreEscapedPrintableTextIsKept() {
        XCTAssertEqual(FileText.escaped([0x00, 0x1B, 0x5B, 0x32, 0x4A, 0x0A, 0x0D, 0x7F]), "\\x00\\x1b[2J\\x0a\\x0d\\x7f")
        // Invalid UTF-8: a lone continuation byte, 0xFF, a sequence cut short.
        XCTAssertEqual(FileText.escaped([0x61, 0x80, 0xFF, 0xE2, 0x82]), "a\\x80\\xff\\xe2\\x82")
        // C1 CSI (U+009B), a line separator and a right-to-left override, in valid UTF-8.
        XCTAssertEqual(FileText.escaped(Array("x\u{9B}y\u{2028}z\u{202E}".utf8)), "x\\xc2\\x9by\\xe2\\x80\\xa8z\\xe2\\x80\\xae")
        XCTAssertEqual(FileText.escaped(Array("hvc1 é ☃ \\x1b".utf8)), "hvc1 é ☃ \\x1b")
        XCTAssertEqual(FileText.escaped("two\nlines\u{1B}"), "two\\x0alines\\x1b")
        XCTAssertEqual(FileText.escaped("plain"), "plain")
        "bad\u{1B}]0;title\u{07}".withCString { XCTAssertEqual(FileText.escaped(cString: $0), "bad\\x1b]0;title\\x07") }
    }

    /// A box whose 4-byte type holds NUL, ESC and a newline, claiming more bytes than the file
    /// has: the message quotes the type escaped, on one line.
    func testABoxTypeWithControlBytesIsQuotedEscaped() {
        func box(_ type: [UInt8], _ payload: [UInt8]) -> [UInt8] {
            let size = UInt32(8 + payload.count)
            return [UInt8(size >> 24), UInt8((size >> 16) & 0xFF), UInt8((size >> 8) & 0xFF), UInt8(size & 0xFF)] + type + payload
        }
        let ftyp = box(Array("ftyp".utf8), Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
        var hostile = box([0x00, 0x1B, 0x0A, 0x9B], [1, 2, 3, 4])
        hostile[3] = 200  // claims 200 bytes
        let error = expectCodecError { () throws(CodecError) in try HEIFStructure.parse(ftyp + hostile) }
        XCTAssertEqual(error?.message, "box '\\x00\\x1b\\x0a\\x9b' at offset 24 claims 200 bytes but 12 remain")
        XCTAssertEqual(error?.description, "HEIF: box '\\x00\\x1b\\x0a\\x9b' at offset 24 claims 200 bytes but 12 remain [\\x00\\x1b\\x0a\\x9b]")
    }

    /// libheif's own messages (its security-limit message holds "\n [meta]") become one line.
    func testALibheifMessageWithANewlineAndEscapeIsOneLine() {
        let text = "Security limit exceeded:\n [meta] \u{1B}[2J too many items"
        let error: CodecError? = text.withCString { message in
            expectCodecError { () throws(CodecError) in
                try HEIFCodec.check(heif_error(code: heif_error_Memory_allocation_error, subcode: heif_suberror_Security_limit_exceeded,
                                               message: message), "cannot read the file", segment: "libheif")
            }
        }
        XCTAssertEqual(error?.kind, .tooLarge)
        XCTAssertEqual(error?.message, "cannot read the file: Security limit exceeded:\\x0a [meta] \\x1b[2J too many items")
        XCTAssertEqual(error?.description.contains("\n"), false)
    }
}
