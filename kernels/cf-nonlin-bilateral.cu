/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the bilateral on shared-memory tiles: a block loads its
 * outputs' windows once with the border applied at the load (cf_nl_at, as
 * the per-sample kernel reads them), and the spec's tables (space
 * weights, offsets, and the range weights where they fit: 16-bit
 * samples' 65536 are read through the read-only cache instead) once,
 * then each thread sums its
 * outputs' windows from shared memory.  A colour of three channels (RGB:
 * the L1 distance over the three) is one block's three tiles, and a
 * thread makes the three channels' outputs from one weight a tap.  The
 * sums are cf_nl_bilateral's: integer weights, 64-bit sums, exact in any
 * order, so the bytes are the per-sample kernel's and the CPU's. */
#include "cf-nonlin-pass.cuh"

/* Outputs of a block: 32 x 32 from 32 x 8 threads, each on BL_ROWS rows. */
#define BL_TX 32
#define BL_TY 8
#define BL_ROWS 4
#define BL_OY (BL_TY * BL_ROWS)
/* What every device gives a block without opting in. */
#define BL_MAX_BYTES (48 * 1024)

namespace
{

/* Each colour's channels (-1 past the last), as cf_nonlin_run has them. */
struct CfBlGroups
{
  int c[CF_MAX_CHANNELS][3];
};

/* Shared memory of a radius: the tables (range_len 0: the range weights
 * stay in global memory), then n_tiles tiles (16-bit samples). */
size_t
bilateral_bytes (int radius, int n_offsets, int range_len, int n_tiles)
{
  const size_t tw = BL_TX + 2 * radius, th = BL_OY + 2 * radius;

  return (size_t) n_offsets * 2 * sizeof (int) + (size_t) range_len *
      sizeof (int) + n_tiles * tw * th * sizeof (unsigned short);
}

/* The outputs of thread (lx, ly + r, r < BL_ROWS) for a colour of NC
 * channels whose tiles are tiles[0 .. NC), tile_len samples apart. */
template < int NC > __device__ __forceinline__ void
bilateral_outputs (const CfNlPassArgs & a, const int *chans,
    const unsigned short *tiles, int tile_len, const int *space,
    const int *offset, const int *range, int n_offsets, int range_len,
    int radius, int tw, int bx, int by)
{
  const CfChannel & ch = a.frame.channels[chans[0]];

#pragma unroll 1
  for (int r = 0; r < BL_ROWS; r++) {
    const int lx = threadIdx.x, ly = threadIdx.y * BL_ROWS + r;
    const int x = bx + lx, y = by + ly;
    const unsigned short *centre = tiles + (ly + radius) * tw + lx + radius;
    int cv[NC];
    unsigned long long sum[NC], wsum = 0;

    if (x >= ch.width || y >= ch.height)
      break;
#pragma unroll
    for (int i = 0; i < NC; i++) {
      cv[i] = centre[i * tile_len];
      sum[i] = 0;
    }
    for (int k = 0; k < n_offsets; k++) {
      int s[NC], d = 0;

#pragma unroll
      for (int i = 0; i < NC; i++) {
        s[i] = centre[i * tile_len + offset[k]];
        d += s[i] > cv[i] ? s[i] - cv[i] : cv[i] - s[i];
      }
      if (d < range_len) {
        const unsigned long long w = (unsigned long long) (unsigned) space[k]
            * (unsigned) range[d];

#pragma unroll
        for (int i = 0; i < NC; i++)
          sum[i] += w * (unsigned) s[i];
        wsum += w;
      }
    }
    /* the centre always weighs: wsum > 0 */
#pragma unroll
    for (int i = 0; i < NC; i++)
      cf_nl_pass_store (a, chans[i], x, y, (int) ((sum[i] + wsum / 2) /
              wsum));
  }
}

__global__ static void
nl_bilateral_tile (const CfNlPassArgs a, const CfBlGroups g, int radius,
    int n_offsets, int off_range, int range_len, bool range_shared)
{
  extern __shared__ int bl_smem[];
  const int c = blockIdx.z;
  const CfChannel & ch = a.frame.channels[c];
  const int bx = blockIdx.x * BL_TX, by = blockIdx.y * BL_OY;
  const int tw = BL_TX + 2 * radius, th = BL_OY + 2 * radius;
  const int n_threads = BL_TX * BL_TY;
  const int t = threadIdx.y * BL_TX + threadIdx.x;
  int *space = bl_smem;
  int *offset = space + n_offsets;      /* dy * tw + dx */
  int *range_copy = offset + n_offsets;
  unsigned short *tiles = (unsigned short *) (range_copy +
      (range_shared ? range_len : 0));
  const int *range = range_shared ? range_copy : a.table + off_range;
  const int nc = g.c[c][1] < 0 ? 1 : 3;

  /* Whole blocks leave (no thread of them reaches the barrier); a colour
   * of three is its first channel's block's. */
  if (bx >= ch.width || by >= ch.height)
    return;
  if (ch.mode != CF_CHANNEL_FILTER) {
    cf_nl_pass_other (a, c, bx, by, BL_TX, BL_OY);
    return;
  }
  if (g.c[c][0] != c)
    return;

  for (int k = t; k < n_offsets; k += n_threads) {
    const int *dx = a.table + n_offsets, *dy = dx + n_offsets;

    space[k] = __ldg (&a.table[k]);
    offset[k] = __ldg (&dy[k]) * tw + __ldg (&dx[k]);
  }
  if (range_shared)
    for (int i = t; i < range_len; i += n_threads)
      range_copy[i] = __ldg (&a.table[off_range + i]);
  for (int i = 0; i < nc; i++) {
    const CfNlImage src = cf_nl_pass_image (a, g.c[c][i], a.p.src);
    unsigned short *tile = tiles + i * tw * th;

    /* A warp a row of the tile at a time, along x in memory. */
    for (int ty = threadIdx.y; ty < th; ty += BL_TY)
      for (int tx = threadIdx.x; tx < tw; tx += BL_TX)
        tile[ty * tw + tx] = (unsigned short) cf_nl_at (&src,
            bx - radius + tx, by - radius + ty, &a.kp);
  }
  __syncthreads ();

  if (nc == 1)
    bilateral_outputs < 1 > (a, g.c[c], tiles, tw * th, space, offset,
        range, n_offsets, range_len, radius, tw, bx, by);
  else
    bilateral_outputs < 3 > (a, g.c[c], tiles, tw * th, space, offset,
        range, n_offsets, range_len, radius, tw, bx, by);
}

}                               /* namespace */

cudaError_t
cf_nl_bilateral_run (const CfNlPassArgs & a, const CfNonlin * nl,
    const int groups[CF_MAX_CHANNELS][3], int n_channels, int max_w,
    int max_h, cudaStream_t stream)
{
  const int radius = a.p.len;
  CfBlGroups g;
  int n_tiles = 1;

  /* colours of one channel, or of three filtered channels of one size */
  for (int c = 0; c < n_channels; c++) {
    const CfChannel & ch = a.frame.channels[c];
    int n = 0;

    for (int i = 0; i < 3; i++) {
      g.c[c][i] = groups[c][i];
      n += groups[c][i] >= 0;
    }
    if (ch.mode != CF_CHANNEL_FILTER)
      continue;
    if (n == 2 || n == 0 || groups[c][0] < 0)
      return cudaErrorNotSupported;
    for (int i = 0; i < n; i++) {
      const CfChannel & o = a.frame.channels[groups[c][i]];

      if (o.mode != CF_CHANNEL_FILTER || o.width != ch.width ||
          o.height != ch.height)
        return cudaErrorNotSupported;
    }
    n_tiles = n > n_tiles ? n : n_tiles;
  }

  /* tables and tiles within a block's shared memory, the range weights
   * left out where they take it */
  const bool range_shared = bilateral_bytes (radius, nl->n_offsets,
      nl->range_len, n_tiles) <= BL_MAX_BYTES;
  const size_t bytes = bilateral_bytes (radius, nl->n_offsets,
      range_shared ? nl->range_len : 0, n_tiles);

  if (bytes > BL_MAX_BYTES || nl->off_space != 0 || radius < 1)
    return cudaErrorNotSupported;

  dim3 block (BL_TX, BL_TY);
  dim3 grid ((max_w + BL_TX - 1) / BL_TX, (max_h + BL_OY - 1) / BL_OY,
      n_channels);

  nl_bilateral_tile <<< grid, block, bytes, stream >>> (a, g, radius,
      nl->n_offsets, nl->off_range, nl->range_len, range_shared);
  return cudaGetLastError ();
}
