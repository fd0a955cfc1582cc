import XCTest
@testable import GraphEngine
import Kernels

final class YUVTests: XCTestCase {
    /// A smooth 64x48 test frame converted to BT.709 video-range 4:2:0 with 2x2 box-averaged
    /// (centre-sited) chroma, as I420 and NV12 bytes.
    func makeFrame() -> (i420: [UInt8], nv12: [UInt8], width: Int, height: Int) {
        let width = 64, height = 48
        let (kr, kb) = (0.2126, 0.0722)
        var ys = [UInt8](repeating: 0, count: width * height)
        var cbFull = [Double](repeating: 0, count: width * height), crFull = cbFull
        for row in 0..<height {
            for x in 0..<width {
                let r = 0.5 + 0.45 * sin(Double(x) / 9), g = 0.5 + 0.4 * cos(Double(row) / 7), b = Double(x + row) / Double(width + height)
                let yp = kr * r + (1 - kr - kb) * g + kb * b
                ys[row * width + x] = UInt8((16 + 219 * yp).rounded())
                cbFull[row * width + x] = 128 + 224 * (b - yp) / (2 * (1 - kb))
                crFull[row * width + x] = 128 + 224 * (r - yp) / (2 * (1 - kr))
            }
        }
        let cw = width / 2, ch = height / 2
        var cb = [UInt8](repeating: 0, count: cw * ch), cr = cb
        for j in 0..<ch {
            for i in 0..<cw {
                func box(_ plane: [Double]) -> UInt8 {
                    let s = plane[(2 * j) * width + 2 * i] + plane[(2 * j) * width + 2 * i + 1]
                        + plane[(2 * j + 1) * width + 2 * i] + plane[(2 * j + 1) * width + 2 * i + 1]
                    return UInt8((s / 4).rounded())
                }
                cb[j * cw + i] = box(cbFull)
                cr[j * cw + i] = box(crFull)
            }
        }
        var interleaved: [UInt8] = []
        for k in 0..<(cw * ch) { interleaved += [cb[k], cr[k]] }
        return (ys + cb + cr, ys + interleaved, width, height)
    }

    /// Our RGBA8 output against an exact double-precision conversion of the same planes (same
    /// siting, bilinear chroma): at least 46 dB PSNR; NV12 and I420 give the same bytes.
    func testBT709AgainstExactDoubleConversion() throws {
        let frame = makeFrame()
        var options = ContextOptions()
        options.workingColorSpace = nil
        let context = Context(options: options)
        let i420 = try YUVFrame(bytes: frame.i420, width: frame.width, height: frame.height, layout: .planar, siting: .center)
        let nv12 = try YUVFrame(bytes: frame.nv12, width: frame.width, height: frame.height, layout: .biPlanar, siting: .center)
        let out = try context.render(Image(yuv: i420), format: .rgba8)
        XCTAssertEqual(out.bytes, try context.render(Image(yuv: nv12), format: .rgba8).bytes)

        let (kr, kb) = (0.2126, 0.0722)
        var squaredError = 0.0
        let width = frame.width, height = frame.height, cw = width / 2, ch = height / 2
        for row in 0..<height {
            for x in 0..<width {
                func chroma(_ offset: Int) -> Double {
                    let cx = Double(x) / 2 - 0.25, cy = Double(row) / 2 - 0.25
                    let i = Int(cx.rounded(.down)), j = Int(cy.rounded(.down))
                    let tx = cx - Double(i), ty = cy - Double(j)
                    func at(_ i: Int, _ j: Int) -> Double {
                        Double(frame.i420[offset + min(max(j, 0), ch - 1) * cw + min(max(i, 0), cw - 1)])
                    }
                    return (at(i, j) * (1 - tx) + at(i + 1, j) * tx) * (1 - ty) + (at(i, j + 1) * (1 - tx) + at(i + 1, j + 1) * tx) * ty
                }
                let yp = (Double(frame.i420[row * width + x]) - 16) / 219
                let pb = (chroma(width * height) - 128) / 224, pr = (chroma(width * height + cw * ch) - 128) / 224
                let rgb = [yp + 2 * (1 - kr) * pr, yp - 2 * kb * (1 - kb) / (1 - kr - kb) * pb - 2 * kr * (1 - kr) / (1 - kr - kb) * pr,
                           yp + 2 * (1 - kb) * pb]
                let pixel = out.pixel(x: x, row: row)
                for c in 0..<3 {
                    let d = Double(pixel[c]) - min(max(rgb[c], 0), 1)
                    squaredError += d * d
                }
            }
        }
        let psnr = 10 * log10(1 / (squaredError / Double(width * height * 3)))
        print("YUV BT.709 video range vs exact double conversion: PSNR \(psnr) dB")
        XCTAssertGreaterThanOrEqual(psnr, 46, "PSNR \(psnr) dB")
    }

    func testRangesAndMatricesOnKnownValues() throws {
        // One 2x2 frame per case: Y constant, chroma neutral -> grey levels.
        func render(_ y: UInt8, range: YUVFrame.Range, matrix: YUVFrame.Matrix) throws -> [Float] {
            let frame = try YUVFrame(bytes: [y, y, y, y, 128, 128], width: 2, height: 2, layout: .planar,
                                     matrix: matrix, range: range, colorSpace: nil)
            return try Context().render(Image(yuv: frame), format: .rgbaf).pixel(x: 0, row: 0)
        }
        XCTAssertEqual(try render(16, range: .video, matrix: .bt709)[0], 0, accuracy: 1e-6)
        XCTAssertEqual(try render(235, range: .video, matrix: .bt601)[1], 1, accuracy: 1e-6)
        XCTAssertEqual(try render(255, range: .full, matrix: .bt709)[2], 1, accuracy: 1e-6)
        // Pure BT.601 full-range red: Y = 76.245, Cb = 84.97, Cr = 255.5 (clipped to 255).
        let red = try YUVFrame(bytes: [76, 76, 76, 76, 85, 255], width: 2, height: 2, layout: .planar, matrix: .bt601,
                               range: .full, colorSpace: nil)
        let p = try Context().render(Image(yuv: red), format: .rgbaf).pixel(x: 0, row: 0)
        XCTAssertEqual(p[0], 1, accuracy: 0.01)
        XCTAssertEqual(p[1], 0, accuracy: 0.01)
        XCTAssertEqual(p[2], 0, accuracy: 0.01)
    }

    func testConversionIsFusedIntoTheFirstProgram() throws {
        let frame = makeFrame()
        let yuv = try YUVFrame(bytes: frame.nv12, width: frame.width, height: frame.height, layout: .biPlanar)
        let image = try Image(yuv: yuv).applyingFilter("CIHueAdjust", parameters: ["inputAngle": .number(1)])
        let dump = try Context().dump(image)
        XCTAssertEqual(dump.programs.count, 1, dump.text())
        XCTAssertTrue(dump.programs[0].instructions[0].contains("load in0"), dump.text())
        XCTAssertTrue(dump.programs[0].instructions.contains { $0.contains("yuv420_nv12") }, dump.text())
        // And through a warp (the frame is then materialised once), against the reference.
        let warped = Image(yuv: yuv).transformed(by: AffineTransform(rotationAngle: 0.2)).cropped(to: Rect(x: 0, y: 0, width: 50, height: 40))
        let fast = bottomUpPixels(try Context().render(warped, format: .rgbaf))
        assertClose(fast, try ReferenceEvaluator().render(warped, rect: warped.extent), tolerance: 5e-3)
    }

    func testBadFramesAreClearErrors() {
        XCTAssertThrowsError(try YUVFrame(bytes: [UInt8](repeating: 0, count: 10), width: 4, height: 4, layout: .biPlanar)) { error in
            XCTAssertEqual("\(error)", "YUV nv12 4x4 needs 24 bytes, got 10")
        }
        XCTAssertThrowsError(try YUVFrame(bytes: [], width: 0, height: 4, layout: .planar))
        XCTAssertThrowsError(try YUVFrame(bytes: [UInt8](repeating: 0, count: 100), width: 4, height: 4, layout: .planar, lumaStride: 2))
    }

    /// 8-bit and float renders of frames agree (at most one code apart at rounding boundaries) for
    /// both sitings, odd sizes and odd crop origins (spans starting on odd columns).
    /// The RGBA8 render (the fixed-point row kernel) against the float program (RGBAf output)
    /// for both layouts, both sitings, odd sizes and offset rects; and, with a gain the 16-bit
    /// fixed point cannot hold (×5 on red: 5.8 per luma code), the float path that takes over.
    func testEightBitAndFloatRendersAgreeForEverySiting() throws {
        var options = ContextOptions()
        options.workingColorSpace = nil
        let context = Context(options: options)
        let gain = ColorMatrix(rgb: [5, 0, 0, 0, 1, 0, 0, 0, 1], bias: [-2, 0, 0], sourceName: "gain")
        for layout in YUVFrame.Layout.allCases {
            for siting in YUVFrame.ChromaSiting.allCases {
                for (width, height) in [(64, 48), (37, 21)] {
                    let cw = (width + 1) / 2, ch = (height + 1) / 2
                    var bytes = [UInt8](repeating: 0, count: width * height + 2 * cw * ch)
                    for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: i &* 37 &+ (i >> 5) &* 11) }
                    let frame = try YUVFrame(bytes: bytes, width: width, height: height, layout: layout, siting: siting)
                    for image in [Image(yuv: frame), Image(yuv: frame).applyingColorMatrix(gain)] {
                        let dump = try context.dump(image)
                        XCTAssertEqual(dump.programs.count, 1)
                        for rect in [image.extent, Rect(x: 3, y: 1, width: Double(width - 6), height: Double(height - 3))] {
                            let fast = try context.render(image, rect: rect, format: .rgba8)
                            let general = try context.render(image, rect: rect, format: .rgbaf)
                            var worst: Float = 0
                            for row in 0..<fast.height {
                                for x in 0..<fast.width {
                                    let f = fast.pixel(x: x, row: row), g = general.pixel(x: x, row: row)
                                    for c in 0..<4 {
                                        worst = max(worst, abs((f[c] * 255).rounded() - (min(max(g[c], 0), 1) * 255).rounded()))
                                    }
                                }
                            }
                            XCTAssertLessThanOrEqual(worst, 1, "\(layout) \(siting) \(width)x\(height) \(rect)")
                        }
                    }
                }
            }
        }
    }
}
