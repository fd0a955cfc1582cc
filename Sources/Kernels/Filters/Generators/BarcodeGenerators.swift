import GraphEngine

/// The barcode generators: the symbol encoded by libzint (``ZintSymbol``), drawn one pixel per
/// module, dark modules black (0) and light ones white (1), opaque, extent from `(0, 0)`.
///
/// `inputMessage` is text whose UTF-8 bytes are the message (Core Image takes `NSData`: bytes
/// that are not UTF-8 cannot be given here). The bytes are encoded as they are, without an ECI
/// header, as Core Image does. Integer inputs are truncated toward zero, as Core Image reads an
/// `NSNumber`'s integer value.
enum BarcodeGenerators {
    static let categories = ["CICategoryGenerator", "CICategoryStillImage", "CICategoryBuiltIn"]
    static let all: [FilterDescriptor] = [qrCode, aztec, pdf417, code128]

    static func messageInput(_ code: String) -> FilterInput {
        FilterInput("inputMessage", .string, "The message to encode in the \(code) (its UTF-8 bytes).")
    }

    /// A QR code with a white border of one module on each side (ours: Apple does not document the
    /// border of its output). Correction level L, M, Q or H (7, 15, 25, 30 % of codewords); the
    /// version is the smallest that holds the message.
    static let qrCode = FilterDescriptor(
        name: "CIQRCodeGenerator", categories: categories,
        summary: "A QR code of the message (libzint), one pixel per module, black on white, with a one-module border; extent from (0, 0).",
        inputs: [messageInput("QR code"),
                 FilterInput("inputCorrectionLevel", .string, default: .string("M"), "The correction level: L, M, Q or H.")]
    ) { args in
        let levels = ["L": Int32(1), "M": 2, "Q": 3, "H": 4]
        let levelName = try args.string("inputCorrectionLevel")
        guard let level = levels[levelName] else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputCorrectionLevel",
                                              reason: "expected L, M, Q or H, got \"\(levelName)\"")
        }
        let symbol = try encode(args, as: .qrCode, option1: level)
        return try image(of: symbol, border: 1)
    }

    /// An Aztec code with a white border of one module (ours, as the QR code's). The correction
    /// level (Core Image's percentage of codewords, 5–95) picks libzint's nearest level at or above
    /// it, 10, 23, 36 or 50 % (above 50 % libzint's 50 %). `inputLayers` (with `inputCompactStyle`:
    /// compact codes have 1–4 layers) fixes the size; then, as with `inputCompactStyle` alone (the
    /// smallest size of that style that holds the message), the correction is what the size leaves
    /// (libzint ignores the level once the size is fixed).
    static let aztec = FilterDescriptor(
        name: "CIAztecCodeGenerator", categories: categories,
        summary: "An Aztec code of the message (libzint), one pixel per module, black on white, with a one-module border; extent from (0, 0).",
        inputs: [messageInput("Aztec code"),
                 FilterInput("inputCorrectionLevel", .number, default: .number(23), minimum: 5, maximum: 95, slider: 5...95,
                             "The share of codewords for error correction, in percent (libzint's 10, 23, 36 or 50 at or above it)."),
                 FilterInput("inputLayers", .number, minimum: 1, maximum: 32, slider: 1...32,
                             "The number of data layers (automatic when not given; 1–4 for a compact code)."),
                 FilterInput("inputCompactStyle", .bool,
                             "Force a compact (true) or full-range (false) code; automatic when not given.")]
    ) { args in
        let percent = try args.number("inputCorrectionLevel")
        let level: Int32 = percent <= 10 ? 1 : percent <= 23 ? 2 : percent <= 36 ? 3 : 4
        let layers = try optionalInteger(args, "inputLayers")
        let compact = optionalBool(args, "inputCompactStyle")
        // libzint's sizes: 1–4 compact with that many layers, 5–36 full range with size − 4 layers.
        let sizes: [Int32]
        switch (layers, compact) {
        case (nil, nil): sizes = [0]
        case (nil, true?): sizes = Array(1...4)
        case (nil, false?): sizes = Array(5...36)
        case (let n?, let c):
            if c == true, n > 4 {
                throw GraphError.invalidParameter(filter: args.filter, key: "inputLayers",
                                                  reason: "a compact Aztec code has 1 to 4 layers, got \(n)")
            }
            sizes = [c == true ? Int32(n) : Int32(n + 4)]
        }
        var failure: GraphError?
        for size in sizes {
            do { return try image(of: try encode(args, as: .aztec, option1: size == 0 ? level : -1, option2: size), border: 1) }
            catch let error as GraphError { failure = error }
        }
        throw failure ?? GraphError.invalidParameter(filter: args.filter, key: "inputMessage", reason: "no Aztec size holds the message")
    }

    /// A PDF417 code, each row 3 pixels tall (the standard's smallest row height, 3 modules), with a
    /// white border of one module (ours). Honoured: `inputCorrectionLevel` (0–8), `inputDataColumns`,
    /// `inputRows`, `inputCompactStyle` (truncated PDF417). When the columns are not given, the
    /// minimum and maximum width and height (pixels of the symbol without the border) and the
    /// preferred aspect ratio (width / height) choose them: the fewest columns whose symbol fits
    /// the bounds, or among those the one nearest the ratio. Ignored (libzint chooses its
    /// compaction per segment and always marks it as the standard requires):
    /// `inputCompactionMode`, `inputAlwaysSpecifyCompaction`.
    static let pdf417 = FilterDescriptor(
        name: "CIPDF417BarcodeGenerator", categories: ["CICategoryGenerator", "CICategoryVideo", "CICategoryStillImage", "CICategoryBuiltIn"],
        summary: "A PDF417 code of the message (libzint), one pixel per module, rows 3 pixels tall, black on white, with a one-module border; "
            + "extent from (0, 0).",
        inputs: [messageInput("PDF417 code"),
                 FilterInput("inputMinWidth", .number, minimum: 56, maximum: 583, slider: 56...583, "The smallest width of the symbol in pixels."),
                 FilterInput("inputMaxWidth", .number, minimum: 56, maximum: 583, slider: 56...583, "The largest width of the symbol in pixels."),
                 FilterInput("inputMinHeight", .number, minimum: 13, maximum: 283, slider: 13...283, "The smallest height of the symbol in pixels."),
                 FilterInput("inputMaxHeight", .number, minimum: 13, maximum: 283, slider: 13...283, "The largest height of the symbol in pixels."),
                 FilterInput("inputDataColumns", .number, minimum: 1, maximum: 30, slider: 1...30, "The number of data columns."),
                 FilterInput("inputRows", .number, minimum: 3, maximum: 90, slider: 3...90, "The number of rows."),
                 FilterInput("inputPreferredAspectRatio", .number, minimum: 0, "The preferred width / height of the symbol."),
                 FilterInput("inputCompactionMode", .number, minimum: 0, maximum: 3, slider: 0...3,
                             "Core Image's compaction mode (ignored: libzint chooses the compaction)."),
                 FilterInput("inputCompactStyle", .bool, "Truncated (compact) PDF417: no right row indicator and a one-module stop pattern."),
                 FilterInput("inputCorrectionLevel", .number, minimum: 0, maximum: 8, slider: 0...8,
                             "The error correction level, 0–8 (2^(level+1) codewords; automatic when not given)."),
                 FilterInput("inputAlwaysSpecifyCompaction", .bool, "Core Image's explicit compaction latch (ignored).")]
    ) { args in
        let rowHeight = 3
        let symbology: ZintSymbol.Symbology = optionalBool(args, "inputCompactStyle") == true ? .compactPDF417 : .pdf417
        let level = try optionalInteger(args, "inputCorrectionLevel").map { Int32($0) } ?? -1
        let rows = try optionalInteger(args, "inputRows").map { Int32($0) } ?? 0
        if let columns = try optionalInteger(args, "inputDataColumns") {
            return try image(of: try encode(args, as: symbology, option1: level, option2: Int32(columns), option3: rows),
                             moduleHeight: rowHeight, border: 1)
        }
        let minWidth = try optionalInteger(args, "inputMinWidth") ?? 0, maxWidth = try optionalInteger(args, "inputMaxWidth") ?? .max
        let minHeight = try optionalInteger(args, "inputMinHeight") ?? 0, maxHeight = try optionalInteger(args, "inputMaxHeight") ?? .max
        let ratio: Double? = if case .number(let r)? = args.values["inputPreferredAspectRatio"], r > 0 { r } else { nil }
        if minWidth == 0, maxWidth == .max, minHeight == 0, maxHeight == .max, ratio == nil {
            return try image(of: try encode(args, as: symbology, option1: level, option3: rows), moduleHeight: rowHeight, border: 1)
        }
        var best: (symbol: ZintSymbol, distance: Double)?
        for columns in Int32(1)...30 {
            guard let symbol = try? encode(args, as: symbology, option1: level, option2: columns, option3: rows) else { continue }
            let width = symbol.width, height = symbol.rows * rowHeight
            guard width >= minWidth, width <= maxWidth, height >= minHeight, height <= maxHeight else { continue }
            let distance = ratio.map { abs(Double(width) / Double(height) - $0) } ?? 0
            if distance < best?.distance ?? .infinity { best = (symbol, distance) }
            if ratio == nil { break }
        }
        guard let best else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputMessage",
                                              reason: "no PDF417 symbol of 1–30 columns holding the message fits the width \(minWidth)…\(maxWidth) "
                                                + "and height \(minHeight)…\(maxHeight) pixels")
        }
        return try image(of: best.symbol, moduleHeight: rowHeight, border: 1)
    }

    /// A Code 128 bar code (libzint picks code sets A, B and C for the shortest symbol; message
    /// bytes 0–255, those above 127 through FNC4), `inputBarcodeHeight` pixels tall, with
    /// `inputQuietSpace` white pixels on every side (Apple: "surround the barcode").
    static let code128 = FilterDescriptor(
        name: "CICode128BarcodeGenerator", categories: categories,
        summary: "A Code 128 bar code of the message (libzint), one pixel per module, inputBarcodeHeight tall, with inputQuietSpace "
            + "white pixels around it; extent from (0, 0).",
        inputs: [messageInput("Code 128 bar code"),
                 FilterInput("inputQuietSpace", .number, default: .number(10), minimum: 0, maximum: 100, slider: 0...20,
                             "The white pixels around the bar code."),
                 FilterInput("inputBarcodeHeight", .number, default: .number(32), minimum: 1, maximum: 500, slider: 1...50,
                             "The height of the bars in pixels.")]
    ) { args in
        let symbol = try encode(args, as: .code128)
        return try image(of: symbol, moduleHeight: Int(try args.number("inputBarcodeHeight")),
                         border: Int(try args.number("inputQuietSpace")))
    }

    // MARK: Helpers

    /// The integer value of an optional number input (nil when not given).
    static func optionalInteger(_ args: FilterArguments, _ key: String) throws -> Int? {
        guard args.values[key] != nil else { return nil }
        return Int(try args.number(key))
    }

    /// The value of an optional boolean input (nil when not given).
    static func optionalBool(_ args: FilterArguments, _ key: String) -> Bool? {
        if case .bool(let b)? = args.values[key] { b } else { nil }
    }

    /// `inputMessage` encoded by libzint, errors naming the filter and the message.
    static func encode(_ args: FilterArguments, as symbology: ZintSymbol.Symbology, option1: Int32 = -1, option2: Int32 = 0,
                       option3: Int32 = 0) throws -> ZintSymbol {
        let message: String = if case .string(let s)? = args.values["inputMessage"] { s } else { "" }
        guard !message.isEmpty else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputMessage", reason: "the message is empty or not given")
        }
        do {
            return try ZintSymbol.encode(Array(message.utf8), as: symbology, option1: option1, option2: option2, option3: option3)
        } catch let failure as ZintSymbol.EncodingFailure {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputMessage", reason: failure.reason)
        }
    }

    /// The symbol as an opaque sRGB image: one pixel per module across, `moduleHeight` pixels per
    /// symbol row, inside a white border of `margin` pixels on every side.
    static func image(of symbol: ZintSymbol, moduleHeight: Int = 1, border margin: Int) throws -> Image {
        let width = symbol.width + 2 * margin, height = symbol.rows * moduleHeight + 2 * margin
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for row in 0..<symbol.rows {
            for column in 0..<symbol.width where symbol.isDark(row: row, column: column) {
                for y in (margin + row * moduleHeight)..<(margin + (row + 1) * moduleHeight) {
                    let offset = (y * width + margin + column) * 4
                    bytes[offset] = 0; bytes[offset + 1] = 0; bytes[offset + 2] = 0
                }
            }
        }
        return Image(buffer: try ImageBuffer(width: width, height: height, format: .rgba8, alphaMode: .premultiplied,
                                             colorSpace: .sRGB, bytes: bytes))
    }
}
