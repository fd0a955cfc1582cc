import FilterBuilderGeneration
import Foundation
import Kernels

/// `GenerateFilterBuilders [OUTPUT]`: writes the typed `Filters.*` classes generated from
/// `FilterRegistry.standard` to OUTPUT (replaced whole, so a failed run leaves the old file), or
/// prints them when no path is given. Run by the `generate-filter-builders` command plugin.
@main
enum GenerateFilterBuilders {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard arguments.count <= 1, arguments.first?.hasPrefix("-") != true else {
            FileHandle.standardError.write(Data("usage: GenerateFilterBuilders [OUTPUT.swift]\n".utf8))
            exit(2)
        }
        let source = FilterBuilderGenerator.source(for: .standard)
        guard let path = arguments.first else {
            FileHandle.standardOutput.write(Data(source.utf8))
            return
        }
        do {
            try Data(source.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            FileHandle.standardError.write(Data("GenerateFilterBuilders: cannot write \(path): \(error.localizedDescription)\n".utf8))
            exit(1)
        }
    }
}
