import Foundation
import GraphCodecs
import XCTest
@testable import GraphEngine

/// The real depth photos of `shared/testdata/depth` and helpers shared by the depth tests.
enum DepthTestData {
    /// `<repo>/../shared/testdata/depth/<name>`; skips the test when the shared folder is absent.
    static func path(_ name: String) throws -> String {
        let file = #filePath
        let tests = URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let path = tests.deletingLastPathComponent().appendingPathComponent("shared/testdata/depth/\(name)").path
        guard FileManager.default.fileExists(atPath: path) else {
            throw XCTSkip("shared test data not found at \(path) (expected shared/ beside the repository)")
        }
        return path
    }

    /// A fresh temporary folder.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("graph-depth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The Float32 values of a data map, rows top first.
    static func values(_ map: Image) throws -> (values: [Float], width: Int, height: Int) {
        let buffer = try Context().render(map, format: .grayf, colorSpace: .data)
        return (buffer.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }, buffer.width, buffer.height)
    }

    /// The first channel of an 8-bit grey JPEG or PNG file's pixels.
    static func greySamples(_ bytes: [UInt8]) throws -> (samples: [UInt8], width: Int, height: Int) {
        let decoded = try ImageFile.decode(bytes, options: DecodeOptions(applyOrientation: false))
        let samples = stride(from: 0, to: decoded.bytes.count, by: decoded.channels).map { decoded.bytes[$0] }
        return (samples, decoded.width, decoded.height)
    }

    /// Runs a tool found on PATH; nil (the caller skips its test) when it is not installed.
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: Data, error: String)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus == 127 { return nil }  // env: no such tool
        return (process.terminationStatus, output, error)
    }
}
