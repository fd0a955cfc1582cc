import Foundation
import GraphEngine

/// Renders `rect` (x, y, width, height in Core Image coordinates; NULL: the image's extent, which
/// must then be finite) into `destination`: rows `row_bytes` apart, top row first, `channels` (1, 2,
/// 3 or 4; float32: 1, 3 or 4) samples of `sample_type`, premultiplied alpha, converted to
/// `color_space` (NULL: the space the image's sources share, else sRGB; `"data"`: the working
/// values unconverted). A rect not on whole pixels is rounded outward. `destination_bytes` is the
/// size of `destination`: a render that would not fit is refused. `progress`, when not NULL,
/// is called with `user` from another thread while the render runs; returning non-zero cancels it
/// (`GE_ERROR_CANCELLED`). Several threads may render at once.
@_cdecl("ge_render")
public func ge_render(_ image: OpaquePointer?, _ rect: UnsafePointer<Double>?, _ destination: UnsafeMutableRawPointer?,
                      _ destinationBytes: Int64, _ rowBytes: Int64, _ channels: Int32, _ sampleType: Int32, _ colorSpace: UnsafePointer<CChar>?,
                      _ progress: ProgressCallback?, _ user: UnsafeMutableRawPointer?, _ error: StringOut) -> Int32 {
    catching(error) {
        let image = try Handles.image(image)
        guard let destination else { throw BoundaryError("destination is NULL") }
        let format = try MemoryLayout.renderFormat(channels: channels, type: sampleType)
        let area = rect.map { Rect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) } ?? image.extent
        let pixels = area.integral
        if !pixels.isInfinite, pixels.width.isFinite, pixels.height.isFinite, pixels.width < 1e9, pixels.height < 1e9,
           pixels.width >= 1, pixels.height >= 1 {
            let (width, height) = (Int64(pixels.width), Int64(pixels.height))
            let needed = rowBytes * (height - 1) + width * Int64(format.bytesPerPixel)
            guard rowBytes > 0, destinationBytes >= needed else {
                throw BoundaryError("destination of \(destinationBytes) bytes is too small for \(width)x\(height) \(format.rawValue) "
                                    + "pixels \(rowBytes) bytes apart (\(needed) bytes)")
            }
        }
        let output = try ColorSpaceNames.output(optionalString(colorSpace), for: image)
        try ProgressMonitor.run(progress, user) { counter in
            try sharedContext.render(image, to: destination, rowBytes: Int(rowBytes), rect: area, format: format,
                                     colorSpace: output, progress: counter)
        }
    }
}
