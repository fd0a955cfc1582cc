import GraphEngine

/// One input of a filter: its key, type, default, range and meaning (Core Image's attributes).
public struct FilterInput: Sendable {
    public let key: String
    public let type: FilterParameterType
    /// nil for required inputs (images).
    public let defaultValue: FilterValue?
    /// Hard limits: values outside are errors.
    public let minimum: Double?
    public let maximum: Double?
    /// The range a slider would show.
    public let sliderMinimum: Double?
    public let sliderMaximum: Double?
    /// Required element count for vectors and colours.
    public let count: Int?
    public let summary: String

    public init(_ key: String, _ type: FilterParameterType, default defaultValue: FilterValue? = nil,
                minimum: Double? = nil, maximum: Double? = nil, slider: ClosedRange<Double>? = nil,
                count: Int? = nil, _ summary: String) {
        self.key = key
        self.type = type
        self.defaultValue = defaultValue
        self.minimum = minimum
        self.maximum = maximum
        self.sliderMinimum = slider?.lowerBound
        self.sliderMaximum = slider?.upperBound
        self.count = count ?? (type == .color ? 4 : nil)
        self.summary = summary
    }
}

/// A filter of the catalogue: name, categories, inputs, and how it builds its recipe.
public struct FilterDescriptor: Sendable {
    public let name: String
    public let categories: [String]
    public let summary: String
    public let inputs: [FilterInput]
    let build: @Sendable (FilterArguments) throws -> Image

    public init(name: String, categories: [String], summary: String, inputs: [FilterInput],
                build: @escaping @Sendable (FilterArguments) throws -> Image) {
        self.name = name
        self.categories = categories
        self.summary = summary
        self.inputs = inputs
        self.build = build
    }

    public func input(_ key: String) -> FilterInput? { inputs.first { $0.key == key } }
}

/// Validated arguments, with every input present (given or default).
public struct FilterArguments: Sendable {
    public let filter: String
    let values: [String: FilterValue]

    public func image(_ key: String) throws -> Image {
        guard case .image(let image)? = values[key] else { throw GraphError.missingInput(filter: filter, key: key) }
        return image
    }

    public func number(_ key: String) throws -> Double {
        guard case .number(let n)? = values[key] else {
            throw GraphError.invalidParameter(filter: filter, key: key, reason: "expected a number")
        }
        return n
    }

    public func vector(_ key: String) throws -> [Double] {
        switch values[key] {
        case .vector(let v)?: return v
        case .number(let n)?: return [n]
        default: throw GraphError.invalidParameter(filter: filter, key: key, reason: "expected a vector")
        }
    }

    public func transform(_ key: String) throws -> AffineTransform {
        guard case .transform(let t)? = values[key] else {
            throw GraphError.invalidParameter(filter: filter, key: key, reason: "expected a transform")
        }
        return t
    }

    public func rect(_ key: String) throws -> Rect {
        guard case .rect(let r)? = values[key] else {
            throw GraphError.invalidParameter(filter: filter, key: key, reason: "expected a rectangle")
        }
        return r
    }

    public func bool(_ key: String) throws -> Bool {
        guard case .bool(let b)? = values[key] else {
            throw GraphError.invalidParameter(filter: filter, key: key, reason: "expected true or false")
        }
        return b
    }
}
