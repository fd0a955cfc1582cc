// codec-bench: in-process codec timings.
//
//   codec-bench t0 INPUT.jpg OUTPUT.jpg [--sequential | --memory] [--band-rows N] [--bands N] [--repeat N]
//
// T0 of bench/peers: read the file, decode, re-encode q90 4:2:0 baseline without Huffman
// optimisation (islow DCT, JFIF, no metadata: the same bytes as `djpeg -dct int | cjpeg
// -quality 90 -sample 2x2 -dct int`), write atomically (temporary file, fsync, rename).
// Default: JPEGTranscoder.transcode(_:toFile:), decode and encode overlapped on two threads
// with the output streamed into the temporary file as it is encoded; --memory: the same
// pipeline into memory, then ImageFile.writeAtomically; --sequential: JPEGCodec.decode then
// JPEGCodec.encode then ImageFile.writeAtomically (one thread).
// Prints the in-process wall time of each repetition.
import GraphCodecs

#if canImport(Glibc)
import Glibc
#endif

func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}

/// Seconds with 4 decimals (no Foundation).
func seconds(_ value: Double) -> String {
    let tenths = Int((value * 10000).rounded())
    let fraction = String(tenths % 10000)
    return "\(tenths / 10000)." + String(repeating: "0", count: 4 - fraction.count) + fraction
}

func fail(_ message: String) -> Never {
    let text = Array("codec-bench: \(message)\n".utf8)
    _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

let usage = "usage: codec-bench t0 INPUT.jpg OUTPUT.jpg [--sequential | --memory] [--band-rows N] [--bands N] [--repeat N]"
var args = Array(CommandLine.arguments.dropFirst())
guard args.count >= 3, args[0] == "t0" else { fail(usage) }
let input = args[1], output = args[2]
var sequential = false, memory = false, bandRows = 32, bands = 4, repeats = 1
var i = 3
while i < args.count {
    switch args[i] {
    case "--sequential": sequential = true
    case "--memory": memory = true
    case "--band-rows", "--bands", "--repeat":
        guard i + 1 < args.count, let value = Int(args[i + 1]), value > 0 else { fail(usage) }
        if args[i] == "--band-rows" { bandRows = value } else if args[i] == "--bands" { bands = value } else { repeats = value }
        i += 1
    default: fail(usage)
    }
    i += 1
}

do {
    for _ in 0..<repeats {
        let start = now()
        let bytes = try ImageFile.read(path: input)
        let read = now()
        let mode: String
        var size = 0
        if sequential || memory {
            let encoded: [UInt8]
            if sequential {
                mode = "sequential"
                let image = try JPEGCodec.decode(bytes, options: DecodeOptions(applyOrientation: false))
                encoded = try JPEGCodec.encode(
                    width: image.width, height: image.height, channels: image.channels, bytes: image.bytes,
                    quality: 90, subsampling: .s420, progressive: false, optimizeHuffman: false)
            } else {
                mode = "pipelined to memory \(bands)x\(bandRows) rows"
                encoded = try JPEGTranscoder.transcode(
                    bytes, quality: 90, subsampling: .s420, progressive: false, optimizeHuffman: false,
                    metadata: .none, bandRows: bandRows, bandCount: bands)
            }
            try ImageFile.writeAtomically(encoded, to: output)
            size = encoded.count
        } else {
            mode = "pipelined to file \(bands)x\(bandRows) rows"
            size = try JPEGTranscoder.transcode(
                bytes, toFile: output, quality: 90, subsampling: .s420, progressive: false, optimizeHuffman: false,
                metadata: .none, bandRows: bandRows, bandCount: bands)
        }
        let end = now()
        print("t0 \(mode): \(seconds(end - start)) s (read \(seconds(read - start))), \(bytes.count) -> \(size) bytes")
    }
} catch {
    fail("\(error)")
}
