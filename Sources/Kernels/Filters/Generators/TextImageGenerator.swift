import GraphEngine

/// CITextImageGenerator: a string drawn in a font (``TextRasterizer``: fontconfig, HarfBuzz,
/// FreeType), black with the glyphs' coverage as alpha on transparent (Core Image draws the string
/// with its default attributes, black), `[0 0 w h]` with `w` the widest line's advance and `h` the
/// ascender, descender and line heights of the lines (each in pixels at `size·scale`), grown by
/// `inputPadding` on every side. Apple does not publish its layout; the font's own metrics are used.
enum TextImageGenerator {
    static let filter = FilterDescriptor(
        name: "CITextImageGenerator", categories: ["CICategoryGenerator", "CICategoryVideo", "CICategoryStillImage"],
        summary: "A string drawn in a font (fontconfig, HarfBuzz, FreeType): black text, alpha = glyph coverage, on transparent.",
        inputs: [
            FilterInput("inputText", .string, "The text to draw (lines split at \\n)."),
            FilterInput("inputFontName", .string, default: .string("HelveticaNeue"),
                        "A font name fontconfig matches (\"DejaVu Sans\", \"DejaVu Sans:bold\"; unknown names get its sans-serif font) or a font file's absolute path."),
            FilterInput("inputFontSize", .number, default: .number(12), minimum: 0, slider: 9...128, "The size in points (pixels at scale 1)."),
            FilterInput("inputScaleFactor", .number, default: .number(1), minimum: 0, slider: 1...4, "Pixels per point."),
            FilterInput("inputPadding", .number, default: .number(0), minimum: 0, maximum: 200, slider: 0...50,
                        "Transparent pixels added on every side (rounded to a whole number)."),
        ]
    ) { args in
        let text = try args.string("inputText"), fontName = try args.string("inputFontName")
        let pixelSize = try args.number("inputFontSize") * args.number("inputScaleFactor")
        let padding = Int(try args.number("inputPadding").rounded())
        guard !text.isEmpty else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputText", reason: "the text is empty")
        }
        guard pixelSize >= 1, pixelSize <= 4096 else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputFontSize",
                                              reason: "inputFontSize × inputScaleFactor is \(pixelSize) px; it must be 1 to 4096")
        }
        let file = try TextRasterizer.fontFile(named: fontName, filter: args.filter)
        let bitmap = try TextRasterizer.draw(text, fontFile: file, pixelSize: pixelSize, filter: args.filter)
        let width = bitmap.width + 2 * padding, height = bitmap.height + 2 * padding
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                bytes[((y + padding) * width + x + padding) * 4 + 3] = bitmap.coverage[y * bitmap.width + x]
            }
        }
        return Image(buffer: try ImageBuffer(width: width, height: height, format: .rgba8, alphaMode: .premultiplied,
                                             colorSpace: .sRGB, bytes: bytes))
    }
}
