import CTextRendering
import GraphEngine
import Synchronization

/// Text drawn into a bitmap, for the text generators: fontconfig finds the font file for a
/// name, HarfBuzz shapes each line (kerning, ligatures, right-to-left runs, combining marks) and
/// FreeType rasterises the glyphs (hinted, 8-bit anti-aliased, `FT_RENDER_MODE_NORMAL`).
///
/// Layout (``draw(_:filter:)``): runs of text, each in its font, size and colour, lines split at "\n" and
/// stacked by their fonts' FreeType line heights (`size.metrics.height`); the width is the widest line's advance. Glyph
/// coverages combine premultiplied `over`. Every FreeType and HarfBuzz object is made and freed
/// per call, so calls on different threads share nothing; fontconfig, which is not safe to
/// initialise from two threads at once, is asked under a lock.
struct TextRasterizer {
    /// Coverage, 0…255, `width × height`, the top row first.
    struct Bitmap {
        var width: Int, height: Int
        var coverage: [UInt8]
    }

    /// The font file fontconfig picks for `name` (a family such as "DejaVu Sans", a pattern such as
    /// "DejaVu Sans:bold", or a PostScript name), falling back to its default sans-serif font as Core
    /// Image falls back to Helvetica; a path to a font file is used as it is.
    static func fontFile(named name: String, filter: String) throws(GraphError) -> String {
        if name.hasPrefix("/") { return name }
        return try fontconfigLock.withLock { _ throws(GraphError) -> String in
            guard let pattern = FcNameParse(name) else {
                throw GraphError.invalidParameter(filter: filter, key: "inputFontName", reason: "fontconfig cannot read the font name \"\(name)\"")
            }
            defer { FcPatternDestroy(pattern) }
            FcConfigSubstitute(nil, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultNoMatch
            guard let match = FcFontMatch(nil, pattern, &result) else {
                throw GraphError.invalidParameter(filter: filter, key: "inputFontName", reason: "no font installed matches \"\(name)\" (fontconfig found none; install fonts-dejavu-core)")
            }
            defer { FcPatternDestroy(match) }
            var file: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch, let file else {
                throw GraphError.invalidParameter(filter: filter, key: "inputFontName", reason: "fontconfig's match for \"\(name)\" names no file")
            }
            return String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self))
        }
    }

    private static let fontconfigLock = Mutex(())

    /// One run of styled text: its characters, the font file and size it is drawn in, and its colour
    /// (straight, not premultiplied, RGBA 0…1, in the output's encoding).
    struct Run {
        var text: String
        var fontFile: String
        var pixelSize: Double
        var color: SIMD4<Double>
    }

    /// Premultiplied RGBA, 8 bits a channel, `width × height`, the top row first.
    struct ColorBitmap {
        var width: Int, height: Int
        var pixels: [UInt8]
    }

    /// `text` in the font at `file`, `pixelSize` pixels per em, as coverage: the alpha of the text drawn
    /// opaque black (``draw(_:filter:)``); errors name `filter`.
    static func draw(_ text: String, fontFile file: String, pixelSize: Double, filter: String) throws(GraphError) -> Bitmap {
        let drawn = try draw([Run(text: text, fontFile: file, pixelSize: pixelSize, color: [0, 0, 0, 1])], filter: filter)
        return Bitmap(width: drawn.width, height: drawn.height,
                      coverage: (0..<(drawn.width * drawn.height)).map { drawn.pixels[4 * $0 + 3] })
    }

    /// `runs` laid out one after another, lines split at "\n" inside them. Each run is shaped in its
    /// own font; a line's fonts are those of its characters (an empty line: the font it starts in);
    /// its baseline sits its largest line height below the previous baseline (the first line's: its
    /// largest ascender below the top),
    /// and the bitmap ends the last line's largest descender below its baseline (for one font: the
    /// ascender, the line heights and the descender). Glyphs are laid over what is drawn in order,
    /// premultiplied 8-bit `over`: with G = coverage·alpha, `d' = round(c·a·coverage) + d − round(d·G)`
    /// per colour channel and `a' = G + a − round(a·G)` (integer rounding of x/255 as `(x + 127)/255`).
    static func draw(_ runs: [Run], filter: String) throws(GraphError) -> ColorBitmap {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { throw GraphError.invalidParameter(filter: filter, key: "inputText", reason: "FreeType failed to start") }
        defer { FT_Done_FreeType(library) }
        // One FreeType face and HarfBuzz font per (file, size), made on first use.
        var fonts: [Font] = []
        defer { for font in fonts { hb_font_destroy(font.harfBuzz); FT_Done_Face(font.face) } }
        func font(_ file: String, _ pixelSize: Double) throws(GraphError) -> Int {
            if let index = fonts.firstIndex(where: { $0.file == file && $0.pixelSize == pixelSize }) { return index }
            var face: FT_Face?
            guard FT_New_Face(library, file, 0, &face) == 0, let face else {
                throw GraphError.invalidParameter(filter: filter, key: "inputFontName", reason: "FreeType cannot read the font file \(file)")
            }
            guard FT_Set_Char_Size(face, 0, FT_F26Dot6((pixelSize * 64).rounded()), 72, 72) == 0 else {
                FT_Done_Face(face)
                throw GraphError.invalidParameter(filter: filter, key: "inputFontSize", reason: "the font \(file) has no size \(pixelSize) px")
            }
            guard let harfBuzz = hb_ft_font_create_referenced(face) else {
                FT_Done_Face(face)
                throw GraphError.invalidParameter(filter: filter, key: "inputFontName", reason: "HarfBuzz cannot use the font file \(file)")
            }
            let metrics = face.pointee.size.pointee.metrics
            fonts.append(Font(file: file, pixelSize: pixelSize, face: face, harfBuzz: harfBuzz,
                              ascender: Int((Double(metrics.ascender) / 64).rounded(.up)),
                              descender: Int((Double(-metrics.descender) / 64).rounded(.up)),
                              lineHeight: Int((Double(metrics.height) / 64).rounded())))
            return fonts.count - 1
        }

        // Each line's glyphs (index, font, colour, pen position in 26.6 from the line's origin), the
        // fonts of its characters, and the font it starts in (an empty line is as tall as that).
        var lines: [(glyphs: [Glyph], fonts: Set<Int>, first: Int?)] = [([], [], nil)]
        var width = 0, penX = 0
        for run in runs {
            let fontIndex = try font(run.fontFile, run.pixelSize)
            for (index, piece) in run.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if index > 0 { lines.append(([], [], nil)); penX = 0 }
                if lines[lines.count - 1].first == nil { lines[lines.count - 1].first = fontIndex }
                guard !piece.isEmpty else { continue }
                lines[lines.count - 1].fonts.insert(fontIndex)
                guard let buffer = hb_buffer_create() else { throw GraphError.invalidParameter(filter: filter, key: "inputText", reason: "HarfBuzz failed to start") }
                defer { hb_buffer_destroy(buffer) }
                let utf8 = Array(piece.utf8)
                utf8.withUnsafeBufferPointer { bytes in
                    bytes.baseAddress?.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                        hb_buffer_add_utf8(buffer, $0, Int32(bytes.count), 0, Int32(bytes.count))
                    }
                }
                hb_buffer_guess_segment_properties(buffer)
                hb_shape(fonts[fontIndex].harfBuzz, buffer, nil, 0)
                var count: UInt32 = 0
                let infos = hb_buffer_get_glyph_infos(buffer, &count), positions = hb_buffer_get_glyph_positions(buffer, &count)
                var penY = 0
                for i in 0..<Int(count) {
                    guard let info = infos?[i], let position = positions?[i] else { continue }
                    lines[lines.count - 1].glyphs.append(Glyph(index: info.codepoint, font: fontIndex, color: run.color,
                                                               x: penX + Int(position.x_offset), y: penY + Int(position.y_offset)))
                    penX += Int(position.x_advance)
                    penY += Int(position.y_advance)
                }
                width = max(width, (penX + 63) / 64)
            }
        }
        // Baselines from the top, and the height.
        var baselines: [Int] = []
        var height = 0
        for (index, line) in lines.enumerated() {
            let used = line.fonts.isEmpty ? line.first.map { [fonts[$0]] } ?? [] : line.fonts.map { fonts[$0] }
            let ascender = used.map(\.ascender).max() ?? 0, lineHeight = used.map(\.lineHeight).max() ?? 0
            baselines.append(index == 0 ? ascender : baselines[index - 1] + lineHeight)
            height = baselines[index] + (used.map(\.descender).max() ?? 0)
        }
        guard width > 0, height > 0 else {
            throw GraphError.invalidParameter(filter: filter, key: "inputText", reason: "the text draws nothing (no glyph advances)")
        }
        // 4 bytes a pixel: refuse what no buffer could hold before allocating it.
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= ImageBuffer.maximumByteCount / 4 else {
            throw GraphError.invalidParameter(filter: filter, key: "inputText",
                                              reason: "the text draws \(width)x\(height) pixels, more than an image can hold")
        }
        var bitmap = ColorBitmap(width: width, height: height, pixels: [UInt8](repeating: 0, count: 4 * pixels))
        for (line, baseline) in zip(lines, baselines) {
            for glyph in line.glyphs {
                let face = fonts[glyph.font].face
                guard FT_Load_Glyph(face, glyph.index, FT_Int32(FT_LOAD_DEFAULT)) == 0,
                      FT_Render_Glyph(face.pointee.glyph, FT_RENDER_MODE_NORMAL) == 0 else { continue }
                let slot = face.pointee.glyph.pointee
                let left = (glyph.x + 32) / 64 + Int(slot.bitmap_left), top = baseline - (glyph.y + 32) / 64 - Int(slot.bitmap_top)
                bitmap.blend(slot.bitmap, left: left, top: top, color: glyph.color)
            }
        }
        return bitmap
    }

    /// A face at one size, its HarfBuzz font and its metrics in whole pixels.
    private struct Font {
        let file: String, pixelSize: Double
        let face: FT_Face, harfBuzz: OpaquePointer
        let ascender: Int, descender: Int, lineHeight: Int
    }

    /// A shaped glyph: its index in its font, its colour and its pen position (26.6) on its line.
    private struct Glyph {
        let index: UInt32, font: Int
        let color: SIMD4<Double>
        let x: Int, y: Int
    }
}

extension TextRasterizer.ColorBitmap {
    /// A FreeType 8-bit glyph bitmap in `color` (straight RGBA) laid over this one at (left, top),
    /// clipped, premultiplied `over` in 8-bit integers (``TextRasterizer/draw(_:filter:)``).
    mutating func blend(_ glyph: FT_Bitmap, left: Int, top: Int, color: SIMD4<Double>) {
        guard glyph.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue), glyph.pitch > 0, let source = glyph.buffer else { return }
        let rows = Int(glyph.rows), columns = Int(glyph.width), pitch = Int(glyph.pitch)
        let alpha = min(max(color[3], 0), 1)
        let premultiplied = (0..<3).map { Int((min(max(color[$0], 0), 1) * alpha * 255).rounded()) }
        let opacity = Int((alpha * 255).rounded())
        for row in 0..<rows {
            let y = top + row
            guard y >= 0, y < height else { continue }
            for column in 0..<columns {
                let x = left + column
                guard x >= 0, x < width else { continue }
                let g = Int(source[row * pitch + column])
                guard g > 0 else { continue }
                let coverage = (g * opacity + 127) / 255, offset = 4 * (y * width + x)
                for c in 0..<3 {
                    let d = Int(pixels[offset + c])
                    pixels[offset + c] = UInt8(min((premultiplied[c] * g + 127) / 255 + d - (d * coverage + 127) / 255, 255))
                }
                let a = Int(pixels[offset + 3])
                pixels[offset + 3] = UInt8(coverage + a - (a * coverage + 127) / 255)
            }
        }
    }
}
