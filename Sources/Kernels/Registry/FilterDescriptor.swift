import struct Foundation.Data
import GraphCodecs
import GraphEngine

/// One input of a filter: its key, type, default, range and meaning (Core Image's attributes).
public struct FilterInput: Sendable {
    /// The Core Image input key (`inputRadius`).
    public let key: String
    /// The type of value the input takes.
    public let type: FilterParameterType
    /// nil for required inputs (images).
    public let defaultValue: FilterValue?
    /// Hard limits: values outside are errors.
    public let minimum: Double?
    /// Hard upper limit: values above are errors.
    public let maximum: Double?
    /// The range a slider would show.
    public let sliderMinimum: Double?
    /// The top of the range a slider would show.
    public let sliderMaximum: Double?
    /// Required element count for vectors and colours.
    public let count: Int?
    /// What the input does, in one sentence (`graph filters NAME` shows it).
    public let summary: String
    /// For an image input that takes a map of the filter's photo (`inputImage`): which auxiliary
    /// image of a depth photo it is (its disparity, its portrait matte). `graph apply` reads it
    /// from the input file when the input is not given, and a colour photo given for it is an error.
    public let photoMap: AuxiliaryImage?

    /// An input: key, type, default (nil: required), hard limits, slider range, element count
    /// (vectors; colours are 4), summary, and for an image input the map of the photo it takes.
    public init(_ key: String, _ type: FilterParameterType, default defaultValue: FilterValue? = nil,
                minimum: Double? = nil, maximum: Double? = nil, slider: ClosedRange<Double>? = nil,
                count: Int? = nil, _ summary: String, photoMap: AuxiliaryImage? = nil) {
        self.key = key
        self.type = type
        self.defaultValue = defaultValue
        self.minimum = minimum
        self.maximum = maximum
        self.sliderMinimum = slider?.lowerBound
        self.sliderMaximum = slider?.upperBound
        self.count = count ?? (type == .color ? 4 : nil)
        self.summary = summary
        self.photoMap = photoMap
    }
}

/// A filter of the catalogue: name, categories, inputs, and how it builds its recipe.
public struct FilterDescriptor: Sendable {
    /// The Core Image filter name (`CIGaussianBlur`).
    public let name: String
    /// Core Image's categories (`CICategoryBlur`...).
    public let categories: [String]
    /// What the filter does, with its formula.
    public let summary: String
    /// The inputs, in Core Image's order.
    public let inputs: [FilterInput]
    let build: @Sendable (FilterArguments) throws -> Image

    /// A filter whose `build` makes its recipe from checked arguments (every input present, given or default); add it to a ``FilterRegistry`` to use it by name.
    public init(name: String, categories: [String], summary: String, inputs: [FilterInput],
                build: @escaping @Sendable (FilterArguments) throws -> Image) {
        self.name = name
        self.categories = categories
        self.summary = summary
        self.inputs = inputs
        self.build = build
    }

    /// The input with key `key`, if the filter has one.
    public func input(_ key: String) -> FilterInput? { inputs.first { $0.key == key } }
}

/// Validated arguments, with every input present (given or default).
public struct FilterArguments: Sendable {
    /// The filter the arguments are for (errors name it).
    public let filter: String
    let values: [String: FilterValue]

    /// The image input `key`; throws when it was not given.
    public func image(_ key: String) throws -> Image {
        guard case .image(let image)? = values[key] else { throw GraphError.missingInput(filter: filter, key: key) }
        return image
    }

    /// The number input `key`.
    public func number(_ key: String) throws -> Double {
        guard case .number(let n)? = values[key] else {
            throw GraphError.invalidParameter(filter: filter, key: key, reason: "expected a number")
        }
        return n
    }

    /// The vector input `key` (a number is a vector of one).
    public func vector(_ key: String) throws -> [Double] {
        switch values[key] {
        case .vector(let v)?: return v
        case .number(let n)?: return [n]
        default: throw GraphError.invalidParameter(filter: filter, key: key, reason: "expected a vector")
        }
    }

    /// The transform input `key`.
    public func transform(_ key: String) throws -> AffineTransform {
        guard case .transform(let t)? = values[key] else {
            throw GraphError.invalidParameter(filter: filter, key: key, reason: "expected a transform")
        }
        return t
    }

    /// The boolean input `key`.
    public func bool(_ key: String) throws -> Bool {
        guard case .bool(let b)? = values[key] else {
            throw GraphError.invalidParameter(filter: filter, key: key, reason: "expected a boolean")
        }
        return b
    }

    /// A colour input as an infinite image of that colour in the working space (a `.color` keeps its
    /// space; Core Image converts a `CIColor` the same way).
    public func colorImage(_ key: String) throws -> Image {
        guard case .color(let v, let space)? = values[key] else {
            throw GraphError.invalidParameter(filter: filter, key: key, reason: "expected a colour")
        }
        return Image(color: v, colorSpace: space)
    }

    /// A data input as Float32 values (native byte order).
    public func floats(_ key: String) throws -> [Float] {
        guard case .data(let data)? = values[key] else {
            throw GraphError.invalidParameter(filter: filter, key: key, reason: "expected data")
        }
        guard data.count % 4 == 0 else {
            throw GraphError.invalidParameter(filter: filter, key: key, reason: "\(data.count) bytes is not a whole number of Float32 values")
        }
        return data.withUnsafeBytes { raw in (0..<(data.count / 4)).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self) } }
    }

    /// A colour-space input, or nil when not given (the working space).
    public func colorSpace(_ key: String) throws -> ColorSpace? {
        switch values[key] {
        case nil: return nil
        case .colorSpace(let space)?: return space
        default: throw GraphError.invalidParameter(filter: filter, key: key, reason: "expected a colour space")
        }
    }

    /// The string input `key`.
    public func string(_ key: String) throws -> String {
        guard case .string(let s)? = values[key] else {
            throw GraphError.invalidParameter(filter: filter, key: key, reason: "expected a string")
        }
        return s
    }

    /// The camera calibration input `key`.
    public func cameraCalibration(_ key: String) throws -> CameraCalibration {
        guard case .cameraCalibration(let calibration)? = values[key] else {
            throw GraphError.invalidParameter(filter: filter, key: key, reason: "expected a camera calibration")
        }
        return calibration
    }

    /// The list-of-vectors input `key`.
    public func vectors(_ key: String) throws -> [[Double]] {
        guard case .vectors(let list)? = values[key] else {
            throw GraphError.invalidParameter(filter: filter, key: key, reason: "expected a list of vectors")
        }
        return list
    }

    /// The styled text input `key`.
    public func attributedText(_ key: String) throws -> AttributedText {
        guard case .attributedText(let text)? = values[key] else {
            throw GraphError.invalidParameter(filter: filter, key: key, reason: "expected styled text")
        }
        return text
    }

    /// The barcode descriptor input `key`.
    public func barcodeDescriptor(_ key: String) throws -> BarcodeDescriptor {
        guard case .barcodeDescriptor(let d)? = values[key] else {
            throw GraphError.invalidParameter(filter: filter, key: key, reason: "expected a barcode descriptor")
        }
        return d
    }

    /// The rectangle input `key`.
    public func rect(_ key: String) throws -> Rect {
        guard case .rect(let r)? = values[key] else {
            throw GraphError.invalidParameter(filter: filter, key: key, reason: "expected a rectangle")
        }
        return r
    }
}
