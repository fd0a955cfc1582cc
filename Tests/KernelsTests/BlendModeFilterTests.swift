import XCTest
import GraphEngine
@testable import Kernels

/// Every blend mode and compositing operator against the W3C / Porter-Duff formulas in float64.
final class BlendModeFilterTests: XCTestCase {
    typealias Separable = @Sendable (Double, Double) -> Double

    static func colorDodge(_ b: Double, _ s: Double) -> Double { b == 0 ? 0 : (s >= 1 ? 1 : min(1, b / (1 - s))) }
    static func colorBurn(_ b: Double, _ s: Double) -> Double { b >= 1 ? 1 : (s <= 0 ? 0 : 1 - min(1, (1 - b) / s)) }
    static func hardLight(_ b: Double, _ s: Double) -> Double { s <= 0.5 ? b * 2 * s : 1 - 2 * (1 - b) * (1 - s) }

    static let separable: [String: Separable] = [
        "CIMultiplyBlendMode": { b, s in b * s },
        "CIScreenBlendMode": { b, s in b + s - b * s },
        "CIOverlayBlendMode": { b, s in hardLight(s, b) },
        "CISoftLightBlendMode": { b, s in
            let d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()
            return s <= 0.5 ? b - (1 - 2 * s) * b * (1 - b) : b + (2 * s - 1) * (d - b)
        },
        "CIHardLightBlendMode": { b, s in hardLight(b, s) },
        "CIDarkenBlendMode": { b, s in min(b, s) },
        "CILightenBlendMode": { b, s in max(b, s) },
        "CIColorDodgeBlendMode": { b, s in colorDodge(b, s) },
        "CIColorBurnBlendMode": { b, s in colorBurn(b, s) },
        "CIDifferenceBlendMode": { b, s in abs(b - s) },
        "CIExclusionBlendMode": { b, s in b + s - 2 * b * s },
        "CISubtractBlendMode": { b, s in b - s },
        "CIDivideBlendMode": { b, s in s != 0 ? b / s : (b > 0 ? 1 : 0) },
        "CILinearDodgeBlendMode": { b, s in b + s },
        "CILinearBurnBlendMode": { b, s in b + s - 1 },
        "CIPinLightBlendMode": { b, s in s <= 0.5 ? min(b, 2 * s) : max(b, 2 * s - 1) },
        "CIVividLightBlendMode": { b, s in s <= 0.5 ? colorBurn(b, 2 * s) : colorDodge(b, 2 * s - 1) },
        "CILinearLightBlendMode": { b, s in b + 2 * s - 1 },
    ]

    static func lum(_ c: [Double]) -> Double { 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2] }
    static func clip(_ c: [Double]) -> [Double] {
        let l = lum(c), n = c.min() ?? 0, x = c.max() ?? 0
        var out = c
        if n < 0 { out = out.map { l + ($0 - l) * l / (l - n) } }
        if x > 1 { out = out.map { l + ($0 - l) * (1 - l) / (x - l) } }
        return out
    }
    static func setLum(_ c: [Double], _ l: Double) -> [Double] { clip(c.map { $0 + l - lum(c) }) }
    static func sat(_ c: [Double]) -> Double { (c.max() ?? 0) - (c.min() ?? 0) }
    static func setSat(_ c: [Double], _ s: Double) -> [Double] {
        // W3C: Cmax = s, Cmid scaled, Cmin = 0.
        let order = [0, 1, 2].sorted { c[$0] < c[$1] }
        var out = [0.0, 0, 0]
        if c[order[2]] > c[order[0]] {
            out[order[1]] = (c[order[1]] - c[order[0]]) * s / (c[order[2]] - c[order[0]])
            out[order[2]] = s
        }
        return out
    }
    static let nonSeparable: [String: @Sendable ([Double], [Double]) -> [Double]] = [
        "CIHueBlendMode": { b, s in setLum(setSat(s, sat(b)), lum(b)) },
        "CISaturationBlendMode": { b, s in setLum(setSat(b, sat(s)), lum(b)) },
        "CIColorBlendMode": { b, s in setLum(s, lum(b)) },
        "CILuminosityBlendMode": { b, s in setLum(b, lum(s)) },
    ]

    func testEveryBlendModeIsTheW3CFormulaOnPremultipliedColour() throws {
        let (source, sourcePixels) = try randomImage(width: 12, height: 10, seed: 41)
        let (background, backgroundPixels) = try randomImage(width: 12, height: 10, seed: 42)
        XCTAssertEqual(Set(BlendModeFilters.modes.map(\.name)), Set(Self.separable.keys).union(Self.nonSeparable.keys))
        for mode in BlendModeFilters.modes {
            let output = try source.filtered(mode.name, ["inputBackgroundImage": .image(background)])
            let expected = zip(sourcePixels, backgroundPixels).map { s, b -> [Double] in
                let cs = Array(unpremultiplied(s)[0..<3]), cb = Array(unpremultiplied(b)[0..<3])
                let f: [Double]
                if let g = Self.separable[mode.name] {
                    f = (0..<3).map { g(cb[$0], cs[$0]) }
                } else {
                    f = Self.nonSeparable[mode.name].map { $0(cb, cs) } ?? []
                }
                let both: Double = s[3] * b[3]
                let rgb = (0..<3).map { (i: Int) -> Double in
                    let own: Double = s[i] * (1 - b[3]) + b[i] * (1 - s[3])
                    return own + both * f[i]
                }
                return rgb + [s[3] + b[3] - both]
            }
            assertPixels(try renderPixels(output, source.extent), expected, tolerance: 2e-5, mode.name)
        }
    }

    func testBlendsFuseIntoOneProgram() throws {
        let (source, _) = try randomImage(width: 8, height: 8, seed: 43)
        let (background, _) = try randomImage(width: 8, height: 8, seed: 44)
        let image = try source.filtered("CIExposureAdjust", ["inputEV": .number(0.3)])
            .filtered("CIDarkenBlendMode", ["inputBackgroundImage": .image(background)])
            .filtered("CISoftLightBlendMode", ["inputBackgroundImage": .image(background)])
        let dump = try exactContext().dump(image, rect: source.extent)
        XCTAssertEqual(dump.programs.count, 1, dump.text())
        XCTAssertTrue(dump.programs[0].name.contains("CISoftLightBlendMode"), dump.programs[0].name)
    }

    func testCompositingOperatorsArePorterDuff() throws {
        let (source, sourcePixels) = try randomImage(width: 9, height: 7, seed: 45)
        let (background, backgroundPixels) = try randomImage(width: 9, height: 7, seed: 46)
        let formulas: [String: ([Double], [Double]) -> [Double]] = [
            "CIAdditionCompositing": { s, b in (0..<4).map { s[$0] + b[$0] } },
            "CIMultiplyCompositing": { s, b in (0..<4).map { s[$0] * b[$0] } },
            "CIMinimumCompositing": { s, b in (0..<4).map { min(s[$0], b[$0]) } },
            "CIMaximumCompositing": { s, b in (0..<4).map { max(s[$0], b[$0]) } },
            "CISourceInCompositing": { s, b in s.map { $0 * b[3] } },
            "CISourceOutCompositing": { s, b in s.map { $0 * (1 - b[3]) } },
            "CISourceAtopCompositing": { s, b in (0..<4).map { s[$0] * b[3] + b[$0] * (1 - s[3]) } },
            "CIDestinationOverCompositing": { s, b in (0..<4).map { b[$0] + s[$0] * (1 - b[3]) } },
            "CIDestinationInCompositing": { s, b in b.map { $0 * s[3] } },
            "CIDestinationOutCompositing": { s, b in b.map { $0 * (1 - s[3]) } },
            "CIDestinationAtopCompositing": { s, b in (0..<4).map { b[$0] * s[3] + s[$0] * (1 - b[3]) } },
            "CIExclusiveOrCompositing": { s, b in (0..<4).map { s[$0] * (1 - b[3]) + b[$0] * (1 - s[3]) } },
        ]
        XCTAssertEqual(Set(CompositingFilters.operators.map(\.name)), Set(formulas.keys))
        for (name, formula) in formulas {
            let output = try source.filtered(name, ["inputBackgroundImage": .image(background)])
            let expected = zip(sourcePixels, backgroundPixels).map { formula($0, $1) }
            assertPixels(try renderPixels(output, source.extent), expected, tolerance: 1e-6, name)
        }
    }

    func testMaskBlendsReadTheirChannel() throws {
        let (source, sourcePixels) = try randomImage(width: 8, height: 6, seed: 47)
        let (background, backgroundPixels) = try randomImage(width: 8, height: 6, seed: 48)
        let (mask, maskPixels) = try randomImage(width: 8, height: 6, seed: 49, range: -0.3...1.3)
        for (name, channel) in [("CIBlendWithMask", 1), ("CIBlendWithAlphaMask", 3), ("CIBlendWithRedMask", 0), ("CIBlendWithBlueMask", 2)] {
            let output = try source.filtered(name, ["inputBackgroundImage": .image(background), "inputMaskImage": .image(mask)])
            let expected = (0..<sourcePixels.count).map { i -> [Double] in
                let m = min(max(maskPixels[i][channel], 0), 1)
                return (0..<4).map { backgroundPixels[i][$0] + (sourcePixels[i][$0] - backgroundPixels[i][$0]) * m }
            }
            assertPixels(try renderPixels(output, source.extent), expected, tolerance: 1e-6, name)
        }
    }
}
