import ArgumentParser
import GraphEngine
import GraphRecipes
import Kernels

/// `graph filters [NAME | WORD] [--category WORD]`: the filter catalogue (one line per filter: name,
/// summary), narrowed to a word or a category, or one filter's inputs.
struct FiltersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filters", abstract: "List filters (narrowed by a word or a category), or describe one filter's inputs.",
        discussion: """
            graph filters                     every filter, one line each: name, summary
            graph filters depth               the filters whose name, category or summary contains "depth"
            graph filters --category blur     the filters of a category (CICategoryBlur)
            graph filters CIDepthBlurEffect   one filter's inputs: type, default, range, summary
            """)

    @Argument(help: "A filter name (e.g. CIHueAdjust) for its inputs, or a word to search names, categories and summaries for.")
    var name: String?
    @Option(help: "Only the filters of this category (blur, CICategoryBlur; case-insensitive, part of a name will do).")
    var category: String?
    @Option(help: "text or json.") var format: TextFormat = .text

    func run() throws {
        try Graph.reportingErrors {
            let registry = FilterRegistry.standard
            if let name, category == nil, let descriptor = registry.filters.first(where: { $0.name == name }) {
                if format == .json {
                    Terminal.shared.out(Self.json(descriptor, withInputs: true).pretty())
                } else {
                    Self.printText(descriptor)
                }
                return
            }
            let filters = try Self.matching(registry, word: name, category: category)
            if format == .json {
                Terminal.shared.out(JSON.array(filters.map { Self.json($0, withInputs: false) }).pretty())
            } else {
                let width = filters.map(\.name.count).max() ?? 0
                for filter in filters {
                    let padded = filter.name.padding(toLength: width, withPad: " ", startingAt: 0)
                    Terminal.shared.out("\(padded)  \(filter.summary)")
                }
            }
        }
    }

    /// The filters whose name, category or summary contains `word` and whose category contains
    /// `category` (both case-insensitive). A word spelled like a filter name (`CISepiaTon`) that
    /// names none is an error with the closest name; a search that finds nothing is an error too.
    static func matching(_ registry: FilterRegistry, word: String?, category: String?) throws -> [FilterDescriptor] {
        var filters = registry.filters
        if let category {
            let wanted = category.lowercased()
            filters = filters.filter { $0.categories.contains { $0.lowercased().contains(wanted) } }
            guard !filters.isEmpty else {
                let all = Set(registry.filters.flatMap(\.categories)).sorted()
                throw RecipeError("--category", "no category contains \"\(category)\"; the categories are \(all.joined(separator: ", "))")
            }
        }
        guard let word else { return filters }
        if looksLikeFilterName(word), !registry.filters.contains(where: { $0.name == word }) {
            throw RecipeError("", registry.unknownFilterMessage(word))
        }
        let wanted = word.lowercased()
        let found = filters.filter { filter in
            filter.name.lowercased().contains(wanted) || filter.summary.lowercased().contains(wanted)
                || filter.categories.contains { $0.lowercased().contains(wanted) }
        }
        guard !found.isEmpty else {
            throw RecipeError("", "no filter\(category.map { " of category \"\($0)\"" } ?? "") has \"\(word)\" in its name, categories or summary")
        }
        return found
    }

    /// `CISepiaTon`, `GEFocus`: a `CI` or `GE` prefix and a capital letter, as the catalogue's names.
    static func looksLikeFilterName(_ word: String) -> Bool {
        let characters = Array(word)
        guard characters.count > 2, word.hasPrefix("CI") || word.hasPrefix("GE") else { return false }
        return characters[2].isUppercase
    }

    static func printText(_ filter: FilterDescriptor) {
        Terminal.shared.out("\(filter.name): \(filter.summary)")
        Terminal.shared.out("categories: \(filter.categories.joined(separator: ", "))")
        for input in filter.inputs {
            var parts = ["  \(input.key)", typeName(input)]
            if case .image = input.defaultValue {
                parts.append("optional")
            } else if let value = input.defaultValue {
                parts.append("default \(valueText(value))")
            }
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

    static func valueText(_ value: FilterValue) -> String { JSON(value).compact }

    static func json(_ filter: FilterDescriptor, withInputs: Bool) -> JSON {
        var members: [(String, JSON)] = [
            ("name", .string(filter.name)), ("categories", .array(filter.categories.map { .string($0) })),
            ("summary", .string(filter.summary)),
        ]
        if withInputs {
            members.append(("inputs", .array(filter.inputs.map { input in
                var entry: [(String, JSON)] = [("key", .string(input.key)), ("type", .string(input.type.rawValue))]
                if let count = input.count { entry.append(("count", .number(Double(count)))) }
                if case .image = input.defaultValue {
                    entry.append(("optional", .bool(true)))
                } else if let value = input.defaultValue {
                    entry.append(("default", JSON(value)))
                }
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
