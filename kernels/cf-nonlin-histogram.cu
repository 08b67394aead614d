/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: medians of large windows (9 x 9 and up) of 8-bit samples
 * from a running histogram (Huang's method): a thread walks one output
 * column down a block's rows, and each row it moves on takes the window's
 * top row out of its histogram and the next row in, 2 k updates, so an
 * output costs O(k), not the O(k^2) of counting.  It keeps the median m
 * and the samples below it, and moves m by the bins between the old
 * median and the new.  The result is a sample of the window: the same
 * bytes as any other exact median.
 *
 * A thread's histogram is 256 counters of 16 bits in shared memory, bin b
 * of lane l in word b * 32 + l, the halves of a word the block's two
 * warps': a warp's lanes meet no bank twice whatever bins they take, and
 * an update is one atomic add to the word, with nothing to wait for. */
#include "cf-nonlin-pass.cuh"

#define HIST_TX 64              /* threads: output columns of a block */
#define HIST_ROWS 64            /* output rows of a block */
#define HIST_BINS 256
#define HIST_WORDS (HIST_BINS * 32)
/* Histograms and the tile within the 48 KB every device gives a block
 * without opting in (a 63 x 63 window: 32 KB and 126 x 126 samples). */
#define HIST_SMEM(k) \
  (HIST_WORDS * sizeof (unsigned) + \
   (((size_t) (HIST_TX + (k) - 1) * (HIST_ROWS + (k) - 1) + 3) & ~(size_t) 3))
#define HIST_MAX_SMEM (48 * 1024)
#define HIST_MIN_LEN 9
/* Rows of the tile a thread loads at once (two samples of each: a row is
 * at most 64 + 62 samples). */
#define HIST_BATCH 8

/* A tile sample where the tile leaves the channel (or a scratch image):
 * out of line, as the block's edge and scratch reads are few. */
__device__ __noinline__ int
tile_sample (const CfNlImage * src, int x, int y, const CfKernelParams * kp)
{
  return cf_nl_at (src, x, y, kp);
}

__global__ static void
__launch_bounds__ (HIST_TX)
nl_median_hist (const CfNlPassArgs a)
{
  extern __shared__ unsigned smem[];
  unsigned *hist = smem;
  unsigned char *tile = (unsigned char *) (smem + HIST_WORDS);
  const int c = blockIdx.z;
  const CfChannel & ch = a.frame.channels[c];
  const int k = a.p.len, r = k / 2, rank = a.rank;
  const int bx = blockIdx.x * HIST_TX, by = blockIdx.y * HIST_ROWS;
  const int tw = HIST_TX + k - 1, th = HIST_ROWS + k - 1;
  const int t = threadIdx.x;

  /* Whole blocks leave (no thread of them reaches the barrier). */
  if (bx >= ch.width || by >= ch.height)
    return;
  if (ch.mode != CF_CHANNEL_FILTER) {
    cf_nl_pass_other (a, c, bx, by, HIST_TX, HIST_ROWS);
    return;
  }

  {
    /* HIST_BATCH rows' loads in flight before their stores (a loop that
     * stores each sample before the next load waits a memory latency a
     * sample); samples are bytes (cf_nl_histogram_run), read straight
     * where the tile lies in the channel. */
    const CfNlImage src = cf_nl_pass_image (a, c, a.p.src);
    const bool inside = bx - r >= 0 && by - r >= 0 &&
        bx - r + tw <= ch.width && by - r + th <= ch.height;
    const unsigned char *base = src.frame != 0 ? src.frame +
        (by - r) * src.stride + (long long) (bx - r) * ch.pixel_stride : 0;

    for (int ty0 = 0; ty0 < th; ty0 += HIST_BATCH) {
      int v[HIST_BATCH][2];

#pragma unroll
      for (int j = 0; j < HIST_BATCH; j++)
#pragma unroll
        for (int i = 0; i < 2; i++) {
          const int tx = t + i * HIST_TX, ty = ty0 + j;

          if (ty < th && tx < tw)
            v[j][i] = inside && base != 0 ? __ldg (base + ty * src.stride +
                tx * ch.pixel_stride) : tile_sample (&src, bx - r + tx,
                by - r + ty, &a.kp);
        }
#pragma unroll
      for (int j = 0; j < HIST_BATCH; j++)
#pragma unroll
        for (int i = 0; i < 2; i++)
          if (ty0 + j < th && t + i * HIST_TX < tw)
            tile[(ty0 + j) * tw + t + i * HIST_TX] = (unsigned char) v[j][i];
    }
  }
  for (int i = t; i < HIST_WORDS; i += HIST_TX)
    hist[i] = 0;
  __syncthreads ();

  const int x = bx + t;
  if (x >= ch.width)
    return;

  /* this thread's counters: the low or high half of its lane's words */
  unsigned *mine = hist + (t & 31);
  const int half = 16 * (t >> 5);
  const unsigned one = 1u << half;
  const unsigned char *col = tile + t;
  int m = 0, below = 0;

#define COUNT(b) ((int) ((mine[32 * (b)] >> half) & 0xFFFF))
  for (int j = 0; j < k; j++)
    for (int i = 0; i < k; i++)
      atomicAdd (&mine[32 * col[j * tw + i]], one);
  /* the median of the first window from the bottom: the first m with
   * more than `rank` samples at or below it */
  while (below + COUNT (m) <= rank) {
    below += COUNT (m);
    m++;
  }
  cf_nl_pass_store (a, c, x, by, m);

  for (int s = 1; s < HIST_ROWS && by + s < ch.height; s++) {
    const unsigned char *out = col + (s - 1) * tw;
    const unsigned char *in = col + (s - 1 + k) * tw;

    for (int i = 0; i < k; i++) {
      const int vo = out[i], vi = in[i];

      atomicAdd (&mine[32 * vo], 0u - one);
      atomicAdd (&mine[32 * vi], one);
      below += (vi < m) - (vo < m);
    }
    while (below > rank) {
      m--;
      below -= COUNT (m);
    }
    while (below + COUNT (m) <= rank) {
      below += COUNT (m);
      m++;
    }
    cf_nl_pass_store (a, c, x, by + s, m);
  }
#undef COUNT
}

cudaError_t
cf_nl_histogram_run (const CfNlPassArgs & a, int n_channels, int max_w,
    int max_h, cudaStream_t stream)
{
  const int k = a.p.len;
  const size_t bytes = HIST_SMEM (k);
  dim3 grid ((max_w + HIST_TX - 1) / HIST_TX,
      (max_h + HIST_ROWS - 1) / HIST_ROWS, n_channels);

  if (a.p.step != CF_NL_MEDIAN || a.kp.maxval > HIST_BINS - 1 ||
      k < HIST_MIN_LEN || bytes > HIST_MAX_SMEM)
    return cudaErrorNotSupported;
  /* samples of a byte each, read as such */
  for (int c = 0; c < n_channels; c++) {
    const CfChannel & ch = a.frame.channels[c];

    if (ch.mode == CF_CHANNEL_FILTER && (ch.word_bytes != 1 || ch.shift != 0
            || ch.shared_word))
      return cudaErrorNotSupported;
  }
  nl_median_hist <<< grid, HIST_TX, bytes, stream >>> (a);
  return cudaGetLastError ();
}
