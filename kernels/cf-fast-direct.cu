/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the direct kernel, 3x3 filters of byte taps on planes of
 * bytes read straight from global memory: single samples (GRAY8, the planes
 * of I420 and its kin) and 2 or 3 samples a pixel interleaved and all
 * filtered (NV12's chroma pairs, RGB), whose row taps are the byte row's
 * spread that far apart.
 *
 * The tiled kernels spend most of their instructions staging a tile
 * (1.3 warp instructions a pixel for the tensor-core kernel on a 4K GRAY8
 * frame, bench/README.md), which a 3x3 window does not repay.  Here a
 * thread filters 16 neighbouring bytes of a row (one 16-byte load a row,
 * and the 32-bit words either side) for 2 rows, all its rows' loads issued
 * before the first sum, and adds each input row into every output row it
 * reaches; neighbouring threads' rows meet in L1 and L2, not in DRAM.  The
 * taps, the same for every thread, are made once a block in shared memory.
 *
 * Taps sum four an instruction (dp4a): the window of an output is a word
 * of the row, or two neighbouring words funnel-shifted where it straddles
 * them (each shift computed once a row), with the taps moved to the bytes
 * the window takes.  Separable specs come here as the outer product of
 * their taps (after the common factors, restored by the gain) when every
 * product is a signed byte: box, Sobel.  The sums are the CPU backend's
 * exact integers, and the op is cf_fast::post. */
#include "cf-fast-kernels.cuh"
#include "cf-fast-instances.h"

namespace
{

/* Threads a block, a warp along a row; rows and bytes a thread.  Of the
 * shapes measured (1 to 8 rows, 4 to 16 bytes; bench/README.md), 2 rows of
 * 16 bytes were the fastest over GRAY8, RGB and NV12 at 4K. */
constexpr int DIRECT_TX = 32;
constexpr int DIRECT_TY = 4;
constexpr int DIRECT_THREADS = DIRECT_TX * DIRECT_TY;
constexpr int DIRECT_M = 2;
constexpr int DIRECT_NX = 16;

/* K x K taps over samples S bytes apart: a row window of KX bytes. */
template < int K, int S > struct Direct
{
  static constexpr int R = K / 2;
  static constexpr int RX = S * R;      /* bytes either side */
  static constexpr int KX = 2 * RX + 1;
  static constexpr int NX = DIRECT_NX;
  static constexpr int NW = NX / 4;     /* words a thread filters */
  static constexpr int PARTS = (KX + 3) / 4;    /* dp4a a tap row */
  static_assert (RX <= 4, "one word either side");
};

/* Byte x of a row of `step`-sample pixels, the border mapping the pixel;
 * row is NULL for a row the constant border replaces. */
__device__ __forceinline__ unsigned
border_byte (const unsigned char *row, int x, int w, int step,
    const FastArgs & a)
{
  const int px = x >= 0 ? x / step : -((step - 1 - x) / step);
  const int c = cf_border_index (px, w / step, a.border);

  return row != nullptr && c >= 0 ? row[c * step + (x - px * step)] :
      (unsigned) a.border_value;
}

__device__ __noinline__ unsigned
border_word (const unsigned char *row, int x, int w, int step,
    const FastArgs & a)
{
  unsigned v = 0;

#pragma unroll
  for (int b = 0; b < 4; b++)
    v |= border_byte (row, x + b, w, step, a) << (8 * b);
  return v;
}

/* The four words at p (16-byte aligned) into win[1 ..]. */
template < int NW > __device__ __forceinline__ void
load_main (unsigned (&win)[NW + 2], const unsigned char *p)
{
  static_assert (NW == 4, "one 16-byte load");
  const uint4 v = __ldg ((const uint4 *) p);

  win[1] = v.x;
  win[2] = v.y;
  win[3] = v.z;
  win[4] = v.w;
}

/* Bytes x0 - 4 .. x0 + NX + 3 of a row as words: win[0] is the word
 * before the thread's bytes, win[NW + 1] the one after.  vec: the plane
 * and its stride are NX-aligned, so whole words inside the row load as
 * such; other words gather their bytes through the border. */
template < int NW > __device__ __forceinline__ void
load_row (unsigned (&win)[NW + 2], const unsigned char *row, int x0, int w,
    int step, bool vec, const FastArgs & a)
{
  if (row == nullptr) {
#pragma unroll
    for (int i = 0; i < NW + 2; i++)
      win[i] = (unsigned) a.border_value * 0x01010101u;
    return;
  }
  if (vec && x0 + 4 * NW <= w) {
    load_main < NW > (win, row + x0);
  } else {
#pragma unroll
    for (int i = 0; i < NW; i++)
      win[1 + i] = border_word (row, x0 + 4 * i, w, step, a);
  }
  win[0] = vec && x0 >= 4 ? __ldg ((const unsigned *) (row + x0 - 4)) :
      border_word (row, x0 - 4, w, step, a);
  win[NW + 1] = vec && x0 + 4 * NW + 4 <= w ?
      __ldg ((const unsigned *) (row + x0 + 4 * NW)) :
      border_word (row, x0 + 4 * NW, w, step, a);
}

/* Where part p (window bytes 4p .. 4p + 3) of output k's window of KX
 * bytes lies in the row words: its first byte q (from the thread's first
 * byte), and whether it sits inside one word (then that word, taps moved
 * to byte q mod 4) or straddles two (a funnel shift, taps from byte 0). */
template < int KX > struct Part
{
  static constexpr int RX = KX / 2;
  __host__ __device__ static constexpr int q (int k, int p)
  {
    return k - RX + 4 * p;
  }
  __host__ __device__ static constexpr int len (int p)
  {
    return KX - 4 * p < 4 ? KX - 4 * p : 4;
  }
  /* Index in win of the word holding byte q (win[0] starts at -4). */
  __host__ __device__ static constexpr int word (int q)
  {
    return (q + 4) >> 2;
  }
  __host__ __device__ static constexpr bool inside (int k, int p)
  {
    return word (q (k, p)) == word (q (k, p) + len (p) - 1);
  }
  __host__ __device__ static constexpr int tap_byte (int k, int p)
  {
    return inside (k, p) ? (q (k, p) + 4) & 3 : 0;
  }
};

/* The row bytes part p of output 4g + k multiplies (g, k, p are
 * constants once the loops are unrolled). */
template < int KX, int NW > __device__ __forceinline__ unsigned
part_word (const unsigned (&win)[NW + 2], int g, int k, int p)
{
  using P = Part < KX >;
  const int q = P::q (k, p) + 4 * g, wd = P::word (q);

  if (P::inside (k, p))
    return win[wd];
  return __funnelshift_r (win[wd], win[wd + 1], 8 * ((q + 4) & 3));
}

/* Adds one row of byte taps (tw: part p of output k of a group of four)
 * into the sums of one output row. */
template < int KX, int NW, int PARTS > __device__ __forceinline__ void
add_row_dot (int (&acc)[4 * NW], const unsigned (&win)[NW + 2],
    const unsigned (&tw)[4][PARTS])
{
#pragma unroll
  for (int g = 0; g < NW; g++)
#pragma unroll
    for (int k = 0; k < 4; k++)
#pragma unroll
      for (int p = 0; p < PARTS; p++)
        acc[4 * g + k] = dot4 (part_word < KX, NW > (win, g, k, p),
            tw[k][p], acc[4 * g + k]);
}

/* Tap (i, j) of K x K, the spec's kw x kh centred as the planner centred
 * K: a dense weight, or the product of the separable row and column taps
 * in the arguments (their common factors taken out). */
template < int K > __device__ __forceinline__ int
tap_at (const FastArgs & a, int j, int i)
{
  constexpr int R = K / 2;
  const int jj = j - (R - a.ay), ii = i - (R - a.ax);

  if (a.sep_products)
    return a.iw[0][1][j] * a.iw[0][0][i];
  return jj >= 0 && jj < a.kh && ii >= 0 && ii < a.kw ?
      __ldg (a.dense + jj * a.kw + ii) : 0;
}

/* Four outputs (0 .. maxval) as the bytes of a word. */
__device__ __forceinline__ unsigned
pack4 (int v0, int v1, int v2, int v3)
{
  return __byte_perm (__byte_perm (v0, v1, 0x0040), __byte_perm (v2, v3,
          0x0040), 0x5410);
}

/* The taps a block's threads read from shared memory, made once a block
 * (a thread a word) rather than once a thread: each tap row's bytes (tap
 * i at window byte RX + (i - R) step) moved to where part p of output
 * k's window lies, [j][k][p]. */
template < int K, int S > struct Taps
{
  static constexpr int WORDS = K * 4 * Direct < K, S >::PARTS;
};

template < int K, int S > __device__ __forceinline__ void
block_taps (const FastArgs & a, int step, unsigned *taps)
{
  using D = Direct < K, S >;
  using P = Part < D::KX >;
  constexpr int R = D::R, RX = D::RX, PARTS = D::PARTS;
  const int t = threadIdx.x;

  if (t < Taps < K, S >::WORDS) {
    const int j = t / (4 * PARTS), k = t / PARTS % 4, p = t % PARTS;
    unsigned v = 0;

#pragma unroll
    for (int i = 0; i < K; i++) {
      const int b = RX + (i - R) * step - 4 * p;
      if (b >= 0 && b < P::len (p))
        v |= ((unsigned) tap_at < K > (a, j, i) & 0xFFu) <<
            (8 * (P::tap_byte (k, p) + b));
    }
    taps[t] = v;
  }
  __syncthreads ();
}

/* One thread's outputs.  INSIDE: its rows and the words either side lie
 * inside the plane, which is 16-byte aligned, so every row loads as whole
 * words, all before the first sum (a branch a row would keep each row's
 * loads waiting for the row before). */
template < int K, int S, int OP, bool INSIDE > __device__ __forceinline__
    void
filter_thread (const FastArgs & a, const unsigned *taps, int job, int x0,
    int y0, int w, int h, int step, bool vec)
{
  using D = Direct < K, S >;
  constexpr int R = D::R, KX = D::KX, NX = D::NX, NW = D::NW;
  constexpr int M = DIRECT_M, PARTS = D::PARTS, ROWS = M + K - 1;
  const unsigned char *src = a.src[job];
  unsigned char *dst = a.dst[job];
  const long long ss = a.ss[job], ds = a.ds[job];

  unsigned in[INSIDE ? ROWS : 1][NW + 2];
  if constexpr (INSIDE) {
    const unsigned char *p = src + (y0 - R) * ss + x0;
#pragma unroll
    for (int j = 0; j < ROWS; j++, p += ss) {
      load_main < NW > (in[j], p);
      in[j][0] = __ldg ((const unsigned *) (p - 4));
      in[j][NW + 1] = __ldg ((const unsigned *) (p + NX));
    }
  }

  unsigned tw[K][4][PARTS];
#pragma unroll
  for (int j = 0; j < K; j++)
#pragma unroll
    for (int k = 0; k < 4; k++)
#pragma unroll
      for (int p = 0; p < PARTS; p++)
        tw[j][k][p] = taps[(j * 4 + k) * PARTS + p];

  int acc[M][NX];
#pragma unroll
  for (int n = 0; n < M; n++)
#pragma unroll
    for (int i = 0; i < NX; i++)
      acc[n][i] = 0;

#pragma unroll
  for (int j = 0; j < ROWS; j++) {
    unsigned win[NW + 2];

    if constexpr (INSIDE) {
#pragma unroll
      for (int i = 0; i < NW + 2; i++)
        win[i] = in[j][i];
    } else {
      const int ry = cf_border_index (y0 - R + j, h, a.border);
      load_row < NW > (win, ry >= 0 ? src + ry * ss : nullptr, x0, w, step,
          vec, a);
    }
#pragma unroll
    for (int n = 0; n < M; n++)
      if (j - n >= 0 && j - n < K)
        add_row_dot < KX, NW, PARTS > (acc[n], win, tw[j - n]);

    /* Output row j - K + 1 has all its rows. */
    const int n = j - (K - 1);
    if (n >= 0 && (INSIDE || y0 + n < h)) {
      unsigned char *out = dst + (y0 + n) * ds + x0;
      unsigned word[NW];
#pragma unroll
      for (int g = 0; g < NW; g++)
        word[g] = pack4 (cf_fast::post < OP > (a, acc[n][4 * g], 0, 0),
            cf_fast::post < OP > (a, acc[n][4 * g + 1], 0, 0),
            cf_fast::post < OP > (a, acc[n][4 * g + 2], 0, 0),
            cf_fast::post < OP > (a, acc[n][4 * g + 3], 0, 0));
      if (INSIDE || (vec && x0 + NX <= w)) {
        static_assert (NW == 4, "one 16-byte store");
        *(uint4 *) out = make_uint4 (word[0], word[1], word[2], word[3]);
      } else {
        for (int i = 0; i < NX && x0 + i < w; i++)
          out[i] = (unsigned char) (word[i >> 2] >> (8 * (i & 3)));
      }
    }
  }
}

template < int K, int S, int OP > __global__ void
__launch_bounds__ (DIRECT_THREADS)
direct_kernel (const __grid_constant__ FastArgs a)
{
  using D = Direct < K, S >;
  constexpr int R = D::R, NX = D::NX, M = DIRECT_M;
  const int job = blockIdx.z, w = a.width[job], h = a.height[job];
  const int x0 = (blockIdx.x * DIRECT_TX + threadIdx.x % DIRECT_TX) * NX;
  const int y0 = (blockIdx.y * DIRECT_TY + threadIdx.x / DIRECT_TX) * M;
  const int step = S == 1 ? 1 : a.step[job];
  __shared__ unsigned taps[Taps < K, S >::WORDS];

  block_taps < K, S > (a, step, taps);
  if (x0 >= w || y0 >= h)
    return;

  const bool vec = !(((uintptr_t) a.src[job] | (uintptr_t) a.dst[job] |
          (uintptr_t) a.ss[job] | (uintptr_t) a.ds[job]) & (NX - 1));

  if (vec && x0 >= 4 && x0 + NX + 4 <= w && y0 >= R && y0 + M + R <= h)
    filter_thread < K, S, OP, true > (a, taps, job, x0, y0, w, h, step, vec);
  else
    filter_thread < K, S, OP, false > (a, taps, job, x0, y0, w, h, step,
        vec);
}

template < int S > cudaError_t
pick_op (const FastArgs & a, int n_jobs, int w, int h, Pick & pick)
{
  const dim3 grid ((w + DIRECT_TX * DIRECT_NX - 1) / (DIRECT_TX * DIRECT_NX),
      (h + DIRECT_TY * DIRECT_M - 1) / (DIRECT_TY * DIRECT_M), n_jobs);

  /* Custom kernels are linear; Sobel's one derivative and the Laplacian
   * take the absolute value, here only at scale 1 and offset 0: min (|sum|,
   * maxval), what the float op gives (cf-fast-post.cuh). */
  if (a.op == CF_OP_LINEAR)
    return cf_pick_kernel (pick, direct_kernel < 3, S, CF_OP_LINEAR >, grid,
        dim3 (DIRECT_THREADS), 0);
  if (a.op == CF_OP_ABS && a.scale == 1.0f && a.offset == 0.0f)
    return cf_pick_kernel (pick, direct_kernel < 3, S, cf_fast::OP_ABS_UNIT >,
        grid, dim3 (DIRECT_THREADS), 0);
  return cudaErrorNotSupported;
}

}                               /* namespace */

cudaError_t
cf_fast_pick_direct (int K, int max_step, bool taps_s8, const CfFastArgs & a,
    int n_jobs, int w, int h, CfKernelPick < CfFastArgs > &pick)
{
  if (K != 3 || !taps_s8)
    return cudaErrorNotSupported;
  switch (max_step) {
    case 1:
      return pick_op < 1 > (a, n_jobs, w, h, pick);
    case 2:
      return pick_op < 2 > (a, n_jobs, w, h, pick);
    case 3:
      return pick_op < 3 > (a, n_jobs, w, h, pick);
    default:
      return cudaErrorNotSupported;
  }
}
