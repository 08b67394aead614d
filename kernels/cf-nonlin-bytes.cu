/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: 3x3 medians and min/max over rectangles within 3x3 on whole
 * rows of bytes (or 16-bit words), every channel of a plane at once.  A
 * plane whose pixels are one byte sample (GRAY8, I420's planes), two,
 * three or four (NV12's chroma, RGB, RGBA), or one, two or four 16-bit
 * samples (GRAY16, P016, RGBA64) is a row of samples whose horizontal
 * neighbour lies `pixel_stride` bytes away, so one lane-wise operation
 * filters every channel of the plane; the channels a plane copies or
 * fills are put back by byte masks at the store.  A frame whose planes
 * differ in pixel stride (NV12) takes a launch for each; YUY2, whose
 * channels differ within a plane, takes the tiled kernels.
 *
 * Each thread takes one or two words (thread_words ()) on WB_ROWS rows:
 * of bytes, each word two words of 16-bit lanes; of 16-bit samples, as
 * they are.  Hopper's min/max take a word of 16-bit lanes in one
 * instruction (__vminu2).  The median of 3x3 is the median of (the max of the
 * columns' minima, the median of their medians, the min of their maxima):
 * the columns are sorted once in the lanes they were loaded in and then
 * shifted to each output's neighbours, so a column serves three outputs.
 *
 * The 5x5 median takes planes of one sample a pixel (GRAY8, GRAY16, the
 * planes of I420): a thread's two rows are the two lanes of a word, so a
 * word is one pixel column of both rows and its horizontal neighbour the
 * next word.  The columns are sorted once (9 comparators, shared by five
 * windows), neighbouring columns merged in pairs (13, each pair shared by
 * two windows), the ranks that two pairs leave possible found once for
 * the two windows that hold them (36 min or max), and each window's median
 * from those and its fifth column (10): per output word (two outputs)
 * 9 + 6.5 + 18 + 10 comparators' worth, the CPU backend's network
 * (cf-nonlin-med5.h).  Exact at any depth (min/max exchanges only). */
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include "cf-nonlin-launch.h"
#include "cf-nonlin-pass.cuh"

/* Outputs of a block: 32 threads x TW words wide, 8 x WB_ROWS rows.  Two
 * rows a thread: 4K GRAY8 erode 3x3 31 -> 23 us and 1080p 23 -> 15 against
 * eight (H200): a block's time is mostly its tile's load, and short blocks
 * even out over the SMs (with eight, ncu saw SMs busy from 17k to 56k
 * cycles of a 61k-cycle kernel). */
#define WB_ROWS 2
#define WB_TX 32
#define WB_TY 8
/* The 5x5 median's rows a block (WB_TY threads of WB_ROWS rows) and its
 * columns' radius. */
#define WB_MED5_R 2
/* Its blocks an SM.  On sm_90, where a lane min or max is one
 * instruction, four (64 registers; the 8-bit instance spills a word): the
 * kernel waits on its own dependencies (ncu at three blocks: no eligible
 * warp in 46 % of the cycles), and 4K GRAY8 / GRAY16 / I420 took 34.0 /
 * 38.2 / 54.6 us against 34.8 / 40.0 / 56.0 with three (80 registers).
 * Where they take several (sm_75 to sm_89) three would spill (112 bytes),
 * and sm_100 spills a word. */
#if defined (__CUDA_ARCH__) && __CUDA_ARCH__ == 900
#define WB_MED5_BLOCKS 4
#else
#define WB_MED5_BLOCKS 2
#endif

namespace
{

/* A min/max window is a rectangle within 3x3 (rows x columns): a max is
 * the min of the lanes' complements (flip), and a sample outside the
 * window is ORed to all ones, which no min takes: no branch per sample. */
struct CfNlByteArgs
{
  CfNlBytePlane planes[CF_MAX_PLANES];
  unsigned flip;                /* XOR of every lane word in and out */
  unsigned row_off[3], col_off[3];      /* dy + 1, dx + 1: 0 in, ~0 out */
  bool full;                    /* the whole 3x3: no sample to mask */
  int border, border_value;
};

__device__ __forceinline__ unsigned
lane_min (unsigned a, unsigned b)
{
  return __vminu2 (a, b);
}

__device__ __forceinline__ unsigned
lane_max (unsigned a, unsigned b)
{
  return __vmaxu2 (a, b);
}

#define WB_SORT2(a, b) \
  { const unsigned t_ = lane_min (a, b); b = lane_max (a, b); a = t_; }

__device__ __forceinline__ unsigned
med3 (unsigned a, unsigned b, unsigned c)
{
  return lane_max (lane_min (a, b), lane_min (lane_max (a, b), c));
}

/* The lane columns a thread reads: its NO own lane words from [HALO], and
 * HALO more on each side.  A neighbour lies SL = P / LB
 * lanes away: SL / 2 lane words when SL is even, else the high lane of
 * one word and the low lane of the next (funnelled). */
template < int LB, int P, int TW > struct Lanes
{
  static constexpr int NO = 2 * TW / LB;        /* own lane words */
  static constexpr int SL = P / LB;
  static constexpr int HALO = (SL + 1) / 2;
  static constexpr int N = NO + 2 * HALO;
  /* the tile's words of halo on each side: a pixel's bytes, rounded up to
   * words (two for RGBA64) */
  static constexpr int TILE_HALO = (P + 3) / 4;
};

/* Own lane word `o` (0 .. NO - 1) moved by d pixels (-1, 0, 1). */
template < int LB, int P, int TW > __device__ __forceinline__ unsigned
lane_at (const unsigned (&u)[Lanes < LB, P, TW >::N], int o, int d)
{
  constexpr int H = Lanes < LB, P, TW >::HALO, SL = Lanes < LB, P, TW >::SL;

  if (d == 0)
    return u[H + o];
  if (SL % 2 == 1) {
    /* lanes 2 o + d SL and the next: the first's word is o + (d SL - 1) / 2
     * (d SL is odd) */
    const int w = H + o + (d * SL - 1) / 2;

    return __byte_perm (u[w], u[w + 1], 0x5432);
  }
  return u[H + o + d * (SL / 2)];
}

/* Row of the tile from the thread's first word at t[TILE_HALO] as lane
 * words: LB 1 unpacks 4 bytes into two words of 16-bit lanes, LB 2 takes
 * the words as they are. */
template < int LB, int P, int TW > __device__ __forceinline__ void
unpack_row (const unsigned *t, unsigned (&u)[Lanes < LB, P, TW >::N])
{
  constexpr int H = Lanes < LB, P, TW >::HALO, N = Lanes < LB, P, TW >::N;
  constexpr int TH = Lanes < LB, P, TW >::TILE_HALO;

#pragma unroll
  for (int i = 0; i < N; i++) {
    const int li = i - H;

    if (LB == 1)
      /* bytes 2 li and 2 li + 1 of the thread's span */
      u[i] = __byte_perm (t[(li >> 1) + TH], 0, (li & 1) ? 0x4342 : 0x4140);
    else
      u[i] = t[li + TH];
  }
}

/* Every own lane word's median of the 3x3 windows over rows u0, u1, u2. */
template < int LB, int P, int TW > __device__ __forceinline__ void
median (const unsigned (&u0)[Lanes < LB, P, TW >::N],
    const unsigned (&u1)[Lanes < LB, P, TW >::N],
    const unsigned (&u2)[Lanes < LB, P, TW >::N],
    unsigned (&v)[Lanes < LB, P, TW >::NO])
{
  constexpr int N = Lanes < LB, P, TW >::N;
  unsigned lo[N], mi[N], hi[N];

#pragma unroll
  for (int i = 0; i < N; i++) {
    unsigned a = u0[i], b = u1[i], c = u2[i];

    WB_SORT2 (a, b);
    WB_SORT2 (b, c);
    WB_SORT2 (a, b);
    lo[i] = a;
    mi[i] = b;
    hi[i] = c;
  }
#pragma unroll
  for (int o = 0; o < Lanes < LB, P, TW >::NO; o++) {
    const unsigned a = lane_max (lane_max (lane_at < LB, P, TW > (lo, o, -1),
            lane_at < LB, P, TW > (lo, o, 0)), lane_at < LB, P, TW > (lo, o, 1));
    const unsigned b = med3 (lane_at < LB, P, TW > (mi, o, -1),
        lane_at < LB, P, TW > (mi, o, 0), lane_at < LB, P, TW > (mi, o, 1));
    const unsigned c = lane_min (lane_min (lane_at < LB, P, TW > (hi, o, -1),
            lane_at < LB, P, TW > (hi, o, 0)), lane_at < LB, P, TW > (hi, o, 1));
    v[o] = med3 (a, b, c);
  }
}

/* Every own lane word's minimum over the rectangle (flipped lanes for a
 * max): the columns' minima first, then the rows'. */
template < int LB, int P, int TW > __device__ __forceinline__ void
window_min (const unsigned (&u0)[Lanes < LB, P, TW >::N],
    const unsigned (&u1)[Lanes < LB, P, TW >::N],
    const unsigned (&u2)[Lanes < LB, P, TW >::N], const CfNlByteArgs & a,
    unsigned (&v)[Lanes < LB, P, TW >::NO])
{
  constexpr int N = Lanes < LB, P, TW >::N;
  unsigned col[N];

  if (a.full) {
    /* the common 3x3 square without its masks (a uniform branch) */
#pragma unroll
    for (int i = 0; i < N; i++)
      col[i] = lane_min (lane_min (u0[i], u1[i]), u2[i]);
#pragma unroll
    for (int o = 0; o < Lanes < LB, P, TW >::NO; o++)
      v[o] = lane_min (lane_min (lane_at < LB, P, TW > (col, o, -1),
              lane_at < LB, P, TW > (col, o, 0)), lane_at < LB, P, TW > (col, o, 1));
    return;
  }
#pragma unroll
  for (int i = 0; i < N; i++)
    col[i] = lane_min (lane_min (u0[i] | a.row_off[0], u1[i] | a.row_off[1]),
        u2[i] | a.row_off[2]);
#pragma unroll
  for (int o = 0; o < Lanes < LB, P, TW >::NO; o++)
    v[o] = lane_min (lane_min (lane_at < LB, P, TW > (col, o, -1) | a.col_off[0],
            lane_at < LB, P, TW > (col, o, 0) | a.col_off[1]),
        lane_at < LB, P, TW > (col, o, 1) | a.col_off[2]);
}

/* The first n (< 4) bytes of w at d: a row's last word. */
__device__ __noinline__ void
store_tail (unsigned char *d, unsigned w, int n)
{
  for (int b = 0; b < n; b++)
    d[b] = (unsigned char) (w >> (8 * b));
}

/* The tile word whose first byte is x0 in row y, where it leaves the
 * plane: byte by byte through the border. */
__device__ __noinline__ unsigned
edge_word (const CfNlBytePlane & pl, const CfNlByteArgs & a, int x0, int y,
    int lane_bytes)
{
  const int ps = pl.pixel_stride;
  const int by = cf_border_index (y, pl.height, a.border);
  unsigned w = 0;

#pragma unroll
  for (int b = 0; b < 4; b++) {
    const int x = x0 + b;
    /* rounded down below 0 too (x >= -4 ps) */
    const int px = (x + 4 * ps) / ps - 4;
    const int byte = x - px * ps;
    const int bx = cf_border_index (px, pl.width, a.border);
    unsigned v;

    if (bx < 0 || by < 0) {
      /* the border value's byte of its sample word */
      const int in_sample = lane_bytes == 2 ? (byte & 1) : 0;
      v = ((unsigned) a.border_value >> (8 * in_sample)) & 0xFF;
    } else {
      v = __ldg (pl.src + by * pl.src_stride + (long long) bx * ps + byte);
    }
    w |= v << (8 * b);
  }
  return w;
}

/* A block's tile of words: its threads' TW words a row and HW words of
 * halo on each side (every neighbour up to 4 HW bytes away), its rows and
 * R rows of halo above and below. */
template < int TW, int R, int HW = 1 > struct Tile
{
  static constexpr int W = WB_TX * TW + 2 * HW;
  static constexpr int H = WB_TY * WB_ROWS + 2 * R;
};

/* Loads the block's tile from word wx0 and row y0 of the plane, the
 * border applied. */
template < int LB, int TW, int R, int HW > __device__ __forceinline__ void
load_tile (unsigned (&tile)[Tile < TW, R, HW >::H][Tile < TW, R, HW >::W],
    const CfNlBytePlane & pl, const CfNlByteArgs & a, long long wx0, int y0)
{
  constexpr int TILE_W = Tile < TW, R, HW >::W;
  constexpr int TILE_H = Tile < TW, R, HW >::H;
  /* Every load of the thread issued before any waits (a loop that
   * stores each word before the next load pays a memory latency a
   * word). */
  constexpr int NX = (TILE_W + WB_TX - 1) / WB_TX;
  constexpr int NY = (TILE_H + WB_TY - 1) / WB_TY;
  const int x_first = (int) (wx0 - HW) * 4, y_first = y0 - R;

  if (x_first >= 0 && x_first + 4 * TILE_W <= pl.row_bytes &&
      y_first >= 0 && y_first + TILE_H <= pl.height) {
    /* The whole tile in the plane: its words in order over the block's
     * threads, rows of TILE_W words from the block's first row (every
     * load a word, no predicate but the last few). */
    constexpr int NT = WB_TX * WB_TY, TILE_N = TILE_H * TILE_W;
    constexpr int NL = (TILE_N + NT - 1) / NT;
    const unsigned char *base = pl.src + y_first * pl.src_stride + x_first;
    const int stride = (int) pl.src_stride;
    const int t = threadIdx.y * WB_TX + threadIdx.x;
    unsigned w[NL];

#pragma unroll
    for (int j = 0; j < NL; j++) {
      const int i = t + j * NT, ty = i / TILE_W, tx = i - ty * TILE_W;

      if (i < TILE_N)
        w[j] = __ldg ((const unsigned *) (base + (long long) ty * stride +
                4 * tx));
    }
#pragma unroll
    for (int j = 0; j < NL; j++)
      if (t + j * NT < TILE_N)
        (&tile[0][0])[t + j * NT] = w[j];
    return;
  }

  /* An edge block: the words within the rows' bytes a word at a time,
   * rows past the plane through the border (the constant border's a
   * word of its value); then the words that cross a row's ends, a
   * column or two of the tile, byte by byte, spread over the block's
   * threads (a warp that walks them one after the other costs
   * several inner blocks). */
  const unsigned fill_word = LB == 2 ?
      ((unsigned) a.border_value & 0xFFFF) * 0x10001u :
      ((unsigned) a.border_value & 0xFF) * 0x1010101u;
  unsigned r[NY][NX];

#pragma unroll
  for (int k = 0; k < NY; k++)
#pragma unroll
    for (int m = 0; m < NX; m++) {
      const int tx = threadIdx.x + m * WB_TX;
      const int ty = threadIdx.y + k * WB_TY;
      const int x0 = x_first + 4 * tx;
      const int by = cf_border_index (y_first + ty, pl.height, a.border);

      if (tx < TILE_W && ty < TILE_H && x0 >= 0 && x0 + 4 <= pl.row_bytes)
        r[k][m] = by < 0 ? fill_word : __ldg ((const unsigned *) (pl.src
                + (long long) by * pl.src_stride + x0));
    }
#pragma unroll
  for (int k = 0; k < NY; k++)
#pragma unroll
    for (int m = 0; m < NX; m++) {
      const int tx = threadIdx.x + m * WB_TX;
      const int ty = threadIdx.y + k * WB_TY;
      const int x0 = x_first + 4 * tx;

      if (tx < TILE_W && ty < TILE_H && x0 >= 0 && x0 + 4 <= pl.row_bytes)
        tile[ty][tx] = r[k][m];
    }

  /* the edge columns: the first HW when the tile starts left of the
   * plane, and from right_col on, whose words pass the row's end */
  const int t = threadIdx.y * WB_TX + threadIdx.x;
  const int right_col = pl.row_bytes - 4 - x_first < 0 ? 0 :
      min ((pl.row_bytes - 4 - x_first) / 4 + 1, TILE_W);
  const int n_left = x_first < 0 ? min (HW, right_col) : 0;
  const int n_edge = (n_left + TILE_W - right_col) * TILE_H;

  for (int i = t; i < n_edge; i += WB_TX * WB_TY) {
    const int e = i / TILE_H, ty = i - e * TILE_H;
    const int tx = e < n_left ? e : right_col + e - n_left;

    tile[ty][tx] = edge_word (pl, a, x_first + 4 * tx, y_first + ty, LB);
  }
}

/* Stores output word w of a row at d whose input word is `in`: the
 * filtered lanes from w, the copied and filled ones put back (by the
 * masks of a pixel's second word when `second`: pixels of 8 bytes);
 * `tail` the bytes left in the row (4: a whole word). */
__device__ __forceinline__ void
store_word (unsigned char *d, unsigned w, unsigned in, int tail,
    const CfNlBytePlane & pl, bool second = false)
{
  const unsigned v = second ? (w & pl.keep2) | (in & pl.copy2) | pl.fill2 :
      (w & pl.keep) | (in & pl.copy) | pl.fill;

  if (tail == 4)
    *(unsigned *) d = v;
  else if (tail > 0)
    store_tail (d, v, tail);
}

template < int LB, int P, int TW, bool MEDIAN > __global__ static void
__launch_bounds__ (WB_TX * WB_TY, 4)
nl_bytes (const __grid_constant__ CfNlByteArgs a)
{
  constexpr int N = Lanes < LB, P, TW >::N;
  constexpr int HW = Lanes < LB, P, TW >::TILE_HALO;
  /* a thread's words start on a pixel: word k is a pixel's second one
   * when k is odd (pixels of 8 bytes) */
  static_assert (P != 8 || TW % 2 == 0, "whole pixels a thread");
  __shared__ unsigned tile[Tile < TW, 1, HW >::H][Tile < TW, 1, HW >::W];
  const CfNlBytePlane & pl = a.planes[blockIdx.z];
  const long long wx0 = (long long) blockIdx.x * WB_TX * TW;
  const int y0 = blockIdx.y * WB_TY * WB_ROWS;

  if (wx0 * 4 >= pl.row_bytes || y0 >= pl.height)
    return;
  load_tile < LB, TW, 1, HW > (tile, pl, a, wx0, y0);
  __syncthreads ();

  const int lx = threadIdx.x * TW;      /* the thread's first word */
  const long long bx = (wx0 + lx) * 4;  /* and its first byte */
  const int ly = threadIdx.y * WB_ROWS;
  unsigned u0[N], u1[N], u2[N];

  if (bx >= pl.row_bytes)
    return;
  unpack_row < LB, P, TW > (&tile[ly][lx], u0);
  unpack_row < LB, P, TW > (&tile[ly + 1][lx], u1);
  if (!MEDIAN)
#pragma unroll
    for (int i = 0; i < N; i++) {
      u0[i] ^= a.flip;
      u1[i] ^= a.flip;
    }
  /* the thread's words: whole, or the row's last few bytes */
  int tail[TW];
  unsigned char *drow = pl.dst + (long long) (y0 + ly) * pl.dst_stride + bx;

#pragma unroll
  for (int k = 0; k < TW; k++)
    tail[k] = (int) min ((long long) pl.row_bytes - (bx + 4 * k), 4LL);
#pragma unroll
  for (int r = 0; r < WB_ROWS; r++, drow += pl.dst_stride) {
    unsigned v[Lanes < LB, P, TW >::NO], out[TW];

    if (y0 + ly + r >= pl.height)
      break;
    unpack_row < LB, P, TW > (&tile[ly + r + 2][lx], u2);
    if (MEDIAN) {
      median < LB, P, TW > (u0, u1, u2, v);
    } else {
#pragma unroll
      for (int i = 0; i < N; i++)
        u2[i] ^= a.flip;
      window_min < LB, P, TW > (u0, u1, u2, a, v);
#pragma unroll
      for (int o = 0; o < Lanes < LB, P, TW >::NO; o++)
        v[o] ^= a.flip;
    }
    /* the lane words back to bytes (LB 1: two words a word) */
#pragma unroll
    for (int k = 0; k < TW; k++)
      out[k] = LB == 1 ? __byte_perm (v[2 * k], v[2 * k + 1], 0x6420) : v[k];
#pragma unroll
    for (int k = 0; k < TW; k++)
      store_word (drow + 4 * k, out[k], tile[ly + r + 1][lx + HW + k],
          tail[k], pl, P == 8 && (k & 1));
#pragma unroll
    for (int i = 0; i < N; i++) {
      u0[i] = u1[i];
      u1[i] = u2[i];
    }
  }
}

/* The 5x5 median's words: pixel column k of the thread's two rows (low
 * lane the first), k from -2 to P + 1 for the P pixels of its TW words. */
template < int LB, int TW > struct Med5
{
  static constexpr int P = 4 * TW / LB;
  static constexpr int N = P + 4;
};

/* Samples p and p + 1 (p even, from -2) of the tile row whose halo word
 * is t[0], as a word of 16-bit lanes. */
template < int LB > __device__ __forceinline__ unsigned
sample_pair (const unsigned *t, int p)
{
  if (LB == 1)
    return __byte_perm (t[(p + 4) >> 2], 0, (p & 2) ? 0x4342 : 0x4140);
  return t[(p + 2) >> 1];
}

/* the network's min and max, lane by lane */
#ifdef MIN
#undef MIN
#endif
#ifdef MAX
#undef MAX
#endif
#define MIN(a, b) lane_min (a, b)
#define MAX(a, b) lane_max (a, b)
#include "cf-nonlin-med5.h"

/* Columns p and p + 1 (p even) of the windows of the rows from tile row
 * t (halo word t[0], rows tw words apart), sorted: s0 and s1. */
template < int LB > __device__ __forceinline__ void
sorted_columns (const unsigned *t, int tw, int p, unsigned (&s0)[5],
    unsigned (&s1)[5])
{
  unsigned a0[5], a1[5], lo = sample_pair < LB > (t, p);

#pragma unroll
  for (int i = 0; i < 5; i++) {
    const unsigned hi = sample_pair < LB > (t + (i + 1) * tw, p);

    a0[i] = __byte_perm (lo, hi, 0x5410);
    a1[i] = __byte_perm (lo, hi, 0x7632);
    lo = hi;
  }
  CF_MED5_SORT (unsigned, a0, s0);
  CF_MED5_SORT (unsigned, a1, s1);
}

/* The medians of the 5x5 windows of the thread's P pixel columns on its
 * two rows, from the tile row above the first (t, its halo word): a left
 * to right sweep, so that only a few columns and one pair are live. */
template < int LB, int TW > __device__ __forceinline__ void
median5 (const unsigned *t, int tw, unsigned (&out)[Med5 < LB, TW >::P])
{
  constexpr int P = Med5 < LB, TW >::P;
  /* col[k + 2]: column k; pair[j]: columns 2 j - 1 and 2 j merged */
  unsigned col[Med5 < LB, TW >::N][5], pair[P / 2 + 1][10];

  sorted_columns < LB > (t, tw, -2, col[0], col[1]);
  sorted_columns < LB > (t, tw, 0, col[2], col[3]);
  CF_MED5_PAIR (unsigned, col[1], col[2], pair[0]);
#pragma unroll
  for (int x = 0; x < P; x += 2) {
    unsigned q[6];

    sorted_columns < LB > (t, tw, x + 2, col[x + 4], col[x + 5]);
    CF_MED5_PAIR (unsigned, col[x + 3], col[x + 4], pair[x / 2 + 1]);
    /* the windows at x (fifth column x - 2) and x + 1 (x + 3) */
    CF_MED5_CORE (unsigned, pair[x / 2], pair[x / 2 + 1], q);
    CF_MED5_EDGE (unsigned, q, col[x], out[x]);
    CF_MED5_EDGE (unsigned, q, col[x + 5], out[x + 1]);
  }
}

#undef MIN
#undef MAX

/* Word k of each of the two rows from the median words (LB 1: four
 * pixels' low or high lanes, LB 2: two). */
template < int LB, int TW > __device__ __forceinline__ void
pack_rows (const unsigned (&v)[Med5 < LB, TW >::P], int k, unsigned *r0,
    unsigned *r1)
{
  if (LB == 1) {
    const unsigned t01 = __byte_perm (v[4 * k], v[4 * k + 1], 0x6240);
    const unsigned t23 = __byte_perm (v[4 * k + 2], v[4 * k + 3], 0x6240);

    *r0 = __byte_perm (t01, t23, 0x5410);
    *r1 = __byte_perm (t01, t23, 0x7632);
  } else {
    *r0 = __byte_perm (v[2 * k], v[2 * k + 1], 0x5410);
    *r1 = __byte_perm (v[2 * k], v[2 * k + 1], 0x7632);
  }
}

/* The 5x5 median of a plane of one sample a pixel, LB bytes a sample. */
template < int LB, int TW > __global__ static void
__launch_bounds__ (WB_TX * WB_TY, WB_MED5_BLOCKS)
nl_med5 (const __grid_constant__ CfNlByteArgs a)
{
  constexpr int R = WB_MED5_R, TILE_W = Tile < TW, R >::W;
  __shared__ unsigned tile[Tile < TW, R >::H][TILE_W];
  const CfNlBytePlane & pl = a.planes[blockIdx.z];
  const long long wx0 = (long long) blockIdx.x * WB_TX * TW;
  const int y0 = blockIdx.y * WB_TY * WB_ROWS;

  if (wx0 * 4 >= pl.row_bytes || y0 >= pl.height)
    return;
  load_tile < LB, TW, R, 1 > (tile, pl, a, wx0, y0);
  __syncthreads ();

  const int lx = threadIdx.x * TW;      /* the thread's first word */
  const long long bx = (wx0 + lx) * 4;  /* and its first byte */
  const int ly = threadIdx.y * WB_ROWS; /* its first row in the tile's
                                         * outputs, R rows down the tile */
  unsigned v[Med5 < LB, TW >::P];

  if (bx >= pl.row_bytes || y0 + ly >= pl.height)
    return;
  median5 < LB, TW > (&tile[ly][lx], TILE_W, v);

  unsigned char *d0 = pl.dst + (long long) (y0 + ly) * pl.dst_stride + bx;
  const bool second = y0 + ly + 1 < pl.height;

#pragma unroll
  for (int k = 0; k < TW; k++) {
    const int tail = (int) min ((long long) pl.row_bytes - (bx + 4 * k), 4LL);
    unsigned r0, r1;

    pack_rows < LB, TW > (v, k, &r0, &r1);
    store_word (d0 + 4 * k, r0, tile[ly + R][lx + 1 + k], tail, pl);
    if (second)
      store_word (d0 + pl.dst_stride + 4 * k, r1,
          tile[ly + R + 1][lx + 1 + k], tail, pl);
  }
}

/* The offsets (bit d + 1 for offset d) a line pass of len taps from
 * -anchor covers; false when it reaches further than one pixel. */
bool
line_bits (int len, int anchor, int *bits)
{
  *bits = 0;
  for (int i = 0; i < len; i++) {
    const int d = i - anchor;

    if (d < -1 || d > 1)
      return false;
    *bits |= 1 << (d + 1);
  }
  return true;
}

/* Words a thread takes for samples of lb bytes and pixels of ps, on
 * planes of `bytes` bytes.  Two words of bytes halve the loads, stores
 * and addresses a byte, but make half the blocks: on the H200, 4K GRAY8
 * erode 3x3 17.4 -> 14.8 us and RGBA 61.2 -> 43.8, 1080p RGBA 18.0 -> 14.8,
 * but 1080p GRAY8 8.9 -> 11.5 (one wave of blocks instead of two). */
int
thread_words (int lb, int ps, long long bytes)
{
  if (lb == 2)
    return 2;
  if (ps == 4 || (ps == 1 && bytes >= 4 * 1024 * 1024))
    return 2;
  return 1;
}

/* The 3x3 kernel for one layout, median or min/max. */
template < bool MEDIAN > cudaError_t
launch3 (int lb, int ps, int tw, dim3 grid, dim3 block,
    const CfNlByteArgs & a, cudaStream_t stream)
{
  if (lb == 1 && ps == 1 && tw == 1)
    nl_bytes < 1, 1, 1, MEDIAN > <<<grid, block, 0, stream >>> (a);
  else if (lb == 1 && ps == 1 && tw == 2)
    nl_bytes < 1, 1, 2, MEDIAN > <<<grid, block, 0, stream >>> (a);
  else if (lb == 1 && ps == 2)
    nl_bytes < 1, 2, 1, MEDIAN > <<<grid, block, 0, stream >>> (a);
  else if (lb == 1 && ps == 3)
    nl_bytes < 1, 3, 1, MEDIAN > <<<grid, block, 0, stream >>> (a);
  else if (lb == 1 && ps == 4 && tw == 2)
    nl_bytes < 1, 4, 2, MEDIAN > <<<grid, block, 0, stream >>> (a);
  else if (lb == 2 && ps == 2)
    nl_bytes < 2, 2, 2, MEDIAN > <<<grid, block, 0, stream >>> (a);
  else if (lb == 2 && ps == 4)
    nl_bytes < 2, 4, 2, MEDIAN > <<<grid, block, 0, stream >>> (a);
  else if (lb == 2 && ps == 8)
    nl_bytes < 2, 8, 2, MEDIAN > <<<grid, block, 0, stream >>> (a);
  else
    return cudaErrorNotSupported;
  return cudaGetLastError ();
}

/* Words a thread takes for the 5x5 median: eight samples, the columns of
 * two sorted once for the four of its halo, as many as its registers
 * hold without spilling. */
int
med5_words (int lb)
{
  return lb == 1 ? 2 : 4;
}

/* The kernel for one layout and operation. */
cudaError_t
launch (CfNlWholeRows op, int lb, int ps, int tw, dim3 grid, dim3 block,
    const CfNlByteArgs & a, cudaStream_t stream)
{
  if (op == CF_NL_WHOLE_ROWS_MEDIAN5 && lb == 1 && ps == 1 && tw == 2)
    nl_med5 < 1, 2 > <<<grid, block, 0, stream >>> (a);
  else if (op == CF_NL_WHOLE_ROWS_MEDIAN5 && lb == 2 && ps == 2 && tw == 4)
    nl_med5 < 2, 4 > <<<grid, block, 0, stream >>> (a);
  else if (op == CF_NL_WHOLE_ROWS_MEDIAN5)
    return cudaErrorNotSupported;
  else if (op == CF_NL_WHOLE_ROWS_MEDIAN3)
    return launch3 < true > (lb, ps, tw, grid, block, a, stream);
  else
    return launch3 < false > (lb, ps, tw, grid, block, a, stream);
  return cudaGetLastError ();
}

/* What one whole-row launch makes of each window: the operation, and
 * for a min/max its rectangle within 3x3 (rows (dy + 1) x columns
 * (dx + 1) bits) and whether it is a max. */
struct WbProgram
{
  CfNlWholeRows op;
  int rows, cols;
  bool take_max;
};

/* The program nl as one whole-row launch; false when it is none. */
bool
whole_rows_program (const CfNonlin * nl, WbProgram * w)
{
  const CfNlPass *p = nl->passes;

  w->op = CF_NL_WHOLE_ROWS_MINMAX;
  w->rows = w->cols = 0;
  w->take_max = false;
  if (nl->n_passes == 1 && p[0].src == CF_NL_FRAME && p[0].dst == CF_NL_OUT
      && p[0].step == CF_NL_MEDIAN && p[0].len == 3 && nl->rank == 4) {
    w->op = CF_NL_WHOLE_ROWS_MEDIAN3;
  } else if (nl->n_passes == 1 && p[0].src == CF_NL_FRAME
      && p[0].dst == CF_NL_OUT && p[0].step == CF_NL_MEDIAN
      && p[0].len == 5 && nl->rank == 12) {
    w->op = CF_NL_WHOLE_ROWS_MEDIAN5;
  } else if (nl->n_passes == 2 && p[0].src == CF_NL_FRAME
      && p[1].src == p[0].dst && p[1].dst == CF_NL_OUT
      && ((p[0].step == CF_NL_MIN_ROW && p[1].step == CF_NL_MIN_COL)
          || (p[0].step == CF_NL_MAX_ROW && p[1].step == CF_NL_MAX_COL))) {
    if (!line_bits (p[0].len, p[0].anchor, &w->cols) ||
        !line_bits (p[1].len, p[1].anchor, &w->rows))
      return false;
    w->take_max = p[0].step == CF_NL_MAX_ROW;
  } else if (nl->n_passes == 1 && p[0].src == CF_NL_FRAME
      && p[0].dst == CF_NL_OUT && p[0].step >= CF_NL_MIN_ROW
      && p[0].step <= CF_NL_MAX_COL) {
    int bits;

    if (!line_bits (p[0].len, p[0].anchor, &bits))
      return false;
    w->take_max = p[0].step == CF_NL_MAX_ROW || p[0].step == CF_NL_MAX_COL;
    if (p[0].step <= CF_NL_MAX_ROW) {
      w->cols = bits;
      w->rows = 2;
    } else {
      w->cols = 2;
      w->rows = bits;
    }
  } else {
    /* structuring elements: the launcher has no host copy of the table */
    return false;
  }
  return true;
}

/* The frame's planes for operation op (planes[] of n, the samples' bytes
 * lb); false when the kernel does not take them. */
bool
whole_rows_planes (const CfDeviceFrame * frame, CfNlWholeRows op,
    CfNlBytePlane * planes, int *n, int *lb)
{
  if (!cf_nl_make_planes (frame, planes, n, lb) || *n == 0)
    return false;
  /* the 5x5 median's lanes are two rows: one sample a pixel only */
  if (op == CF_NL_WHOLE_ROWS_MEDIAN5)
    for (int i = 0; i < *n; i++)
      if (planes[i].pixel_stride != *lb)
        return false;
  return true;
}

}                               /* namespace */

extern "C" CfNlWholeRows
cf_nonlin_whole_rows (const CfDeviceFrame * frame, const CfNonlin * nl)
{
  CfNlBytePlane planes[CF_MAX_PLANES];
  WbProgram w;
  int n, lb;

  if (!whole_rows_program (nl, &w) ||
      !whole_rows_planes (frame, w.op, planes, &n, &lb))
    return CF_NL_WHOLE_ROWS_NONE;
  return w.op;
}

bool
cf_nl_make_planes (const CfDeviceFrame * frame, CfNlBytePlane * planes, int *n,
    int *lane_bytes)
{
  int used = 0, lb = 0;

  for (int c = 0; c < frame->n_channels; c++) {
    const CfChannel & ch = frame->channels[c];

    if (ch.plane < 0 || ch.plane >= CF_MAX_PLANES || ch.shared_word ||
        ch.shift != 0 || ch.depth != 8 * ch.word_bytes || ch.word_bytes > 2
        || (lb != 0 && ch.word_bytes != lb))
      return false;
    lb = ch.word_bytes;
    used |= 1 << ch.plane;
  }
  if (lb == 0)
    return false;

  *n = 0;
  for (int p = 0; p < CF_MAX_PLANES; p++) {
    CfNlBytePlane & pl = planes[*n];
    int owned = 0, w = -1, h = -1, ps = 0;

    if (!(used & (1 << p)))
      continue;
    pl.src = frame->src[p];
    pl.dst = frame->dst[p];
    pl.src_stride = frame->src_stride[p];
    pl.dst_stride = frame->dst_stride[p];
    pl.keep = pl.copy = pl.fill = pl.keep2 = pl.copy2 = pl.fill2 = 0;
    /* words at 4-byte addresses; rows a 32-bit offset apart */
    if (((uintptr_t) pl.src | (uintptr_t) pl.dst | pl.src_stride |
            pl.dst_stride) & 3 || pl.src == pl.dst
        || pl.src_stride > INT_MAX)
      return false;
    for (int c = 0; c < frame->n_channels; c++) {
      const CfChannel & ch = frame->channels[c];

      if (ch.plane == p)
        ps = ch.pixel_stride;
    }
    /* samples, pairs of samples (NV12's chroma), three or four bytes (RGB,
     * RGBA), four 16-bit samples (RGBA64) */
    if (!(ps == lb || ps == 2 * lb || (lb == 1 && ps == 3) || ps == 4 * lb))
      return false;
    for (int c = 0; c < frame->n_channels; c++) {
      const CfChannel & ch = frame->channels[c];

      if (ch.plane != p)
        continue;
      if ((w >= 0 && (ch.width != w || ch.height != h)) ||
          ch.pixel_stride != ps || ch.offset % lb != 0 ||
          ch.offset >= ps || (owned & (1 << ch.offset)))
        return false;
      w = ch.width;
      h = ch.height;
      owned |= 1 << ch.offset;
      /* the channel's bytes in each pixel of a word, and of the next
       * (they differ for pixels of 8 bytes) */
      for (int b = 0; b < 8; b++) {
        const int in_pixel = b % ps;
        unsigned *keep = b < 4 ? &pl.keep : &pl.keep2;
        unsigned *copy = b < 4 ? &pl.copy : &pl.copy2;
        unsigned *fill = b < 4 ? &pl.fill : &pl.fill2;

        if (in_pixel < ch.offset || in_pixel >= ch.offset + lb)
          continue;
        const unsigned byte = 0xFFu << (8 * (b % 4));
        if (ch.mode == CF_CHANNEL_FILTER)
          *keep |= byte;
        else if (ch.mode == CF_CHANNEL_COPY)
          *copy |= byte;
        else
          *fill |= (((unsigned) ch.fill_value >> (8 * (in_pixel -
                          ch.offset))) & 0xFF) << (8 * (b % 4));
      }
    }
    /* every sample of the pixel is a channel's */
    for (int o = 0; o < ps; o += lb)
      if (!(owned & (1 << o)))
        return false;
    /* a word of three-byte pixels starts anywhere in a pixel: masks of one
     * word serve every word only when every byte is filtered */
    if (ps == 3 && pl.keep != 0xFFFFFFFFu)
      return false;
    pl.width = w;
    pl.height = h;
    pl.pixel_stride = ps;
    pl.row_bytes = w * ps;
    if (w > 0 && h > 0)
      (*n)++;
  }
  *lane_bytes = lb;
  return true;
}

cudaError_t
cf_nl_bytes_run (const CfDeviceFrame * frame, const CfKernelParams * kp,
    const CfNonlin * nl, cudaStream_t stream)
{
  CfNlByteArgs a;
  CfNlBytePlane planes[CF_MAX_PLANES];
  WbProgram w;
  int n_planes = 0, lb = 0;

  if (!whole_rows_program (nl, &w) ||
      !whole_rows_planes (frame, w.op, planes, &n_planes, &lb))
    return cudaErrorNotSupported;
  memset (&a, 0, sizeof (a));
  a.border = kp->border;
  a.border_value = kp->border_value;
  /* a max is the min of the complements within each lane's samples */
  a.flip = w.take_max ? (lb == 1 ? 0x00FF00FFu : 0xFFFFFFFFu) : 0u;
  for (int j = 0; j < 3; j++) {
    a.row_off[j] = (w.rows & (1 << j)) ? 0u : 0xFFFFFFFFu;
    a.col_off[j] = (w.cols & (1 << j)) ? 0u : 0xFFFFFFFFu;
  }
  a.full = w.rows == 7 && w.cols == 7;

  /* One launch for the planes of each pixel stride (NV12: its luma, then
   * its chroma pairs); the planes are independent. */
  dim3 block (WB_TX, WB_TY);
  int done = 0;

  for (int first = 0; first < n_planes; first++) {
    const int ps = planes[first].pixel_stride;
    int n = 0, max_bytes = 0, max_h = 0;
    cudaError_t err;

    if (done & (1 << first))
      continue;
    for (int i = first; i < n_planes; i++)
      if (planes[i].pixel_stride == ps) {
        a.planes[n++] = planes[i];
        done |= 1 << i;
        max_bytes = max (max_bytes, planes[i].row_bytes);
        max_h = max (max_h, planes[i].height);
      }
    const int tw = w.op == CF_NL_WHOLE_ROWS_MEDIAN5 ? med5_words (lb) :
        thread_words (lb, ps, (long long) max_bytes * max_h);
    const int span = WB_TX * 4 * tw;
    dim3 grid ((max_bytes + span - 1) / span,
        (max_h + WB_TY * WB_ROWS - 1) / (WB_TY * WB_ROWS), n);

    err = launch (w.op, lb, ps, tw, grid, block, a, stream);
    if (err != cudaSuccess)
      return err;
  }
  return cudaSuccess;
}
