/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the region kernels: the input composited back where regions
 * leave a frame unfiltered, and pixelate's block means (the integers of
 * src/regions/cf-pixelate.c). */

#include <cuda_runtime.h>

#include "cf-region-launch.h"
#include "cf-sample.h"

namespace
{

constexpr int BX = 32, BY = 8;

__device__ __forceinline__ unsigned char *
at (unsigned char *base, long long stride, const CfChannel & ch, int x, int y)
{
  return base + (long long) y * stride + (long long) x * ch.pixel_stride +
      ch.offset;
}

/* x, y: a sample position; each thread takes that sample of every channel
 * job (whole pixels where the launcher could merge a plane's channels), so
 * a warp's loads and stores are contiguous.  The regions in each channel's
 * samples are worked out once a block: the divisions by the subsampling,
 * per sample, cost more than the copy. */
__global__ void
composite_kernel (const __grid_constant__ CfDeviceFrame f,
    const __grid_constant__ CfRegionArgs a)
{
  __shared__ int4 box[CF_MAX_CHANNELS * CF_MAX_RECTS];  /* x0, x1, y0, y1 */
  const int x = blockIdx.x * BX + threadIdx.x;
  const int y = blockIdx.y * BY + threadIdx.y;
  const int n = a.n_rects;

  for (int i = threadIdx.y * BX + threadIdx.x; i < f.n_channels * n;
      i += BX * BY) {
    const int c = i / n;
    const CfRect r = a.rects[i % n];
    const int sx = a.sx[c], sy = a.sy[c];

    box[i] = make_int4 (r.x / sx, (r.x + r.w + sx - 1) / sx, r.y / sy,
        (r.y + r.h + sy - 1) / sy);
  }
  __syncthreads ();

  for (int c = 0; c < f.n_channels; c++) {
    const CfChannel & ch = f.channels[c];
    bool covered = false;

    if (x >= ch.width || y >= ch.height)
      continue;
    for (int i = 0; i < n && !covered; i++) {
      const int4 b = box[c * n + i];

      covered = x >= b.x && x < b.y && y >= b.z && y < b.w;
    }
    if (covered == (a.inside != 0))
      continue;
    /* A job's word is a sample or a whole pixel (the launcher's copy
     * jobs), in one access where it is aligned. */
    const unsigned char *s = at ((unsigned char *) f.src[ch.plane],
        f.src_stride[ch.plane], ch, x, y);
    unsigned char *d = at (f.dst[ch.plane], f.dst_stride[ch.plane], ch, x,
        y);
    const int wb = ch.word_bytes;
    const unsigned long long mis = ((unsigned long long) s |
        (unsigned long long) d) & (unsigned long long) (wb - 1);

    if (wb == 1)
      d[0] = s[0];
    else if (wb == 2 && mis == 0)
      *(unsigned short *) d = *(const unsigned short *) s;
    else if (wb == 4 && mis == 0)
      *(unsigned int *) d = *(const unsigned int *) s;
    else if (wb == 8 && mis == 0)
      *(unsigned long long *) d = *(const unsigned long long *) s;
    else
      for (int b = 0; b < wb; b++)
        d[b] = s[b];
  }
}

/* One thread per block of one channel job. */
__global__ void
pixelate_kernel (CfDeviceFrame f, CfPixelateArgs a)
{
  const int c = blockIdx.z;
  const CfChannel & ch = f.channels[c];
  const CfRect r = a.rect[c];
  const int bx = a.bx[c], by = a.by[c];
  const int x0 = r.x + (blockIdx.x * BX + threadIdx.x) * bx;
  const int y0 = r.y + (blockIdx.y * BY + threadIdx.y) * by;

  if (x0 >= r.x + r.w || y0 >= r.y + r.h)
    return;
  const int x1 = min (x0 + bx, r.x + r.w), y1 = min (y0 + by, r.y + r.h);
  const unsigned long long n = (unsigned long long) (x1 - x0) * (y1 - y0);
  unsigned long long sum = 0;

  /* Copied and filled channels as a whole-frame filter gives them. */
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++) {
      const int v = cf_sample_read (at ((unsigned char *) f.src[ch.plane],
              f.src_stride[ch.plane], ch, x, y), &ch);
      if (ch.mode == CF_CHANNEL_COPY)
        cf_sample_write (at (f.dst[ch.plane], f.dst_stride[ch.plane], ch, x,
                y), &ch, v);
      else
        sum += v;
    }
  if (ch.mode == CF_CHANNEL_COPY)
    return;
  const int mean = ch.mode == CF_CHANNEL_FILL ? ch.fill_value :
      (int) ((sum + n / 2) / n);
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      cf_sample_write (at (f.dst[ch.plane], f.dst_stride[ch.plane], ch, x,
              y), &ch, mean);
}

}                               /* namespace */

extern "C" cudaError_t
cf_launch_region_composite (const CfDeviceFrame * frame,
    const CfRegionArgs * args, cudaStream_t stream)
{
  int w = 0, h = 0;

  for (int c = 0; c < frame->n_channels; c++) {
    w = max (w, frame->channels[c].width);
    h = max (h, frame->channels[c].height);
  }
  if (frame->n_channels <= 0 || w <= 0 || h <= 0)
    return cudaSuccess;
  dim3 block (BX, BY);
  dim3 grid ((w + BX - 1) / BX, (h + BY - 1) / BY);
  composite_kernel <<< grid, block, 0, stream >>> (*frame, *args);
  return cudaGetLastError ();
}

extern "C" cudaError_t
cf_launch_pixelate (const CfDeviceFrame * frame, const CfPixelateArgs * args,
    cudaStream_t stream)
{
  int nx = 0, ny = 0;

  for (int c = 0; c < frame->n_channels; c++) {
    if (args->bx[c] <= 0 || args->by[c] <= 0)
      return cudaErrorInvalidValue;
    nx = max (nx, (args->rect[c].w + args->bx[c] - 1) / args->bx[c]);
    ny = max (ny, (args->rect[c].h + args->by[c] - 1) / args->by[c]);
  }
  if (frame->n_channels <= 0 || nx <= 0 || ny <= 0)
    return cudaSuccess;
  dim3 block (BX, BY);
  dim3 grid ((nx + BX - 1) / BX, (ny + BY - 1) / BY, frame->n_channels);
  pixelate_kernel <<< grid, block, 0, stream >>> (*frame, *args);
  return cudaGetLastError ();
}
