import Foundation
import GraphCodecs

/// An 8-bit YCbCr 4:2:0 frame (camera and video frames), read natively: the engine converts it to
/// RGB inside the first program (a `load` of Y, Cb, Cr and one colour-matrix instruction), with no
/// RGBA copy of the frame.
///
/// Holding the caller's `[UInt8]` does not copy it (arrays are copy-on-write).
public final class YUVFrame: @unchecked Sendable {
    /// How the planes are laid out.
    public enum Layout: String, Sendable, Hashable, CaseIterable {
        /// NV12: a Y plane, then one plane of interleaved Cb, Cr pairs.
        case biPlanar = "nv12"
        /// I420: Y, then Cb, then Cr planes.
        case planar = "i420"
    }

    /// The YCbCr matrix (luma coefficients Kr, Kb).
    public enum Matrix: String, Sendable, Hashable, CaseIterable {
        /// ITU-R BT.601 (standard definition) or BT.709 (HD) YCbCr coefficients.
        case bt601, bt709
        package var coefficients: (kr: Double, kb: Double) { self == .bt601 ? (0.299, 0.114) : (0.2126, 0.0722) }
    }

    /// The range the samples use.
    public enum Range: String, Sendable, Hashable, CaseIterable {
        /// Y in 16...235, Cb/Cr in 16...240 ("limited", "TV").
        case video
        /// 0...255.
        case full
    }

    /// Where chroma samples sit relative to luma (vertically they are centred between rows in both).
    public enum ChromaSiting: String, Sendable, Hashable, CaseIterable {
        /// Horizontally co-sited with the left luma sample (MPEG-2, H.264, HEVC default).
        case left
        /// Centred between luma samples (JPEG, MPEG-1; 2×2 box-averaged chroma).
        case center
    }

    /// The frame's size in luma samples.
    public let width: Int, height: Int
    /// How the planes are laid out.
    public let layout: Layout
    /// The YCbCr-to-RGB matrix.
    public let matrix: Matrix
    /// Video (16-235) or full (0-255) range.
    public let range: Range
    /// Where chroma samples sit relative to luma.
    public let siting: ChromaSiting
    /// The colour space of the RGB the matrix produces (sRGB by default; nil for data).
    public let colorSpace: ColorSpace?
    package let bytes: [UInt8]
    package let lumaOffset: Int, lumaStride: Int
    package let chromaOffsets: (Int, Int), chromaStride: Int

    /// Chroma plane width: half the width, rounded up.
    public var chromaWidth: Int { (width + 1) / 2 }
    /// Chroma plane height: half the height, rounded up.
    public var chromaHeight: Int { (height + 1) / 2 }

    /// A frame in one byte array: Y plane, then the chroma plane(s), each row `stride` bytes apart
    /// (defaults: tightly packed). Checks every size before any pixel is read.
    public init(bytes: [UInt8], width: Int, height: Int, layout: Layout, matrix: Matrix = .bt709, range: Range = .video,
                siting: ChromaSiting = .left, colorSpace: ColorSpace? = .sRGB, lumaStride: Int? = nil,
                chromaStride: Int? = nil) throws(GraphError) {
        guard width > 0, height > 0, width <= 1 << 16, height <= 1 << 16 else {
            throw GraphError.invalidSize("YUV frame size \(width)x\(height) must be 1...65536 on each side")
        }
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        let yStride = lumaStride ?? width
        let cStride = chromaStride ?? (layout == .biPlanar ? chromaWidth * 2 : chromaWidth)
        let minimumChroma = layout == .biPlanar ? chromaWidth * 2 : chromaWidth
        guard yStride >= width, cStride >= minimumChroma else {
            throw GraphError.invalidSize("YUV strides \(yStride)/\(cStride) are smaller than the rows (\(width)/\(minimumChroma) bytes)")
        }
        let lumaBytes = yStride * height
        let chromaPlane = cStride * chromaHeight
        let needed = lumaBytes + (layout == .biPlanar ? chromaPlane : 2 * chromaPlane)
        guard bytes.count >= needed else {
            throw GraphError.invalidSize("YUV \(layout.rawValue) \(width)x\(height) needs \(needed) bytes, got \(bytes.count)")
        }
        self.bytes = bytes
        self.width = width
        self.height = height
        self.layout = layout
        self.matrix = matrix
        self.range = range
        self.siting = siting
        self.colorSpace = colorSpace
        self.lumaOffset = 0
        self.lumaStride = yStride
        self.chromaStride = cStride
        self.chromaOffsets = layout == .biPlanar ? (lumaBytes, lumaBytes + 1) : (lumaBytes, lumaBytes + chromaPlane)
    }

    /// Reads a raw frame file (tightly packed unless strides are given).
    public convenience init(contentsOfFile path: String, width: Int, height: Int, layout: Layout, matrix: Matrix = .bt709,
                            range: Range = .video, siting: ChromaSiting = .left, colorSpace: ColorSpace? = .sRGB) throws {
        let bytes: [UInt8]
        do {
            bytes = try ImageFile.read(path: path)
        } catch {
            throw GraphError.renderFailed("cannot read the YUV file '\(path)': \(error.message)")
        }
        try self.init(bytes: bytes, width: width, height: height, layout: layout, matrix: matrix, range: range,
                      siting: siting, colorSpace: colorSpace)
    }

    /// The 4×5 matrix taking normalised `(Y, Cb, Cr, 1)` (each byte / 255) to R'G'B'A:
    /// `R = Y' + 2(1−Kr)·Pr`, `G = Y' − 2Kb(1−Kb)/Kg·Pb − 2Kr(1−Kr)/Kg·Pr`, `B = Y' + 2(1−Kb)·Pb`, with
    /// `Y' = (255·Y − 16)/219`, `P = (255·C − 128)/224` for video range (`/255` and no 16 for full).
    public var rgbMatrix: ColorMatrix {
        let (kr, kb) = matrix.coefficients
        let kg = 1 - kr - kb
        let video = range == .video
        let sY: Double = video ? 255.0 / 219.0 : 1
        let oY: Double = video ? -16.0 / 219.0 : 0
        let sC: Double = video ? 255.0 / 224.0 : 1
        let oC: Double = video ? -128.0 / 224.0 : -128.0 / 255.0
        let rv = 2 * (1 - kr), bu = 2 * (1 - kb)
        let gu = 2 * kb * (1 - kb) / kg, gv = 2 * kr * (1 - kr) / kg
        return ColorMatrix(
            r: [sY, 0, rv * sC, 0], g: [sY, -gu * sC, -gv * sC, 0], b: [sY, bu * sC, 0, 0], a: [0, 0, 0, 1],
            bias: [oY + rv * oC, oY - (gu + gv) * oC, oY + bu * oC, 0],
            sourceName: "ycbcr_\(matrix.rawValue)_\(range.rawValue)")
    }

    package var label: String {
        "yuv420 \(layout.rawValue) \(width)x\(height) \(matrix.rawValue) \(range.rawValue) chroma=\(siting.rawValue) "
            + (colorSpace.map { "\"\($0.name)\"" } ?? "data")
    }
}
