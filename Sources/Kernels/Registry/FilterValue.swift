import struct Foundation.Data
import GraphCodecs
import GraphEngine

/// A filter parameter value (Core Image's `NSNumber`, `CIVector`, `CIColor`, `CIImage`, `NSData`, …).
public enum FilterValue: Sendable, CustomStringConvertible {
    /// A number (`inputRadius`).
    case number(Double)
    /// A vector of numbers (`CIVector`: `inputRVector`, a point).
    case vector([Double])
    /// A colour (`CIColor`): unpremultiplied RGBA (or RGB, alpha 1) in `colorSpace`, sRGB unless
    /// said otherwise; converted into the working space when rendered. A plain `.vector` given to a
    /// colour input is sRGB too.
    case color([Double], colorSpace: ColorSpace = .sRGB)
    /// An image (`inputImage`, `inputMaskImage`).
    case image(Image)
    /// An affine transform (`inputTransform`).
    case transform(AffineTransform)
    /// A rectangle (`inputRectangle`, `inputExtent`).
    case rect(Rect)
    /// A boolean (`inputExtrapolate`).
    case bool(Bool)
    /// Text (a colour space name, before it is checked).
    case string(String)
    /// Binary data (`NSData`), such as a colour cube's Float32 RGBA texels.
    case data(Data)
    /// A colour space (`CGColorSpace`); a `.string` naming one (`"sRGB"`, `"displayP3"`,
    /// `"linearSRGB"`) is accepted too.
    case colorSpace(ColorSpace)
    /// A camera's calibration (`AVCameraCalibrationData`), such as a depth photo's
    /// (`DepthData.calibration`): CICameraCalibrationLensCorrection reads its lens distortion.
    case cameraCalibration(CameraCalibration)
    /// A list of vectors (an `NSArray` of `CIVector`s: CIMeshGenerator's line segments).
    case vectors([[Double]])
    /// A barcode to draw (`CIBarcodeDescriptor`), CIBarcodeGenerator's input.
    case barcodeDescriptor(BarcodeDescriptor)
    /// Styled text (an `NSAttributedString`): CIAttributedTextImageGenerator's runs of characters with their font, size and colour.
    case attributedText(AttributedText)

    /// The value's type in words, for error messages (`a number`, `a vector of 3`).
    public var typeDescription: String {
        switch self {
        case .number: return "a number"
        case .vector(let v): return "a vector of \(v.count)"
        case .color(let v, _): return "a colour of \(v.count)"
        case .image: return "an image"
        case .transform: return "a transform"
        case .rect: return "a rectangle"
        case .bool: return "a boolean"
        case .string(let s): return "the string \"\(s)\""
        case .data(let d): return "data of \(d.count) bytes"
        case .colorSpace: return "a colour space"
        case .cameraCalibration: return "a camera calibration"
        case .vectors(let list): return "a list of \(list.count) vector\(list.count == 1 ? "" : "s")"
        case .barcodeDescriptor(let d): return "a \(d.symbology) barcode descriptor"
        case .attributedText(let t): return "styled text of \(t.runs.count) run\(t.runs.count == 1 ? "" : "s")"
        }
    }

    /// The value in a short form (`[1 0 0 0]`, `image [0 0 64 48]`).
    public var description: String {
        switch self {
        case .number(let n): return "\(n)"
        case .vector(let v): return "[" + v.map { "\($0)" }.joined(separator: " ") + "]"
        case .color(let v, let space): return "[" + v.map { "\($0)" }.joined(separator: " ") + "] \(space.name)"
        case .image(let image): return "image \(image.extent)"
        case .transform(let t): return "\(t)"
        case .rect(let r): return "\(r)"
        case .bool(let b): return "\(b)"
        case .string(let s): return s
        case .data(let d): return "<\(d.count) bytes>"
        case .colorSpace(let space): return space.name
        case .cameraCalibration(let calibration):
            return "calibration \(calibration.referenceWidth)×\(calibration.referenceHeight)"
        case .vectors(let list): return "[" + list.map { "[" + $0.map { "\($0)" }.joined(separator: " ") + "]" }.joined(separator: " ") + "]"
        case .barcodeDescriptor(let d): return "\(d.symbology) barcode \"\(d.message)\""
        case .attributedText(let t): return "\"\(t.string)\" in \(t.runs.count) run\(t.runs.count == 1 ? "" : "s")"
        }
    }

    /// Float32 values as data (native byte order), the layout of Core Image's `inputCubeData`.
    public static func floats(_ values: [Float]) -> FilterValue {
        .data(values.withUnsafeBufferPointer { Data(buffer: $0) })
    }
}

/// The type a filter input accepts.
public enum FilterParameterType: String, Sendable, Hashable, CaseIterable {
    /// Which ``FilterValue`` case an input takes.
    case image, number, vector, color, transform, rect, bool, data, colorSpace
    /// A camera calibration (``FilterValue/cameraCalibration(_:)``); a recipe names the depth photo it comes from.
    case cameraCalibration
    /// Text (``FilterValue/string(_:)``): a barcode's message, a text generator's text, a choice among names.
    case string
    /// A list of vectors (``FilterValue/vectors(_:)``), each of the input's `count` numbers.
    case vectors
    /// A barcode descriptor (``FilterValue/barcodeDescriptor(_:)``): CIBarcodeGenerator's symbology, message and size.
    case barcodeDescriptor
    /// Styled text (``FilterValue/attributedText(_:)``): a plain string, or runs with their font, size and colour.
    case attributedText
}

/// The colour spaces colour and colour-space inputs accept by name (the names recipes use).
public enum NamedColorSpaces {
    /// Each accepted name with its space: `sRGB`, `displayP3`, `linearSRGB`.
    public static let all: [(name: String, space: ColorSpace)] = [("sRGB", .sRGB), ("displayP3", .displayP3), ("linearSRGB", .linearSRGB)]
    /// The space named `name`, or nil.
    public static func space(named name: String) -> ColorSpace? { all.first { $0.name == name }?.space }
    /// The name of `space`, or nil when it has none here.
    public static func name(of space: ColorSpace) -> String? { all.first { $0.space == space }?.name }
}
