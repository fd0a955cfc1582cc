/// What an ``AreaOperation`` sees for one work unit: its inputs as Float32 planes over the
/// rectangles it asked for, the output rectangle to fill, and per-worker scratch memory.
///
/// Coordinates are working-space pixels (y up); row 0 of every plane is its bottom row.
public struct AreaTile {
    public let inputs: [AreaPlanes]
    public let output: AreaOutput
    /// 3 when alpha is known to be 1 (compute R, G, B only), 4 otherwise.
    public let channels: Int
    public let scratch: AreaScratch
}

/// One input of an area pass: `channelCount` Float32 planes over an integral rectangle, rows
/// `width` floats apart.
public struct AreaPlanes {
    public let x: Int, y: Int, width: Int, height: Int
    public let channelCount: Int
    let base: UnsafeMutablePointer<Float>

    /// Floats from one channel plane to the next.
    public var planeStride: Int { width * height }

    /// The first pixel of row `row` (0 = bottom row, `y`) of channel `channel`.
    @inline(__always)
    public func row(_ channel: Int, _ row: Int) -> UnsafeMutablePointer<Float> {
        base + channel * width * height + row * width
    }

    /// The pixel at working-space position (`px`, `py`) of channel `channel` (inside the rectangle).
    @inline(__always)
    public func pointer(_ channel: Int, x px: Int, y py: Int) -> UnsafeMutablePointer<Float> {
        base + channel * width * height + (py - y) * width + (px - x)
    }
}

/// The output rectangle of an area pass; rows are stored one channel at a time.
public struct AreaOutput {
    public let x: Int, y: Int, width: Int, height: Int
    let planes: PlaneSet

    /// Stores `width` values as row `row` (0 = bottom row, `y`) of channel `channel`.
    @inline(__always)
    public func store(channel: Int, row: Int, from values: UnsafePointer<Float>) {
        planes.write(channel: channel, row: row + y - planes.rect.y, column: x - planes.rect.x, count: width, from: values)
    }
}

/// Per-worker Float32 buffers that grow and are never shrunk, so passes allocate nothing per tile.
public final class AreaScratch: @unchecked Sendable {
    private var buffers: [UnsafeMutablePointer<Float>] = []
    private var capacities: [Int] = []
    private var integerBuffers: [UnsafeMutablePointer<Int>] = []
    private var integerCapacities: [Int] = []

    init() {}

    deinit {
        for buffer in buffers { buffer.deallocate() }
        for buffer in integerBuffers { buffer.deallocate() }
    }

    /// Integer buffer number `slot` (tap positions, counts), at least `count` long; its own slots.
    public func integers(_ slot: Int, count: Int) -> UnsafeMutablePointer<Int> {
        while integerBuffers.count <= slot {
            integerBuffers.append(.allocate(capacity: 1))
            integerCapacities.append(1)
        }
        if integerCapacities[slot] < count {
            integerBuffers[slot].deallocate()
            integerBuffers[slot] = .allocate(capacity: count)
            integerCapacities[slot] = count
        }
        return integerBuffers[slot]
    }

    /// Buffer number `slot`, holding at least `count` floats (contents undefined). A pass numbers
    /// its buffers from 0; different slots never overlap.
    public func floats(_ slot: Int, count: Int) -> UnsafeMutablePointer<Float> {
        while buffers.count <= slot {
            buffers.append(.allocate(capacity: 1))
            capacities.append(1)
        }
        if capacities[slot] < count {
            buffers[slot].deallocate()
            buffers[slot] = .allocate(capacity: count)
            capacities[slot] = count
        }
        return buffers[slot]
    }
}
