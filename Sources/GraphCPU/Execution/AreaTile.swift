/// What an ``AreaOperation`` sees for one work unit: its inputs as Float32 planes over the
/// rectangles it asked for, the output rectangle to fill, and per-worker scratch memory.
///
/// Coordinates are working-space pixels (y up); row 0 of every plane is its bottom row.
package struct AreaTile {
    package let inputs: [AreaPlanes]
    package let output: AreaOutput
    /// 3 when alpha is known to be 1 (compute R, G, B only), 4 otherwise.
    package let channels: Int
    package let scratch: AreaScratch
}

/// One input of an area pass: `channelCount` Float32 planes over an integral rectangle, rows
/// `width` floats apart.
///
/// Public, with the rest of its API package, so that ``row(_:_:)`` and ``pointer(_:x:y:)`` inline
/// into the passes of other modules (Kernels) that call them per pixel: the compiler inlines a
/// public `@inlinable` method across modules, not a package one.
public struct AreaPlanes {
    @usableFromInline package let x: Int, y: Int, width: Int, height: Int
    package let channelCount: Int
    @usableFromInline let base: UnsafeMutablePointer<Float>
    /// Red, green and blue 8-bit codes as Int16 planes (``planeStride`` apart, rows `width` apart)
    /// when the pass asked for them (``AreaOperation/readsCodes(input:)``) and the input has them;
    /// nil otherwise. When present, the Float32 planes are not loaded.
    package var codes: UnsafeMutablePointer<Int16>? = nil

    /// Floats from one channel plane to the next.
    package var planeStride: Int { width * height }

    /// The first pixel of row `row` (0 = bottom row, `y`) of channel `channel`.
    @inlinable @inline(__always)
    public func row(_ channel: Int, _ row: Int) -> UnsafeMutablePointer<Float> {
        base + channel * width * height + row * width
    }

    /// The pixel at working-space position (`px`, `py`) of channel `channel` (inside the rectangle).
    @inlinable @inline(__always)
    public func pointer(_ channel: Int, x px: Int, y py: Int) -> UnsafeMutablePointer<Float> {
        base + channel * width * height + (py - y) * width + (px - x)
    }
}

/// The output rectangle of an area pass; rows are stored one channel at a time.
package struct AreaOutput {
    package let x: Int, y: Int, width: Int, height: Int
    let planes: PlaneSet
    /// Where the pass writes its codes instead of `planes`, when it writes codes
    /// (``AreaOperation/writesCodes``) and the render asked for them.
    package var codes: CodeRows? = nil

    /// Stores `width` values as row `row` (0 = bottom row, `y`) of channel `channel`.
    @inline(__always)
    package func store(channel: Int, row: Int, from values: UnsafePointer<Float>) {
        planes.write(channel: channel, row: row + y - planes.rect.y, column: x - planes.rect.x, count: width, from: values)
    }
}

/// Per-worker buffers that grow and are never shrunk, so passes allocate nothing per tile.
package final class AreaScratch: @unchecked Sendable {
    private var floatSlots = RawSlots()
    private var integerSlots = RawSlots()
    private var int32Slots = RawSlots()

    init() {}

    deinit { release() }

    /// The bytes of every buffer handed out so far.
    var heldBytes: Int { floatSlots.bytes + integerSlots.bytes + int32Slots.bytes }

    /// Frees every buffer (passes get new ones on demand).
    func release() {
        floatSlots.release()
        integerSlots.release()
        int32Slots.release()
    }

    /// Float32 buffer number `slot`, holding at least `count` values (contents undefined). A pass
    /// numbers its buffers from 0; different slots never overlap.
    package func floats(_ slot: Int, count: Int) -> UnsafeMutablePointer<Float> {
        floatSlots.buffer(slot, bytes: count * MemoryLayout<Float>.stride).bindMemory(to: Float.self, capacity: count)
    }

    /// Integer buffer number `slot` (tap positions, counts), at least `count` long; its own slots.
    package func integers(_ slot: Int, count: Int) -> UnsafeMutablePointer<Int> {
        integerSlots.buffer(slot, bytes: count * MemoryLayout<Int>.stride).bindMemory(to: Int.self, capacity: count)
    }

    /// Int32 buffer number `slot` (indices for C row kernels), at least `count` long; its own slots.
    package func int32s(_ slot: Int, count: Int) -> UnsafeMutablePointer<Int32> {
        int32Slots.buffer(slot, bytes: count * MemoryLayout<Int32>.stride).bindMemory(to: Int32.self, capacity: count)
    }
}

/// Growable raw buffers by slot number (64-byte aligned).
private struct RawSlots {
    private var buffers: [UnsafeMutableRawPointer] = []
    private var capacities: [Int] = []

    mutating func buffer(_ slot: Int, bytes: Int) -> UnsafeMutableRawPointer {
        while buffers.count <= slot {
            buffers.append(.allocate(byteCount: 64, alignment: 64))
            capacities.append(64)
        }
        if capacities[slot] < bytes {
            buffers[slot].deallocate()
            buffers[slot] = .allocate(byteCount: bytes, alignment: 64)
            capacities[slot] = bytes
        }
        return buffers[slot]
    }

    /// The bytes of every slot's buffer.
    var bytes: Int { capacities.reduce(0, +) }

    /// Frees every buffer (the slots are allocated again on demand).
    mutating func release() {
        for buffer in buffers { buffer.deallocate() }
        buffers = []
        capacities = []
    }
}
