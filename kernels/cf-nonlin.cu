/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the nonlinear operations' launcher: one launch a pass of
 * the spec's program (CfNonlin), every channel job of the frame in it
 * (blockIdx.z).  A 3x3 median or min/max on 8- or 16-bit planes, and a
 * 5x5 median on planes of one such sample a pixel, run whole in one
 * launch on whole rows (cf-nonlin-bytes.cu), other programs of full
 * rectangles on such planes a launch a pass (cf-nonlin-rect.cu).  Medians
 * of 9 x 9 and up on 8-bit samples run from running histograms
 * (cf-nonlin-histogram.cu); other medians,
 * structuring elements and rectangles' rows and
 * columns run on shared-memory tiles (cf-nonlin-window.cu,
 * cf-nonlin-line.cu), bilaterals on tiles with their tables
 * (cf-nonlin-bilateral.cu); the rest, and what those tiles don't take, runs
 * here one thread an output sample with kernels/cf-nonlin.h, which the
 * fast CPU backend runs too. */
#include "cf-nonlin-launch.h"
#include "cf-nonlin-pass.cuh"

struct CfNlArgs
{
  CfDeviceFrame frame;
  CfKernelParams kp;
  CfNonlin nl;
  const int *table;
  unsigned short *scratch;
  long long image_len;          /* samples of one scratch image */
  long long chan_off[CF_MAX_CHANNELS];
  int groups[CF_MAX_CHANNELS][3];
  int pass;
};

__global__ static void
nl_pass (const CfNlArgs a)
{
  const int c = blockIdx.z;
  const CfChannel & ch = a.frame.channels[c];
  const CfNlPass & p = a.nl.passes[a.pass];
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  int v;

  if (x >= ch.width || y >= ch.height)
    return;
  if (ch.mode != CF_CHANNEL_FILTER) {
    if (p.dst == CF_NL_OUT) {
      v = ch.mode == CF_CHANNEL_FILL ? ch.fill_value :
          load_sample (a.frame.src[ch.plane] + ch.offset,
          a.frame.src_stride[ch.plane], ch, x, y);
      store_sample (a.frame.dst[ch.plane] + ch.offset,
          a.frame.dst_stride[ch.plane], ch, x, y, v);
    }
    return;
  }

  {
    const CfNlImage src = cf_nl_pass_image (a, c, p.src);
    const CfNlImage src2 = cf_nl_pass_image (a, c, p.src2);
    CfNlImage group[3];
    int n = 0, own = 0;

    if (p.step == CF_NL_BILATERAL)
      for (int i = 0; i < 3 && a.groups[c][i] >= 0; i++) {
        if (a.groups[c][i] == c)
          own = i;
        group[n++] = cf_nl_pass_image (a, a.groups[c][i], p.src);
      }
    v = cf_nl_pass_sample (&p, &src, &src2, group, n, own, x, y, &a.nl,
        a.table, &a.kp);
  }
  if (p.dst == CF_NL_OUT)
    store_sample (a.frame.dst[ch.plane] + ch.offset,
        a.frame.dst_stride[ch.plane], ch, x, y, v);
  else
    a.scratch[p.dst * a.image_len + a.chan_off[c] + (long long) y *
        ch.width + x] = (unsigned short) v;
}

/* Scratch images: one per filtered channel, back to back; returns the
 * samples of one image over all channels. */
static long long
scratch_layout (const CfDeviceFrame * frame, long long *chan_off)
{
  long long len = 0;

  for (int c = 0; c < frame->n_channels; c++) {
    const CfChannel & ch = frame->channels[c];

    chan_off[c] = len;
    if (ch.mode == CF_CHANNEL_FILTER && ch.width > 0 && ch.height > 0)
      len += (long long) ch.width * ch.height;
  }
  return len;
}

extern "C" size_t
cf_nonlin_scratch_bytes (const CfDeviceFrame * frame, const CfNonlin * nl)
{
  long long off[CF_MAX_CHANNELS];
  const size_t samples = (size_t) (scratch_layout (frame, off) *
      nl->n_scratch * sizeof (unsigned short));

  return max (samples, cf_nl_rect_scratch_bytes (frame, nl));
}

extern "C" cudaError_t
cf_nonlin_run (const CfDeviceFrame * frame, const CfKernelParams * kp,
    const CfNonlin * nl, const int *table,
    const int groups[CF_MAX_CHANNELS][3], unsigned short *scratch,
    cudaStream_t stream)
{
  CfNlArgs a;
  int max_w = 0, max_h = 0;

  if (frame->n_channels <= 0)
    return cudaSuccess;
  memset (&a, 0, sizeof (a));
  a.frame = *frame;
  a.kp = *kp;
  a.nl = *nl;
  a.table = table;
  a.scratch = scratch;
  a.image_len = scratch_layout (frame, a.chan_off);
  memcpy (a.groups, groups, sizeof (a.groups));
  for (int c = 0; c < frame->n_channels; c++) {
    max_w = max (max_w, frame->channels[c].width);
    max_h = max (max_h, frame->channels[c].height);
  }
  if (max_w <= 0 || max_h <= 0)
    return cudaSuccess;

  /* The smallest windows and the 5x5 median on 8- and 16-bit planes:
   * all passes in one. */
  {
    const cudaError_t err = cf_nl_bytes_run (frame, kp, nl, stream);

    if (err != cudaErrorNotSupported)
      return err;
  }
  /* Full rectangles of any size, on planes of such samples. */
  {
    const cudaError_t err = cf_nl_rect_run (frame, kp, nl,
        (unsigned char *) scratch, stream);

    if (err != cudaErrorNotSupported)
      return err;
  }

  CfNlPassArgs pa;

  memset (&pa, 0, sizeof (pa));
  pa.frame = *frame;
  pa.kp = *kp;
  pa.table = table;
  pa.se_w = nl->se_w;
  pa.se_h = nl->se_h;
  pa.se_ax = nl->se_ax;
  pa.se_ay = nl->se_ay;
  pa.rank = nl->rank;
  pa.scratch = scratch;
  pa.image_len = a.image_len;
  memcpy (pa.chan_off, a.chan_off, sizeof (pa.chan_off));

  dim3 block (32, 8);
  dim3 grid ((max_w + 31) / 32, (max_h + 7) / 8, frame->n_channels);
  for (a.pass = 0; a.pass < nl->n_passes; a.pass++) {
    cudaError_t err = cudaErrorNotSupported;

    pa.p = nl->passes[a.pass];
    switch (pa.p.step) {
      case CF_NL_MEDIAN:
        err = cf_nl_histogram_run (pa, frame->n_channels, max_w, max_h,
            stream);
        if (err == cudaErrorNotSupported)
          err = cf_nl_window_run (pa, frame->n_channels, max_w, max_h,
              stream);
        break;
      case CF_NL_MIN_SE:
      case CF_NL_MAX_SE:
        err = cf_nl_window_run (pa, frame->n_channels, max_w, max_h, stream);
        break;
      case CF_NL_MIN_ROW:
      case CF_NL_MAX_ROW:
      case CF_NL_MIN_COL:
      case CF_NL_MAX_COL:
        err = cf_nl_line_run (pa, frame->n_channels, max_w, max_h, stream);
        break;
      case CF_NL_BILATERAL:
        err = cf_nl_bilateral_run (pa, nl, groups, frame->n_channels, max_w,
            max_h, stream);
        break;
      default:
        break;
    }
    if (err == cudaErrorNotSupported) {
      nl_pass <<< grid, block, 0, stream >>> (a);
      err = cudaGetLastError ();
    }
    if (err != cudaSuccess)
      return err;
  }
  return cudaSuccess;
}
