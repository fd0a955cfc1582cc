import Foundation
import GraphVideo
import XCTest

/// Depth stored in the pixel formats lossless encoders give: grey of 8 to 16 bits and the luma
/// plane of YUV (4:2:0, 4:4:4, 10 and 12 bits), read as the stored codes; video-range luma
/// stretched back to full range when asked; formats without a luma plane refused by name.
final class DepthStreamFormatTests: XCTestCase {
    private let width = 64, height = 16

    /// The ramp stored at (x, y): every code of `bits` bits in steps, plus the row, 0 included.
    private func code(_ x: Int, _ y: Int, bits: Int) -> Int {
        (x * ((1 << bits) / width) + y) % (1 << bits)
    }

    /// The first depth map of `path` with a scale of 1, so its metres are the codes.
    private func codes(_ path: String, range: DepthEncoding.SampleRange = .full) throws -> (values: [Float], info: VideoStreamInfo) {
        let source = try DepthSource(video: path, encoding: DepthEncoding(kind: .depth, scale: 1, range: range))
        return (try source.map(frame: 0, seconds: 0, videoFrameDuration: 0.1).metres, source.info)
    }

    /// Lossless H.264 (x264 at CRF 0) in yuv420p, written with the FFmpeg libraries from a luma
    /// ramp with noise in the chroma: the depth is the luma, exactly; read as video range, it is
    /// stretched to full range (16 and below a hole, 235 full scale).
    func testLosslessH264DepthIsReadFromTheLumaPlane() throws {
        let folder = try VideoTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var bytes = [UInt8](repeating: 0, count: width * height * 3 / 2)
        for y in 0..<height { for x in 0..<width { bytes[y * width + x] = UInt8(code(x, y, bits: 8)) } }
        for i in (width * height)..<bytes.count { bytes[i] = UInt8((i * 37) % 256) }
        let path = folder.appendingPathComponent("depth.mkv").path
        let writer = try VideoWriter(path: path, stream: VideoWriter.Stream(width: width, height: height, timeBase: (1, 10), frameRate: (10, 1)),
                                     input: .i420, encoding: VideoEncoding(codec: "libx264", preset: "ultrafast", crf: 0, threads: 1))
        try bytes.withUnsafeBytes { try writer.write($0.baseAddress!, rowBytes: width, pts: 0) }
        try writer.finish()
        for range in DepthEncoding.SampleRange.allCases {
            let (values, info) = try codes(path, range: range)
            XCTAssertEqual(info.codec, "h264")
            XCTAssertEqual(info.pixelFormat, "yuv420p")
            XCTAssertEqual(info.sampleBits, 8)
            for y in 0..<height {
                for x in 0..<width {
                    let stored = Double(code(x, y, bits: 8))
                    let expected = range == .video ? max(0, (stored - 16) * 255 / 219) : stored
                    XCTAssertEqual(Double(values[y * width + x]), expected, accuracy: 1e-4, "\(range) at (\(x), \(y))")
                }
            }
        }
    }

    /// A grey depth map converted to yuv420p by the ffmpeg program (as people make lossless
    /// H.264 depth) is stored in video range: read with `range: .video` it comes back within
    /// half a video-range step (255/219/2) of the map, and its holes stay holes.
    func testAGreyMapConvertedToVideoRangeLumaComesBack() throws {
        guard let ffmpeg = VideoTestSupport.program("ffmpeg") else { throw XCTSkip("no ffmpeg program to make the test stream") }
        let folder = try VideoTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let grey = (0..<(width * height)).map { UInt8(code($0 % width, $0 / width, bits: 8)) }
        let rawPath = folder.appendingPathComponent("grey.raw").path, path = folder.appendingPathComponent("depth.mkv").path
        try Data(grey).write(to: URL(fileURLWithPath: rawPath))
        try VideoTestSupport.runFFmpeg(ffmpeg, ["-f", "rawvideo", "-pix_fmt", "gray", "-s", "\(width)x\(height)", "-r", "10", "-i", rawPath,
                                                "-c:v", "libx264", "-qp", "0", "-preset", "ultrafast", "-pix_fmt", "yuv420p", path])
        let (values, info) = try codes(path, range: .video)
        XCTAssertEqual(info.pixelFormat, "yuv420p")
        for (index, value) in values.enumerated() {
            XCTAssertEqual(value, Float(grey[index]), accuracy: 0.59, "at \(index)")
            if grey[index] == 0 { XCTAssertEqual(value, 0, "a hole at \(index)") }
        }
    }

    /// Lossless streams made by the ffmpeg program from raw frames of a known ramp (no
    /// conversion: the raw input has the stream's own format): 4:4:4, 10- and 12-bit YUV, 10-bit
    /// grey and grey with alpha. Each code is read back exactly; the default disparity scale
    /// makes the full-scale code 1/m at every bit depth.
    func testYUVAndDeepGreyDepthStreamsGiveTheirStoredCodes() throws {
        guard let ffmpeg = VideoTestSupport.program("ffmpeg") else { throw XCTSkip("no ffmpeg program to make the test streams") }
        let folder = try VideoTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [(format: String, bits: Int, planes: [(bytes: Int, scale: Int, interleave: Int)], codec: [String])] = [
            ("yuv444p", 8, [(1, 1, 1), (1, 1, 1), (1, 1, 1)], ["-c:v", "libx264", "-qp", "0", "-preset", "ultrafast"]),
            ("yuv420p10le", 10, [(2, 1, 1), (2, 2, 1), (2, 2, 1)], ["-c:v", "libx264", "-qp", "0", "-preset", "ultrafast"]),
            ("yuv420p12le", 12, [(2, 1, 1), (2, 2, 1), (2, 2, 1)], ["-c:v", "libx265", "-x265-params", "lossless=1:log-level=none"]),
            ("gray10le", 10, [(2, 1, 1)], ["-c:v", "ffv1"]),
            ("ya8", 8, [(1, 1, 2)], ["-c:v", "ffv1"]),
        ]
        for (format, bits, planes, codec) in cases {
            // Luma (or grey) the ramp; chroma and alpha a constant mid value.
            var raw: [UInt8] = []
            for (index, plane) in planes.enumerated() {
                for y in 0..<(height / plane.scale) {
                    for x in 0..<(width / plane.scale) {
                        for part in 0..<plane.interleave {
                            let value = index == 0 && part == 0 ? code(x, y, bits: bits) : 1 << (bits - 1)
                            raw.append(UInt8(value & 0xFF))
                            if plane.bytes == 2 { raw.append(UInt8(value >> 8)) }
                        }
                    }
                }
            }
            let rawPath = folder.appendingPathComponent("\(format).raw").path, path = folder.appendingPathComponent("\(format).mkv").path
            try Data(raw).write(to: URL(fileURLWithPath: rawPath))
            try VideoTestSupport.runFFmpeg(ffmpeg, ["-f", "rawvideo", "-pix_fmt", format, "-s", "\(width)x\(height)", "-r", "10", "-i", rawPath]
                                           + codec + ["-pix_fmt", format, path])
            let (values, info) = try codes(path)
            XCTAssertEqual(info.pixelFormat, format)
            XCTAssertEqual(info.sampleBits, bits, format)
            let expected = (0..<(width * height)).map { Float(code($0 % width, $0 / width, bits: bits)) }
            XCTAssertEqual(values, expected, format)
            // Disparity: the largest code stored is 1/m at the default scale 1/(2^bits − 1).
            let disparity = try DepthSource(video: path, encoding: DepthEncoding(kind: .disparity)).map(frame: 0, seconds: 0, videoFrameDuration: 0.1)
            let full = Double((1 << bits) - 1)
            XCTAssertEqual(Double(disparity.metres[width - 1]), full / Double(code(width - 1, 0, bits: bits)), accuracy: 1e-5, format)
        }
    }

    /// An RGB image has no luma plane to hold depth: the error says so and names the formats that do.
    func testAnRGBImageCannotCarryDepth() throws {
        let folder = try VideoTestSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("colour.png").path
        let writer = try VideoWriter(path: path, stream: VideoWriter.Stream(width: 8, height: 8, timeBase: (1, 10), frameRate: (10, 1)),
                                     input: .rgba, encoding: VideoEncoding(codec: "png", preset: nil, crf: nil))
        let pixels = [UInt8](repeating: 200, count: 8 * 8 * 4)
        try pixels.withUnsafeBytes { try writer.write($0.baseAddress!, rowBytes: 32, pts: 0) }
        try writer.finish()
        let format = try VideoReader(path: path).info.pixelFormat
        XCTAssertTrue(format.hasPrefix("rgb"), format)
        for open in [{ _ = try DepthSource(still: path, encoding: DepthEncoding()) }, { _ = try DepthSource(video: path, encoding: DepthEncoding()) }] {
            XCTAssertThrowsError(try open()) { error in
                XCTAssertTrue("\(error)".hasPrefix("\(path): the pixel format '\(format)' cannot carry depth: depth is read from grey samples"),
                              "\(error)")
            }
        }
    }
}
