/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the device steps of the FFT convolution around cuFFT's
 * transforms: tiles padded from the channels (borders through
 * cf_border_index, as the direct kernel maps them), the kernel's plane,
 * the pointwise product of spectra, and the rounding of each tile's
 * outputs to the exact integer sum followed by the direct kernel's cf_post.
 * Grids run one block row of tiles per grid z, so tile g of a batch is
 * blockIdx.z. */

#include <stdint.h>
#include <cuda_runtime.h>

#include "cf-fft-launch.h"
#include "cf-arith.h"
#include "cf-device.cuh"

namespace
{

constexpr int BLOCK_X = 32;
constexpr int BLOCK_Y = 8;
constexpr int MULTIPLY_THREADS = 256;
/* Spectra per multiply block row: each thread reuses its kernel value. */
constexpr int MULTIPLY_ROWS = 64;

struct TileArgs
{
  CfDeviceFrame frame;
  CfKernelParams kp;
  CfFftTiles t;
  int first;
  double *tiles;
};

/* The channel job owning tile g and the tile's column and row in it;
 * -1 when no job does. */
__device__ __forceinline__ int
find_tile (const CfFftTiles & t, const CfDeviceFrame & f, int g, int &tx,
    int &ty)
{
  for (int c = 0; c < f.n_channels; c++) {
    const int n = t.tiles_x[c] * t.tiles_y[c];
    const int local = g - t.first_tile[c];

    if (f.channels[c].mode == CF_CHANNEL_FILTER && local >= 0 && local < n) {
      ty = local / t.tiles_x[c];
      tx = local - ty * t.tiles_x[c];
      return c;
    }
  }
  return -1;
}

/* Sample (x, y) of a channel job in its plane. */
__device__ __forceinline__ int
load (const unsigned char *plane, long long stride, const CfChannel & ch,
    int x, int y)
{
  return load_sample (plane + ch.offset, stride, ch, x, y);
}

__device__ __forceinline__ void
store (unsigned char *plane, long long stride, const CfChannel & ch, int x,
    int y, int v)
{
  store_sample (plane + ch.offset, stride, ch, x, y, v);
}

__global__ void
__launch_bounds__ (BLOCK_X * BLOCK_Y)
pad_kernel (const __grid_constant__ TileArgs a)
{
  const CfFftTiles & t = a.t;
  const int i = blockIdx.x * BLOCK_X + threadIdx.x;
  const int j = blockIdx.y * BLOCK_Y + threadIdx.y;
  const int g = a.first + blockIdx.z;
  int tx = 0, ty = 0, c = -1;

  if (i >= t.fft_w || j >= t.fft_h)
    return;
  double *out = a.tiles + ((size_t) blockIdx.z * t.fft_h + j) * t.fft_w + i;
  if (g < t.n_tiles)
    c = find_tile (t, a.frame, g, tx, ty);
  if (c < 0) {
    /* Unused tiles of the last batch: transformed, never read, but
     * initialised. */
    *out = 0.0;
    return;
  }

  const CfChannel & ch = a.frame.channels[c];
  const int X = cf_border_index (tx * t.step_x + i - a.kp.ax, ch.width,
      a.kp.border);
  const int Y = cf_border_index (ty * t.step_y + j - a.kp.ay, ch.height,
      a.kp.border);
  const int v = (X < 0 || Y < 0) ? a.kp.border_value :
      load (a.frame.src[ch.plane], a.frame.src_stride[ch.plane], ch, X,
      Y);
  *out = (double) (v - t.centre);
}

__global__ void
__launch_bounds__ (BLOCK_X * BLOCK_Y)
store_kernel (const __grid_constant__ TileArgs a)
{
  const CfFftTiles & t = a.t;
  const int i = blockIdx.x * BLOCK_X + threadIdx.x;
  const int j = blockIdx.y * BLOCK_Y + threadIdx.y;
  const int g = a.first + blockIdx.z;
  int tx, ty;

  if (i >= t.step_x || j >= t.step_y || g >= t.n_tiles)
    return;
  const int c = find_tile (t, a.frame, g, tx, ty);
  if (c < 0)
    return;
  const CfChannel & ch = a.frame.channels[c];
  const int x = tx * t.step_x + i;
  const int y = ty * t.step_y + j;
  if (x >= ch.width || y >= ch.height)
    return;

  /* Within the error bound the nearest integer is the exact sum of the
   * centred samples; the centring comes back as an integer. */
  const double v = a.tiles[((size_t) blockIdx.z * t.fft_h + j) * t.fft_w + i];
  const long long acc = __double2ll_rn (v) + t.centre_sum;
  const int centre = load (a.frame.src[ch.plane],
      a.frame.src_stride[ch.plane], ch, x, y);
  store (a.frame.dst[ch.plane], a.frame.dst_stride[ch.plane], ch, x, y,
      cf_post (&a.kp, acc, 0, centre));
}

__global__ void
weights_kernel (const int *dense, int kw, int kh, int fw, int fh,
    double scale, double *plane)
{
  const int p = blockIdx.x * BLOCK_X + threadIdx.x;
  const int q = blockIdx.y * BLOCK_Y + threadIdx.y;

  if (p >= fw || q >= fh)
    return;
  /* Weight (i, j) at (-i, -j) modulo the plane: convolving with it reads
   * tile samples at +i, +j, a correlation anchored at the tile's corner. */
  const int i = p == 0 ? 0 : fw - p;
  const int j = q == 0 ? 0 : fh - q;
  plane[(size_t) q * fw + p] = (i < kw && j < kh) ?
      (double) dense[j * kw + i] * scale : 0.0;
}

__global__ void
__launch_bounds__ (MULTIPLY_THREADS)
multiply_kernel (double2 * spectra, const double2 * kernel, int n, int count)
{
  const int k = blockIdx.x * MULTIPLY_THREADS + threadIdx.x;

  if (k >= n)
    return;
  const double2 w = kernel[k];
  for (int z = blockIdx.y; z < count; z += gridDim.y) {
    double2 *p = spectra + (size_t) z * n + k;
    const double2 s = *p;
    *p = make_double2 (s.x * w.x - s.y * w.y, s.x * w.y + s.y * w.x);
  }
}

/* COPY and FILL jobs, written as the direct kernel writes them. */
__global__ void
__launch_bounds__ (BLOCK_X * BLOCK_Y)
copy_kernel (const __grid_constant__ CfDeviceFrame f)
{
  const CfChannel & ch = f.channels[blockIdx.z];
  const int x = blockIdx.x * BLOCK_X + threadIdx.x;
  const int y = blockIdx.y * BLOCK_Y + threadIdx.y;

  if (ch.mode == CF_CHANNEL_FILTER || x >= ch.width || y >= ch.height)
    return;
  const int v = ch.mode == CF_CHANNEL_FILL ? ch.fill_value :
      load (f.src[ch.plane], f.src_stride[ch.plane], ch, x, y);
  store (f.dst[ch.plane], f.dst_stride[ch.plane], ch, x, y, v);
}

int
blocks (int n, int per)
{
  return (n + per - 1) / per;
}

bool
tiles_valid (const CfKernelParams * kp, const CfFftTiles * t, int count)
{
  return (kp->sample_bytes == 1 || kp->sample_bytes == 2)
      && t->step_x >= 1 && t->step_y >= 1 && t->fft_w >= kp->kw
      && t->fft_h >= kp->kh && count <= 65535;
}

/* `count` tiles from a.first, w x h threads a tile. */
cudaError_t
launch_tiles (void (*kernel) (TileArgs), const TileArgs & a, int w, int h,
    int count, cudaStream_t stream)
{
  if (count <= 0)
    return cudaSuccess;
  if (!tiles_valid (&a.kp, &a.t, count))
    return cudaErrorInvalidValue;
  dim3 grid (blocks (w, BLOCK_X), blocks (h, BLOCK_Y), count);
  dim3 block (BLOCK_X, BLOCK_Y, 1);

  kernel <<< grid, block, 0, stream >>> (a);
  return cudaGetLastError ();
}

}                               /* namespace */

extern "C" cudaError_t
cf_fft_launch_pad (const CfDeviceFrame * frame, const CfKernelParams * kp,
    const CfFftTiles * t, int first, int count, double *tiles,
    cudaStream_t stream)
{
  const TileArgs a = { *frame, *kp, *t, first, tiles };

  return launch_tiles (pad_kernel, a, t->fft_w, t->fft_h, count, stream);
}

extern "C" cudaError_t
cf_fft_launch_weights (const int *dense, int kw, int kh, int fft_w,
    int fft_h, double scale, double *plane, cudaStream_t stream)
{
  if (kw < 1 || kh < 1 || fft_w < kw || fft_h < kh || dense == NULL)
    return cudaErrorInvalidValue;
  dim3 grid (blocks (fft_w, BLOCK_X), blocks (fft_h, BLOCK_Y), 1);
  dim3 block (BLOCK_X, BLOCK_Y, 1);
  weights_kernel <<< grid, block, 0, stream >>> (dense, kw, kh, fft_w, fft_h,
      scale, plane);
  return cudaGetLastError ();
}

extern "C" cudaError_t
cf_fft_launch_multiply (double2 * spectra, const double2 * kernel, int n,
    int count, cudaStream_t stream)
{
  if (n <= 0 || count <= 0)
    return cudaSuccess;
  dim3 grid (blocks (n, MULTIPLY_THREADS),
      count < MULTIPLY_ROWS ? count : MULTIPLY_ROWS, 1);
  multiply_kernel <<< grid, MULTIPLY_THREADS, 0, stream >>> (spectra, kernel,
      n, count);
  return cudaGetLastError ();
}

extern "C" cudaError_t
cf_fft_launch_store (const CfDeviceFrame * frame, const CfKernelParams * kp,
    const CfFftTiles * t, int first, int count, const double *tiles,
    cudaStream_t stream)
{
  const TileArgs a = { *frame, *kp, *t, first, (double *) tiles };

  return launch_tiles (store_kernel, a, t->step_x, t->step_y, count,
      stream);
}

extern "C" cudaError_t
cf_fft_launch_copy (const CfDeviceFrame * frame, int sample_bytes,
    cudaStream_t stream)
{
  int max_w = 0, max_h = 0, any = 0;

  if (frame->n_channels < 0 || frame->n_channels > CF_MAX_CHANNELS
      || (sample_bytes != 1 && sample_bytes != 2))
    return cudaErrorInvalidValue;
  for (int c = 0; c < frame->n_channels; c++) {
    const CfChannel *ch = &frame->channels[c];

    if (ch->mode == CF_CHANNEL_FILTER)
      continue;
    any = 1;
    max_w = ch->width > max_w ? ch->width : max_w;
    max_h = ch->height > max_h ? ch->height : max_h;
  }
  if (!any || max_w <= 0 || max_h <= 0)
    return cudaSuccess;
  dim3 grid (blocks (max_w, BLOCK_X), blocks (max_h, BLOCK_Y),
      frame->n_channels);
  dim3 block (BLOCK_X, BLOCK_Y, 1);
  copy_kernel <<< grid, block, 0, stream >>> (*frame);
  return cudaGetLastError ();
}
