/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the fast kernels for 8-bit frames, and the choosers that
 * pick one instance for a plan; the translation units of
 * cf-fast-instances.h instantiate them, so that ninja compiles them in
 * parallel.
 *
 * Two layouts: four 8-bit samples per 32-bit pixel (RGBA and its orders, one
 * thread filters every channel of a pixel and writes the pixel, copied and
 * filled lanes included, in one store) and single-sample planes (GRAY8, the
 * planes of I420; one launch runs every plane, grid z picks it).
 *
 * Separable specs run both passes in one block: the tile and its apron as
 * raw 32-bit words in shared memory (each sample converted to a number once
 * per use in registers), a horizontal pass where each thread computes N
 * neighbouring outputs from one register window, a shared buffer of
 * horizontal sums, and a vertical pass where each thread slides a register
 * window down M rows.  Taps are compile-time (K, padded with zero taps), so
 * the windows stay in registers and weights are constant-bank operands.
 *
 * The kernels issue instructions, not memory traffic, at their limit (Nsight
 * Compute: DRAM 3-12 % busy, issue slots 74 %), so what every pixel pays
 * matters: the output op is compile-time in the cases that occur often (a
 * switch per sample cost a third of the instructions of a 3x3 kernel), and
 * tiles whose apron lies inside the frame skip the border maps and load
 * single-sample rows four bytes at a time.
 *
 * Exactness: sums run in fp32 FMA only when the host has shown that every
 * product and partial sum is an integer below 2^24, where fp32 is exact and
 * the order of additions cannot matter; otherwise in int32, which the spec's
 * !wide_acc bounds.  Dense matrices whose taps are all signed bytes sum four
 * taps an instruction (dp4a, integer and exact; faster for every such
 * matrix measured: bench/README.md, "Gradient magnitudes, and what was
 * measured and not kept").  Either way the output is the CPU backend's. */
#ifndef CF_FAST_KERNELS_CUH
#define CF_FAST_KERNELS_CUH

#include <stdint.h>
#include <type_traits>
#include <cuda_runtime.h>

#include "cf-fast-args.h"
#include "cf-fast-post.cuh"
#include "cf-device.cuh"

namespace
{

constexpr int THREADS = 256;
template < int CH, int NK > constexpr int tile_rows =
    cf_fast_tile_h (CH, NK);

using FastArgs = CfFastArgs;
using cf_fast::OP_ANY;
using cf_fast::post;

/* Word index w of a row, spread so the strided accesses of the horizontal
 * pass fall in distinct banks. */
__host__ __device__ constexpr int
sw (int w)
{
  return w + (w >> 5);
}

/* n rounded up to a value congruent to m mod 32 (bank offset between the
 * two rows one warp touches). */
__host__ __device__ constexpr int
pad_to (int n, int m)
{
  return n + (((m - n) % 32) + 32) % 32;
}

template < int CH, int TH > struct Geo
{
  static constexpr int TW = cf_fast_tile_w (CH);       /* pixels */
  static constexpr int N = CH == 4 ? 4 : 8;     /* horizontal outputs per thread */
  static constexpr int NV = THREADS / TW;       /* vertical thread groups */
  static constexpr int M = TH / NV;     /* vertical outputs per thread */
};

/* Shared memory of a block, in 32-bit words: row and column maps, the raw
 * tile, then (separable) the horizontal sums. */
template < int CH, int K, int NSUM, bool SWZ, int TH > struct Smem
{
  static constexpr int ROWS = TH;
  static constexpr int TW = Geo < CH, TH >::TW;
  static constexpr int RW = TW + K - 1; /* raw pixels a row */
  static constexpr int RH = TH + K - 1; /* raw rows */
  static constexpr int NW = CH == 4 ? RW : (RW + 3) / 4;
  static constexpr int RS = SWZ ? pad_to (sw (NW - 1) + 1, CH == 4 ? 2 : 1) :
      NW;
  static constexpr int HS = pad_to (sw (TW - 1) + 1, CH == 4 ? 2 : 4);
  static constexpr int X_OFF = 2 * RH;
  static constexpr int RAW_OFF = (X_OFF + RW + 3) & ~3;
  static constexpr int H_OFF = RAW_OFF + RS * RH;
  static constexpr int WORDS = H_OFF + NSUM * RH * HS;
  static constexpr size_t BYTES = (size_t) WORDS * 4;
};

/* Byte l of w as a number: for float, the byte becomes the mantissa of
 * 2^23 + byte, an integer add and an exact subtract instead of a slow
 * conversion. */
template < typename A > __device__ __forceinline__ A byte_of (unsigned w,
    int l);
template <> __device__ __forceinline__ float
byte_of < float > (unsigned w, int l)
{
  return __uint_as_float (__byte_perm (w, 0x4B000000u, 0x7540u | l)) -
      8388608.0f;
}

template <> __device__ __forceinline__ int
byte_of < int > (unsigned w, int l)
{
  return (int) __byte_perm (w, 0u, 0x4440u | l);
}

__device__ __forceinline__ float
madd (float w, float v, float s)
{
  return __fmaf_rn (w, v, s);
}

__device__ __forceinline__ int
madd (int w, int v, int s)
{
  return s + w * v;
}

/* P: the launch's parameters, FastArgs or (regions in place)
 * CfFastRegionArgs, which has only fp32 taps. */
template < typename A, class P > __device__ __forceinline__ A
tap (const P & a, int k, int d, int i)
{
  if constexpr (std::is_same < A, float >::value)
    return a.fw[k][d][i];
  else
    return a.iw[k][d][i];
}

/* The tile a block filters: its job, its first output and (REGION) the
 * end of its rectangle. */
struct Tile
{
  int job, x0, y0, x_end, y_end;
};

/* False: the block has nothing to filter (past a smaller plane).  Whole
 * frames (REGION false) are the grid (x, y, job); regions in place are
 * the rectangles' tiles (CfFastRegionArgs::region). */
template < int TW, int TH, bool REGION, class P > __device__ __forceinline__
    bool
block_tile (const P & a, Tile & t)
{
  if constexpr (!REGION) {
    t.job = blockIdx.z;
    t.x0 = blockIdx.x * TW;
    t.y0 = blockIdx.y * TH;
    return t.x0 < a.width[t.job] && t.y0 < a.height[t.job];
  } else {
    int k = 0;
    while (k + 1 < a.n_regions && (int) blockIdx.x >= a.region[k + 1].first)
      k++;
    const CfFastRegion & r = a.region[k];
    const int lt = blockIdx.x - r.first;
    t.job = r.job;
    t.x0 = r.x + (lt % r.tiles_x) * TW;
    t.y0 = r.y + (lt / r.tiles_x) * TH;
    t.x_end = r.x + r.w;
    t.y_end = r.y + r.h;
    return true;
  }
}

/* The end of the outputs a tile may write: its plane's (read from the
 * parameters where they are used) or its rectangle's. */
template < bool REGION, class P > __device__ __forceinline__ int
tile_x_end (const P & a, const Tile & t)
{
  return REGION ? t.x_end : a.width[t.job];
}

template < bool REGION, class P > __device__ __forceinline__ int
tile_y_end (const P & a, const Tile & t)
{
  return REGION ? t.y_end : a.height[t.job];
}

/* Regions in place: this block has read its tile (load_tile ends with a
 * barrier), so others may write over it. */
template < bool REGION, class P > __device__ __forceinline__ void
region_arrive (const P & a)
{
  if constexpr (REGION) {
    if (threadIdx.x == 0)
      asm volatile ("red.release.gpu.global.add.u32 [%0], 1;"::"l" (a.barrier)
          :"memory");
  }
}

/* Regions in place: waits until every block of the launch has read its
 * tile.  They all run at once (a cooperative launch); past ten seconds
 * the launch faults (the element posts an error) instead of hanging. */
template < bool REGION, class P > __device__ __forceinline__ void
region_wait (const P & a)
{
  if constexpr (REGION) {
    if (threadIdx.x == 0) {
      unsigned long long start, now;
      unsigned v;

      asm volatile ("mov.u64 %0, %%globaltimer;":"=l" (start));
      for (;;) {
        asm volatile ("ld.acquire.gpu.global.u32 %0, [%1];":"=r" (v)
            :"l" (a.barrier):"memory");
        /* The count wraps: compare by difference. */
        if ((int) (v - a.barrier_target) >= 0)
          break;
        __nanosleep (64);
        asm volatile ("mov.u64 %0, %%globaltimer;":"=l" (now));
        if (now - start > 10000000000ull)
          __trap ();
      }
    }
    __syncthreads ();
  }
}

/* load_tile for a tile whose apron is inside the frame: `src` points at
 * its first raw pixel.  Stores the same words in the same places.
 * ALL_IN_FLIGHT: every load of a thread before any store, for launches of
 * few blocks, whose time is one block's latency (regions in place); whole
 * frames load in batches (all at once spilled their 4-sample kernels). */
template < int CH, class S, bool SWZ, bool ALL_IN_FLIGHT >
    __device__ __forceinline__ void
load_interior (unsigned *raw, const unsigned char *src, long long ss)
{
  const int tid = threadIdx.x;

  if (CH == 1 && ALL_IN_FLIGHT) {
    constexpr int IT = (S::NW * S::RH + THREADS - 1) / THREADS;
    unsigned lo[IT], hi[IT], sh[IT];
#pragma unroll
    for (int k = 0; k < IT; k++) {
      const int t = tid + k * THREADS;
      if (t < S::NW * S::RH) {
        const int r = t / S::NW, w = t - r * S::NW;
        const uintptr_t p = (uintptr_t) (src + r * ss + 4 * w);
        const unsigned *q = (const unsigned *) (p & ~(uintptr_t) 3);
        lo[k] = __ldg (q);
        hi[k] = __ldg (q + 1);
        sh[k] = 8 * (unsigned) (p & 3);
      }
    }
#pragma unroll
    for (int k = 0; k < IT; k++) {
      const int t = tid + k * THREADS;
      if (t < S::NW * S::RH) {
        const int r = t / S::NW, w = t - r * S::NW;
        raw[r * S::RS + (SWZ ? sw (w) : w)] =
            __funnelshift_r (lo[k], hi[k], sh[k]);
      }
    }
    __syncthreads ();
    return;
  }
  if (CH == 1) {
    /* Four samples a load: the two aligned words around them, shifted
     * (rows start anywhere).  The caller keeps both words in the row. */
    for (int t = tid; t < S::NW * S::RH; t += THREADS) {
      const int r = t / S::NW, w = t - r * S::NW;
      const uintptr_t p = (uintptr_t) (src + r * ss + 4 * w);
      const unsigned *q = (const unsigned *) (p & ~(uintptr_t) 3);
      raw[r * S::RS + (SWZ ? sw (w) : w)] =
          __funnelshift_r (__ldg (q), __ldg (q + 1), 8 * (unsigned) (p & 3));
    }
    __syncthreads ();
    return;
  }
  /* Loads in batches: enough in flight, few registers held. */
  constexpr int TOTAL = S::RW * S::RH;
  constexpr int IT = (TOTAL + THREADS - 1) / THREADS;
  constexpr int BATCH = ALL_IN_FLIGHT ? IT : 6;
#pragma unroll
  for (int k0 = 0; k0 < IT; k0 += BATCH) {
    unsigned v[BATCH];
#pragma unroll
    for (int k = 0; k < BATCH; k++) {
      const int t = tid + (k0 + k) * THREADS;
      if (k0 + k < IT && t < TOTAL) {
        const int r = t / S::RW, c = t - r * S::RW;
        v[k] = __ldg ((const unsigned *) (src + r * ss) + c);
      }
    }
#pragma unroll
    for (int k = 0; k < BATCH; k++) {
      const int t = tid + (k0 + k) * THREADS;
      if (k0 + k < IT && t < TOTAL) {
        const int r = t / S::RW, c = t - r * S::RW;
        raw[r * S::RS + (SWZ ? sw (c) : c)] = v[k];
      }
    }
  }
  __syncthreads ();
}

/* The tile of pixels [x0 - R, x0 + TW + R) x [y0 - R, y0 + TH + R) as raw
 * words, borders mapped once per row and column. */
template < int CH, int K, class S, bool SWZ, bool ALL_IN_FLIGHT = false,
    class P > __device__ __forceinline__ void
load_tile (unsigned *smem, const P & a, int job, int x0, int y0)
{
  constexpr int R = K / 2;
  long long *ymap = (long long *) smem;
  int *xmap = (int *) (smem + S::X_OFF);
  unsigned *raw = smem + S::RAW_OFF;
  const int tid = threadIdx.x;
  const int W = a.width[job], H = a.height[job];
  const unsigned char *src = a.src[job];
  const long long ss = a.ss[job];

  /* Most tiles lie inside the frame with their apron: no border to map,
   * every row and column is read where it is (word loads of single
   * samples read up to 4 bytes either side: SLACK). */
  constexpr int SLACK = CH == 1 ? 4 : 0;
  if (x0 - R >= SLACK && x0 - R + (CH == 1 ? 4 * S::NW : S::RW) + SLACK <= W
      && y0 - R >= 0 && y0 - R + S::RH <= H) {
    load_interior < CH, S, SWZ, ALL_IN_FLIGHT > (raw, src + (y0 - R) * ss +
        (x0 - R) * CH, ss);
    return;
  }
  for (int t = tid; t < S::RH; t += THREADS) {
    const int Y = cf_border_index (y0 - R + t, H, a.border);
    ymap[t] = Y < 0 ? -1 : Y * ss;
  }
  for (int t = tid; t < S::RW; t += THREADS) {
    const int X = cf_border_index (x0 - R + t, W, a.border);
    xmap[t] = X < 0 ? -1 : X * CH;
  }
  __syncthreads ();
  if (CH == 1) {
    /* Bytes: a plain loop measured faster than batching them. */
    unsigned char *rb = (unsigned char *) raw;
    for (int t = tid; t < S::RW * S::RH; t += THREADS) {
      const int r = t / S::RW, c = t - r * S::RW;
      const long long yo = ymap[r];
      const int xo = xmap[c];
      const int w = c >> 2;
      rb[(r * S::RS + (SWZ ? sw (w) : w)) * 4 + (c & 3)] =
          (yo < 0 || xo < 0) ? (unsigned char) a.border_value :
          __ldg (src + yo + xo);
    }
    __syncthreads ();
    return;
  }
  /* Pixels: every load of a thread issued before any store, so the loads
   * of a block overlap instead of waiting for each other. */
  constexpr int TOTAL = CH == 4 ? S::RW * S::RH : 1;
  constexpr int IT = (TOTAL + THREADS - 1) / THREADS;
  unsigned v[IT];
#pragma unroll
  for (int k = 0; k < IT; k++) {
    const int t = tid + k * THREADS;
    if (t < TOTAL) {
      const int r = t / S::RW, c = t - r * S::RW;
      const long long yo = ymap[r];
      const int xo = xmap[c];
      if (CH == 4)
        v[k] = (yo < 0 || xo < 0) ? (unsigned) a.border_value * 0x01010101u :
            __ldg ((const unsigned *) (src + yo + xo));
      else
        v[k] = (yo < 0 || xo < 0) ? (unsigned) a.border_value :
            __ldg (src + yo + xo);
    }
  }
#pragma unroll
  for (int k = 0; k < IT; k++) {
    const int t = tid + k * THREADS;
    if (t < TOTAL) {
      const int r = t / S::RW, c = t - r * S::RW;
      if (CH == 4) {
        raw[r * S::RS + (SWZ ? sw (c) : c)] = v[k];
      } else {
        const int w = c >> 2;
        ((unsigned char *) raw)[(r * S::RS + (SWZ ? sw (w) : w)) * 4 +
            (c & 3)] = (unsigned char) v[k];
      }
    }
  }
  __syncthreads ();
}

/* Writes the outputs of rows [r0, r0 + M) of column c (tile coordinates):
 * acc[k][f][n] are the sums; the raw tile gives the centre samples. */
template < int CH, int NF, int K, int NK, int M, class S, bool SWZ,
    int OP, bool REGION, typename A, class P > __device__ __forceinline__ void
store_column (const P & a, const unsigned *raw, const Tile & t,
    int c, int r0, A (&acc)[NK][NF][M])
{
  constexpr int R = K / 2;
  const int job = t.job, x0 = t.x0, y0 = t.y0;
  const int x = x0 + c;

  if (x >= tile_x_end < REGION > (a, t))
    return;
  unsigned char *dst = a.dst[job] + (long long) x * CH;
  const long long ds = a.ds[job];
#pragma unroll
  for (int n = 0; n < M; n++) {
    const int y = y0 + r0 + n;
    if (y >= tile_y_end < REGION > (a, t))
      break;
    if (CH == 4) {
      const int cc = c + R;
      const unsigned cw = raw[(r0 + n + R) * S::RS + (SWZ ? sw (cc) : cc)];
      unsigned out = (cw & a.keep) | a.fill;
#pragma unroll
      for (int f = 0; f < NF; f++) {
        const int sh = 8 * a.lane[f];
        const int o = post < OP, A > (a, acc[0][f][n], acc[NK - 1][f][n],
            (cw >> sh) & 0xFF);
        out |= (unsigned) o << sh;
      }
      *(unsigned *) (dst + y * ds) = out;
    } else {
      const int cc = c + R, w = cc >> 2;
      const unsigned char *rb = (const unsigned char *) raw;
      const int cen = rb[((r0 + n + R) * S::RS + (SWZ ? sw (w) : w)) * 4 +
          (cc & 3)];
      dst[y * ds] = (unsigned char) post < OP, A > (a, acc[0][0][n],
          acc[NK - 1][0][n], cen);
    }
  }
}

/* REGION: the regions-in-place instance (cf_fast_run_inplace), a block a
 * rectangle's tile, every block's reads before any block's writes.  Its
 * own instance: whole frames run none of its code (inline, its tests cost
 * whole-frame Sobel and Laplacian 3-6 %, more registers). */
template < int CH, int NF, int K, int NK, int OP, typename A,
    bool REGION = false > __global__ void __launch_bounds__ (THREADS)
sep_kernel (const __grid_constant__ std::conditional_t < REGION,
    CfFastRegionArgs, FastArgs > a)
{
  constexpr int TH = tile_rows < CH, NK >;
  using G = Geo < CH, TH >;
  using S = Smem < CH, K, NK * NF, true, TH >;
  constexpr int N = G::N, M = G::M, TW = G::TW;
  constexpr int GR = TW / N;    /* thread groups a row, horizontal pass */
  constexpr int RPS = THREADS / GR;     /* rows a step */
  extern __shared__ __align__ (16) unsigned smem[];
  unsigned *raw = smem + S::RAW_OFF;
  A *hs = (A *) (smem + S::H_OFF);
  Tile t;

  if (!block_tile < TW, TH, REGION > (a, t))
    return;
  load_tile < CH, K, S, true, REGION > (smem, a, t.job, t.x0, t.y0);
  region_arrive < REGION > (a);

  /* Horizontal: N outputs of one row from N + K - 1 samples in registers. */
  {
    const int g = threadIdx.x % GR;
    for (int r = threadIdx.x / GR; r < S::RH; r += RPS) {
      const unsigned *rp = raw + r * S::RS;
      A v[NF][N + K - 1];
      if (CH == 4) {
#pragma unroll
        for (int i = 0; i < N + K - 1; i++) {
          const unsigned w = rp[sw (g * N + i)];
#pragma unroll
          for (int f = 0; f < NF; f++)
            v[f][i] = byte_of < A > (w, a.lane[f]);
        }
      } else {
        constexpr int NWR = (N + K - 2) / 4 + 1;
        unsigned w[NWR];
#pragma unroll
        for (int i = 0; i < NWR; i++)
          w[i] = rp[sw (g * (N / 4) + i)];
#pragma unroll
        for (int i = 0; i < N + K - 1; i++)
          v[0][i] = byte_of < A > (w[i >> 2], i & 3);
      }
#pragma unroll
      for (int k = 0; k < NK; k++) {
#pragma unroll
        for (int f = 0; f < NF; f++) {
          A *hp = hs + ((k * NF + f) * S::RH + r) * S::HS;
#pragma unroll
          for (int n = 0; n < N; n++) {
            A s = 0;
#pragma unroll
            for (int i = 0; i < K; i++)
              s = madd (tap < A > (a, k, 0, i), v[f][n + i], s);
            hp[sw (g * N + n)] = s;
          }
        }
      }
    }
  }
  __syncthreads ();

  /* Regions in place: wait here, where few registers are live (waiting
   * after the vertical pass held its sums through the wait and spilled). */
  region_wait < REGION > (a);

  /* Vertical: M outputs down one column from M + K - 1 sums. */
  const int c = threadIdx.x % TW;
  const int r0 = (threadIdx.x / TW) * M;
  A acc[NK][NF][M];
#pragma unroll
  for (int k = 0; k < NK; k++) {
#pragma unroll
    for (int f = 0; f < NF; f++) {
      const A *hp = hs + ((k * NF + f) * S::RH + r0) * S::HS + sw (c);
      A v[M + K - 1];
#pragma unroll
      for (int i = 0; i < M + K - 1; i++)
        v[i] = hp[i * S::HS];
#pragma unroll
      for (int n = 0; n < M; n++) {
        A s = 0;
#pragma unroll
        for (int j = 0; j < K; j++)
          s = madd (tap < A > (a, k, 1, j), v[n + j], s);
        acc[k][f][n] = s;
      }
    }
  }
  store_column < CH, NF, K, NK, M, S, true, OP, REGION > (a, raw, t, c, r0,
      acc);
}

/* Four byte products and their sum in one instruction (unsigned samples,
 * signed taps), exact. */
__device__ __forceinline__ int
dot4 (unsigned samples, unsigned taps, int acc)
{
  int d;

  asm ("dp4a.u32.s32 %0, %1, %2, %3;":"=r" (d):"r" (samples), "r" (taps),
      "r" (acc));
  return d;
}

/* Taps i0 .. i0 + 3 of a row (those that exist) as the bytes of a word. */
template < int K > __device__ __forceinline__ unsigned
tap_bytes (const int (&row)[K], int i0)
{
  unsigned w = 0;
#pragma unroll
  for (int b = 0; b < 4; b++)
    if (i0 + b < K)
      w |= ((unsigned) row[i0 + b] & 0xFFu) << (8 * b);
  return w;
}

/* Dense K x K in int32: each thread runs down M rows of one column,
 * reading each raw row once and adding it into every output it reaches.
 * With DOT (every tap a signed byte), the taps of a row go four at a time
 * through dot4: the K samples of a row (one channel's byte of each pixel,
 * or neighbouring single samples) packed into a word once per row. */
template < int CH, int NF, int K, int OP, bool DOT > __global__ void
__launch_bounds__ (THREADS)
dense_kernel (const __grid_constant__ FastArgs a)
{
  constexpr int TH = tile_rows < CH, 1 >;
  using G = Geo < CH, TH >;
  using S = Smem < CH, K, 0, false, TH >;
  constexpr int M = G::M, TW = G::TW, R = K / 2;
  extern __shared__ __align__ (16) unsigned smem[];
  const unsigned *raw = smem + S::RAW_OFF;
  Tile t;

  if (!block_tile < TW, TH, false > (a, t))
    return;

  /* The spec's kw x kh weights, centred in K x K. */
  int wk[K][K];
#pragma unroll
  for (int j = 0; j < K; j++) {
#pragma unroll
    for (int i = 0; i < K; i++) {
      const int jj = j - (R - a.ay), ii = i - (R - a.ax);
      wk[j][i] = (jj >= 0 && jj < a.kh && ii >= 0 && ii < a.kw) ?
          __ldg (a.dense + jj * a.kw + ii) : 0;
    }
  }
  load_tile < CH, K, S, false > (smem, a, t.job, t.x0, t.y0);

  const int c = threadIdx.x % TW;
  const int r0 = (threadIdx.x / TW) * M;
  int acc[1][NF][M];
#pragma unroll
  for (int f = 0; f < NF; f++)
#pragma unroll
    for (int n = 0; n < M; n++)
      acc[0][f][n] = 0;

  if constexpr (DOT) {
    static_assert (K == 3 || K == 5, "one word and a tap at most");
    /* Taps 0-3 of each row as bytes; for K 5, tap 4 of each row at the
     * byte its sample has in a raw word (pixels: the channel's lane). */
    unsigned t03[K], t4[K][NF];
#pragma unroll
    for (int j = 0; j < K; j++) {
      t03[j] = tap_bytes < K > (wk[j], 0);
#pragma unroll
      for (int f = 0; f < NF; f++)
        t4[j][f] = K == 5 ? ((unsigned) wk[j][K - 1] & 0xFFu) <<
            (CH == 4 ? 8 * a.lane[f] : 0) : 0;
    }
    /* PRMT selectors: byte `lane` of two words to bytes 0 and 1, and of a
     * third word to byte 2 after them. */
    unsigned pair[NF], third[NF];
#pragma unroll
    for (int f = 0; f < NF; f++) {
      const unsigned l = CH == 4 ? (unsigned) a.lane[f] : 0u;
      pair[f] = l | (l + 4) << 4;
      third[f] = 0x10u | (l + 4) << 8;
    }
#pragma unroll
    for (int j = 0; j < M + K - 1; j++) {
      unsigned win[NF], last[NF];
      if (CH == 4) {
        const unsigned *rp = raw + (r0 + j) * S::RS + c;
        unsigned p[K];
#pragma unroll
        for (int i = 0; i < K; i++)
          p[i] = rp[i];
#pragma unroll
        for (int f = 0; f < NF; f++) {
          const unsigned lo = __byte_perm (p[0], p[1], pair[f]);
          win[f] = K == 3 ? __byte_perm (lo, p[2], third[f]) :
              __byte_perm (lo, __byte_perm (p[2], p[3], pair[f]), 0x5410);
          if constexpr (K == 5)
            last[f] = p[K - 1];
        }
      } else {
        /* Bytes c .. c + 3 of the row; for K 5 byte c + 4 alone (the
         * word after may lie past the tile). */
        const unsigned *rp = raw + (r0 + j) * S::RS + (c >> 2);
        const unsigned sh = 8 * (c & 3), w1 = rp[1];
        win[0] = __funnelshift_r (rp[0], w1, sh);
        if constexpr (K == 5)
          last[0] = w1 >> sh;
      }
#pragma unroll
      for (int n = 0; n < M; n++) {
        if (j - n >= 0 && j - n < K) {
#pragma unroll
          for (int f = 0; f < NF; f++) {
            int s = dot4 (win[f], t03[j - n], acc[0][f][n]);
            if constexpr (K == 5)
              s = dot4 (last[f], t4[j - n][f], s);
            acc[0][f][n] = s;
          }
        }
      }
    }
  } else {
#pragma unroll
    for (int j = 0; j < M + K - 1; j++) {
#pragma unroll
      for (int i = 0; i < K; i++) {
        int v[NF];
        if (CH == 4) {
          const unsigned w = raw[(r0 + j) * S::RS + c + i];
#pragma unroll
          for (int f = 0; f < NF; f++)
            v[f] = byte_of < int >(w, a.lane[f]);
        } else {
          v[0] = ((const unsigned char *) raw)[(r0 + j) * S::RS * 4 + c + i];
        }
#pragma unroll
        for (int n = 0; n < M; n++) {
          if (j - n >= 0 && j - n < K) {
#pragma unroll
            for (int f = 0; f < NF; f++)
              acc[0][f][n] += wk[j - n][i] * v[f];
          }
        }
      }
    }
  }
  store_column < CH, NF, K, 1, M, S, false, OP, false > (a, raw, t, c, r0,
      acc);
}

using Pick = CfKernelPick < FastArgs >;

/* The choosers below pick the kernel a plan launches (cf-plan.cu); they
 * launch nothing. */
template < class S, typename Kern > cudaError_t
start (Kern kernel, const FastArgs & a, int n_jobs, int max_w, int max_h,
    int tw, Pick & pick)
{
  dim3 grid ((max_w + tw - 1) / tw, (max_h + S::ROWS - 1) / S::ROWS,
      n_jobs);

  (void) a;
  return cf_pick_kernel (pick, kernel, grid, dim3 (THREADS), S::BYTES);
}

template < int CH, int NF, int K, int NK, typename A > cudaError_t
start_sep (const FastArgs & a, int n_jobs, int w, int h, Pick & s)
{
  using S = Smem < CH, K, NK * NF, true, tile_rows < CH, NK > >;
  constexpr int tw = S::TW;

  /* Two sums are always a gradient magnitude; one derivative (sobel-x,
   * sobel-y) is its absolute value, at the derivative sizes; sharpen is a
   * Gaussian's.  fp32 sums take no other op (cf-spec.c makes none), so
   * only int32 ones have the any-op instance. */
  if constexpr (NK == 2) {
    if (a.scale == 1.0f && a.offset == 0.0f)
      return start < S > (sep_kernel < CH, NF, K, NK, cf_fast::OP_MAGNITUDE_U8,
          A >, a, n_jobs, w, h, tw, s);
    return start < S > (sep_kernel < CH, NF, K, NK, CF_OP_MAGNITUDE, A >, a,
        n_jobs, w, h, tw, s);
  } else {
    if (a.op == CF_OP_LINEAR)
      return start < S > (sep_kernel < CH, NF, K, NK, CF_OP_LINEAR, A >, a,
          n_jobs, w, h, tw, s);
    if constexpr (K <= 7 && std::is_same_v < A, float >)
      if (a.op == CF_OP_ABS)
        return start < S > (sep_kernel < CH, NF, K, NK, CF_OP_ABS, A >, a,
            n_jobs, w, h, tw, s);
    if constexpr (std::is_same_v < A, float >) {
      if (a.op == CF_OP_SHARPEN)
        return start < S > (sep_kernel < CH, NF, K, NK, CF_OP_SHARPEN, A >,
            a, n_jobs, w, h, tw, s);
      return cudaErrorNotSupported;
    } else {
      return start < S > (sep_kernel < CH, NF, K, NK, OP_ANY, A >, a,
          n_jobs, w, h, tw, s);
    }
  }
}

template < int CH, int NF, int K, bool DOT > cudaError_t
start_dense (const FastArgs & a, int n_jobs, int w, int h, Pick & s)
{
  using S = Smem < CH, K, 0, false, tile_rows < CH, 1 > >;
  constexpr int tw = S::TW;

  /* Custom kernels are linear, the Laplacian its absolute value: dense
   * specs take no other op (cf-spec.c). */
  if (a.op == CF_OP_LINEAR)
    return start < S > (dense_kernel < CH, NF, K, CF_OP_LINEAR, DOT >, a,
        n_jobs, w, h, tw, s);
  if (a.op == CF_OP_ABS)
    return start < S > (dense_kernel < CH, NF, K, CF_OP_ABS, DOT >, a,
        n_jobs, w, h, tw, s);
  return cudaErrorNotSupported;
}

/* Instantiated sizes: float sums up to 13 taps (Gaussian sigma 2, box,
 * Sobel up to 7, custom); int sums and gradient pairs up to 7. */
template < int CH, int NF, int NK, typename A > cudaError_t
sep_k (int K, const FastArgs & a, int n_jobs, int w, int h, Pick & s)
{
  constexpr bool big = NK == 1 && std::is_same_v < A, float >;
  switch (K) {
    case 3:
      return start_sep < CH, NF, 3, NK, A > (a, n_jobs, w, h, s);
    case 5:
      return start_sep < CH, NF, 5, NK, A > (a, n_jobs, w, h, s);
    case 7:
      return start_sep < CH, NF, 7, NK, A > (a, n_jobs, w, h, s);
    case 9:
      if constexpr (big)
        return start_sep < CH, NF, 9, NK, A > (a, n_jobs, w, h, s);
      break;
    case 11:
      if constexpr (big)
        return start_sep < CH, NF, 11, NK, A > (a, n_jobs, w, h, s);
      break;
    case 13:
      if constexpr (big)
        return start_sep < CH, NF, 13, NK, A > (a, n_jobs, w, h, s);
      break;
    default:
      break;
  }
  return cudaErrorNotSupported;
}

template < int CH, int NF > cudaError_t
sep_dispatch (int K, int nk, bool use_float, const FastArgs & a, int n_jobs,
    int w, int h, Pick & s)
{
  if (nk == 2)
    return use_float ? sep_k < CH, NF, 2, float >(K, a, n_jobs, w, h, s) :
        cudaErrorNotSupported;
  return use_float ? sep_k < CH, NF, 1, float >(K, a, n_jobs, w, h, s) :
      sep_k < CH, NF, 1, int >(K, a, n_jobs, w, h, s);
}

/* The regions-in-place instances: linear fp32 sums of one kernel
 * (Gaussian, box; the cases regions are for), up to 13 taps.  Other specs
 * take the strip kernel or tiles (cf-backend-cuda.c). */
using RegionPick = CfKernelPick < CfFastRegionArgs >;

template < int CH, int NF, int K > cudaError_t
start_region (RegionPick & s)
{
  using S = Smem < CH, K, NF, true, tile_rows < CH, 1 > >;
  static_assert (K <= CF_REGION_TAPS, "CfFastRegionArgs holds the taps");

  return cf_pick_kernel (s, sep_kernel < CH, NF, K, 1, CF_OP_LINEAR, float,
      true >, dim3 (1), dim3 (THREADS), S::BYTES);
}

template < int CH, int NF > cudaError_t
region_dispatch (int K, int nk, bool use_float, const FastArgs & a,
    RegionPick & s)
{
  if (nk != 1 || !use_float || a.op != CF_OP_LINEAR)
    return cudaErrorNotSupported;
  switch (K) {
    case 3:
      return start_region < CH, NF, 3 > (s);
    case 5:
      return start_region < CH, NF, 5 > (s);
    case 7:
      return start_region < CH, NF, 7 > (s);
    case 9:
      return start_region < CH, NF, 9 > (s);
    case 11:
      return start_region < CH, NF, 11 > (s);
    case 13:
      return start_region < CH, NF, 13 > (s);
    default:
      return cudaErrorNotSupported;
  }
}

template < int CH, int NF, bool DOT > cudaError_t
dense_k (int K, const FastArgs & a, int n_jobs, int w, int h, Pick & s)
{
  switch (K) {
    case 3:
      return start_dense < CH, NF, 3, DOT > (a, n_jobs, w, h, s);
    case 5:
      return start_dense < CH, NF, 5, DOT > (a, n_jobs, w, h, s);
    default:
      return cudaErrorNotSupported;
  }
}

template < int CH, int NF > cudaError_t
dense_dispatch (int K, bool bytes, const FastArgs & a, int n_jobs, int w,
    int h, Pick & s)
{
  return bytes ? dense_k < CH, NF, true > (K, a, n_jobs, w, h, s) :
      dense_k < CH, NF, false > (K, a, n_jobs, w, h, s);
}

}                               /* namespace */

#endif /* CF_FAST_KERNELS_CUH */
