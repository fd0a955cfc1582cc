import GraphEngine

/// A 5×7 pixel font for labels (capitals, digits and a little punctuation; lower case is drawn as
/// capitals, anything else as `?`), drawn for this project and free to use. Each glyph is seven
/// rows of five columns, `#` for ink, in a cell of 6×8 (one column and one row of spacing).
enum BitmapFont {
    static let glyphWidth = 5, glyphHeight = 7
    /// Horizontal distance from one glyph to the next, and the line height, in font pixels.
    static let advance = 6, lineHeight = 8

    /// The ink of `character`: seven rows, bit 4 the leftmost column.
    static func glyph(_ character: Character) -> [UInt8] {
        let upper = character.uppercased()
        if upper.count == 1, let first = upper.first, let rows = glyphs[first] { return rows }
        return glyphs["?"] ?? []
    }

    /// The size in pixels of `text` drawn at `scale` (each font pixel a `scale`×`scale` square).
    static func size(of text: String, scale: Int) -> (width: Int, height: Int) {
        (max(text.count * advance - 1, 1) * scale, glyphHeight * scale)
    }

    /// `text` in white (opaque ink, transparent elsewhere; premultiplied RGBA8, sRGB), each font pixel
    /// a `scale`×`scale` square, glyphs `advance·scale` apart: the first glyph's top-left ink at
    /// the buffer's top-left pixel.
    static func render(_ text: String, scale: Int) throws -> ImageBuffer {
        let (width, height) = size(of: text, scale: scale)
        return try ImageBuffer(width: width, height: height, format: .rgba8) { storage, rowBytes in
            let pixels = storage.assumingMemoryBound(to: UInt8.self)
            for (index, character) in text.enumerated() {
                let rows = glyph(character), left = index * advance * scale
                for (row, bits) in rows.enumerated() {
                    for column in 0..<glyphWidth where bits & (0x10 >> UInt8(column)) != 0 {
                        for dy in 0..<scale {
                            let line = pixels + (row * scale + dy) * rowBytes
                            for dx in 0..<scale {
                                let x = left + column * scale + dx
                                if x < width { (line + 4 * x).update(repeating: 255, count: 4) }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The glyphs, from their pictures.
    static let glyphs: [Character: [UInt8]] = pictures.mapValues { rows in
        rows.map { row in row.reduce(UInt8(0)) { $0 << 1 | ($1 == "#" ? 1 : 0) } }
    }

    private static let pictures: [Character: [String]] = [
        "A": [".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"],
        "B": ["####.", "#...#", "#...#", "####.", "#...#", "#...#", "####."],
        "C": [".###.", "#...#", "#....", "#....", "#....", "#...#", ".###."],
        "D": ["####.", "#...#", "#...#", "#...#", "#...#", "#...#", "####."],
        "E": ["#####", "#....", "#....", "####.", "#....", "#....", "#####"],
        "F": ["#####", "#....", "#....", "####.", "#....", "#....", "#...."],
        "G": [".###.", "#...#", "#....", "#.###", "#...#", "#...#", ".####"],
        "H": ["#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"],
        "I": [".###.", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."],
        "J": ["..###", "...#.", "...#.", "...#.", "...#.", "#..#.", ".##.."],
        "K": ["#...#", "#..#.", "#.#..", "##...", "#.#..", "#..#.", "#...#"],
        "L": ["#....", "#....", "#....", "#....", "#....", "#....", "#####"],
        "M": ["#...#", "##.##", "#.#.#", "#.#.#", "#...#", "#...#", "#...#"],
        "N": ["#...#", "#...#", "##..#", "#.#.#", "#..##", "#...#", "#...#"],
        "O": [".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."],
        "P": ["####.", "#...#", "#...#", "####.", "#....", "#....", "#...."],
        "Q": [".###.", "#...#", "#...#", "#...#", "#.#.#", "#..#.", ".##.#"],
        "R": ["####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#"],
        "S": [".####", "#....", "#....", ".###.", "....#", "....#", "####."],
        "T": ["#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."],
        "U": ["#...#", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."],
        "V": ["#...#", "#...#", "#...#", "#...#", "#...#", ".#.#.", "..#.."],
        "W": ["#...#", "#...#", "#...#", "#.#.#", "#.#.#", "#.#.#", ".#.#."],
        "X": ["#...#", "#...#", ".#.#.", "..#..", ".#.#.", "#...#", "#...#"],
        "Y": ["#...#", "#...#", ".#.#.", "..#..", "..#..", "..#..", "..#.."],
        "Z": ["#####", "....#", "...#.", "..#..", ".#...", "#....", "#####"],
        "0": [".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."],
        "1": ["..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."],
        "2": [".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"],
        "3": ["####.", "....#", "....#", ".###.", "....#", "....#", "####."],
        "4": ["...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."],
        "5": ["#####", "#....", "####.", "....#", "....#", "#...#", ".###."],
        "6": ["..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."],
        "7": ["#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."],
        "8": [".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."],
        "9": [".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."],
        " ": [".....", ".....", ".....", ".....", ".....", ".....", "....."],
        "-": [".....", ".....", ".....", ".###.", ".....", ".....", "....."],
        "_": [".....", ".....", ".....", ".....", ".....", ".....", "#####"],
        ".": [".....", ".....", ".....", ".....", ".....", ".##..", ".##.."],
        ",": [".....", ".....", ".....", ".....", "..##.", "..#..", ".#..."],
        ":": [".....", ".##..", ".##..", ".....", ".##..", ".##..", "....."],
        "/": ["....#", "....#", "...#.", "..#..", ".#...", "#....", "#...."],
        "(": ["...#.", "..#..", ".#...", ".#...", ".#...", "..#..", "...#."],
        ")": [".#...", "..#..", "...#.", "...#.", "...#.", "..#..", ".#..."],
        "+": [".....", "..#..", "..#..", "#####", "..#..", "..#..", "....."],
        "=": [".....", ".....", "#####", ".....", "#####", ".....", "....."],
        "'": ["..#..", "..#..", ".#...", ".....", ".....", ".....", "....."],
        "?": [".###.", "#...#", "....#", "...#.", "..#..", ".....", "..#.."],
    ]
}
