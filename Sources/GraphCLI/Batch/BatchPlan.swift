import Foundation
import GraphEngine
import GraphRecipes

/// A batch input with the files it writes.
struct BatchItem: Sendable {
    let input: BatchInput
    /// One path per recipe output, as the templates made it (relative to the current folder, or
    /// absolute).
    let outputs: [String]
}

/// Names every input's outputs and checks the whole batch before anything runs: templates that
/// fit the recipe, known output formats, no two inputs writing the same file, no output
/// replacing an input.
struct BatchPlan {
    let items: [BatchItem]
    /// Whether outputs take their format from their extension (`--out`), or keep the recipe's.
    let redirectsOutputs: Bool

    /// `outTemplates` are the `--out` options: one per recipe output, or one with `{output}` for
    /// all; none uses the recipe's own output files as templates.
    init(inputs: [BatchInput], outTemplates: [String], recipe: BatchRecipe, allowOverwritingInputs: Bool) throws {
        let outputs = recipe.template.outputs
        var templates: [OutputTemplate] = []
        if outTemplates.isEmpty {
            templates = try outputs.map { try OutputTemplate($0.file, option: "\($0.path).file") }
        } else {
            let parsed = try outTemplates.map { try OutputTemplate($0, option: "--out") }
            for template in parsed {
                if let ext = template.fixedExtension, OutputFileFormat(path: "x.\(ext)") == nil {
                    throw RecipeError("--out", OutputFileFormat.unknownFormatMessage(path: template.text))
                }
            }
            if parsed.count == outputs.count {
                templates = parsed
            } else if parsed.count == 1, parsed[0].namesOutput {
                templates = Array(repeating: parsed[0], count: outputs.count)
            } else {
                throw RecipeError("--out", "the recipe has \(outputs.count) outputs; give one --out per output, in the recipe's order, or one template with {output}")
            }
        }
        let inputPaths = Set(inputs.map { Self.absolute($0.path) })
        var writers: [String: String] = [:]
        items = try inputs.map { input in
            let files = zip(templates, outputs).map { $0.expand(input, outputFile: $1.file) }
            for (file, output) in zip(files, outputs) {
                let option = outTemplates.isEmpty ? "\(output.path).file" : "--out"
                let key = Self.absolute(file)
                if let earlier = writers.updateValue(input.path, forKey: key) {
                    throw RecipeError(option, "'\(earlier)' and '\(input.path)' would both write '\(file)'; name outputs with {stem}, {dir} or {index}")
                }
                if !allowOverwritingInputs && inputPaths.contains(key) {
                    throw RecipeError(option, "'\(file)' (the output of '\(input.path)') is an input of the batch; refusing to overwrite it (use --allow-overwriting-inputs)")
                }
            }
            return BatchItem(input: input, outputs: files)
        }
        redirectsOutputs = !outTemplates.isEmpty
    }

    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
