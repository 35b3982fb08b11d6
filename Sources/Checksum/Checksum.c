#include "Checksum.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#include <cpuid.h>
#include <nmmintrin.h>

int frk_crc32c_hardware_available(void) {
    unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) {
        return 0;
    }
    return (ecx & bit_SSE4_2) != 0 ? 1 : 0;
}

__attribute__((target("sse4.2")))
uint32_t frk_crc32c_hardware_update(uint32_t crc, const void *bytes, size_t count) {
    const unsigned char *pointer = (const unsigned char *)bytes;
    uint64_t state = (uint32_t)~crc;
    // Single bytes until the pointer is 8-byte aligned, then words, then the tail.
    while (count > 0 && ((uintptr_t)pointer & 7) != 0) {
        state = _mm_crc32_u8((uint32_t)state, *pointer);
        pointer += 1;
        count -= 1;
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
