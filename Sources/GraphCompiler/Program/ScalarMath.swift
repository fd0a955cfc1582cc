import Foundation

/// Scalar definitions of every IR operator.
///
/// The constant folder uses these, and the span interpreter's loops for every operator without a
/// span kernel; `power`, `exp`, `exp2`, `log`, `log2`, `sin`, `cos`, `atan` and the sRGB curves
/// have one (CRowKernels' polynomials and tables, within a few ulp of these), so a folded constant
/// and a computed value agree bit for bit for the others only.
@usableFromInline package enum ScalarMath {
    @inlinable @inline(__always)
    package static func unary(_ op: UnaryOperator, _ x: Float) -> Float {
        switch op {
        case .negate: return -x
        case .abs: return Swift.abs(x)
        case .sign: return x > 0 ? 1 : (x < 0 ? -1 : x)
        case .floor: return x.rounded(.down)
        case .ceil: return x.rounded(.up)
        case .fract: return x - x.rounded(.down)
        case .sqrt: return x.squareRoot()
        case .inverseSqrt: return 1 / x.squareRoot()
        case .exp: return Foundation.exp(x)
        case .exp2: return Foundation.exp2(x)
        case .log: return Foundation.log(x)
        case .log2: return Foundation.log2(x)
        case .sin: return Foundation.sin(x)
        case .cos: return Foundation.cos(x)
        case .tan: return Foundation.tan(x)
        case .asin: return Foundation.asin(x)
        case .acos: return Foundation.acos(x)
        case .atan: return Foundation.atan(x)
        case .logicalNot: return x == 0 ? 1 : 0
        case .srgbToLinear: return srgbToLinear(x)
        case .linearToSRGB: return linearToSRGB(x)
        }
    }

    @inlinable @inline(__always)
    package static func binary(_ op: BinaryOperator, _ x: Float, _ y: Float) -> Float {
        switch op {
        case .add: return x + y
        case .subtract: return x - y
        case .multiply: return x * y
        case .divide: return x / y
        case .minimum: return minimum(x, y)
        case .maximum: return maximum(x, y)
        case .power: return Foundation.pow(x, y)
        case .modulo: return x - y * (x / y).rounded(.down)
        case .atan2: return Foundation.atan2(x, y)
        case .step: return y < x ? 0 : 1
        case .lessThan: return x < y ? 1 : 0
        case .lessThanOrEqual: return x <= y ? 1 : 0
        case .greaterThan: return x > y ? 1 : 0
        case .greaterThanOrEqual: return x >= y ? 1 : 0
        case .equal: return x == y ? 1 : 0
        case .notEqual: return x != y ? 1 : 0
        case .logicalAnd: return (x != 0 && y != 0) ? 1 : 0
        case .logicalOr: return (x != 0 || y != 0) ? 1 : 0
        }
    }

    @inlinable @inline(__always)
    package static func ternary(_ op: TernaryOperator, _ a: Float, _ b: Float, _ c: Float) -> Float {
        switch op {
        case .multiplyAdd: return a * b + c
        case .mix: return a + (b - a) * c
        case .clamp: return minimum(maximum(a, b), c)
        case .select: return a != 0 ? b : c
        case .smoothstep:
            let t = minimum(maximum((c - a) / (b - a), 0), 1)
            return t * t * (3 - 2 * t)
        case .compare: return a < 0 ? b : c
        }
    }

    /// GLSL-style min that propagates NaN from the first operand (`x < y ? x : y` would drop it).
    @inlinable @inline(__always) package static func minimum(_ x: Float, _ y: Float) -> Float { y < x ? y : x }
    /// GLSL-style max that propagates NaN from the first operand.
    @inlinable @inline(__always) package static func maximum(_ x: Float, _ y: Float) -> Float { y > x ? y : x }

    /// Sign-preserving sRGB decode (extended range).
    @inlinable @inline(__always)
    package static func srgbToLinear(_ y: Float) -> Float {
        let a = Swift.abs(y)
        let linear = a <= 0.04045 ? a / 12.92 : Foundation.pow((a + 0.055) / 1.055, 2.4)
        return y < 0 ? -linear : linear
    }

    /// Sign-preserving sRGB encode (extended range).
    @inlinable @inline(__always)
    package static func linearToSRGB(_ x: Float) -> Float {
        let a = Swift.abs(x)
        let encoded = a <= 0.0031308 ? a * 12.92 : 1.055 * Foundation.pow(a, 1 / 2.4) - 0.055
        return x < 0 ? -encoded : encoded
    }
}
