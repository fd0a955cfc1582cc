import Foundation
import GraphCodecs
import GraphEngine
import GraphRecipes
import Kernels

/// A contact sheet of a depth photo: the photo and each depth effect on it, at a reduced size, in
/// a grid with the effect's name under each picture. It is one image graph: every picture scaled
/// into its cell (`CILanczosScaleTransform`) and moved there, composited with the labels over a
/// dark background.
struct ContactSheet {
    /// The background's sRGB grey.
    static let background = 0.12

    let image: Image
    let layout: ContactSheetLayout
    /// The label of each cell, in order (the first is the original).
    let labels: [String]

    /// The sheet of `photo` with `effects` (each applicable to it), `width` pixels wide. Effects
    /// render from a copy of the photo reduced to twice the cells' size, written into
    /// `workFolder` (with its metadata, depth data and matte moved along, as `graph run` would).
    init(photo: String, effects: [DepthEffectRecipe], width: Int, workFolder: String, context: Context) throws {
        let info = try DepthPhoto(contentsOf: photo).info
        let aspect = Double(info.orientedWidth) / Double(info.orientedHeight)
        let outputCounts = effects.map { $0.template.template.outputs.count }
        let layout = try ContactSheetLayout(width: width, count: 1 + outputCounts.reduce(0, +), aspect: aspect)
        let long = 2 * Double(max(layout.pictureWidth, layout.pictureHeight))
        let scale = long / Double(max(info.orientedWidth, info.orientedHeight))
        let source = scale < 1 ? try Self.reducedCopy(of: photo, size: (info.orientedWidth, info.orientedHeight), scale: scale,
                                                            in: workFolder, context: context) : photo

        var cells: [(label: String, image: Image)] = [("original", try Image(contentsOf: photo))]
        for effect in effects { cells += try effect.cells(photo: source, context: context) }

        var sheet = Image(color: [Self.background, Self.background, Self.background, 1], colorSpace: .sRGB)
            .cropped(to: Rect(x: 0, y: 0, width: Double(layout.width), height: Double(layout.height)))
        var labels: [String] = []
        for (index, cell) in cells.enumerated() {
            sheet = try Self.fitted(cell.image, into: layout.picture(index)).composited(over: sheet)
            let label = String(cell.label.prefix(layout.labelCharacters))
            let box = layout.label(index, characters: label.count)
            let text = Image(buffer: try BitmapFont.render(label, scale: layout.labelScale))
                .transformed(by: AffineTransform(translationX: box.minX, y: box.minY))
            sheet = text.composited(over: sheet)
            labels.append(cell.label)
        }
        self.image = sheet
        self.layout = layout
        self.labels = labels
    }

    /// `image` scaled to fit `cell` (keeping its aspect, centred) and moved there.
    static func fitted(_ image: Image, into cell: Rect) throws -> Image {
        let e = image.extent
        let fit = min(cell.width / e.width, cell.height / e.height)
        let width = max(1, (e.width * fit).rounded()), height = max(1, (e.height * fit).rounded())
        let atOrigin = image.transformed(by: AffineTransform(translationX: -e.minX, y: -e.minY))
        // Clamped first: the thumbnail's edges repeat the photo's instead of fading to transparent.
        let scaled = try atOrigin.clampedToExtent().applyingFilter("CILanczosScaleTransform", parameters: [
            "inputScale": .number(height / e.height), "inputAspectRatio": .number((width / e.width) / (height / e.height))])
        let x = cell.minX + ((cell.width - width) / 2).rounded(.down), y = cell.minY + ((cell.height - height) / 2).rounded(.down)
        return scaled.cropped(to: Rect(x: 0, y: 0, width: width, height: height))
            .transformed(by: AffineTransform(translationX: x, y: y))
    }

    /// `photo` (upright `size`) scaled by `scale` and written as a JPEG in `folder` with its metadata,
    /// depth data and matte moved along: a recipe like `graph run`'s, so they follow the same way.
    /// The photo is clamped before the scale and the result cropped to the scaled size, so its
    /// edges repeat the photo's (the scale alone fades them to transparent, as Core Image's does).
    static func reducedCopy(of photo: String, size: (width: Int, height: Int), scale: Double, in folder: String,
                            context: Context) throws -> String {
        let path = (folder as NSString).appendingPathComponent("photo.jpg")
        func image(_ members: [(String, JSON)]) -> JSON { .object(members) }
        let scaled = Rect(x: 0, y: 0, width: Double(size.width) * scale, height: Double(size.height) * scale).integral
        let json = image([
            ("version", .number(1)),
            ("images", image([
                ("photo", image([("file", .string(photo))])),
                ("edges", image([("clamp", image([("image", .string("photo"))]))])),
                ("small", image([("filter", .string("CILanczosScaleTransform")),
                                 ("inputs", image([("inputImage", image([("image", .string("edges"))])), ("inputScale", .number(scale))])),
                                 ("crop", .array([.number(0), .number(0), .number(scaled.width), .number(scaled.height)]))])),
            ])),
            ("outputs", .array([image([("image", .string("small")), ("file", .string(path)), ("quality", .number(95)),
                                       ("metadataFrom", .string("photo"))])])),
        ])
        let recipe = try RecipeDecoder(baseDirectory: FileManager.default.currentDirectoryPath).decode(json)
        let session = try RecipeSession.prepare(recipe, settings: RecipeSettings(recipePath: photo), context: context)
        guard let small = session.images.first, let output = session.recipe.outputs.first else {
            throw RecipeError(photo, "cannot reduce the photo")
        }
        try context.write(small, to: path, format: .jpeg, options: output.options)
        return path
    }
}
