import Foundation

/// A 3D colour lookup table in the Adobe/Resolve `.cube` text format: `LUT_3D_SIZE N` and then
/// `N³` lines of `R G B`, red varying fastest, then green, then blue (the order of Core Image's
/// `inputCubeData`). `TITLE`, `DOMAIN_MIN 0 0 0`, `DOMAIN_MAX 1 1 1`, `LUT_3D_INPUT_RANGE 0 1` and
/// `#` comments are accepted; other domains and 1D tables are refused with the line that says so.
public struct CubeLUT: Sendable, Equatable {
    /// The `TITLE` line, when the file has one.
    public let title: String?
    /// Texels per side, 2…256.
    public let dimension: Int
    /// `dimension³ · 3` values, R G B per texel.
    public let rgb: [Float]

    /// The largest `LUT_3D_SIZE` accepted (256³ entries).
    public static let dimensionLimit = 256

    /// Parses `.cube` text; errors name the line.
    public init(text: String) throws {
        try self.init(bytes: Array(text.utf8))
    }

    /// Parses `.cube` bytes (UTF-8 or ASCII) line by line; numbers are read by `strtod` in place,
    /// since a 65³ table has 274,625 lines.
    public init(bytes: [UInt8]) throws {
        var title: String?
        var dimension: Int?
        var values: [Float] = []
        var lineNumber = 0
        func fail(_ message: String) -> CodecError {
            CodecError(.corrupt, message, segment: lineNumber == 0 ? nil : "line \(lineNumber)")
        }
        var text = bytes
        text.append(0)  // strtod stops at the terminator at worst
        try text.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let end = buffer.count - 1
            var start = 0
            while start < end {
                lineNumber += 1
                var stop = start
                while stop < end, buffer[stop] != 0x0A, buffer[stop] != 0x0D { stop += 1 }
                defer {
                    start = stop
                    if start < end, buffer[start] == 0x0D { start += 1 }
                    if start < end, buffer[start] == 0x0A { start += 1 }
                }
                // The line without its comment, as byte offsets.
                var lineEnd = start
                while lineEnd < stop, buffer[lineEnd] != UInt8(ascii: "#") { lineEnd += 1 }
                func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
                var first = start
                while first < lineEnd, isSpace(buffer[first]) { first += 1 }
                guard first < lineEnd else { continue }
                /// Reads `count` numbers from `offset` to the line's end (nothing else allowed).
                func numbers(from offset: Int, count: Int, _ what: String) throws -> [Double] {
                    var cursor = offset
                    var parsed: [Double] = []
                    for _ in 0..<count {
                        while cursor < lineEnd, isSpace(buffer[cursor]) { cursor += 1 }
                        guard cursor < lineEnd else { throw fail("\(what) needs \(count) number\(count == 1 ? "" : "s")") }
                        var next: UnsafeMutablePointer<CChar>?
                        let value = base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { chars in
                            strtod(chars + cursor, &next)
                        }
                        let consumed = next.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? cursor
                        guard consumed > cursor, consumed <= lineEnd, value.isFinite,
                              consumed == lineEnd || isSpace(buffer[consumed]) else {
                            throw fail("\(what) needs \(count) number\(count == 1 ? "" : "s")")
                        }
                        parsed.append(value)
                        cursor = consumed
                    }
                    while cursor < lineEnd, isSpace(buffer[cursor]) { cursor += 1 }
                    guard cursor == lineEnd else { throw fail("\(what) needs \(count) number\(count == 1 ? "" : "s")") }
                    return parsed
                }
                let head = buffer[first]
                if (head >= UInt8(ascii: "0") && head <= UInt8(ascii: "9")) || head == UInt8(ascii: "-")
                    || head == UInt8(ascii: "+") || head == UInt8(ascii: ".") {
                    guard let n = dimension else { throw fail("table values before LUT_3D_SIZE") }
                    guard values.count < n * n * n * 3 else { throw fail("more than \(n)³ = \(n * n * n) table lines") }
                    for v in try numbers(from: first, count: 3, "a table line") { values.append(Float(v)) }
                    continue
                }
                var keywordEnd = first
                while keywordEnd < lineEnd, !isSpace(buffer[keywordEnd]) { keywordEnd += 1 }
                let keyword = String(decoding: buffer[first..<keywordEnd], as: UTF8.self)
                switch keyword {
                case "TITLE":
                    let rest = String(decoding: buffer[keywordEnd..<lineEnd], as: UTF8.self)
                    title = String(rest.drop { $0 != "\"" }.dropFirst().prefix { $0 != "\"" })
                case "LUT_3D_SIZE":
                    guard dimension == nil else { throw fail("LUT_3D_SIZE given twice") }
                    let n = try numbers(from: keywordEnd, count: 1, "LUT_3D_SIZE")[0]
                    guard n == n.rounded(), n >= 2, n <= Double(Self.dimensionLimit) else {
                        throw fail("LUT_3D_SIZE must be a whole number from 2 to \(Self.dimensionLimit), got \(n)")
                    }
                    dimension = Int(n)
                    values.reserveCapacity(Int(n * n * n) * 3)
                case "LUT_1D_SIZE":
                    throw fail("1D tables (LUT_1D_SIZE) are not supported; a colour cube needs LUT_3D_SIZE")
                case "DOMAIN_MIN", "DOMAIN_MAX":
                    let expected: Double = keyword == "DOMAIN_MIN" ? 0 : 1
                    guard try numbers(from: keywordEnd, count: 3, keyword).allSatisfy({ $0 == expected }) else {
                        throw fail("only the domain 0…1 is supported (\(keyword) \(Int(expected)) \(Int(expected)) \(Int(expected)))")
                    }
                case "LUT_3D_INPUT_RANGE":
                    guard try numbers(from: keywordEnd, count: 2, keyword) == [0, 1] else {
                        throw fail("only the input range 0 1 is supported")
                    }
                default:
                    throw fail("unknown keyword \"\(FileText.escaped(buffer[first..<min(keywordEnd, first + 40)]))\"")
                }
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
            try self.init(bytes: [UInt8](data))
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
