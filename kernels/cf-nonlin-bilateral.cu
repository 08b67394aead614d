/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the bilateral of one-channel colours (GRAY, planar YUV) on
 * a shared-memory tile: a block loads its outputs' windows once with the
 * border applied at the load (cf_nl_at, as the per-sample kernel reads
 * them), and the spec's tables (space weights, offsets, range weights)
 * once, then each thread sums its outputs' windows from shared memory.
 * The sums are cf_nl_bilateral's: integer weights, 64-bit sums, exact in
 * any order, so the bytes are the per-sample kernel's and the CPU's.
 * Colours of three channels (RGB's L1 distance) take the per-sample
 * kernel. */
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

/* Shared memory of a radius: the tables, then the tile (16-bit samples). */
size_t
bilateral_bytes (int radius, int n_offsets, int range_len)
{
  const size_t tw = BL_TX + 2 * radius, th = BL_OY + 2 * radius;

  return (size_t) n_offsets * 2 * sizeof (int) + (size_t) range_len *
      sizeof (int) + tw * th * sizeof (unsigned short);
}

__global__ static void
nl_bilateral_tile (const CfNlPassArgs a, int radius, int n_offsets,
    int off_range, int range_len)
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
  int *range = offset + n_offsets;
  unsigned short *tile = (unsigned short *) (range + range_len);

  /* Whole blocks leave (no thread of them reaches the barrier). */
  if (bx >= ch.width || by >= ch.height)
    return;
  if (ch.mode != CF_CHANNEL_FILTER) {
    cf_nl_pass_other (a, c, bx, by, BL_TX, BL_OY);
    return;
  }

  for (int k = t; k < n_offsets; k += n_threads) {
    const int *dx = a.table + n_offsets, *dy = dx + n_offsets;

    space[k] = __ldg (&a.table[k]);
    offset[k] = __ldg (&dy[k]) * tw + __ldg (&dx[k]);
  }
  for (int i = t; i < range_len; i += n_threads)
    range[i] = __ldg (&a.table[off_range + i]);
  {
    const CfNlImage src = cf_nl_pass_image (a, c, a.p.src);

    /* A warp a row of the tile at a time, along x in memory. */
    for (int ty = threadIdx.y; ty < th; ty += BL_TY)
      for (int tx = threadIdx.x; tx < tw; tx += BL_TX)
        tile[ty * tw + tx] = (unsigned short) cf_nl_at (&src,
            bx - radius + tx, by - radius + ty, &a.kp);
  }
  __syncthreads ();

#pragma unroll 1
  for (int r = 0; r < BL_ROWS; r++) {
    const int lx = threadIdx.x, ly = threadIdx.y * BL_ROWS + r;
    const int x = bx + lx, y = by + ly;
    const unsigned short *centre = tile + (ly + radius) * tw + lx + radius;
    const int cv = *centre;
    unsigned long long sum = 0, wsum = 0;

    if (x >= ch.width || y >= ch.height)
      break;
    for (int k = 0; k < n_offsets; k++) {
      const int s = centre[offset[k]];
      const int d = s > cv ? s - cv : cv - s;

      if (d < range_len) {
        const unsigned long long w = (unsigned long long) (unsigned) space[k]
            * (unsigned) range[d];

        sum += w * (unsigned) s;
        wsum += w;
      }
    }
    /* the centre always weighs: wsum > 0 */
    cf_nl_pass_store (a, c, x, y, (int) ((sum + wsum / 2) / wsum));
  }
}

}                               /* namespace */

cudaError_t
cf_nl_bilateral_run (const CfNlPassArgs & a, const CfNonlin * nl,
    const int groups[CF_MAX_CHANNELS][3], int n_channels, int max_w,
    int max_h, cudaStream_t stream)
{
  const int radius = a.p.len;
  const size_t bytes = bilateral_bytes (radius, nl->n_offsets,
      nl->range_len);

  /* one-channel colours only, and tables and tile within a block's
   * shared memory */
  for (int c = 0; c < n_channels; c++)
    if (a.frame.channels[c].mode == CF_CHANNEL_FILTER && groups[c][1] >= 0)
      return cudaErrorNotSupported;
  if (bytes > BL_MAX_BYTES || nl->off_space != 0 || radius < 1)
    return cudaErrorNotSupported;

  dim3 block (BL_TX, BL_TY);
  dim3 grid ((max_w + BL_TX - 1) / BL_TX, (max_h + BL_OY - 1) / BL_OY,
      n_channels);

  nl_bilateral_tile <<< grid, block, bytes, stream >>> (a, radius,
      nl->n_offsets, nl->off_range, nl->range_len);
  return cudaGetLastError ();
}
