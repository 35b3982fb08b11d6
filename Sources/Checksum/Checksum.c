#include "Checksum.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#include <cpuid.h>
#include <nmmintrin.h>
#include <pthread.h>

int frk_crc32c_hardware_available(void) {
    unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) {
        return 0;
    }
    return (ecx & bit_SSE4_2) != 0 ? 1 : 0;
}

// Three streams at once. The instruction takes three cycles and can start every cycle,
// so one stream waits on itself: long buffers are cut into three blocks whose checksums
// are computed together (the second and third from a zero register), then joined by
// shifting each partial checksum over the bytes that follow it, as a CRC of that many zero
// bytes would (the operator that does it is linear: four table look-ups). Mark Adler's
// crc32c.c computes CRC-32C the same way.

/// Bytes per block of the long and of the short three-block steps (powers of two, as
/// `frk_zeros_operator` requires).
#define FRK_CRC_LONG 8192
#define FRK_CRC_SHORT 256

/// The operators that shift a checksum register over `FRK_CRC_LONG` and `FRK_CRC_SHORT`
/// zero bytes, one table per byte of the register; filled once, by `frk_crc_tables_init`.
static uint32_t frk_crc_long_shift[4][256];
static uint32_t frk_crc_short_shift[4][256];
static pthread_once_t frk_crc_tables_once = PTHREAD_ONCE_INIT;

/// A 32 x 32 matrix over GF(2) (one column per word) times a vector.
static uint32_t frk_gf2_times(const uint32_t *matrix, uint32_t vector) {
    uint32_t sum = 0;
    while (vector != 0) {
        if (vector & 1) {
            sum ^= *matrix;
        }
        vector >>= 1;
        matrix += 1;
    }
    return sum;
}

/// `square` = `matrix` squared.
static void frk_gf2_square(uint32_t *square, const uint32_t *matrix) {
    for (int column = 0; column < 32; column++) {
        square[column] = frk_gf2_times(matrix, matrix[column]);
    }
}

/// The operator that moves a CRC-32C register over `length` zero bytes (a power of two).
static void frk_zeros_operator(uint32_t *even, size_t length) {
    // One zero bit in `odd`: the register shifts right, the low bit folds in the polynomial.
    uint32_t odd[32];
    odd[0] = 0x82F63B78;
    uint32_t row = 1;
    for (int column = 1; column < 32; column++) {
        odd[column] = row;
        row <<= 1;
    }
    frk_gf2_square(even, odd);  // two zero bits
    frk_gf2_square(odd, even);  // four zero bits
    // Each square doubles the bits: the first makes one zero byte, in `even`.
    for (;;) {
        frk_gf2_square(even, odd);
        length >>= 1;
        if (length == 0) {
            return;
        }
        frk_gf2_square(odd, even);
        length >>= 1;
        if (length == 0) {
            break;
        }
    }
    for (int column = 0; column < 32; column++) {
        even[column] = odd[column];
    }
}

/// The four tables of the operator that moves a register over `length` zero bytes.
static void frk_shift_tables(uint32_t tables[4][256], size_t length) {
    uint32_t shift[32];
    frk_zeros_operator(shift, length);
    for (uint32_t byte = 0; byte < 256; byte++) {
        tables[0][byte] = frk_gf2_times(shift, byte);
        tables[1][byte] = frk_gf2_times(shift, byte << 8);
        tables[2][byte] = frk_gf2_times(shift, byte << 16);
        tables[3][byte] = frk_gf2_times(shift, byte << 24);
    }
}

static void frk_crc_tables_init(void) {
    frk_shift_tables(frk_crc_long_shift, FRK_CRC_LONG);
    frk_shift_tables(frk_crc_short_shift, FRK_CRC_SHORT);
}

/// The register `state` moved over the zero bytes whose operator `tables` holds.
static inline uint64_t frk_crc_shift(const uint32_t tables[4][256], uint64_t state) {
    return tables[0][state & 0xFF] ^ tables[1][(state >> 8) & 0xFF] ^ tables[2][(state >> 16) & 0xFF]
        ^ tables[3][(state >> 24) & 0xFF];
}

/// Three blocks of `block` bytes each, from `pointer` (8-byte aligned), into `state`.
__attribute__((target("sse4.2"), always_inline))
static inline uint64_t frk_crc_three_blocks(uint64_t state, const unsigned char *pointer, size_t block,
                                            const uint32_t tables[4][256]) {
    uint64_t second = 0;
    uint64_t third = 0;
    const unsigned char *end = pointer + block;
    while (pointer < end) {
        uint64_t words[3];
        memcpy(&words[0], pointer, 8);
        memcpy(&words[1], pointer + block, 8);
        memcpy(&words[2], pointer + 2 * block, 8);
        state = _mm_crc32_u64(state, words[0]);
        second = _mm_crc32_u64(second, words[1]);
        third = _mm_crc32_u64(third, words[2]);
        pointer += 8;
    }
    state = frk_crc_shift(tables, state) ^ second;
    return frk_crc_shift(tables, state) ^ third;
}

__attribute__((target("sse4.2")))
uint32_t frk_crc32c_hardware_update(uint32_t crc, const void *bytes, size_t count) {
    const unsigned char *pointer = (const unsigned char *)bytes;
    uint64_t state = (uint32_t)~crc;
    // Single bytes until the pointer is 8-byte aligned, then three streams while three
    // blocks remain, then words, then the tail.
    while (count > 0 && ((uintptr_t)pointer & 7) != 0) {
        state = _mm_crc32_u8((uint32_t)state, *pointer);
        pointer += 1;
        count -= 1;
    }
    if (count >= 3 * FRK_CRC_SHORT) {
        pthread_once(&frk_crc_tables_once, frk_crc_tables_init);
        while (count >= 3 * FRK_CRC_LONG) {
            state = frk_crc_three_blocks(state, pointer, FRK_CRC_LONG, frk_crc_long_shift);
            pointer += 3 * FRK_CRC_LONG;
            count -= 3 * FRK_CRC_LONG;
        }
        while (count >= 3 * FRK_CRC_SHORT) {
            state = frk_crc_three_blocks(state, pointer, FRK_CRC_SHORT, frk_crc_short_shift);
            pointer += 3 * FRK_CRC_SHORT;
            count -= 3 * FRK_CRC_SHORT;
        }
    }
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, pointer, 8);
        state = _mm_crc32_u64(state, word);
        pointer += 8;
        count -= 8;
    }
    while (count > 0) {
        state = _mm_crc32_u8((uint32_t)state, *pointer);
        pointer += 1;
        count -= 1;
    }
    return ~(uint32_t)state;
}

#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))

#include <arm_acle.h>
#if defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_CRC32
#define HWCAP_CRC32 (1 << 7)
#endif
#endif

int frk_crc32c_hardware_available(void) {
#if defined(__APPLE__)
    // Every arm64 Apple processor has the CRC extension.
    return 1;
#elif defined(__linux__)
    return (getauxval(AT_HWCAP) & HWCAP_CRC32) != 0 ? 1 : 0;
#else
    return 0;
#endif
}

__attribute__((target("crc")))
uint32_t frk_crc32c_hardware_update(uint32_t crc, const void *bytes, size_t count) {
    const unsigned char *pointer = (const unsigned char *)bytes;
    uint32_t state = ~crc;
    while (count > 0 && ((uintptr_t)pointer & 7) != 0) {
        state = __crc32cb(state, *pointer);
        pointer += 1;
        count -= 1;
    }
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, pointer, 8);
        state = __crc32cd(state, word);
        pointer += 8;
        count -= 8;
    }
    while (count > 0) {
        state = __crc32cb(state, *pointer);
        pointer += 1;
        count -= 1;
    }
    return ~state;
}

#else

int frk_crc32c_hardware_available(void) {
    return 0;
}

uint32_t frk_crc32c_hardware_update(uint32_t crc, const void *bytes, size_t count) {
    // Never called: the Swift side checks `frk_crc32c_hardware_available()` first.
    (void)bytes;
    (void)count;
    return crc;
}

#endif
