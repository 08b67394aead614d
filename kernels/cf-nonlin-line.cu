/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the rectangle's row and column min/max passes on a
 * shared-memory tile of 32 lines (rows for a row pass, columns for a
 * column pass): the block loads the lines' samples once with the border
 * applied (cf_nl_at), each thread makes 8 consecutive outputs of one line
 * (van Herk / Gil-Werman within them: the part of the window the 8 share
 * once, then a suffix and a prefix, so about len / 8 + 3 operations an
 * output), and the results leave through the tile so that the stores are
 * along rows, coalesced, for both passes. */
#include "cf-nonlin-pass.cuh"

#define LINE_LANES 32           /* lines of a block: one a lane */
#define LINE_T 8                /* outputs of a thread along its line */
#define LINE_OUT (LINE_T * 8)   /* outputs along a line of a block (8 warps) */
#define LINE_PITCH 33           /* tile row: a sample of each line, padded */
/* The longest line taken: at most (64 + 256) x 33 x 2 bytes = 21 KB of
 * tile, within the 48 KB every device gives a block without opting in. */
#define LINE_MAX_LEN 257

__device__ __forceinline__ int
op (int a, int b, int max)
{
  return max ? (a > b ? a : b) : (a < b ? a : b);
}

__global__ static void
nl_line (const CfNlPassArgs a)
{
  extern __shared__ unsigned short tile[];     /* (LINE_OUT + len - 1) rows */
  const int c = blockIdx.z;
  const CfChannel & ch = a.frame.channels[c];
  const int rows = a.p.step == CF_NL_MIN_ROW || a.p.step == CF_NL_MAX_ROW;
  const int max = a.p.step == CF_NL_MAX_ROW || a.p.step == CF_NL_MAX_COL;
  const int len = a.p.len, anchor = a.p.anchor;
  const int n_along = LINE_OUT + len - 1;
  /* The block's first output: lines across, LINE_OUT outputs along. */
  const int x0 = blockIdx.x * (rows ? LINE_OUT : LINE_LANES);
  const int y0 = blockIdx.y * (rows ? LINE_LANES : LINE_OUT);
  const int ident = max ? 0 : 0xFFFF;
  const int l = threadIdx.x, o0 = threadIdx.y * LINE_T;
  const unsigned short *line = tile + l;
  int out[LINE_T];

  if (x0 >= ch.width || y0 >= ch.height)
    return;
  if (ch.mode != CF_CHANNEL_FILTER) {
    cf_nl_pass_other (a, c, x0, y0, rows ? LINE_OUT : LINE_LANES,
        rows ? LINE_LANES : LINE_OUT);
    return;
  }

  {
    const CfNlImage src = cf_nl_pass_image (a, c, a.p.src);

    /* Lanes along x in global memory either way: along the lines of a
     * row pass, across those of a column pass. */
    if (rows) {
      for (int k = threadIdx.y; k < LINE_LANES; k += blockDim.y)
        for (int i = threadIdx.x; i < n_along; i += blockDim.x)
          tile[i * LINE_PITCH + k] = (unsigned short) cf_nl_at (&src,
              x0 - anchor + i, y0 + k, &a.kp);
    } else {
      for (int i = threadIdx.y; i < n_along; i += blockDim.y)
        tile[i * LINE_PITCH + l] = (unsigned short) cf_nl_at (&src, x0 + l,
            y0 - anchor + i, &a.kp);
    }
  }
  __syncthreads ();

  /* Output o0 + t reads line[(o0 + t .. o0 + t + len - 1) * pitch]. */
  if (len < LINE_T) {
#pragma unroll
    for (int t = 0; t < LINE_T; t++) {
      int m = ident;

      for (int i = 0; i < len; i++)
        m = op (m, line[(o0 + t + i) * LINE_PITCH], max);
      out[t] = m;
    }
  } else {
    /* The part all 8 windows share, [o0 + 7, o0 + len - 1]; the prefixes
     * past it, [o0 + len, o0 + len + t - 1]; the suffixes before it,
     * [o0 + t, o0 + 6]. */
    int core = ident, pre[LINE_T], suf = ident;

    for (int i = o0 + LINE_T - 1; i < o0 + len; i++)
      core = op (core, line[i * LINE_PITCH], max);
    pre[0] = core;
#pragma unroll
    for (int t = 1; t < LINE_T; t++)
      pre[t] = op (pre[t - 1], line[(o0 + len + t - 1) * LINE_PITCH], max);
#pragma unroll
    for (int t = LINE_T - 1; t >= 0; t--) {
      if (t < LINE_T - 1)
        suf = op (suf, line[(o0 + t) * LINE_PITCH], max);
      out[t] = op (suf, pre[t], max);
    }
  }
  __syncthreads ();
#pragma unroll
  for (int t = 0; t < LINE_T; t++)
    tile[(o0 + t) * LINE_PITCH + l] = (unsigned short) out[t];
  __syncthreads ();

  if (rows) {
    for (int k = threadIdx.y; k < LINE_LANES; k += blockDim.y)
      for (int i = threadIdx.x; i < LINE_OUT; i += blockDim.x)
        if (x0 + i < ch.width && y0 + k < ch.height)
          cf_nl_pass_store (a, c, x0 + i, y0 + k, tile[i * LINE_PITCH + k]);
  } else {
    for (int i = threadIdx.y; i < LINE_OUT; i += blockDim.y)
      if (x0 + l < ch.width && y0 + i < ch.height)
        cf_nl_pass_store (a, c, x0 + l, y0 + i, tile[i * LINE_PITCH + l]);
  }
}

cudaError_t
cf_nl_line_run (const CfNlPassArgs & a, int n_channels, int max_w,
    int max_h, cudaStream_t stream)
{
  const int rows = a.p.step == CF_NL_MIN_ROW || a.p.step == CF_NL_MAX_ROW;
  const int bw = rows ? LINE_OUT : LINE_LANES;
  const int bh = rows ? LINE_LANES : LINE_OUT;
  const size_t bytes = (size_t) (LINE_OUT + a.p.len - 1) * LINE_PITCH *
      sizeof (unsigned short);
  dim3 block (LINE_LANES, LINE_OUT / LINE_T);
  dim3 grid ((max_w + bw - 1) / bw, (max_h + bh - 1) / bh, n_channels);

  if (a.p.len < 1 || a.p.len > LINE_MAX_LEN)
    return cudaErrorNotSupported;
  nl_line <<< grid, block, bytes, stream >>> (a);
  return cudaGetLastError ();
}
