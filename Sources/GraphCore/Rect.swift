import Foundation

/// A rectangle in working space: pixel units, origin at the lower left, y up (Core Image's `CGRect`).
///
/// ``Rect/infinite`` is the extent of generators and of `clampedToExtent()` images.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The lower-left corner and the size, in pixels (Core Image coordinates: y up).
    public var x: Double, y: Double, width: Double, height: Double

    /// A rectangle with lower-left corner (`x`, `y`).
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// Everything: the extent of an image defined everywhere.
    public static let infinite = Rect(x: -.infinity, y: -.infinity, width: .infinity, height: .infinity)
    /// The empty rectangle.
    public static let empty = Rect(x: 0, y: 0, width: 0, height: 0)

    /// The left edge.
    public var minX: Double { x }
    /// The bottom edge.
    public var minY: Double { y }
    /// The right edge (infinite for an infinite rectangle).
    public var maxX: Double { isInfinite ? .infinity : x + width }
    /// The top edge (infinite for an infinite rectangle).
    public var maxY: Double { isInfinite ? .infinity : y + height }
    /// Whether the rectangle is unbounded (generators, `clampedToExtent()`).
    public var isInfinite: Bool { width.isInfinite || height.isInfinite }
    /// Whether it covers no area (a zero, negative or NaN size).
    public var isEmpty: Bool { !(width > 0) || !(height > 0) }

    /// The area both rectangles cover (empty when they do not meet).
    public func intersection(_ other: Rect) -> Rect {
        if isInfinite { return other }
        if other.isInfinite { return self }
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        if x1 <= x0 || y1 <= y0 { return .empty }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle holding both.
    public func union(_ other: Rect) -> Rect {
        if isInfinite || other.isInfinite { return .infinite }
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        let x1 = max(maxX, other.maxX), y1 = max(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Grows (positive) or shrinks (negative) every side by the given amounts.
    public func outset(dx: Double, dy: Double) -> Rect {
        if isInfinite || isEmpty { return self }
        return Rect(x: x - dx, y: y - dy, width: width + 2 * dx, height: height + 2 * dy)
    }

    /// The smallest rectangle with integer edges that contains this one (`CGRect.integral`).
    public var integral: Rect {
        if isInfinite || isEmpty { return self }
        let x0 = (minX + 1e-9).rounded(.down), y0 = (minY + 1e-9).rounded(.down)
        let x1 = (maxX - 1e-9).rounded(.up), y1 = (maxY - 1e-9).rounded(.up)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Whether `other` lies wholly inside this rectangle.
    public func contains(_ other: Rect) -> Bool {
        if isInfinite { return true }
        if other.isInfinite { return false }
        return other.minX >= minX && other.minY >= minY && other.maxX <= maxX && other.maxY <= maxY
    }

    /// `[x y width height]`, or `infinite`.
    public var description: String {
        if isInfinite { return "[infinite]" }
        return "[\(formatFloat(x)) \(formatFloat(y)) \(formatFloat(width)) \(formatFloat(height))]"
    }
}

/// An integer pixel rectangle: what the executor actually computes.
package struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    package var x: Int, y: Int, width: Int, height: Int

    package static let empty = PixelRect(x: 0, y: 0, width: 0, height: 0)
    package var maxX: Int { x + width }
    package var maxY: Int { y + height }
    package var isEmpty: Bool { width <= 0 || height <= 0 }
    package var pixelCount: Int { isEmpty ? 0 : width * height }

    /// The pixels of an integral, finite rect, its edges clamped to ±``coordinateBound`` (so any
    /// rect converts, and widths, heights and pixel counts cannot overflow). Empty for an empty,
    /// infinite or NaN rect.
    package init(_ rect: Rect) {
        let r = rect.integral
        let bound = Double(PixelRect.coordinateBound)
        let x0 = min(max(r.minX, -bound), bound), y0 = min(max(r.minY, -bound), bound)
        let x1 = min(max(r.maxX, -bound), bound), y1 = min(max(r.maxY, -bound), bound)
        if r.isEmpty || r.isInfinite || !(x1 > x0) || !(y1 > y0) {
            self = .empty
        } else {
            self.init(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0))
        }
    }

    /// 2^30: farther than any render reaches (``Context/coordinateLimit``), small enough that a
    /// rect's pixel count fits an Int.
    static let coordinateBound = 1 << 30

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    package var rect: Rect { Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height)) }

    /// Whether every pixel of `other` is in this rect (an empty one always is).
    package func contains(_ other: PixelRect) -> Bool {
        other.isEmpty || (other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY)
    }

    package func intersection(_ other: PixelRect) -> PixelRect {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        if x1 <= x0 || y1 <= y0 { return .empty }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    package func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(x, other.x), y0 = min(y, other.y)
        return PixelRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    package var description: String { "[\(x) \(y) \(width) \(height)]" }
}
