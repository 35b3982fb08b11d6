#include "heap_stats.h"
#if defined(__linux__)
#include <malloc.h>
#endif
// <malloc.h> pulls in <features.h>, which defines __GLIBC__; test it only after the include.
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
size_t frk_allocated_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
#else
size_t frk_allocated_bytes(void) { return 0; }
#endif
#if defined(__GLIBC__)
void frk_release_free_memory(void) { malloc_trim(0); }
#else
void frk_release_free_memory(void) {}
#endif
