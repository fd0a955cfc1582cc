import XCTest
@testable import GraphEngine
import Kernels

/// The seeds' depth-darkening kernel with two image inputs, checked pixel by pixel.
final class DepthDarkenTests: XCTestCase {
    func testDarkenKernelWithTwoImages() throws {
        let kernel = try Kernel(source: "kernel vec4 darken(__sample s, __sample d, float power) { return vec4(s.rgb * pow(d.r, power), s.a); }")
        XCTAssertEqual(kernel.kind, .color)
        let photo = try makeTestBuffer(width: 16, height: 12, seed: 21)
        var depthBytes: [UInt8] = []
        for row in 0..<12 { for x in 0..<16 { let v = UInt8((x * 16 + row * 5) % 256); depthBytes += [v, v, v, 255] } }
        let depth = try ImageBuffer(width: 16, height: 12, format: .rgba8, alphaMode: .opaque, colorSpace: nil, bytes: depthBytes)
        let power = 2.2
        let image = try Image.applying(kernel, arguments: [.image(Image(buffer: photo)), .image(Image(buffer: depth)), .number(power)])
        // The kernel's own arithmetic, without colour management.
        var options = ContextOptions()
        options.workingFormat = .rgbaf
        options.workingColorSpace = nil
        let out = try Context(options: options).render(image, format: .rgbaf)
        for row in 0..<12 {
            for x in 0..<16 {
                let s = photo.pixel(x: x, row: row), d = depth.pixel(x: x, row: row)
                let o = out.pixel(x: x, row: row)
                for c in 0..<3 {
                    XCTAssertEqual(Double(o[c]), Double(s[c]) * pow(Double(d[0]), power), accuracy: 2e-6)
                }
                XCTAssertEqual(o[3], s[3])
            }
        }
        // One program: load, load, pow, 3 multiplies, store.
        let dump = try Context().dump(image)
        XCTAssertEqual(dump.programs.count, 1, dump.text())
    }
}
