/// The larger of two values, ignoring NaN (IEEE maxNum): commutative and associative up to the sign
/// of zero, and a plain compare-and-select that vectorises. Public and inlinable: the morphology
/// passes in Kernels call it per value in their hot loops.
@inlinable @inline(__always)
public func maximumNumber(_ a: Float, _ b: Float) -> Float { a.isNaN ? b : (b > a ? b : a) }

/// The smaller of two values, ignoring NaN (IEEE minNum).
@inlinable @inline(__always)
public func minimumNumber(_ a: Float, _ b: Float) -> Float { a.isNaN ? b : (b < a ? b : a) }
