import Foundation
import XCTest

/// Barcode readers for the generator tests: a grey picture written as a PGM file and read back by
/// an external decoder (zbar's `zbarimg`, zxing-cpp's `ZXingReader`).
enum BarcodeDecoding {
    /// A grey picture: `width × height` bytes, the top row first.
    struct Picture {
        var width: Int, height: Int
        var pixels: [UInt8]
    }

    /// `modules` (dark = true) drawn `scale` pixels per module, black on white, inside a white
    /// quiet zone of `quiet` pixels on every side.
    static func picture(_ modules: [[Bool]], scale: Int, quiet: Int) -> Picture {
        let width = modules[0].count * scale + 2 * quiet, height = modules.count * scale + 2 * quiet
        var pixels = [UInt8](repeating: 255, count: width * height)
        for (j, row) in modules.enumerated() {
            for (i, dark) in row.enumerated() where dark {
                for y in 0..<scale { for x in 0..<scale { pixels[(quiet + j * scale + y) * width + quiet + i * scale + x] = 0 } }
            }
        }
        return Picture(width: width, height: height, pixels: pixels)
    }

    /// What `zbarimg` reads in `picture` (the symbol's bytes as they are, `-Sbinary`, read as
    /// UTF-8); nil when it reads nothing. Skips the test when zbar is not installed.
    static func zbar(_ picture: Picture) throws -> String? {
        let (status, output) = try run(picture, ["zbarimg", "-q", "--raw", "-Sbinary"], missing: "zbarimg (zbar-tools)")
        return status == 0 ? String(decoding: output, as: UTF8.self) : nil
    }

    /// What `ZXingReader` reads as `format` (QRCode, Aztec, PDF417, DataMatrix) in `picture`; nil
    /// when it reads nothing. Skips the test when zxing-cpp-tools is not installed.
    static func zxing(_ picture: Picture, format: String) throws -> String? {
        let (_, output) = try run(picture, ["ZXingReader", "-format", format, "-bytes"], missing: "ZXingReader (zxing-cpp-tools)")
        return output.isEmpty ? nil : String(decoding: output, as: UTF8.self)
    }

    /// `arguments` plus the path of `picture` written as a PGM file: the exit status and standard output.
    private static func run(_ picture: Picture, _ arguments: [String], missing: String) throws -> (Int32, Data) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("barcode-\(UUID().uuidString).pgm")
        defer { try? FileManager.default.removeItem(at: url) }
        try (Data("P5 \(picture.width) \(picture.height) 255\n".utf8) + Data(picture.pixels)).write(to: url)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments + [url.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if process.terminationStatus == 127 { throw XCTSkip("\(missing) is not installed") }
        return (process.terminationStatus, output)
    }
}
