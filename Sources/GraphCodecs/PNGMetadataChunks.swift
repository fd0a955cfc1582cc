/// The PNG metadata chunks that the libpng encoder shim does not take (it sets only iCCP):
/// eXIf and the XMP iTXt chunk, built here and spliced into libpng's output before the image
/// data, where libpng itself would write them.
extension PNGCodec {
    /// Keyword of the iTXt chunk that holds an XMP packet (XMP spec part 3, PNG).
    static let xmpKeyword = "XML:com.adobe.xmp"

    /// The eXIf chunk for `exif` and the iTXt chunk for `xmp` (either may be nil), complete
    /// with length and CRC. The EXIF loses its "Exif\0\0" prefix (eXIf holds the bare TIFF
    /// structure) and must start with a TIFF header; the XMP is stored uncompressed, as Adobe
    /// and exiftool write it, and must not contain NUL (readers stop there).
    static func metadataChunks(exif: [UInt8]?, xmp: String?) throws(CodecError) -> [UInt8] {
        var chunks: [UInt8] = []
        if let exif {
            let tiff = exif.hasBytePrefix(EXIF.jpegPrefix) ? Array(exif[EXIF.jpegPrefix.count...]) : exif
            guard tiff.hasBytePrefix([0x49, 0x49, 0x2A, 0x00]) || tiff.hasBytePrefix([0x4D, 0x4D, 0x00, 0x2A]) else {
                throw CodecError(.invalidArgument, "EXIF data does not start with a TIFF header (\"II*\\0\" or \"MM\\0*\")", format: .png, segment: "eXIf")
            }
            chunks += try chunk("eXIf", tiff)
        }
        if let xmp {
            let text = Array(xmp.utf8)
            if let nul = text.firstIndex(of: 0) {
                throw CodecError(.invalidArgument, "XMP packet has a NUL byte at offset \(nul); iTXt text cannot hold one", format: .png, segment: "iTXt \(xmpKeyword)")
            }
            // Keyword, NUL, compression flag 0 and method 0, then an empty language tag and an
            // empty translated keyword, each NUL-terminated.
            chunks += try chunk("iTXt", Array(xmpKeyword.utf8) + [0, 0, 0, 0, 0] + text)
        }
        return chunks
    }

    /// One chunk: data length, type, data, CRC of type and data.
    private static func chunk(_ type: String, _ data: [UInt8]) throws(CodecError) -> [UInt8] {
        guard data.count <= Int(Int32.max) else {
            throw CodecError(.invalidArgument, "\(data.count) bytes do not fit one PNG chunk (at most 2^31 - 1)", format: .png, segment: type)
        }
        let typeAndData = Array(type.utf8) + data
        var out: [UInt8] = []
        out.appendBE32(data.count)
        out += typeAndData
        out.appendBE32(Int(CRC32.checksum(typeAndData)))
        return out
    }

    /// `png` (as libpng wrote it) with `chunks` inserted before its first IDAT chunk.
    static func inserting(_ chunks: [UInt8], beforeImageDataOf png: [UInt8]) throws(CodecError) -> [UInt8] {
        let reader = ByteReader(png)
        var position = signature.count
        while let length = reader.u32(position).map(Int.init), let type = reader.fourCC(position + 4) {
            if type == "IDAT" {
                var out = png
                out.insert(contentsOf: chunks, at: position)
                return out
            }
            position += 12 + length
        }
        throw CodecError(.corrupt, "libpng's output has no IDAT chunk to put the metadata before", format: .png)
    }
}
