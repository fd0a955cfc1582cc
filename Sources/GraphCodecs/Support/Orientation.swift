/// Applies an EXIF orientation (1...8) to interleaved pixels so they display upright.
///
/// For output pixel (x, y) of the upright image, the source pixel in the stored W×H image is:
/// 2 (W-1-x, y) · 3 (W-1-x, H-1-y) · 4 (x, H-1-y) · 5 (y, x) · 6 (y, H-1-x) ·
/// 7 (W-1-y, H-1-x) · 8 (W-1-y, x). Orientations 5...8 swap width and height.
public enum Orientation {
    /// `bytes` (`width`×`height`, `pixelBytes` per pixel, rows top first) turned upright for EXIF `orientation`, with the new size; orientation 1 or an invalid one returns them unchanged.
    public static func apply(
        _ orientation: Int, bytes: [UInt8], width: Int, height: Int, pixelBytes: Int
    ) -> (bytes: [UInt8], width: Int, height: Int) {
        guard (2...8).contains(orientation), width > 0, height > 0, pixelBytes > 0,
            bytes.count == width * height * pixelBytes
        else { return (bytes, width, height) }
        let swaps = orientation >= 5
        let outWidth = swaps ? height : width
        let outHeight = swaps ? width : height
        // Source offset (in pixels) of output (x, y) = base + x * dx + y * dy.
        let (base, dx, dy): (Int, Int, Int)
        switch orientation {
        case 2: (base, dx, dy) = (width - 1, -1, width)
        case 3: (base, dx, dy) = ((height - 1) * width + width - 1, -1, -width)
        case 4: (base, dx, dy) = ((height - 1) * width, 1, -width)
        case 5: (base, dx, dy) = (0, width, 1)
        case 6: (base, dx, dy) = ((height - 1) * width, -width, 1)
        case 7: (base, dx, dy) = ((height - 1) * width + width - 1, -width, -1)
        default: (base, dx, dy) = (width - 1, width, -1)  // 8
        }
        let out = [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, initialized in
            initialized = 0
            bytes.withUnsafeBytes { source in
                guard let dstBase = buffer.baseAddress, let src = source.baseAddress else { return }
                let dst = UnsafeMutableRawPointer(dstBase)
                initialized = bytes.count
                switch pixelBytes {
                case 1: remap(UInt8.self, src, dst, outWidth, outHeight, base, dx, dy)
                case 2: remap(UInt16.self, src, dst, outWidth, outHeight, base, dx, dy)
                case 4: remap(UInt32.self, src, dst, outWidth, outHeight, base, dx, dy)
                case 8: remap(UInt64.self, src, dst, outWidth, outHeight, base, dx, dy)
                default:
                    for y in 0..<outHeight {
                        for x in 0..<outWidth {
                            let from = (base + x * dx + y * dy) * pixelBytes
                            let to = (y * outWidth + x) * pixelBytes
                            (dst + to).copyMemory(from: src + from, byteCount: pixelBytes)
                        }
                    }
                }
            }
        }
        return (out, outWidth, outHeight)
    }

    private static func remap<T>(
        _: T.Type, _ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, _ outWidth: Int,
        _ outHeight: Int, _ base: Int, _ dx: Int, _ dy: Int
    ) {
        let s = src.assumingMemoryBound(to: T.self)
        let d = dst.bindMemory(to: T.self, capacity: outWidth * outHeight)
        for y in 0..<outHeight {
            var from = base + y * dy
            let row = d + y * outWidth
            for x in 0..<outWidth {
                row[x] = s[from]
                from += dx
            }
        }
    }
}
