import GraphEngine

/// A filter parameter value (Core Image's `NSNumber`, `CIVector`, `CIColor`, `CIImage`, …).
public enum FilterValue: Sendable, CustomStringConvertible {
    case number(Double)
    case vector([Double])
    case image(Image)
    case transform(AffineTransform)
    case rect(Rect)
    case bool(Bool)
    case string(String)

    /// The value's type in words, for error messages (`a number`, `a vector of 3`).
    public var typeDescription: String {
        switch self {
        case .number: return "a number"
        case .vector(let v): return "a vector of \(v.count)"
        case .image: return "an image"
        case .transform: return "a transform"
        case .rect: return "a rectangle"
        case .bool: return "a boolean"
        case .string(let s): return "the string \"\(s)\""
        }
    }

    public var description: String {
        switch self {
        case .number(let n): return "\(n)"
        case .vector(let v): return "[" + v.map { "\($0)" }.joined(separator: " ") + "]"
        case .image(let image): return "image \(image.extent)"
        case .transform(let t): return "\(t)"
        case .rect(let r): return "\(r)"
        case .bool(let b): return "\(b)"
        case .string(let s): return s
        }
    }
}

/// The type a filter input accepts.
public enum FilterParameterType: String, Sendable, Hashable, CaseIterable {
    case image, number, vector, color, transform, rect, bool
}
