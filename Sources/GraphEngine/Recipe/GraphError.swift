/// Errors from building or rendering a recipe. Each names what is wrong and where.
public enum GraphError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Rendering an infinite image without a crop, or an empty rect.
    case invalidExtent(String)
    /// A non-positive, overflowing or over-the-limit size.
    case invalidSize(String)
    /// An unknown filter name.
    case unknownFilter(String)
    /// A filter input key the filter doesn't have.
    case unknownParameter(filter: String, key: String)
    /// A parameter value of the wrong type or out of range.
    case invalidParameter(filter: String, key: String, reason: String)
    /// A required input image is missing.
    case missingInput(filter: String, key: String)
    /// A kernel that can't be applied as asked.
    case invalidKernel(String)
    /// A render that can't proceed (a memory limit, a failed source).
    case renderFailed(String)

    public var description: String {
        switch self {
        case .invalidExtent(let message), .invalidSize(let message), .invalidKernel(let message),
             .renderFailed(let message):
            return message
        case .unknownFilter(let name): return "unknown filter '\(name)'"
        case .unknownParameter(let filter, let key): return "\(filter) has no input '\(key)'"
        case .invalidParameter(let filter, let key, let reason): return "\(filter).\(key): \(reason)"
        case .missingInput(let filter, let key): return "\(filter).\(key): an input image is required"
        }
    }
}
