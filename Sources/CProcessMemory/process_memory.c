// The allocator setting of a process that renders images (see CProcessMemory.h).
#include "CProcessMemory.h"

#if __has_include(<malloc.h>)
#include <malloc.h>
#endif

int graph_map_allocations_from(int bytes) {
#ifdef M_MMAP_THRESHOLD
    return mallopt(M_MMAP_THRESHOLD, bytes) == 1 ? 1 : 0;
#else
    (void)bytes;
    return 0;
#endif
}
