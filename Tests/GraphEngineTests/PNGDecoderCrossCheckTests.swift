import Foundation
import GraphCodecs
import XCTest
@testable import GraphEngine

/// PNG files written on several threads (image data compressed in parallel bands) read the same in
/// other decoders as in libpng: Pillow (its own zlib-based decoder), and OpenCV and libvips where
/// installed; Python's zlib inflates the joined IDAT data whole, Adler-32 checked.
final class PNGDecoderCrossCheckTests: XCTestCase {
    /// A deterministic picture: ramps, a smooth surface and noise, so every filter and many
    /// matches occur; alpha falls off to the right when `alpha`.
    private func picture(width: Int, height: Int, alpha: Bool) throws -> ImageBuffer {
        var state: UInt64 = 17
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let noise = Int(state >> 60)
                let i = (y * width + x) * 4
                bytes[i] = UInt8((x * 3 + y) % 256)
                bytes[i + 1] = UInt8((x * x / 97 + y * y / 53 + noise) % 256)
                bytes[i + 2] = UInt8(y % 64 < 32 ? (x + noise * 9) % 256 : (x / 4 + y / 3) % 256)
                if alpha { bytes[i + 3] = UInt8(max(0, 255 - x * 255 / width)) }
            }
        }
        return try ImageBuffer(width: width, height: height, format: .rgba8, alphaMode: .straight, bytes: bytes)
    }

    func testOtherDecodersReadTheFilesAsLibpngDoes() throws {
        let folder = NSTemporaryDirectory() + "png-cross-check-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var options = ContextOptions()
        options.threads = 3
        options.workingColorSpace = nil
        let context = Context(options: options)
        let colour = Image(buffer: try picture(width: 500, height: 400, alpha: false))
        let translucent = Image(buffer: try picture(width: 200, height: 400, alpha: true))
        var greyBytes = try picture(width: 1100, height: 500, alpha: false).bytes
        for i in stride(from: 0, to: greyBytes.count, by: 4) { (greyBytes[i], greyBytes[i + 2]) = (greyBytes[i + 1], greyBytes[i + 1]) }
        let grey = Image(buffer: try ImageBuffer(width: 1100, height: 500, format: .rgba8, alphaMode: .opaque, colorSpace: nil,
                                                 bytes: greyBytes))
        // (name, image, options, layout expected), each in 2 or 3 bands of 512 KiB: RGB 8-bit,
        // RGBA 16-bit, grey 8-bit and 16-bit data.
        let cases: [(String, Image, ImageWriteOptions, channels: Int, bitDepth: Int)] = [
            ("rgb8", colour, ImageWriteOptions(), 3, 8),
            ("rgba16", translucent, ImageWriteOptions(bitDepth: 16), 4, 16),
            ("grey8", grey, ImageWriteOptions(colorSpace: .data), 1, 8),
            ("grey16", grey, ImageWriteOptions(bitDepth: 16, colorSpace: .data), 1, 16),
        ]
        var manifest = ""
        for (name, image, writeOptions, channels, bitDepth) in cases {
            let path = "\(folder)/\(name).png"
            try context.write(image, to: path, options: writeOptions)
            let decoded = try ImageFile.decode(path: path)
            XCTAssertEqual([decoded.channels, decoded.bitDepth], [channels, bitDepth], name)
            XCTAssertEqual(decoded.warnings, [], name)
            try Data(decoded.bytes).write(to: URL(fileURLWithPath: "\(folder)/\(name).raw"))
            manifest += "\(path) \(decoded.width) \(decoded.height) \(channels) \(bitDepth)\n"
        }
        try manifest.write(toFile: "\(folder)/manifest", atomically: true, encoding: .utf8)

        guard let result = try DepthTestData.run("python3", ["-c", Self.script, "\(folder)/manifest"]),
              !result.error.contains("No module named 'PIL'"), !result.error.contains("No module named 'numpy'") else {
            throw XCTSkip("Pillow and numpy are not installed (pip install Pillow numpy)")
        }
        XCTAssertEqual(result.status, 0, result.error)
        let lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init)
        for name in cases.map(\.0) {
            XCTAssertTrue(lines.contains("\(name) zlib ok"), "\(name): \(lines)")
            XCTAssertTrue(lines.contains("\(name) Pillow ok"), "\(name): \(lines)")
        }
        XCTAssertEqual(lines.filter { !$0.hasSuffix(" ok") && !$0.hasSuffix(" not installed") }, [])
    }

    /// For each file of the manifest (path, width, height, channels, bit depth; libpng's samples
    /// beside it as .raw, native-endian): "NAME DECODER ok", a mismatch, or "not installed".
    /// Pillow reads 16-bit colour as 8-bit (the high bytes).
    private static let script = #"""
        import os, struct, sys, zlib
        import numpy as np
        from PIL import Image

        def idat(path):
            data, chunks, offset = open(path, "rb").read(), [], 8
            while offset < len(data):
                length, kind = struct.unpack(">I4s", data[offset:offset + 8])
                if kind == b"IDAT":
                    chunks.append(data[offset + 8:offset + 8 + length])
                offset += 12 + length
            return b"".join(chunks)

        def report(name, decoder, got, expected):
            same = got.shape == expected.shape and np.array_equal(got, expected)
            print(name, decoder, "ok" if same else "MISMATCH %s vs %s" % (got.shape, expected.shape))

        for line in open(sys.argv[1]):
            path, width, height, channels, depth = line.split()
            width, height, channels, depth = int(width), int(height), int(channels), int(depth)
            name = os.path.basename(path)[:-4]
            dtype = np.uint16 if depth == 16 else np.uint8
            expected = np.fromfile(path[:-4] + ".raw", dtype=dtype).reshape(height, width, channels)
            try:
                rows = zlib.decompress(idat(path))
                ok = len(rows) == height * (width * channels * depth // 8 + 1)
                print(name, "zlib", "ok" if ok else "MISMATCH %d bytes" % len(rows))
            except zlib.error as error:
                print(name, "zlib", "error", error)
            pillow = np.asarray(Image.open(path))
            if depth == 16 and channels > 1:
                report(name, "Pillow", pillow.reshape(height, width, channels), (expected >> 8).astype(np.uint8))
            else:
                report(name, "Pillow", pillow.reshape(height, width, channels), expected)
            try:
                import cv2
            except Exception:
                print(name, "OpenCV not installed")
            else:
                image = cv2.imread(path, cv2.IMREAD_UNCHANGED).reshape(height, width, channels)
                if channels >= 3:
                    image = image[:, :, [2, 1, 0, 3][:channels]]
                report(name, "OpenCV", image, expected)
            try:
                import pyvips
            except Exception:
                print(name, "libvips not installed")
            else:
                image = pyvips.Image.new_from_file(path)
                report(name, "libvips", np.ndarray(buffer=image.write_to_memory(), dtype=dtype,
                                                   shape=(image.height, image.width, image.bands)), expected)
        """#
}
