import GraphEngine
import GraphRecipes
import Kernels

/// The filter catalogue as JSON for `ge_filters_json` (the Python package builds its methods from it).
enum FilterCatalogueJSON {
    /// One filter: name, categories, summary and inputs.
    static func json(_ filter: FilterDescriptor) -> JSON {
        .object([
            ("name", .string(filter.name)), ("categories", .array(filter.categories.map { .string($0) })),
            ("summary", .string(filter.summary)), ("inputs", .array(filter.inputs.map(json))),
        ])
    }

    /// One input: key, type, default (null for required inputs and values JSON cannot hold), limits and summary.
    static func json(_ input: FilterInput) -> JSON {
        func optional(_ value: Double?) -> JSON { value.map { .number($0) } ?? .null }
        return .object([
            ("key", .string(input.key)), ("type", .string(input.type.rawValue)),
            ("default", input.defaultValue.map(json) ?? .null),
            ("minimum", optional(input.minimum)), ("maximum", optional(input.maximum)),
            ("sliderMinimum", optional(input.sliderMinimum)), ("sliderMaximum", optional(input.sliderMaximum)),
            ("count", input.count.map { .number(Double($0)) } ?? .null), ("summary", .string(input.summary)),
            ("photoMap", input.photoMap.map { .string(RecipeDecoder.auxiliaryName($0)) } ?? .null),
        ])
    }

    /// A default value: numbers, vectors, colours (components), rectangles and transforms as
    /// numbers or arrays, booleans, strings; images and data as null.
    static func json(_ value: FilterValue) -> JSON {
        func numbers(_ values: [Double]) -> JSON { .array(values.map { finite($0) }) }
        func finite(_ value: Double) -> JSON { value.isFinite ? .number(value) : .null }
        switch value {
        case .number(let n): return finite(n)
        case .vector(let v): return numbers(v)
        case .color(let v, _): return numbers(v)
        case .rect(let r): return r.isInfinite ? .null : numbers([r.minX, r.minY, r.width, r.height])
        case .transform(let t): return numbers([t.a, t.b, t.c, t.d, t.tx, t.ty])
        case .bool(let b): return .bool(b)
        case .string(let s): return .string(s)
        case .colorSpace(let space): return .string(NamedColorSpaces.name(of: space) ?? space.name)
        case .vectors(let list): return .array(list.map(numbers))
        case .image, .data, .cameraCalibration, .barcodeDescriptor, .attributedText: return .null
        }
    }
}
