import Foundation
import GraphEngine
import Kernels

/// A filter value as compact JSON text (`10`, `[0,0,0,1]`, `"infinite"`), for the defaults the
/// builders' doc comments state. The same text as `graph filters NAME` prints (GraphCLI's
/// `FiltersCommand.valueText`), written here so the generator needs only Kernels and GraphEngine.
enum FilterValueText {
    static func compact(_ value: FilterValue) -> String {
        switch value {
        case .number(let n): return number(n)
        case .vector(let v): return array(v)
        case .transform(let t): return array(t.coefficients)
        case .rect(let r):
            if r.isInfinite { return quoted("infinite") }
            return array([r.x, r.y, r.width, r.height])
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return quoted(s)
        case .image: return quoted("image")
        case .color(let v, let space):
            if space == .sRGB { return array(v) }
            return "{\"color\":\(array(v)),\"colorSpace\":\(quoted(NamedColorSpaces.name(of: space) ?? space.name))}"
        case .data(let data):
            let floats = data.withUnsafeBytes { raw in
                (0..<(data.count / 4)).map { Double(raw.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self)) }
            }
            return array(floats)
        case .colorSpace(let space): return quoted(NamedColorSpaces.name(of: space) ?? space.name)
        }
    }

    /// A whole number without a fraction (`10`), any other as Swift prints a `Double` (`0.5`).
    static func number(_ n: Double) -> String {
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        return String(n)
    }

    private static func array(_ numbers: [Double]) -> String {
        "[" + numbers.map(number).joined(separator: ",") + "]"
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                result += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
