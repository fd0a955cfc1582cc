import CTextRendering
import GraphEngine
import Synchronization

/// Text drawn into a coverage bitmap, for the text generators: fontconfig finds the font file for a
/// name, HarfBuzz shapes each line (kerning, ligatures, right-to-left runs, combining marks) and
/// FreeType rasterises the glyphs (hinted, 8-bit anti-aliased, `FT_RENDER_MODE_NORMAL`).
///
/// Layout: lines split at "\n", stacked one FreeType line height (`size.metrics.height`) apart, the
/// first baseline one ascender below the top; the width is the widest line's advance. Glyph
/// coverages combine as `a + g − a·g` (over). Every FreeType and HarfBuzz object is made and freed
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

    /// `text` in the font at `file`, `pixelSize` pixels per em; errors name `filter`.
    static func draw(_ text: String, fontFile file: String, pixelSize: Double, filter: String) throws(GraphError) -> Bitmap {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { throw GraphError.invalidParameter(filter: filter, key: "inputText", reason: "FreeType failed to start") }
        defer { FT_Done_FreeType(library) }
        var face: FT_Face?
        guard FT_New_Face(library, file, 0, &face) == 0, let face else {
            throw GraphError.invalidParameter(filter: filter, key: "inputFontName", reason: "FreeType cannot read the font file \(file)")
        }
        defer { FT_Done_Face(face) }
        guard FT_Set_Char_Size(face, 0, FT_F26Dot6((pixelSize * 64).rounded()), 72, 72) == 0 else {
            throw GraphError.invalidParameter(filter: filter, key: "inputFontSize", reason: "the font \(file) has no size \(pixelSize) px")
        }
        guard let font = hb_ft_font_create_referenced(face) else {
            throw GraphError.invalidParameter(filter: filter, key: "inputFontName", reason: "HarfBuzz cannot use the font file \(file)")
        }
        defer { hb_font_destroy(font) }
        let metrics = face.pointee.size.pointee.metrics
        let ascender = Int((Double(metrics.ascender) / 64).rounded(.up))
        let descender = Int((Double(-metrics.descender) / 64).rounded(.up))
        let lineHeight = Int((Double(metrics.height) / 64).rounded())

        // Each line's glyphs: index, pen position (26.6, from the line's origin).
        var lines: [[(glyph: UInt32, x: Int, y: Int)]] = []
        var width = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let buffer = hb_buffer_create() else { throw GraphError.invalidParameter(filter: filter, key: "inputText", reason: "HarfBuzz failed to start") }
            defer { hb_buffer_destroy(buffer) }
            let utf8 = Array(line.utf8)
            utf8.withUnsafeBufferPointer { bytes in
                bytes.baseAddress?.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    hb_buffer_add_utf8(buffer, $0, Int32(bytes.count), 0, Int32(bytes.count))
                }
            }
            hb_buffer_guess_segment_properties(buffer)
            hb_shape(font, buffer, nil, 0)
            var count: UInt32 = 0
            let infos = hb_buffer_get_glyph_infos(buffer, &count), positions = hb_buffer_get_glyph_positions(buffer, &count)
            var glyphs: [(glyph: UInt32, x: Int, y: Int)] = []
            var penX = 0, penY = 0
            for i in 0..<Int(count) {
                guard let info = infos?[i], let position = positions?[i] else { continue }
                glyphs.append((info.codepoint, penX + Int(position.x_offset), penY + Int(position.y_offset)))
                penX += Int(position.x_advance)
                penY += Int(position.y_advance)
            }
            width = max(width, (penX + 63) / 64)
            lines.append(glyphs)
        }
        let height = ascender + descender + lineHeight * (lines.count - 1)
        guard width > 0, height > 0 else {
            throw GraphError.invalidParameter(filter: filter, key: "inputText", reason: "the text draws nothing (no glyph advances)")
        }
        // The RGBA image made from it holds 4 bytes a pixel: refuse what no buffer could hold before
        // allocating the coverage.
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= ImageBuffer.maximumByteCount / 4 else {
            throw GraphError.invalidParameter(filter: filter, key: "inputText",
                                              reason: "the text draws \(width)x\(height) pixels, more than an image can hold")
        }
        var bitmap = Bitmap(width: width, height: height, coverage: [UInt8](repeating: 0, count: pixels))
        for (index, glyphs) in lines.enumerated() {
            let baseline = ascender + index * lineHeight
            for glyph in glyphs {
                guard FT_Load_Glyph(face, glyph.glyph, FT_Int32(FT_LOAD_DEFAULT)) == 0,
                      FT_Render_Glyph(face.pointee.glyph, FT_RENDER_MODE_NORMAL) == 0 else { continue }
                let slot = face.pointee.glyph.pointee
                let left = (glyph.x + 32) / 64 + Int(slot.bitmap_left), top = baseline - (glyph.y + 32) / 64 - Int(slot.bitmap_top)
                bitmap.blend(slot.bitmap, left: left, top: top)
            }
        }
        return bitmap
    }
}

extension TextRasterizer.Bitmap {
    /// A FreeType 8-bit glyph bitmap laid over this one at (left, top), clipped: `a + g − a·g`.
    mutating func blend(_ glyph: FT_Bitmap, left: Int, top: Int) {
        guard glyph.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue), glyph.pitch > 0, let source = glyph.buffer else { return }
        let rows = Int(glyph.rows), columns = Int(glyph.width), pitch = Int(glyph.pitch)
        for row in 0..<rows {
            let y = top + row
            guard y >= 0, y < height else { continue }
            for column in 0..<columns {
                let x = left + column
                guard x >= 0, x < width else { continue }
                let g = Int(source[row * pitch + column]), a = Int(coverage[y * width + x])
                coverage[y * width + x] = UInt8(a + g - (a * g + 127) / 255)
            }
        }
    }
}
