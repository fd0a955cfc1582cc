import GraphEngine

/// RGB codes, top row first, for the integer-path tests (8-bit photos run on their codes): a
/// gradient in red, hashed noise in green (xorshift from `seed`), a ramp with noise in blue, and a
/// square of red 255 and green 0 (hard edges; blue `squareBlue` there, when given).
func eightBitTestCodes(width: Int, height: Int, seed: UInt64, squareBlue: UInt8? = nil) -> [UInt8] {
    var state = seed
    var bytes: [UInt8] = []
    for row in 0..<height {
        for x in 0..<width {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            let square = x > 40 && x < 90 && row > 20 && row < 60
            bytes.append(square ? 255 : UInt8((x * 255) / width))
            bytes.append(square ? 0 : UInt8(truncatingIfNeeded: state >> 20))
            let blue = UInt8(truncatingIfNeeded: 30 + (row * 200) / height + Int(state >> 60))
            bytes.append(square ? squareBlue ?? blue : blue)
        }
    }
    return bytes
}

/// Render options without colour management, in `format`, at `tileSize`.
func unmanagedOptions(_ format: WorkingFormat, tileSize: Int = 64) -> ContextOptions {
    var options = ContextOptions()
    options.workingColorSpace = nil
    options.workingFormat = format
    options.tileSize = tileSize
    return options
}
