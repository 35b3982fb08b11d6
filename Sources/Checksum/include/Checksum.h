#ifndef FRK_CHECKSUM_H
#define FRK_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

// CRC-32C (Castagnoli) with the processor's own instruction: SSE 4.2 `crc32` on x86-64,
// the ARMv8 CRC extension's `crc32c` on arm64. The store's Swift code keeps the portable
// table-driven version and calls these only when `frk_crc32c_hardware_available()` says
// the running processor has the instruction; both give bit-identical results.

/// Whether the running processor computes CRC-32C in hardware (asks the processor on each
/// call: callers check once and keep the answer).
///
/// - Returns: 1 when `frk_crc32c_hardware_update` may be called, 0 otherwise.
int frk_crc32c_hardware_available(void);

/// Extends a CRC-32C with more bytes, in hardware.
///
/// The same contract as the Swift `CRC32C.update`: `crc` is the checksum of the bytes so far
/// (0 for none), the result the checksum of those bytes followed by `bytes`. Call only when
/// `frk_crc32c_hardware_available()` returns 1; `bytes` may be unaligned, and `NULL` when
/// `count` is 0.
///
/// Complexity: O(`count`), eight bytes per instruction; on x86-64, buffers of 768 bytes or
/// more in three interleaved streams (about three times as fast), joined by table look-ups
/// (tables of 8 KiB made on the first such call).
uint32_t frk_crc32c_hardware_update(uint32_t crc, const void *bytes, size_t count);

#endif
