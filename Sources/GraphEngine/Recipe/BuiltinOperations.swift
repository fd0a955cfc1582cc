/// The few operations the recipe API itself needs (Core Image has them on `CIImage`).

/// A constant colour: unpremultiplied RGBA in, premultiplied out (`CIImage(color:)`).
struct ConstantColor: ColorOperation {
    let rgba: [Double]
    init(rgba: [Double]) {
        self.rgba = (0..<4).map { $0 < rgba.count ? rgba[$0] : ($0 == 3 ? 1 : 0) }
    }
    var name: String { "constantColor" }
    var structureKey: String { "constantColor" }
    var uniformValues: [Float] {
        let a = rgba[3]
        return [Float(rgba[0] * a), Float(rgba[1] * a), Float(rgba[2] * a), Float(a)]
    }
    var argumentSummary: String { "color=[" + rgba.map(formatFloat).joined(separator: " ") + "]" }
}

/// Porter-Duff source-over on premultiplied colour: `S + B·(1 − S.a)`.
struct SourceOver: ColorOperation {
    var name: String { "sourceOver" }
    var structureKey: String { "sourceOver" }
    var uniformValues: [Float] { [] }
    var argumentSummary: String { "" }
}

/// A colour match between the working space and another space (Core Image's
/// `matchedToWorkingSpace(from:)` and `matchedFromWorkingSpace(to:)`). The working space is known only
/// when a context renders, so this is a marker: colour management replaces it by the conversion
/// (``ColorManagement``); with colour management off it disappears (the identity).
struct WorkingSpaceMatch: ColorOperation {
    /// The other space.
    let space: ColorSpace
    /// True: from `space` into the working space; false: from the working space into `space`.
    let toWorkingSpace: Bool

    var name: String { toWorkingSpace ? "matchToWorkingSpace" : "matchFromWorkingSpace" }
    var structureKey: String { "\(name) \(space.name) \(space.transfer) \(space.toLinearSRGB)" }
    var uniformValues: [Float] { [] }
    var argumentSummary: String { "\"\(space.name)\"" }

    /// The conversion this match is once the working space is known.
    func conversion(working: ColorSpace) -> ColorConversion {
        toWorkingSpace ? ColorConversion(from: space, to: working) : ColorConversion(from: working, to: space)
    }
}
