#ifndef FRK_HEAP_STATS_H
#define FRK_HEAP_STATS_H
#include <stddef.h>

/// Bytes currently allocated from the C heap (glibc's mallinfo2), or 0 where unknown.
size_t frk_allocated_bytes(void);

#endif
