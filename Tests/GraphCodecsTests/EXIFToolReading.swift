import Foundation

@testable import GraphCodecs

/// `exiftool -n -s3 -f -TAG …` of a small JPEG carrying `exif` (one line per tag, "-" for a tag
/// that is absent), for the EXIF writers' tests; nil when exiftool is not installed.
func exiftoolTags(_ tags: [String], ofJPEGCarrying exif: [UInt8]) throws -> [String]? {
    let jpeg = try JPEGCodec.encode(width: 16, height: 8, channels: 3, bytes: [UInt8](repeating: 90, count: 16 * 8 * 3), exif: exif)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("exif-\(UUID().uuidString).jpg").path
    try Data(jpeg).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["exiftool", "-n", "-s3", "-f"] + tags.map { "-" + $0 } + [path]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = Pipe()
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
}
