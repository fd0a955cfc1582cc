import Foundation
import GraphEngine

/// Writes `image` to `path` (PNG, JPEG or HEIC by extension) atomically: a failure leaves no file.
/// `quality` 1...100 (0: 90), `bit_depth` 8 or 16 for PNG (0: 8), `color_space` as for `ge_render`.
/// With `depth_photo` (a depth photo's path) and `original` (its main image as opened, which `image`
/// is an edit of), the photo's EXIF and XMP and its depth data and portrait matte are carried,
/// moved with the edit (JPEG); what could not be carried is said in `warnings` (one a line; freed
/// with `ge_string_free`; NULL when there is nothing to say). `progress` as for `ge_render`.
@_cdecl("ge_image_write")
public func ge_image_write(_ image: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ quality: Int32, _ bitDepth: Int32,
                           _ colorSpace: UnsafePointer<CChar>?, _ depthPhoto: UnsafePointer<CChar>?,
                           _ original: OpaquePointer?, _ progress: ProgressCallback?, _ user: UnsafeMutableRawPointer?,
                           _ warnings: StringOut, _ error: StringOut) -> Int32 {
    warnings?.pointee = nil
    return catching(error) {
        let edited = try Handles.image(image)
        let path = try string(path, "path")
        guard (0...100).contains(quality) else { throw BoundaryError("quality \(quality) must be 1...100 (0: the default, 90)") }
        guard [0, 8, 16].contains(bitDepth) else { throw BoundaryError("bit depth \(bitDepth) must be 8 or 16 (0: 8)") }
        var options = ImageWriteOptions(quality: quality == 0 ? 90 : Int(quality), bitDepth: bitDepth == 0 ? 8 : Int(bitDepth))
        options.colorSpace = try ColorSpaceNames.output(optionalString(colorSpace), for: edited)
        var notes: [String] = []
        if let photoPath = optionalString(depthPhoto) {
            let source = try Handles.image(original, "original (the photo's image that was edited)")
            let photo = try DepthPhoto(contentsOf: photoPath)
            let (metadata, moved) = photo.info.metadata.following(edited, from: source)
            options.metadata = metadata
            let (auxiliary, carried) = photo.auxiliaryImages(following: edited, from: source)
            options.auxiliaryImages = auxiliary
            notes = moved + carried
        }
        try ProgressMonitor.run(progress, user) { counter in
            try sharedContext.write(edited, to: path, options: options, protectedPaths: optionalString(depthPhoto).map { [$0] } ?? [],
                                    progress: counter)
        }
        if !notes.isEmpty { deliver(notes.joined(separator: "\n"), to: warnings) }
    }
}
