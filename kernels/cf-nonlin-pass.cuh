/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: what the nonlinear passes' tiled kernels share (internal to
 * kernels/, CUDA only): one pass's arguments, the images it reads and
 * writes, and the launchers cf-nonlin.cu picks from. */
#ifndef CF_NONLIN_PASS_CUH
#define CF_NONLIN_PASS_CUH

#include "cf-launch.h"
#include "cf-nonlin.h"
#include "cf-device.cuh"

/* One pass of a CfNonlin over every channel job (blockIdx.z). */
struct CfNlPassArgs
{
  CfDeviceFrame frame;
  CfKernelParams kp;
  CfNlPass p;
  const int *table;             /* the structuring element, or NULL */
  int se_w, se_h, se_ax, se_ay;
  int rank;
  unsigned short *scratch;
  long long image_len;          /* samples of one scratch image */
  long long chan_off[CF_MAX_CHANNELS];
};

/* Image `id` (CF_NL_FRAME or a scratch index) of channel c: the one
 * lookup of every nonlinear pass (the tiled ones' CfNlPassArgs and the
 * per-sample kernel's CfNlArgs carry the same fields). */
template < typename Args > __device__ __forceinline__ CfNlImage
cf_nl_pass_image (const Args & a, int c, int id)
{
  const CfChannel & ch = a.frame.channels[c];
  CfNlImage im;

  im.ch = ch;
  if (id == CF_NL_FRAME) {
    im.frame = a.frame.src[ch.plane] + ch.offset;
    im.stride = a.frame.src_stride[ch.plane];
    im.scratch = 0;
  } else {
    im.frame = 0;
    im.stride = 0;
    im.scratch = a.scratch + id * a.image_len + a.chan_off[c];
  }
  return im;
}

/* Writes output v of (x, y), inside channel c, where the pass writes. */
__device__ __forceinline__ void
cf_nl_pass_store (const CfNlPassArgs & a, int c, int x, int y, int v)
{
  const CfChannel & ch = a.frame.channels[c];

  if (a.p.dst == CF_NL_OUT)
    store_sample (a.frame.dst[ch.plane] + ch.offset,
        a.frame.dst_stride[ch.plane], ch, x, y, v);
  else
    a.scratch[a.p.dst * a.image_len + a.chan_off[c] + (long long) y *
        ch.width + x] = (unsigned short) v;
}

/* A copied or filled channel's samples of the rectangle [x0, x0 + w) x
 * [y0, y0 + h) (clipped to the channel), when the pass writes the output:
 * the block's threads together. */
__device__ __forceinline__ void
cf_nl_pass_other (const CfNlPassArgs & a, int c, int x0, int y0, int w, int h)
{
  const CfChannel & ch = a.frame.channels[c];
  const int n = w * h;

  if (a.p.dst != CF_NL_OUT)
    return;
  for (int i = threadIdx.y * blockDim.x + threadIdx.x; i < n;
      i += blockDim.x * blockDim.y) {
    const int x = x0 + i % w, y = y0 + i / w;

    if (x < ch.width && y < ch.height)
      store_sample (a.frame.dst[ch.plane] + ch.offset,
          a.frame.dst_stride[ch.plane], ch, x, y,
          ch.mode == CF_CHANNEL_FILL ? ch.fill_value :
          load_sample (a.frame.src[ch.plane] + ch.offset,
              a.frame.src_stride[ch.plane], ch, x, y));
  }
}

/* A plane of 8- or 16-bit samples (no shift, every bit used) whose
 * channels are the whole of its pixels' bytes: the plane kernels filter
 * every channel of it at once, lane-wise, and put the copied and filled
 * ones back by byte masks at the store. */
struct CfNlBytePlane
{
  const unsigned char *src;
  unsigned char *dst;
  long long src_stride, dst_stride;
  int width, height;            /* in pixels */
  int pixel_stride;             /* bytes */
  int row_bytes;                /* width * pixel_stride */
  unsigned keep, copy, fill;    /* byte masks of a word: filtered, copied,
                                 * and the filled lanes' bytes */
  unsigned keep2, copy2, fill2; /* of the word after it: the same but for
                                 * pixels of 8 bytes */
};

/* Builds the planes from the frame's channel jobs (planes[] of n, the
 * samples' bytes lane_bytes): false when a plane's channels are not the
 * whole of its pixels' bytes in one sample size, the frame mixes sample
 * sizes, or its addresses and strides are not 4-byte aligned. */
bool cf_nl_make_planes (const CfDeviceFrame * frame, CfNlBytePlane * planes,
    int *n, int *lane_bytes);

/* Window passes on a shared-memory tile (cf-nonlin-window.cu): the median
 * (step CF_NL_MEDIAN) and the structuring element (CF_NL_MIN_SE,
 * CF_NL_MAX_SE).  cudaErrorNotSupported when the window's tile does not
 * fit; the caller then runs the per-sample kernel. */
cudaError_t cf_nl_window_run (const CfNlPassArgs & a, int n_channels,
    int max_w, int max_h, cudaStream_t stream);

/* Medians of 9 x 9 windows and larger on 8-bit samples from a running
 * histogram a thread (cf-nonlin-histogram.cu); cudaErrorNotSupported for
 * deeper samples, smaller windows, or past a block's shared memory. */
cudaError_t cf_nl_histogram_run (const CfNlPassArgs & a, int n_channels,
    int max_w, int max_h, cudaStream_t stream);

/* Row and column min/max (CF_NL_{MIN,MAX}_{ROW,COL}) on a shared-memory
 * tile of lines (cf-nonlin-line.cu); cudaErrorNotSupported past its
 * longest line. */
cudaError_t cf_nl_line_run (const CfNlPassArgs & a, int n_channels,
    int max_w, int max_h, cudaStream_t stream);

/* The bilateral pass (CF_NL_BILATERAL) on shared-memory tiles with the
 * spec's tables (cf-nonlin-bilateral.cu): colours of one channel or of
 * three (groups as cf_nonlin_run takes them).  cudaErrorNotSupported for
 * other colours, or tables and tiles past a block's shared memory; the
 * caller then runs the per-sample kernel. */
cudaError_t cf_nl_bilateral_run (const CfNlPassArgs & a, const CfNonlin * nl,
    const int groups[CF_MAX_CHANNELS][3], int n_channels, int max_w,
    int max_h, cudaStream_t stream);

/* A whole program of one 3x3 median, or a min/max window within 3x3 (a
 * rectangle's row and column passes, or either alone), from the frame to
 * the output on whole rows of 8- or 16-bit samples, every channel of a
 * plane in one lane-wise operation; or of one 5x5 median on planes of one
 * 8- or 16-bit sample a pixel (cf-nonlin-bytes.cu).
 * cudaErrorNotSupported for any other program or layout. */
cudaError_t cf_nl_bytes_run (const CfDeviceFrame * frame,
    const CfKernelParams * kp, const CfNonlin * nl, cudaStream_t stream);

/* A whole program of full rectangles' row and column passes and
 * saturated differences on whole planes of 8- or 16-bit samples
 * (cf-nonlin-rect.cu), its scratch images in the planes' layout (the
 * bytes cf_nl_rect_scratch_bytes gives, 0 when it does not take the
 * program).  cudaErrorNotSupported for any other program or layout. */
size_t cf_nl_rect_scratch_bytes (const CfDeviceFrame * frame,
    const CfNonlin * nl);
cudaError_t cf_nl_rect_run (const CfDeviceFrame * frame,
    const CfKernelParams * kp, const CfNonlin * nl, unsigned char *scratch,
    cudaStream_t stream);

#endif /* CF_NONLIN_PASS_CUH */
