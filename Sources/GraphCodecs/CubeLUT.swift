import Foundation

/// A 3D colour lookup table in the Adobe/Resolve `.cube` text format: `LUT_3D_SIZE N` and then
/// `N³` lines of `R G B`, red varying fastest, then green, then blue (the order of Core Image's
/// `inputCubeData`). `TITLE`, `DOMAIN_MIN 0 0 0`, `DOMAIN_MAX 1 1 1`, `LUT_3D_INPUT_RANGE 0 1` and
/// `#` comments are accepted; other domains and 1D tables are refused with the line that says so.
public struct CubeLUT: Sendable, Equatable {
    public let title: String?
    /// Texels per side, 2…256.
    public let dimension: Int
    /// `dimension³ · 3` values, R G B per texel.
    public let rgb: [Float]

    public static let dimensionLimit = 256

    /// Parses `.cube` text; errors name the line.
    public init(text: String) throws {
        var title: String?
        var dimension: Int?
        var values: [Float] = []
        var lineNumber = 0
        func fail(_ message: String) -> CodecError {
            CodecError(.corrupt, message, segment: lineNumber == 0 ? nil : "line \(lineNumber)")
        }
        func numbers(_ words: ArraySlice<Substring>, count: Int, _ keyword: String) throws -> [Double] {
            let parsed = words.compactMap { Double($0) }
            guard parsed.count == count, words.count == count, parsed.allSatisfy(\.isFinite) else {
                throw fail("\(keyword) needs \(count) number\(count == 1 ? "" : "s")")
            }
            return parsed
        }
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            lineNumber += 1
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let keyword = words.first else { continue }
            switch keyword {
            case "TITLE":
                title = content.drop { $0 != "\"" }.dropFirst().prefix { $0 != "\"" }.description
            case "LUT_3D_SIZE":
                guard dimension == nil else { throw fail("LUT_3D_SIZE given twice") }
                let n = try numbers(words.dropFirst(), count: 1, "LUT_3D_SIZE")[0]
                guard n == n.rounded(), n >= 2, n <= Double(Self.dimensionLimit) else {
                    throw fail("LUT_3D_SIZE must be a whole number from 2 to \(Self.dimensionLimit), got \(words[1])")
                }
                dimension = Int(n)
                values.reserveCapacity(Int(n * n * n) * 3)
            case "LUT_1D_SIZE":
                throw fail("1D tables (LUT_1D_SIZE) are not supported; a colour cube needs LUT_3D_SIZE")
            case "DOMAIN_MIN", "DOMAIN_MAX":
                let expected: Double = keyword == "DOMAIN_MIN" ? 0 : 1
                guard try numbers(words.dropFirst(), count: 3, String(keyword)).allSatisfy({ $0 == expected }) else {
                    throw fail("only the domain 0…1 is supported (\(keyword) \(Int(expected)) \(Int(expected)) \(Int(expected)))")
                }
            case "LUT_3D_INPUT_RANGE":
                guard try numbers(words.dropFirst(), count: 2, "LUT_3D_INPUT_RANGE") == [0, 1] else {
                    throw fail("only the input range 0 1 is supported")
                }
            default:
                guard let first = keyword.first, first.isNumber || first == "-" || first == "+" || first == "." else {
                    throw fail("unknown keyword \"\(keyword)\"")
                }
                guard let n = dimension else { throw fail("table values before LUT_3D_SIZE") }
                guard values.count < n * n * n * 3 else { throw fail("more than \(n)³ = \(n * n * n) table lines") }
                values += try numbers(words[...], count: 3, "a table line").map { Float($0) }
            }
        }
        lineNumber = 0
        guard let n = dimension else { throw fail("no LUT_3D_SIZE line") }
        guard values.count == n * n * n * 3 else {
            throw fail("LUT_3D_SIZE \(n) needs \(n * n * n) table lines, found \(values.count / 3)")
        }
        self.title = title
        self.dimension = n
        self.rgb = values
    }

    /// Reads and parses a `.cube` file.
    public init(contentsOfFile path: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CodecError(.io, "cannot read the cube file: \(error.localizedDescription)", path: path)
        }
        do {
            try self.init(text: String(decoding: data, as: UTF8.self))
        } catch let error as CodecError {
            throw error.at(path: path)
        }
    }

    /// The table as Core Image's `inputCubeData` floats: RGBA with alpha 1 (premultiplied trivially).
    public var rgbaFloats: [Float] {
        var out = [Float](repeating: 1, count: rgb.count / 3 * 4)
        for texel in 0..<(rgb.count / 3) {
            out[texel * 4] = rgb[texel * 3]
            out[texel * 4 + 1] = rgb[texel * 3 + 1]
            out[texel * 4 + 2] = rgb[texel * 3 + 2]
        }
        return out
    }
}
