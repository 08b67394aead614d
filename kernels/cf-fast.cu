/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the fast paths' planner: which fast kernel (tensor cores,
 * cf-mma.cu, or the FMA kernels of cf-fast-kernels.cuh) takes a spec on
 * a layout, and the launch of the one picked. */

#include <stdint.h>
#include <string.h>
#include <cuda_runtime.h>

#include "cf-fast.h"
#include "cf-fast-args.h"
#include "cf-fast-instances.h"

namespace
{

using FastArgs = CfFastArgs;

/* The smallest plane (bytes a row x rows) the direct kernel takes. */
constexpr long long DIRECT_MIN_BYTES = 4LL << 20;

long long
gcd_ll (long long x, long long y)
{
  x = x < 0 ? -x : x;
  y = y < 0 ? -y : y;
  while (y) {
    long long t = x % y;
    x = y;
    y = t;
  }
  return x;
}

/* Copies separable taps into a, divided by their common factors when the
 * op is linear (the factor returns as an int32 gain after the sum), and
 * says whether fp32 sums are exact: every product and partial sum an
 * integer below 2^24. */
bool
sep_weights (FastArgs * a, const CfKernelParams * kp, const CfSepWeights * sep,
    int K)
{
  const bool linear = kp->op == CF_OP_LINEAR || kp->op == CF_OP_SHARPEN;
  const double limit = 16777216.0;
  bool exact = true;

  a->gain = 1;
  for (int k = 0; k < kp->n_kernels; k++) {
    long long gr = 0, gc = 0;
    double sr = 0, sc = 0;

    if (linear && kp->n_kernels == 1) {
      for (int i = 0; i < kp->kw; i++)
        gr = gcd_ll (gr, sep->row[k][i]);
      for (int i = 0; i < kp->kh; i++)
        gc = gcd_ll (gc, sep->col[k][i]);
    }
    if (gr == 0)
      gr = 1;
    if (gc == 0)
      gc = 1;
    if (gr * gc > 0x7fffffff)
      gr = gc = 1;
    a->gain = (int) (gr * gc);
    for (int i = 0; i < kp->kw; i++) {
      const int w = (int) (sep->row[k][i] / gr);
      a->iw[k][0][K / 2 - kp->ax + i] = w;
      a->fw[k][0][K / 2 - kp->ax + i] = (float) w;
      sr += w < 0 ? -(double) w : w;
    }
    for (int i = 0; i < kp->kh; i++) {
      const int w = (int) (sep->col[k][i] / gc);
      a->iw[k][1][K / 2 - kp->ay + i] = w;
      a->fw[k][1][K / 2 - kp->ay + i] = (float) w;
      sc += w < 0 ? -(double) w : w;
    }
    if (!(kp->maxval * sr < limit && sc < limit
            && kp->maxval * sr * sc < limit))
      exact = false;
  }
  return exact;
}

/* Whether every product of a's row and column taps (K of each, common
 * factors taken out) is a signed byte: the direct kernel's dp4a taps. */
bool
outer_taps_s8 (const FastArgs & a, int K)
{
  for (int j = 0; j < K; j++)
    for (int i = 0; i < K; i++) {
      const long long t = (long long) a.iw[0][1][j] * a.iw[0][0][i];
      if (t < -128 || t > 127)
        return false;
    }
  return true;
}

/* The direct kernel for planes of bytes of 1 to 3 samples a pixel (p->ch
 * 1), where it takes the spec (cf_fast_pick_direct) and the planes are
 * large.  Measured on the H200 (bench/README.md, "Direct 3x3"): faster
 * than the tiled kernels on every 4K plane (8 MB of GRAY8 or NV12 luma)
 * and on 1080p RGB (6 MB), slower on 1080p GRAY8 and NV12 (2 MB), where
 * its few waves of blocks leave each block's latency exposed. */
cudaError_t
pick_direct (CfFastPlan * p, bool taps_s8, bool separable, int K)
{
  FastArgs & a = p->a;
  int max_step = 1;

  if (p->ch != 1 || (long long) p->max_w * p->max_h < DIRECT_MIN_BYTES)
    return cudaErrorNotSupported;
  for (int j = 0; j < p->n_jobs; j++)
    if (p->job_step[j] > max_step)
      max_step = p->job_step[j];
  if (cf_fast_pick_direct (K, max_step, taps_s8, a, p->n_jobs, p->max_w,
          p->max_h, p->fast) != cudaSuccess)
    return cudaErrorNotSupported;
  /* Its arguments, written once it takes the spec. */
  for (int j = 0; j < p->n_jobs; j++)
    a.step[j] = p->job_step[j];
  a.sep_products = separable;
  p->direct = true;
  return cudaSuccess;
}

/* Blocks of `pick` the current device runs at once, for a cooperative
 * launch; 0 where it cannot say (no device: a failed query leaves no
 * error behind for later launches). */
template < typename Args > int
resident_blocks (const CfKernelPick < Args > &pick)
{
  int dev, sms = 0, coop = 0, per_sm = 0;
  const size_t threads = pick.block.x * pick.block.y * pick.block.z;

  if (cudaGetDevice (&dev) != cudaSuccess
      || cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount,
          dev) != cudaSuccess
      || cudaDeviceGetAttribute (&coop, cudaDevAttrCooperativeLaunch,
          dev) != cudaSuccess || !coop
      || (pick.bytes > 48 * 1024
          && cudaFuncSetAttribute (pick.kernel,
              cudaFuncAttributeMaxDynamicSharedMemorySize,
              (int) pick.bytes) != cudaSuccess)
      || cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm, pick.kernel,
          (int) threads, pick.bytes) != cudaSuccess) {
    cudaGetLastError ();
    return 0;
  }
  return per_sm * sms;
}

/* One frame's planes as each job reads and writes them. */
template < typename Args > void
frame_args (const CfFastPlan * p, const CfDeviceFrame * frame, Args & a)
{
  for (int j = 0; j < p->n_jobs; j++) {
    const int pl = p->job_plane[j];
    a.src[j] = frame->src[pl] + p->job_offset[j];
    a.dst[j] = frame->dst[pl] + p->job_offset[j];
    a.ss[j] = frame->src_stride[pl];
    a.ds[j] = frame->dst_stride[pl];
  }
}

/* Packed 4:2:2 (YUY2, UYVY, YVYU, VYUY): a job of luma 2 bytes apart
 * (one offset seen) and one of the two chroma 4 apart on the same plane,
 * together every byte of its 4-byte macro-pixels, become one job of the
 * plane's bytes (CF_MMA_PACKED_422, every byte seen). */
void
merge_packed_422 (CfFastPlan * p, unsigned *seen, int *n_jobs)
{
  FastArgs & a = p->a;

  for (int y = 0; y < *n_jobs; y++) {
    if (p->job_step[y] != 2 || (seen[y] != 1 && seen[y] != 2))
      continue;
    const int lo = seen[y] == 1 ? 0 : 1;
    for (int c = 0; c < *n_jobs; c++) {
      if (p->job_step[c] != CF_MMA_PACKED_422
          || p->job_plane[c] != p->job_plane[y]
          || seen[c] != (0xFu & ~(5u << lo))
          || a.width[c] != a.width[y] || a.height[c] != a.height[y])
        continue;
      p->job_step[y] = CF_MMA_PACKED_422;
      p->job_luma_off[y] = lo;
      seen[y] = 0xF;
      for (int k = c; k + 1 < *n_jobs; k++) {
        p->job_plane[k] = p->job_plane[k + 1];
        p->job_offset[k] = p->job_offset[k + 1];
        p->job_channel[k] = p->job_channel[k + 1];
        p->job_step[k] = p->job_step[k + 1];
        p->job_luma_off[k] = p->job_luma_off[k + 1];
        a.width[k] = a.width[k + 1];
        a.height[k] = a.height[k + 1];
        seen[k] = seen[k + 1];
      }
      (*n_jobs)--;
      if (c < y)
        y--;
      break;
    }
  }
}

}                               /* namespace */

cudaError_t
cf_fast_plan (CfFastPlan * p, const CfChannel * channels, int n,
    const CfKernelParams * kp, const CfSepWeights * sep, int major)
{
  FastArgs & a = p->a;
  const CfChannel *c0 = &channels[0];
  int CH, nf = 0, n_jobs, max_w = 0, max_h = 0;
  unsigned seen_in_job[CF_FAST_JOBS];
  bool interleaved = false;
  int K = kp->kw > kp->kh ? kp->kw : kp->kh;

  *p = CfFastPlan { };
  if (kp->sample_bytes != 1 || kp->wide_acc || n < 1 || n > CF_FAST_JOBS)
    return cudaErrorNotSupported;
  /* Whole bytes only: packed words and shifted samples take the general
   * kernel, which decodes them (kernels/cf-sample.h). */
  for (int i = 0; i < n; i++)
    if (!cf_sample_is_plain (&channels[i], 1))
      return cudaErrorNotSupported;
  K |= 1;
  if (K > CF_ARG_TAPS)
    return cudaErrorNotSupported;
  if (kp->ax < 0 || kp->ay < 0 || kp->ax > kp->kw / 2 || kp->ay > kp->kh / 2
      || K / 2 - kp->ax + kp->kw > K || K / 2 - kp->ay + kp->kh > K)
    return cudaErrorNotSupported;
  if (kp->bias > 0x7fffffffLL || kp->bias < -0x7fffffffLL)
    return cudaErrorNotSupported;
  if (!kp->separable && kp->n_kernels != 1)
    return cudaErrorNotSupported;

  if (n == 4 && c0->pixel_stride == 4) {
    /* Four 8-bit samples a pixel in one plane; each frame's plane must be
     * 32-bit aligned too (cf_fast_fits). */
    unsigned seen = 0;
    const int pl = c0->plane;

    if (pl < 0 || pl >= CF_MAX_PLANES)
      return cudaErrorNotSupported;
    for (int i = 0; i < 4; i++) {
      const CfChannel *ch = &channels[i];
      if (ch->plane != pl || ch->pixel_stride != 4 || ch->width != c0->width
          || ch->height != c0->height || ch->offset < 0 || ch->offset > 3
          || (seen & (1u << ch->offset)))
        return cudaErrorNotSupported;
      seen |= 1u << ch->offset;
      if (ch->mode == CF_CHANNEL_FILTER && nf == 0)
        p->job_channel[0] = i;
      if (ch->mode == CF_CHANNEL_FILTER)
        a.lane[nf++] = ch->offset;
      else if (ch->mode == CF_CHANNEL_COPY)
        a.keep |= 0xFFu << (8 * ch->offset);
      else
        a.fill |= ((unsigned) ch->fill_value & 0xFF) << (8 * ch->offset);
    }
    if (nf < 3)
      return cudaErrorNotSupported;
    CH = 4;
    n_jobs = 1;
    p->job_plane[0] = pl;
    p->job_offset[0] = 0;
    p->job_step[0] = 1;
    a.width[0] = max_w = c0->width;
    a.height[0] = max_h = c0->height;
  } else {
    /* Planes of bytes, every sample filtered: one sample a pixel, or (the
     * tensor-core kernels only) 2 or 3 interleaved from the plane's start,
     * NV12's chroma pairs or RGB, one job of width x step bytes, or packed
     * 4:2:2 (merge_packed_422). */
    n_jobs = 0;
    for (int i = 0; i < n; i++) {
      const CfChannel *ch = &channels[i];
      const int step = ch->pixel_stride;
      const unsigned lane = 1u << (step == 1 ? 0 : ch->offset);
      int j = 0;

      if (step < 1 || step > CF_MMA_PACKED_422
          || (step > 1 && (ch->offset < 0 || ch->offset >= step))
          || ch->mode != CF_CHANNEL_FILTER || ch->plane < 0
          || ch->plane >= CF_MAX_PLANES)
        return cudaErrorNotSupported;
      /* The job of this plane's other interleaved samples, if any. */
      while (j < n_jobs && (step == 1 || p->job_step[j] != step
              || p->job_plane[j] != ch->plane))
        j++;
      if (j == n_jobs) {
        n_jobs++;
        p->job_plane[j] = ch->plane;
        p->job_offset[j] = step == 1 ? ch->offset : 0;
        p->job_channel[j] = i;
        p->job_step[j] = step;
        p->job_luma_off[j] = 0;
        a.width[j] = ch->width * step;
        a.height[j] = ch->height;
        seen_in_job[j] = 0;
      } else if (a.width[j] != ch->width * step
          || a.height[j] != ch->height) {
        return cudaErrorNotSupported;
      }
      if (seen_in_job[j] & lane)
        return cudaErrorNotSupported;
      seen_in_job[j] |= lane;
      if (a.width[j] > max_w)
        max_w = a.width[j];
      if (ch->height > max_h)
        max_h = ch->height;
    }
    merge_packed_422 (p, seen_in_job, &n_jobs);
    for (int j = 0; j < n_jobs; j++) {
      if (seen_in_job[j] != (1u << p->job_step[j]) - 1)
        return cudaErrorNotSupported;
      interleaved = interleaved || p->job_step[j] > 1;
    }
    CH = 1;
    nf = 1;
    a.lane[0] = 0;
  }
  if (max_w <= 0 || max_h <= 0)
    return cudaErrorNotSupported;
  p->ch = CH;
  p->nf = nf;
  p->n_jobs = n_jobs;
  p->max_w = max_w;
  p->max_h = max_h;

  a.kw = kp->kw;
  a.kh = kp->kh;
  a.ax = kp->ax;
  a.ay = kp->ay;
  a.op = kp->op;
  a.shift = kp->shift;
  a.bias = (int) kp->bias;
  a.maxval = kp->maxval;
  a.border = kp->border;
  a.border_value = kp->border_value;
  a.scale = kp->scale;
  a.offset = kp->offset;
  a.amount = kp->amount;

  if (kp->separable) {
    const bool use_float = sep_weights (&a, kp, sep, K);
    const int nk = kp->n_kernels;
    p->use_float = use_float;
    /* The regions' instance even where tensor cores take whole frames;
     * interleaved samples only on tensor cores, whole frames only. */
    if (!interleaved && (CH == 1 ?
            cf_fast_pick_region_1 (K, nk, use_float, a, p->region) :
            nf == 3 ? cf_fast_pick_region_4_3 (K, nk, use_float, a,
                p->region) : cf_fast_pick_region_4_4 (K, nk, use_float, a,
                p->region)) == cudaSuccess)
      p->resident = resident_blocks (p->region);
    /* Small windows: the direct kernel, which stages no tile. */
    if (nk == 1 && pick_direct (p, outer_taps_s8 (a, K), true, K) ==
        cudaSuccess)
      return cudaSuccess;
#ifndef CF_NO_MMA
    /* Tensor cores first, where the device and the taps allow. */
    if (cf_mma_plan (p, major, nk, K) == cudaSuccess) {
      p->mma = true;
      return cudaSuccess;
    }
#endif
    if (interleaved)
      return cudaErrorNotSupported;

    if (CH == 1)
      return cf_fast_pick_sep_1 (K, nk, use_float, a, n_jobs, max_w, max_h,
          p->fast);
    if (nf == 3)
      return cf_fast_pick_sep_4_3 (K, nk, use_float, a, n_jobs, max_w,
          max_h, p->fast);
    return cf_fast_pick_sep_4_4 (K, nk, use_float, a, n_jobs, max_w, max_h,
        p->fast);
  }

  a.gain = 1;
  /* 3 x 3 byte taps on large planes: the direct kernel, which stages no
   * tile. */
  if (pick_direct (p, kp->dense_taps_s8, false, K) == cudaSuccess)
    return cudaSuccess;
  /* Dense matrices of interleaved samples on tensor cores; the rest on
   * the FMA kernels, whose dp4a sums measured as fast or faster (4K
   * Laplacian GRAY8 24.0 against 24.8 us, RGBA 45.8 against 59.0; H200,
   * bench/README.md). */
  if (interleaved) {
#ifndef CF_NO_MMA
    if (cf_mma_dense_plan (p, major, K, kp->dense_taps_s8) == cudaSuccess) {
      p->mma = true;
      return cudaSuccess;
    }
#endif
    return cudaErrorNotSupported;
  }
  return cf_fast_pick_dense (CH, nf, K, kp->dense_taps_s8, a, n_jobs, max_w,
      max_h, p->fast);
}

bool
cf_fast_fits (const CfFastPlan * p, const CfDeviceFrame * frame)
{
  const int pl = p->job_plane[0];

  /* 4-sample pixels are read and written as 32-bit words. */
  return p->ch != 4 || !(((uintptr_t) frame->src[pl] | (uintptr_t)
          frame->dst[pl] | (uintptr_t) frame->src_stride[pl] | (uintptr_t)
          frame->dst_stride[pl]) & 3);
}

cudaError_t
cf_fast_run (const CfFastPlan * p, const CfDeviceFrame * frame,
    const int *dense, cudaStream_t stream)
{
  FastArgs a = p->a;

  frame_args (p, frame, a);
  a.dense = dense;
  if (p->mma)
    return cf_mma_run (p, a, stream);
  return cf_launch_pick (p->fast, a, stream);
}

/* What the regions' instance reads of the plan's arguments (one kernel,
 * fp32 taps: region_dispatch), no frame and no regions yet. */
static CfFastRegionArgs
region_args (const FastArgs & f)
{
  CfFastRegionArgs a;

  memset (&a, 0, sizeof (a));
  memcpy (a.width, f.width, sizeof (a.width));
  memcpy (a.height, f.height, sizeof (a.height));
  memcpy (a.lane, f.lane, sizeof (a.lane));
  a.keep = f.keep;
  a.fill = f.fill;
  for (int d = 0; d < 2; d++)
    memcpy (a.fw[0][d], f.fw[0][d], sizeof (a.fw[0][d]));
  cf_fast_copy_op (a, f);
  return a;
}

cudaError_t
cf_fast_run_inplace (const CfFastPlan * p, const CfDeviceFrame * frame,
    const int *chan, const CfRect * rects, int n_rects, unsigned *barrier,
    unsigned *arrivals, cudaStream_t stream)
{
  /* The regions' instance sums one kernel: its tile is tile_rows <CH, 1>. */
  const int tile_w = cf_fast_tile_w (p->ch), tile_h = cf_fast_tile_h (p->ch,
      1);
  CfFastRegionArgs a = region_args (p->a);
  int blocks = 0;

  if (p->resident <= 0 || !cf_fast_fits (p, frame))
    return cudaErrorNotSupported;
  for (int i = 0; i < n_rects; i++) {
    const CfRect & r = rects[i];
    int job = -1;

    /* A 4-sample pixel's job takes the rectangles of one of its channels
     * (all of them have the same); copied channels have none. */
    for (int j = 0; j < p->n_jobs; j++)
      if (p->job_channel[j] == chan[i])
        job = j;
    if (job < 0 || r.w <= 0 || r.h <= 0)
      continue;
    if (a.n_regions == CF_FAST_REGIONS)
      return cudaErrorNotSupported;
    CfFastRegion & e = a.region[a.n_regions++];
    e.job = job;
    e.x = r.x;
    e.y = r.y;
    e.w = r.w;
    e.h = r.h;
    e.tiles_x = (r.w + tile_w - 1) / tile_w;
    e.first = blocks;
    blocks += e.tiles_x * ((r.h + tile_h - 1) / tile_h);
  }
  /* Every block waits for every other: all must run at once. */
  if (blocks > p->resident)
    return cudaErrorNotSupported;
  if (blocks == 0)
    return cudaSuccess;

  frame_args (p, frame, a);
  a.barrier = barrier;
  a.barrier_target = *arrivals + (unsigned) blocks;

  void *params[] = { &a };
  cudaError_t err = cudaLaunchCooperativeKernel ((const void *)
      p->region.kernel, dim3 (blocks), p->region.block, params,
      p->region.bytes, stream);
  if (err == cudaErrorCooperativeLaunchTooLarge) {
    /* Fewer blocks fit than the plan counted (another context's share):
     * nothing was queued, the caller takes another path. */
    cudaGetLastError ();
    return cudaErrorNotSupported;
  }
  if (err == cudaSuccess)
    *arrivals = a.barrier_target;
  return err;
}
