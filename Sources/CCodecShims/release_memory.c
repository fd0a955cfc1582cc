/* ccs_release_free_memory: hands freed heap memory back to the system between pieces of work. */
#include "CCodecShims.h"
#if defined(__GLIBC__)
#include <malloc.h>
#endif

int ccs_release_free_memory(void) {
#if defined(__GLIBC__)
    /* Since glibc 2.8 this releases the free pages of every arena (madvise), not only the top. */
    return malloc_trim(0);
#else
    return 0;
#endif
}
