import Foundation

/// Formats a float the short way for listings: `0.5`, `2`, `-1e-05`.
package func formatFloat(_ value: Float) -> String {
    if value.isNaN { return "nan" }
    if value == value.rounded(), Swift.abs(value) < 1e7 { return String(Int(value)) }
    return "\(value)"
}

/// Formats a double the short way for listings and pass summaries (six significant digits).
package func formatFloat(_ value: Double) -> String {
    if value.isNaN { return "nan" }
    if value.isInfinite { return value > 0 ? "inf" : "-inf" }
    if value == value.rounded(), Swift.abs(value) < 1e9 { return String(Int(value)) }
    let short = String(format: "%.6g", value)
    return short
}
