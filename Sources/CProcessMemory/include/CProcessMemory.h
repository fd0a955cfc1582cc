#ifndef GRAPH_CPROCESSMEMORY_H
#define GRAPH_CPROCESSMEMORY_H

/// Makes the C allocator map every allocation of `bytes` or more on its own, so it goes back to the
/// system when freed (glibc's M_MMAP_THRESHOLD, which also stops glibc raising that threshold after
/// such a buffer is freed). Returns 1 when set, 0 where the allocator has no such setting.
int graph_map_allocations_from(int bytes);

#endif
