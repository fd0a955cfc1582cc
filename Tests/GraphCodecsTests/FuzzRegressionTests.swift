import XCTest

@testable import GraphCodecs

/// Inputs the fuzz targets (Fuzz/, `scripts/fuzz.sh`) found to crash, hang or exhaust memory. Each
/// is also a file of the target's corpus (Fuzz/corpus/TARGET/regression-*), replayed by every run.
final class FuzzRegressionTests: XCTestCase {
    /// png: a 716-byte file whose iTXt chunk declares 1,912,602,687 bytes. libpng 1.6 only warns
    /// that the chunk is over its limit, then allocates and zeroes the declared length: `graph info`
    /// took 1.9 GB and 8 s. A chunk longer than the data left is truncation, refused at its header.
    func testPNGChunkDeclaringMoreThanTheFileIsRefusedBeforeAllocating() throws {
        var ihdr: [UInt8] = []
        ihdr.appendBE32(32)
        ihdr.appendBE32(32)
        ihdr += [4, 0, 0, 0, 0]
        var png = PNGCodec.signature + chunk("IHDR", ihdr) + chunk("gAMA", [0, 1, 0x86, 0xA0])
        png.appendBE32(1_912_602_687)
        png += Array("iTXtDescription".utf8) + [UInt8](repeating: 0x41, count: 200)
        // Refused at the chunk header: the message names the declared length (libpng's own error,
        // after allocating, says only that the file is truncated).
        let info = expectCodecError { () throws(CodecError) in try PNGCodec.readInfo(png) }
        let decode = expectCodecError { () throws(CodecError) in try PNGCodec.decode(png) }
        for error in [info, decode] {
            XCTAssertEqual(error?.kind, .truncated)
            XCTAssertTrue(error?.message.contains("chunk iTXt declares 1912602687 bytes, 207 remain") == true,
                          error?.description ?? "")
        }
        // A truncated image keeps libpng's own error (IDAT is read piecewise, never allocated whole).
        let whole = try PNGCodec.encode(width: 16, height: 16, channels: 3, bitDepth: 8,
                                        bytes: (0..<768).map { UInt8($0 % 251) })
        let cut = Array(whole.prefix(whole.count - 30))
        XCTAssertEqual(expectCodecError { () throws(CodecError) in try PNGCodec.decode(cut) }?.kind, .truncated)
    }

    private func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.appendBE32(data.count)
        let body = Array(type.utf8) + data
        out += body
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        out.appendBE32(Int(~crc))
        return out
    }
}
