import CVideoShims
import XCTest

/// `gv_rgba_to_i420`, the writer's RGBA → 4:2:0 conversion, against a float64 reference of the
/// matrix formulas: luma per pixel, chroma from each 2x2 block's mean (edges repeated).
final class RGBAToI420Tests: XCTestCase {
    private func convert(_ rgba: [UInt8], width: Int, height: Int, space: Int32, full: Bool, baseline: Bool = false) -> [[UInt8]] {
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        var (luma, blue, red) = ([UInt8](repeating: 0, count: width * height), [UInt8](repeating: 0, count: cw * ch),
                                 [UInt8](repeating: 0, count: cw * ch))
        luma.withUnsafeMutableBufferPointer { y in
            blue.withUnsafeMutableBufferPointer { u in
                red.withUnsafeMutableBufferPointer { v in
                    let pointers: [UnsafeMutablePointer<UInt8>?] = [y.baseAddress, u.baseAddress, v.baseAddress]
                    let strides: [Int32] = [Int32(width), Int32(cw), Int32(cw)]
                    if baseline {
                        gv_rgba_to_i420_baseline(rgba, Int32(width * 4), Int32(width), Int32(height), space, full ? 1 : 0, pointers, strides)
                    } else {
                        gv_rgba_to_i420(rgba, Int32(width * 4), Int32(width), Int32(height), space, full ? 1 : 0, pointers, strides)
                    }
                }
            }
        }
        let planes = [luma, blue, red]
        return planes
    }

    /// Standard values: BT.709 video-range white, black and red are (235, 128, 128), (16, 128, 128)
    /// and (63, 102, 240); BT.601 red (81, 90, 240); full range white (255, 128, 128).
    func testReferenceColours() {
        let cases: [(rgb: [UInt8], space: Int32, full: Bool, yuv: [UInt8])] = [
            ([255, 255, 255], 1, false, [235, 128, 128]), ([0, 0, 0], 1, false, [16, 128, 128]),
            ([255, 0, 0], 1, false, [63, 102, 240]), ([255, 0, 0], 6, false, [81, 90, 240]),
            ([255, 255, 255], 1, true, [255, 128, 128]),
        ]
        for (rgb, space, full, yuv) in cases {
            let block = [UInt8]((0..<4).flatMap { _ in rgb + [255] })
            let planes = convert(block, width: 2, height: 2, space: space, full: full)
            XCTAssertEqual(planes[0], [UInt8](repeating: yuv[0], count: 4), "\(rgb) space \(space) full \(full)")
            XCTAssertEqual([planes[1][0], planes[2][0]], [yuv[1], yuv[2]], "\(rgb) space \(space) full \(full)")
        }
    }

    /// Random bytes, `count` of them.
    private func noise(_ count: Int) -> [UInt8] {
        var state: UInt32 = 99
        return (0..<count).map { _ -> UInt8 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    /// The wide (AVX2) build of the loops gives the baseline's bytes (on a CPU without AVX2 both
    /// calls run the baseline).
    func testTheWideBuildGivesTheBaselineBytes() {
        let (width, height) = (1921, 9)
        let rgba = noise(width * height * 4)
        for space in [Int32(1), 6, 9] {
            for full in [false, true] {
                XCTAssertEqual(convert(rgba, width: width, height: height, space: space, full: full),
                               convert(rgba, width: width, height: height, space: space, full: full, baseline: true), "space \(space) full \(full)")
            }
        }
    }

    /// Random pixels of an odd-sized frame wider than the loops' 512-column chunks, every matrix
    /// and range: within one code of the rounded float64 formulas everywhere, and equal to them
    /// almost everywhere (the 16.16 weights are off by at most 2^-17 each).
    func testRandomPixelsMatchTheFormulas() {
        let (width, height) = (1031, 7)
        let rgba = noise(width * height * 4)
        for (space, kr, kb) in [(Int32(1), 0.2126, 0.0722), (Int32(5), 0.299, 0.114), (Int32(9), 0.2627, 0.0593)] {
            for full in [false, true] {
                let planes = convert(rgba, width: width, height: height, space: space, full: full)
                let kg = 1 - kr - kb
                let (ys, cs, offset) = full ? (1.0, 1.0, 0.0) : (219.0 / 255, 224.0 / 255, 16.0)
                func pixel(_ x: Int, _ y: Int) -> (Double, Double, Double) {
                    let i = 4 * (min(y, height - 1) * width + min(x, width - 1))
                    return (Double(rgba[i]), Double(rgba[i + 1]), Double(rgba[i + 2]))
                }
                var exact = 0, total = 0
                func check(_ got: UInt8, _ want: Double, _ what: String) {
                    let rounded = (want + 0.5).rounded(.down)
                    XCTAssertLessThanOrEqual(abs(Double(got) - rounded), 1, what)
                    if Double(got) == rounded { exact += 1 }
                    total += 1
                }
                for y in 0..<height {
                    for x in 0..<width {
                        let (r, g, b) = pixel(x, y)
                        check(planes[0][y * width + x], offset + ys * (kr * r + kg * g + kb * b), "Y (\(x), \(y)) space \(space)")
                    }
                }
                let cw = (width + 1) / 2
                for y in 0..<((height + 1) / 2) {
                    for x in 0..<cw {
                        let block = [pixel(2 * x, 2 * y), pixel(2 * x + 1, 2 * y), pixel(2 * x, 2 * y + 1), pixel(2 * x + 1, 2 * y + 1)]
                        let (r, g, b) = (block.map(\.0).reduce(0, +) / 4, block.map(\.1).reduce(0, +) / 4, block.map(\.2).reduce(0, +) / 4)
                        let luma = kr * r + kg * g + kb * b
                        check(planes[1][y * cw + x], 128 + cs * (b - luma) / (2 * (1 - kb)), "Cb (\(x), \(y)) space \(space)")
                        check(planes[2][y * cw + x], 128 + cs * (r - luma) / (2 * (1 - kr)), "Cr (\(x), \(y)) space \(space)")
                    }
                }
                XCTAssertGreaterThanOrEqual(Double(exact) / Double(total), 0.99, "space \(space) full \(full): \(exact) of \(total)")
            }
        }
    }
}
