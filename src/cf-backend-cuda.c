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
#include "cf-launch.h"
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
  guint64 serial;
  int n_channels;
  CfChannel channels[CF_MAX_CHANNELS];
} CfCudaPlan;

typedef struct
{
  CfBackend parent;
  int device;
  CfCudaSlot slots[MAX_SLOTS + 1];
  CfCudaPlan plan;
  gboolean have_plan;
  CfConvMethod method;          /* CUDAFILTER_CONVOLUTION */
} CfBackendCuda;

/* 256 bytes keeps every row start aligned for the copy engines. */
#define PITCH_ALIGN 256

/* Test hook: CUDAFILTER_FAULT=alloc, read when a backend is created, makes
 * every frame's device allocation fail as if the GPU were out of memory. */
static gboolean fault_alloc;

/* Makes the backend's device current for this thread; returns the previous
 * one so the caller's CUDA state is left as it was. */
static gboolean
enter_device (const CfBackendCuda * self, int *previous, GError ** error)
{
  if (!cf_cuda_check (cudaGetDevice (previous), "cudaGetDevice", error))
    return FALSE;
  if (*previous == self->device)
    return TRUE;
  return cf_cuda_check (cudaSetDevice (self->device), "cudaSetDevice", error);
}

static void
leave_device (const CfBackendCuda * self, int previous)
{
  if (previous != self->device)
    cudaSetDevice (previous);
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

static gboolean
ensure_dense (CfCudaSlot * self, const CfSpec * spec, GError ** error)
{
  size_t bytes = (size_t) spec->kp.kw * spec->kp.kh * sizeof (int);

  if (self->have_dense && self->dense_serial == spec->serial)
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
  if (!cf_cuda_check (cudaMemcpyAsync (self->d_dense, spec->dense, bytes,
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
      && memcmp (plan->channels, layout->channels, bytes) == 0)
    return TRUE;

  self->have_plan = FALSE;
  g_clear_pointer (&plan->kernel, cf_launch_plan_free);
  plan->fft = FALSE;
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

  if (!ensure_plan (backend, spec, layout, error) || !ensure_slot (self,
          error) || !ensure_planes (self, layout, !in->on_device,
          !out->on_device, pitch, error) || !order_after (self, in, error)
      || !order_after (self, out, error))
    return FALSE;
  if (!spec->kp.separable) {
    if (!ensure_dense (self, spec, error))
      return FALSE;
    dense = self->d_dense;
  }

  memset (&df, 0, sizeof (df));
  for (int p = 0; p < layout->n_planes; p++) {
    if (layout->plane_row_bytes[p] <= 0 || layout->plane_height[p] <= 0)
      continue;
    if (in->on_device) {
      df.src[p] = in->data[p];
      df.src_stride[p] = in->stride[p];
    } else {
      if (!cf_cuda_check (cudaMemcpy2DAsync (self->d_in[p], pitch[p],
                  in->data[p], in->stride[p], layout->plane_row_bytes[p],
                  layout->plane_height[p], cudaMemcpyHostToDevice,
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
  if (!launch_filter (backend, self, spec, &df, dense, error))
    return FALSE;
  cudaEventRecord (self->kernel_end, self->stream);

  if (out->on_device)
    return order_consumer_after (self, out, error);
  for (int p = 0; p < layout->n_planes; p++) {
    if (layout->plane_row_bytes[p] <= 0 || layout->plane_height[p] <= 0)
      continue;
    if (!cf_cuda_check (cudaMemcpy2DAsync (out->data[p], out->stride[p],
                self->d_out[p], pitch[p], layout->plane_row_bytes[p],
                layout->plane_height[p], cudaMemcpyDeviceToHost,
                self->stream), "cudaMemcpy2DAsync (download)", error))
      return FALSE;
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
  int previous;

  if (!enter_device (self, &previous, error))
    return FALSE;
  ok = queue_frame (self, s, spec, layout, in, out, error);
  if (!ok)
    recover (s);
  leave_device (self, previous);
  return ok;
}

static gboolean
cf_backend_cuda_wait (CfBackend * backend, guint slot, GError ** error)
{
  CfBackendCuda *self = (CfBackendCuda *) backend;
  CfCudaSlot *s = &self->slots[slot];
  gboolean ok;
  int previous;

  if (!enter_device (self, &previous, error)) {
    recover (s);
    return FALSE;
  }
  ok = finish_frame (self, s, error);
  if (!ok)
    recover (s);
  leave_device (self, previous);
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
  int previous;

  if (!enter_device (self, &previous, error))
    return FALSE;
  ok = queue_frame (self, slot, spec, layout, in, out, error)
      && finish_frame (self, slot, error);
  if (!ok)
    recover (slot);
  leave_device (self, previous);
  return ok;
}

static void
cf_backend_cuda_free (CfBackend * backend)
{
  CfBackendCuda *self = (CfBackendCuda *) backend;
  int previous = -1;
  gboolean entered = enter_device (self, &previous, NULL);

  for (int i = 0; i <= MAX_SLOTS; i++)
    slot_clear (&self->slots[i]);
  cf_launch_plan_free (self->plan.kernel);
  if (entered)
    leave_device (self, previous);
  /* cf_backend_free () owns the description. */
  g_free (self);
}

static const CfBackendClass cf_backend_cuda_class = {
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
  int n, previous;

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

  /* Switches only when another device is current: cudaSetDevice would
   * replace a context the caller pushed with the primary one. */
  if (!enter_device (self, &previous, error))
    goto failed;
  if (!cf_cuda_check (cudaGetDeviceProperties (&prop, device_id),
          "cudaGetDeviceProperties", error) ||
      !ensure_slot (&self->slots[SYNC_SLOT], error)) {
    leave_device (self, previous);
    goto failed;
  }
  leave_device (self, previous);

  self->parent.description = g_strdup_printf ("cuda:%d (%s)", device_id,
      prop.name);
  return &self->parent;

failed:
  g_prefix_error (error, "Cannot use CUDA device %d: ", device_id);
  /* The stream may not exist; free copes with a partial backend. */
  cf_backend_cuda_free (&self->parent);
  return NULL;
}
