/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the general filter kernels.  One launch runs every channel job of a
 * frame: grid x enumerates (tile column, job) pairs, y the tile rows, and
 * blocks past the edge of a smaller plane (chroma) return at once.
 *
 * A block loads its tile plus the kernel's apron into shared memory, mapping
 * coordinates outside the plane through cf_border_index (no padding copies),
 * then sums in integers: separable weights as a horizontal pass into a shared
 * buffer followed by a vertical pass, dense weights directly.  The sums are
 * exact, so the order in which threads add does not matter and cf_post gives
 * the CPU backend's bytes.
 *
 * Kernels whose tile does not fit in shared memory, or whose separable
 * weights are too long for the launch parameters (up to CF_MAX_TAPS taps),
 * take the long kernel: the same sums, each thread reading its samples
 * straight from the frame (through the row and column maps) and adding
 * each row's horizontal sums into the LONG_ROWS outputs they reach. */

#include <stdint.h>
#include <cuda_runtime.h>

#include "cf-launch.h"
#include "cf-arith.h"
#include "cf-plan.h"
#include "cf-filter-tile.cuh"

namespace
{

using namespace cf_tile;

constexpr int MAX_ROWS = 8;
/* Outputs a thread of the long kernel computes down a column: each row's
 * horizontal sums serve this many of them. */
constexpr int LONG_ROWS = 16;

using FilterArgs = CfFilterArgs;
using Pick = CfKernelPick < FilterArgs >;

/* COPY and FILL jobs: no shared memory and no barrier, so threads past
 * the edge may leave early. */
template < typename W > __device__ __forceinline__ void
copy_or_fill (const CfChannel & ch, const unsigned char *src,
    unsigned char *dst, long long ss, long long ds, int x0, int y0,
    int tile_h)
{
  const int x = x0 + threadIdx.x;
  const long long o = (long long) x * ch.pixel_stride;

  if (x >= ch.width)
    return;
  for (int r = threadIdx.y; r < tile_h && y0 + r < ch.height; r += BLOCK_Y) {
    int v = ch.mode == CF_CHANNEL_FILL ? ch.fill_value :
        W::read (src + (y0 + r) * ss + o, ch);
    W::write (dst + (y0 + r) * ds + o, ch, v);
  }
}

template < typename W, typename Acc, int ROWS > __global__ void
__launch_bounds__ (THREADS, 3)
filter_kernel (const __grid_constant__ FilterArgs a)
{
  extern __shared__ __align__ (16) unsigned char smem[];
  /* Grid x runs over (tile column, job) with the job fastest, so the jobs
   * of one tile (the channels of interleaved pixels) run together and share
   * its cache lines instead of streaming the frame once per channel. */
  const unsigned job = blockIdx.x % (unsigned) a.frame.n_channels;
  const unsigned tile_x = blockIdx.x / (unsigned) a.frame.n_channels;
  const CfChannel & ch = a.frame.channels[job];
  constexpr int tile_h = BLOCK_Y * ROWS;
  const int x0 = tile_x * BLOCK_X;
  const int y0 = blockIdx.y * tile_h;
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;

  if (x0 >= ch.width || y0 >= ch.height)
    return;

  const unsigned char *src = a.frame.src[ch.plane] + ch.offset;
  unsigned char *dst = a.frame.dst[ch.plane] + ch.offset;
  const long long ss = a.frame.src_stride[ch.plane];
  const long long ds = a.frame.dst_stride[ch.plane];
  const int ps = ch.pixel_stride;

  if (ch.mode != CF_CHANNEL_FILTER) {
    copy_or_fill < W > (ch, src, dst, ss, ds, x0, y0, tile_h);
    return;
  }

  const CfKernelParams & kp = a.kp;
  const int kw = kp.kw;
  const int kh = kp.kh;
  const int in_w = BLOCK_X + kw - 1;
  const int in_h = tile_h + kh - 1;
  const int tid = ty * BLOCK_X + tx;
  int *in = (int *) smem;
  long long *ymap = (long long *) (smem + in_bytes (in_w, in_h));
  int *xmap = (int *) ((unsigned char *) ymap + map_bytes (in_h));
  unsigned char *rest = (unsigned char *) xmap + align16 (in_w * sizeof (int));

  /* Borders resolved once per row and once per column of the tile, as byte
   * offsets into the plane (-1: the border value). */
  for (int t = tid; t < in_h; t += THREADS) {
    const int Y = cf_border_index (y0 + t - kp.ay, ch.height, kp.border);
    ymap[t] = Y < 0 ? -1 : Y * ss;
  }
  for (int t = tid; t < in_w; t += THREADS) {
    const int X = cf_border_index (x0 + t - kp.ax, ch.width, kp.border);
    xmap[t] = X < 0 ? -1 : X * ps;
  }
  __syncthreads ();

  /* The tile and its apron, every thread busy: t / in_w by a multiply,
   * exact for t < 2^32 / in_w (here t < 2^14). */
  const unsigned magic = 0xFFFFFFFFu / (unsigned) in_w + 1;
  for (int t = tid; t < in_w * in_h; t += THREADS) {
    const int r = __umulhi ((unsigned) t, magic);
    const int c = t - r * in_w;
    const long long yo = ymap[r];
    const int xo = xmap[c];
    in[t] = (yo < 0 || xo < 0) ? kp.border_value :
        W::read (src + yo + xo, ch);
  }

  /* Each thread owns ROWS consecutive output rows of one column and slides
   * a window of ROWS values down it: one shared load per tap for all ROWS
   * outputs. */
  const int r0 = ty * ROWS;
  Acc acc[ROWS][2];

  tile_sums < Acc, ROWS > (kp, a.sep, a.dense, in, in_w, in_h, rest, acc);

  const int x = x0 + tx;
  if (x >= ch.width)
    return;
#pragma unroll
  for (int n = 0; n < ROWS; n++) {
    const int r = r0 + n;
    if (y0 + r >= ch.height)
      break;
    const int centre = in[(r + kp.ay) * in_w + tx + kp.ax];
    W::write (dst + (y0 + r) * ds + (long long) x * ps, ch,
        cf_post (&kp, acc[n][0], acc[n][1], centre));
  }
}

template < typename W, typename Acc > __global__ void
__launch_bounds__ (THREADS)
long_kernel (const __grid_constant__ FilterArgs a)
{
  extern __shared__ __align__ (16) unsigned char smem[];
  const unsigned job = blockIdx.x % (unsigned) a.frame.n_channels;
  const unsigned tile_x = blockIdx.x / (unsigned) a.frame.n_channels;
  const CfChannel & ch = a.frame.channels[job];
  constexpr int tile_h = BLOCK_Y * LONG_ROWS;
  const int x0 = tile_x * BLOCK_X;
  const int y0 = blockIdx.y * tile_h;
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;

  if (x0 >= ch.width || y0 >= ch.height)
    return;

  const unsigned char *src = a.frame.src[ch.plane] + ch.offset;
  unsigned char *dst = a.frame.dst[ch.plane] + ch.offset;
  const long long ss = a.frame.src_stride[ch.plane];
  const long long ds = a.frame.dst_stride[ch.plane];
  const int ps = ch.pixel_stride;

  if (ch.mode != CF_CHANNEL_FILTER) {
    copy_or_fill < W > (ch, src, dst, ss, ds, x0, y0, tile_h);
    return;
  }

  const CfKernelParams & kp = a.kp;
  const int kw = kp.kw;
  const int kh = kp.kh;
  const int in_w = BLOCK_X + kw - 1;
  const int in_h = tile_h + kh - 1;
  const int tid = ty * BLOCK_X + tx;
  long long *ymap = (long long *) smem;
  int *xmap = (int *) (smem + map_bytes (in_h));

  for (int t = tid; t < in_h; t += THREADS) {
    const int Y = cf_border_index (y0 + t - kp.ay, ch.height, kp.border);
    ymap[t] = Y < 0 ? -1 : Y * ss;
  }
  for (int t = tid; t < in_w; t += THREADS) {
    const int X = cf_border_index (x0 + t - kp.ax, ch.width, kp.border);
    xmap[t] = X < 0 ? -1 : X * ps;
  }
  __syncthreads ();

  const int x = x0 + tx;
  if (x >= ch.width)
    return;

  /* Weights [kernel][tap]: rows then columns, in device memory as a
   * CfSepWeights or dense kh x kw, else in the parameters. */
  const bool on_device = cf_weights_on_device (&kp);
  const int stride = on_device ? CF_MAX_TAPS + 1 : CF_ARG_TAPS + 1;
  const int *wts = on_device ? a.dense : &a.sep.row[0][0];
  const int nk = kp.separable ? kp.n_kernels : 1;
  const int r0 = ty * LONG_ROWS;
  Acc acc[LONG_ROWS][2];
#pragma unroll
  for (int n = 0; n < LONG_ROWS; n++)
    acc[n][0] = acc[n][1] = 0;

  /* Row r of the window serves outputs n = r - j for column taps j. */
  for (int r = 0; r < LONG_ROWS + kh - 1; r++) {
    const long long yo = ymap[r0 + r];

    if (kp.separable) {
      Acc h[2] = { 0, 0 };
      /* Fixed bounds: the sums stay in registers. */
#pragma unroll
      for (int k = 0; k < 2; k++) {
        if (k >= nk)
          break;
        const int *row = wts + k * stride;
        Acc s = 0;
        for (int i = 0; i < kw; i++) {
          const int xo = xmap[tx + i];
          const int v = (yo < 0 || xo < 0) ? kp.border_value :
              W::read (src + yo + xo, ch);
          s += (Acc) row[i] * v;
        }
        h[k] = s;
      }
#pragma unroll
      for (int n = 0; n < LONG_ROWS; n++) {
        const int j = r - n;
        if (j >= 0 && j < kh) {
#pragma unroll
          for (int k = 0; k < 2; k++)
            if (k < nk)
              acc[n][k] += (Acc) wts[(2 + k) * stride + j] * h[k];
        }
      }
    } else {
      for (int i = 0; i < kw; i++) {
        const int xo = xmap[tx + i];
        const int v = (yo < 0 || xo < 0) ? kp.border_value :
            W::read (src + yo + xo, ch);
#pragma unroll
        for (int n = 0; n < LONG_ROWS; n++) {
          const int j = r - n;
          if (j >= 0 && j < kh)
            acc[n][0] += (Acc) wts[j * kw + i] * v;
        }
      }
    }
  }

#pragma unroll
  for (int n = 0; n < LONG_ROWS; n++) {
    const int y = y0 + r0 + n;
    if (y >= ch.height)
      break;
    const long long o = (long long) x * ps;
    const int centre = W::read (src + y * ss + o, ch);
    W::write (dst + y * ds + o, ch, cf_post (&kp, acc[n][0], acc[n][1],
            centre));
  }
}

/* The choosers below pick the kernel a plan launches; they launch
 * nothing. */
template < typename W, typename Acc, int ROWS > cudaError_t
pick_rows (CfGeneralPlan * g, size_t smem, int max_w, int max_h)
{
  constexpr int tile_h = BLOCK_Y * ROWS;
  dim3 block (BLOCK_X, BLOCK_Y, 1);
  dim3 grid (((max_w + BLOCK_X - 1) / BLOCK_X) * g->args.frame.n_channels,
      (max_h + tile_h - 1) / tile_h, 1);

  g->rows = ROWS;
  return cf_pick_kernel (g->pick, filter_kernel < W, Acc, ROWS >, grid,
      block, smem);
}

template < typename W, typename Acc > cudaError_t
pick_long (CfGeneralPlan * g, int max_w, int max_h)
{
  constexpr int tile_h = BLOCK_Y * LONG_ROWS;
  const CfKernelParams & kp = g->args.kp;
  dim3 block (BLOCK_X, BLOCK_Y, 1);
  dim3 grid (((max_w + BLOCK_X - 1) / BLOCK_X) * g->args.frame.n_channels,
      (max_h + tile_h - 1) / tile_h, 1);
  size_t smem = map_bytes (tile_h + kp.kh - 1) +
      align16 ((BLOCK_X + kp.kw - 1) * sizeof (int));

  g->rows = LONG_ROWS;
  g->tiled = false;
  return cf_pick_kernel (g->pick, long_kernel < W, Acc >, grid, block, smem);
}

template < typename W, typename Acc > cudaError_t
pick (CfGeneralPlan * g, int optin, int max_w, int max_h)
{
  size_t smem;

  /* Separable weights the parameters do not carry: the long kernel. */
  if (g->args.kp.separable && cf_weights_on_device (&g->args.kp))
    return pick_long < W, Acc > (g, max_w, max_h);
  /* Tall tiles when they fit; the largest kernels on GPUs with less shared
   * memory fall back to one row per thread (fits 64 KB at 63x63 taps), and
   * then to the long kernel. */
  g->tiled = true;
  smem = tile_bytes (&g->args.kp, MAX_ROWS, sizeof (Acc));
  if (smem <= (size_t) optin)
    return pick_rows < W, Acc, MAX_ROWS > (g, smem, max_w, max_h);
  smem = tile_bytes (&g->args.kp, 1, sizeof (Acc));
  if (smem <= (size_t) optin)
    return pick_rows < W, Acc, 1 > (g, smem, max_w, max_h);
  return pick_long < W, Acc > (g, max_w, max_h);
}

}                               /* namespace */

cudaError_t
cf_general_plan (CfGeneralPlan * g, const CfChannel * channels, int n,
    const CfKernelParams * kp, const CfSepWeights * sep, int optin,
    int max_w, int max_h)
{
  *g = CfGeneralPlan { };
  g->args.frame.n_channels = n;
  for (int i = 0; i < n; i++)
    g->args.frame.channels[i] = channels[i];
  g->args.kp = *kp;
  if (kp->separable && !cf_weights_on_device (kp))
    arg_weights (&g->args.sep, sep);

  /* Plain 8- and 16-bit words load directly; every other encoding (deeper
   * or shifted samples, packed words) is decoded per channel. */
  bool plain = true;
  for (int i = 0; i < n; i++)
    plain = plain && cf_sample_is_plain (&channels[i], kp->sample_bytes);
  if (!plain)
    return kp->wide_acc ? pick < AnyWords, long long >(g, optin, max_w,
        max_h) : pick < AnyWords, int >(g, optin, max_w, max_h);
  if (kp->sample_bytes == 1)
    return kp->wide_acc ? pick < PlainWords < uint8_t >, long long >(g, optin,
        max_w, max_h) : pick < PlainWords < uint8_t >, int >(g, optin, max_w,
        max_h);
  return kp->wide_acc ? pick < PlainWords < uint16_t >, long long >(g, optin,
      max_w, max_h) : pick < PlainWords < uint16_t >, int >(g, optin, max_w,
      max_h);
}

cudaError_t
cf_general_run (const CfGeneralPlan * g, const CfDeviceFrame * frame,
    const int *dense, cudaStream_t stream)
{
  FilterArgs args = g->args;

  args.frame = *frame;
  args.dense = dense;
  return cf_launch_pick (g->pick, args, stream);
}
