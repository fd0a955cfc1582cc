import GraphEngine

/// The pixel size a finite extent renders to.
package struct PixelSize {
    package let width: Int
    package let height: Int
    package init(_ extent: Rect) {
        let r = extent.integral
        width = r.isInfinite || r.isEmpty ? 0 : Int(r.width)
        height = r.isInfinite || r.isEmpty ? 0 : Int(r.height)
    }
}
