import Foundation
import GraphEngine
import GraphRecipes
import Kernels

/// Applies the filter `name` (Core Image's name, `CIGaussianBlur`) with `params` (NULL: none);
/// `input`, when not NULL, is its `inputImage` unless `params` sets one. Unknown names, keys and
/// bad values are errors with the catalogue's message (and the name meant).
@_cdecl("ge_image_apply")
public func ge_image_apply(_ input: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ params: OpaquePointer?,
                           _ out: UnsafeMutablePointer<OpaquePointer?>?, _ error: StringOut) -> Int32 {
    catching(error) {
        let filter = try string(name, "filter name")
        var values = try params.map { try Handles.object($0, as: ParameterSet.self, "params").values } ?? [:]
        if input != nil, values["inputImage"] == nil { values["inputImage"] = .image(try Handles.image(input, "input")) }
        try Handles.deliver(FilterRegistry.standard.apply(filter, parameters: values), to: out)
    }
}

/// Every filter of the catalogue as a JSON array (name, categories, summary, and each input's key,
/// type, default, limits, slider range, count and summary), in `json` (freed with `ge_string_free`).
@_cdecl("ge_filters_json")
public func ge_filters_json(_ json: StringOut, _ error: StringOut) -> Int32 {
    catching(error) {
        deliver(JSON.array(FilterRegistry.standard.filters.map(FilterCatalogueJSON.json)).compact, to: json)
    }
}
