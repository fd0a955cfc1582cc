import GraphEngine

/// CIRoundedQRCodeGenerator (macOS 26 / iOS 26): the QR code of ``BarcodeGenerators/qrCode``
/// (libzint, the same modules and one-module border) drawn `s` pixels per module with rounded
/// shapes, anti-aliased: `out = mix(color0, color1, c)` (premultiplied, in the working space) with
/// `c = clamp(½ − s·d, 0, 1)` for a shape whose signed distance in modules is `d` (a one-pixel box
/// across the edge, as ``RectangleGenerators``).
///
/// Apple documents the keys but not the geometry; ours, in modules, with `b(q, h, r)` the signed
/// distance to a square of half side `h` with corners of radius `r`
/// (`e = |q| − (h − r)`, `b = ‖max(e, 0)‖ + min(max(e.x, e.y), 0) − r`):
/// - a dark data module (timing, format and version modules included) is the disc of diameter 1
///   in its cell, `d = ‖p − centre‖ − ½`, with `inputRoundedData`, else its square;
/// - a finder pattern (`inputRoundedMarkers` ≥ 1), centre `m`, is the ring `b(q, 3.5, 2)` minus
///   `b(q, 2.5, 1)` and the centre `b(q, 1.5, 1)`, `q = p − m` (concentric corners, the ring one
///   module wide, as the standard's 7 × 7 pattern); with 0, its modules are squares;
/// - an alignment pattern (`inputRoundedMarkers` = 2) is the ring `b(q, 2.5, 1.5)` minus
///   `b(q, 1.5, 0.5)` and the disc `‖q‖ − ½`; otherwise its modules are squares;
/// - the centre space: at correction level Q or H a square of `k` modules in Color 1 centred on
///   the symbol, `k` the largest whole number of the symbol's parity at most
///   `min(inputCenterSpaceSize, 0.25 at Q, ⅓ at H)` × the symbol's modules (Apple: "the fraction of
///   the center space of the QRCode to fill with Color 1"; unaltered at L and M or for size 0).
///   The correction level has to recover what it covers.
///
/// Every shape lies in its own cells, so each pixel takes the shape of the cell it is in. The
/// scale is rounded to whole pixels per module (ours: so that modules meet pixel edges) and
/// `inputRoundedMarkers` truncated toward zero; the
/// extent is `[0 0 (n + 2)·s (n + 2)·s]` for a symbol of `n` modules.
enum RoundedQRCodeGenerator {
    static let filter = FilterDescriptor(
        name: "CIRoundedQRCodeGenerator", categories: ["CICategoryGenerator", "CICategoryStillImage"],
        summary: "A QR code of the message (libzint) with round data modules and rounded finder and alignment patterns, s pixels per module, "
            + "anti-aliased: mix(color0, color1, clamp(½ − s·d, 0, 1)), d the signed distance to the module's shape; one-module border; "
            + "extent from (0, 0).",
        inputs: [BarcodeGenerators.messageInput("QR code"),
                 FilterInput("inputCorrectionLevel", .string, default: .string("M"), "The correction level: L, M, Q or H."),
                 FilterInput("inputScale", .number, default: .number(16), minimum: 8, maximum: 64, slider: 16...32,
                             "Pixels per module (rounded to a whole number)."),
                 FilterInput("inputRoundedMarkers", .number, default: .number(1), minimum: 0, maximum: 2,
                             "0: square finder patterns; 1: rounded finder patterns; 2: rounded alignment patterns too."),
                 FilterInput("inputRoundedData", .bool, default: .bool(true), "Draw the data modules as discs (else squares)."),
                 FilterInput("inputCenterSpaceSize", .number, default: .number(0.25), minimum: 0, maximum: 1.0 / 3, slider: 0.2...(1.0 / 3),
                             "The side of the centre square filled with Color 1, as a fraction of the symbol (at most 0.25 at Q, ⅓ at H; none at L and M)."),
                 FilterInput("inputColor0", .color, default: .color([1, 1, 1, 1]), "The background colour."),
                 FilterInput("inputColor1", .color, default: .color([0, 0, 0, 1]), "The foreground colour.")]
    ) { args in
        let levels = ["L": Int32(1), "M": 2, "Q": 3, "H": 4]
        let levelName = try args.string("inputCorrectionLevel")
        guard let level = levels[levelName] else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputCorrectionLevel",
                                              reason: "expected L, M, Q or H, got \"\(levelName)\"")
        }
        let symbol = try BarcodeGenerators.encode(args, as: .qrCode, option1: level)
        let centreLimit = level == 4 ? 1.0 / 3 : level == 3 ? 0.25 : 0
        let map = try moduleMap(of: symbol, roundedMarkers: Int(try args.number("inputRoundedMarkers")),
                                roundedData: try args.bool("inputRoundedData"),
                                centreFraction: min(try args.number("inputCenterSpaceSize"), centreLimit))
        let scale = (try args.number("inputScale")).rounded()
        let side = map.extent.width * scale
        return try kernel.apply([.image(try args.colorImage("inputColor0")), .image(try args.colorImage("inputColor1")),
                                 .image(map), .number(scale)],
                                extent: Rect(x: 0, y: 0, width: side, height: side),
                                regionOfInterest: .callback { index, rect in index == 2 ? map.extent : rect })
    }

    /// What a cell of the module map draws (its red value).
    enum Shape: Float {
        case none = 0, square = 1, disc = 2, finder = 3, alignment = 4
    }

    /// The module centres (row or column, from the top left) of a version's alignment patterns
    /// (ISO/IEC 18004 annex E, as Project Nayuki's QR library computes the table): 6, then evenly
    /// spaced by an even step up to `n − 7`.
    static func alignmentPositions(modules n: Int) -> [Int] {
        let version = (n - 17) / 4
        guard version >= 2 else { return [] }
        let count = version / 7 + 2
        let step = version == 32 ? 26 : (version * 4 + count * 2 + 1) / (count * 2 - 2) * 2
        return [6] + (0..<(count - 1)).map { n - 7 - step * $0 }.reversed()
    }

    /// One texel per module of the symbol and its one-module border (`[0 0 n+2 n+2]`, data, never
    /// colour-matched): red the ``Shape`` of the cell, green and blue the centre of the cell's
    /// finder or alignment pattern in module units (working space, y up).
    static func moduleMap(of symbol: ZintSymbol, roundedMarkers: Int, roundedData: Bool, centreFraction: Double) throws -> Image {
        let n = symbol.width, side = n + 2
        var shapes = [Shape](repeating: .none, count: n * n)
        var centres = [(Float, Float)](repeating: (0, 0), count: n * n)
        for row in 0..<n {
            for column in 0..<n where symbol.isDark(row: row, column: column) {
                shapes[row * n + column] = roundedData ? .disc : .square
            }
        }
        // The `size × size` pattern centred on module (`row`, `column`): `shape`, or its dark modules as squares.
        func mark(row: Int, column: Int, size: Int, as shape: Shape, rounded: Bool) {
            let half = size / 2
            // Centre in module units of the map: column + border + ½, and y up from the map's bottom.
            let centre = (Float(column + 1) + 0.5, Float(side - 1 - (row + 1)) + 0.5)
            for r in (row - half)...(row + half) {
                for c in (column - half)...(column + half) {
                    if rounded {
                        shapes[r * n + c] = shape
                        centres[r * n + c] = centre
                    } else {
                        shapes[r * n + c] = symbol.isDark(row: r, column: c) ? .square : .none
                    }
                }
            }
        }
        let finderCentres = [(3, 3), (3, n - 4), (n - 4, 3)]
        let positions = alignmentPositions(modules: n)
        for row in positions {
            for column in positions where !(row == 6 && column == 6) && !(row == 6 && column == n - 7) && !(row == n - 7 && column == 6) {
                mark(row: row, column: column, size: 5, as: .alignment, rounded: roundedMarkers >= 2)
            }
        }
        for (row, column) in finderCentres { mark(row: row, column: column, size: 7, as: .finder, rounded: roundedMarkers >= 1) }
        var centreSide = Int((centreFraction * Double(n)).rounded(.down))
        if centreSide % 2 != n % 2 { centreSide -= 1 }
        if centreSide > 0 {
            let start = (n - centreSide) / 2
            for row in start..<(start + centreSide) {
                for column in start..<(start + centreSide) { shapes[row * n + column] = .square }
            }
        }
        var texels = [Float](repeating: 0, count: side * side * 4)
        for row in 0..<n {
            for column in 0..<n {
                let texel = ((row + 1) * side + column + 1) * 4
                texels[texel] = shapes[row * n + column].rawValue
                (texels[texel + 1], texels[texel + 2]) = centres[row * n + column]
            }
        }
        let bytes = texels.withUnsafeBytes { Array($0) }
        return Image(buffer: try ImageBuffer(width: side, height: side, format: .rgbaf, alphaMode: .premultiplied, colorSpace: nil, bytes: bytes))
    }

    static let kernel = CatalogueKernel("""
        float roundedSquareDistance(vec2 q, float halfSide, float radius) {
            vec2 e = abs(q) - (halfSide - radius);
            return length(max(e, 0.0)) + min(max(e.x, e.y), 0.0) - radius;
        }
        float coverage(float d, float scale) {
            return clamp(0.5 - d * scale, 0.0, 1.0);
        }
        kernel vec4 CIRoundedQRCodeGenerator(sampler color0, sampler color1, sampler modules, float scale) {
            vec2 p = destCoord() / scale;
            vec2 cell = floor(p);
            vec4 m = sample(modules, cell + 0.5);
            vec2 q = p - m.gb;
            float c = 0.0;
            if (m.r == 1.0) {
                c = 1.0;
            } else if (m.r == 2.0) {
                c = coverage(length(p - cell - 0.5) - 0.5, scale);
            } else if (m.r == 3.0) {
                c = coverage(roundedSquareDistance(q, 3.5, 2.0), scale) - coverage(roundedSquareDistance(q, 2.5, 1.0), scale)
                    + coverage(roundedSquareDistance(q, 1.5, 1.0), scale);
            } else if (m.r == 4.0) {
                c = coverage(roundedSquareDistance(q, 2.5, 1.5), scale) - coverage(roundedSquareDistance(q, 1.5, 0.5), scale)
                    + coverage(length(q) - 0.5, scale);
            }
            return mix(sample(color0, destCoord()), sample(color1, destCoord()), c);
        }
        """)
}
