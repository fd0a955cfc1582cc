import ArgumentParser
import GraphEngine
import GraphRecipes
import Kernels

/// `graph filters [NAME]`: the filter catalogue, or one filter's inputs.
struct FiltersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filters", abstract: "List filters, or describe one filter's inputs.")

    @Argument(help: "A filter name (e.g. CIHueAdjust).") var name: String?
    @Option(help: "text or json.") var format: OutputFormat = .text
    @Flag(name: .customLong("swift-builders"), help: "Print the generated Swift filter classes (scripts/generate-filter-builders.sh).")
    var swiftBuilders = false

    func run() throws {
        try Graph.reportingErrors {
            if swiftBuilders {
                Terminal.shared.out(FilterBuilderGenerator.source(for: .standard), terminator: "")
                return
            }
            guard format != .dot else { throw RecipeError("--format", "expected text or json") }
            let registry = FilterRegistry.standard
            if let name {
                guard let descriptor = registry.filters.first(where: { $0.name == name }) else {
                    throw RecipeError("", registry.unknownFilterMessage(name))
                }
                if format == .json {
                    Terminal.shared.out(Self.json(descriptor, withInputs: true).pretty())
                } else {
                    Self.printText(descriptor)
                }
                return
            }
            if format == .json {
                Terminal.shared.out(JSON.array(registry.filters.map { Self.json($0, withInputs: false) }).pretty())
            } else {
                let width = registry.filters.map(\.name.count).max() ?? 0
                for filter in registry.filters {
                    let padded = filter.name.padding(toLength: width, withPad: " ", startingAt: 0)
                    Terminal.shared.out("\(padded)  \(filter.categories.joined(separator: ", "))")
                }
            }
        }
    }

    static func printText(_ filter: FilterDescriptor) {
        Terminal.shared.out("\(filter.name): \(filter.summary)")
        Terminal.shared.out("categories: \(filter.categories.joined(separator: ", "))")
        for input in filter.inputs {
            var parts = ["  \(input.key)", typeName(input)]
            if let value = input.defaultValue { parts.append("default \(valueText(value))") }
            if input.minimum != nil || input.maximum != nil {
                parts.append("range \(input.minimum.map(formatNumber) ?? "-inf")...\(input.maximum.map(formatNumber) ?? "inf")")
            }
            if let low = input.sliderMinimum, let high = input.sliderMaximum {
                parts.append("slider \(formatNumber(low))...\(formatNumber(high))")
            }
            if let map = input.photoMap { parts.append("map of the photo: \(RecipeDecoder.auxiliaryName(map)) (graph apply: the input's own)") }
            parts.append("— \(input.summary)")
            Terminal.shared.out(parts.joined(separator: "  "))
        }
    }

    static func typeName(_ input: FilterInput) -> String {
        if let count = input.count, input.type == .vector || input.type == .color { return "\(input.type.rawValue)[\(count)]" }
        return input.type.rawValue
    }

    static func valueText(_ value: FilterValue) -> String { jsonValue(value).compact }

    static func jsonValue(_ value: FilterValue) -> JSON {
        switch value {
        case .number(let n): return .number(n)
        case .vector(let v): return .array(v.map { .number($0) })
        case .transform(let t): return .array(t.coefficients.map { .number($0) })
        case .rect(let r):
            if r.isInfinite { return .string("infinite") }
            return .array([r.x, r.y, r.width, r.height].map { .number($0) })
        case .bool(let b): return .bool(b)
        case .string(let s): return .string(s)
        case .image: return .string("image")
        case .color(let v, let space):
            let components = JSON.array(v.map { .number($0) })
            if space == .sRGB { return components }
            return .object([("color", components), ("colorSpace", .string(NamedColorSpaces.name(of: space) ?? space.name))])
        case .data(let data):
            let floats = data.withUnsafeBytes { raw in (0..<(data.count / 4)).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self) } }
            return .array(floats.map { .number(Double($0)) })
        case .colorSpace(let space): return .string(NamedColorSpaces.name(of: space) ?? space.name)
        }
    }

    static func json(_ filter: FilterDescriptor, withInputs: Bool) -> JSON {
        var members: [(String, JSON)] = [
            ("name", .string(filter.name)), ("categories", .array(filter.categories.map { .string($0) })),
            ("summary", .string(filter.summary)),
        ]
        if withInputs {
            members.append(("inputs", .array(filter.inputs.map { input in
                var entry: [(String, JSON)] = [("key", .string(input.key)), ("type", .string(input.type.rawValue))]
                if let count = input.count { entry.append(("count", .number(Double(count)))) }
                if let value = input.defaultValue { entry.append(("default", jsonValue(value))) }
                if let minimum = input.minimum { entry.append(("minimum", .number(minimum))) }
                if let maximum = input.maximum { entry.append(("maximum", .number(maximum))) }
                if let low = input.sliderMinimum { entry.append(("sliderMinimum", .number(low))) }
                if let high = input.sliderMaximum { entry.append(("sliderMaximum", .number(high))) }
                if let map = input.photoMap { entry.append(("photoMap", .string(RecipeDecoder.auxiliaryName(map)))) }
                entry.append(("summary", .string(input.summary)))
                return .object(entry)
            })))
        }
        return .object(members)
    }
}
