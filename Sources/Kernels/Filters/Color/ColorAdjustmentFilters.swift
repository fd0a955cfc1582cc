import Foundation
import GraphEngine

/// Colour adjustments (Core Image category CICategoryColorAdjustment). The matrix filters all build a
/// ``GraphEngine/ColorMatrix`` so the optimizer folds a chain of them into one instruction. Luma
/// weights are Apple's: 0.2125, 0.7154, 0.0721.
enum ColorAdjustmentFilters {
    static let luma: [Double] = [0.2125, 0.7154, 0.0721]
    static let adjustment = ["CICategoryColorAdjustment", "CICategoryVideo", "CICategoryStillImage"]
    static let imageInput = FilterInput("inputImage", .image, "The image to filter.")

    static let all: [FilterDescriptor] = [colorMatrix, colorClamp, exposure, colorControls, hueAdjust, gamma]

    /// `out_i = dot(s, V_i) + bias_i` on unpremultiplied colour, each vector a row.
    static let colorMatrix = FilterDescriptor(
        name: "CIColorMatrix", categories: adjustment,
        summary: "Multiplies the colour by a 4x4 matrix (one row vector per output channel) and adds a bias.",
        inputs: [
            imageInput,
            FilterInput("inputRVector", .vector, default: .vector([1, 0, 0, 0]), count: 4, "Row producing red."),
            FilterInput("inputGVector", .vector, default: .vector([0, 1, 0, 0]), count: 4, "Row producing green."),
            FilterInput("inputBVector", .vector, default: .vector([0, 0, 1, 0]), count: 4, "Row producing blue."),
            FilterInput("inputAVector", .vector, default: .vector([0, 0, 0, 1]), count: 4, "Row producing alpha."),
            FilterInput("inputBiasVector", .vector, default: .vector([0, 0, 0, 0]), count: 4, "Added after the product."),
        ]
    ) { args in
        let matrix = ColorMatrix(r: try args.vector("inputRVector"), g: try args.vector("inputGVector"),
                                 b: try args.vector("inputBVector"), a: try args.vector("inputAVector"),
                                 bias: try args.vector("inputBiasVector"), sourceName: "CIColorMatrix")
        return try args.image("inputImage").applyingColorMatrix(matrix)
    }

    /// `clamp(s, min, max)` per component on unpremultiplied colour.
    static let colorClamp = FilterDescriptor(
        name: "CIColorClamp", categories: adjustment,
        summary: "Clamps each colour component to a range.",
        inputs: [
            imageInput,
            FilterInput("inputMinComponents", .vector, default: .vector([0, 0, 0, 0]), count: 4, "Lower bounds (RGBA)."),
            FilterInput("inputMaxComponents", .vector, default: .vector([1, 1, 1, 1]), count: 4, "Upper bounds (RGBA)."),
        ]
    ) { args in
        let op = ColorClampOperation(minimum: try args.vector("inputMinComponents"), maximum: try args.vector("inputMaxComponents"))
        return try args.image("inputImage").applying(op)
    }

    /// `rgb · 2^EV` (alpha untouched): a diagonal matrix.
    static let exposure = FilterDescriptor(
        name: "CIExposureAdjust", categories: adjustment,
        summary: "Scales linear colour by 2^EV, like a change of exposure in stops.",
        inputs: [imageInput, FilterInput("inputEV", .number, default: .number(0), slider: -10...10, "Exposure in stops.")]
    ) { args in
        let gain = pow(2, try args.number("inputEV"))
        return try args.image("inputImage").applyingColorMatrix(
            ColorMatrix(rgb: [gain, 0, 0, 0, gain, 0, 0, 0, gain], sourceName: "CIExposureAdjust"))
    }

    /// Apple's matrix: `k = c·(1−s)`, `M = s·c·I + k·[w;w;w]`, bias `b + 0.5·(1−c)`; i.e.
    /// `out = c·mix(L, rgb, s) + 0.5·(1−c) + b` with `L` the Rec.709 luma.
    static let colorControls = FilterDescriptor(
        name: "CIColorControls", categories: adjustment,
        summary: "Adjusts saturation (lerp to luma), brightness (added) and contrast (around 0.5).",
        inputs: [
            imageInput,
            FilterInput("inputSaturation", .number, default: .number(1), minimum: 0, slider: 0...2, "0 is grey, 1 unchanged."),
            FilterInput("inputBrightness", .number, default: .number(0), slider: -1...1, "Added to every channel."),
            FilterInput("inputContrast", .number, default: .number(1), minimum: 0, slider: 0.25...4, "Scale around 0.5."),
        ]
    ) { args in
        let s = try args.number("inputSaturation"), b = try args.number("inputBrightness"), c = try args.number("inputContrast")
        let image = try args.image("inputImage")
        let k = c * (1 - s)
        var m: [Double] = []
        for row in 0..<3 {
            for column in 0..<3 { m.append((row == column ? s * c : 0) + k * luma[column]) }
        }
        let offset = b + 0.5 * (1 - c)
        return image.applyingColorMatrix(ColorMatrix(rgb: m, bias: [offset, offset, offset], sourceName: "CIColorControls"))
    }

    /// Apple's hue rotation about the luma axis (the SVG `hueRotate` form with Rec.709 weights).
    static let hueAdjust = FilterDescriptor(
        name: "CIHueAdjust", categories: adjustment,
        summary: "Rotates hues by an angle in radians, keeping luma.",
        inputs: [imageInput, FilterInput("inputAngle", .number, default: .number(0), slider: -Double.pi...Double.pi, "Angle in radians.")]
    ) { args in
        let angle = try args.number("inputAngle")
        let image = try args.image("inputImage")
        if abs(angle) < 0.001 { return image }
        let c = cos(angle), s = sin(angle)
        let m = [
            0.2125 + 0.7875 * c - 0.2125 * s, 0.7154 - 0.7154 * c - 0.7154 * s, 0.0721 - 0.0721 * c + 0.9279 * s,
            0.2125 - 0.2125 * c + 0.1404 * s, 0.7154 + 0.2846 * c + 0.1404 * s, 0.0721 - 0.0721 * c - 0.2846 * s,
            0.2125 - 0.2125 * c - 0.7875 * s, 0.7154 - 0.7154 * c + 0.7154 * s, 0.0721 + 0.9279 * c + 0.0721 * s,
        ]
        return image.applyingColorMatrix(ColorMatrix(rgb: m, sourceName: "CIHueAdjust"))
    }

    /// `sign(x)·|x|^power` per colour channel on unpremultiplied colour (sign-preserving, so extended
    /// range stays defined).
    static let gamma = FilterDescriptor(
        name: "CIGammaAdjust", categories: adjustment,
        summary: "Raises colour to a power (sign-preserving for extended range).",
        inputs: [imageInput, FilterInput("inputPower", .number, default: .number(1), minimum: 0, slider: 0.25...4, "The exponent.")]
    ) { args in
        let power = try args.number("inputPower")
        let image = try args.image("inputImage")
        if power == 1 { return image }
        return image.applying(GammaOperation(power: Float(power)))
    }
}

/// Clamp on unpremultiplied colour: unpremultiply, clamp each channel, premultiply.
///
/// Two variants keep what the data is known to be (each its own structure key, as it lowers to
/// other code): the same bounds for red, green and blue clamp the three with one pair of uniforms,
/// so a grey input stays grey (one channel computed, one plane stored); an alpha range holding 1
/// (the default 0…1) leaves an opaque input's alpha the constant 1, so the result is known opaque.
struct ColorClampOperation: ColorOperation {
    let minimum: [Double], maximum: [Double]
    var name: String { "CIColorClamp" }
    var structureKey: String {
        "CIColorClamp" + (sameColourBounds ? " (one RGB range)" : "") + (keepsOpaqueAlpha ? "" : " (alpha range without 1)")
    }
    var uniformValues: [Float] { (minimum + maximum).map { Float($0) } }
    var argumentSummary: String { "min=\(minimum) max=\(maximum)" }
    /// `clamp(1, min.a, max.a) = 1`.
    var keepsOpaqueAlpha: Bool { Float(minimum[3]) <= 1 && Float(maximum[3]) >= 1 }
    /// Red, green and blue have the same bounds, bit for bit.
    var sameColourBounds: Bool {
        let values = uniformValues.map(\.bitPattern)
        return values[0] == values[1] && values[0] == values[2] && values[4] == values[5] && values[4] == values[6]
    }
}

extension ColorClampOperation: ColorLowering {
    func emit(inputs: [OperandQuad], uniforms u: [Operand], destination: (x: Operand, y: Operand),
              builder b: inout ProgramBuilder) throws -> OperandQuad {
        let s = b.unpremultiply(inputs[0])
        let one = sameColourBounds
        var channels = s.operands.enumerated().map { index, value in
            let bound = one && index < 3 ? 0 : index
            return b.ternary(.clamp, value, u[bound], u[4 + bound])
        }
        if s.a == .constant(1), keepsOpaqueAlpha { channels[3] = s.a }
        return b.premultiply(OperandQuad(channels))
    }
}

/// `sign(x)·|x|^p` on unpremultiplied colour.
struct GammaOperation: ColorOperation {
    let power: Float
    var name: String { "CIGammaAdjust" }
    var structureKey: String { "CIGammaAdjust" }
    var uniformValues: [Float] { [power] }
    var argumentSummary: String { "power=\(power)" }
}

extension GammaOperation: ColorLowering {
    func emit(inputs: [OperandQuad], uniforms u: [Operand], destination: (x: Operand, y: Operand),
              builder b: inout ProgramBuilder) throws -> OperandQuad {
        let s = b.unpremultiply(inputs[0])
        func curve(_ x: Operand, _ b: inout ProgramBuilder) -> Operand {
            b.binary(.multiply, b.unary(.sign, x), b.binary(.power, b.unary(.abs, x), u[0]))
        }
        return b.premultiply(OperandQuad(curve(s.r, &b), curve(s.g, &b), curve(s.b, &b), s.a))
    }
}
