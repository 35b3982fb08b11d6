#ifndef FRK_MEMORY_HINTS_H
#define FRK_MEMORY_HINTS_H

/// Asks the processor to start fetching the cache line that holds `address`, for a read.
///
/// A hint only: it never faults, whatever the address, and changes no program state. Asking
/// for several independent lines before reading them lets their cache misses overlap instead
/// of waiting for one another.
static inline __attribute__((always_inline)) void frk_prefetch(const void *address) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(address, 0, 3);
#else
    (void)address;
#endif
}

#endif
