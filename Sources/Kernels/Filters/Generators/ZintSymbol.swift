import CZint

/// A barcode symbol encoded by libzint (Debian's libzint-dev, 2.11): its modules, row by row, top
/// row first, `true` for a dark module. The only Swift file that calls libzint (through the
/// accessors of `Sources/CZint/shim.h`).
struct ZintSymbol {
    /// The symbology, as libzint numbers it (`BARCODE_QRCODE`, `BARCODE_AZTEC`, …).
    struct Symbology {
        let code: Int32
        static let qrCode = Symbology(code: BARCODE_QRCODE)
        static let aztec = Symbology(code: BARCODE_AZTEC)
        static let pdf417 = Symbology(code: BARCODE_PDF417)
        static let compactPDF417 = Symbology(code: BARCODE_PDF417COMP)
        static let code128 = Symbology(code: BARCODE_CODE128)
        static let dataMatrix = Symbology(code: BARCODE_DATAMATRIX)
    }

    /// Symbol rows (the rows of a stacked code such as PDF417; 1 for Code 128).
    let rows: Int
    /// Modules per row.
    let width: Int
    /// `rows × width` modules, row-major, top row first.
    let modules: [Bool]

    /// Whether the module at `row`, `column` is dark.
    func isDark(row: Int, column: Int) -> Bool { modules[row * width + column] }

    /// Encodes `message` (bytes as they are: libzint's `DATA_MODE`, no ECI) with libzint's
    /// symbology options `option1`–`option3` (their meaning per symbology is in libzint's manual;
    /// 0 or −1 is libzint's automatic choice). Throws `reason` text from libzint (message too long
    /// for the options, characters the symbology cannot hold) for the caller to name its filter and key.
    static func encode(_ message: [UInt8], as symbology: Symbology, option1: Int32 = -1, option2: Int32 = 0,
                       option3: Int32 = 0) throws -> ZintSymbol {
        var status: Int32 = 0
        let created = message.withUnsafeBufferPointer {
            czint_encode(symbology.code, option1, option2, option3, $0.baseAddress, Int32($0.count), &status)
        }
        guard let symbol = created else { throw EncodingFailure(reason: "libzint could not allocate a symbol") }
        defer { ZBarcode_Delete(symbol) }
        if status >= ZINT_ERROR {
            throw EncodingFailure(reason: "libzint: " + String(cString: czint_error_text(symbol)))
        }
        let rows = Int(czint_rows(symbol)), width = Int(czint_width(symbol))
        var modules = [Bool](repeating: false, count: rows * width)
        for row in 0..<rows {
            for column in 0..<width {
                modules[row * width + column] = czint_module_is_set(symbol, Int32(row), Int32(column)) != 0
            }
        }
        return ZintSymbol(rows: rows, width: width, modules: modules)
    }

    /// libzint's reason for refusing a message.
    struct EncodingFailure: Error {
        let reason: String
    }
}
