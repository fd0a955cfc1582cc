import GraphEngine

/// A recipe kernel image's `arguments` bound to the kernel's parameters, and its `roi` read
/// against them.
///
/// `arguments` is an array in parameter order, or an object by parameter name (so `--set
/// IMAGE.power=2` can change one). A warp kernel without a `sampler` parameter takes the image it
/// warps first, or by the name `inputImage`.
package struct KernelBinding {
    /// Each argument's JSON and its path, in the order `Image.applying(_:arguments:extent:regionOfInterest:)` takes.
    package let arguments: [(JSON, String)]
    /// The names of the image arguments, in order (the inputs a region of interest is given for).
    package let imageNames: [String]
    private let kernel: Kernel

    /// The key naming the image a warp kernel without a `sampler` parameter warps.
    package static let warpedImageKey = "inputImage"

    package init(kernel: Kernel, arguments json: JSON, path: String) throws {
        self.kernel = kernel
        let takesWarpedImage = kernel.kind == .warp && !kernel.parameters.contains { $0.type == .sampler }
        var names = kernel.parameters.map(\.name)
        if takesWarpedImage { names.insert(Self.warpedImageKey, at: 0) }
        imageNames = (takesWarpedImage ? [Self.warpedImageKey] : [])
            + kernel.parameters.filter { $0.type == .sample || $0.type == .sampler }.map(\.name)
        switch json {
        case .object(let members):
            for (key, _) in members where !names.contains(key) {
                throw RecipeError("\(path).\(key)", "kernel '\(kernel.name)' has no parameter \"\(key)\"\(suggestion(key, names)); its parameters are \(names.joined(separator: ", "))")
            }
            arguments = try names.map { name in
                guard let value = json[name] else {
                    throw RecipeError("\(path).\(name)", "missing: kernel '\(kernel.name)' needs a value for its parameter \"\(name)\"")
                }
                return (value, "\(path).\(name)")
            }
        case .array(let items):
            arguments = items.enumerated().map { ($1, "\(path)[\($0)]") }
        default:
            throw RecipeError(path, "expected an array or an object, got \(json.kindDescription)")
        }
    }

    /// `roi`: a radius in pixels for every image input, `"whole"` (every input whole), or an object
    /// by image parameter name with a radius or `"whole"` each (the others read at the destination,
    /// or whole for a warp).
    package func regionOfInterest(_ json: JSON, path: String) throws -> KernelRegionOfInterest {
        func region(_ value: JSON, _ path: String) throws -> KernelRegionOfInterest {
            switch value {
            case .number(let radius) where radius >= 0 && radius.isFinite: return .radius(radius)
            case .string("whole"): return .wholeInput
            default:
                throw RecipeError(path, "expected a radius in pixels (a number >= 0) or \"whole\", got \(value.compact)")
            }
        }
        guard case .object(let members) = json else {
            guard case .number = json else {
                if case .string = json { return try region(json, path) }
                throw RecipeError(path, "expected a radius in pixels (a number >= 0), \"whole\", or an object of them by image parameter (\(imageNames.joined(separator: ", "))), got \(json.compact)")
            }
            return try region(json, path)
        }
        for (key, _) in members where !imageNames.contains(key) {
            throw RecipeError("\(path).\(key)", "kernel '\(kernel.name)' has no image parameter \"\(key)\"\(suggestion(key, imageNames)); its image parameters are \(imageNames.joined(separator: ", "))")
        }
        let fallback: KernelRegionOfInterest = kernel.kind == .warp ? .wholeInput : .destination
        return .perInput(try imageNames.map { name in try json[name].map { try region($0, "\(path).\(name)") } ?? fallback })
    }
}
