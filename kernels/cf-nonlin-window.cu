/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the median and the structuring-element min/max on a
 * shared-memory tile: a block loads its outputs' windows once, the border
 * applied at the load (cf_nl_at, as the per-sample kernel reads them), and
 * each thread makes two horizontally adjacent outputs at once, packed in
 * the two 16-bit halves of a word (__vminu2 / __vmaxu2), on four rows.
 * Medians of 3x3, 5x5 and 7x7 windows select in registers (forgetful
 * selection: min/max exchanges only, so exact at every depth); larger
 * ones count bit by bit from the tile. */
#include "cf-nonlin-pass.cuh"

/* Outputs of a block: 64 x 32 from 32 x 8 threads, each 2 x 4. */
#define WIN_OX 64
#define WIN_OY 32
#define WIN_ROWS 4
/* The tile's bytes for a kw x kh window, within the 48 KB every device
 * gives a block without opting in. */
#define WIN_TILE_BYTES(kw, kh) \
  ((size_t) (WIN_OX + (kw) - 1) * (WIN_OY + (kh) - 1) * sizeof (unsigned short))
#define WIN_MAX_BYTES (48 * 1024)

#define CSWAP(a, b) \
  { const unsigned t_ = __vminu2 (a, b); b = __vmaxu2 (a, b); a = t_; }

/* The pair (t[0], t[1]) in one word, the first in the low half. */
__device__ __forceinline__ unsigned
pair_at (const unsigned short *t)
{
  return (unsigned) t[0] | ((unsigned) t[1] << 16);
}

/* The median of the K x K windows at t and t + 1 (rows tw apart): keep
 * M + 2 samples (M = the median's rank), drop their min and max (neither
 * can be the median), add the next sample, again until one is left. */
template < int K > __device__ __forceinline__ unsigned
median_pair (const unsigned short *t, int tw)
{
  constexpr int N = K * K, M = (N - 1) / 2, S = M + 2;
  unsigned v[N];

#pragma unroll
  for (int j = 0; j < K; j++)
#pragma unroll
    for (int i = 0; i < K; i++)
      v[j * K + i] = pair_at (t + j * tw + i);
  /* Round r keeps v[r .. S): its min goes to v[r], its max to v[S - 1],
   * which the next sample then replaces. */
#pragma unroll
  for (int r = 0; r <= N - S; r++) {
#pragma unroll
    for (int i = r + 1; i < S; i++)
      CSWAP (v[r], v[i]);
#pragma unroll
    for (int i = r + 1; i < S - 1; i++)
      CSWAP (v[i], v[S - 1]);
    if (r < N - S)
      v[S - 1] = v[S + r];
  }
  return v[N - S + 1];
}

/* nl_window < 0 > names no network. */
template <> __device__ __forceinline__ unsigned
median_pair < 0 > (const unsigned short *t, int tw)
{
  return 0;
}

/* The rank-th smallest of the k x k windows at t and t + 1: the largest
 * value with at most `rank` samples below it, bit by bit (the same
 * definition as cf_nl_median); each tile sample is read once for both. */
__device__ __forceinline__ unsigned
median_pair_any (const unsigned short *t, int tw, int k, int rank, int depth)
{
  int v0 = 0, v1 = 0;

  for (int bit = depth - 1; bit >= 0; bit--) {
    const int c0 = v0 | (1 << bit), c1 = v1 | (1 << bit);
    int below0 = 0, below1 = 0;

    for (int j = 0; j < k; j++) {
      const unsigned short *row = t + j * tw;

      below0 += row[0] < c0;
      for (int i = 1; i < k; i++) {
        const int s = row[i];

        below0 += s < c0;
        below1 += s < c1;
      }
      below1 += row[k] < c1;
    }
    if (below0 <= rank)
      v0 = c0;
    if (below1 <= rank)
      v1 = c1;
  }
  return (unsigned) v0 | ((unsigned) v1 << 16);
}

/* Min (max 0) or max of the structuring element at t and t + 1. */
__device__ __forceinline__ unsigned
minmax_pair_se (const unsigned short *t, int tw, const CfNlPassArgs & a,
    int max)
{
  unsigned v = max ? 0u : 0xFFFFFFFFu;

  for (int j = 0; j < a.se_h; j++)
    for (int i = 0; i < a.se_w; i++) {
      if (!__ldg (&a.table[j * a.se_w + i]))
        continue;
      const unsigned s = pair_at (t + j * tw + i);

      v = max ? __vmaxu2 (v, s) : __vminu2 (v, s);
    }
  return v;
}

/* K: the median of a K x K window in registers; 0 any other window. */
template < int K > __global__ static void
nl_window (const CfNlPassArgs a)
{
  extern __shared__ unsigned short tile[];
  const int c = blockIdx.z;
  const CfChannel & ch = a.frame.channels[c];
  const int bx = blockIdx.x * WIN_OX, by = blockIdx.y * WIN_OY;
  const int median = a.p.step == CF_NL_MEDIAN;
  const int kw = median ? a.p.len : a.se_w;
  const int kh = median ? a.p.len : a.se_h;
  const int ax = median ? a.p.len / 2 : a.se_ax;
  const int ay = median ? a.p.len / 2 : a.se_ay;
  const int tw = WIN_OX + kw - 1, th = WIN_OY + kh - 1;
  int depth = 0;

  /* Whole blocks leave (no thread of them reaches the barrier). */
  if (bx >= ch.width || by >= ch.height)
    return;
  if (ch.mode != CF_CHANNEL_FILTER) {
    cf_nl_pass_other (a, c, bx, by, WIN_OX, WIN_OY);
    return;
  }

  {
    const CfNlImage src = cf_nl_pass_image (a, c, a.p.src);

    /* A warp a row of the tile at a time, along x in memory. */
    for (int ty = threadIdx.y; ty < th; ty += blockDim.y)
      for (int tx = threadIdx.x; tx < tw; tx += blockDim.x)
        tile[ty * tw + tx] = (unsigned short) cf_nl_at (&src, bx - ax + tx,
            by - ay + ty, &a.kp);
  }
  __syncthreads ();

  while ((1 << depth) <= a.kp.maxval)
    depth++;
#pragma unroll 1
  for (int r = 0; r < WIN_ROWS; r++) {
    const int lx = 2 * threadIdx.x, ly = threadIdx.y * WIN_ROWS + r;
    const int x = bx + lx, y = by + ly;
    const unsigned short *t = tile + ly * tw + lx;
    unsigned v;

    if (x >= ch.width || y >= ch.height)
      break;
    if (K > 0)
      v = median_pair < K > (t, tw);
    else if (median)
      v = median_pair_any (t, tw, kw, a.rank, depth);
    else
      v = minmax_pair_se (t, tw, a, a.p.step == CF_NL_MAX_SE);
    cf_nl_pass_store (a, c, x, y, (int) (v & 0xFFFF));
    if (x + 1 < ch.width)
      cf_nl_pass_store (a, c, x + 1, y, (int) (v >> 16));
  }
}

cudaError_t
cf_nl_window_run (const CfNlPassArgs & a, int n_channels, int max_w,
    int max_h, cudaStream_t stream)
{
  const int median = a.p.step == CF_NL_MEDIAN;
  const int kw = median ? a.p.len : a.se_w;
  const int kh = median ? a.p.len : a.se_h;
  const size_t bytes = WIN_TILE_BYTES (kw, kh);
  dim3 block (WIN_OX / 2, WIN_OY / WIN_ROWS);
  dim3 grid ((max_w + WIN_OX - 1) / WIN_OX, (max_h + WIN_OY - 1) / WIN_OY,
      n_channels);
  /* The register networks take the middle rank only. */
  const int middle = median && a.rank == (kw * kh - 1) / 2;

  if (kw < 1 || kh < 1 || bytes > WIN_MAX_BYTES)
    return cudaErrorNotSupported;
  if (middle && kw == 3)
    nl_window < 3 > <<<grid, block, bytes, stream >>> (a);
  else if (middle && kw == 5)
    nl_window < 5 > <<<grid, block, bytes, stream >>> (a);
  else if (middle && kw == 7)
    nl_window < 7 > <<<grid, block, bytes, stream >>> (a);
  else
    nl_window < 0 > <<<grid, block, bytes, stream >>> (a);
  return cudaGetLastError ();
}
