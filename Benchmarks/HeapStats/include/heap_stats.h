#ifndef FRK_HEAP_STATS_H
#define FRK_HEAP_STATS_H
#include <stddef.h>

/// Bytes currently allocated from the C heap (glibc's mallinfo2), or 0 where unknown.
size_t frk_allocated_bytes(void);
/// Returns the heap's free memory to the system (glibc's malloc_trim), where supported, so
/// the next allocation starts from the same state whichever code ran before it.
void frk_release_free_memory(void);

#endif
