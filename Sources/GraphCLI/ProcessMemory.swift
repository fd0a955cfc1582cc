import CProcessMemory

/// The `graph` process's allocator policy.
enum ProcessMemory {
    /// Allocations of 1 MiB and more (image planes, work-unit scratch, decoded photos) are mapped
    /// on their own and go back to the system when freed. glibc otherwise raises that threshold
    /// after the first such buffer is freed (up to 32 MiB), so later buffers stay in its heap once
    /// freed: CIDepthBlurEffect on the 12 MP portrait peaked 18 MiB higher (199 against 181 MiB).
    static func returnFreedBuffersToTheSystem() {
        _ = graph_map_allocations_from(1 << 20)
    }
}
