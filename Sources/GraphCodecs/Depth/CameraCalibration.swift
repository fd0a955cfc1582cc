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

    /// Hashes every field.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(intrinsicMatrix)
        hasher.combine(referenceWidth)
        hasher.combine(referenceHeight)
        hasher.combine(extrinsicMatrix)
    }
}
