/// Styled text, the value of CIAttributedTextImageGenerator's `inputText` (Core Image takes an
/// `NSAttributedString`): runs of characters, each with the attributes this engine draws — its
/// font, size and colour. A plain string is one run with `NSAttributedString`'s defaults
/// (Helvetica 12, black).
public struct AttributedText: Hashable, Sendable {
    /// Characters drawn with one font, size and colour.
    public struct Run: Hashable, Sendable {
        /// The characters ("\n" starts a new line).
        public var text: String
        /// A font name fontconfig matches, or a font file's absolute path (as CITextImageGenerator's).
        public var fontName: String
        /// The size in points (pixels at scale factor 1).
        public var fontSize: Double
        /// Straight (not premultiplied) sRGB red, green, blue and alpha, 0…1.
        public var color: [Double]

        /// A run; the defaults are `NSAttributedString`'s (Helvetica 12, black).
        public init(_ text: String, fontName: String = Self.defaultFontName, fontSize: Double = Self.defaultFontSize,
                    color: [Double] = [0, 0, 0, 1]) {
            self.text = text
            self.fontName = fontName
            self.fontSize = fontSize
            self.color = color
        }

        /// `NSAttributedString`'s default font, Helvetica (fontconfig substitutes its sans-serif font where it is missing).
        public static let defaultFontName = "Helvetica"
        /// `NSAttributedString`'s default size, 12 points.
        public static let defaultFontSize = 12.0
    }

    /// The runs, in reading order.
    public var runs: [Run]

    /// Text made of `runs`.
    public init(_ runs: [Run]) { self.runs = runs }

    /// A plain string: one run with the default attributes.
    public init(_ text: String) { runs = [Run(text)] }

    /// The characters of every run.
    public var string: String { runs.map(\.text).joined() }
}
