import struct Foundation.Data
import GraphCodecs
import GraphEngine

/// A value that can stand for a filter parameter as it is, without a ``FilterValue`` wrapper, as
/// Core Image takes its objects: `Image`, `Rect`, `AffineTransform`, `ColorSpace`, `CameraCalibration`,
/// `Double`, `Float`, `Int`, `Bool`, `String`, `Data`, arrays of numbers (vectors; a colour input takes
/// them as sRGB) and ``FilterValue`` itself (for a colour in another space:
/// `.color([1, 0, 0, 1], colorSpace: .displayP3)`).
///
/// ```swift
/// let blurred = try photo.applyingFilter("CIDepthBlurEffect", parameters: [
///     "inputDisparityImage": disparity, "inputAperture": 2.0,
///     "inputFocusRect": Rect(x: 0.4, y: 0.5, width: 0.2, height: 0.2)])
/// ```
///
/// In one dictionary literal either no value is wrapped or every non-literal one is
/// (`["inputDisparityImage": .image(disparity), "inputFocusRect": .rect(focus)]`): Swift gives a
/// literal one type, so `.image(disparity)` beside a bare `Rect` does not compile.
public protocol FilterValueConvertible {
    /// The parameter value this stands for.
    var filterValue: FilterValue { get }
}

/// A number that can be one component of a vector parameter (`[1, 0, 0, 0]`, `[0.5, 0.5]`).
public protocol FilterVectorComponent {
    /// The component as a `Double`.
    var filterComponent: Double { get }
}

extension FilterValue: FilterValueConvertible {
    /// Itself.
    public var filterValue: FilterValue { self }
}

extension Image: FilterValueConvertible {
    /// `.image(self)`.
    public var filterValue: FilterValue { .image(self) }
}

extension Rect: FilterValueConvertible {
    /// `.rect(self)`.
    public var filterValue: FilterValue { .rect(self) }
}

extension AffineTransform: FilterValueConvertible {
    /// `.transform(self)`.
    public var filterValue: FilterValue { .transform(self) }
}

extension ColorSpace: FilterValueConvertible {
    /// `.colorSpace(self)`.
    public var filterValue: FilterValue { .colorSpace(self) }
}

extension CameraCalibration: FilterValueConvertible {
    /// `.cameraCalibration(self)`.
    public var filterValue: FilterValue { .cameraCalibration(self) }
}

extension Double: FilterValueConvertible, FilterVectorComponent {
    /// `.number(self)`.
    public var filterValue: FilterValue { .number(self) }
    /// Itself.
    public var filterComponent: Double { self }
}

extension Float: FilterValueConvertible, FilterVectorComponent {
    /// `.number(Double(self))`.
    public var filterValue: FilterValue { .number(Double(self)) }
    /// `Double(self)`.
    public var filterComponent: Double { Double(self) }
}

extension Int: FilterValueConvertible, FilterVectorComponent {
    /// `.number(Double(self))`.
    public var filterValue: FilterValue { .number(Double(self)) }
    /// `Double(self)`.
    public var filterComponent: Double { Double(self) }
}

extension Bool: FilterValueConvertible {
    /// `.bool(self)`.
    public var filterValue: FilterValue { .bool(self) }
}

extension String: FilterValueConvertible {
    /// `.string(self)` (a colour-space name, for a colour-space input).
    public var filterValue: FilterValue { .string(self) }
}

extension Data: FilterValueConvertible {
    /// `.data(self)` (Float32 values, as `inputCubeData`).
    public var filterValue: FilterValue { .data(self) }
}

extension Array: FilterValueConvertible where Element: FilterVectorComponent {
    /// `.vector(...)` of the components (a colour, rectangle or transform input takes it too).
    public var filterValue: FilterValue { .vector(map(\.filterComponent)) }
}

extension Dictionary where Key == String, Value == any FilterValueConvertible {
    /// The values unwrapped into ``FilterValue``s.
    var filterValues: [String: FilterValue] { mapValues(\.filterValue) }
}
