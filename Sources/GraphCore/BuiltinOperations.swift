/// The few operations the recipe API itself needs (Core Image has them on `CIImage`).

/// A constant colour: unpremultiplied RGBA in, premultiplied out (`CIImage(color:)`).
package struct ConstantColor: ColorOperation {
    package let rgba: [Double]
    package init(rgba: [Double]) {
        self.rgba = (0..<4).map { $0 < rgba.count ? rgba[$0] : ($0 == 3 ? 1 : 0) }
    }
    package var name: String { "constantColor" }
    package var structureKey: String { "constantColor" }
    package var uniformValues: [Float] {
        let a = rgba[3]
        return [Float(rgba[0] * a), Float(rgba[1] * a), Float(rgba[2] * a), Float(a)]
    }
    package var argumentSummary: String { "color=[" + rgba.map(formatFloat).joined(separator: " ") + "]" }
}

/// Porter-Duff source-over on premultiplied colour: `S + B·(1 − S.a)`.
package struct SourceOver: ColorOperation {
    package var name: String { "sourceOver" }
    package var structureKey: String { "sourceOver" }
    package var uniformValues: [Float] { [] }
    package var argumentSummary: String { "" }
}

/// A colour match between the working space and another space (Core Image's
/// `matchedToWorkingSpace(from:)` and `matchedFromWorkingSpace(to:)`). The working space is known only
/// when a context renders, so this is a marker: colour management replaces it by the conversion
/// (``ColorManagement``); with colour management off it disappears (the identity).
package struct WorkingSpaceMatch: ColorOperation {
    /// The other space.
    let space: ColorSpace
    /// True: from `space` into the working space; false: from the working space into `space`.
    package let toWorkingSpace: Bool

    package var name: String { toWorkingSpace ? "matchToWorkingSpace" : "matchFromWorkingSpace" }
    package var structureKey: String { "\(name) \(space.name) \(space.transfer) \(space.toLinearSRGB)" }
    package var uniformValues: [Float] { [] }
    package var argumentSummary: String { "\"\(space.name)\"" }

    /// The conversion this match is once the working space is known.
    package func conversion(working: ColorSpace) -> ColorConversion {
        toWorkingSpace ? ColorConversion(from: space, to: working) : ColorConversion(from: working, to: space)
    }
}
