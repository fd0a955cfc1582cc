/// The camera calibration stored with an iPhone depth map (AVCameraCalibrationData), as Apple's
/// `depthData:` XMP writes it. Every matrix keeps the file's order: column-major.
public struct CameraCalibration: Sendable, Equatable, Hashable {
    /// The 3×3 intrinsic matrix, column-major: `[fx, 0, 0, 0, fy, 0, cx, cy, 1]`, in pixels of
    /// ``referenceWidth`` × ``referenceHeight`` (the main image's stored size).
    public var intrinsicMatrix: [Double]
    /// Width of the image the intrinsics refer to, in pixels.
    public var referenceWidth: Double
    /// Height of the image the intrinsics refer to, in pixels.
    public var referenceHeight: Double
    /// The 3×4 extrinsic matrix (rotation, then translation column), column-major; empty when absent.
    public var extrinsicMatrix: [Double]
    /// Sensor pixel size in millimetres.
    public var pixelSize: Double?
    /// Centre of the lens distortion, in pixels of the reference size.
    public var lensDistortionCenter: (x: Double, y: Double)?
    /// Radial distortion look-up polynomial and its inverse (Apple stores 8 coefficients each).
    public var lensDistortionCoefficients: [Double]
    /// The inverse of ``lensDistortionCoefficients`` (distorted to undistorted).
    public var inverseLensDistortionCoefficients: [Double]

    /// A calibration from its matrices and coefficients (Apple's AVCameraCalibrationData fields).
    public init(intrinsicMatrix: [Double], referenceWidth: Double, referenceHeight: Double, extrinsicMatrix: [Double] = [],
                pixelSize: Double? = nil, lensDistortionCenter: (x: Double, y: Double)? = nil,
                lensDistortionCoefficients: [Double] = [], inverseLensDistortionCoefficients: [Double] = []) {
        self.intrinsicMatrix = intrinsicMatrix
        self.referenceWidth = referenceWidth
        self.referenceHeight = referenceHeight
        self.extrinsicMatrix = extrinsicMatrix
        self.pixelSize = pixelSize
        self.lensDistortionCenter = lensDistortionCenter
        self.lensDistortionCoefficients = lensDistortionCoefficients
        self.inverseLensDistortionCoefficients = inverseLensDistortionCoefficients
    }

    /// Equal when every field is.
    public static func == (a: CameraCalibration, b: CameraCalibration) -> Bool {
        a.intrinsicMatrix == b.intrinsicMatrix && a.referenceWidth == b.referenceWidth
            && a.referenceHeight == b.referenceHeight && a.extrinsicMatrix == b.extrinsicMatrix
            && a.pixelSize == b.pixelSize && a.lensDistortionCenter?.x == b.lensDistortionCenter?.x
            && a.lensDistortionCenter?.y == b.lensDistortionCenter?.y
            && a.lensDistortionCoefficients == b.lensDistortionCoefficients
            && a.inverseLensDistortionCoefficients == b.inverseLensDistortionCoefficients
    }

    /// The calibration of the image turned by EXIF `orientation` (1...8, as a viewer shows it):
    /// ``mapped(by:width:height:)`` with ``PixelGridMap/orientation(_:width:height:)`` (6, a
    /// quarter turn clockwise: a stored point `(x, y)` of the `W`×`H` reference image moves to
    /// `(H − y, x)`), the reference size swapped with the axes. Apple does the same when it bakes
    /// a rotation into an iPhone X's upright file (its intrinsics refer to 3024×4032 and its
    /// extrinsics hold a quarter turn); which way Apple's extrinsics point (world to camera or
    /// back) is not documented.
    public func oriented(_ orientation: Int) -> CameraCalibration {
        let map = PixelGridMap.orientation(orientation, width: referenceWidth, height: referenceHeight)
        let (w, h) = map.swapsAxes ? (referenceHeight, referenceWidth) : (referenceWidth, referenceHeight)
        return mapped(by: map, width: w, height: h) ?? self
    }

    /// The calibration of the image whose pixels are this reference image's moved by `map` (a
    /// crop, scale, flip or quarter turn), `width`×`height` pixels: the principal point and the
    /// distortion centre move with the map (a crop at x0 gives cx − x0; a scale by s gives cx·s,
    /// the convention of ``PixelGridMap``), the focal lengths scale (and swap with the axes), the
    /// pixel size divides by the scale (so the distortion polynomial, a function of
    /// `PixelSize · r`, describes the same lens), and the camera frame turns with the image:
    /// `R' = M·R`, `t' = M·t` for the extrinsics, `M` the signs of the map acting on the camera's
    /// X and Y (a flip keeps the focal lengths positive and mirrors the camera frame). The radial
    /// distortion coefficients are unchanged. Nil when the map scales x and y differently while
    /// the calibration has a pixel size or distortion coefficients (a radial model with one pixel
    /// size cannot follow that).
    public func mapped(by map: PixelGridMap, width: Double, height: Double) -> CameraCalibration? {
        let scales = map.sourceScales
        let hasRadialModel = pixelSize != nil || !lensDistortionCoefficients.isEmpty || !inverseLensDistortionCoefficients.isEmpty
        if hasRadialModel, abs(scales.x - scales.y) > DynamicDepthMetadata.ImagingModel.framingTolerance * max(scales.x, scales.y) {
            return nil
        }
        var moved = self
        if intrinsicMatrix.count == 9 {
            let (fx, fy) = (intrinsicMatrix[0], intrinsicMatrix[4])
            let centre = map.apply(intrinsicMatrix[6], intrinsicMatrix[7])
            let (fxMoved, fyMoved) = map.swapsAxes ? (fy * scales.y, fx * scales.x) : (fx * scales.x, fy * scales.y)
            moved.intrinsicMatrix = [fxMoved, 0, 0, 0, fyMoved, 0, centre.x, centre.y, intrinsicMatrix[8]]
        }
        (moved.referenceWidth, moved.referenceHeight) = (width, height)
        if let centre = lensDistortionCenter { moved.lensDistortionCenter = map.apply(centre.x, centre.y) }
        if let pixelSize { moved.pixelSize = pixelSize / scales.x }
        if extrinsicMatrix.count == 12 {
            // Column-major 3×4: element (row r, column k) at 3·k + r. Rows X and Y mix by M.
            func sign(_ v: Double) -> Double { v > 0 ? 1 : v < 0 ? -1 : 0 }
            let (a, b, c, d) = (sign(map.a), sign(map.b), sign(map.c), sign(map.d))
            var e = extrinsicMatrix
            for k in 0..<4 {
                let (x, y) = (extrinsicMatrix[3 * k], extrinsicMatrix[3 * k + 1])
                e[3 * k] = a * x + b * y
                e[3 * k + 1] = c * x + d * y
            }
            moved.extrinsicMatrix = e
        }
        return moved
    }

    /// Hashes every field.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(intrinsicMatrix)
        hasher.combine(referenceWidth)
        hasher.combine(referenceHeight)
        hasher.combine(extrinsicMatrix)
    }
}
