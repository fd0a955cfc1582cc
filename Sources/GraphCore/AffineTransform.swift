/// A 2-D affine transform with `CGAffineTransform`'s layout:
/// `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`.
public struct AffineTransform: Hashable, Sendable, CustomStringConvertible {
    /// The coefficients, `CGAffineTransform`'s layout: `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`.
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    /// A transform from its six coefficients.
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    /// The transform that changes nothing.
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A translation by (`x`, `y`).
    public init(translationX x: Double, y: Double) { self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y) }
    /// A scale by `sx` horizontally and `sy` vertically, about the origin.
    public init(scaleX sx: Double, y sy: Double) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }
    /// A rotation by `angle` radians, counter-clockwise (y up), about the origin.
    public init(rotationAngle angle: Double) {
        let cosine = _cos(angle), sine = _sin(angle)
        self.init(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }

    /// Whether this is exactly the identity.
    public var isIdentity: Bool { self == .identity }
    /// `a·d − b·c`: the area scale (negative when it mirrors).
    public var determinant: Double { a * d - b * c }
    /// Whether the transform can be inverted (a finite, non-zero determinant).
    public var isInvertible: Bool { determinant != 0 && determinant.isFinite }

    /// `self` followed by `other` (`CGAffineTransform.concatenating`).
    public func concatenating(_ other: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * other.a + b * other.c, b: a * other.b + b * other.d,
            c: c * other.a + d * other.c, d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx, ty: tx * other.b + ty * other.d + other.ty)
    }

    /// The inverse, or nil when singular.
    public var inverted: AffineTransform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        return AffineTransform(
            a: d / det, b: -b / det, c: -c / det, d: a / det,
            tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }

    /// The point (`x`, `y`) transformed.
    public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        (a * x + c * y + tx, b * x + d * y + ty)
    }

    /// The bounding box of a transformed rectangle.
    public func apply(to rect: Rect) -> Rect {
        if rect.isInfinite || rect.isEmpty { return rect }
        let corners = [apply(x: rect.minX, y: rect.minY), apply(x: rect.maxX, y: rect.minY),
                       apply(x: rect.minX, y: rect.maxY), apply(x: rect.maxX, y: rect.maxY)]
        let xs = corners.map(\.x), ys = corners.map(\.y)
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { return rect }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The six coefficients in `[a b c d tx ty]` order.
    public var coefficients: [Double] { [a, b, c, d, tx, ty] }

    /// `[a b c d tx ty]`.
    public var description: String { "[" + coefficients.map(formatFloat).joined(separator: " ") + "]" }
}

import Foundation
private func _cos(_ x: Double) -> Double { Foundation.cos(x) }
private func _sin(_ x: Double) -> Double { Foundation.sin(x) }
