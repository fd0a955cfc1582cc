import Foundation
import GraphCodecs
import GraphEngine
import GraphRecipes

/// Opens an auxiliary image of a depth photo: `kind` is a recipe name (`"disparity"`, `"depth"`,
/// `"matte"`, `"skinMatte"`, ..., `"gainMap"`, `"confidence"`, `"original"`). Maps are data images
/// with real values (disparity in 1/m), upright with the photo, as `graph` reads them.
@_cdecl("ge_image_open_auxiliary")
public func ge_image_open_auxiliary(_ path: UnsafePointer<CChar>?, _ kind: UnsafePointer<CChar>?,
                                    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ error: StringOut) -> Int32 {
    catching(error) {
        let path = try string(path, "path")
        let name = try string(kind, "kind")
        guard let auxiliary = RecipeDecoder.auxiliaryNames[name] else {
            throw BoundaryError("unknown auxiliary image \"\(name)\": expected \(RecipeDecoder.auxiliaryNameList)")
        }
        try Handles.deliver(Image(contentsOf: path, options: ImageReadOptions(auxiliary: auxiliary)), to: out)
    }
}

/// A photo's header facts as JSON in `json` (the object `graph info --format json` prints, without
/// the subject): format, size, profile, EXIF, segments, MPF images and every auxiliary image.
@_cdecl("ge_photo_info_json")
public func ge_photo_info_json(_ path: UnsafePointer<CChar>?, _ json: StringOut, _ error: StringOut) -> Int32 {
    catching(error) {
        let photo = try DepthPhoto(contentsOf: try string(path, "path"))
        deliver(ImageInfoJSON.json(photo.info).compact, to: json)
    }
}

/// A photo's depth data as JSON in `json`: kind, map size, accuracy, stored kind and range,
/// filtered, quality, source format, orientation and camera calibration (null when absent); an
/// error when the photo has no depth map.
@_cdecl("ge_depth_data_json")
public func ge_depth_data_json(_ path: UnsafePointer<CChar>?, _ json: StringOut, _ error: StringOut) -> Int32 {
    catching(error) {
        let depth = try DepthPhoto(contentsOf: try string(path, "path")).depthData()
        deliver(DepthDataJSON.json(depth).compact, to: json)
    }
}
