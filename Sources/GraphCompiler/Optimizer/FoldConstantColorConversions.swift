import Foundation

/// A colour conversion of a constant colour becomes the converted constant, computed once in
/// Double: a colour parameter given in sRGB (Core Image's default for a `CIColor`) costs nothing
/// per pixel once it is in the working space.
struct FoldConstantColorConversions: OptimizerPass {
    var name: String { "fold-constant-color-conversions" }

    func run(_ root: Node, log: inout [String]) -> Node {
        var rewriter = GraphRewriter()
        return rewriter.rewrite(root) { node in
            guard case .colorConversion(let conversion) = node.kind, let input = node.inputs.first, input.inputs.isEmpty,
                  case .color(let color as ConstantColor) = input.kind else { return node }
            let converted = conversion.convert(Array(color.rgba[0..<3])) + [color.rgba[3]]
            log.append("converted the constant colour \(color.argumentSummary) by \(conversion.shortName)")
            return Node(.color(ConstantColor(rgba: converted)), inputs: [], extent: node.extent)
        }
    }
}

extension ColorConversion {
    /// Converts unpremultiplied RGB exactly: decode `from`'s transfer, change primaries, encode `to`'s.
    func convert(_ rgb: [Double]) -> [Double] {
        func decode(_ y: Double, _ transfer: ColorSpace.Transfer) -> Double {
            switch transfer {
            case .linear: return y
            case .curve(let curve): return curve.decode(y)
            case .sRGB:
                let m = abs(y)
                let v = m <= 0.04045 ? m / 12.92 : pow((m + 0.055) / 1.055, 2.4)
                return y < 0 ? -v : v
            }
        }
        func encode(_ x: Double, _ transfer: ColorSpace.Transfer) -> Double {
            switch transfer {
            case .linear: return x
            case .curve(let curve): return curve.encode(x)
            case .sRGB:
                let m = abs(x)
                let v = m <= 0.0031308 ? m * 12.92 : 1.055 * pow(m, 1 / 2.4) - 0.055
                return x < 0 ? -v : v
            }
        }
        var c = rgb.map { decode($0, from.transfer) }
        if let m = primariesMatrix { c = ColorSpace.apply(m, c) }
        return c.map { encode($0, to.transfer) }
    }
}
