/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: linear filters of 16-bit words, four words a thread.
 *
 * The wide kernel (cf-wide.cu) decodes every word of its tile to fp64 and
 * splits it by lane; its profile gave 3.3 warp instructions a word, so it
 * lost to NPP wherever NPP does a pixel a thread (RGBA64).  Here a thread
 * owns four neighbouring words of a row, whatever their lanes, and the
 * sums are integers where integers hold them:
 *  - the tile and its apron are loaded four words a load, decoded once to
 *    32-bit samples in shared memory;
 *  - the taps of a row are at word offsets i x step from the first, so a
 *    group of 4 / step taps spans one chunk of four words: 16-byte reads,
 *    no per-lane planes (the step and the anchor's offset in the chunk are
 *    template arguments of the row function, chosen once a block);
 *  - separable: the row sums are exact 32-bit integers (unsigned for
 *    non-negative taps: 65535 x 65536 < 2^32), the column sums exact fp64
 *    FMAs, and the op's floor is an fp64 add rounded down;
 *  - dense (sums the spec bounds by 2^31): int32 sums and the CPU's
 *    integer op;
 *  - a thread stores its four words of a row at once.
 * The plan (cf_wide_quad_plan) takes single linear kernels whose bounds it
 * has checked; the other specs run the wide kernel. */

#include <stdint.h>
#include <cuda_runtime.h>

#include "cf-arith.h"
#include "cf-wide.h"

namespace
{

/* Tiles of 128 words x 32 rows: against 256 words, 4K RGBA64 box 5x5 118
 * against 131 us and 1080p GRAY16 box 5x5 18.5 against 23.8 (more blocks
 * a frame and an SM); 13 taps of RGBA64 lost (232 against 206 us: the
 * apron of 48 words a side) and still beat NPP's 291 (H200). */
constexpr int QT = 128;         /* threads a block */
constexpr int QCOLS = 32;       /* threads across a tile, four words each */
constexpr int QROWS = QT / QCOLS;       /* row groups */
constexpr int QW = 4 * QCOLS;   /* output words a tile row */
constexpr int QM = 8;           /* output rows a thread */
constexpr int QH = QROWS * QM;  /* output rows a tile */
constexpr int QLOADS = 10;      /* rows of chunks a thread loads at once */

/* 2^52 + 2^51: adding it rounded down leaves floor (v) in the low word
 * for |v| < 2^31. */
constexpr double FLOOR_MAGIC = 6755399441055744.0;

/* Shared memory of a block for a job of 2^lg words a pixel, in 32-bit
 * words: the column taps (fp64, separable), the tile rows' byte offsets in
 * the frame (-1: the border value), the row or dense taps (int,
 * each row zero-padded to whole groups), the tile (chunks of four words),
 * the row sums (separable: four planes, one a word of a thread's four, so
 * the column pass reads them without bank conflicts). */
struct QuadGeo
{
  int lead;                     /* words loaded left of the first output */
  int off;                      /* first tap's word in a thread's chunk */
  int groups;                   /* tap groups a row, 4 / step taps each */
  int nch;                      /* chunks a group's window spans */
  int pitch;                    /* chunks a tile row */
  int in_h;                     /* tile rows */
  int kh4;                      /* column taps padded to groups of four */
  int ymap, rtaps, tile, hs;    /* offsets, 32-bit words */
  size_t bytes;

  __host__ __device__ QuadGeo (const CfKernelParams & kp, int lg)
  {
    const int s = 1 << lg;
    const int g = 4 >> lg;

    lead = (kp.ax * s + 3) & ~3;
    off = lead - kp.ax * s;
    groups = (kp.kw + g - 1) / g;
    nch = (off + 7 - s) / 4 + 1;
    pitch = QCOLS + groups + nch - 2;
    kh4 = (kp.kh + 3) & ~3;
    in_h = kp.separable ? QH + kh4 - 1 : QH + kp.kh - 1;
    ymap = kp.separable ? 2 * kh4 : 0;
    rtaps = ymap + 2 * in_h;
    tile = rtaps + (kp.separable ? 1 : kp.kh) * groups * g;
    tile = (tile + 3) & ~3;
    hs = tile + in_h * pitch * 4;
    bytes = 4 * (size_t) (hs + (kp.separable ? in_h * QW : 0));
  }
};

template < int V > struct Const
{
  static constexpr int v = V;
};

/* Word k of a window of chunks. */
template < int K, int NCH > __device__ __forceinline__ unsigned
word_of (const uint4 (&win)[NCH])
{
  const uint4 & c = win[K / 4];
  return K % 4 == 0 ? c.x : K % 4 == 1 ? c.y : K % 4 == 2 ? c.z : c.w;
}

/* Adds tap T of a group (weight w) into the four words' sums. */
template < int S, int OFF, int T, int NCH > __device__ __forceinline__ void
tap4 (const uint4 (&win)[NCH], unsigned w, unsigned (&h)[4])
{
  h[0] += w * word_of < OFF + T * S > (win);
  h[1] += w * word_of < OFF + T * S + 1 > (win);
  h[2] += w * word_of < OFF + T * S + 2 > (win);
  h[3] += w * word_of < OFF + T * S + 3 > (win);
}

/* Adds the row sums of four neighbouring output words of R rows into h
 * (modulo 2^32: the plan has bounded them): row + k * rstride is the chunk
 * holding the first tap of row k's first word, taps[q * G + t] the groups'
 * taps (zero-padded), read once for the R rows. */
template < int S, int OFF, int R > __device__ __forceinline__ void
row_sums4 (const uint4 * row, int rstride, const int *taps, int groups,
    unsigned (&h)[R][4])
{
  constexpr int G = 4 / S;
  constexpr int NCH = (OFF + 7 - S) / 4 + 1;
  uint4 win[R][NCH];

#pragma unroll
  for (int k = 0; k < R; k++)
#pragma unroll
    for (int c = 0; c < NCH - 1; c++)
      win[k][c] = row[k * rstride + c];
  for (int q = 0; q < groups; q++) {
    const int *tq = taps + q * G;
    unsigned w[G];
#pragma unroll
    for (int t = 0; t < G; t++)
      w[t] = (unsigned) tq[t];
#pragma unroll
    for (int k = 0; k < R; k++) {
      win[k][NCH - 1] = row[k * rstride + q + NCH - 1];
      tap4 < S, OFF, 0 > (win[k], w[0], h[k]);
      if constexpr (G > 1)
        tap4 < S, OFF, 1 % G > (win[k], w[1 % G], h[k]);
      if constexpr (G > 2) {
        tap4 < S, OFF, 2 % G > (win[k], w[2 % G], h[k]);
        tap4 < S, OFF, 3 % G > (win[k], w[3 % G], h[k]);
      }
#pragma unroll
      for (int c = 0; c < NCH - 1; c++)
        win[k][c] = win[k][c + 1];
    }
  }
}

/* Calls f (Const<step>, Const<off>) for the block's layout: the step and
 * the anchor's place in a chunk are constants of the row function. */
template < typename F > __device__ __forceinline__ void
with_layout (int lg, int off, F f)
{
  switch (lg * 4 + off) {
    case 0:
      f (Const < 1 > (), Const < 0 > ());
      break;
    case 1:
      f (Const < 1 > (), Const < 1 > ());
      break;
    case 2:
      f (Const < 1 > (), Const < 2 > ());
      break;
    case 3:
      f (Const < 1 > (), Const < 3 > ());
      break;
    case 4:
      f (Const < 2 > (), Const < 0 > ());
      break;
    case 6:
      f (Const < 2 > (), Const < 2 > ());
      break;
    default:
      f (Const < 4 > (), Const < 0 > ());
      break;
  }
}

/* A row sum as fp64: the 32-bit sum as unsigned (base 2^52), or a signed
 * one moved into the unsigned range (base 2^52 + 2^31), through 2^52 on
 * the FP64 pipe instead of a slower conversion. */
__device__ __forceinline__ double
row_sum_to_double (unsigned h, double base)
{
  return __hiloint2double (0x43300000, (int) h) - base;
}

__device__ __forceinline__ unsigned
decode (unsigned word, int shift, unsigned mask)
{
  return (word >> shift) & mask;
}

/* Four words of a chunk, decoded. */
template < bool PLAIN > __device__ __forceinline__ uint4
decode4 (uint2 w, int shift, unsigned mask)
{
  if (PLAIN)
    return make_uint4 (w.x & 0xFFFFu, w.x >> 16, w.y & 0xFFFFu, w.y >> 16);
  return make_uint4 (decode (w.x, shift, mask), decode (w.x, shift + 16, mask),
      decode (w.y, shift, mask), decode (w.y, shift + 16, mask));
}

/* Column `col` of the tile's chunks from rows whose byte offsets from
 * `base` ymap holds (-1: the raw border word), every load of a round
 * issued before any is used (a use inside the round made each wait for
 * the last). */
template < bool PLAIN > __device__ __forceinline__ void
load_rows (uint4 * tile, const uint2 * base, const long long *ymap, int in_h,
    int pitch, int col, int rg, unsigned raw, int shift, unsigned mask)
{
  for (int rb = rg; rb < in_h; rb += QROWS * QLOADS) {
    uint2 w[QLOADS];
#pragma unroll
    for (int u = 0; u < QLOADS; u++) {
      const int r = rb + QROWS * u;
      const long long yo = r < in_h ? ymap[r] : -1;
      w[u] = make_uint2 (raw, raw);
      if (yo >= 0)
        w[u] = __ldg ((const uint2 *) ((const unsigned char *) base + yo) +
            col);
    }
#pragma unroll
    for (int u = 0; u < QLOADS; u++) {
      const int r = rb + QROWS * u;
      if (r < in_h)
        tile[r * pitch + col] = decode4 < PLAIN > (w[u], shift, mask);
    }
  }
}

template < bool SEP > __global__ void
__launch_bounds__ (QT, SEP ? 6 : 4)
quad_kernel (const __grid_constant__ CfWideArgs a)
{
  extern __shared__ __align__ (16) unsigned qsm[];
  const CfWideJob & jb = a.job[blockIdx.z];
  const CfKernelParams & kp = a.kp;
  const int x0 = blockIdx.x * QW;
  const int y0 = blockIdx.y * QH;
  const int width = jb.width, height = jb.height;

  if (x0 >= width || y0 >= height)
    return;

  const int lg = jb.log2_step;
  const int s = 1 << lg;
  const int g = 4 >> lg;
  const int shift = jb.shift;
  const unsigned mask = jb.mask;
  const QuadGeo geo (kp, lg);
  const int tid = threadIdx.x;
  const int kw = kp.kw, kh = kp.kh;
  double *ctaps = (double *) qsm;
  int *rtaps = (int *) qsm + geo.rtaps;
  uint4 *tile = (uint4 *) (qsm + geo.tile);
  const int pitch = geo.pitch;
  const int gtaps = geo.groups * g;

  /* Taps, each row zero-padded to whole groups: separable, the row's as
   * ints and the column's as fp64 (padded to four); dense, kh rows. */
  if (SEP) {
    for (int t = tid; t < geo.kh4; t += QT)
      ctaps[t] = t < kh ? (double) a.sep.col[0][t] : 0.0;
    for (int t = tid; t < gtaps; t += QT)
      rtaps[t] = t < kw ? a.sep.row[0][t] : 0;
  } else {
    for (int t = tid; t < kh * gtaps; t += QT) {
      const int j = t / gtaps, i = t - j * gtaps;
      rtaps[t] = i < kw ? a.dense[j * kw + i] : 0;
    }
  }

  long long *ymap = (long long *) (qsm + geo.ymap);
  for (int t = tid; t < geo.in_h; t += QT) {
    const int Y = cf_border_index (y0 + t - kp.ay, height, kp.border);
    ymap[t] = Y < 0 ? -1 : Y * jb.ss;
  }
  __syncthreads ();

  /* The tile: chunk k of row r holds words x0 - lead + 4 k .. + 3 of
   * frame row y0 + r - ay, decoded, every load of a round issued before
   * any is used (a use inside the round made each wait for the last). */
  const int col = tid % QCOLS;
  const int rg = tid / QCOLS;
  {
    const unsigned char *src = jb.src;
    const int gw0 = x0 - geo.lead;
    const unsigned bv = (unsigned) kp.border_value;

    if (a.vec && gw0 >= 0 && gw0 + 4 * pitch <= width) {
      /* Inside the row: a column of chunks a thread, eight bytes a load;
       * rows outside the frame take the border value as a raw word (vec:
       * it fits the sample's bits). */
      const uint2 *base = (const uint2 *) (src + 2 * (long long) gw0);
      const unsigned raw = (bv << shift) * 0x10001u;
      if (shift == 0 && mask == 0xFFFFu)
        load_rows < true > (tile, base, ymap, geo.in_h, pitch, col, rg, raw,
            0, mask);
      else
        load_rows < false > (tile, base, ymap, geo.in_h, pitch, col, rg, raw,
            shift, mask);
      /* The apron's columns beyond the threads'. */
      const int extra = pitch - QCOLS;
      for (int t = tid; t < extra * geo.in_h; t += QT) {
        const int r = t / extra, k = QCOLS + t - r * extra;
        const long long yo = ymap[r];
        uint2 w = make_uint2 (raw, raw);
        if (yo >= 0)
          w = __ldg ((const uint2 *) ((const unsigned char *) base + yo) + k);
        tile[r * pitch + k] = decode4 < false > (w, shift, mask);
      }
    } else {
      /* At the frame's edges (or rows not 8-byte aligned): each word's
       * pixel mapped by the border, its lane kept. */
      const int wpx = width >> lg;
      for (int t = tid; t < geo.in_h * pitch; t += QT) {
        const int r = t / pitch, k = t - r * pitch;
        const long long yo = ymap[r];
        unsigned e[4];
#pragma unroll
        for (int q = 0; q < 4; q++) {
          const int wi = gw0 + 4 * k + q;
          const int X = cf_border_index (wi >> lg, wpx, kp.border);
          e[q] = yo < 0 || X < 0 ? bv : decode (__ldg ((const unsigned short
                      *) (src + yo) + ((X << lg) | (wi & (s - 1)))), shift,
              mask);
        }
        tile[t] = make_uint4 (e[0], e[1], e[2], e[3]);
      }
    }
  }
  __syncthreads ();

  const int r0 = rg * QM;
  /* The output samples of this thread: QM rows of four words; copied and
   * filled lanes take the source sample or the fill, one branch a word. */
  unsigned val[QM][4];
  const unsigned *centre = (const unsigned *) tile +
      (r0 + kp.ay) * pitch * 4 + geo.lead + 4 * col;
#define CF_QUAD_OTHER_LANE(j) \
  if (jb.mode[(j) & (s - 1)] == CF_CHANNEL_COPY) { \
    for (int n = 0; n < QM; n++) \
      val[n][j] = centre[n * pitch * 4 + (j)]; \
  } else { \
    for (int n = 0; n < QM; n++) \
      val[n][j] = (unsigned) jb.fill[(j) & (s - 1)] & mask; \
  }

  if (SEP) {
    unsigned *hs = qsm + geo.hs;
    /* Row sums of every tile row, into plane j of word j; signed sums
     * moved into the unsigned range (the column pass reads them as fp64). */
    const unsigned flip = a.row_signed ? 0x80000000u : 0u;
    with_layout (lg, geo.off,[&](auto S, auto OFF) {
          /* Two rows an iteration share the taps' loads. */
          for (int r = rg; r < geo.in_h; r += 2 * QROWS) {
            const bool second = r + QROWS < geo.in_h;
            unsigned h[2][4] = { {0, 0, 0, 0}, {0, 0, 0, 0} };
            row_sums4 < decltype (S)::v, decltype (OFF)::v, 2 > (tile +
                r * pitch + col, second ? QROWS * pitch : 0, rtaps,
                geo.groups, h);
#pragma unroll
            for (int j = 0; j < 4; j++) {
              hs[(r * 4 + j) * QCOLS + col] = h[0][j] ^ flip;
              if (second)
                hs[((r + QROWS) * 4 + j) * QCOLS + col] = h[1][j] ^ flip;
            }
          }
        });
    __syncthreads ();

    /* Column sums in fp64, a word at a time: a window of QM + 3 rows, taps
     * in groups of four (zero-padded; the tile has the rows). */
    const double base = a.row_signed ? 4503601774854144.0 :
        4503599627370496.0;
#pragma unroll
    for (int j = 0; j < 4; j++) {
      if (jb.mode[j & (s - 1)] != CF_CHANNEL_FILTER) {
        CF_QUAD_OTHER_LANE (j);
        continue;
      }
      const unsigned *hc = hs + (r0 * 4 + j) * QCOLS + col;
      double acc[QM], x[QM + 3];
#pragma unroll
      for (int n = 0; n < QM; n++)
        acc[n] = 0.0;
#pragma unroll
      for (int k = 0; k < QM - 1; k++)
        x[k] = row_sum_to_double (hc[k * 4 * QCOLS], base);
      for (int q = 0; q < geo.kh4; q += 4, hc += 16 * QCOLS) {
#pragma unroll
        for (int k = QM - 1; k < QM + 3; k++)
          x[k] = row_sum_to_double (hc[k * 4 * QCOLS], base);
#pragma unroll
        for (int t = 0; t < 4; t++) {
          const double w = ctaps[q + t];
#pragma unroll
          for (int n = 0; n < QM; n++)
            acc[n] = __fma_rn (w, x[n + t], acc[n]);
        }
#pragma unroll
        for (int k = 0; k < QM - 1; k++)
          x[k] = x[k + 4];
      }
      /* floor ((acc + bias) / 2^shift), exact: the plan has shown
       * |acc + bias| < 2^53 and the quotient below 2^31. */
#pragma unroll
      for (int n = 0; n < QM; n++) {
        const double v = __fma_rn (acc[n], a.scale, a.bias_scaled);
        const int f = __double2loint (__dadd_rd (v, FLOOR_MAGIC));
        val[n][j] = (unsigned) min (max (f, 0), kp.maxval);
      }
    }
  } else {
    unsigned acc[QM][4];
#pragma unroll
    for (int n = 0; n < QM; n++)
#pragma unroll
      for (int j = 0; j < 4; j++)
        acc[n][j] = 0;
    /* Every tap row over every output row: int32 sums (the spec bounds
     * them), the CPU's op in 64 bits. */
    with_layout (lg, geo.off,[&](auto S, auto OFF) {
          for (int i = 0; i < kh; i++) {
#pragma unroll
            for (int n = 0; n < QM; n += 2) {
              unsigned h[2][4];
#pragma unroll
              for (int j = 0; j < 4; j++) {
                h[0][j] = acc[n][j];
                h[1][j] = acc[n + 1][j];
              }
              row_sums4 < decltype (S)::v, decltype (OFF)::v, 2 > (tile +
                  (r0 + n + i) * pitch + col, pitch, rtaps + i * gtaps,
                  geo.groups, h);
#pragma unroll
              for (int j = 0; j < 4; j++) {
                acc[n][j] = h[0][j];
                acc[n + 1][j] = h[1][j];
              }
            }
          }
        });
#pragma unroll
    for (int j = 0; j < 4; j++) {
      if (jb.mode[j & (s - 1)] != CF_CHANNEL_FILTER) {
        CF_QUAD_OTHER_LANE (j);
        continue;
      }
#pragma unroll
      for (int n = 0; n < QM; n++)
        val[n][j] = (unsigned) cf_post_linear ((int) acc[n][j], kp.shift,
            kp.bias, kp.maxval);
    }
  }
#undef CF_QUAD_OTHER_LANE

  /* Two words a register, shifted into place together (each below
   * 2^(16 - shift)). */
  unsigned out[QM][2];
#pragma unroll
  for (int n = 0; n < QM; n++) {
    out[n][0] = (val[n][0] | val[n][1] << 16) << shift;
    out[n][1] = (val[n][2] | val[n][3] << 16) << shift;
  }

  const int x = x0 + 4 * col;
  if (x >= width)
    return;
  const long long ds = jb.ds;
  unsigned char *dst = jb.dst + (long long) (y0 + r0) * ds + 2 * (long long) x;
  const int rows = min (QM, height - (y0 + r0));
  const bool whole = a.vec_out && x + 4 <= width;
#pragma unroll
  for (int n = 0; n < QM; n++) {
    if (n >= rows)
      break;
    if (whole) {
      *(uint2 *) dst = make_uint2 (out[n][0], out[n][1]);
    } else {
#pragma unroll
      for (int j = 0; j < 4; j++)
        if (x + j < width)
          ((uint16_t *) dst)[j] = (uint16_t) (out[n][j / 2] >> (16 * (j & 1)));
    }
    dst += ds;
  }
}

}                               /* namespace */

cudaError_t
cf_wide_quad_plan (CfWidePlan * p, const CfKernelParams * kp,
    const CfSepWeights * sep, int optin, int max_w, int max_h)
{
  CfWideArgs & a = p->a;
  bool row_signed = false;
  size_t bytes = 0;

  if (kp->op != CF_OP_LINEAR || kp->n_kernels != 1 || kp->border_value < 0
      || kp->border_value > 65535)
    return cudaErrorNotSupported;
  if (kp->separable) {
    const double sr = cf_wide_abs_sum (sep->row[0], kp->kw);
    const double reach = 65535.0 * sr * cf_wide_abs_sum (sep->col[0], kp->kh)
        + fabs ((double) kp->bias);

    for (int i = 0; i < kp->kw; i++)
      row_signed = row_signed || sep->row[0][i] < 0;
    /* Row sums in 32 bits: unsigned for non-negative taps, else signed;
     * column sums and the op in fp64, the quotient's floor below 2^31. */
    if (65535.0 * sr > (row_signed ? 2147483647.0 : 4294967295.0)
        || !(reach < CF_WIDE_EXACT)
        || !(ldexp (reach, -kp->shift) < 2147483647.0))
      return cudaErrorNotSupported;
  } else if (kp->wide_acc) {
    return cudaErrorNotSupported;
  }
  for (int j = 0; j < p->n_jobs; j++) {
    const QuadGeo geo (*kp, a.job[j].log2_step);
    if (geo.bytes > bytes)
      bytes = geo.bytes;
  }
  if (bytes > (size_t) optin)
    return cudaErrorNotSupported;

  p->quad = true;
  a.row_signed = row_signed;
  a.scale = ldexp (1.0, -kp->shift);
  a.bias_scaled = ldexp ((double) kp->bias, -kp->shift);
  const dim3 grid ((max_w + QW - 1) / QW, (max_h + QH - 1) / QH, p->n_jobs);
  const dim3 block (QT, 1, 1);
  return kp->separable ? cf_pick_kernel (p->pick, quad_kernel < true >, grid,
      block, bytes) : cf_pick_kernel (p->pick, quad_kernel < false >, grid,
      block, bytes);
}
