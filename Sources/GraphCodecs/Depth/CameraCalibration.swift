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
    /// a stored point `(x, y)` of the `W`×`H` reference image moves to `A·(x, y) + b` (6, a
    /// quarter turn clockwise: `(H − y, x)`; pixel edges at integers), so the principal point and
    /// the distortion centre move that way, `fx`/`fy` and the reference size swap with the axes,
    /// and the camera frame turns with the image: `R' = M·R`, `t' = M·t` for the extrinsics, with
    /// `M` the signed permutation `A` acting on the camera's X and Y. The radial distortion tables
    /// are unchanged. Apple does the same when it bakes a rotation into an iPhone X's upright
    /// file (its intrinsics refer to 3024×4032 and its extrinsics hold a quarter turn); which
    /// way Apple's extrinsics point (world to camera or back) is not documented.
    public func oriented(_ orientation: Int) -> CameraCalibration {
        let (w, h) = (referenceWidth, referenceHeight)
        // (a, b, c, d, tx, ty): x' = a·x + b·y + tx, y' = c·x + d·y + ty.
        let map: (Double, Double, Double, Double, Double, Double)
        switch orientation {
        case 2: map = (-1, 0, 0, 1, w, 0)
        case 3: map = (-1, 0, 0, -1, w, h)
        case 4: map = (1, 0, 0, -1, 0, h)
        case 5: map = (0, 1, 1, 0, 0, 0)
        case 6: map = (0, -1, 1, 0, h, 0)
        case 7: map = (0, -1, -1, 0, h, w)
        case 8: map = (0, 1, -1, 0, 0, w)
        default: return self
        }
        let (a, b, c, d, tx, ty) = map
        func moved(_ x: Double, _ y: Double) -> (x: Double, y: Double) { (a * x + b * y + tx, c * x + d * y + ty) }
        var turned = self
        let swaps = orientation >= 5
        if intrinsicMatrix.count == 9 {
            let (fx, fy) = (intrinsicMatrix[0], intrinsicMatrix[4])
            let centre = moved(intrinsicMatrix[6], intrinsicMatrix[7])
            turned.intrinsicMatrix = [swaps ? fy : fx, 0, 0, 0, swaps ? fx : fy, 0, centre.x, centre.y, intrinsicMatrix[8]]
        }
        if swaps { (turned.referenceWidth, turned.referenceHeight) = (h, w) }
        if let centre = lensDistortionCenter { turned.lensDistortionCenter = moved(centre.x, centre.y) }
        if extrinsicMatrix.count == 12 {
            // Column-major 3×4: element (row r, column k) at 3·k + r. Rows X and Y mix by M.
            var e = extrinsicMatrix
            for k in 0..<4 {
                let (x, y) = (extrinsicMatrix[3 * k], extrinsicMatrix[3 * k + 1])
                e[3 * k] = a * x + b * y
                e[3 * k + 1] = c * x + d * y
            }
            turned.extrinsicMatrix = e
        }
        return turned
    }

    /// Hashes every field.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(intrinsicMatrix)
        hasher.combine(referenceWidth)
        hasher.combine(referenceHeight)
        hasher.combine(extrinsicMatrix)
    }
}
