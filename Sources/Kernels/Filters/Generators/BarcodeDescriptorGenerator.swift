import GraphEngine

/// CIBarcodeGenerator: the barcode a ``BarcodeDescriptor`` describes, encoded by libzint and drawn
/// as the symbology's own generator draws it (``BarcodeGenerators``): one pixel per module (PDF417
/// rows 3 pixels tall), dark modules black and light ones white, opaque, with a one-module white
/// border (ours), extent from `(0, 0)`.
///
/// Where it differs from Core Image: Core Image draws a descriptor's `errorCorrectedPayload`, the
/// symbol's codewords as they are; libzint encodes a message, so the descriptor carries the message
/// and libzint makes the codewords (the same symbol for the same message, version, mask and level).
/// Honoured: QR `symbolVersion` (1–40), `maskPattern` (0–7) and `errorCorrectionLevel`; Aztec
/// `isCompact` and `layerCount` (1–4 compact, 1–32 full range); PDF417 `isCompact` (truncated
/// PDF417), `rowCount` (3–90) and `columnCount` (data columns, 1–30); Data Matrix (ECC 200 only)
/// `rowCount` × `columnCount`, one of the standard's sizes. A field not given is libzint's choice.
enum BarcodeDescriptorGenerator {
    static let filter = FilterDescriptor(
        name: "CIBarcodeGenerator", categories: ["CICategoryGenerator", "CICategoryVideo", "CICategoryStillImage"],
        summary: "The barcode a descriptor describes (QR, Aztec, PDF417 or Data Matrix; libzint, from the descriptor's message), one pixel per "
            + "module, black on white, with a one-module border; extent from (0, 0).",
        inputs: [FilterInput("inputBarcodeDescriptor", .barcodeDescriptor,
                             "The barcode: {\"symbology\": \"QR\", \"message\": \"…\"} and the symbology's size fields.")]
    ) { args in
        let descriptor = try args.barcodeDescriptor("inputBarcodeDescriptor")
        func fail(_ reason: String) -> GraphError {
            GraphError.invalidParameter(filter: args.filter, key: "inputBarcodeDescriptor", reason: reason)
        }
        func check(_ value: Int?, _ field: String, _ range: ClosedRange<Int>) throws {
            if let value, !range.contains(value) { throw fail("\(field) must be \(range.lowerBound) to \(range.upperBound), got \(value)") }
        }
        let message = Array(descriptor.message.utf8)
        guard !message.isEmpty else { throw fail("the message is empty") }
        func encode(_ symbology: ZintSymbol.Symbology, _ option1: Int32, _ option2: Int32, _ option3: Int32) throws -> ZintSymbol {
            do {
                return try ZintSymbol.encode(message, as: symbology, option1: option1, option2: option2, option3: option3)
            } catch let failure as ZintSymbol.EncodingFailure {
                throw fail(failure.reason)
            }
        }
        switch descriptor {
        case .qrCode(_, let version, let mask, let level):
            try check(version, "symbolVersion", 1...40)
            try check(mask, "maskPattern", 0...7)
            let levels = ["L": Int32(1), "M": 2, "Q": 3, "H": 4]
            guard let levelNumber = levels[level] else { throw fail("errorCorrectionLevel must be L, M, Q or H, got \"\(level)\"") }
            // libzint: option_2 the version (0 automatic), option_3 the mask + 1 in its second byte.
            let symbol = try encode(.qrCode, levelNumber, Int32(version ?? 0), mask.map { Int32($0 + 1) << 8 } ?? 0)
            return try BarcodeGenerators.image(of: symbol, border: 1)
        case .aztec(_, let compact, let layers):
            try check(layers, "layerCount", compact == true ? 1...4 : 1...32)
            // libzint's sizes: 1–4 compact with that many layers, 5–36 full range with size − 4 layers.
            let sizes: [Int32] = switch (layers, compact) {
            case (nil, nil): [0]
            case (nil, true?): Array(1...4)
            case (nil, false?): Array(5...36)
            case (let n?, let c): [c == true ? Int32(n) : Int32(n + 4)]
            }
            var failure: GraphError?
            for size in sizes {
                do { return try BarcodeGenerators.image(of: try encode(.aztec, -1, size, 0), border: 1) } catch let error as GraphError { failure = error }
            }
            throw failure ?? fail("no Aztec size holds the message")
        case .pdf417(_, let compact, let rows, let columns):
            try check(rows, "rowCount", 3...90)
            try check(columns, "columnCount", 1...30)
            let symbol = try encode(compact ? .compactPDF417 : .pdf417, -1, Int32(columns ?? 0), Int32(rows ?? 0))
            return try BarcodeGenerators.image(of: symbol, moduleHeight: 3, border: 1)
        case .dataMatrix(_, let rows, let columns):
            var size: Int32 = 0
            switch (rows, columns) {
            case (nil, nil): break
            case (let r?, let c?):
                guard let index = dataMatrixSizes.firstIndex(where: { $0 == (r, c) }) else {
                    throw fail("\(r) × \(c) is not an ECC 200 Data Matrix size; rows × columns are "
                               + dataMatrixSizes.map { "\($0.0)×\($0.1)" }.joined(separator: ", "))
                }
                size = Int32(index + 1)
            default: throw fail("a Data Matrix size needs both rowCount and columnCount")
            }
            return try BarcodeGenerators.image(of: try encode(.dataMatrix, -1, size, 0), border: 1)
        }
    }

    /// ECC 200 Data Matrix sizes (rows, columns) in libzint's `option_2` order (1-based): the 24
    /// square ones, then the 6 rectangles (ISO/IEC 16022 table 7).
    static let dataMatrixSizes: [(Int, Int)] = [10, 12, 14, 16, 18, 20, 22, 24, 26, 32, 36, 40, 44, 48, 52, 64, 72, 80, 88, 96, 104, 120, 132, 144]
        .map { ($0, $0) } + [(8, 18), (8, 32), (12, 26), (12, 36), (16, 36), (16, 48)]
}
