import GraphEngine

/// One depth map in metres, top row first (0 marks a hole until ``DepthFilter`` fills it).
public struct DepthMap: Sendable {
    /// Size in pixels.
    public let width: Int, height: Int
    /// Metres per pixel, `width × height`, top row first.
    public var metres: [Float]

    /// A map of `metres` (count `width × height`).
    public init(width: Int, height: Int, metres: [Float]) throws {
        guard width > 0, height > 0, metres.count == width * height else {
            throw VideoError("a depth map of \(width)x\(height) needs \(max(width, 0) * max(height, 0)) samples, got \(metres.count)")
        }
        self.width = width
        self.height = height
        self.metres = metres
    }

    /// The map as a data image (Float32 grey, no colour space): metres, or 1/m for `disparity`
    /// (the value recipes' `"auxiliary": "disparity"` images hold).
    public func image(disparity: Bool) throws -> Image {
        let buffer = try ImageBuffer(width: width, height: height, format: .grayf, alphaMode: .opaque, colorSpace: nil) { storage, rowBytes in
            metres.withUnsafeBufferPointer { values in
                for y in 0..<height {
                    let row = (storage + y * rowBytes).assumingMemoryBound(to: Float.self), first = y * width
                    if disparity {
                        for x in 0..<width { let d = values[first + x]; row[x] = d > 0 ? 1 / d : 0 }
                    } else {
                        for x in 0..<width { row[x] = values[first + x] }
                    }
                }
            }
        }
        return Image(buffer: buffer)
    }
}
