import GraphCodecs
import GraphEngine
import GraphRecipes

/// A photo's depth data as JSON for `ge_depth_data_json` (the Python `DepthPhoto.depth_data`).
enum DepthDataJSON {
    /// Kind, size, accuracy, stored range, flags, source and calibration (null when absent).
    static func json(_ depth: DepthData) -> JSON {
        func optional<T>(_ value: T?, _ make: (T) -> JSON) -> JSON { value.map(make) ?? .null }
        let extent = depth.map.extent
        return .object([
            ("kind", .string(depth.kind.rawValue)),
            ("width", .number(extent.width)), ("height", .number(extent.height)),
            ("accuracy", optional(depth.accuracy) { .string($0.rawValue) }),
            ("storedKind", optional(depth.storedKind) { .string($0.rawValue) }),
            ("storedRange", optional(depth.storedRange) { .array([.number($0.lowerBound), .number($0.upperBound)]) }),
            ("filtered", optional(depth.isFiltered) { .bool($0) }),
            ("quality", optional(depth.quality) { .string($0) }),
            ("version", optional(depth.version) { .number(Double($0)) }),
            ("sourceFormat", optional(depth.sourceFormat) { .string($0.rawValue) }),
            ("orientation", .number(Double(depth.orientation))),
            ("calibration", optional(depth.calibration, json)),
        ])
    }

    /// The camera calibration: intrinsics, reference size, extrinsics, pixel size and distortion.
    static func json(_ calibration: CameraCalibration) -> JSON {
        func numbers(_ values: [Double]) -> JSON { .array(values.map { .number($0) }) }
        return .object([
            ("intrinsicMatrix", numbers(calibration.intrinsicMatrix)),
            ("referenceWidth", .number(calibration.referenceWidth)), ("referenceHeight", .number(calibration.referenceHeight)),
            ("extrinsicMatrix", numbers(calibration.extrinsicMatrix)),
            ("pixelSize", calibration.pixelSize.map { .number($0) } ?? .null),
            ("lensDistortionCenter", calibration.lensDistortionCenter.map { numbers([$0.x, $0.y]) } ?? .null),
            ("lensDistortionCoefficients", numbers(calibration.lensDistortionCoefficients)),
            ("inverseLensDistortionCoefficients", numbers(calibration.inverseLensDistortionCoefficients)),
        ])
    }
}
