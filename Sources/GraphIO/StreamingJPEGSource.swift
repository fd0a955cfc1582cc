import Foundation
import GraphCodecs

extension JPEGFileSource {
    /// Starts decoding the file at 1/`scale` on a background thread of its own and returns the
    /// buffer its rows fill, top first (see ``FileSource``). The decoder reads the bytes in place,
    /// or the file as it goes.
    package func startDecode(scale: Int, windowed: Bool) throws -> ImageBuffer {
        let size = self.size(scale: scale)
        let format: PixelFormat
        switch channels {
        case 1: format = .gray8
        case 3: format = .rgb8
        case 4: format = .rgba8
        default: throw GraphError.renderFailed("\(path): cannot decode a JPEG with \(channels) channels")
        }
        var options = self.options
        options.jpegScaleDenominator = scale
        let (data, decodeOptions, path) = (self.data, options, self.path)
        return try startBackgroundDecode(width: size.width, height: size.height, format: format, alphaMode: .opaque,
                                         windowed: windowed) { buffer, progress in
            try data.withJPEGDecoder(options: decodeOptions) { decoder in
                try progress.fill(buffer, from: (decoder.width, decoder.height, decoder.rowBytes), path: path,
                                  checkSource: data.checkUnchanged) {
                    try decoder.readRows(into: $0, rowBytes: $1, maxRows: $2)
                }
            }
        }
    }
}
