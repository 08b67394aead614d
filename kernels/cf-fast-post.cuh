/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the output op of the fast 8-bit kernels (internal to
 * kernels/, CUDA only): cf-arith.h's steps with the sums given as exact
 * numbers, for any argument struct with the op fields of CfFastArgs. */
#ifndef CF_FAST_POST_CUH
#define CF_FAST_POST_CUH

#include "cf-arith.h"

namespace cf_fast
{

/* Both are exact: a float sum here is an integer below 2^24, and
 * int -> float rounds as cf-arith's long long -> float does. */
__device__ __forceinline__ int
to_int (float v)
{
  return __float2int_rn (v);
}

__device__ __forceinline__ int
to_int (int v)
{
  return v;
}

__device__ __forceinline__ float
to_float (float v)
{
  return v;
}

__device__ __forceinline__ float
to_float (int v)
{
  return __int2float_rn (v);
}

/* The sums fit int32 as the spec is !wide_acc; gain restores the common
 * factor taken out of the taps. */
template < class P > __device__ __forceinline__ int
post_linear (const P & a, int acc)
{
  /* cf_clamp_int in int: a long long compare costs four instructions */
  return min (max ((acc * a.gain + a.bias) >> a.shift, 0), a.maxval);
}

/* OP is the spec's op when the launch fixed it (the common ones), or
 * OP_ANY to read it at run time: a switch per sample otherwise costs more
 * than the arithmetic of a small kernel.  OP_MAGNITUDE_U8 is CF_OP_MAGNITUDE
 * with scale 1 and offset 0 into 8-bit samples (Sobel's and Scharr's
 * defaults), for launches that checked those; OP_ABS_UNIT is CF_OP_ABS
 * with scale 1 and offset 0 on integer sums into 8-bit samples (one
 * derivative, the Laplacian): min (|sum|, maxval), what the float path
 * gives (it rounds only sums far above maxval), without the round trip. */
constexpr int OP_ANY = -1;
constexpr int OP_MAGNITUDE_U8 = -2;
constexpr int OP_ABS_UNIT = -3;

/* saturate(rint(sqrt(n))) for the float n = gx^2 + gy^2 that
 * cf_post_magnitude_f computes, without its correctly rounded square root:
 * - n >= 65281 gives 256 or more before saturation: 255 (the clamp);
 * - below, n is an exact integer (< 2^24) and sqrt(n) lies at least
 *   0.25 / 512 from a half-integer (n is never (k + 1/2)^2 = k^2 + k + 1/4),
 *   while the approximate root is within a few ulp (2^-15 each) of the true
 *   one, so both round to the same integer (tests/gpu/test-magnitude checks
 *   every n).
 * Rounding by adding 1.5 * 2^23 is rint's half-to-even on the FMA pipe. */
__device__ __forceinline__ int
magnitude_u8_of (float n)
{
  float r;

  asm ("sqrt.approx.ftz.f32 %0, %1;":"=f" (r):"f" (fminf (n, 65281.0f)));
  return min (__float_as_int (__fadd_rn (r, 12582912.0f)) - 0x4B400000, 255);
}

__device__ __forceinline__ int
magnitude_u8 (float fx, float fy)
{
  return magnitude_u8_of (__fmaf_rn (fx, fx, __fmul_rn (fy, fy)));
}

template < int OP, typename A, class P > __device__ __forceinline__ int
post (const P & a, A acc0, A acc1, int centre)
{
  switch (OP == OP_ANY ? a.op : OP) {
    case CF_OP_ABS:
      return cf_post_abs_f (to_float (acc0), a.scale, a.offset, a.maxval);
    case CF_OP_MAGNITUDE:
      return cf_post_magnitude_f (to_float (acc0), to_float (acc1), a.scale,
          a.offset, a.maxval);
    case OP_ABS_UNIT:
      return min (abs (to_int (acc0)), a.maxval);
    case OP_MAGNITUDE_U8:
      return magnitude_u8 (to_float (acc0), to_float (acc1));
    case CF_OP_SHARPEN:
      return cf_post_sharpen (centre, post_linear (a, to_int (acc0)),
          a.amount, a.maxval);
    case CF_OP_LINEAR:
    default:
      return post_linear (a, to_int (acc0));
  }
}

}                               /* namespace cf_fast */

#endif /* CF_FAST_POST_CUH */
