/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the direct kernel for 16-bit words, 3x3 filters read
 * straight from global memory on planes of 1, 2 or 4 words a pixel
 * (GRAY16, P010's luma and chroma pairs, RGBA64 with its alpha copied).
 *
 * The four-word kernel (cf-wide-quad.cu) stages a tile in shared memory
 * and, for dense matrices, reads each tile row once for every row of taps;
 * for a 3x3 window that staging is most of its work (4K GRAY16 custom 3x3
 * 36.9 us against NPP's 18.4, bench/README.md).  Here, as in the byte
 * kernel (cf-fast-direct.cu), a thread filters 8 neighbouring words of a
 * row (one 16-byte load, and 8 bytes either side) for 2 rows, all its
 * rows' loads issued before the first sum, and adds each input row into
 * every output row it reaches; neighbouring threads' rows meet in L1.
 *
 * The sums are the CPU backend's exact integers:
 *  - DENSE: 9 taps (the dense matrix, or the products of separable taps
 *    when the spec bounds every sum by 2^31), int32 sums;
 *  - SEP: separable taps whose sums pass 32 bits (16-bit box and Gaussian
 *    taps carry 16 to 30 fractional bits): int32 row sums, int64 column
 *    sums (a 32 x 32 -> 64-bit multiply-add a tap).
 * The op is the CPU's linear one, or the absolute value at scale 1 and
 * offset 0 (min (|sum|, maxval), what the float op gives). */
#include <stdint.h>
#include <utility>
#include <cuda_runtime.h>

#include "cf-arith.h"
#include "cf-fast-post.cuh"
#include "cf-wide.h"

namespace
{

constexpr int WD_TX = 32;       /* threads along a row */
constexpr int WD_TY = 4;
constexpr int WD_THREADS = WD_TX * WD_TY;
/* Output rows a thread: 2 measured faster than 1 at 4K (GRAY16 box 3x3
 * 23.4 against 25.3 us, RGBA64 65.6 against 78.2), 1 faster by about
 * 1 us up to 720p; 4 slower on all but RGBA64's absolute values. */
constexpr int WD_M = 2;
constexpr int WD_NX = 8;        /* output words a thread: 16 bytes */
constexpr int WD_ROWS = WD_M + 2;       /* input rows a thread */
/* A row's registers: words x0 - 4 .. x0 + 11, two a register. */
constexpr int WD_REGS = (WD_NX + 8) / 2;

constexpr int SUM_DENSE = 0;
constexpr int SUM_SEP = 1;
/* CF_OP_ABS at scale 1 and offset 0 on exact integer sums, as the byte
 * kernels name it. */
using cf_fast::OP_ABS_UNIT;

/* Word k (-4 .. 11, from the thread's first) of a row, decoded. */
template < int K > __device__ __forceinline__ int
sample (const unsigned (&r)[WD_REGS], int shift, unsigned mask)
{
  constexpr int q = K + 4;
  return (int) ((r[q >> 1] >> (16 * (q & 1) + shift)) & mask);
}

/* Word wi of a row outside the fast path: its pixel mapped by the border,
 * its lane kept; row NULL (a row the constant border replaces) or a pixel
 * outside gives the border value as a raw word (the plan has checked that
 * it fits the sample's bits). */
__device__ __noinline__ unsigned
edge_word (const unsigned char *row, int wi, const CfWideJob & jb,
    int border, unsigned raw)
{
  const int lg = jb.log2_step;
  const int X = cf_border_index (wi >> lg, jb.width >> lg, border);

  return row != nullptr && X >= 0 ?
      __ldg ((const unsigned short *) row + ((X << lg) | (wi & ((1 << lg) -
                  1)))) : raw;
}

/* Words x0 - 4 .. x0 + 11 of a row.  vec: plane and stride are 16-byte
 * aligned, so whole loads inside the row are taken as such. */
__device__ __forceinline__ void
load_row (unsigned (&r)[WD_REGS], const unsigned char *row, int x0,
    const CfWideJob & jb, int border, unsigned raw, bool vec)
{
  const int w = jb.width;

  if (row == nullptr) {
#pragma unroll
    for (int i = 0; i < WD_REGS; i++)
      r[i] = raw * 0x10001u;
    return;
  }
  const unsigned short *p = (const unsigned short *) row + x0;
  if (vec && x0 >= 4) {
    const uint2 v = __ldg ((const uint2 *) (p - 4));
    r[0] = v.x;
    r[1] = v.y;
  } else {
    r[0] = edge_word (row, x0 - 4, jb, border, raw) |
        edge_word (row, x0 - 3, jb, border, raw) << 16;
    r[1] = edge_word (row, x0 - 2, jb, border, raw) |
        edge_word (row, x0 - 1, jb, border, raw) << 16;
  }
  if (vec && x0 + 8 <= w) {
    const uint4 v = __ldg ((const uint4 *) p);
    r[2] = v.x;
    r[3] = v.y;
    r[4] = v.z;
    r[5] = v.w;
  } else {
#pragma unroll
    for (int i = 0; i < 4; i++)
      r[2 + i] = edge_word (row, x0 + 2 * i, jb, border, raw) |
          edge_word (row, x0 + 2 * i + 1, jb, border, raw) << 16;
  }
  if (vec && x0 + 12 <= w) {
    const uint2 v = __ldg ((const uint2 *) (p + 8));
    r[6] = v.x;
    r[7] = v.y;
  } else {
    r[6] = edge_word (row, x0 + 8, jb, border, raw) |
        edge_word (row, x0 + 9, jb, border, raw) << 16;
    r[7] = edge_word (row, x0 + 10, jb, border, raw) |
        edge_word (row, x0 + 11, jb, border, raw) << 16;
  }
}

/* The sums of one input row: tap row t (0 .. 2) of the 3 x 3 applied to
 * words i - S, i, i + S of output word i. */
template < int S, int I > __device__ __forceinline__ int
row_dot (const unsigned (&r)[WD_REGS], const int (&t)[3], int shift,
    unsigned mask)
{
  return t[0] * sample < I - S > (r, shift, mask) +
      t[1] * sample < I > (r, shift, mask) +
      t[2] * sample < I + S > (r, shift, mask);
}

/* The thread's output words, as constants of row_dot. */
using WordIndex = std::make_integer_sequence < int, WD_NX >;

/* One input row's sums for every output word of the thread, added into
 * d (ADD) or written there. */
template < int S, bool ADD, int... I > __device__ __forceinline__ void
row_dots (int (&d)[WD_NX], const unsigned (&r)[WD_REGS], const int (&t)[3],
    int shift, unsigned mask, std::integer_sequence < int, I... >)
{
  if constexpr (ADD)
    ((d[I] += row_dot < S, I > (r, t, shift, mask)), ...);
  else
    ((d[I] = row_dot < S, I > (r, t, shift, mask)), ...);
}

template < int SUM > struct Acc
{
  using type = int;
};
template <> struct Acc <SUM_SEP >
{
  using type = long long;
};

/* The CPU's op.  Linear: (acc + bias) >> shift in 64 bits, whose
 * quotient the plan has bounded to an int (DENSE: the spec's int32 bound
 * on acc + bias, halved by any shift; SEP: checked), then clamped in 32
 * bits (cf_post_linear's 64-bit clamp costs twice the instructions). */
template < int SUM, int OP > __device__ __forceinline__ unsigned
post (typename Acc < SUM >::type acc, const CfKernelParams & kp)
{
  if (OP == OP_ABS_UNIT)
    return (unsigned) min (abs ((int) acc), kp.maxval);
  const int q = (int) (((long long) acc + kp.bias) >> kp.shift);
  return (unsigned) min (max (q, 0), kp.maxval);
}

/* One thread's outputs; INSIDE: its rows and the words either side lie in
 * the plane (loaded before the first sum, as whole words); PLAIN: the
 * samples are the words (no shift, 16 bits), one instruction a sample to
 * decode instead of two. */
template < int S, int SUM, int OP, bool INSIDE, bool PLAIN >
    __device__ __forceinline__ void
filter_thread (const CfWideArgs & a, const CfWideJob & jb,
    const int (&taps)[3][3], int x0, int y0, bool vec)
{
  using AccT = typename Acc < SUM >::type;
  const CfKernelParams & kp = a.kp;
  const int shift = PLAIN ? 0 : jb.shift, h = jb.height;
  const unsigned mask = PLAIN ? 0xFFFFu : jb.mask;
  const unsigned raw = (unsigned) kp.border_value << shift;
  const long long ss = jb.ss;

  unsigned in[INSIDE ? WD_ROWS : 1][WD_REGS];
  if constexpr (INSIDE) {
    const unsigned char *p = jb.src + (y0 - 1) * ss + 2 * (long long) x0;
#pragma unroll
    for (int j = 0; j < WD_ROWS; j++, p += ss) {
      const uint2 l = __ldg ((const uint2 *) (p - 8));
      const uint4 m = __ldg ((const uint4 *) p);
      const uint2 r = __ldg ((const uint2 *) (p + 16));
      in[j][0] = l.x;
      in[j][1] = l.y;
      in[j][2] = m.x;
      in[j][3] = m.y;
      in[j][4] = m.z;
      in[j][5] = m.w;
      in[j][6] = r.x;
      in[j][7] = r.y;
    }
  }

  AccT acc[WD_M][WD_NX];
  unsigned centre[WD_M][WD_NX / 2];
#pragma unroll
  for (int n = 0; n < WD_M; n++)
#pragma unroll
    for (int i = 0; i < WD_NX; i++)
      acc[n][i] = 0;

#pragma unroll
  for (int j = 0; j < WD_ROWS; j++) {
    unsigned r[WD_REGS];

    if constexpr (INSIDE) {
#pragma unroll
      for (int i = 0; i < WD_REGS; i++)
        r[i] = in[j][i];
    } else {
      const int ry = cf_border_index (y0 - 1 + j, h, kp.border);
      load_row (r, ry >= 0 ? jb.src + ry * ss : nullptr, x0, jb, kp.border,
          raw, vec);
    }
    /* Output row j - 1's own words, for the lanes it copies. */
    if (j >= 1 && j - 1 < WD_M)
#pragma unroll
      for (int i = 0; i < WD_NX / 2; i++)
        centre[j - 1][i] = r[2 + i];

    if constexpr (SUM == SUM_SEP) {
      int hs[WD_NX];
      row_dots < S, false > (hs, r, taps[0], shift, mask, WordIndex ());
#pragma unroll
      for (int n = 0; n < WD_M; n++)
        if (j - n >= 0 && j - n < 3)
#pragma unroll
          for (int i = 0; i < WD_NX; i++)
            acc[n][i] += (long long) taps[1][j - n] * hs[i];
    } else {
#pragma unroll
      for (int n = 0; n < WD_M; n++)
        if (j - n >= 0 && j - n < 3)
          row_dots < S, true > (acc[n], r, taps[j - n], shift, mask,
              WordIndex ());
    }

    /* Output row j - 2 has all its rows. */
    const int n = j - 2;
    if (n < 0 || (!INSIDE && y0 + n >= h))
      continue;
    unsigned v[WD_NX];
#pragma unroll
    for (int i = 0; i < WD_NX; i++)
      v[i] = post < SUM, OP > (acc[n][i], kp);
    /* Lanes copied or filled (alpha, a plane not filtered): one branch a
     * lane and row, the same for the whole block. */
#pragma unroll
    for (int lane = 0; lane < S; lane++) {
      const int mode = jb.mode[lane];
      if (mode == CF_CHANNEL_FILTER)
        continue;
#pragma unroll
      for (int i = lane; i < WD_NX; i += S)
        v[i] = mode == CF_CHANNEL_COPY ?
            (centre[n][i / 2] >> (16 * (i & 1) + shift)) & mask :
            (unsigned) jb.fill[lane] & mask;
    }
    unsigned out[WD_NX / 2];
#pragma unroll
    for (int i = 0; i < WD_NX / 2; i++)
      out[i] = (v[2 * i] | v[2 * i + 1] << 16) << shift;

    unsigned char *dst = jb.dst + (y0 + n) * jb.ds + 2 * (long long) x0;
    if (INSIDE || (vec && x0 + WD_NX <= jb.width)) {
      *(uint4 *) dst = make_uint4 (out[0], out[1], out[2], out[3]);
    } else {
      for (int i = 0; i < WD_NX && x0 + i < jb.width; i++)
        ((unsigned short *) dst)[i] =
            (unsigned short) (out[i / 2] >> (16 * (i & 1)));
    }
  }
}

/* The edge threads decode every word the general way. */
template < int S, int SUM, int OP > __device__ __forceinline__ void
run_step (const CfWideArgs & a, const CfWideJob & jb, const int (&taps)[3][3],
    int x0, int y0, bool vec, bool inside, bool plain)
{
  if (inside && plain)
    filter_thread < S, SUM, OP, true, true > (a, jb, taps, x0, y0, vec);
  else if (inside)
    filter_thread < S, SUM, OP, true, false > (a, jb, taps, x0, y0, vec);
  else
    filter_thread < S, SUM, OP, false, false > (a, jb, taps, x0, y0, vec);
}

/* A block's job has one step, so a block runs one of the three. */
template < int SUM, int OP > __global__ void
__launch_bounds__ (WD_THREADS)
wide_direct_kernel (const __grid_constant__ CfWideArgs a)
{
  const CfWideJob & jb = a.job[blockIdx.z];
  const int w = jb.width, h = jb.height;
  const int x0 = (blockIdx.x * WD_TX + threadIdx.x % WD_TX) * WD_NX;
  const int y0 = (blockIdx.y * WD_TY + threadIdx.x / WD_TX) * WD_M;

  if (x0 >= w || y0 >= h)
    return;

  /* Taps [row][col]; SEP: the row taps in [0], the column taps in [1]. */
  int taps[3][3];
#pragma unroll
  for (int j = 0; j < 3; j++)
#pragma unroll
    for (int i = 0; i < 3; i++) {
      if (SUM == SUM_SEP)
        taps[j][i] = j == 0 ? a.sep.row[0][i] : j == 1 ? a.sep.col[0][i] : 0;
      else if (a.kp.separable)
        taps[j][i] = a.sep.row[0][i] * a.sep.col[0][j];
      else
        taps[j][i] = __ldg (a.dense + 3 * j + i);
    }

  const bool vec = a.vec_direct;
  const bool inside = vec && x0 >= 4 && x0 + WD_NX + 4 <= w && y0 >= 1 &&
      y0 + WD_M + 1 <= h;
  const bool plain = jb.shift == 0 && jb.mask == 0xFFFFu;
  switch (jb.log2_step) {
    case 0:
      run_step < 1, SUM, OP > (a, jb, taps, x0, y0, vec, inside, plain);
      break;
    case 1:
      run_step < 2, SUM, OP > (a, jb, taps, x0, y0, vec, inside, plain);
      break;
    default:
      run_step < 4, SUM, OP > (a, jb, taps, x0, y0, vec, inside, plain);
      break;
  }
}

}                               /* namespace */

cudaError_t
cf_wide_direct_plan (CfWidePlan * p, const CfKernelParams * kp,
    const CfSepWeights * sep, int max_w, int max_h)
{
  const dim3 grid ((max_w + WD_TX * WD_NX - 1) / (WD_TX * WD_NX),
      (max_h + WD_TY * WD_M - 1) / (WD_TY * WD_M), p->n_jobs);
  const dim3 block (WD_THREADS);

  if (kp->kw != 3 || kp->kh != 3 || kp->ax != 1 || kp->ay != 1
      || kp->n_kernels != 1 || !p->border_fits)
    return cudaErrorNotSupported;
  if (!kp->wide_acc && kp->op == CF_OP_LINEAR) {
    /* Every partial and final sum within int32 (the spec's bound). */
    cf_pick_kernel (p->pick, wide_direct_kernel < SUM_DENSE, CF_OP_LINEAR >,
        grid, block, 0);
  } else if (!kp->wide_acc && kp->op == CF_OP_ABS && kp->scale == 1.0f
      && kp->offset == 0.0f) {
    cf_pick_kernel (p->pick, wide_direct_kernel < SUM_DENSE, OP_ABS_UNIT >,
        grid, block, 0);
  } else if (kp->separable && kp->op == CF_OP_LINEAR) {
    /* Row sums in int32, column sums and the op in int64; the quotient
     * read as an int. */
    const double rows = cf_wide_abs_sum (sep->row[0], 3) * kp->maxval;
    const double all = rows * cf_wide_abs_sum (sep->col[0], 3) +
        fabs ((double) kp->bias);
    if (!(rows < 2147483647.0) || !(all < 4611686018427387904.0)
        || !(ldexp (all, -kp->shift) < 2147483647.0))
      return cudaErrorNotSupported;
    cf_pick_kernel (p->pick, wide_direct_kernel < SUM_SEP, CF_OP_LINEAR >,
        grid, block, 0);
  } else {
    return cudaErrorNotSupported;
  }
  p->direct = true;
  return cudaSuccess;
}
