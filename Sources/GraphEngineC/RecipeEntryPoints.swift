import Foundation
import GraphEngine
import GraphRecipes
import Kernels

/// What a `ge_recipe *` points at: a recipe loaded and built.
final class RecipeHandle {
    let recipe: LoadedRecipe
    init(_ recipe: LoadedRecipe) { self.recipe = recipe }
}

/// Loads the JSON recipe at `path` with `count` overrides (`IMAGE.KEY=VALUE`, VALUE in JSON, as
/// `graph run --set` takes them) and builds it; errors name the JSON path (`images.blur.inputs...`).
@_cdecl("ge_recipe_load")
public func ge_recipe_load(_ path: UnsafePointer<CChar>?, _ overrides: UnsafePointer<UnsafePointer<CChar>?>?, _ count: Int64,
                           _ out: UnsafeMutablePointer<OpaquePointer?>?, _ error: StringOut) -> Int32 {
    catching(error) {
        let path = try string(path, "path")
        guard count >= 0, count == 0 || overrides != nil else { throw BoundaryError("overrides is NULL or count \(count) is negative") }
        let settings = try (0..<Int(count)).map { try string(overrides![$0], "override \($0)") }
        let recipe = try LoadedRecipe(contentsOf: path, overrides: settings)
        guard let out else { throw BoundaryError("the out pointer for the recipe is NULL") }
        out.pointee = Handles.retain(RecipeHandle(recipe))
    }
}

/// Frees a recipe (its output images stay valid); NULL is ignored.
@_cdecl("ge_recipe_free")
public func ge_recipe_free(_ recipe: OpaquePointer?) {
    Handles.release(recipe)
}

/// The recipe's outputs as a JSON array in `json`, in recipe order: each output's image name, file,
/// format, colour space (null: the sources' space), bit depth and quality; and its warnings.
@_cdecl("ge_recipe_outputs_json")
public func ge_recipe_outputs_json(_ recipe: OpaquePointer?, _ json: StringOut, _ error: StringOut) -> Int32 {
    catching(error) {
        let loaded = try Handles.object(recipe, as: RecipeHandle.self, "recipe").recipe
        let outputs = JSON.array(loaded.outputs.map { output in
            .object([
                ("image", .string(output.imageName)), ("file", .string(output.file)),
                ("format", .string("\(output.format)")),
                ("colorSpace", output.options.colorSpace.map { .string(outputName($0)) } ?? .null),
                ("bitDepth", .number(Double(output.options.bitDepth))), ("quality", .number(Double(output.options.quality))),
            ])
        })
        deliver(JSON.object([("outputs", outputs), ("warnings", .array(loaded.warnings.map { .string($0) }))]).compact, to: json)
    }
}

/// The image of output `index` (recipe order), as `graph run` renders it.
@_cdecl("ge_recipe_output_image")
public func ge_recipe_output_image(_ recipe: OpaquePointer?, _ index: Int64, _ out: UnsafeMutablePointer<OpaquePointer?>?,
                                   _ error: StringOut) -> Int32 {
    catching(error) {
        let loaded = try Handles.object(recipe, as: RecipeHandle.self, "recipe").recipe
        guard index >= 0, index < loaded.outputs.count else {
            throw BoundaryError("output \(index) out of range: the recipe has \(loaded.outputs.count)")
        }
        try Handles.deliver(loaded.outputs[Int(index)].image, to: out)
    }
}

/// The recipe image `name` as built (any image an output reads).
@_cdecl("ge_recipe_image")
public func ge_recipe_image(_ recipe: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?,
                            _ error: StringOut) -> Int32 {
    catching(error) {
        let loaded = try Handles.object(recipe, as: RecipeHandle.self, "recipe").recipe
        let name = try string(name, "name")
        guard let image = loaded.images[name] else {
            throw BoundaryError("unknown recipe image \"\(name)\": the outputs read \(loaded.images.keys.sorted().joined(separator: ", "))")
        }
        try Handles.deliver(image, to: out)
    }
}

/// Renders and writes every output file as `graph run` does (all or none), with the recipe's options.
@_cdecl("ge_recipe_write")
public func ge_recipe_write(_ recipe: OpaquePointer?, _ error: StringOut) -> Int32 {
    catching(error) {
        let loaded = try Handles.object(recipe, as: RecipeHandle.self, "recipe").recipe
        try loaded.writeOutputs()
    }
}

/// The boundary's name of an output colour space (`"data"`, `"sRGB"`, ...).
private func outputName(_ space: OutputColorSpace) -> String {
    switch space {
    case .data: return "data"
    case .space(let space): return NamedColorSpaces.name(of: space) ?? space.name
    }
}
