/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: regions filtered in place in one launch (cf-region-inplace.h).
 *
 * Tile t of a rectangle reads samples of the tiles beside it.  The earlier
 * ones (left, above-left, above, above-right: lower block indices) may already
 * have written theirs, so t reads those from their strips.  A tile reads
 * everything else from the frame first, keeps its own strip from what it
 * read, and flags both done; only then does it wait, for the flags of the
 * earlier tiles beside it, before it reads their strips and later writes.
 * The later tiles have not written yet: they wait for t's flag.  So a
 * block only ever waits for blocks of lower index, which the GPU starts
 * first (CUB's single-pass scan waits on its predecessors the same way):
 * they run or have run, and the launch cannot deadlock.  The sums are the
 * general kernel's (cf-filter-tile.cuh): the bytes are the whole frame's. */

#include <cuda_runtime.h>

#include "cf-region-inplace.h"
#include "cf-device.cuh"
#include "cf-filter-tile.cuh"

namespace
{

using namespace cf_tile;

constexpr int ROWS = 8;
constexpr int TILE_H = BLOCK_Y * ROWS;
/* Loads a thread keeps in flight: a tile of up to 13 x 13 taps in one
 * round.  One block is a quarter of an SM, so latency is its time: with
 * the loads one at a time (a round trip each) a 5 % region took longer
 * than the whole frame. */
constexpr int LOADS = 16;
constexpr unsigned NONE = 0xFFFFFFFFu;
/* Marks a sample of an earlier tile in the tile being loaded (samples are
 * 0 .. 65535, the border value too). */
constexpr int EARLIER = -1;

struct InplaceArgs
{
  CfDeviceFrame frame;
  CfKernelParams kp;
  CfArgWeights sep;
  const int *dense;
  unsigned *flags;              /* a tile's: the epoch once it has read
                                 * the frame and kept its strip */
  unsigned short *strips;
  unsigned epoch;
  int strip_w, strip_h, strip_len;
  int n_entries;
  CfInplaceEntry e[CF_INPLACE_MAX_ENTRIES];
};

__device__ __forceinline__ unsigned
load_acquire (const unsigned *p)
{
  unsigned v;

  asm volatile ("ld.acquire.gpu.global.u32 %0, [%1];":"=r" (v):"l" (p)
      :"memory");
  return v;
}

__device__ __forceinline__ void
store_release (unsigned *p, unsigned v)
{
  asm volatile ("st.release.gpu.global.u32 [%0], %1;"::"l" (p), "r" (v)
      :"memory");
}

/* Waits (thread 0) until each earlier tile beside tile (col, row) of
 * entry e has kept its strip and read the frame: its flag holds this
 * launch's epoch.  Those tiles' blocks have lower indices: they run or
 * have run.  Past ten seconds a fault is reported (the launch fails, the
 * element posts an error) instead of hanging the GPU. */
__device__ void
wait_earlier (const InplaceArgs & a, const CfInplaceEntry & e, int col,
    int row)
{
  const int nc[4] = { col - 1, col - 1, col, col + 1 };
  const int nr[4] = { row, row - 1, row - 1, row - 1 };
  const unsigned *f[4];
  unsigned long long start, now;

#pragma unroll
  for (int i = 0; i < 4; i++)
    f[i] = nc[i] >= 0 && nc[i] < e.tiles_x && nr[i] >= 0 ?
        a.flags + e.first + nr[i] * e.tiles_x + nc[i] : NULL;
  asm volatile ("mov.u64 %0, %%globaltimer;":"=l" (start));
  /* All four read at once: a round trip a poll, not one a flag. */
  for (;;) {
    unsigned v[4];
    bool all = true;

#pragma unroll
    for (int i = 0; i < 4; i++)
      v[i] = f[i] ? load_acquire (f[i]) : a.epoch;
#pragma unroll
    for (int i = 0; i < 4; i++)
      all = all && v[i] == a.epoch;
    if (all)
      return;
    __nanosleep (32);
    asm volatile ("mov.u64 %0, %%globaltimer;":"=l" (now));
    if (now - start > 10000000000ull)
      __trap ();
  }
}

template < typename W, typename Acc > __global__ void
__launch_bounds__ (THREADS, 4)
inplace_kernel (const __grid_constant__ InplaceArgs a)
{
  extern __shared__ __align__ (16) unsigned char smem[];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int tid = ty * BLOCK_X + tx;
  const int t = blockIdx.x;
  int k = 0;
  while (k + 1 < a.n_entries && t >= a.e[k + 1].first)
    k++;
  const CfInplaceEntry & e = a.e[k];
  const int lt = t - e.first;
  const int col = lt % e.tiles_x, row = lt / e.tiles_x;
  const CfChannel & ch = a.frame.channels[e.job];
  const int x0 = e.x + col * BLOCK_X, y0 = e.y + row * TILE_H;
  const int w = min (BLOCK_X, e.x + e.w - x0);
  const int h = min (TILE_H, e.y + e.h - y0);
  unsigned char *base = a.frame.dst[ch.plane] + ch.offset;
  const long long ss = a.frame.dst_stride[ch.plane];
  const int ps = ch.pixel_stride;

  if (ch.mode != CF_CHANNEL_FILTER) {
    /* Filled: nothing read, nothing kept. */
    for (int r = ty; r < h && tx < w; r += BLOCK_Y)
      W::write (base + (y0 + r) * ss + (long long) (x0 + tx) * ps, ch,
          ch.fill_value);
    return;
  }

  const CfKernelParams & kp = a.kp;
  const int in_w = BLOCK_X + kp.kw - 1;
  const int in_h = TILE_H + kp.kh - 1;
  const int n_in = in_w * in_h;
  int *in = (int *) smem;
  int *ymap = (int *) (smem + in_bytes (in_w, in_h));
  int *xmap = (int *) ((unsigned char *) ymap + map_bytes (in_h));
  unsigned char *rest = (unsigned char *) xmap + align16 (in_w * sizeof (int));
  const unsigned magic = 0xFFFFFFFFu / (unsigned) in_w + 1;

  /* The whole frame's borders, as rows and columns of the plane (-1: the
   * border value). */
  for (int i = tid; i < in_h; i += THREADS)
    ymap[i] = cf_border_index (y0 + i - kp.ay, ch.height, kp.border);
  for (int i = tid; i < in_w; i += THREADS)
    xmap[i] = cf_border_index (x0 + i - kp.ax, ch.width, kp.border);
  __syncthreads ();

  /* First the samples nothing has written yet: this tile's, later tiles'
   * and those outside the rectangle, from the frame; an earlier tile's
   * are marked and come from its strip below.  Offsets fit 32 bits: a
   * plane is smaller than 4 GB. */
  for (int i0 = tid; i0 < n_in; i0 += THREADS * LOADS) {
    unsigned at[LOADS];         /* bytes into the plane; NONE: no load */
    int v[LOADS];

#pragma unroll
    for (int j = 0; j < LOADS; j++) {
      const int i = i0 + j * THREADS;
      const int r = __umulhi ((unsigned) i, magic);
      const int Y = i < n_in ? ymap[r] : -1, X = i < n_in ? xmap[i - r *
          in_w] : -1;
      const int ox = X - e.x, oy = Y - e.y;

      at[j] = NONE;
      v[j] = kp.border_value;
      if (Y < 0 || X < 0)
        continue;
      if (ox >= 0 && ox < e.w && oy >= 0 && oy < e.h
          && (oy / TILE_H) * e.tiles_x + ox / BLOCK_X < lt)
        v[j] = EARLIER;
      else
        at[j] = (unsigned) (Y * ss + X * ps);
    }
#pragma unroll
    for (int j = 0; j < LOADS; j++)
      if (at[j] != NONE)
        v[j] = W::read (base + at[j], ch);
#pragma unroll
    for (int j = 0; j < LOADS; j++)
      if (i0 + j * THREADS < n_in)
        in[i0 + j * THREADS] = v[j];
  }
  __syncthreads ();

  /* This tile's strip: its last strip_h rows, then its last strip_w
   * columns, as the frame held them. */
  const int sh = a.strip_h, sw = a.strip_w;
  unsigned short *strip = a.strips + (size_t) t * a.strip_len;
  const int *own = in + kp.ay * in_w + kp.ax;
  for (int i = tid; i < sh * BLOCK_X; i += THREADS) {
    const int r = h - sh + i / BLOCK_X, c = i % BLOCK_X;
    if (r >= 0 && c < w)
      strip[i] = (unsigned short) own[r * in_w + c];
  }
  for (int i = tid; i < TILE_H * sw; i += THREADS) {
    const int r = i / sw, c = w - sw + i % sw;
    if (r < h && c >= 0)
      strip[sh * BLOCK_X + i] = (unsigned short) own[r * in_w + c];
  }
  /* Kept, and the frame read: later tiles may read the strip and earlier
   * ones may write over this tile's samples.  The barrier, then thread 0's
   * release, publish every thread's stores (as a grid barrier does). */
  __syncthreads ();
  if (tid == 0) {
    __threadfence ();
    store_release (&a.flags[t], a.epoch);
    wait_earlier (a, e, col, row);
  }
  __syncthreads ();

  /* The earlier tiles' samples, from their strips (through L2: another
   * SM wrote them), LOADS in flight a thread as above. */
  for (int i0 = tid; i0 < n_in; i0 += THREADS * LOADS) {
    unsigned at[LOADS];         /* samples into the strips; NONE: none */
    int v[LOADS];

#pragma unroll
    for (int j = 0; j < LOADS; j++) {
      const int i = i0 + j * THREADS;

      at[j] = NONE;
      if (i >= n_in || in[i] != EARLIER)
        continue;
      const int r = __umulhi ((unsigned) i, magic);
      const int ox = xmap[i - r * in_w] - e.x, oy = ymap[r] - e.y;
      const int oc = ox / BLOCK_X, orow = oy / TILE_H;
      const int ow = min (BLOCK_X, e.w - oc * BLOCK_X);
      const int oh = min (TILE_H, e.h - orow * TILE_H);
      const int rx = ox - oc * BLOCK_X, ry = oy - orow * TILE_H;

      at[j] = (unsigned) (e.first + orow * e.tiles_x + oc) * a.strip_len +
          (ry >= oh - sh ? (ry - oh + sh) * BLOCK_X + rx :
          sh * BLOCK_X + ry * sw + rx - ow + sw);
    }
#pragma unroll
    for (int j = 0; j < LOADS; j++)
      v[j] = at[j] != NONE ? __ldcg (a.strips + at[j]) : 0;
#pragma unroll
    for (int j = 0; j < LOADS; j++)
      if (at[j] != NONE)
        in[i0 + j * THREADS] = v[j];
  }

  const int r0 = ty * ROWS;
  Acc acc[ROWS][2];

  tile_sums < Acc, ROWS > (kp, a.sep, a.dense, in, in_w, in_h, rest, acc);

  if (tx >= w)
    return;
#pragma unroll
  for (int n = 0; n < ROWS; n++) {
    const int r = r0 + n;
    if (r >= h)
      break;
    const int centre = in[(r + kp.ay) * in_w + tx + kp.ax];
    W::write (base + (y0 + r) * ss + (long long) (x0 + tx) * ps, ch,
        cf_post (&kp, acc[n][0], acc[n][1], centre));
  }
}

bool
overlaps (const CfRect & a, const CfRect & b)
{
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h
      && b.y < a.y + a.h;
}

template < typename W, typename Acc > cudaError_t
launch (const CfInplacePlan * plan, const InplaceArgs & args, size_t smem,
    cudaStream_t stream)
{
  return cf_start_kernel (inplace_kernel < W, Acc >, dim3 (plan->n_tiles),
      dim3 (BLOCK_X, BLOCK_Y), smem, args, stream);
}

}                               /* namespace */

extern "C" cudaError_t
cf_region_inplace_plan (CfInplacePlan * plan, const CfChannel * channels,
    int n_channels, const CfKernelParams * kp, const int *jobs,
    const CfRect * rects, int n_rects, int optin)
{
  const int reach_x = max (kp->ax, kp->kw - 1 - kp->ax);
  const int reach_y = max (kp->ay, kp->kh - 1 - kp->ay);
  const size_t acc = kp->wide_acc ? sizeof (long long) : sizeof (int);

  *plan = CfInplacePlan { };
  /* The general kernel's sums with the weights in the parameters (dense
   * ones from the device), whose reach stays within the tiles beside.
   * Wide reaches read much more than they write: the tiles' launches (the
   * fast and tensor-core kernels) take those better. */
  if (kp->operation != CF_OPERATION_CONVOLVE
      || (kp->separable && cf_weights_on_device (kp))
      || reach_x > BLOCK_X || reach_y > TILE_H
      || n_rects > CF_INPLACE_MAX_ENTRIES
      || (kp->sample_bytes != 1 && kp->sample_bytes != 2)
      || tile_bytes (kp, ROWS, acc) > (size_t) optin
      || (BLOCK_X + kp->kw - 1) * (TILE_H + kp->kh - 1) > 2 * BLOCK_X * TILE_H)
    return cudaErrorNotSupported;

  for (int i = 0; i < n_rects; i++) {
    const CfRect & r = rects[i];
    CfInplaceEntry & e = plan->entries[plan->n_entries];

    if (jobs[i] < 0 || jobs[i] >= n_channels)
      return cudaErrorInvalidValue;
    if (channels[jobs[i]].mode == CF_CHANNEL_COPY || r.w <= 0 || r.h <= 0)
      continue;
    /* A region whose reach meets another's samples would read what that
     * one writes. */
    const CfRect grown = { r.x - reach_x, r.y - reach_y, r.w + 2 * reach_x,
      r.h + 2 * reach_y
    };
    for (int j = 0; j < n_rects; j++)
      if (j != i && jobs[j] == jobs[i] && overlaps (grown, rects[j]))
        return cudaErrorNotSupported;
    e.job = jobs[i];
    e.x = r.x;
    e.y = r.y;
    e.w = r.w;
    e.h = r.h;
    e.tiles_x = (r.w + BLOCK_X - 1) / BLOCK_X;
    e.first = plan->n_tiles;
    plan->n_tiles += e.tiles_x * ((r.h + TILE_H - 1) / TILE_H);
    plan->n_entries++;
  }
  plan->strip_w = reach_x;
  plan->strip_h = reach_y;
  plan->strip_len = reach_y * BLOCK_X + TILE_H * reach_x;
  plan->flag_bytes = sizeof (unsigned) * (size_t) plan->n_tiles;
  plan->strip_bytes = sizeof (unsigned short) * (size_t) plan->n_tiles *
      plan->strip_len;
  return cudaSuccess;
}

extern "C" cudaError_t
cf_region_inplace_run (const CfInplacePlan * plan,
    const CfDeviceFrame * frame, const CfKernelParams * kp,
    const CfSepWeights * sep, const int *dense, unsigned *flags,
    unsigned short *strips, unsigned epoch, cudaStream_t stream)
{
  const size_t acc = kp->wide_acc ? sizeof (long long) : sizeof (int);
  InplaceArgs args;
  bool plain = true;

  if (plan->n_tiles == 0)
    return cudaSuccess;
  if (epoch == 0 || (!kp->separable && dense == NULL))
    return cudaErrorInvalidValue;
  args.frame = *frame;
  args.kp = *kp;
  if (kp->separable)
    arg_weights (&args.sep, sep);
  args.dense = dense;
  args.flags = flags;
  args.strips = strips;
  args.epoch = epoch;
  args.strip_w = plan->strip_w;
  args.strip_h = plan->strip_h;
  args.strip_len = plan->strip_len;
  args.n_entries = plan->n_entries;
  for (int i = 0; i < plan->n_entries; i++) {
    args.e[i] = plan->entries[i];
    plain = plain && cf_sample_is_plain (&frame->channels[args.e[i].job],
        kp->sample_bytes);
  }

  const size_t smem = tile_bytes (kp, ROWS, acc);
  if (!plain)
    return kp->wide_acc ? launch < AnyWords, long long >(plan, args, smem,
        stream) : launch < AnyWords, int >(plan, args, smem, stream);
  if (kp->sample_bytes == 1)
    return kp->wide_acc ? launch < PlainWords < unsigned char >, long long >
        (plan, args, smem, stream) : launch < PlainWords < unsigned char >,
        int >(plan, args, smem, stream);
  return kp->wide_acc ? launch < PlainWords < unsigned short >, long long >
      (plan, args, smem, stream) : launch < PlainWords < unsigned short >,
      int >(plan, args, smem, stream);
}
