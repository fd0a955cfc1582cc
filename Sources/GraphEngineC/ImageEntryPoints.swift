import Foundation
import GraphEngine
import Kernels

/// The C type of a release callback (`ge_release_fn`): gives borrowed memory back to its owner.
public typealias ReleaseCallback = @convention(c) (UnsafeMutableRawPointer?) -> Void

/// A release callback and its argument, called once from whichever thread frees the buffer.
private struct PendingRelease: @unchecked Sendable {
    let callback: ReleaseCallback
    let user: UnsafeMutableRawPointer?
    func callAsFunction() { callback(user) }
}

/// Opens a PNG, JPEG or HEIF file lazily (EXIF orientation applied). `color_space`: NULL for the
/// file's own profile, `"data"` to read the values unconverted (masks, maps), or a space to assume.
@_cdecl("ge_image_open")
public func ge_image_open(_ path: UnsafePointer<CChar>?, _ colorSpace: UnsafePointer<CChar>?,
                          _ out: UnsafeMutablePointer<OpaquePointer?>?, _ error: StringOut) -> Int32 {
    catching(error) {
        let path = try string(path, "path")
        var options = ImageReadOptions()
        if let name = optionalString(colorSpace) {
            options.color = try ColorSpaceNames.source(name).map { .assume($0) } ?? .data
        }
        try Handles.deliver(Image(contentsOf: path, options: options), to: out)
    }
}

/// An image of caller memory: `height` rows of `width` pixels, `row_bytes` apart (top row first),
/// `channels` (1 grey, 2 grey+alpha, 3 RGB, 4 RGBA) samples of `sample_type` each, in native byte
/// order. With `release` NULL the pixels are copied now; otherwise they are read in place and
/// `release(user)` is called once when the engine no longer needs them (on any thread). On failure
/// nothing is kept and `release` is not called. 2-channel float32 memory is not supported.
@_cdecl("ge_image_from_memory")
public func ge_image_from_memory(_ data: UnsafeRawPointer?, _ width: Int64, _ height: Int64, _ rowBytes: Int64,
                                 _ channels: Int32, _ sampleType: Int32, _ alphaMode: Int32,
                                 _ colorSpace: UnsafePointer<CChar>?, _ release: ReleaseCallback?,
                                 _ user: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?,
                                 _ error: StringOut) -> Int32 {
    catching(error) {
        guard let data else { throw BoundaryError("data is NULL") }
        guard out != nil else { throw BoundaryError("the out pointer for the image is NULL") }  // before release could be called
        let type = try SampleType(code: sampleType)
        let alpha = try MemoryLayout.alphaMode(alphaMode)
        let space = try optionalString(colorSpace).map(ColorSpaceNames.source) ?? .sRGB
        let width = Int(width), height = Int(height), rowBytes = Int(rowBytes), channels = Int(channels)
        guard width > 0, height > 0 else { throw BoundaryError("size \(width)x\(height) must be positive") }
        guard (1...4).contains(channels) else { throw BoundaryError("\(channels) channels: expected 1, 2, 3 or 4") }
        let packed = width.multipliedReportingOverflow(by: channels * type.byteCount)
        guard !packed.overflow, rowBytes >= packed.partialValue else {
            throw BoundaryError("row_bytes \(rowBytes) is smaller than a row of \(width) pixels of \(channels) \(type.name) samples")
        }
        let buffer: ImageBuffer
        if let format = MemoryLayout.format(channels: channels, type: type) {
            if let release {
                let pending = PendingRelease(callback: release, user: user)
                buffer = try ImageBuffer(borrowing: data, width: width, height: height, rowBytes: rowBytes, format: format,
                                         alphaMode: alpha, colorSpace: space, release: { pending() })
            } else {
                buffer = try ImageBuffer(width: width, height: height, format: format, alphaMode: alpha, colorSpace: space,
                                         zeroed: false) { target, targetRowBytes in
                    let source = SendableAddress(UnsafeMutableRawPointer(mutating: data)), destination = SendableAddress(target)
                    RowCopy.rows(height) { row in
                        (destination.pointer + row * targetRowBytes).copyMemory(from: source.pointer + row * rowBytes,
                                                                                byteCount: packed.partialValue)
                    }
                }
            }
        } else {
            throw BoundaryError("\(channels) channels of float32 samples are not supported: use 1, 3 or 4")
        }
        try Handles.deliver(Image(buffer: buffer), to: out)
    }
}

/// The image's extent in `extent` (x, y, width, height; Core Image coordinates, origin lower left;
/// infinite extents have infinite width and height).
@_cdecl("ge_image_extent")
public func ge_image_extent(_ image: OpaquePointer?, _ extent: UnsafeMutablePointer<Double>?, _ error: StringOut) -> Int32 {
    catching(error) {
        let rect = try Handles.image(image).extent
        guard let extent else { throw BoundaryError("extent is NULL") }
        if rect.isInfinite {
            extent[0] = -.infinity; extent[1] = -.infinity; extent[2] = .infinity; extent[3] = .infinity
        } else {
            extent[0] = rect.minX; extent[1] = rect.minY; extent[2] = rect.width; extent[3] = rect.height
        }
    }
}

/// The image cropped to the rectangle x, y, width, height (Core Image coordinates).
@_cdecl("ge_image_crop")
public func ge_image_crop(_ image: OpaquePointer?, _ x: Double, _ y: Double, _ width: Double, _ height: Double,
                          _ out: UnsafeMutablePointer<OpaquePointer?>?, _ error: StringOut) -> Int32 {
    catching(error) {
        guard x.isFinite, y.isFinite, width.isFinite, height.isFinite, width >= 0, height >= 0 else {
            throw BoundaryError("crop rectangle [\(x) \(y) \(width) \(height)] must be finite with a non-negative size")
        }
        try Handles.deliver(Handles.image(image).cropped(to: Rect(x: x, y: y, width: width, height: height)), to: out)
    }
}

/// The image with its edge pixels extended to infinity (`clampedToExtent`).
@_cdecl("ge_image_clamped")
public func ge_image_clamped(_ image: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?, _ error: StringOut) -> Int32 {
    catching(error) {
        try Handles.deliver(Handles.image(image).clampedToExtent(), to: out)
    }
}

/// The image moved by the affine transform `matrix` (a, b, c, d, tx, ty: x' = a·x + c·y + tx,
/// y' = b·x + d·y + ty), sampled bilinearly.
@_cdecl("ge_image_transformed")
public func ge_image_transformed(_ image: OpaquePointer?, _ matrix: UnsafePointer<Double>?,
                                 _ out: UnsafeMutablePointer<OpaquePointer?>?, _ error: StringOut) -> Int32 {
    catching(error) {
        guard let matrix else { throw BoundaryError("matrix is NULL") }
        let values = (0..<6).map { matrix[$0] }
        guard values.allSatisfy(\.isFinite) else { throw BoundaryError("transform \(values) must be finite") }
        let transform = AffineTransform(a: values[0], b: values[1], c: values[2], d: values[3], tx: values[4], ty: values[5])
        try Handles.deliver(Handles.image(image).transformed(by: transform), to: out)
    }
}

/// The name of the colour space the image's sources share (`"sRGB"`, `"displayP3"`, ...), `"data"`
/// when it reads only data (maps, masks) and `"mixed"` when its sources differ; freed with `ge_string_free`.
@_cdecl("ge_image_color_space")
public func ge_image_color_space(_ image: OpaquePointer?, _ name: StringOut, _ error: StringOut) -> Int32 {
    catching(error) {
        let spaces = try Handles.image(image).sourceColorSpaces
        switch spaces.count {
        case 0: deliver("data", to: name)
        case 1: deliver(spaces.first.map { NamedColorSpaces.name(of: $0) ?? $0.name } ?? "data", to: name)
        default: deliver("mixed", to: name)
        }
    }
}
