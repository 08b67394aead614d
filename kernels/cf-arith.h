/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the arithmetic both backends share, compiled by gcc for the CPU
 * backend and by nvcc for the kernels.  Rounding, saturation and border mapping
 * are defined here once, so the two backends produce identical bytes.
 *
 * Floating-point steps use explicitly rounded operations (fmaf, sqrtf, rintf
 * on the host; their _rn intrinsics on the device) so no compiler may contract
 * or reorder them differently on the two sides. */
#ifndef CF_ARITH_H
#define CF_ARITH_H

#include "cf-types.h"

#ifdef __CUDACC__
#define CF_HD __host__ __device__ __forceinline__
#else
#include <math.h>
#define CF_HD static inline
#endif

#ifdef __CUDA_ARCH__
#define CF_FMA(a, b, c) __fmaf_rn ((a), (b), (c))
#define CF_MUL(a, b) __fmul_rn ((a), (b))
#define CF_SQRT(a) __fsqrt_rn (a)
#define CF_LL2F(a) __ll2float_rn (a)
#else
#define CF_FMA(a, b, c) fmaf ((a), (b), (c))
#define CF_MUL(a, b) ((float) (a) * (float) (b))
#define CF_SQRT(a) sqrtf (a)
#define CF_LL2F(a) ((float) (a))
#endif

/* Maps a coordinate outside [0, n) into it; -1 means "use the border value".
 * Works for any i, also when the frame is smaller than the kernel radius:
 * reflections repeat, as OpenCV's borderInterpolate does. */
CF_HD int
cf_border_index (int i, int n, int border)
{
  int p;

  if (i >= 0 && i < n)
    return i;

  switch (border) {
    case CF_BORDER_CONSTANT:
      return -1;
    case CF_BORDER_REPLICATE:
      return i < 0 ? 0 : n - 1;
    case CF_BORDER_REFLECT:
      p = 2 * n;
      i %= p;
      if (i < 0)
        i += p;
      return i < n ? i : p - 1 - i;
    case CF_BORDER_WRAP:
      i %= n;
      return i < 0 ? i + n : i;
    case CF_BORDER_REFLECT101:
    default:
      if (n == 1)
        return 0;
      p = 2 * n - 2;
      i %= p;
      if (i < 0)
        i += p;
      return i < n ? i : p - i;
  }
}

CF_HD int
cf_clamp_int (long long v, int maxval)
{
  return v < 0 ? 0 : (v > maxval ? maxval : (int) v);
}

/* A rounded float to a saturated sample. */
CF_HD int
cf_saturate_float (float v, int maxval)
{
  if (!(v > 0.0f))
    return 0;
  if (v >= (float) maxval)
    return maxval;
  return (int) v;
}

/* CF_OP_LINEAR: fixed point with `shift` fractional bits; bias carries the
 * offset and the rounding half, so the shift rounds half up. */
CF_HD int
cf_post_linear (long long acc, int shift, long long bias, int maxval)
{
  return cf_clamp_int ((acc + bias) >> shift, maxval);
}

/* CF_OP_ABS: as OpenCV's convertScaleAbs of a CV_16S derivative for 8-bit
 * samples; 16-bit samples skip the 16S clamp.  `acc` is the exact sum as a
 * float (kernels that sum in float call this directly). */
CF_HD int
cf_post_abs_f (float acc, float scale, float offset, int maxval)
{
  float v = rintf (CF_FMA (acc, scale, offset));

  if (maxval == 255) {
    if (v > 32767.0f)
      v = 32767.0f;
    if (v < -32768.0f)
      v = -32768.0f;
  }
  return cf_saturate_float (fabsf (v), maxval);
}

CF_HD int
cf_post_abs (long long acc, float scale, float offset, int maxval)
{
  return cf_post_abs_f (CF_LL2F (acc), scale, offset, maxval);
}

/* CF_OP_MAGNITUDE: gradient magnitude of two unscaled derivatives, given
 * as floats. */
CF_HD int
cf_post_magnitude_f (float fx, float fy, float scale, float offset,
    int maxval)
{
  float m = CF_SQRT (CF_FMA (fx, fx, CF_MUL (fy, fy)));

  return cf_saturate_float (rintf (CF_FMA (m, scale, offset)), maxval);
}

CF_HD int
cf_post_magnitude (long long gx, long long gy, float scale, float offset,
    int maxval)
{
  return cf_post_magnitude_f (CF_LL2F (gx), CF_LL2F (gy), scale, offset,
      maxval);
}

/* CF_OP_SHARPEN: unsharp mask from the source sample and its blurred value. */
CF_HD int
cf_post_sharpen (int src, int blurred, float amount, int maxval)
{
  float d = (float) (src - blurred);

  return cf_saturate_float (rintf (CF_FMA (amount, d, (float) src)), maxval);
}

/* The output sample for accumulated sums acc0 (and acc1 for magnitude), given
 * the source sample at the same position (used by sharpen). */
CF_HD int
cf_post (const CfKernelParams * p, long long acc0, long long acc1, int src)
{
  switch (p->op) {
    case CF_OP_ABS:
      return cf_post_abs (acc0, p->scale, p->offset, p->maxval);
    case CF_OP_MAGNITUDE:
      return cf_post_magnitude (acc0, acc1, p->scale, p->offset, p->maxval);
    case CF_OP_SHARPEN:
      return cf_post_sharpen (src, cf_post_linear (acc0, p->shift, p->bias,
              p->maxval), p->amount, p->maxval);
    case CF_OP_LINEAR:
    default:
      return cf_post_linear (acc0, p->shift, p->bias, p->maxval);
  }
}

#endif /* CF_ARITH_H */
