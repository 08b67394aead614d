/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: FFT convolution with cuFFT, per stream.
 *
 * A frame runs in batches of tiles: pad (kernels/cf-fft.cu), forward D2Z,
 * product with the kernel's spectrum, inverse Z2D, round and store; then
 * the COPY and FILL jobs.  Everything is queued on the caller's stream: the
 * plans are bound to it and share one work area, since they never run at
 * the same time.  Plans, buffers and the kernel's spectrum are made on
 * first use and again only when the tile size, the batch or the spec
 * changes. */
#include "config.h"

#include <string.h>
#include "cf-fft.h"
#include "cf-cufft.h"
#include "cf-cuda-check.h"
#include "cf-fft-launch.h"

struct _CfFft
{
  const CfCufft *cufft;

  /* The last decision and the key it was made for. */
  gboolean have_decision, wanted;
  guint64 serial;
  CfConvMethod method;
  int n_channels;
  CfChannel channels[CF_MAX_CHANNELS];
  CfFftGeometry geom;

  /* Plans for plan_batch tiles of plan_w x plan_h, and one for the
   * kernel's plane. */
  gboolean have_plans;
  int plan_w, plan_h, plan_batch;
  cufftHandle forward, inverse, kernel_forward;
  void *work;

  /* One batch of tiles and their spectra. */
  double *tiles;
  double2 *spectra;
  gsize tiles_capacity, spectra_capacity;

  /* The kernel's spectrum, scaled by 1 / (plan_w * plan_h). */
  double2 *kernel;
  gsize kernel_capacity;
  gboolean have_kernel;
  guint64 kernel_serial;
  int kernel_w, kernel_h;
};

static const char *
cufft_result_name (cufftResult r)
{
  switch (r) {
    case CUFFT_INVALID_PLAN:
      return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED:
      return "CUFFT_ALLOC_FAILED (out of GPU memory)";
    case CUFFT_INVALID_VALUE:
      return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR:
      return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED:
      return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED:
      return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE:
      return "CUFFT_INVALID_SIZE";
    case CUFFT_NOT_SUPPORTED:
      return "CUFFT_NOT_SUPPORTED";
    default:
      return "unknown cuFFT error";
  }
}

static gboolean
check_cufft (cufftResult r, const char *call, GError ** error)
{
  if (r == CUFFT_SUCCESS)
    return TRUE;
  g_set_error (error, CF_ERROR, CF_ERROR_DEVICE,
      "cuFFT call %s failed for the FFT convolution: %s (%d)", call,
      cufft_result_name (r), (int) r);
  return FALSE;
}

CfFft *
cf_fft_new (void)
{
  const CfCufft *cufft = cf_cufft_get (NULL);
  CfFft *fft;

  if (cufft == NULL)
    return NULL;
  fft = g_new0 (CfFft, 1);
  fft->cufft = cufft;
  return fft;
}

static void
release_plans (CfFft * fft)
{
  if (fft->have_plans) {
    fft->cufft->destroy (fft->forward);
    fft->cufft->destroy (fft->inverse);
    fft->cufft->destroy (fft->kernel_forward);
  }
  cudaFree (fft->work);
  fft->work = NULL;
  fft->have_plans = FALSE;
}

void
cf_fft_free (CfFft * fft)
{
  if (fft == NULL)
    return;
  release_plans (fft);
  cudaFree (fft->tiles);
  cudaFree (fft->spectra);
  cudaFree (fft->kernel);
  g_free (fft);
}

gboolean
cf_fft_wanted (CfFft * fft, CfConvMethod method, const CfSpec * spec,
    const CfDeviceFrame * frame)
{
  gsize bytes = sizeof (CfChannel) * frame->n_channels;

  /* cf_fft_decide () rules out direct methods and ineligible specs. */
  if (fft->have_decision && fft->serial == spec->serial
      && fft->method == method && fft->n_channels == frame->n_channels
      && memcmp (fft->channels, frame->channels, bytes) == 0)
    return fft->wanted;

  fft->wanted = cf_fft_decide (method, spec, frame->channels,
      frame->n_channels, &fft->geom);
  fft->serial = spec->serial;
  fft->method = method;
  fft->n_channels = frame->n_channels;
  memcpy (fft->channels, frame->channels, bytes);
  fft->have_decision = TRUE;
  return fft->wanted;
}

/* One batched 2D plan without a work area of its own; *work gets its
 * size. */
static gboolean
make_plan (const CfCufft * cufft, cufftHandle * plan, cufftType type, int w,
    int h, int batch, size_t *work, GError ** error)
{
  int n[2] = { h, w };

  if (!check_cufft (cufft->create (plan), "cufftCreate", error))
    return FALSE;
  if (check_cufft (cufft->set_auto_allocation (*plan, 0),
          "cufftSetAutoAllocation", error)
      && check_cufft (cufft->make_plan_many (*plan, 2, n, NULL, 1, 0, NULL,
              1, 0, type, batch, work), "cufftMakePlanMany", error))
    return TRUE;
  cufft->destroy (*plan);
  return FALSE;
}

static gboolean
ensure_plans (CfFft * fft, int w, int h, int batch, GError ** error)
{
  size_t work[3] = { 0, 0, 0 }, most;

  if (fft->have_plans && fft->plan_w == w && fft->plan_h == h
      && fft->plan_batch == batch)
    return TRUE;
  release_plans (fft);

  if (!make_plan (fft->cufft, &fft->forward, CUFFT_D2Z, w, h, batch,
          &work[0], error))
    return FALSE;
  if (!make_plan (fft->cufft, &fft->inverse, CUFFT_Z2D, w, h, batch,
          &work[1], error)) {
    fft->cufft->destroy (fft->forward);
    return FALSE;
  }
  if (!make_plan (fft->cufft, &fft->kernel_forward, CUFFT_D2Z, w, h, 1,
          &work[2], error)) {
    fft->cufft->destroy (fft->forward);
    fft->cufft->destroy (fft->inverse);
    return FALSE;
  }
  fft->have_plans = TRUE;
  fft->plan_w = w;
  fft->plan_h = h;
  fft->plan_batch = batch;

  most = MAX (MAX (work[0], work[1]), work[2]);
  if (most > 0 && !cf_cuda_check (cudaMalloc (&fft->work, most),
          "cudaMalloc", error)) {
    fft->work = NULL;
    g_prefix_error (error, "Cannot allocate %zu bytes of GPU memory for "
        "cuFFT's work area: ", most);
    release_plans (fft);
    return FALSE;
  }
  if (!check_cufft (fft->cufft->set_work_area (fft->forward, fft->work),
          "cufftSetWorkArea", error)
      || !check_cufft (fft->cufft->set_work_area (fft->inverse, fft->work),
          "cufftSetWorkArea", error)
      || !check_cufft (fft->cufft->set_work_area (fft->kernel_forward,
              fft->work), "cufftSetWorkArea", error)) {
    release_plans (fft);
    return FALSE;
  }
  return TRUE;
}

static gboolean
ensure_buffer (void **buf, gsize * capacity, gsize need, const char *what,
    GError ** error)
{
  if (need <= *capacity)
    return TRUE;
  cudaFree (*buf);
  *buf = NULL;
  *capacity = 0;
  if (!cf_cuda_check (cudaMalloc (buf, need), "cudaMalloc", error)) {
    *buf = NULL;
    g_prefix_error (error, "Cannot allocate %zu bytes of GPU memory for %s: ",
        need, what);
    return FALSE;
  }
  *capacity = need;
  return TRUE;
}

/* The kernel's spectrum for this spec and tile size, computed on the
 * stream before the frame's tiles reuse the tile buffer. */
static gboolean
ensure_kernel (CfFft * fft, const CfSpec * spec, const int *dense,
    cudaStream_t stream, GError ** error)
{
  const CfFftTiles *t = &fft->geom.tiles;
  gsize bytes = (gsize) t->fft_h * (t->fft_w / 2 + 1) * sizeof (double2);

  if (fft->have_kernel && fft->kernel_serial == spec->serial
      && fft->kernel_w == t->fft_w && fft->kernel_h == t->fft_h)
    return TRUE;
  fft->have_kernel = FALSE;
  if (!ensure_buffer ((void **) &fft->kernel, &fft->kernel_capacity, bytes,
          "the kernel's spectrum", error))
    return FALSE;
  /* The 1 / N of the inverse transform, folded into the weights. */
  if (!cf_cuda_check (cf_fft_launch_weights (dense, spec->kp.kw, spec->kp.kh,
              t->fft_w, t->fft_h, 1.0 / ((double) t->fft_w * t->fft_h),
              fft->tiles, stream), "cf_fft_launch_weights", error)
      || !check_cufft (fft->cufft->exec_d2z (fft->kernel_forward, fft->tiles,
              fft->kernel), "cufftExecD2Z (kernel)", error))
    return FALSE;
  fft->have_kernel = TRUE;
  fft->kernel_serial = spec->serial;
  fft->kernel_w = t->fft_w;
  fft->kernel_h = t->fft_h;
  return TRUE;
}

gboolean
cf_fft_filter (CfFft * fft, const CfSpec * spec, const int *dense,
    const CfDeviceFrame * frame, cudaStream_t stream, GError ** error)
{
  const CfFftGeometry *g = &fft->geom;
  const CfFftTiles *t = &g->tiles;
  const CfKernelParams *kp = &spec->kp;
  int n_spectrum = t->fft_h * (t->fft_w / 2 + 1);

  g_return_val_if_fail (fft->have_decision && fft->wanted
      && fft->serial == spec->serial, FALSE);

  if (!ensure_plans (fft, t->fft_w, t->fft_h, g->batch, error)
      || !ensure_buffer ((void **) &fft->tiles, &fft->tiles_capacity,
          (gsize) g->batch * t->fft_w * t->fft_h * sizeof (double),
          "FFT tiles", error)
      || !ensure_buffer ((void **) &fft->spectra, &fft->spectra_capacity,
          (gsize) g->batch * n_spectrum * sizeof (double2), "FFT spectra",
          error))
    return FALSE;
  if (!check_cufft (fft->cufft->set_stream (fft->forward, stream),
          "cufftSetStream", error)
      || !check_cufft (fft->cufft->set_stream (fft->inverse, stream),
          "cufftSetStream", error)
      || !check_cufft (fft->cufft->set_stream (fft->kernel_forward, stream),
          "cufftSetStream", error)
      || !ensure_kernel (fft, spec, dense, stream, error))
    return FALSE;

  for (int first = 0; first < t->n_tiles; first += g->batch) {
    int count = MIN (g->batch, t->n_tiles - first);

    /* The whole batch is padded (zeros past the last tile) so the
     * transforms read only initialised memory. */
    if (!cf_cuda_check (cf_fft_launch_pad (frame, kp, t, first, g->batch,
                fft->tiles, stream), "cf_fft_launch_pad", error)
        || !check_cufft (fft->cufft->exec_d2z (fft->forward, fft->tiles,
                fft->spectra), "cufftExecD2Z", error)
        || !cf_cuda_check (cf_fft_launch_multiply (fft->spectra, fft->kernel,
                n_spectrum, count, stream), "cf_fft_launch_multiply", error)
        || !check_cufft (fft->cufft->exec_z2d (fft->inverse, fft->spectra,
                fft->tiles), "cufftExecZ2D", error)
        || !cf_cuda_check (cf_fft_launch_store (frame, kp, t, first, count,
                fft->tiles, stream), "cf_fft_launch_store", error))
      return FALSE;
  }
  return cf_cuda_check (cf_fft_launch_copy (frame, kp->sample_bytes, stream),
      "cf_fft_launch_copy", error);
}
