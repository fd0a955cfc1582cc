/// The `file` images of a recipe's JSON, each with the file it reads (resolved against the
/// recipe's folder), in recipe order: the images that read one photo (the photo itself, its depth
/// map, disparity or matte, whatever keys they add) move to another file together, so a depth
/// recipe follows the photo it is given. `graph batch` moves them to each input, and
/// `graph run --set IMAGE.file=PATH` moves the images reading IMAGE's file with it.
package struct RecipeFileImages {
    /// Every `file` image's name and the file it reads, in recipe order.
    package let images: [(name: String, file: String)]

    /// The `file` images of `json` (a recipe), their files resolved by `decoder`.
    package init(_ json: JSON, decoder: RecipeDecoder) {
        var images: [(name: String, file: String)] = []
        if case .object(let members)? = json["images"] {
            for (name, spec) in members {
                if case .string(let file)? = spec["file"] { images.append((name, decoder.resolve(file))) }
            }
        }
        self.images = images
    }

    /// The file image `name` reads, or nil when it is no `file` image.
    package func file(of name: String) -> String? { images.first { $0.name == name }?.file }

    /// The names of the images reading `file`, in recipe order.
    package func reading(_ file: String) -> [String] { images.filter { $0.file == file }.map(\.name) }

    /// `json` (a recipe) with the images `names` reading `file` instead (a JSON string, resolved
    /// when the recipe is decoded, like any file).
    package static func moving(_ names: [String], to file: JSON, in json: JSON) -> JSON {
        guard var images = json["images"] else { return json }
        for name in names {
            if let image = images[name] { images = images.setting(name, to: image.setting("file", to: file)) }
        }
        return json.setting("images", to: images)
    }
}
