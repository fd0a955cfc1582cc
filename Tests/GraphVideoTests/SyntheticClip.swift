import Foundation
import GraphVideo

/// A short RGB-D clip made with the same FFmpeg libraries the product uses: a bright square
/// moving right over a textured background (H.264, I420), and its exact depth per frame (16-bit
/// millimetres, FFV1): the square at 1 m, the background at `backgroundMillimetres(x)`.
struct SyntheticClip {
    var width = 96, height = 72
    var depthWidth = 48, depthHeight = 36
    var frames = 10
    var fps = 10
    var depthFrames: Int?
    var squareSize = 24
    /// Depth noise (standard deviation in mm) and the fraction of samples that are holes (0).
    var noise: Double = 0
    var holes: Double = 0
    /// Clockwise display rotation and colour tags (FFmpeg's numbers) of the colour video.
    var rotation = 0
    var colorTags = (range: 1, primaries: 2, transfer: 2, space: 2)
    /// Background depth in mm at depth-map pixel (x, y), top row 0 (default: a flat wall at 3 m).
    var background: @Sendable (Int, Int) -> Double = { _, _ in 3000 }

    /// The square's rectangle in video pixels at frame `i` (x, y from the top-left).
    func square(_ i: Int) -> (x: Int, y: Int, size: Int) { (8 + 4 * i, 24, squareSize) }

    /// Writes the colour video to `video` and the depth to `depth`.
    func write(video: String, depth: String) throws {
        var stream = VideoWriter.Stream(width: width, height: height, timeBase: (1, fps), frameRate: (fps, 1))
        stream.rotation = rotation
        (stream.colorRange, stream.colorPrimaries, stream.colorTransfer, stream.colorSpace) = colorTags
        let colour = try VideoWriter(path: video, stream: stream, input: .i420,
                                     encoding: VideoEncoding(codec: "libx264", preset: "ultrafast", crf: 8, threads: 1))
        for i in 0..<frames {
            var bytes = colourFrame(i)
            try bytes.withUnsafeMutableBytes { try colour.write($0.baseAddress!, rowBytes: width, pts: Int64(i)) }
        }
        try colour.finish()
        var depthStream = VideoWriter.Stream(width: depthWidth, height: depthHeight, timeBase: (1, fps), frameRate: (fps, 1))
        depthStream.colorRange = 2
        let writer = try VideoWriter(path: depth, stream: depthStream, input: .gray16,
                                     encoding: VideoEncoding(codec: "ffv1", preset: nil, crf: nil, threads: 1))
        var random = SeededRandom(seed: 7)
        for i in 0..<(depthFrames ?? frames) {
            var samples = depthFrame(i, random: &random)
            try samples.withUnsafeMutableBytes { try writer.write($0.baseAddress!, rowBytes: depthWidth * 2, pts: Int64(i)) }
        }
        try writer.finish()
    }

    /// I420 bytes of frame `i`: checkered, graded background; the square bright red.
    func colourFrame(_ i: Int) -> [UInt8] {
        let s = square(i)
        var bytes = [UInt8](repeating: 128, count: width * height * 3 / 2)
        for y in 0..<height {
            for x in 0..<width {
                let inside = x >= s.x && x < s.x + s.size && y >= s.y && y < s.y + s.size
                bytes[y * width + x] = inside ? 150 : UInt8(40 + ((x / 6 + y / 6) % 2) * 40 + x / 4)
            }
        }
        let cw = width / 2, ch = height / 2, u = width * height, v = u + cw * ch
        for y in 0..<ch {
            for x in 0..<cw {
                let inside = 2 * x >= s.x && 2 * x < s.x + s.size && 2 * y >= s.y && 2 * y < s.y + s.size
                bytes[u + y * cw + x] = inside ? 90 : 128
                bytes[v + y * cw + x] = inside ? 220 : 128
            }
        }
        return bytes
    }

    /// 16-bit samples of depth frame `i` (the square at 1000 mm, noise and holes as set).
    func depthFrame(_ i: Int, random: inout SeededRandom) -> [UInt16] {
        let s = square(i)
        let sx = Double(depthWidth) / Double(width), sy = Double(depthHeight) / Double(height)
        var samples = [UInt16](repeating: 0, count: depthWidth * depthHeight)
        for y in 0..<depthHeight {
            for x in 0..<depthWidth {
                // Depth pixel centres mapped into video pixels.
                let vx = (Double(x) + 0.5) / sx, vy = (Double(y) + 0.5) / sy
                let inside = vx >= Double(s.x) && vx < Double(s.x + s.size) && vy >= Double(s.y) && vy < Double(s.y + s.size)
                var mm = inside ? 1000 : background(x, y)
                if noise > 0 { mm += noise * random.gaussian() }
                if holes > 0, random.uniform() < holes { mm = 0 }
                samples[y * depthWidth + x] = UInt16(max(0, min(65535, mm.rounded())))
            }
        }
        return samples
    }
}

/// A small deterministic generator (xorshift64*), so noisy clips are the same on every run.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed == 0 ? 0x9E3779B97F4A7C15 : seed }
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 2_685_821_657_736_338_717
    }
    /// Uniform in [0, 1).
    mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }
    /// Standard normal (Box-Muller).
    mutating func gaussian() -> Double {
        let u = max(uniform(), 1e-12), v = uniform()
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}
