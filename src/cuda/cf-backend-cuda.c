/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: the CUDA backend.  Each frame in flight gets a slot of
 * its own (a non-blocking stream, device planes grown when a layout needs
 * more, dense weights, timing events); slots form a ring, so the upload,
 * filter and download of consecutive frames overlap on the copy and compute
 * engines.  Each frame is synchronised once, when its output is needed.
 * Frames already in device memory (CfFrame.on_device) are read and written
 * in place: no staging planes, no copies.  Large dense kernels may be
 * convolved through FFTs (cf-fft.c) instead of the direct kernel, as
 * CUDAFILTER_CONVOLUTION and cf_fft_decide () choose.  Which of them runs,
 * and which kernel, is planned once per spec and layout (ensure_plan). */
#include "config.h"

#include <string.h>
#include <cuda_runtime_api.h>

#include "cf-backend-private.h"
#include "cf-cuda-check.h"
#include "cf-cuda-current.h"
#include "cf-launch.h"
#include "cf-region-launch.h"
#include "cf-region-inplace.h"
#include "cf-nonlin-launch.h"
#include "cf-fft-plan.h"
#ifdef HAVE_CUFFT
#include "cf-fft.h"
#endif

/* Everything one frame in flight needs: its stream (so the upload, filter
 * and download of different frames overlap), device planes, dense weights
 * and timing events.  Slots are set up on first use. */
typedef struct
{
  cudaStream_t stream;
  cudaEvent_t kernel_start, kernel_end;
  cudaEvent_t ready;            /* a device frame's producer, made on use */

  /* Staging planes for host frames, allocated only for the side that is in
   * host memory; a plane's pitch is its row bytes rounded up to PITCH_ALIGN
   * and may change per frame, as long as the capacity suffices. */
  unsigned char *d_in[CF_MAX_PLANES];
  unsigned char *d_out[CF_MAX_PLANES];
  size_t in_capacity[CF_MAX_PLANES];
  size_t out_capacity[CF_MAX_PLANES];

  /* Dense weights of the last spec this slot ran, cached on its serial;
   * per slot so a new spec never overwrites weights a frame still reads. */
  int *d_dense;
  size_t dense_capacity;
  gboolean have_dense;
  guint64 dense_serial;

  /* Scratch images of the nonlinear operations' passes. */
  unsigned short *d_scratch;
  size_t scratch_capacity;

  /* The regions' tiles, filtered before any is written back. */
  unsigned char *d_tiles;
  size_t tiles_capacity;

  /* Regions in place in one launch (cf-region-inplace.h): the tiles'
   * flags (zeroed when made; region_epoch counts the launches since) and
   * strips. */
  unsigned char *d_region_flags;
  size_t region_flags_capacity;
  unsigned region_epoch;
  unsigned char *d_region_strips;
  size_t region_strips_capacity;
  /* Regions in place on the fast kernels (cf_launch_plan_run_inplace):
   * the launches' barrier word (zeroed when made) and its count since. */
  unsigned char *d_region_barrier;
  size_t region_barrier_capacity;
  unsigned region_arrivals;

#ifdef HAVE_CUFFT
  /* FFT plans and buffers, made when a spec first takes that path. */
  CfFft *fft;
#endif
} CfCudaSlot;

/* Frames in flight use the slot the base gives them; the synchronous
 * process () has one of its own. */
#define MAX_SLOTS CF_BACKEND_MAX_IN_FLIGHT
#define SYNC_SLOT MAX_SLOTS

/* How the last spec and layout run, chosen once for them. */
typedef struct
{
  CfLaunchPlan *kernel;         /* the direct kernel */
  gboolean fft;                 /* dense weights through FFTs instead */
  gboolean nonlin;              /* the nonlinear passes (cf_nonlin_run) */
  int colour;                   /* the layout's */
  int groups[CF_MAX_CHANNELS][3];       /* cf_layout_colour_groups */
  guint64 serial;
  int n_channels;
  CfChannel channels[CF_MAX_CHANNELS];
} CfCudaPlan;

/* Direct kernels for the last tile shapes (static regions plan once). */
#define TILE_PLANS 8

typedef struct
{
  CfLaunchPlan *kernel;
  guint64 serial;
  int n_channels;
  CfChannel channels[CF_MAX_CHANNELS];
} CfTilePlan;

typedef struct
{
  CfBackend parent;
  int device;
  int optin;                    /* shared memory a block may opt in to */
  CfCudaSlot slots[MAX_SLOTS + 1];
  CfCudaPlan plan;
  CfTilePlan tile_plans[TILE_PLANS];
  guint next_tile_plan;
  gboolean have_plan;
  CfConvMethod method;          /* CUDAFILTER_CONVOLUTION */
} CfBackendCuda;

/* 256 bytes keeps every row start aligned for the copy engines. */
#define PITCH_ALIGN 256

/* Test hook: CUDAFILTER_FAULT=alloc, read when a backend is created, makes
 * every frame's device allocation fail as if the GPU were out of memory. */
static gboolean fault_alloc;

/* Makes the backend's device current for this thread, and gives the
 * caller's context back after (cf-cuda-current.h): with device N, only
 * device N is touched. */
static gboolean
enter_device (const CfBackendCuda * self, CfCudaCurrent * saved,
    GError ** error)
{
  return cf_cuda_current_enter (self->device, saved, error);
}

static void
leave_device (const CfBackendCuda * self, const CfCudaCurrent * saved)
{
  cf_cuda_current_leave (saved);
}

/* CUDAFILTER_CONVOLUTION=auto|direct|fft, read when a backend is created:
 * how dense kernels are convolved (README, "Large dense kernels"). */
static CfConvMethod
read_method (void)
{
  return cf_conv_method_from_env ("CUDAFILTER_CONVOLUTION");
}

static const char *
count_failure_reason (cudaError_t err)
{
  switch (err) {
    case cudaErrorInsufficientDriver:
      return "no NVIDIA driver found, or it is older than this build needs";
    case cudaErrorNoDevice:
      return "no CUDA-capable device";
    case cudaErrorDevicesUnavailable:
      return "every CUDA device is busy or unavailable";
    default:
      return "CUDA is not usable";
  }
}

int
cf_cuda_device_count (char **why)
{
  int n = 0;
  cudaError_t err = cudaGetDeviceCount (&n);

  if (err != cudaSuccess) {
    /* Clear the error so later runtime calls do not report it again. */
    cudaGetLastError ();
    if (why)
      *why = g_strdup_printf ("%s (%s)", count_failure_reason (err),
          cudaGetErrorName (err));
    return 0;
  }
  if (n == 0 && why)
    *why = g_strdup ("no CUDA-capable device");
  return n;
}

/* "0: NVIDIA H200, 1: ..." for error messages. */
static char *
describe_devices (int n)
{
  GString *s = g_string_new (NULL);

  for (int i = 0; i < n; i++) {
    struct cudaDeviceProp prop;
    if (i > 0)
      g_string_append (s, ", ");
    if (cudaGetDeviceProperties (&prop, i) == cudaSuccess)
      g_string_append_printf (s, "%d: %s", i, prop.name);
    else
      g_string_append_printf (s, "%d: (unknown)", i);
  }
  return g_string_free (s, FALSE);
}

static gboolean
ensure_slot (CfCudaSlot * self, GError ** error)
{
  if (self->stream)
    return TRUE;
  if (!cf_cuda_check (cudaStreamCreateWithFlags (&self->stream,
              cudaStreamNonBlocking), "cudaStreamCreateWithFlags", error))
    return FALSE;
  return cf_cuda_check (cudaEventCreate (&self->kernel_start),
      "cudaEventCreate", error)
      && cf_cuda_check (cudaEventCreate (&self->kernel_end), "cudaEventCreate",
      error);
}

static void
slot_clear (CfCudaSlot * self)
{
  if (self->stream)
    cudaStreamSynchronize (self->stream);
  for (int p = 0; p < CF_MAX_PLANES; p++) {
    cudaFree (self->d_in[p]);
    cudaFree (self->d_out[p]);
  }
  cudaFree (self->d_dense);
  cudaFree (self->d_scratch);
  cudaFree (self->d_tiles);
  cudaFree (self->d_region_flags);
  cudaFree (self->d_region_strips);
  cudaFree (self->d_region_barrier);
#ifdef HAVE_CUFFT
  cf_fft_free (self->fft);
#endif
  if (self->kernel_start)
    cudaEventDestroy (self->kernel_start);
  if (self->kernel_end)
    cudaEventDestroy (self->kernel_end);
  if (self->ready)
    cudaEventDestroy (self->ready);
  if (self->stream)
    cudaStreamDestroy (self->stream);
  memset (self, 0, sizeof (*self));
}

/* Grows one staging plane to `need` bytes, zeroed once when made: words
 * that several channels share (RGB10A2) are written field by field with
 * atomics, which read the word first, so it starts defined (and
 * compute-sanitizer's initcheck has nothing to report). */
static gboolean
ensure_plane (unsigned char **plane, size_t *capacity, size_t need, int p,
    cudaStream_t stream, GError ** error)
{
  if (need <= *capacity)
    return TRUE;
  cudaFree (*plane);
  *plane = NULL;
  *capacity = 0;
  if (!cf_cuda_check (fault_alloc ? cudaErrorMemoryAllocation :
          cudaMalloc ((void **) plane, need), "cudaMalloc", error)) {
    *plane = NULL;
    g_prefix_error (error, "Cannot allocate %zu bytes of GPU memory for "
        "plane %d: ", need, p);
    return FALSE;
  }
  if (!cf_cuda_check (cudaMemsetAsync (*plane, 0, need, stream),
          "cudaMemsetAsync", error))
    return FALSE;
  *capacity = need;
  return TRUE;
}

static gboolean
ensure_planes (CfCudaSlot * self, const CfLayout * layout,
    gboolean need_in, gboolean need_out, size_t pitch[CF_MAX_PLANES],
    GError ** error)
{
  for (int p = 0; p < layout->n_planes; p++) {
    size_t need;

    pitch[p] = ((size_t) layout->plane_row_bytes[p] + PITCH_ALIGN - 1) &
        ~(size_t) (PITCH_ALIGN - 1);
    need = pitch[p] * (size_t) layout->plane_height[p];
    if (need_in && !ensure_plane (&self->d_in[p], &self->in_capacity[p],
            need, p, self->stream, error))
      return FALSE;
    if (need_out && !ensure_plane (&self->d_out[p], &self->out_capacity[p],
            need, p, self->stream, error))
      return FALSE;
  }
  return TRUE;
}

/* What the kernels read from device memory (cf_spec_device_weights): the
 * dense matrix, separable taps too long for the launch parameters, or the
 * table of a nonlinear operation (none for a median). */
static gboolean
ensure_dense (CfCudaSlot * self, const CfSpec * spec, GError ** error)
{
  gsize bytes;
  const void *weights = cf_spec_device_weights (spec, &bytes);

  if (self->have_dense && self->dense_serial == spec->serial)
    return TRUE;
  if (bytes == 0 || weights == NULL)
    return TRUE;

  self->have_dense = FALSE;
  if (bytes > self->dense_capacity) {
    cudaFree (self->d_dense);
    self->d_dense = NULL;
    self->dense_capacity = 0;
    if (!cf_cuda_check (cudaMalloc ((void **) &self->d_dense, bytes),
            "cudaMalloc", error))
      return FALSE;
    self->dense_capacity = bytes;
  }
  /* Ordered on the stream before the launch that reads it. */
  if (!cf_cuda_check (cudaMemcpyAsync (self->d_dense, weights, bytes,
              cudaMemcpyHostToDevice, self->stream), "cudaMemcpyAsync", error))
    return FALSE;
  self->have_dense = TRUE;
  self->dense_serial = spec->serial;
  return TRUE;
}

/* Chooses how the spec runs on the layout's channel jobs when either has
 * changed since the last frame: FFTs where the method and the error bound
 * send it (dense specs), else the kernel the launch plan picks.  Frames
 * still in flight are unaffected: a launch copies what it reads. */
static gboolean
ensure_plan (CfBackendCuda * self, const CfSpec * spec,
    const CfLayout * layout, GError ** error)
{
  CfCudaPlan *plan = &self->plan;
  gsize bytes = sizeof (CfChannel) * layout->n_channels;
  cudaError_t err;
  char *name;

  if (self->have_plan && plan->serial == spec->serial
      && plan->n_channels == layout->n_channels
      && plan->colour == layout->colour
      && memcmp (plan->channels, layout->channels, bytes) == 0)
    return TRUE;

  self->have_plan = FALSE;
  g_clear_pointer (&plan->kernel, cf_launch_plan_free);
  plan->fft = FALSE;
  /* Pixelate needs no kernel of the plan (cf-region.cu). */
  plan->nonlin = spec->kp.operation != CF_OPERATION_CONVOLVE
      && spec->kp.operation != CF_OPERATION_PIXELATE;
  plan->colour = layout->colour;
  cf_layout_colour_groups (layout, plan->groups);
  if (spec->kp.operation == CF_OPERATION_PIXELATE) {
    cf_backend_take_plan_name (&self->parent, g_strdup_printf ("pixelate, "
            "%d-pixel blocks", spec->kp.block));
    goto planned;
  }
  if (plan->nonlin) {
    cf_backend_take_plan_name (&self->parent, g_strdup_printf ("nonlinear, "
            "%d pass%s", spec->nl.n_passes, spec->nl.n_passes == 1 ? "" :
            "es"));
    goto planned;
  }
#ifdef HAVE_CUFFT
  {
    CfFftGeometry geom;

    /* Without a loadable cuFFT every kernel takes the direct path. */
    plan->fft = cf_cuda_fft_unavailable () == NULL &&
        cf_fft_decide (self->method, spec, layout->channels,
        layout->n_channels, &geom);
    name = plan->fft ? g_strdup_printf ("FFT overlap-save, %dx%d taps in "
        "%dx%d tiles", spec->kp.kw, spec->kp.kh, geom.tiles.fft_w,
        geom.tiles.fft_h) : NULL;
  }
#else
  name = NULL;
#endif
  err = cf_launch_plan_new (layout->channels, layout->n_channels, &spec->kp,
      &spec->sep, &plan->kernel);
  /* The FFT path needs no direct kernel. */
  if (!plan->fft && !cf_cuda_check (err, "cf_launch_plan_new (choosing a "
          "kernel)", error)) {
    g_free (name);
    return FALSE;
  }
  if (name == NULL)
    name = g_strdup (cf_launch_plan_name (plan->kernel));
  cf_backend_take_plan_name (&self->parent, name);

planned:
  plan->serial = spec->serial;
  plan->n_channels = layout->n_channels;
  memcpy (plan->channels, layout->channels, bytes);
  self->have_plan = TRUE;
  return TRUE;
}

/* The filter itself, as the plan says. */
static gboolean
launch_filter (CfBackendCuda * backend, CfCudaSlot * self,
    const CfSpec * spec, const CfDeviceFrame * df, const int *dense,
    GError ** error)
{
#ifdef HAVE_CUFFT
  if (backend->plan.fft) {
    if (self->fft == NULL)
      self->fft = cf_fft_new ();
    /* Remembers the geometry cf_fft_filter runs; the same decision. */
    if (self->fft != NULL && cf_fft_wanted (self->fft, backend->method, spec,
            df))
      return cf_fft_filter (self->fft, spec, dense, df, self->stream, error);
  }
#endif
  if (backend->plan.nonlin) {
    size_t bytes = cf_nonlin_scratch_bytes (df, &spec->nl);

    if (bytes > self->scratch_capacity) {
      /* cudaFree waits for the frames that still use the old images. */
      cudaFree (self->d_scratch);
      self->d_scratch = NULL;
      self->scratch_capacity = 0;
      if (!cf_cuda_check (cudaMalloc ((void **) &self->d_scratch, bytes),
              "cudaMalloc (scratch images)", error))
        return FALSE;
      self->scratch_capacity = bytes;
    }
    return cf_cuda_check (cf_nonlin_run (df, &spec->kp, &spec->nl, dense,
            (const int (*)[3]) backend->plan.groups, self->d_scratch,
            self->stream), "cf_nonlin_run (kernel launch)", error);
  }
  if (backend->plan.kernel == NULL) {
    g_set_error (error, CF_ERROR, CF_ERROR_UNSUPPORTED,
        "No kernel takes this filter on this layout");
    return FALSE;
  }
  return cf_cuda_check (cf_launch_plan_run (backend->plan.kernel, df, dense,
          self->stream), "cf_launch_plan_run (kernel launch)", error);
}

/* Orders the slot's stream after the work queued so far on a device
 * frame's `wait_stream` (CfFrame): an event between the streams, no host
 * wait. */
static gboolean
order_after (CfCudaSlot * self, const CfFrame * frame, GError ** error)
{
  cudaStream_t other = (cudaStream_t) frame->wait_stream;

  if (!frame->on_device || other == NULL || other == self->stream)
    return TRUE;
  if (self->ready == NULL && !cf_cuda_check (cudaEventCreateWithFlags
          (&self->ready, cudaEventDisableTiming), "cudaEventCreate", error))
    return FALSE;
  return cf_cuda_check (cudaEventRecord (self->ready, other),
      "cudaEventRecord (producer stream)", error)
      && cf_cuda_check (cudaStreamWaitEvent (self->stream, self->ready, 0),
      "cudaStreamWaitEvent", error);
}

/* Orders a device output's `wait_stream` after the launch that writes it
 * (its end event), so a consumer that synchronises with the memory's own
 * stream, as GStreamer >= 1.24's CUDA elements do, sees this frame. */
static gboolean
order_consumer_after (CfCudaSlot * self, const CfFrame * out, GError ** error)
{
  cudaStream_t other = (cudaStream_t) out->wait_stream;

  if (other == NULL || other == self->stream)
    return TRUE;
  return cf_cuda_check (cudaStreamWaitEvent (other, self->kernel_end, 0),
      "cudaStreamWaitEvent (output stream)", error);
}

/* The frame's width and height: its regions', else its widest channel's
 * (the layout has no other). */
static void
frame_size (const CfLayout * layout, const CfRegions * regions, int *w,
    int *h)
{
  *w = *h = 0;
  if (regions) {
    *w = regions->frame_width;
    *h = regions->frame_height;
    return;
  }
  for (int c = 0; c < layout->n_channels; c++) {
    *w = MAX (*w, layout->channels[c].width);
    *h = MAX (*h, layout->channels[c].height);
  }
}

/* Launches the composite of `df` (whose channels are `jobs_of`'s) over
 * the copy jobs of `jobs_of` (cf_layout_copy_jobs ()): whole pixels where
 * every byte of a plane's pixel belongs to channels with the same samples,
 * so one thread moves a pixel rather than a byte of each channel.  Each
 * job's subsampling comes from the channel of the same index in
 * `frame_layout`, against the frame's size (fw x fh; 0: none). */
static gboolean
launch_composite (CfCudaSlot * self, const CfLayout * jobs_of,
    const CfLayout * frame_layout, int fw, int fh, const CfDeviceFrame * df,
    CfRegionArgs * args, GError ** error)
{
  CfDeviceFrame jobs = *df;
  int from[CF_MAX_CHANNELS];

  jobs.n_channels = cf_layout_copy_jobs (jobs_of, jobs.channels, from);
  for (int j = 0; j < jobs.n_channels; j++) {
    const CfChannel *ch = &frame_layout->channels[from[j]];

    args->sx[j] = fw > 0 ? cf_regions_subsampling (fw, ch->width) : 1;
    args->sy[j] = fh > 0 ? cf_regions_subsampling (fh, ch->height) : 1;
  }
  return cf_cuda_check (cf_launch_region_composite (&jobs, args,
          self->stream), "cf_launch_region_composite", error);
}

/* Puts the input back where the regions leave the frame unfiltered (all
 * of it for NULL regions), as cf_regions_composite () does. */
static gboolean
composite (CfCudaSlot * self, const CfLayout * layout,
    const CfRegions * regions, const CfDeviceFrame * df, GError ** error)
{
  CfRegionArgs args;

  memset (&args, 0, sizeof (args));
  args.inside = 1;
  if (regions == NULL)
    return launch_composite (self, layout, layout, 0, 0, df, &args, error);
  args.n_rects = MIN (regions->n_rects, CF_MAX_RECTS);
  args.inside = regions->mode == CF_REGION_INSIDE;
  memcpy (args.rects, regions->rects, sizeof (CfRect) * args.n_rects);
  return launch_composite (self, layout, layout, regions->frame_width,
      regions->frame_height, df, &args, error);
}

/* Pixelate: inside regions the input first, then each region's blocks
 * in list order; else the whole frame's blocks (and the input put back
 * into the regions, outside), as the CPU backends do. */
static gboolean
pixelate (CfCudaSlot * self, const CfSpec * spec, const CfLayout * layout,
    const CfRegions * regions, const CfDeviceFrame * df, GError ** error)
{
  gboolean in_regions = regions && regions->mode == CF_REGION_INSIDE;
  int n = in_regions ? regions->n_rects : 1, fw, fh;
  CfPixelateArgs args;

  frame_size (layout, regions, &fw, &fh);
  if (in_regions && !composite (self, layout, NULL, df, error))
    return FALSE;
  for (int i = 0; i < n; i++) {
    memset (&args, 0, sizeof (args));
    for (int c = 0; c < layout->n_channels; c++) {
      const CfChannel *ch = &layout->channels[c];

      args.bx[c] = cf_pixelate_block_for (spec->kp.block, fw, ch->width);
      args.by[c] = cf_pixelate_block_for (spec->kp.block, fh, ch->height);
      if (in_regions) {
        cf_rect_for_channel (&regions->rects[i], fw, fh, ch->width,
            ch->height, &args.rect[c]);
      } else {
        args.rect[c].w = ch->width;
        args.rect[c].h = ch->height;
      }
    }
    if (!cf_cuda_check (cf_launch_pixelate (df, &args, self->stream),
            "cf_launch_pixelate", error))
      return FALSE;
  }
  if (regions && !in_regions)
    return composite (self, layout, regions, df, error);
  return TRUE;
}

/* The frame's work: the filter over the whole frame, then the input put
 * back outside what the regions filter. */
static gboolean
run_frame (CfBackendCuda * backend, CfCudaSlot * self, const CfSpec * spec,
    const CfLayout * layout, const CfDeviceFrame * df, const int *dense,
    GError ** error)
{
  const CfRegions *regions = backend->parent.regions;

  if (spec->kp.operation == CF_OPERATION_PIXELATE)
    return pixelate (self, spec, layout, regions, df, error);
  if (regions && regions->mode == CF_REGION_INSIDE && regions->n_rects == 0)
    return composite (self, layout, NULL, df, error);
  if (!launch_filter (backend, self, spec, df, dense, error))
    return FALSE;
  return regions == NULL || composite (self, layout, regions, df, error);
}

/* The rows of each plane that cross PCIe for a host frame: inside regions
 * (convolutions and pixelate; any border but wrap, which reads the far
 * edge), the rows they cover
 * go down (out0 .. out1) and those plus the kernel's reach go up (in0 ..
 * in1); the host copies the other rows of the input to the output.  All
 * rows otherwise. */
typedef struct
{
  int in0[CF_MAX_PLANES], in1[CF_MAX_PLANES];
  int out0[CF_MAX_PLANES], out1[CF_MAX_PLANES];
} CfRowBands;

static void
row_bands (const CfSpec * spec, const CfLayout * layout,
    const CfRegions * regions, gboolean host_frames, CfRowBands * b)
{
  const CfKernelParams *kp = &spec->kp;
  gboolean pixelate = kp->operation == CF_OPERATION_PIXELATE;
  /* The larger reach both ways: rows a border reflects from past the
   * frame's edge lie within it too, for asymmetric kernels as well. */
  int reach = pixelate ? 0 : MAX (kp->ay, kp->kh - 1 - kp->ay);
  int up = reach, down = reach;

  for (int p = 0; p < CF_MAX_PLANES; p++) {
    b->in0[p] = b->out0[p] = 0;
    b->in1[p] = b->out1[p] = layout->plane_height[p];
  }
  /* The nonlinear programs' reach adds up over their passes: all rows. */
  if (!host_frames || regions == NULL || regions->mode != CF_REGION_INSIDE
      || regions->n_rects == 0 || kp->border == CF_BORDER_WRAP
      || !(kp->operation == CF_OPERATION_CONVOLVE || pixelate))
    return;
  for (int p = 0; p < layout->n_planes; p++) {
    b->out0[p] = layout->plane_height[p];
    b->out1[p] = 0;
  }
  for (int c = 0; c < layout->n_channels; c++) {
    const CfChannel *ch = &layout->channels[c];
    CfRect rects[CF_REGIONS_MAX];
    int n = cf_regions_for_channel (regions, ch, rects);

    for (int i = 0; i < n; i++) {
      b->out0[ch->plane] = MIN (b->out0[ch->plane], rects[i].y);
      b->out1[ch->plane] = MAX (b->out1[ch->plane], rects[i].y + rects[i].h);
    }
  }
  for (int p = 0; p < layout->n_planes; p++) {
    if (b->out1[p] <= b->out0[p])
      b->out0[p] = b->out1[p] = 0;
    b->in0[p] = MAX (0, b->out0[p] - up);
    b->in1[p] = MIN (layout->plane_height[p], b->out1[p] + down);
    if (b->out1[p] == 0)
      b->in0[p] = b->in1[p] = 0;
  }
}

/* Host rows outside the download band: the input, copied on the host. */
static void
copy_host_rows (const CfLayout * layout, const CfFrame * in,
    const CfFrame * out, int p, int y0, int y1)
{
  for (int y = y0; y < y1; y++)
    memcpy (out->data[p] + (size_t) y * out->stride[p],
        in->data[p] + (size_t) y * in->stride[p], layout->plane_row_bytes[p]);
}

/* Regions as tiles (cf-region-tiles.h): direct convolutions whose frames
 * are both in host memory or both on the device.  FFTs (whose sums depend
 * on the tiling), the nonlinear programs, pixelate and outside mode run
 * over the whole frame; cf_region_tiles_make () says when the regions
 * cover too much.  Fills the backend's tiles. */
static gboolean
plan_tiles (CfBackendCuda * backend, const CfSpec * spec,
    const CfLayout * layout, const CfFrame * in, const CfFrame * out)
{
  return in->on_device == out->on_device
      && cf_backend_plan_tiles (&backend->parent, spec, layout,
      backend->parent.regions);
}

/* The direct kernel runs (no FFT, no nonlinear program): its sums over a
 * tile are the frame's. */
static gboolean
cf_backend_cuda_tiles_exact (CfBackend * backend, const CfSpec * spec,
    const CfLayout * layout)
{
  CfBackendCuda *self = (CfBackendCuda *) backend;
  CfCudaCurrent previous;
  gboolean ok;

  if (!enter_device (self, &previous, NULL))
    return FALSE;
  ok = ensure_plan (self, spec, layout, NULL) && !self->plan.fft
      && !self->plan.nonlin && self->plan.kernel != NULL;
  leave_device (self, &previous);
  return ok;
}

/* The direct kernel for a tile's channels, planned once per shape. */
static gboolean
tile_kernel (CfBackendCuda * backend, const CfSpec * spec,
    const CfLayout * tl, CfLaunchPlan ** kernel, GError ** error)
{
  gsize bytes = sizeof (CfChannel) * tl->n_channels;
  CfTilePlan *tp;

  for (int i = 0; i < TILE_PLANS; i++) {
    tp = &backend->tile_plans[i];
    if (tp->kernel != NULL && tp->serial == spec->serial
        && tp->n_channels == tl->n_channels
        && memcmp (tp->channels, tl->channels, bytes) == 0) {
      *kernel = tp->kernel;
      return TRUE;
    }
  }
  /* A launch copies what it reads: frames in flight keep theirs. */
  tp = &backend->tile_plans[backend->next_tile_plan++ % TILE_PLANS];
  g_clear_pointer (&tp->kernel, cf_launch_plan_free);
  if (!cf_cuda_check (cf_launch_plan_new (tl->channels, tl->n_channels,
              &spec->kp, &spec->sep, &tp->kernel),
          "cf_launch_plan_new (a region's tile)", error)) {
    tp->kernel = NULL;
    return FALSE;
  }
  tp->serial = spec->serial;
  tp->n_channels = tl->n_channels;
  memcpy (tp->channels, tl->channels, bytes);
  *kernel = tp->kernel;
  return TRUE;
}

/* Tile `t`'s planes in the slot's tile memory from byte `at`; returns the
 * byte after them. */
static size_t
tile_planes (const CfRegionTile * t, unsigned char *base, size_t at,
    unsigned char *data[CF_MAX_PLANES], long long stride[CF_MAX_PLANES])
{
  for (int p = 0; p < t->layout.n_planes; p++) {
    size_t pitch = ((size_t) t->layout.plane_row_bytes[p] + PITCH_ALIGN - 1)
        & ~(size_t) (PITCH_ALIGN - 1);

    data[p] = base ? base + at : NULL;
    stride[p] = (long long) pitch;
    at += pitch * (size_t) t->layout.plane_height[p];
  }
  return at;
}

/* A frame's device planes offset to tile `t`. */
static void
offset_planes (const CfRegionTile * t, unsigned char *const data[],
    const long long stride[], unsigned char *out[CF_MAX_PLANES])
{
  for (int p = 0; p < t->layout.n_planes; p++)
    out[p] = data[p] ? data[p] + (long long) t->plane_y[p] * stride[p] +
        t->plane_x[p] : NULL;
}

/* The bytes (whole pixels) and rows of plane p that tile t's region
 * covers, in the tile; FALSE: none. */
static gboolean
region_span (const CfRegionTile * t, int p, int *x0, int *x1, int *y0,
    int *y1)
{
  *x0 = *y0 = G_MAXINT;
  *x1 = *y1 = 0;
  for (int c = 0; c < t->layout.n_channels; c++) {
    const CfChannel *ch = &t->layout.channels[c];
    const CfRect *r = &t->inner_ch[c];

    if (ch->plane != p || r->w <= 0 || r->h <= 0)
      continue;
    *x0 = MIN (*x0, r->x * ch->pixel_stride);
    *x1 = MAX (*x1, (r->x + r->w) * ch->pixel_stride);
    *y0 = MIN (*y0, r->y);
    *y1 = MAX (*y1, r->y + r->h);
  }
  *x1 = MIN (*x1, t->layout.plane_row_bytes[p]);
  return *x1 > *x0 && *y1 > *y0;
}

/* The rows of plane p the tiles span (inner: their regions'); empty
 * (y0 == y1) when none. */
static void
tile_band (const CfRegionTiles * tiles, int p, gboolean inner, int *y0,
    int *y1)
{
  *y0 = G_MAXINT;
  *y1 = 0;
  for (int i = 0; i < tiles->n; i++) {
    const CfRegionTile *t = &tiles->tiles[i];
    int x0, x1, r0, r1;

    if (p >= t->layout.n_planes)
      continue;
    if (inner) {
      if (!region_span (t, p, &x0, &x1, &r0, &r1))
        continue;
    } else {
      r0 = 0;
      r1 = t->layout.plane_height[p];
    }
    *y0 = MIN (*y0, t->plane_y[p] + r0);
    *y1 = MAX (*y1, t->plane_y[p] + r1);
  }
  if (*y1 <= *y0)
    *y0 = *y1 = 0;
}

/* One frame as tiles.  The input's tiles (host frames: uploaded, each
 * with the kernel's reach, into the staging input) are all filtered into
 * the slot's tile memory first; then each tile's region is written into
 * the output (host frames: into the staging input, whose rows around it
 * are the input's, and downloaded from there); then the input around the
 * regions, unless the output is the input.  In place nothing else of the
 * frame is read, written or copied; a separate host output takes the
 * band of rows the regions span from the GPU (as row_bands () does) and
 * the other rows from the host. */
static gboolean
queue_tiles (CfBackendCuda * backend, CfCudaSlot * self, const CfSpec * spec,
    const CfLayout * layout, const CfFrame * in, const CfFrame * out,
    const int *dense, GError ** error)
{
  const CfRegionTiles *tiles = backend->parent.tiles;
  const CfRegions *regions = backend->parent.regions;
  gboolean host = !in->on_device;
  gboolean same = memcmp (in->data, out->data, sizeof (in->data)) == 0;
  size_t pitch[CF_MAX_PLANES] = { 0 }, off[CF_REGIONS_MAX], total = 0;
  unsigned char *src[CF_MAX_PLANES] = { NULL }, *dst[CF_MAX_PLANES] = {
  NULL};
  long long src_stride[CF_MAX_PLANES] = { 0 }, dst_stride[CF_MAX_PLANES] = {
  0};
  int fw = regions->frame_width, fh = regions->frame_height;

  for (int i = 0; i < tiles->n; i++) {
    unsigned char *d[CF_MAX_PLANES];
    long long st[CF_MAX_PLANES];

    off[i] = total;
    total = tile_planes (&tiles->tiles[i], NULL, total, d, st);
  }
  if (!ensure_plane (&self->d_tiles, &self->tiles_capacity, MAX (total, 1),
          0, self->stream, error)
      || !ensure_planes (self, layout, host, FALSE, pitch, error))
    return FALSE;
  for (int p = 0; p < layout->n_planes; p++) {
    src[p] = host ? self->d_in[p] : in->data[p];
    src_stride[p] = host ? (long long) pitch[p] : in->stride[p];
    /* Host frames: the regions go into the staging input itself. */
    dst[p] = host ? self->d_in[p] : out->data[p];
    dst_stride[p] = host ? (long long) pitch[p] : out->stride[p];
  }

  /* Host frames: each tile's rows of the input, reach included; into a
   * separate output, whole rows of the band the tiles span. */
  for (int p = 0; host && !same && p < layout->n_planes; p++) {
    int y0, y1, rows;

    tile_band (tiles, p, FALSE, &y0, &y1);
    rows = y1 - y0;
    if (rows > 0 && layout->plane_row_bytes[p] > 0
        && !cf_cuda_check (cudaMemcpy2DAsync (self->d_in[p] + (size_t) y0 *
                pitch[p], pitch[p], in->data[p] + (size_t) y0 *
                in->stride[p], in->stride[p], layout->plane_row_bytes[p],
                rows, cudaMemcpyHostToDevice, self->stream),
            "cudaMemcpy2DAsync (the regions' rows up)", error))
      return FALSE;
  }
  for (int i = 0; host && same && i < tiles->n; i++) {
    const CfRegionTile *t = &tiles->tiles[i];

    for (int p = 0; p < t->layout.n_planes; p++) {
      size_t w = t->layout.plane_row_bytes[p];
      int rows = t->layout.plane_height[p];

      if (w == 0 || rows <= 0)
        continue;
      if (!cf_cuda_check (cudaMemcpy2DAsync (self->d_in[p] + (size_t)
                  t->plane_y[p] * pitch[p] + t->plane_x[p], pitch[p],
                  in->data[p] + (size_t) t->plane_y[p] * in->stride[p] +
                  t->plane_x[p], in->stride[p], w, rows,
                  cudaMemcpyHostToDevice, self->stream),
              "cudaMemcpy2DAsync (a region's upload)", error))
        return FALSE;
    }
  }

  cudaEventRecord (self->kernel_start, self->stream);
  for (int i = 0; i < tiles->n; i++) {
    const CfRegionTile *t = &tiles->tiles[i];
    CfLaunchPlan *kernel;
    CfDeviceFrame df;

    if (!tile_kernel (backend, spec, &t->layout, &kernel, error))
      return FALSE;
    memset (&df, 0, sizeof (df));
    offset_planes (t, src, src_stride, (unsigned char **) df.src);
    memcpy (df.src_stride, src_stride, sizeof (src_stride));
    tile_planes (t, self->d_tiles, off[i], df.dst, df.dst_stride);
    df.n_channels = t->layout.n_channels;
    memcpy (df.channels, t->layout.channels,
        sizeof (CfChannel) * t->layout.n_channels);
    if (!cf_cuda_check (cf_launch_plan_run (kernel, &df, dense,
                self->stream), "cf_launch_plan_run (a region's tile)", error))
      return FALSE;
  }
  for (int i = 0; i < tiles->n; i++) {
    const CfRegionTile *t = &tiles->tiles[i];
    CfRegionArgs args;
    CfDeviceFrame df;

    memset (&df, 0, sizeof (df));
    tile_planes (t, self->d_tiles, off[i], (unsigned char **) df.src,
        df.src_stride);
    offset_planes (t, dst, dst_stride, df.dst);
    memcpy (df.dst_stride, dst_stride, sizeof (dst_stride));
    df.n_channels = t->layout.n_channels;
    memcpy (df.channels, t->layout.channels,
        sizeof (CfChannel) * t->layout.n_channels);
    /* The region in the tile's pixels: the tile starts on every
     * channel's sample grid, so each channel's samples are the frame's
     * rounded the same way. */
    memset (&args, 0, sizeof (args));
    args.n_rects = 1;
    args.inside = 0;
    args.rects[0].x = t->inner.x - t->outer.x;
    args.rects[0].y = t->inner.y - t->outer.y;
    args.rects[0].w = t->inner.w;
    args.rects[0].h = t->inner.h;
    if (!launch_composite (self, &t->layout, layout, fw, fh, &df, &args,
            error))
      return FALSE;
  }
  if (!host && !same) {
    CfDeviceFrame df;

    memset (&df, 0, sizeof (df));
    for (int p = 0; p < layout->n_planes; p++) {
      df.src[p] = in->data[p];
      df.src_stride[p] = in->stride[p];
      df.dst[p] = out->data[p];
      df.dst_stride[p] = out->stride[p];
    }
    df.n_channels = layout->n_channels;
    memcpy (df.channels, layout->channels,
        sizeof (CfChannel) * layout->n_channels);
    if (!composite (self, layout, regions, &df, error))
      return FALSE;
  }
  cudaEventRecord (self->kernel_end, self->stream);
  if (!host)
    return order_consumer_after (self, out, error);

  /* A separate output: the band's rows come down whole, the host copies
   * the others from the input while the GPU works. */
  for (int p = 0; !same && p < layout->n_planes; p++) {
    int y0, y1, rows;

    tile_band (tiles, p, TRUE, &y0, &y1);
    rows = y1 - y0;
    if (rows > 0 && layout->plane_row_bytes[p] > 0
        && !cf_cuda_check (cudaMemcpy2DAsync (out->data[p] + (size_t) y0 *
                out->stride[p], out->stride[p], self->d_in[p] + (size_t) y0
                * pitch[p], pitch[p], layout->plane_row_bytes[p], rows,
                cudaMemcpyDeviceToHost, self->stream),
            "cudaMemcpy2DAsync (the regions' rows down)", error))
      return FALSE;
    copy_host_rows (layout, in, out, p, 0, MAX (y0, 0));
    copy_host_rows (layout, in, out, p, MAX (y1, 0),
        layout->plane_height[p]);
  }
  /* In place: each region's pixels come down over the input. */
  for (int i = 0; same && i < tiles->n; i++) {
    const CfRegionTile *t = &tiles->tiles[i];

    for (int p = 0; p < t->layout.n_planes; p++) {
      int x0, x1, y0, y1;
      size_t at_dev, at_host;

      if (!region_span (t, p, &x0, &x1, &y0, &y1))
        continue;
      at_dev = (size_t) (t->plane_y[p] + y0) * pitch[p] + t->plane_x[p] + x0;
      at_host = (size_t) (t->plane_y[p] + y0) * out->stride[p] +
          t->plane_x[p] + x0;
      if (!cf_cuda_check (cudaMemcpy2DAsync (out->data[p] + at_host,
                  out->stride[p], self->d_in[p] + at_dev, pitch[p], x1 - x0,
                  y1 - y0, cudaMemcpyDeviceToHost, self->stream),
              "cudaMemcpy2DAsync (a region's download)", error))
        return FALSE;
    }
  }
  return TRUE;
}

/* Regions from which the strip kernel's one launch beats the tiles'
 * launches (two a region), where the fast kernels cannot take them.
 * Measured on an H200, 4K RGBA, Gaussian sigma 2, GPU time in place: one
 * 640x648 region 35.9 us in one launch, 17.2 us as a tile; eight 160x160
 * regions 23.7 us in one launch, 72.1 us as tiles (bench/README.md). */
#define INPLACE_MIN_REGIONS 3

/* The rectangles of every channel a launch filters: chan[i] and rects[i];
 * FALSE where there are more than CF_INPLACE_MAX_ENTRIES. */
static gboolean
inplace_rects (const CfLayout * layout, const CfRegions * regions,
    int chan[CF_INPLACE_MAX_ENTRIES], CfRect rects[CF_INPLACE_MAX_ENTRIES],
    int *n)
{
  *n = 0;
  for (int c = 0; c < layout->n_channels; c++) {
    CfRect r[CF_REGIONS_MAX];
    int m;

    if (layout->channels[c].mode == CF_CHANNEL_COPY)
      continue;
    m = cf_regions_for_channel (regions, &layout->channels[c], r);
    if (*n + m > CF_INPLACE_MAX_ENTRIES)
      return FALSE;
    for (int i = 0; i < m; i++) {
      chan[*n] = c;
      rects[(*n)++] = r[i];
    }
  }
  return TRUE;
}

/* The regions on the plan's fast kernel, every block's reads before any
 * write (cf_launch_plan_run_inplace); *ran FALSE where it cannot. */
static gboolean
queue_fast_inplace (CfBackendCuda * backend, CfCudaSlot * self,
    const CfDeviceFrame * df, const int *chan, const CfRect * rects, int n,
    gboolean * ran, GError ** error)
{
  size_t made = self->region_barrier_capacity;
  cudaError_t err;

  *ran = FALSE;
  if (backend->plan.kernel == NULL)
    return TRUE;
  if (!ensure_plane (&self->d_region_barrier,
          &self->region_barrier_capacity, 64, 0, self->stream, error))
    return FALSE;
  /* Zeroed memory has counted no block. */
  if (self->region_barrier_capacity != made)
    self->region_arrivals = 0;
  cudaEventRecord (self->kernel_start, self->stream);
  err = cf_launch_plan_run_inplace (backend->plan.kernel, df, chan, rects, n,
      (unsigned *) self->d_region_barrier, &self->region_arrivals,
      self->stream);
  if (err == cudaErrorNotSupported)
    return TRUE;
  if (!cf_cuda_check (err, "cf_launch_plan_run_inplace", error))
    return FALSE;
  cudaEventRecord (self->kernel_end, self->stream);
  *ran = TRUE;
  return TRUE;
}

/* The regions on the strip kernel (cf-region-inplace.h); *ran FALSE where
 * it cannot. */
static gboolean
queue_strip_inplace (CfCudaSlot * self, int optin, const CfSpec * spec,
    const CfLayout * layout, const CfDeviceFrame * df, const int *chan,
    const CfRect * rects, int n, const int *dense, gboolean * ran,
    GError ** error)
{
  CfInplacePlan plan;
  size_t made;
  cudaError_t err;

  *ran = FALSE;
  err = cf_region_inplace_plan (&plan, layout->channels, layout->n_channels,
      &spec->kp, chan, rects, n, optin);
  if (err == cudaErrorNotSupported)
    return TRUE;
  made = self->region_flags_capacity;
  if (!cf_cuda_check (err, "cf_region_inplace_plan", error)
      || !ensure_plane (&self->d_region_flags, &self->region_flags_capacity,
          MAX (plan.flag_bytes, 64), 0, self->stream, error)
      || !ensure_plane (&self->d_region_strips,
          &self->region_strips_capacity, MAX (plan.strip_bytes, 64), 0,
          self->stream, error))
    return FALSE;
  /* Zeroed memory has seen no launch; so does a wrapped count. */
  if (self->region_flags_capacity != made)
    self->region_epoch = 0;
  if (self->region_epoch == G_MAXUINT) {
    if (!cf_cuda_check (cudaMemsetAsync (self->d_region_flags, 0,
                self->region_flags_capacity, self->stream), "cudaMemsetAsync",
            error))
      return FALSE;
    self->region_epoch = 0;
  }
  cudaEventRecord (self->kernel_start, self->stream);
  if (!cf_cuda_check (cf_region_inplace_run (&plan, df, &spec->kp,
              &spec->sep, dense, (unsigned *) self->d_region_flags,
              (unsigned short *) self->d_region_strips,
              self->region_epoch + 1, self->stream),
          "cf_region_inplace_run", error))
    return FALSE;
  self->region_epoch++;
  cudaEventRecord (self->kernel_end, self->stream);
  *ran = TRUE;
  return TRUE;
}

/* Device frames filtered in place: the regions in one launch, on the fast
 * kernels where they take them, else on the strip kernel where there are
 * enough regions (*ran TRUE); else *ran FALSE and nothing is queued. */
static gboolean
queue_region_inplace (CfBackendCuda * backend, CfCudaSlot * self,
    const CfSpec * spec, const CfLayout * layout, const CfRegions * regions,
    const CfFrame * in, const CfFrame * out, const int *dense,
    gboolean * ran, GError ** error)
{
  int chan[CF_INPLACE_MAX_ENTRIES], n;
  CfRect rects[CF_INPLACE_MAX_ENTRIES];
  CfDeviceFrame df;

  *ran = FALSE;
  if (!in->on_device || memcmp (in->data, out->data, sizeof (in->data)) != 0
      || !inplace_rects (layout, regions, chan, rects, &n))
    return TRUE;

  memset (&df, 0, sizeof (df));
  for (int p = 0; p < layout->n_planes; p++) {
    df.src[p] = df.dst[p] = in->data[p];
    df.src_stride[p] = df.dst_stride[p] = in->stride[p];
  }
  df.n_channels = layout->n_channels;
  memcpy (df.channels, layout->channels,
      sizeof (CfChannel) * layout->n_channels);
  if (!queue_fast_inplace (backend, self, &df, chan, rects, n, ran, error))
    return FALSE;
  if (!*ran && regions->n_rects >= INPLACE_MIN_REGIONS
      && !queue_strip_inplace (self, backend->optin, spec, layout, &df, chan,
          rects, n, dense, ran, error))
    return FALSE;
  return !*ran || order_consumer_after (self, out, error);
}

/* Queues upload, filter and download of one frame on the slot's stream;
 * nothing waits here.  Device frames skip their copy: the kernel reads the
 * caller's input planes and writes its output planes directly. */
static gboolean
queue_frame (CfBackendCuda * backend, CfCudaSlot * self, const CfSpec * spec,
    const CfLayout * layout, const CfFrame * in, const CfFrame * out,
    GError ** error)
{
  size_t pitch[CF_MAX_PLANES] = { 0 };
  CfDeviceFrame df;
  const int *dense = NULL;
  CfRowBands bands;

  if (!ensure_plan (backend, spec, layout, error) || !ensure_slot (self,
          error) || !ensure_planes (self, layout, !in->on_device,
          !out->on_device, pitch, error) || !order_after (self, in, error)
      || !order_after (self, out, error))
    return FALSE;
  if (cf_weights_on_device (&spec->kp)) {
    if (!ensure_dense (self, spec, error))
      return FALSE;
    dense = self->d_dense;
  }

  if (plan_tiles (backend, spec, layout, in, out)) {
    gboolean ran;

    if (!queue_region_inplace (backend, self, spec, layout,
            backend->parent.regions, in, out, dense, &ran, error))
      return FALSE;
    return ran || queue_tiles (backend, self, spec, layout, in, out, dense,
        error);
  }
  if (memcmp (in->data, out->data, sizeof (in->data)) == 0) {
    g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM, "The output is "
        "the input, but these regions are not filtered in place "
        "(cf_backend_regions_in_place () is FALSE): give a separate output");
    return FALSE;
  }
  row_bands (spec, layout, backend->parent.regions, !in->on_device
      && !out->on_device, &bands);
  memset (&df, 0, sizeof (df));
  for (int p = 0; p < layout->n_planes; p++) {
    if (layout->plane_row_bytes[p] <= 0 || layout->plane_height[p] <= 0)
      continue;
    if (in->on_device) {
      df.src[p] = in->data[p];
      df.src_stride[p] = in->stride[p];
    } else {
      int y0 = bands.in0[p], rows = bands.in1[p] - bands.in0[p];

      if (rows > 0 && !cf_cuda_check (cudaMemcpy2DAsync (self->d_in[p] +
                  (size_t) y0 * pitch[p], pitch[p], in->data[p] +
                  (size_t) y0 * in->stride[p], in->stride[p],
                  layout->plane_row_bytes[p], rows, cudaMemcpyHostToDevice,
                  self->stream), "cudaMemcpy2DAsync (upload)", error))
        return FALSE;
      df.src[p] = self->d_in[p];
      df.src_stride[p] = (long long) pitch[p];
    }
    if (out->on_device) {
      df.dst[p] = out->data[p];
      df.dst_stride[p] = out->stride[p];
    } else {
      df.dst[p] = self->d_out[p];
      df.dst_stride[p] = (long long) pitch[p];
    }
  }
  df.n_channels = layout->n_channels;
  memcpy (df.channels, layout->channels,
      sizeof (CfChannel) * layout->n_channels);

  cudaEventRecord (self->kernel_start, self->stream);
  if (!run_frame (backend, self, spec, layout, &df, dense, error))
    return FALSE;
  cudaEventRecord (self->kernel_end, self->stream);

  if (out->on_device)
    return order_consumer_after (self, out, error);
  for (int p = 0; p < layout->n_planes; p++) {
    int y0 = bands.out0[p], rows = bands.out1[p] - bands.out0[p];

    if (layout->plane_row_bytes[p] <= 0 || layout->plane_height[p] <= 0)
      continue;
    if (rows > 0 && !cf_cuda_check (cudaMemcpy2DAsync (out->data[p] +
                (size_t) y0 * out->stride[p], out->stride[p],
                self->d_out[p] + (size_t) y0 * pitch[p], pitch[p],
                layout->plane_row_bytes[p], rows, cudaMemcpyDeviceToHost,
                self->stream), "cudaMemcpy2DAsync (download)", error))
      return FALSE;
    /* Rows no region reaches go from input to output on the host, while
     * the GPU works. */
    copy_host_rows (layout, in, out, p, 0, bands.out0[p]);
    copy_host_rows (layout, in, out, p, bands.out1[p],
        layout->plane_height[p]);
  }
  return TRUE;
}

/* Waits for the slot's frame; records the launch's GPU time. */
static gboolean
finish_frame (CfBackendCuda * backend, CfCudaSlot * self, GError ** error)
{
  float ms = 0.0f;

  if (!cf_cuda_check (cudaStreamSynchronize (self->stream),
          "cudaStreamSynchronize", error))
    return FALSE;
  if (cudaEventElapsedTime (&ms, self->kernel_start, self->kernel_end) ==
      cudaSuccess)
    backend->parent.stats.last_kernel_us = ms * 1000.0;
  return TRUE;
}

/* On failure, lets queued copies finish with the caller's buffers before
 * returning, and clears a non-sticky error so the next frame can try. */
static void
recover (CfCudaSlot * slot)
{
  if (slot->stream)
    cudaStreamSynchronize (slot->stream);
  cudaGetLastError ();
}

static gboolean
cf_backend_cuda_submit (CfBackend * backend, guint slot, const CfSpec * spec,
    const CfLayout * layout, const CfFrame * in, const CfFrame * out,
    GError ** error)
{
  CfBackendCuda *self = (CfBackendCuda *) backend;
  CfCudaSlot *s = &self->slots[slot];
  gboolean ok;
  CfCudaCurrent previous;

  if (!enter_device (self, &previous, error))
    return FALSE;
  ok = queue_frame (self, s, spec, layout, in, out, error);
  if (!ok)
    recover (s);
  leave_device (self, &previous);
  return ok;
}

static gboolean
cf_backend_cuda_wait (CfBackend * backend, guint slot, GError ** error)
{
  CfBackendCuda *self = (CfBackendCuda *) backend;
  CfCudaSlot *s = &self->slots[slot];
  gboolean ok;
  CfCudaCurrent previous;

  if (!enter_device (self, &previous, error)) {
    recover (s);
    return FALSE;
  }
  ok = finish_frame (self, s, error);
  if (!ok)
    recover (s);
  leave_device (self, &previous);
  return ok;
}

static gboolean
cf_backend_cuda_process (CfBackend * backend, const CfSpec * spec,
    const CfLayout * layout, const CfFrame * in, const CfFrame * out,
    GError ** error)
{
  CfBackendCuda *self = (CfBackendCuda *) backend;
  CfCudaSlot *slot = &self->slots[SYNC_SLOT];
  gboolean ok;
  CfCudaCurrent previous;

  if (!enter_device (self, &previous, error))
    return FALSE;
  ok = queue_frame (self, slot, spec, layout, in, out, error)
      && finish_frame (self, slot, error);
  if (!ok)
    recover (slot);
  leave_device (self, &previous);
  return ok;
}

static void
cf_backend_cuda_free (CfBackend * backend)
{
  CfBackendCuda *self = (CfBackendCuda *) backend;
  CfCudaCurrent previous;
  gboolean entered = enter_device (self, &previous, NULL);

  for (int i = 0; i <= MAX_SLOTS; i++)
    slot_clear (&self->slots[i]);
  cf_launch_plan_free (self->plan.kernel);
  for (int i = 0; i < TILE_PLANS; i++)
    cf_launch_plan_free (self->tile_plans[i].kernel);
  if (entered)
    leave_device (self, &previous);
  /* cf_backend_free () owns the description. */
  g_free (self);
}

static const CfBackendClass cf_backend_cuda_class = {
  .handles_regions = TRUE,
  .tiles_exact = cf_backend_cuda_tiles_exact,
  .process = cf_backend_cuda_process,
  .free = cf_backend_cuda_free,
  .submit = cf_backend_cuda_submit,
  .wait = cf_backend_cuda_wait,
};

CfBackend *
cf_backend_cuda_new (int device_id, GError ** error)
{
  CfBackendCuda *self;
  struct cudaDeviceProp prop;
  char *why = NULL;
  int n;
  CfCudaCurrent previous;

  n = cf_cuda_device_count (&why);
  if (n == 0) {
    g_set_error (error, CF_ERROR, CF_ERROR_NO_DEVICE,
        "No usable CUDA device: %s", why);
    g_free (why);
    return NULL;
  }
  if (device_id < 0
      && !cf_cuda_check (cudaGetDevice (&device_id), "cudaGetDevice", error)) {
    g_prefix_error (error, "Cannot use CUDA: ");
    return NULL;
  }
  if (device_id >= n) {
    char *list = describe_devices (n);
    g_set_error (error, CF_ERROR, CF_ERROR_NO_DEVICE,
        "CUDA device %d requested, but only %d device%s %s present: %s",
        device_id, n, n == 1 ? "" : "s", n == 1 ? "is" : "are", list);
    g_free (list);
    return NULL;
  }

  fault_alloc = g_strcmp0 (g_getenv ("CUDAFILTER_FAULT"), "alloc") == 0;
  self = g_new0 (CfBackendCuda, 1);
  self->method = read_method ();
  self->parent.klass = &cf_backend_cuda_class;
  self->parent.kind = CF_BACKEND_CUDA;
  self->device = device_id;
  self->parent.device = device_id;

  /* Switches only when another device is current: cudaSetDevice would
   * replace a context the caller pushed with the primary one. */
  if (!enter_device (self, &previous, error))
    goto failed;
  if (!cf_cuda_check (cudaGetDeviceProperties (&prop, device_id),
          "cudaGetDeviceProperties", error) ||
      !ensure_slot (&self->slots[SYNC_SLOT], error)) {
    leave_device (self, &previous);
    goto failed;
  }
  leave_device (self, &previous);
  self->optin = (int) prop.sharedMemPerBlockOptin;

  self->parent.description = g_strdup_printf ("cuda:%d (%s)", device_id,
      prop.name);
  return &self->parent;

failed:
  g_prefix_error (error, "Cannot use CUDA device %d: ", device_id);
  /* The stream may not exist; free copes with a partial backend. */
  cf_backend_cuda_free (&self->parent);
  return NULL;
}
