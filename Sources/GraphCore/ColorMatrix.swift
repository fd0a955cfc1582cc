/// A 4×5 affine colour map on unpremultiplied RGBA: `out_i = Σ_j m[i][j]·in_j + m[i][4]`.
///
/// Rows are output channels (Core Image's `inputRVector` is row 0). Colour matrix, exposure,
/// colour controls, hue adjust and sepia all build one of these, so a chain of them folds into a
/// single matrix (``concatenating(after:)``) and runs as one IR instruction.
public struct ColorMatrix: Hashable, Sendable {
    /// 20 coefficients, row-major (`[r0 r1 r2 r3 rBias, g0 …]`).
    public var coefficients: [Double]
    /// The first names folded into this matrix (all of them while there are at most
    /// ``sourceNameLimit``), first applied first.
    private var leadingNames: [String]
    /// The last `sourceNameLimit / 2` names folded in, once there are more than ``sourceNameLimit``.
    private var trailingNames: [String] = []
    /// How many filters were folded into this matrix.
    public private(set) var sourceCount: Int

    /// The most names a matrix keeps: a chain of 40,000 folded filters would otherwise keep
    /// 1 + 2 + … + 40,000 names in the matrices made along the way (memory quadratic in the chain).
    public static let sourceNameLimit = 8

    /// The filters folded into this matrix, first applied first (for dumps): all of them up to
    /// ``sourceNameLimit``; beyond, the first and last few around `… N more …`.
    public var sourceNames: [String] {
        if sourceCount <= Self.sourceNameLimit { return leadingNames }
        return leadingNames + ["… \(sourceCount - leadingNames.count - trailingNames.count) more …"] + trailingNames
    }

    /// The last names folded in (up to half the limit), for ``concatenating(after:)``.
    private var lastNames: ArraySlice<String> {
        sourceCount <= Self.sourceNameLimit ? leadingNames.suffix(Self.sourceNameLimit / 2) : trailingNames[...]
    }

    /// A matrix from its 20 coefficients, row by row (R, G, B, A rows of four weights and a bias); `sourceName` names it in dumps.
    public init(coefficients: [Double], sourceName: String) {
        precondition(coefficients.count == 20, "a colour matrix has 20 coefficients")
        self.coefficients = coefficients
        self.leadingNames = [sourceName]
        self.sourceCount = 1
    }

    /// Builds a matrix from Core Image's row vectors and bias.
    public init(r: [Double], g: [Double], b: [Double], a: [Double], bias: [Double], sourceName: String) {
        var c: [Double] = []
        for (row, biasValue) in zip([r, g, b, a], bias) { c += row + [biasValue] }
        self.init(coefficients: c, sourceName: sourceName)
    }

    /// A 3×3 colour part (row-major), alpha kept, with an optional RGB bias.
    public init(rgb m: [Double], bias: [Double] = [0, 0, 0], sourceName: String) {
        self.init(r: [m[0], m[1], m[2], 0], g: [m[3], m[4], m[5], 0], b: [m[6], m[7], m[8], 0],
                  a: [0, 0, 0, 1], bias: bias + [0], sourceName: sourceName)
    }

    /// The matrix that changes nothing, named `sourceName` in dumps.
    public static func identity(sourceName: String) -> ColorMatrix {
        ColorMatrix(rgb: [1, 0, 0, 0, 1, 0, 0, 0, 1], sourceName: sourceName)
    }

    /// The coefficient at `row` (0...3: R, G, B, A) and `column` (0...3: weights, 4: bias).
    public func element(_ row: Int, _ column: Int) -> Double { coefficients[row * 5 + column] }

    /// Exactly the identity map.
    public var isIdentity: Bool {
        for row in 0..<4 {
            for column in 0..<5 where coefficients[row * 5 + column] != (row == column ? 1 : 0) { return false }
        }
        return true
    }

    /// Alpha passes through unchanged (row 3 is `[0 0 0 1 0]`).
    public var preservesAlpha: Bool {
        coefficients[15] == 0 && coefficients[16] == 0 && coefficients[17] == 0 && coefficients[18] == 1
            && coefficients[19] == 0
    }

    /// `self` applied after `first`: one matrix computing `self(first(x))`, in Double.
    public func concatenating(after first: ColorMatrix) -> ColorMatrix {
        var c = [Double](repeating: 0, count: 20)
        for i in 0..<4 {
            for j in 0..<5 {
                var sum = j == 4 ? element(i, 4) : 0
                for k in 0..<4 { sum += element(i, k) * first.element(k, j) }
                c[i * 5 + j] = sum
            }
        }
        var result = ColorMatrix(coefficients: c, sourceName: "")
        result.sourceCount = first.sourceCount + sourceCount
        if result.sourceCount <= Self.sourceNameLimit {
            result.leadingNames = first.leadingNames + leadingNames
        } else {
            // Each side lists at least its first (last) half-limit names, or all of them when it has fewer.
            let half = Self.sourceNameLimit / 2
            result.leadingNames = Array((first.leadingNames + leadingNames).prefix(half))
            result.trailingNames = Array((first.lastNames + lastNames).suffix(half))
        }
        return result
    }

    /// The coefficients as Float32 uniforms.
    public var uniformValues: [Float] { coefficients.map { Float($0) } }

    /// Rows for dumps: `[r: 0.39 0.77 0.19 0 +0]…`.
    public var summary: String {
        let names = ["r", "g", "b", "a"]
        return (0..<4).map { row in
            "[\(names[row]): " + (0..<4).map { formatFloat(element(row, $0)) }.joined(separator: " ")
                + " \(element(row, 4) < 0 ? "" : "+")\(formatFloat(element(row, 4)))]"
        }.joined()
    }

    /// Matrices are equal when their coefficients are (names are for dumps only).
    public static func == (lhs: ColorMatrix, rhs: ColorMatrix) -> Bool {
        lhs.coefficients.map(\.bitPattern) == rhs.coefficients.map(\.bitPattern)
    }

    /// Hashes the coefficients.
    public func hash(into hasher: inout Hasher) {
        for value in coefficients { hasher.combine(value.bitPattern) }
    }
}
