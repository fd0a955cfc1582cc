/// Errors from building or rendering a recipe. Each names what is wrong and where.
public enum GraphError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Rendering an infinite image without a crop, or an empty rect.
    case invalidExtent(String)
    /// A non-positive, overflowing or over-the-limit size.
    case invalidSize(String)
    /// An unknown filter name, with the message saying so (a "did you mean" suggestion, or that
    /// Core Image has the filter and this engine does not).
    case unknownFilter(String, message: String? = nil)
    /// A filter input key the filter doesn't have, with the closest key it has.
    case unknownParameter(filter: String, key: String, suggestion: String? = nil)
    /// A parameter value of the wrong type or out of range.
    case invalidParameter(filter: String, key: String, reason: String)
    /// A required input image is missing.
    case missingInput(filter: String, key: String)
    /// A kernel that can't be applied as asked.
    case invalidKernel(String)
    /// A render that can't proceed (a memory limit, a failed source).
    case renderFailed(String)

    /// The message: what is wrong and where, with a "did you mean" when a name is close.
    public var description: String {
        switch self {
        case .invalidExtent(let message), .invalidSize(let message), .invalidKernel(let message),
             .renderFailed(let message):
            return message
        case .unknownFilter(let name, let message): return message ?? "unknown filter \"\(name)\""
        case .unknownParameter(let filter, let key, let suggestion):
            return "\(filter) has no input \"\(key)\"" + (suggestion.map { " (did you mean \"\($0)\"?)" } ?? "")
        case .invalidParameter(let filter, let key, let reason): return "\(filter).\(key): \(reason)"
        case .missingInput(let filter, let key): return "\(filter).\(key): an input image is required"
        }
    }
}
