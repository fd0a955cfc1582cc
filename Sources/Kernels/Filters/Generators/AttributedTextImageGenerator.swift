import GraphEngine

/// CIAttributedTextImageGenerator: styled text (``AttributedText``: runs with their own font, size
/// and colour) drawn by ``TextRasterizer`` (fontconfig, HarfBuzz, FreeType) on transparent,
/// premultiplied 8-bit `over` glyph by glyph, each run at `fontSize·inputScaleFactor` pixels per em.
/// Lines break at "\n" in any run; a line is as tall as its largest font; the image is
/// `[0 0 w h]`, `w` the widest line's advance, grown by `inputPadding` on every side. Apple does not
/// publish its layout; the fonts' own metrics are used, so one black run draws exactly what
/// CITextImageGenerator draws for the same text, font and size.
enum AttributedTextImageGenerator {
    static let filter = FilterDescriptor(
        name: "CIAttributedTextImageGenerator", categories: ["CICategoryGenerator", "CICategoryVideo", "CICategoryStillImage"],
        summary: "Styled text (runs with their own font, size and colour) drawn with fontconfig, HarfBuzz and FreeType on transparent.",
        inputs: [
            FilterInput("inputText", .attributedText,
                        "The text: a string (Helvetica 12, black) or runs [{\"text\", \"font\", \"size\", \"color\"}, …]."),
            FilterInput("inputScaleFactor", .number, default: .number(1), minimum: 0, slider: 1...4, "Pixels per point."),
            FilterInput("inputPadding", .number, default: .number(0), minimum: 0, maximum: 200, slider: 0...50,
                        "Transparent pixels added on every side (rounded to a whole number)."),
        ]
    ) { args in
        let text = try args.attributedText("inputText"), scale = try args.number("inputScaleFactor")
        let padding = Int(try args.number("inputPadding").rounded())
        guard !text.runs.isEmpty, !text.string.isEmpty else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputText", reason: "the text is empty")
        }
        var runs: [TextRasterizer.Run] = []
        for (index, run) in text.runs.enumerated() {
            func fail(_ reason: String) -> GraphError {
                GraphError.invalidParameter(filter: args.filter, key: "inputText", reason: "run \(index): \(reason)")
            }
            let pixelSize = run.fontSize * scale
            guard pixelSize >= 1, pixelSize <= 4096 else {
                throw fail("its size × inputScaleFactor is \(pixelSize) px; it must be 1 to 4096")
            }
            guard run.color.count == 4, run.color.allSatisfy(\.isFinite) else {
                throw fail("its colour must be 4 finite numbers (red, green, blue, alpha), got \(run.color.count)")
            }
            let file = try TextRasterizer.fontFile(named: run.fontName, filter: args.filter)
            runs.append(TextRasterizer.Run(text: run.text, fontFile: file, pixelSize: pixelSize,
                                           color: SIMD4(run.color[0], run.color[1], run.color[2], run.color[3])))
        }
        let bitmap = try TextRasterizer.draw(runs, filter: args.filter)
        let width = bitmap.width + 2 * padding, height = bitmap.height + 2 * padding
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<bitmap.height {
            let source = 4 * y * bitmap.width, target = 4 * ((y + padding) * width + padding)
            bytes.replaceSubrange(target..<(target + 4 * bitmap.width), with: bitmap.pixels[source..<(source + 4 * bitmap.width)])
        }
        return Image(buffer: try ImageBuffer(width: width, height: height, format: .rgba8, alphaMode: .premultiplied,
                                             colorSpace: .sRGB, bytes: bytes))
    }
}
