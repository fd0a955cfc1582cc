import Foundation
import GraphEngine
import Kernels

/// What a `ge_params *` points at: filter inputs by key, filled by the `ge_params_set_*` functions.
final class ParameterSet {
    var values: [String: FilterValue] = [:]
}

/// Sets `key` of `params` to `value`, checking both pointers.
private func setting(_ params: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ error: StringOut,
                     _ value: () throws -> FilterValue) -> Int32 {
    catching(error) {
        let set = try Handles.object(params, as: ParameterSet.self, "params")
        set.values[try string(key, "key")] = try value()
    }
}

/// `count` doubles from `values` (NULL only when `count` is 0).
private func doubles(_ values: UnsafePointer<Double>?, _ count: Int64) throws -> [Double] {
    guard count >= 0, count <= 1 << 20 else { throw BoundaryError("vector length \(count) must be 0...1048576") }
    guard count == 0 || values != nil else { throw BoundaryError("values is NULL") }
    return (0..<Int(count)).map { values![$0] }
}

/// A new, empty parameter set; free it with `ge_params_free`.
@_cdecl("ge_params_new")
public func ge_params_new() -> OpaquePointer {
    Handles.retain(ParameterSet())
}

/// Frees a parameter set (images set in it stay valid: the set held its own references); NULL is ignored.
@_cdecl("ge_params_free")
public func ge_params_free(_ params: OpaquePointer?) {
    Handles.release(params)
}

/// Sets a number input (`inputRadius`).
@_cdecl("ge_params_set_number")
public func ge_params_set_number(_ params: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: Double,
                                 _ error: StringOut) -> Int32 {
    setting(params, key, error) { .number(value) }
}

/// Sets a vector input (`CIVector`: `inputCenter`, `inputRVector`) to `count` numbers.
@_cdecl("ge_params_set_vector")
public func ge_params_set_vector(_ params: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ values: UnsafePointer<Double>?,
                                 _ count: Int64, _ error: StringOut) -> Int32 {
    setting(params, key, error) { .vector(try doubles(values, count)) }
}

/// Sets a colour input to `count` (3 or 4) unpremultiplied components in `color_space` (NULL: sRGB).
@_cdecl("ge_params_set_color")
public func ge_params_set_color(_ params: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ values: UnsafePointer<Double>?,
                                _ count: Int64, _ colorSpace: UnsafePointer<CChar>?, _ error: StringOut) -> Int32 {
    setting(params, key, error) {
        let components = try doubles(values, count)
        guard components.count == 3 || components.count == 4 else {
            throw BoundaryError("a colour has 3 or 4 components, got \(components.count)")
        }
        let name = optionalString(colorSpace) ?? "sRGB"
        guard let space = try ColorSpaceNames.source(name) else {
            throw BoundaryError("a colour needs a colour space, not \"data\"")
        }
        return .color(components, colorSpace: space)
    }
}

/// Sets an image input (`inputBackgroundImage`, `inputMaskImage`); the set keeps its own reference.
@_cdecl("ge_params_set_image")
public func ge_params_set_image(_ params: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ image: OpaquePointer?,
                                _ error: StringOut) -> Int32 {
    setting(params, key, error) { .image(try Handles.image(image)) }
}

/// Sets a rectangle input (`inputRectangle`, `inputFocusRect`): x, y, width, height.
@_cdecl("ge_params_set_rect")
public func ge_params_set_rect(_ params: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ x: Double, _ y: Double,
                               _ width: Double, _ height: Double, _ error: StringOut) -> Int32 {
    setting(params, key, error) {
        guard ![x, y, width, height].contains(where: \.isNaN) else { throw BoundaryError("rectangle [\(x) \(y) \(width) \(height)] has a NaN") }
        return .rect(Rect(x: x, y: y, width: width, height: height))
    }
}

/// Sets an affine transform input (`inputTransform`): a, b, c, d, tx, ty.
@_cdecl("ge_params_set_transform")
public func ge_params_set_transform(_ params: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ matrix: UnsafePointer<Double>?,
                                    _ error: StringOut) -> Int32 {
    setting(params, key, error) {
        let m = try doubles(matrix, 6)
        return .transform(AffineTransform(a: m[0], b: m[1], c: m[2], d: m[3], tx: m[4], ty: m[5]))
    }
}

/// Sets a boolean input (`inputExtrapolate`); any non-zero `value` is true.
@_cdecl("ge_params_set_bool")
public func ge_params_set_bool(_ params: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: Int32,
                               _ error: StringOut) -> Int32 {
    setting(params, key, error) { .bool(value != 0) }
}

/// Sets a string input (a colour space name for a colour-space input).
@_cdecl("ge_params_set_string")
public func ge_params_set_string(_ params: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?,
                                 _ error: StringOut) -> Int32 {
    setting(params, key, error) { .string(try string(value, "value")) }
}

/// Sets a data input (`inputCubeData`: float32 RGBA texels) to a copy of `count` bytes.
@_cdecl("ge_params_set_data")
public func ge_params_set_data(_ params: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ bytes: UnsafeRawPointer?,
                               _ count: Int64, _ error: StringOut) -> Int32 {
    setting(params, key, error) {
        guard count >= 0, count <= Int64(ImageBuffer.maximumByteCount) else { throw BoundaryError("data size \(count) is out of range") }
        guard count == 0 || bytes != nil else { throw BoundaryError("bytes is NULL") }
        return .data(count == 0 ? Data() : Data(bytes: bytes!, count: Int(count)))
    }
}
