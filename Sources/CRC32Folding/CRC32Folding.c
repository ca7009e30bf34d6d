// CRC-32 by folding with carry-less multiplication (PCLMULQDQ), after "Fast CRC Computation for
// Generic Polynomials Using PCLMULQDQ Instruction" (Gopal, Ozturk et al., Intel, 2009), with the
// bit-reflected constants of zlib's polynomial given at the end of that paper.
//
// Written in C because Swift has no carry-less multiply, which folds many bytes per instruction
// where the table loop in CRC32.swift handles one. Archives are checksummed whole on every
// preserve and every restore.

#include "CRC32Folding.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))

#include <immintrin.h>

int crc32_folding_available(void) {
  __builtin_cpu_init();
  return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
}

__attribute__((target("pclmul,sse4.1")))
uint32_t crc32_folding_fold(const uint8_t *bytes, size_t length, uint32_t crc) {
  static const uint64_t k1k2[2] __attribute__((aligned(16))) = {0x0154442bd4, 0x01c6e41596};
  static const uint64_t k3k4[2] __attribute__((aligned(16))) = {0x01751997d0, 0x00ccaa009e};
  static const uint64_t k5k0[2] __attribute__((aligned(16))) = {0x0163cd6124, 0x0000000000};
  static const uint64_t poly[2] __attribute__((aligned(16))) = {0x01db710641, 0x01f7011641};

  __m128i x0, x1, x2, x3, x4, x5, x6, x7, x8, y5, y6, y7, y8;

  x1 = _mm_loadu_si128((const __m128i *)(bytes + 0x00));
  x2 = _mm_loadu_si128((const __m128i *)(bytes + 0x10));
  x3 = _mm_loadu_si128((const __m128i *)(bytes + 0x20));
  x4 = _mm_loadu_si128((const __m128i *)(bytes + 0x30));
  x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
  x0 = _mm_load_si128((const __m128i *)k1k2);
  bytes += 64;
  length -= 64;

  // Four lanes of 16 bytes, each folded 64 bytes ahead.
  while (length >= 64) {
    x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
    x6 = _mm_clmulepi64_si128(x2, x0, 0x00);
    x7 = _mm_clmulepi64_si128(x3, x0, 0x00);
    x8 = _mm_clmulepi64_si128(x4, x0, 0x00);
    x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
    x2 = _mm_clmulepi64_si128(x2, x0, 0x11);
    x3 = _mm_clmulepi64_si128(x3, x0, 0x11);
    x4 = _mm_clmulepi64_si128(x4, x0, 0x11);
    y5 = _mm_loadu_si128((const __m128i *)(bytes + 0x00));
    y6 = _mm_loadu_si128((const __m128i *)(bytes + 0x10));
    y7 = _mm_loadu_si128((const __m128i *)(bytes + 0x20));
    y8 = _mm_loadu_si128((const __m128i *)(bytes + 0x30));
    x1 = _mm_xor_si128(_mm_xor_si128(x1, x5), y5);
    x2 = _mm_xor_si128(_mm_xor_si128(x2, x6), y6);
    x3 = _mm_xor_si128(_mm_xor_si128(x3, x7), y7);
    x4 = _mm_xor_si128(_mm_xor_si128(x4, x8), y8);
    bytes += 64;
    length -= 64;
  }

  // The four lanes into one.
  x0 = _mm_load_si128((const __m128i *)k3k4);
  x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
  x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
  x1 = _mm_xor_si128(_mm_xor_si128(x1, x2), x5);
  x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
  x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
  x1 = _mm_xor_si128(_mm_xor_si128(x1, x3), x5);
  x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
  x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
  x1 = _mm_xor_si128(_mm_xor_si128(x1, x4), x5);

  // The remaining blocks of 16 bytes.
  while (length >= 16) {
    x2 = _mm_loadu_si128((const __m128i *)bytes);
    x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
    x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
    x1 = _mm_xor_si128(_mm_xor_si128(x1, x2), x5);
    bytes += 16;
    length -= 16;
  }

  // 128 bits to 64.
  x2 = _mm_clmulepi64_si128(x1, x0, 0x10);
  x3 = _mm_setr_epi32(~0, 0, ~0, 0);
  x1 = _mm_srli_si128(x1, 8);
  x1 = _mm_xor_si128(x1, x2);
  x0 = _mm_loadl_epi64((const __m128i *)k5k0);
  x2 = _mm_srli_si128(x1, 4);
  x1 = _mm_and_si128(x1, x3);
  x1 = _mm_clmulepi64_si128(x1, x0, 0x00);
  x1 = _mm_xor_si128(x1, x2);

  // Barrett reduction to 32 bits.
  x0 = _mm_load_si128((const __m128i *)poly);
  x2 = _mm_and_si128(x1, x3);
  x2 = _mm_clmulepi64_si128(x2, x0, 0x10);
  x2 = _mm_and_si128(x2, x3);
  x2 = _mm_clmulepi64_si128(x2, x0, 0x00);
  x1 = _mm_xor_si128(x1, x2);
  return (uint32_t)_mm_extract_epi32(x1, 1);
}

#else

int crc32_folding_available(void) { return 0; }

uint32_t crc32_folding_fold(const uint8_t *bytes, size_t length, uint32_t crc) {
  (void)bytes;
  (void)length;
  return crc;
}

#endif
