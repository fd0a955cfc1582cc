/// Literals for filter values, so parameters read as in Core Image:
/// `["inputIntensity": 0.8, "inputRVector": [1, 0, 0, 0], "inputColorSpace": "sRGB", "inputExtrapolate": true]`.
/// Images, rectangles and transforms need `.image(photo)`, `.rect(r)`, `.transform(t)` here, or go unwrapped
/// through the `[String: any FilterValueConvertible]` overload; colours in a space other than sRGB `.color([...], colorSpace:)`.
extension FilterValue: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByStringLiteral
{
    /// `0.8` is `.number(0.8)`.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// `2` is `.number(2)`.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// `true` is `.bool(true)`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `[1, 0, 0, 0]` is `.vector([1, 0, 0, 0])` (a colour, rectangle or transform input takes it too).
    public init(arrayLiteral elements: Double...) { self = .vector(elements) }
    /// `"sRGB"` is `.string("sRGB")` (a colour-space input takes the names).
    public init(stringLiteral value: String) { self = .string(value) }
}
