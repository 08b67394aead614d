/* cudafilter engine: the CUDA backend.  It owns one non-blocking stream and
 * device buffers for the planes of a frame (grown when a layout needs more,
 * never reallocated per frame otherwise), uploads each plane, runs the one
 * filter launch and downloads the result, synchronising once per frame. */
#include "config.h"

#include <string.h>
#include <cuda_runtime_api.h>

#include "cf-backend-private.h"
#include "cf-launch.h"

typedef struct
{
  CfBackend parent;
  int device;
  cudaStream_t stream;

  /* Device planes; a plane's pitch is its row bytes rounded up to PITCH_ALIGN
   * and may change per frame, as long as the capacity suffices. */
  unsigned char *d_in[CF_MAX_PLANES];
  unsigned char *d_out[CF_MAX_PLANES];
  size_t capacity[CF_MAX_PLANES];

  /* Dense weights of the last spec seen, cached on its serial. */
  int *d_dense;
  size_t dense_capacity;
  gboolean have_dense;
  guint64 dense_serial;
} CfBackendCuda;

/* 256 bytes keeps every row start aligned for the copy engines. */
#define PITCH_ALIGN 256

static gboolean
check (cudaError_t err, const char *call, GError ** error)
{
  if (err == cudaSuccess)
    return TRUE;
  g_set_error (error, CF_ERROR, CF_ERROR_DEVICE, "CUDA call %s failed: %s (%s)",
      call, cudaGetErrorString (err), cudaGetErrorName (err));
  return FALSE;
}

/* Makes the backend's device current for this thread; returns the previous
 * one so the caller's CUDA state is left as it was. */
static gboolean
enter_device (const CfBackendCuda * self, int *previous, GError ** error)
{
  if (!check (cudaGetDevice (previous), "cudaGetDevice", error))
    return FALSE;
  if (*previous == self->device)
    return TRUE;
  return check (cudaSetDevice (self->device), "cudaSetDevice", error);
}

static void
leave_device (const CfBackendCuda * self, int previous)
{
  if (previous != self->device)
    cudaSetDevice (previous);
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
ensure_planes (CfBackendCuda * self, const CfLayout * layout,
    size_t pitch[CF_MAX_PLANES], GError ** error)
{
  for (int p = 0; p < layout->n_planes; p++) {
    size_t need;

    pitch[p] = ((size_t) layout->plane_row_bytes[p] + PITCH_ALIGN - 1) &
        ~(size_t) (PITCH_ALIGN - 1);
    need = pitch[p] * (size_t) layout->plane_height[p];
    if (need <= self->capacity[p])
      continue;

    cudaFree (self->d_in[p]);
    cudaFree (self->d_out[p]);
    self->d_in[p] = self->d_out[p] = NULL;
    self->capacity[p] = 0;
    if (!check (cudaMalloc ((void **) &self->d_in[p], need), "cudaMalloc",
            error) ||
        !check (cudaMalloc ((void **) &self->d_out[p], need), "cudaMalloc",
            error)) {
      cudaFree (self->d_in[p]);
      self->d_in[p] = NULL;
      g_prefix_error (error, "Cannot allocate %zu bytes of GPU memory for "
          "plane %d: ", need, p);
      return FALSE;
    }
    self->capacity[p] = need;
  }
  return TRUE;
}

static gboolean
ensure_dense (CfBackendCuda * self, const CfSpec * spec, GError ** error)
{
  size_t bytes = (size_t) spec->kp.kw * spec->kp.kh * sizeof (int);

  if (self->have_dense && self->dense_serial == spec->serial)
    return TRUE;

  self->have_dense = FALSE;
  if (bytes > self->dense_capacity) {
    cudaFree (self->d_dense);
    self->d_dense = NULL;
    self->dense_capacity = 0;
    if (!check (cudaMalloc ((void **) &self->d_dense, bytes), "cudaMalloc",
            error))
      return FALSE;
    self->dense_capacity = bytes;
  }
  /* Ordered on the stream before the launch that reads it. */
  if (!check (cudaMemcpyAsync (self->d_dense, spec->dense, bytes,
              cudaMemcpyHostToDevice, self->stream), "cudaMemcpyAsync", error))
    return FALSE;
  self->have_dense = TRUE;
  self->dense_serial = spec->serial;
  return TRUE;
}

static gboolean
run_frame (CfBackendCuda * self, const CfSpec * spec,
    const CfLayout * layout, const CfFrame * in, const CfFrame * out,
    GError ** error)
{
  size_t pitch[CF_MAX_PLANES] = { 0 };
  CfDeviceFrame df;
  const int *dense = NULL;

  if (!ensure_planes (self, layout, pitch, error))
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
    if (!check (cudaMemcpy2DAsync (self->d_in[p], pitch[p], in->data[p],
                in->stride[p], layout->plane_row_bytes[p],
                layout->plane_height[p], cudaMemcpyHostToDevice,
                self->stream), "cudaMemcpy2DAsync (upload)", error))
      return FALSE;
    df.src[p] = self->d_in[p];
    df.dst[p] = self->d_out[p];
    df.src_stride[p] = df.dst_stride[p] = (long long) pitch[p];
  }
  df.n_channels = layout->n_channels;
  memcpy (df.channels, layout->channels,
      sizeof (CfChannel) * layout->n_channels);

  if (!check (cf_launch_filter (&df, &spec->kp, &spec->sep, dense,
              self->stream), "cf_launch_filter (kernel launch)", error))
    return FALSE;

  for (int p = 0; p < layout->n_planes; p++) {
    if (layout->plane_row_bytes[p] <= 0 || layout->plane_height[p] <= 0)
      continue;
    if (!check (cudaMemcpy2DAsync (out->data[p], out->stride[p],
                self->d_out[p], pitch[p], layout->plane_row_bytes[p],
                layout->plane_height[p], cudaMemcpyDeviceToHost,
                self->stream), "cudaMemcpy2DAsync (download)", error))
      return FALSE;
  }
  return check (cudaStreamSynchronize (self->stream), "cudaStreamSynchronize",
      error);
}

static gboolean
cf_backend_cuda_process (CfBackend * backend, const CfSpec * spec,
    const CfLayout * layout, const CfFrame * in, const CfFrame * out,
    GError ** error)
{
  CfBackendCuda *self = (CfBackendCuda *) backend;
  gboolean ok;
  int previous;

  if (layout->n_planes < 0 || layout->n_planes > CF_MAX_PLANES ||
      layout->n_channels < 0 || layout->n_channels > CF_MAX_CHANNELS) {
    g_set_error (error, CF_ERROR, CF_ERROR_UNSUPPORTED,
        "Layout with %d planes and %d channels is not supported",
        layout->n_planes, layout->n_channels);
    return FALSE;
  }
  if (layout->sample_bytes != spec->kp.sample_bytes) {
    g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
        "Filter built for %d-byte samples, but the frame has %d-byte samples",
        spec->kp.sample_bytes, layout->sample_bytes);
    return FALSE;
  }
  if (!enter_device (self, &previous, error))
    return FALSE;

  ok = run_frame (self, spec, layout, in, out, error);
  if (!ok) {
    /* Let queued copies finish with the caller's buffers before returning,
     * and clear a non-sticky error so the next frame can try again. */
    cudaStreamSynchronize (self->stream);
    cudaGetLastError ();
  }
  leave_device (self, previous);
  return ok;
}

static void
cf_backend_cuda_free (CfBackend * backend)
{
  CfBackendCuda *self = (CfBackendCuda *) backend;
  int previous = -1;
  gboolean entered = enter_device (self, &previous, NULL);

  if (self->stream)
    cudaStreamSynchronize (self->stream);
  for (int p = 0; p < CF_MAX_PLANES; p++) {
    cudaFree (self->d_in[p]);
    cudaFree (self->d_out[p]);
  }
  cudaFree (self->d_dense);
  if (self->stream)
    cudaStreamDestroy (self->stream);
  if (entered)
    leave_device (self, previous);
  /* cf_backend_free () owns the description. */
  g_free (self);
}

/* Synchronous for now: cf_backend_submit () falls back to process (). */
static const CfBackendClass cf_backend_cuda_class = {
  .process = cf_backend_cuda_process,
  .free = cf_backend_cuda_free,
  .submit = NULL,
  .wait = NULL,
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
  if (device_id < 0)
    device_id = 0;
  if (device_id >= n) {
    char *list = describe_devices (n);
    g_set_error (error, CF_ERROR, CF_ERROR_NO_DEVICE,
        "CUDA device %d requested, but only %d device%s %s present: %s",
        device_id, n, n == 1 ? "" : "s", n == 1 ? "is" : "are", list);
    g_free (list);
    return NULL;
  }

  self = g_new0 (CfBackendCuda, 1);
  self->parent.klass = &cf_backend_cuda_class;
  self->parent.kind = CF_BACKEND_CUDA;
  self->device = device_id;

  if (!check (cudaGetDevice (&previous), "cudaGetDevice", error))
    goto failed;
  if (!check (cudaSetDevice (device_id), "cudaSetDevice", error) ||
      !check (cudaGetDeviceProperties (&prop, device_id),
          "cudaGetDeviceProperties", error) ||
      !check (cudaStreamCreateWithFlags (&self->stream,
              cudaStreamNonBlocking), "cudaStreamCreateWithFlags", error)) {
    cudaSetDevice (previous);
    goto failed;
  }
  cudaSetDevice (previous);

  self->parent.description = g_strdup_printf ("cuda:%d (%s)", device_id,
      prop.name);
  return &self->parent;

failed:
  g_prefix_error (error, "Cannot use CUDA device %d: ", device_id);
  /* The stream may not exist; free copes with a partial backend. */
  cf_backend_cuda_free (&self->parent);
  return NULL;
}
