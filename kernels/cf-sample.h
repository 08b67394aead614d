/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: how a sample value is read from and written to its word in
 * memory (CfChannel: word_bytes, depth, shift, shared_word), for every
 * backend: compiled by gcc for the CPU and by nvcc for the kernels.  Filters
 * see sample values at the channel's depth (0..1023 for 10 bits); the word
 * positions and unused bits are handled here and nowhere else. */
#ifndef CF_SAMPLE_H
#define CF_SAMPLE_H

#include <stdint.h>
#include "cf-types.h"

#ifdef __CUDACC__
#define CF_SAMPLE_HD __host__ __device__ __forceinline__
#else
#define CF_SAMPLE_HD static inline
#endif

/* The largest value of a channel (its depth's all-ones). */
CF_SAMPLE_HD unsigned
cf_sample_mask (const CfChannel * ch)
{
  return ch->depth >= 32 ? 0xFFFFFFFFu : (1u << ch->depth) - 1u;
}

CF_SAMPLE_HD unsigned
cf_sample_load_word (const unsigned char *p, int word_bytes)
{
  /* Words are naturally aligned in every supported layout (GstVideoInfo
   * aligns rows to 4 bytes; device pitches are larger). */
  if (word_bytes == 1)
    return p[0];
  if (word_bytes == 2)
    return *(const uint16_t *) p;
  return *(const uint32_t *) p;
}

/* The value of the sample at p. */
CF_SAMPLE_HD int
cf_sample_read (const unsigned char *p, const CfChannel * ch)
{
  return (int) ((cf_sample_load_word (p, ch->word_bytes) >> ch->shift) &
      cf_sample_mask (ch));
}

/* Stores value v (already saturated to the channel's depth) at p: the
 * whole word when the channel owns it (MSB-aligned values with their low
 * bits zero), else only the channel's bits of a 4-byte word.  On the GPU
 * the channels of a shared word run in different threads, so their bits
 * are changed with atomics, which no other channel's update can undo; on
 * the CPU it is a plain read-modify-write, so threads that split a frame
 * must keep the channels of one shared word (RGB10A2's four) together. */
CF_SAMPLE_HD void
cf_sample_write (unsigned char *p, const CfChannel * ch, int v)
{
  const unsigned bits = ((unsigned) v & cf_sample_mask (ch)) << ch->shift;

  if (ch->shared_word) {
    const unsigned keep = ~(cf_sample_mask (ch) << ch->shift);
#ifdef __CUDA_ARCH__
    atomicAnd ((unsigned *) p, keep);
    atomicOr ((unsigned *) p, bits);
#else
    *(uint32_t *) p = (*(uint32_t *) p & keep) | bits;
#endif
    return;
  }
  if (ch->word_bytes == 1)
    p[0] = (unsigned char) bits;
  else if (ch->word_bytes == 2)
    *(uint16_t *) p = (uint16_t) bits;
  else
    *(uint32_t *) p = bits;
}

/* Whether a channel holds plain samples of `bytes` bytes (whole words, no
 * shift): what kernels that load words directly can take. */
CF_SAMPLE_HD int
cf_sample_is_plain (const CfChannel * ch, int bytes)
{
  return ch->word_bytes == bytes && ch->depth == 8 * bytes && ch->shift == 0
      && !ch->shared_word;
}

#endif /* CF_SAMPLE_H */
