import Foundation
import GraphEngine

/// What a `ge_image *` points at: a retained box holding an immutable image.
final class ImageHandle {
    let image: Image
    init(_ image: Image) { self.image = image }
}

/// A retained box behind an opaque C pointer, and back.
enum Handles {
    /// `object` retained, as the opaque pointer the caller holds until it frees it.
    static func retain(_ object: AnyObject) -> OpaquePointer {
        OpaquePointer(Unmanaged.passRetained(object).toOpaque())
    }

    /// The object behind `handle` (not consumed), or a `BoundaryError` naming `what` when NULL.
    static func object<T: AnyObject>(_ handle: OpaquePointer?, as type: T.Type, _ what: String) throws -> T {
        guard let handle else { throw BoundaryError("\(what) is NULL") }
        return Unmanaged<T>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
    }

    /// Gives back the reference `retain` took; NULL is ignored.
    static func release(_ handle: OpaquePointer?) {
        guard let handle else { return }
        Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(handle)).release()
    }

    /// The image behind a `ge_image *` argument.
    static func image(_ handle: OpaquePointer?, _ what: String = "image") throws -> Image {
        try object(handle, as: ImageHandle.self, what).image
    }

    /// Stores `image` as a new `ge_image *` in `out` (which must not be NULL).
    static func deliver(_ image: Image, to out: UnsafeMutablePointer<OpaquePointer?>?) throws {
        guard let out else { throw BoundaryError("the out pointer for the image is NULL") }
        out.pointee = retain(ImageHandle(image))
    }
}

/// The context every `ge_*` render uses: one for the process (thread-safe, keeps compiled programs).
let sharedContext = Context()

/// The library version (`ge_version`): a static string, not to be freed.
private let versionString: StaticString = "0.1.0"

/// The version of the library, a static string (not to be freed).
@_cdecl("ge_version")
public func ge_version() -> UnsafePointer<CChar> {
    UnsafeRawPointer(versionString.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// Frees a string a `ge_*` function returned (a message, JSON); NULL is ignored.
@_cdecl("ge_string_free")
public func ge_string_free(_ text: UnsafeMutablePointer<CChar>?) {
    free(text)
}

/// Releases an image handle; NULL is ignored. Images derived from it keep what they need.
@_cdecl("ge_image_free")
public func ge_image_free(_ image: OpaquePointer?) {
    Handles.release(image)
}
