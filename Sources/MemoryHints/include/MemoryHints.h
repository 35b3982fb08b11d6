#ifndef FRK_MEMORY_HINTS_H
#define FRK_MEMORY_HINTS_H

#include <stdint.h>

// Memory hints for the library's fast paths: the one place its code asks the processor for
// cache lines ahead of use. A hint changes no program state and never faults, whatever the
// address, so the only invariant a caller upholds is that a wrong hint costs time, not
// correctness: an address may be stale or even invalid, as long as it is never dereferenced
// on the strength of the hint.

/// The cache line size the prefetch loops step by, in bytes.
///
/// 64 bytes is the line of every x86-64 processor and of the common ARM64 cores; Apple's
/// M-series cores use 128-byte lines, where stepping by 64 asks for each line twice (a
/// wasted hint, never a missed one). A compile-time constant, so loops over a node or a
/// range unroll; the C library's `sysconf(_SC_LEVEL1_DCACHE_LINESIZE)` would cost a call
/// and is not available on every platform.
#define FRK_CACHE_LINE_SIZE 64

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

/// Asks for every cache line of `byte_count` bytes starting at `address`, for a read: one
/// `frk_prefetch` per `FRK_CACHE_LINE_SIZE` bytes, plus the line the range ends in.
///
/// A hint only, like `frk_prefetch`: the range need not be valid memory.
static inline __attribute__((always_inline)) void frk_prefetch_lines(const void *address, long byte_count) {
    // Stepped as integers, so a range that is not memory computes no out-of-bounds pointer.
    if (byte_count <= 0) {
        return;
    }
    uintptr_t start = (uintptr_t)address;
    uintptr_t last = start + (uintptr_t)(byte_count - 1);
    for (long step = 0; step < byte_count; step += FRK_CACHE_LINE_SIZE) {
        frk_prefetch((const void *)(start + (uintptr_t)step));
    }
    frk_prefetch((const void *)last);
}

#endif
