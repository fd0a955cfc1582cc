/// A video that cannot be read, rendered or written: the message names the file and, where one
/// is at fault, the frame (`depth.mkv: frame 41 at 1.367 s: ...`).
public struct VideoError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The whole message.
    public let message: String

    /// A message as given.
    public init(_ message: String) {
        self.message = message
    }

    /// `FILE: [frame N at T s: ]WHAT`.
    public init(file: String, frame: Int? = nil, seconds: Double? = nil, _ what: String) {
        var text = file + ": "
        if let frame {
            text += "frame \(frame)"
            if let seconds, seconds.isFinite { text += " at " + VideoError.time(seconds) }
            text += ": "
        }
        message = text + what
    }

    /// The message.
    public var description: String { message }

    /// Seconds with three decimals: `1.367 s`.
    static func time(_ seconds: Double) -> String {
        let milliseconds = (seconds * 1000).rounded()
        let whole = Int(milliseconds) / 1000, fraction = abs(Int(milliseconds) % 1000)
        let padded = String(fraction).count == 3 ? String(fraction) : String(repeating: "0", count: 3 - String(fraction).count) + String(fraction)
        return "\(whole).\(padded) s"
    }
}
