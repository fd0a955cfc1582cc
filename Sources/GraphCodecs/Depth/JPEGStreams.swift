/// Finding complete JPEG streams inside a file: where one ends, and the auxiliary images an
/// iPhone appends after the primary image (depth-formats.md 1.2, 1.6).
public enum JPEGStreams {
    /// One JPEG stream embedded after the primary image.
    public struct Embedded: Sendable, Equatable {
        /// Its bytes in the file: SOI up to and including EOI (to the end of the file when the
        /// stream has no EOI; see `complete`).
        public var range: Range<Int>
        /// Its MP entry number (2, 3, ...) when the MPF index names it.
        public var mpfImage: Int?
        /// Found by scanning after the primary's EOI because the MPF offset did not point at
        /// an SOI (generic editors leave stale offsets).
        public var foundByScan: Bool
        /// False when the stream ends before its EOI.
        public var complete: Bool
    }

    /// The offset just past the EOI of the JPEG stream whose SOI is at `start`, or nil when the
    /// stream is not a JPEG there or ends first. Walks the marker segments and skips
    /// entropy-coded data (stuffed `FF 00`, restart markers and fill bytes), so `FF D9` inside
    /// an APPn payload (an EXIF thumbnail) is never taken for the end.
    public static func endOfStream(_ bytes: [UInt8], from start: Int) -> Int? {
        walk(bytes, from: start).end
    }

    /// The walk behind ``endOfStream(_:from:)``: the end past the EOI, or nil with the offset
    /// where the stream stopped being a JPEG stream (the first byte not read as part of it: an
    /// inner SOI, a broken segment, the end of the data).
    static func walk(_ bytes: [UInt8], from start: Int) -> (end: Int?, stop: Int) {
        guard start >= 0, start + 2 <= bytes.count, bytes[start] == 0xFF, bytes[start + 1] == 0xD8 else {
            return (nil, max(0, min(start, bytes.count)))
        }
        return bytes.withUnsafeBufferPointer { data -> (end: Int?, stop: Int) in
            let count = data.count
            var position = start + 2
            var inScan = false
            while position < count {
                if inScan {
                    // Entropy-coded data: look for the next FF that starts a real marker.
                    guard let found = firstFF(data, from: position) else { return (nil, count) }
                    guard found + 1 < count else { return (nil, count) }
                    let next = data[found + 1]
                    if next == 0x00 || (0xD0...0xD7).contains(next) || next == 0xFF {
                        position = found + (next == 0xFF ? 1 : 2)
                        continue
                    }
                    inScan = false
                    position = found
                    continue
                }
                guard data[position] == 0xFF else { return (nil, position) }
                var markerAt = position
                while markerAt + 1 < count, data[markerAt + 1] == 0xFF { markerAt += 1 }
                guard markerAt + 1 < count else { return (nil, count) }
                let marker = data[markerAt + 1]
                if marker == 0xD8 || marker == 0x00 { return (nil, markerAt) }
                let segment = position
                position = markerAt + 2
                if marker == 0xD9 { return (position, position) }
                if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
                guard position + 2 <= count else { return (nil, segment) }
                let length = Int(data[position]) << 8 | Int(data[position + 1])
                guard length >= 2, position + length <= count else { return (nil, segment) }
                position += length
                if marker == 0xDA { inScan = true }
            }
            return (nil, count)
        }
    }

    private static func firstFF(_ data: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = start
        let count = data.count
        while i < count {
            if data[i] == 0xFF { return i }
            i += 1
        }
        return nil
    }

    /// The JPEG streams after the primary image that the MPF `entries` name (entry 1 is the
    /// primary). Each offset must land on `FF D8 FF`; the stream is read to its EOI (entry sizes
    /// are not trusted). When an offset does not land on an SOI, the streams after the primary's
    /// EOI are found by scanning and matched to the stale entries in order. An offset inside a
    /// stream already found (by offset order) names no image of its own and is skipped: streams
    /// never overlap, so the file is walked at most once however many entries it lists. Problems
    /// become `warnings` naming the MP entry.
    public static func auxiliaryImages(in bytes: [UInt8], entries: [MPFEntry], warnings: inout [String]) -> [Embedded] {
        let auxiliary = entries.filter { $0.index > 0 }
        guard !auxiliary.isEmpty else { return [] }
        var found: [Embedded?] = Array(repeating: nil, count: auxiliary.count)
        var stale: [Int] = []  // positions in `found` to fill by scanning
        var walked: (end: Int, image: Int)?  // where the last stream read (in offset order) stopped
        for index in auxiliary.indices.sorted(by: { (auxiliary[$0].absoluteOffset, $0) < (auxiliary[$1].absoluteOffset, $1) }) {
            let entry = auxiliary[index]
            let at = entry.absoluteOffset
            guard at > 0, at + 3 <= bytes.count, bytes[at] == 0xFF, bytes[at + 1] == 0xD8, bytes[at + 2] == 0xFF else {
                let place = at <= 0 || at >= bytes.count ? "outside the file (\(bytes.count) bytes)" : "not at a JPEG SOI"
                warnings.append("MPF image \(entry.index + 1): offset \(at) is \(place)")
                stale.append(index)
                continue
            }
            if let walked, at < walked.end {
                warnings.append("MPF image \(entry.index + 1): offset \(at) lies inside MPF image \(walked.image)'s stream; image skipped")
                continue
            }
            let walk = walk(bytes, from: at)
            if walk.end == nil {
                warnings.append("MPF image \(entry.index + 1) at offset \(at): the JPEG stream ends before its EOI (truncated)")
            }
            found[index] = Embedded(range: at..<(walk.end ?? bytes.count), mpfImage: entry.index + 1, foundByScan: false,
                                    complete: walk.end != nil)
            walked = (max(walk.end ?? walk.stop, at + 2), entry.index + 1)
        }
        if !stale.isEmpty {
            let scanned = scanAfterPrimary(bytes)
            let known = Set(found.compactMap { $0?.range.lowerBound })
            var candidates = scanned.filter { !known.contains($0.range.lowerBound) }.makeIterator()
            for index in stale.sorted() {
                let number = auxiliary[index].index + 1
                guard var stream = candidates.next() else {
                    warnings.append("MPF image \(number): no JPEG stream found after the primary image either; image skipped")
                    continue
                }
                stream.mpfImage = number
                warnings.append("MPF image \(number): found by scanning at offset \(stream.range.lowerBound) (stale MPF offsets)")
                found[index] = stream
            }
        }
        return found.compactMap { $0 }
    }

    /// Every JPEG stream that starts after the primary image's EOI (scanning for `FF D8 FF`).
    static func scanAfterPrimary(_ bytes: [UInt8]) -> [Embedded] {
        guard var position = endOfStream(bytes, from: 0) else { return [] }
        var streams: [Embedded] = []
        while position + 3 <= bytes.count {
            guard let soi = findSOI(bytes, from: position) else { break }
            let end = endOfStream(bytes, from: soi)
            streams.append(Embedded(range: soi..<(end ?? bytes.count), mpfImage: nil, foundByScan: true, complete: end != nil))
            guard let end else { break }
            position = end
        }
        return streams
    }

    private static func findSOI(_ bytes: [UInt8], from start: Int) -> Int? {
        var i = start
        while i + 3 <= bytes.count {
            if bytes[i] == 0xFF, bytes[i + 1] == 0xD8, bytes[i + 2] == 0xFF { return i }
            i += 1
        }
        return nil
    }
}
