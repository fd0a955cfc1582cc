/// Options shared by the PNG and JPEG decoders.
public struct DecodeOptions: Sendable, Equatable {
    /// Largest accepted width × height. Checked from the header, before any pixel memory
    /// is allocated, so a hostile header cannot make the decoder allocate gigabytes.
    public var maxPixelCount: Int
    /// libjpeg scaled DCT decoding: 1, 2, 4 or 8 (output is ceil(size / n)). PNG ignores it.
    public var jpegScaleDenominator: Int
    /// Rotate/flip the pixels upright according to the EXIF orientation tag. Whole-image
    /// decoders only: `JPEGRowDecoder` (and `JPEGTranscoder`) deliver rows in file order and
    /// report the tag in `metadata.exifOrientation`, since rotating needs the whole image.
    public var applyOrientation: Bool
    /// Produce 4-channel RGBA (alpha 255 when the image has none) for colour and grey
    /// images, so the engine can read uniform 4-channel rows. 16-bit PNGs stay 16-bit.
    public var outputRGBA: Bool
    /// Hang protection for progressive JPEGs: more scans than this is an error.
    public var maxJPEGScans: Int

    /// Default limit: 256 M pixels.
    public static let defaultMaxPixelCount = 256 * 1024 * 1024

    /// Options with a pixel limit, a JPEG DCT scale (1, 2, 4 or 8), EXIF orientation applied or not, RGBA output and a limit on progressive JPEG scans.
    public init(
        maxPixelCount: Int = DecodeOptions.defaultMaxPixelCount, jpegScaleDenominator: Int = 1,
        applyOrientation: Bool = true, outputRGBA: Bool = false, maxJPEGScans: Int = 1000
    ) {
        self.maxPixelCount = maxPixelCount
        self.jpegScaleDenominator = jpegScaleDenominator
        self.applyOrientation = applyOrientation
        self.outputRGBA = outputRGBA
        self.maxJPEGScans = maxJPEGScans
    }

    /// Throws the size-limit error when width × height exceeds the limit.
    func checkSize(width: Int, height: Int, format: ImageFormat) throws(CodecError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > maxPixelCount {
            throw CodecError(
                .tooLarge,
                "image is \(width)x\(height) (\(overflow ? "overflow" : String(pixels)) pixels), above the limit of \(maxPixelCount) pixels; refused before allocating",
                format: format, segment: format == .png ? "IHDR" : format == .heif ? "ispe" : "SOF")
        }
    }
}
