/// A barcode to draw, the value of CIBarcodeGenerator's `inputBarcodeDescriptor`: Core Image's
/// `CIQRCodeDescriptor`, `CIAztecCodeDescriptor`, `CIPDF417CodeDescriptor` and
/// `CIDataMatrixCodeDescriptor` with their size and shape fields, each carrying the message
/// instead of Core Image's `errorCorrectedPayload`: libzint encodes (and error-corrects) a
/// message, so the codewords a Core Image descriptor carries cannot be drawn as they are. A
/// field left nil is libzint's automatic choice.
///
/// Recipes write it as a JSON object: `{"symbology": "QR", "message": "…", "symbolVersion": 2,
/// "maskPattern": 3, "errorCorrectionLevel": "M"}`, `{"symbology": "Aztec", "message": "…",
/// "isCompact": true, "layerCount": 2}`, `{"symbology": "PDF417", "message": "…", "isCompact":
/// false, "rowCount": 10, "columnCount": 3}`, `{"symbology": "DataMatrix", "message": "…",
/// "rowCount": 16, "columnCount": 16}`.
public enum BarcodeDescriptor: Sendable, Hashable {
    /// A QR code: version 1–40, mask pattern 0–7, correction level L, M, Q or H.
    case qrCode(message: String, symbolVersion: Int?, maskPattern: Int?, errorCorrectionLevel: String)
    /// An Aztec code: compact (1–4 layers) or full range (1–32 layers).
    case aztec(message: String, isCompact: Bool?, layerCount: Int?)
    /// A PDF417 code (compact: truncated PDF417) of 3–90 rows and 1–30 data columns.
    case pdf417(message: String, isCompact: Bool, rowCount: Int?, columnCount: Int?)
    /// An ECC 200 Data Matrix of one of the standard's sizes (rows × columns, 10 × 10 to 144 × 144
    /// square, 8 × 18 to 16 × 48 rectangular).
    case dataMatrix(message: String, rowCount: Int?, columnCount: Int?)

    /// The symbology's name in the JSON form (`QR`, `Aztec`, `PDF417`, `DataMatrix`).
    public var symbology: String {
        switch self {
        case .qrCode: "QR"
        case .aztec: "Aztec"
        case .pdf417: "PDF417"
        case .dataMatrix: "DataMatrix"
        }
    }

    /// The message to encode (its UTF-8 bytes).
    public var message: String {
        switch self {
        case .qrCode(let message, _, _, _), .aztec(let message, _, _), .pdf417(let message, _, _, _), .dataMatrix(let message, _, _):
            message
        }
    }
}
