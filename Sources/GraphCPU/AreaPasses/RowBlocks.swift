/// Horizontal running passes (running sums, running extrema) carry a value from pixel to pixel along
/// a row, which does not vectorise. So they run as vertical passes over row blocks: up to `lanes`
/// rows are transposed into a column-major block (`block[x·count + j]` is row j, column x), the
/// vertical loop scans it with the rows side by side in the vector lanes, and the results are
/// transposed back. Public, with `lanes` package, so that the two loops inline into the passes of
/// other modules (Kernels' rectangle morphology).
public enum RowBlocks {
    package static let lanes = 16

    /// `block[x·count + j] = row(j)[x]` for j < count, x < length.
    @inlinable @inline(__always)
    public static func transpose(count: Int, length: Int, into block: UnsafeMutablePointer<Float>,
                          row: (Int) -> UnsafePointer<Float>) {
        for j in 0..<count {
            let source = row(j)
            var target = block + j
            for x in 0..<length {
                target.pointee = source[x]
                target += count
            }
        }
    }

    /// `target[x] = block[x·count + j]` for x < length: row j of a block back as a row.
    @inlinable @inline(__always)
    public static func extract(row j: Int, count: Int, length: Int, from block: UnsafePointer<Float>,
                        into target: UnsafeMutablePointer<Float>) {
        var source = block + j
        for x in 0..<length {
            target[x] = source.pointee
            source += count
        }
    }
}
