/// `--set IMAGE.KEY=VALUE`: overrides a parameter so a recipe works as a template.
///
/// For filter and generator images KEY is an input key (`inputAngle`); for other images it is the
/// image's own key (`file`, `crop`, `arguments`), or for kernel images with arguments by name, a
/// kernel parameter (`power`). KEY may go on into an object value: `look.inputCubeData.file=…`
/// sets the `file` of the input `inputCubeData` (`{"file": …}`); a member of a value that is not
/// an object is an error, not ignored. VALUE is JSON (`0.5`, `[1,0,0,1]`,
/// `{"image":"src"}`); anything that isn't valid JSON is taken as a string.
///
/// A new `file` for a `file` image moves the other images that read the same file in the recipe
/// as written along with it (``RecipeFileImages``: a depth map or matte of the photo follows the
/// photo, as in `graph batch`), except those that a `--set` gives a `file` of their own.
package enum RecipeOverrides {
    /// A kernel image's own keys; any other KEY of `--set` names a kernel argument.
    package static let kernelImageKeys: Set<String> = ["kernel", "arguments", "extent", "roi", "crop"]

    /// `recipe` with `settings` applied in order; `files` are its `file` images as written.
    package static func apply(_ settings: [String], to recipe: JSON, files: RecipeFileImages) throws -> JSON {
        var parsed: [(setting: String, name: String, key: String, value: JSON)] = []
        for setting in settings {
            guard let equals = setting.firstIndex(of: "="), let dot = setting[..<equals].firstIndex(of: ".") else {
                throw RecipeError("--set \(setting)", "expected IMAGE.KEY=VALUE")
            }
            let name = String(setting[..<dot])
            let key = String(setting[setting.index(after: dot)..<equals])
            let text = String(setting[setting.index(after: equals)...])
            guard !name.isEmpty, !key.isEmpty else { throw RecipeError("--set \(setting)", "expected IMAGE.KEY=VALUE") }
            parsed.append((setting, name, key, (try? JSONParser.parse(text)) ?? .string(text)))
        }
        let givenFiles = Set(parsed.filter { $0.key == "file" }.map(\.name))
        var result = recipe
        for (setting, name, key, value) in parsed {
            guard case .object? = result["images"], let image = result["images"]?[name] else {
                let names: [String]
                if case .object(let members)? = result["images"] { names = members.map(\.0) } else { names = [] }
                throw RecipeError("--set \(setting)", "no image named \"\(name)\" in the recipe\(suggestion(name, names))")
            }
            let path = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !path.contains("") else { throw RecipeError("--set \(setting)", "expected IMAGE.KEY=VALUE (KEY has an empty part)") }
            let updated: JSON
            if image["filter"] != nil || image["generator"] != nil {
                let inputs = image["inputs"] ?? .object([])
                updated = image.setting("inputs", to: try Self.setting(path, to: value, in: inputs, under: "images.\(name).inputs", for: setting))
            } else if image["kernel"] != nil, !Self.kernelImageKeys.contains(key) {
                // A kernel argument by parameter name.
                let arguments = image["arguments"] ?? .object([])
                guard case .object = arguments else {
                    throw RecipeError("--set \(setting)", "image \"\(name)\" gives its kernel arguments as an array; give them by name (\"arguments\": {\"\(key)\": ...}) to set one")
                }
                updated = image.setting("arguments", to: try Self.setting(path, to: value, in: arguments, under: "images.\(name).arguments", for: setting))
            } else {
                updated = try Self.setting(path, to: value, in: image, under: "images.\(name)", for: setting)
            }
            if let images = result["images"] {
                result = result.setting("images", to: images.setting(name, to: updated))
            }
            if path == ["file"], case .string = value, let written = files.file(of: name) {
                let followers = files.reading(written).filter { $0 != name && !givenFiles.contains($0) }
                result = RecipeFileImages.moving(followers, to: value, in: result)
            }
        }
        return result
    }

    /// `json` (at `location` in the recipe) with the member at `path` set to `value`: one key, or
    /// keys into nested objects, made where missing.
    static func setting(_ path: [String], to value: JSON, in json: JSON, under location: String, for setting: String) throws -> JSON {
        guard let key = path.first else { return value }
        guard case .object = json else {
            throw RecipeError("--set \(setting)", "\(location) is \(json.compact), not an object: it has no member \"\(key)\" to set")
        }
        let inner = path.count == 1 ? value
            : try Self.setting(Array(path.dropFirst()), to: value, in: json[key] ?? .object([]), under: "\(location).\(key)", for: setting)
        return json.setting(key, to: inner)
    }
}
