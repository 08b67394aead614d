/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: separable 8-bit filters on tensor cores (sm_80 and newer).
 *
 * A 1-D correlation is a product with a band matrix: 16 outputs of a row
 * take 16 + K - 1 inputs, so one m16n8k32 integer MMA (u8 samples, s8 or
 * u8 taps, s32 sums: exact) gives 16 outputs of 8 rows for up to 17 taps,
 * two give them for up to 49 and three for up to 81 (KSX k-steps a row,
 * KSY a column).  A plane of interleaved samples (NV12's chroma pairs,
 * RGB) is a plane of bytes whose row taps are spread `step` bytes apart,
 * so the same kernel filters it: more row taps, the same columns.  The
 * kernels were instruction-bound with one FMA a tap (cf-fast-kernels.cuh);
 * here the taps cost next to nothing and what is left is moving bytes.
 *
 * One block runs both passes of a TW x TH tile:
 *  - the tile and its apron go to shared memory as byte planes, one a
 *    channel (four-sample pixels are split while loading);
 *  - horizontal: band (16 output columns x 32 KSX inputs, in registers for
 *    the whole block) times 8 rows of the plane; the sums, offset by hbias
 *    to be non-negative, fit 16 bits and go to shared memory as two byte
 *    planes (low, high), column-major, so the vertical pass reads four rows
 *    of a column as one word;
 *  - vertical: band (16 output rows x 32 KSY rows) times each byte plane;
 *    the sum is low + 256 high - hbias * (sum of the column taps), the exact
 *    integer the CPU backend computes, and cf-arith.h's op makes the byte;
 *  - the output tile, staged where the input planes were, leaves in 16-byte
 *    stores, merged with the copied and filled bytes of the pixels (and,
 *    for sharpen, finished against the source samples).
 * Rows and columns a band reads past its taps meet zero weights, so they
 * may hold anything.  Dense matrices of interleaved samples (RGB, NV12's
 * chroma) take dense_mma_kernel: a k-step per kernel row, one pass.  The
 * measurements behind each choice are in bench/README.md. */

#include <stdint.h>
#include <cuda_runtime.h>

#include "cf-fast-args.h"
#include "cf-fast-post.cuh"
#include "cf-device.cuh"

namespace
{

using cf_fast::post;

constexpr int THREADS = 256;
/* Tile columns: 32 for four-sample pixels (more blocks fit), 64 for single
 * samples, as measured on an H200 (bench/README.md, "Separable filters on
 * tensor cores"). */
template < int CH > constexpr int TWC = CH == 4 ? 32 : 64;
#ifndef CF_MMA_TH
#define CF_MMA_TH 64
#endif
constexpr int TH = CF_MMA_TH;   /* tile rows */

/* Row alignments that allow wider accesses. */
constexpr unsigned SRC_WORDS = 1;       /* samples of a row: aligned words */
constexpr unsigned SRC_VEC = 2; /* pixels of a row: 16 bytes at a time */
constexpr unsigned DST_VEC = 4; /* output rows: 16 bytes at a time */

/* Words a row of the staged output tile: 16-byte rows that spread the 8
 * rows of a fragment's stores over the banks. */
template < int CH > constexpr int SPW = CH == 4 ? TWC < 4 > + 8 :
    (TWC < 1 > + 16) / 4;

using MmaArgs = CfMmaArgs;

template < int CH, int KSX, int KSY > struct Geo
{
  static constexpr int TW = TWC < CH >;
  static constexpr int RW = TW - 16 + 32 * KSX; /* input columns */
  static constexpr int HR = TH - 16 + 32 * KSY; /* input and sum rows */
  /* Words a row of the planes, and a column of the sums: 4 x odd, so the
   * 8 rows (columns) one fragment load touches fall in distinct banks. */
  static constexpr int IPW = RW / 4;
  static constexpr int HPW = HR / 4;
  static_assert (IPW % 8 == 4 && HPW % 8 == 4, "bank spread");
  static_assert (TH * SPW < CH > <= HR * IPW * (CH == 4 ? 3 : 1),
      "staging fits the planes");
  static constexpr int TAP_OFF = (2 * HR + RW + 3) & ~3;
  /* Taps: a job's row tables (32 words each, four for packed 4:2:2),
   * then the column's at COL_TAPS; or a dense kernel's rows (16 each, up
   * to 5). */
  static constexpr int COL_TAPS = 128;
  static constexpr int TAP_WORDS = COL_TAPS + 32;
  static constexpr int IN_OFF = TAP_OFF + TAP_WORDS;
  static constexpr int words (int nf)
  {
    return IN_OFF + nf * HR * IPW + nf * 2 * TW * HPW;
  }
};

/* d += a x b, integer m16n8k32: taps (s8, or u8 with WU) x samples (u8). */
template < bool WU > __device__ __forceinline__ void
mma (int (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if (WU)
    asm ("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 "
        "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+r" (d[0]), "+r" (d[1]), "+r" (d[2]), "+r" (d[3])
        : "r" (a[0]), "r" (a[1]), "r" (a[2]), "r" (a[3]), "r" (b0),
        "r" (b1));
  else
    asm ("mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32 "
        "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+r" (d[0]), "+r" (d[1]), "+r" (d[2]), "+r" (d[3])
        : "r" (a[0]), "r" (a[1]), "r" (a[2]), "r" (a[3]), "r" (b0),
        "r" (b1));
#endif
}

/* d += a x b, integer m16n8k32: samples (u8) x taps (s8). */
__device__ __forceinline__ void
mma_samples (int (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm ("mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32 "
      "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
      : "+r" (d[0]), "+r" (d[1]), "+r" (d[2]), "+r" (d[3])
      : "r" (a[0]), "r" (a[1]), "r" (a[2]), "r" (a[3]), "r" (b0), "r" (b1));
#endif
}

/* The device code of the kernel: compiled for sm_80 and newer only (the
 * launcher never picks these kernels below), so older device passes do not
 * see helpers they would not use. */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800

constexpr int WARPS = THREADS / 32;

/* The band fragment of this lane for pass p (0 rows, 1 columns), k-step
 * s: the m16n8k32 A layout, rows m = g, g + 8, columns 4 t .. 4 t + 3 and
 * 16 + 4 t ..; `taps` is the block's copy of its row tables (MmaArgs::
 * row_taps[taps_set ..]) and, at `col`, the column's (col_taps), in shared
 * memory.  Rows m take table m & table_mask: the byte's place in a packed
 * 4:2:2 macro-pixel (tiles start on one).  Horizontal:
 * A[m][kk] = tap[kk - m].  Vertical: the sums are stored with their rows
 * permuted in groups of 16 (see the horizontal pass), column kk holding
 * row 2 t + (b & 1) + 8 (b >> 1) of word t's byte b, and A follows. */
__device__ __forceinline__ unsigned
tap_bytes (const unsigned *tw, int at)
{
  return __funnelshift_r (tw[at >> 2], tw[(at >> 2) + 1], 8 * (at & 3));
}

__device__ __forceinline__ void
band_fragment (const unsigned *taps, int col, int table_mask, int p, int s,
    unsigned (&r)[4])
{
  const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
  const unsigned *tw = p ? taps + col : taps + 32 * (g & table_mask);
#pragma unroll
  for (int q = 0; q < 4; q++) {
    const int m = g + 8 * (q & 1);
    const int base = 32 * s + 16 * (q >> 1) - m + 16;
    if (p == 0)
      r[q] = tap_bytes (tw, base + 4 * t);
    else
      r[q] = __byte_perm (tap_bytes (tw, base + 2 * t),
          tap_bytes (tw, base + 2 * t + 8), 0x5410);
  }
}

/* Byte l of each of four pixels, as one word. */
__device__ __forceinline__ unsigned
split_lane (uint4 p, int l)
{
  const unsigned sel = (unsigned) l | (unsigned) (l + 4) << 4;

  return __byte_perm (__byte_perm (p.x, p.y, sel), __byte_perm (p.z, p.w,
          sel), 0x5410);
}

/* The selector taking bytes l0 and l1 of two words: [a.l0 b.l0 a.l1 b.l1]. */
__device__ __forceinline__ unsigned
pair_sel (int l0, int l1)
{
  return (unsigned) l0 | (unsigned) (l0 + 4) << 4 | (unsigned) l1 << 8 |
      (unsigned) (l1 + 4) << 12;
}

/* The input rows [0, rh) and columns [0, rw) of the tile as byte planes:
 * plane column c is image column x0 - kx / 2 - off + c (off puts the first
 * column on a 4-sample boundary, so interior rows load as aligned words or,
 * for pixels, 16 bytes at a time), borders mapped: a byte column of
 * interleaved samples maps as its pixel, keeping its place in the pixel. */
template < int CH, int NF, int KSX, int KSY > __device__ __forceinline__ void
load_planes (unsigned *smem, const MmaArgs & a, int job, int x0, int y0,
    int rh, int rw)
{
  using G = Geo < CH, KSX, KSY >;
  const int tid = threadIdx.x;
  const int W = a.width[job], H = a.height[job], step = a.step[job];
  const unsigned char *src = a.src[job];
  const long long ss = a.ss[job];
  const int X0 = x0 - a.kx[job] / 2 - a.off[job];
  const int Y0 = y0 - a.ky / 2, qw = rw / 4;
  long long *ymap = (long long *) smem;
  int *xmap = (int *) (smem + 2 * G::HR);
  unsigned *in = smem + G::IN_OFF;
  const bool inside = X0 >= 0 && X0 + rw <= W && Y0 >= 0 && Y0 + rh <= H
      && (a.flags & SRC_WORDS);

  if (!inside) {
    for (int t = tid; t < rh; t += THREADS) {
      const int Y = cf_border_index (Y0 + t, H, a.border);
      ymap[t] = Y < 0 ? -1 : Y * ss;
    }
    for (int t = tid; t < rw; t += THREADS) {
      /* Byte b is sample (b - o) / d of a channel d bytes apart, o into
       * the pixel: packed 4:2:2's luma 2, its chroma 4. */
      const int b = X0 + t;
      int d = step, o = (b % step + step) % step;
      if (step == CF_MMA_PACKED_422) {
        const int lo = a.luma_off[job];
        d = cf_packed_422_distance (b & 3, lo);
        o = d == 2 ? lo : b & 3;
      }
      const int X = cf_border_index ((b - o) / d, W / d, a.border);
      xmap[t] = X < 0 ? -1 : (X * d + o) * CH;
    }
    __syncthreads ();
  }

  /* In batches: every load of a batch issued before its stores.  Rows
   * are indexed in words of the widest tile, a constant divisor. */
  constexpr int BATCH = 4;
  constexpr int QW = G::RW / 4;
  const int total = rh * QW;
  for (int t0 = tid; t0 < total; t0 += BATCH * THREADS) {
    uint4 p[BATCH];
#pragma unroll
    for (int b = 0; b < BATCH; b++) {
      const int t = t0 + b * THREADS;
      const int r = t / QW, q = t - r * QW;
      if (t >= total || q >= qw)
        continue;
      if (inside) {
        const unsigned char *rp = src + (Y0 + r) * ss + (X0 + 4 * q) * CH;
        if (CH == 1) {
          p[b].x = __ldg ((const unsigned *) rp);
        } else if (a.flags & SRC_VEC) {
          p[b] = __ldg ((const uint4 *) rp);
        } else {
          const unsigned *pp = (const unsigned *) rp;
          p[b] = make_uint4 (__ldg (pp), __ldg (pp + 1), __ldg (pp + 2),
              __ldg (pp + 3));
        }
      } else {
        const long long yo = ymap[r];
        const unsigned bv = (unsigned) a.border_value;
        unsigned v[4];
#pragma unroll
        for (int j = 0; j < 4; j++) {
          const int xo = xmap[4 * q + j];
          if (CH == 4)
            v[j] = (yo < 0 || xo < 0) ? bv * 0x01010101u :
                __ldg ((const unsigned *) (src + yo + xo));
          else
            v[j] = (yo < 0 || xo < 0) ? bv : __ldg (src + yo + xo);
        }
        if (CH == 4)
          p[b] = make_uint4 (v[0], v[1], v[2], v[3]);
        else
          p[b].x = v[0] | v[1] << 8 | v[2] << 16 | v[3] << 24;
      }
    }
#pragma unroll
    for (int b = 0; b < BATCH; b++) {
      const int t = t0 + b * THREADS;
      const int r = t / QW, q = t - r * QW;
      if (t >= total || q >= qw)
        continue;
      if (CH == 4) {
        /* Two channels from four permutes: [p0.l0 p1.l0 p0.l1 p1.l1] and
         * the same of p2, p3, then their halves. */
#pragma unroll
        for (int f = 0; f + 1 < NF; f += 2) {
          const unsigned sel = pair_sel (a.lane[f], a.lane[f + 1]);
          const unsigned x = __byte_perm (p[b].x, p[b].y, sel);
          const unsigned y = __byte_perm (p[b].z, p[b].w, sel);
          in[(f * G::HR + r) * G::IPW + q] = __byte_perm (x, y, 0x5410);
          in[((f + 1) * G::HR + r) * G::IPW + q] = __byte_perm (x, y, 0x7632);
        }
        if (NF & 1)
          in[((NF - 1) * G::HR + r) * G::IPW + q] = split_lane (p[b],
              a.lane[NF - 1]);
      } else {
        in[r * G::IPW + q] = p[b].x;
      }
    }
  }
  __syncthreads ();
}

/* The source words of a 16-byte chunk (zero past the row's end). */
__device__ __forceinline__ uint4
load_chunk (const unsigned char *sp, bool vec, int valid)
{
  if (vec && valid >= 16)
    return __ldg ((const uint4 *) sp);
  unsigned w[4] = { 0, 0, 0, 0 };
#pragma unroll
  for (int j = 0; j < 16; j++)
    if (j < valid)
      w[j >> 2] |= (unsigned) __ldg (sp + j) << (8 * (j & 3));
  return make_uint4 (w[0], w[1], w[2], w[3]);
}

/* Unsharp mask of the samples in `lanes` (bytes of w): the staged word holds
 * the blurred samples, src the source ones. */
__device__ __forceinline__ unsigned
sharpen_word (const MmaArgs & a, unsigned w, unsigned src, unsigned lanes)
{
#pragma unroll
  for (int l = 0; l < 4; l++) {
    if (!(lanes & (1u << l)))
      continue;
    const int b = (w >> 8 * l) & 0xFF, c = (src >> 8 * l) & 0xFF;
    const unsigned r = (unsigned) cf_post_sharpen (c, b, a.amount, a.maxval);
    w = (w & ~(0xFFu << 8 * l)) | r << 8 * l;
  }
  return w;
}

/* The staged output tile (filtered samples only, in place of the input
 * planes) to the frame, 16 bytes a store where the rows allow: sharpened
 * against the source samples (loaded here, coalesced) for CF_OP_SHARPEN,
 * merged with the copied and filled bytes of four-sample pixels. */
template < int CH, int OP > __device__ __forceinline__ void
store_tile (const unsigned *stg, const MmaArgs & a, int job, int x0, int y0)
{
  constexpr int TW = TWC < CH >;
  constexpr int CHUNKS = TW * CH / 16;  /* 16-byte chunks a row */
  const int W = a.width[job], H = a.height[job];
  const long long ss = a.ss[job], ds = a.ds[job];
  const bool need_src = OP == CF_OP_SHARPEN || (CH == 4 && a.keep);
  /* Filtered bytes of a word: all for single samples, the pixel lanes
   * neither copied nor filled otherwise. */
  const unsigned filtered = CH == 1 ? 0xF : a.filtered;

#pragma unroll
  for (int i = 0; i < (TH * CHUNKS + THREADS - 1) / THREADS; i++) {
    const int c = threadIdx.x + i * THREADS;
    const int row = c / CHUNKS, col = (c % CHUNKS) * (16 / CH);
    const int y = y0 + row, x = x0 + col;
    if (c >= TH * CHUNKS || y >= H || x >= W)
      continue;
    const int valid = min (W - x, 16 / CH) * CH;        /* bytes */
    const uint4 v = *(const uint4 *) (stg + row * SPW < CH > + col * CH / 4);
    unsigned o[4] = { v.x, v.y, v.z, v.w };
    if (need_src) {
      const uint4 sv = load_chunk (a.src[job] + y * ss + (long long) x * CH,
          a.flags & SRC_VEC, valid);
      const unsigned sw[4] = { sv.x, sv.y, sv.z, sv.w };
#pragma unroll
      for (int j = 0; j < 4; j++) {
        if (OP == CF_OP_SHARPEN)
          o[j] = sharpen_word (a, o[j], sw[j], filtered);
        if (CH == 4)
          o[j] |= sw[j] & a.keep;
      }
    }
    if (CH == 4) {
#pragma unroll
      for (int j = 0; j < 4; j++)
        o[j] |= a.fill;
    }
    unsigned char *dp = a.dst[job] + y * ds + (long long) x * CH;
    if ((a.flags & DST_VEC) && valid == 16) {
      *(uint4 *) dp = make_uint4 (o[0], o[1], o[2], o[3]);
    } else if (CH == 4) {
#pragma unroll
      for (int j = 0; j < 4; j++)
        if (4 * j < valid)
          ((unsigned *) dp)[j] = o[j];
    } else {
#pragma unroll
      for (int j = 0; j < 16; j++)
        if (j < valid)
          dp[j] = (unsigned char) (o[j >> 2] >> (8 * (j & 3)));
    }
  }
}

/* Permutes placing samples in their pixel lanes: the first takes samples
 * 0 and 1 (zero from byte 1 of sample 0), the next add one. */
template < int CH, int NF > __device__ __forceinline__ void
lane_selectors (const MmaArgs & a, unsigned (&sel)[NF > 1 ? NF - 1 : 1])
{
  if (CH != 4)
    return;
  sel[0] = 0;
  for (int j = 0; j < 4; j++)
    sel[0] |= (j == a.lane[0] ? 0u : j == a.lane[1] ? 4u : 1u) << 4 * j;
#pragma unroll
  for (int f = 2; f < NF; f++) {
    sel[f - 1] = 0;
    for (int j = 0; j < 4; j++)
      sel[f - 1] |= (j == a.lane[f] ? 4u : (unsigned) j) << 4 * j;
  }
}

/* The outputs of a fragment (sums v[f]: rows g, g + 8 of columns 2t,
 * 2t + 1 from its first, m0, n0) through op SOP into the staged tile. */
template < int CH, int NF, int SOP > __device__ __forceinline__ void
stage_fragment (const MmaArgs & a, unsigned *stg, const int (&v)[NF][4],
    const unsigned (&sel)[NF > 1 ? NF - 1 : 1], int m0, int n0)
{
  const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
  const int col = n0 + 2 * t;
#pragma unroll
  for (int h = 0; h < 2; h++) {
    const int row = m0 + g + 8 * h;
    if (CH == 4) {
      unsigned o[2];
#pragma unroll
      for (int e = 0; e < 2; e++) {
        unsigned r[NF];
#pragma unroll
        for (int f = 0; f < NF; f++)
          r[f] = (unsigned) post < SOP, int >(a, v[f][2 * h + e],
              v[f][2 * h + e], 0);
        /* Each sample to its lane (byte 1 of a sample is 0). */
        o[e] = __byte_perm (r[0], r[1], sel[0]);
#pragma unroll
        for (int f = 2; f < NF; f++)
          o[e] = __byte_perm (o[e], r[f], sel[f - 1]);
      }
      *(uint2 *) (stg + row * SPW < 4 > + col) = make_uint2 (o[0], o[1]);
    } else {
      const unsigned o0 = (unsigned) post < SOP, int >(a, v[0][2 * h],
          v[0][2 * h], 0);
      const unsigned o1 = (unsigned) post < SOP, int >(a, v[0][2 * h + 1],
          v[0][2 * h + 1], 0);
      *(unsigned short *) ((unsigned char *) (stg + row * SPW < 1 >) +
          col) = (unsigned short) (o0 | o1 << 8);
    }
  }
}

#endif /* sm_80 and newer */

template < int CH, int NF, int KSX, int KSY, bool WU, int OP >
__global__ void __launch_bounds__ (THREADS)
mma_kernel (const __grid_constant__ MmaArgs a)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  using G = Geo < CH, KSX, KSY >;
  constexpr int TW = G::TW;
  extern __shared__ __align__ (16) unsigned smem[];
  const int job = blockIdx.z;
  const int x0 = blockIdx.x * TW, y0 = blockIdx.y * TH;
  const int W = a.width[job], H = a.height[job];

  if (x0 >= W || y0 >= H)
    return;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int g = lane >> 2, t = lane & 3;
  /* Rows the vertical taps reach, in whole tiles; columns in words. */
  const int tables = a.step[job] == CF_MMA_PACKED_422 ? 4 : 1;
  const int rh = (TH + a.ky - 1 + 15) & ~15;
  const int rw = (TW + a.kx[job] - 1 + a.off[job] + 3) & ~3;

  unsigned *taps = smem + G::TAP_OFF;
  if (threadIdx.x < 32 * tables)
    taps[threadIdx.x] = a.row_taps[a.taps_set[job] + threadIdx.x / 32]
        [threadIdx.x % 32];
  else if (threadIdx.x >= G::COL_TAPS && threadIdx.x < G::COL_TAPS + 32)
    taps[threadIdx.x] = a.col_taps[threadIdx.x - G::COL_TAPS];
  /* (load_planes ends with a barrier) */
  load_planes < CH, NF, KSX, KSY > (smem, a, job, x0, y0, rh, rw);

  const unsigned char *in = (const unsigned char *) (smem + G::IN_OFF);
  unsigned char *hs = (unsigned char *) (smem + G::IN_OFF +
      NF * G::HR * G::IPW);
  constexpr int PLANE = TW * G::HPW * 4;        /* bytes of one sum plane */

  /* Horizontal: D'[column][row] = band x plane rows, 16 columns and 16
   * rows a tile in two MMAs (rows 0-7, 8-15), so lane (g, t) ends with rows
   * 2t, 2t + 1, 2t + 8, 2t + 9 of columns g and g + 8: the low and high
   * bytes of (sum + hbias) of those rows go to shared memory a word each,
   * word t of the tile's column (the vertical band knows the order).  The
   * trip count is the widest tile's, so the loop unrolls. */
  {
    unsigned ab[KSX][4];
#pragma unroll
    for (int s = 0; s < KSX; s++)
      band_fragment (taps, G::COL_TAPS, tables - 1, 0, s, ab[s]);
    constexpr int TILES = (G::HR / 16) * (TW / 16);
#pragma unroll
    for (int i = 0; i < (TILES + WARPS - 1) / WARPS; i++) {
      const int ti = warp + i * WARPS;
      const int n0 = (ti / (TW / 16)) * 16, m0 = (ti % (TW / 16)) * 16;
      if (ti >= TILES || n0 >= rh)
        continue;
#pragma unroll
      for (int f = 0; f < NF; f++) {
        const unsigned char *rp = in + (f * G::HR + n0 + g) * G::IPW * 4 +
            m0 + 4 * t;
        unsigned b0[2][KSX], b1[2][KSX];
#pragma unroll
        for (int h = 0; h < 2; h++)
#pragma unroll
          for (int s = 0; s < KSX; s++) {
            b0[h][s] = *(const unsigned *) (rp + 8 * h * G::IPW * 4 + 32 * s);
            b1[h][s] = *(const unsigned *) (rp + 8 * h * G::IPW * 4 + 32 * s
                + 16);
          }
        int d[2][4];
#pragma unroll
        for (int h = 0; h < 2; h++) {
#pragma unroll
          for (int j = 0; j < 4; j++)
            d[h][j] = a.hbias;
#pragma unroll
          for (int s = 0; s < KSX; s++)
            mma < WU > (d[h], ab[s], b0[h][s], b1[h][s]);
        }
        unsigned *lo = (unsigned *) (hs + f * 2 * PLANE +
            (m0 + g) * G::HPW * 4 + n0 + 4 * t);
        unsigned *hi = lo + PLANE / 4;
#pragma unroll
        for (int c = 0; c < 2; c++) {
          /* [r0.b0 r1.b0 r0.b1 r1.b1] of rows 2t, 2t + 1 and of 2t + 8,
           * 2t + 9, then their low and high halves. */
          const unsigned x = __byte_perm (d[0][2 * c], d[0][2 * c + 1],
              0x5140);
          const unsigned y = __byte_perm (d[1][2 * c], d[1][2 * c + 1],
              0x5140);
          lo[c * 8 * G::HPW] = __byte_perm (x, y, 0x5410);
          hi[c * 8 * G::HPW] = __byte_perm (x, y, 0x7632);
        }
      }
    }
  }
  __syncthreads ();

  /* Vertical: D[row][column] = band x sums, for 16 rows and 8 columns a
   * fragment; lane (g, t) ends with rows g, g + 8 of columns 2t, 2t + 1,
   * staged where the input planes were. */
  unsigned av[KSY][4];
#pragma unroll
  for (int s = 0; s < KSY; s++)
    band_fragment (taps, G::COL_TAPS, 0, 1, s, av[s]);
  unsigned *stg = smem + G::IN_OFF;
  unsigned sel[NF > 1 ? NF - 1 : 1];
  lane_selectors < CH, NF > (a, sel);

#pragma unroll
  for (int i = 0; i < (TH / 16) * (TW / 8) / WARPS; i++) {
    const int ti = warp + i * WARPS;
    const int m0 = (ti / (TW / 8)) * 16, n0 = (ti % (TW / 8)) * 8;
    int v[NF][4];
#pragma unroll
    for (int f = 0; f < NF; f++) {
      const unsigned char *lo = hs + f * 2 * PLANE +
          (n0 + g) * G::HPW * 4 + m0 + 4 * t;
      const unsigned char *hi = lo + PLANE;
      int dl[4] = { -a.hconst, -a.hconst, -a.hconst, -a.hconst };
      int dh[4] = { 0, 0, 0, 0 };
#pragma unroll
      for (int s = 0; s < KSY; s++) {
        mma < WU > (dl, av[s], *(const unsigned *) (lo + 32 * s),
            *(const unsigned *) (lo + 32 * s + 16));
        mma < WU > (dh, av[s], *(const unsigned *) (hi + 32 * s),
            *(const unsigned *) (hi + 32 * s + 16));
      }
#pragma unroll
      for (int j = 0; j < 4; j++)
        v[f][j] = dl[j] + (dh[j] << 8);
    }

    /* Sharpen stages the blurred samples; store_tile adds the rest. */
    constexpr int SOP = OP == CF_OP_SHARPEN ? CF_OP_LINEAR : OP;
    stage_fragment < CH, NF, SOP > (a, stg, v, sel, m0, n0);
  }
  __syncthreads ();
  store_tile < CH, OP > (stg, a, job, x0, y0);
#endif
}

/* Dense K x K (Laplacian, custom matrices of byte taps) on planes of
 * bytes: for each output fragment of 16 rows and 8 columns, D += input
 * rows (A: u8 samples) x band of one kernel row (B: s8 taps), a k-step per
 * kernel row, int32 sums (exact).  Interleaved samples spread their row
 * taps as the separable kernel does; the kernel's taps come from the
 * device weights (MmaArgs::dense), as bands built once a block in shared
 * memory. */
template < int K, int OP > __global__ void __launch_bounds__ (THREADS)
dense_mma_kernel (const __grid_constant__ MmaArgs a)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  constexpr int CH = 1, NF = 1;
  /* Columns: a fragment's last reads 23 bytes past its first output. */
  using G = Geo < CH, 2, 1 >;
  constexpr int TW = G::TW, R = K / 2;
  constexpr int BW = 16;        /* words of a kernel row's band */
  extern __shared__ __align__ (16) unsigned smem[];
  const int job = blockIdx.z;
  const int x0 = blockIdx.x * TW, y0 = blockIdx.y * TH;
  const int W = a.width[job], H = a.height[job];

  if (x0 >= W || y0 >= H)
    return;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int g = lane >> 2, t = lane & 3;
  const int step = a.step[job], off = a.off[job];
  const int rh = (TH + K - 1 + 15) & ~15;
  const int rw = (TW + a.kx[job] - 1 + off + 3) & ~3;

  /* Band words of kernel row j: byte 16 + off + step i holds tap (j, i)
   * of the spec's kw x kh taps centred in K x K. */
  unsigned *bands = smem + G::TAP_OFF;
  static_assert (K * BW <= G::TAP_WORDS, "the bands fit the taps' words");
  if (threadIdx.x < K * BW) {
    const int j = threadIdx.x / BW, w = threadIdx.x % BW;
    const int jj = j - (R - a.ay);
    unsigned word = 0;
#pragma unroll
    for (int b = 0; b < 4; b++) {
      const int pos = 4 * w + b - 16 - off;
      const int i = pos / step, ii = i - (R - a.ax);
      if (pos >= 0 && pos % step == 0 && i < K && jj >= 0 && jj < a.kh
          && ii >= 0 && ii < a.kw)
        word |= ((unsigned) __ldg (a.dense + jj * a.kw + ii) & 0xFFu) <<
            (8 * b);
    }
    bands[threadIdx.x] = word;
  }
  /* (load_planes ends with a barrier) */
  load_planes < CH, NF, 2, 1 > (smem, a, job, x0, y0, rh, rw);

  /* B fragments: lane (g, t) holds taps k - g of k = 4t .. 4t + 3 and
   * 16 + 4t .. 16 + 4t + 3, output column g. */
  unsigned bf[K][2];
#pragma unroll
  for (int j = 0; j < K; j++) {
    bf[j][0] = tap_bytes (bands + j * BW, 16 + 4 * t - g);
    bf[j][1] = tap_bytes (bands + j * BW, 32 + 4 * t - g);
  }
  const unsigned char *in = (const unsigned char *) (smem + G::IN_OFF);
  /* Staged apart from the input planes, which other warps still read. */
  unsigned *stg = smem + G::IN_OFF + NF * G::HR * G::IPW;
  static_assert (TH * SPW < CH > <= NF * 2 * TW * G::HPW,
      "staging fits the sums' words");
  unsigned sel[NF > 1 ? NF - 1 : 1];
  lane_selectors < CH, NF > (a, sel);

#pragma unroll
  for (int i = 0; i < (TH / 16) * (TW / 8) / WARPS; i++) {
    const int ti = warp + i * WARPS;
    const int m0 = (ti / (TW / 8)) * 16, n0 = (ti % (TW / 8)) * 8;
    int v[NF][4];
#pragma unroll
    for (int f = 0; f < NF; f++) {
      const unsigned char *rp = in + (f * G::HR + m0 + g) * G::IPW * 4 +
          n0 + 4 * t;
#pragma unroll
      for (int e = 0; e < 4; e++)
        v[f][e] = 0;
#pragma unroll
      for (int j = 0; j < K; j++) {
        const unsigned char *r0 = rp + j * G::IPW * 4;
        const unsigned *r8 = (const unsigned *) (r0 + 8 * G::IPW * 4);
        const unsigned av[4] = { *(const unsigned *) r0, r8[0],
          *(const unsigned *) (r0 + 16), r8[4]
        };
        mma_samples (v[f], av, bf[j][0], bf[j][1]);
      }
    }
    stage_fragment < CH, NF, OP > (a, stg, v, sel, m0, n0);
  }
  __syncthreads ();
  store_tile < CH, OP > (stg, a, job, x0, y0);
#endif
}

using Pick = CfKernelPick < MmaArgs >;

/* The choosers below pick the kernel a plan launches (cf-plan.cu); they
 * launch nothing. */
template < int CH, int NF, int KSX, int KSY, bool WU, int OP > cudaError_t
start (int n_jobs, int w, int h, Pick & pick)
{
  constexpr int TW = TWC < CH >;
  const size_t bytes = (size_t) Geo < CH, KSX, KSY >::words (NF) * 4;
  dim3 grid ((w + TW - 1) / TW, (h + TH - 1) / TH, n_jobs);

  return cf_pick_kernel (pick, mma_kernel < CH, NF, KSX, KSY, WU, OP >,
      grid, dim3 (THREADS), bytes);
}

/* Instantiated: linear (Gaussian, box, separable custom) and sharpen up
 * to 63 taps, u8 taps (a Gaussian's centre above 127) up to 17, absolute
 * derivatives (sobel-x, sobel-y: up to 7) with s8 taps, each with as many
 * row k-steps as column ones.  Interleaved samples (single-sample planes
 * only) reach further along rows: one more row k-step for linear and
 * sharpen, u8 taps included. */
template < int CH, int NF, int KSX, int KSY, bool WU > cudaError_t
dispatch_op (int op, int n_jobs, int w, int h, Pick & s)
{
  switch (op) {
    case CF_OP_LINEAR:
      return start < CH, NF, KSX, KSY, WU, CF_OP_LINEAR > (n_jobs, w, h, s);
    case CF_OP_SHARPEN:
      return start < CH, NF, KSX, KSY, WU, CF_OP_SHARPEN > (n_jobs, w, h, s);
    case CF_OP_ABS:
      if constexpr (KSX == 1 && KSY == 1 && !WU)
        return start < CH, NF, 1, 1, false, CF_OP_ABS > (n_jobs, w, h, s);
      return cudaErrorNotSupported;
    case cf_fast::OP_ABS_UNIT:
      if constexpr (KSX == 1 && KSY == 1 && !WU)
        return start < CH, NF, 1, 1, false, cf_fast::OP_ABS_UNIT > (n_jobs,
            w, h, s);
      return cudaErrorNotSupported;
    default:
      return cudaErrorNotSupported;
  }
}

template < int CH, int NF > cudaError_t
dispatch (int op, int ksx, int ksy, bool wu, int n_jobs, int w, int h,
    Pick & s)
{
  if (ksx != ksy && (CH != 1 || ksx != ksy + 1 || ksy > 2))
    return cudaErrorNotSupported;
  if (wu) {
    if (ksy != 1)
      return cudaErrorNotSupported;
    if constexpr (CH == 1) {
      if (ksx == 2)
        return dispatch_op < CH, NF, 2, 1, true > (op, n_jobs, w, h, s);
    }
    return dispatch_op < CH, NF, 1, 1, true > (op, n_jobs, w, h, s);
  }
  if constexpr (CH == 1) {
    if (ksx == 2 && ksy == 1)
      return dispatch_op < CH, NF, 2, 1, false > (op, n_jobs, w, h, s);
    if (ksx == 3 && ksy == 2)
      return dispatch_op < CH, NF, 3, 2, false > (op, n_jobs, w, h, s);
  }
  switch (ksy) {
    case 1:
      return dispatch_op < CH, NF, 1, 1, false > (op, n_jobs, w, h, s);
    case 2:
      return dispatch_op < CH, NF, 2, 2, false > (op, n_jobs, w, h, s);
    default:
      return dispatch_op < CH, NF, 3, 3, false > (op, n_jobs, w, h, s);
  }
}

/* k-steps of a band whose 16 outputs read 16 + n - 1 inputs; 0: too many. */
int
k_steps (int n)
{
  return n <= 17 ? 1 : n <= 49 ? 2 : n <= 81 ? 3 : 0;
}

/* Taps (K of them, `step` apart) as the words of a band, the first
 * `first` bytes in (16 + off for a band's own reach). */
void
tap_words (const int *taps, int K, int step, int first, unsigned (&out)[32])
{
  unsigned char tb[128] = { 0 };

  for (int i = 0; i < K; i++)
    tb[first + step * i] = (unsigned char) taps[i];
  for (int w = 0; w < 32; w++)
    out[w] = tb[4 * w] | tb[4 * w + 1] << 8 | tb[4 * w + 2] << 16 |
        (unsigned) tb[4 * w + 3] << 24;
}

/* The row tap tables of job j (a.iw's row taps, K of them centred):
 * one spread `step` apart, or for packed 4:2:2 one for each place in the
 * macro-pixel, spread by that byte's channel's distance, all reaching as
 * far as the chroma's.  Shared with an earlier job of the same kind;
 * false when the tables are full. */
bool
job_taps (const CfFastArgs & a, const CfFastPlan * p, int j, int K,
    int *n_sets, MmaArgs & m)
{
  const int step = p->job_step[j], lo = p->job_luma_off[j], R = K / 2;
  const int tables = step == CF_MMA_PACKED_422 ? 4 : 1;

  for (int i = 0; i < j; i++)
    if (p->job_step[i] == step && (tables == 1 || p->job_luma_off[i] == lo)) {
      m.taps_set[j] = m.taps_set[i];
      return true;
    }
  if (*n_sets + tables > CF_MMA_TAP_SETS)
    return false;
  m.taps_set[j] = *n_sets;
  for (int c = 0; c < tables; c++) {
    const int d = tables == 1 ? step : cf_packed_422_distance (c, lo);
    tap_words (a.iw[0][0], K, d, 16 + m.off[j] + m.kx[j] / 2 - d * R,
        m.row_taps[*n_sets + c]);
  }
  *n_sets += tables;
  return true;
}

/* What every tensor-core plan reads of p->a: the jobs (their row taps
 * spread over kx = step (K - 1) + 1 for `step` interleaved samples, 4
 * (K - 1) + 1 for packed 4:2:2), the pixel lanes, the op.  Returns the
 * row k-steps of a band of `outputs` outputs (16 separable, 8 dense) for
 * the widest job, 0 if one is too wide. */
int
job_args (const CfFastPlan * p, int K, int outputs, MmaArgs & m)
{
  const CfFastArgs & a = p->a;
  int ksx = 0;

  for (int j = 0; j < p->n_jobs; j++) {
    const int step = p->job_step[j];
    if (step < 1 || step > CF_MMA_PACKED_422 || (step > 1 && p->ch != 1))
      return 0;
    /* A band's outputs read outputs + off + kx - 1 columns.  Packed 4:2:2
     * reaches as far as its chroma, 4 bytes a tap: its step's value. */
    static_assert (CF_MMA_PACKED_422 == 4, "the step is the chroma's reach");
    const int kx = step * (K - 1) + 1, off = (4 - (kx / 2) % 4) % 4;
    const int ks = k_steps (kx + off + outputs - 16);
    if (ks == 0)
      return 0;
    if (ks > ksx)
      ksx = ks;
    m.step[j] = step;
    m.luma_off[j] = p->job_luma_off[j];
    m.kx[j] = kx;
    m.off[j] = off;
    m.width[j] = a.width[j];
    m.height[j] = a.height[j];
  }
  for (int i = 0; i < 4; i++)
    m.lane[i] = a.lane[i];
  m.keep = a.keep;
  m.fill = a.fill;
  for (int f = 0; f < p->nf; f++)
    m.filtered |= 1u << a.lane[f];
  m.ky = K;
  cf_fast_copy_op (m, a);
  return ksx;
}

/* The op a launch instantiates: an absolute value of scale 1 and offset 0
 * (the defaults) as an integer one (8-bit samples here). */
int
launch_op (const MmaArgs & m)
{
  if (m.op == CF_OP_ABS && m.scale == 1.0f && m.offset == 0.0f)
    return cf_fast::OP_ABS_UNIT;
  return m.op;
}

template < int K > cudaError_t
start_dense (int op, int n_jobs, int w, int h, Pick & pick)
{
  constexpr int TW = TWC < 1 >;
  const size_t bytes = (size_t) Geo < 1, 2, 1 >::words (1) * 4;
  dim3 grid ((w + TW - 1) / TW, (h + TH - 1) / TH, n_jobs);

  /* Custom kernels are linear, the Laplacian its absolute value. */
  if (op == CF_OP_LINEAR)
    return cf_pick_kernel (pick, dense_mma_kernel < K, CF_OP_LINEAR >, grid,
        dim3 (THREADS), bytes);
  if (op == CF_OP_ABS)
    return cf_pick_kernel (pick, dense_mma_kernel < K, CF_OP_ABS >, grid,
        dim3 (THREADS), bytes);
  if (op == cf_fast::OP_ABS_UNIT)
    return cf_pick_kernel (pick, dense_mma_kernel < K, cf_fast::OP_ABS_UNIT >,
        grid, dim3 (THREADS), bytes);
  return cudaErrorNotSupported;
}

cudaError_t
dispatch_dense (int K, int op, int n_jobs, int w, int h, Pick & s)
{
  if (K == 3)
    return start_dense < 3 > (op, n_jobs, w, h, s);
  if (K == 5)
    return start_dense < 5 > (op, n_jobs, w, h, s);
  return cudaErrorNotSupported;
}

}                               /* namespace */

cudaError_t
cf_mma_plan (CfFastPlan * p, int major, int nk, int K)
{
  const CfFastArgs & a = p->a;
  MmaArgs & m = p->m;
  bool s8 = true, u8 = true;
  int neg = 0, pos = 0, col = 0;

  m = MmaArgs { };

  /* Gradient pairs (Sobel, Scharr: up to 7 taps) stay on the FMA
   * kernels, whose two sums share one tile: pairs here measured no faster
   * or slower (bench/README.md, "Gradient magnitudes, and what was
   * measured and not kept"). */
  if (nk != 1)
    return cudaErrorNotSupported;
  if (major < 8)
    return cudaErrorNotSupported;
  const int ksy = k_steps (K);
  const int ksx = job_args (p, K, 16, m);
  if (ksy == 0 || ksx == 0)
    return cudaErrorNotSupported;

  /* Taps must be bytes; the horizontal sums, offset, 16 bits. */
  for (int d = 0; d < 2; d++)
    for (int i = 0; i < K; i++) {
      const int w = a.iw[0][d][i];
      s8 = s8 && w >= -128 && w <= 127;
      u8 = u8 && w >= 0 && w <= 255;
    }
  if (!s8 && !u8)
    return cudaErrorNotSupported;
  for (int i = 0; i < K; i++) {
    const int w = a.iw[0][0][i];
    (w < 0 ? neg : pos) += w < 0 ? -w : w;
    col += a.iw[0][1][i];
  }
  if (255LL * (neg + pos) > 65535)
    return cudaErrorNotSupported;
  m.hbias = 255 * neg;
  m.hconst = m.hbias * col;
  tap_words (a.iw[0][1], K, 1, 16, m.col_taps);
  /* The dense kernel builds its bands from the device weights instead. */
  for (int j = 0, n_sets = 0; j < p->n_jobs; j++)
    if (!job_taps (a, p, j, K, &n_sets, m))
      return cudaErrorNotSupported;

  const bool wu = !s8;
  const int n_jobs = p->n_jobs, max_w = p->max_w, max_h = p->max_h;
  if (p->ch == 1)
    return dispatch < 1, 1 > (launch_op (m), ksx, ksy, wu, n_jobs, max_w,
        max_h, p->mma_kernel);
  if (p->nf == 3)
    return dispatch < 4, 3 > (launch_op (m), ksx, ksy, wu, n_jobs, max_w,
        max_h, p->mma_kernel);
  return dispatch < 4, 4 > (launch_op (m), ksx, ksy, wu, n_jobs, max_w,
      max_h, p->mma_kernel);
}

cudaError_t
cf_mma_dense_plan (CfFastPlan * p, int major, int K, bool taps_s8)
{
  const CfFastArgs & a = p->a;
  MmaArgs & m = p->m;

  m = MmaArgs { };
  /* One k-step a kernel row: 8 outputs and their reach in 32 columns;
   * samples one distance apart (not packed 4:2:2). */
  if (major < 8 || !taps_s8 || job_args (p, K, 8, m) != 1)
    return cudaErrorNotSupported;
  for (int j = 0; j < p->n_jobs; j++)
    if (p->job_step[j] > CF_MMA_STEPS)
      return cudaErrorNotSupported;
  m.kw = a.kw;
  m.kh = a.kh;
  m.ax = a.ax;
  m.ay = a.ay;

  /* Planes of bytes only: the FMA kernels' dp4a sums were as fast or
   * faster for 4-sample pixels (cf_fast_plan). */
  if (p->ch != 1)
    return cudaErrorNotSupported;
  return dispatch_dense (K, launch_op (m), p->n_jobs, p->max_w, p->max_h,
      p->mma_kernel);
}

cudaError_t
cf_mma_run (const CfFastPlan * p, const CfFastArgs & a, cudaStream_t stream)
{
  MmaArgs m = p->m;

  /* Wider accesses where every row of every job allows them. */
  m.flags = SRC_WORDS | SRC_VEC | DST_VEC;
  for (int j = 0; j < p->n_jobs; j++) {
    if (((uintptr_t) a.src[j] | (uintptr_t) a.ss[j]) & 3)
      m.flags &= ~SRC_WORDS;
    if (((uintptr_t) a.src[j] | (uintptr_t) a.ss[j]) & 15)
      m.flags &= ~SRC_VEC;
    if (((uintptr_t) a.dst[j] | (uintptr_t) a.ds[j]) & 15)
      m.flags &= ~DST_VEC;
    m.src[j] = a.src[j];
    m.dst[j] = a.dst[j];
    m.dense = a.dense;
    m.ss[j] = a.ss[j];
    m.ds[j] = a.ds[j];
  }
  return cf_launch_pick (p->mma_kernel, m, stream);
}
