import CHalf

/// Conversions between stored samples and Float32, shared by sources, sinks and intermediates.
@usableFromInline package enum PixelIO {
    /// Float to 8-bit unorm: clamp to 0...1 (NaN to 0), scale by 255, round to nearest even.
    ///
    /// Branch-free so the store loops vectorise: adding 1.5·2²³ leaves the rounded integer in the
    /// low mantissa bits.
    @inlinable @inline(__always)
    package static func unorm8(_ value: Float) -> UInt8 {
        let scaled = value * 255
        let low: Float = scaled > 0 ? scaled : 0
        let clamped: Float = low < 255 ? low : 255
        return UInt8(truncatingIfNeeded: (clamped + 12_582_912).bitPattern)
    }

    /// Float to 16-bit unorm, the same way.
    @inlinable @inline(__always)
    package static func unorm16(_ value: Float) -> UInt16 {
        let scaled = value * 65535
        let low: Float = scaled > 0 ? scaled : 0
        let clamped: Float = low < 65535 ? low : 65535
        return UInt16(truncatingIfNeeded: (clamped + 12_582_912).bitPattern)
    }

    /// Reads sample `index` of the pixel at `base` as Float32 (integers normalised to 0...1).
    @inlinable @inline(__always)
    @usableFromInline static func readSample(_ base: UnsafeRawPointer, index: Int, component: ComponentType) -> Float {
        switch component {
        case .uint8: return Float(base.load(fromByteOffset: index, as: UInt8.self)) * (1 / 255)
        case .uint16: return Float(base.load(fromByteOffset: index * 2, as: UInt16.self)) * (1 / 65535)
        case .float16:
            var bits = base.loadUnaligned(fromByteOffset: index * 2, as: UInt16.self)
            var value: Float = 0
            graph_half_to_float(&bits, &value, 1)
            return value
        case .float32: return base.loadUnaligned(fromByteOffset: index * 4, as: Float.self)
        }
    }

    /// Reads one pixel of an interleaved buffer as premultiplied RGBA, decoding a transfer function
    /// first when given its 8-bit table (on unpremultiplied colour).
    @inlinable @inline(__always)
    package static func readPixel(_ base: UnsafeRawPointer, format: PixelFormat, alpha: AlphaMode, decodeTable: [Float]? = nil)
        -> (Float, Float, Float, Float)
    {
        let component = format.component
        var r: Float, g: Float, b: Float, a: Float
        switch format.channels {
        case 1:
            r = readSample(base, index: 0, component: component); g = r; b = r; a = 1
        case 2:
            r = readSample(base, index: 0, component: component); g = r; b = r
            a = readSample(base, index: 1, component: component)
        case 3:
            r = readSample(base, index: 0, component: component)
            g = readSample(base, index: 1, component: component)
            b = readSample(base, index: 2, component: component)
            a = 1
        default:
            r = readSample(base, index: 0, component: component)
            g = readSample(base, index: 1, component: component)
            b = readSample(base, index: 2, component: component)
            a = readSample(base, index: 3, component: component)
        }
        if let decodeTable, decodeTable.count == 256, component == .uint8 {
            func decoded(_ v: Float) -> Float { decodeTable[Int((v * 255).rounded())] }
            r = decoded(r); g = decoded(g); b = decoded(b)
        }
        if format == .bgra8 { swap(&r, &b) }
        if alpha == .straight { r *= a; g *= a; b *= a } else if alpha == .opaque { a = 1 }
        return (r, g, b, a)
    }
}
