#ifndef CRC32_FOLDING_H
#define CRC32_FOLDING_H

#include <stddef.h>
#include <stdint.h>

/// Whether `crc32_folding_fold` runs on this processor (x86-64 with PCLMULQDQ and SSE4.1).
int crc32_folding_available(void);

/// Folds `length` bytes into a CRC-32 register (zlib's polynomial, reflected; the register as
/// the table loop keeps it, before the final inversion) with carry-less multiplication.
///
/// `length` must be a multiple of 16 and at least 64. Returns `crc` unchanged where folding is
/// not available.
uint32_t crc32_folding_fold(const uint8_t *bytes, size_t length, uint32_t crc);

#endif
