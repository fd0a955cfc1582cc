/// Value types of the kernel language after type checking.
///
/// `__sample` and `__color` are `vec4` inside a kernel; `int` exists only for loop counters and is a
/// float. Every non-sampler value is 1–4 IR operands (a `bool` is one operand holding 0 or 1).
enum ValueType: String, Sendable, Hashable, CustomStringConvertible {
    case bool, float, vec2, vec3, vec4, sampler

    var description: String { rawValue }

    /// Operands per value (0 for sampler, which is not arithmetic data).
    var componentCount: Int {
        switch self {
        case .bool, .float: return 1
        case .vec2: return 2
        case .vec3: return 3
        case .vec4: return 4
        case .sampler: return 0
        }
    }

    var isNumeric: Bool { self == .float || isVector }
    var isVector: Bool { self == .vec2 || self == .vec3 || self == .vec4 }

    /// The float vector (or float) with `count` components.
    static func floatVector(_ count: Int) -> ValueType? {
        switch count {
        case 1: return .float
        case 2: return .vec2
        case 3: return .vec3
        case 4: return .vec4
        default: return nil
        }
    }

    /// Resolves a local-variable or function type name.
    static func local(_ name: String) -> ValueType? {
        switch name {
        case "bool": return .bool
        case "float": return .float
        case "vec2": return .vec2
        case "vec3": return .vec3
        case "vec4", "__sample", "__color": return .vec4
        case "sampler": return .sampler
        default: return nil
        }
    }
}

/// Swizzle letters: each set names components 0–3.
enum Swizzle {
    static let sets: [[Character]] = [["x", "y", "z", "w"], ["r", "g", "b", "a"], ["s", "t", "p", "q"]]

    /// Component indices for `letters` applied to a value with `count` components, or a message.
    static func components(_ letters: String, count: Int, typeName: String) -> Result<[Int], SwizzleError> {
        let chars = Array(letters)
        guard !chars.isEmpty, chars.count <= 4 else {
            return .failure(SwizzleError("swizzle '.\(letters)' has more than 4 components"))
        }
        guard let set = sets.first(where: { $0.contains(chars[0]) }) else {
            return .failure(SwizzleError("'\(letters)' is not a component of a \(typeName); use swizzles like .rgba, .xyzw or .stpq"))
        }
        var indices: [Int] = []
        for c in chars {
            guard let index = set.firstIndex(of: c) else {
                if sets.contains(where: { $0.contains(c) }) {
                    return .failure(SwizzleError("swizzle '.\(letters)' mixes component sets; use only one of rgba, xyzw or stpq"))
                }
                return .failure(SwizzleError("'\(letters)' is not a component of a \(typeName); use swizzles like .rgba, .xyzw or .stpq"))
            }
            if index >= count {
                return .failure(SwizzleError("swizzle '.\(letters)' is out of range for a \(typeName) (it has no '\(c)')"))
            }
            indices.append(index)
        }
        return .success(indices)
    }

    struct SwizzleError: Error { let message: String; init(_ message: String) { self.message = message } }
}
