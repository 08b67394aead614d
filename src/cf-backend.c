/* cudafilter engine: backend creation and dispatch. */
#include "config.h"
#include "cf-backend-private.h"
#ifdef HAVE_CUFFT
#include "cf-cufft.h"
#endif

static CfBackend *
backend_new (CfBackendKind kind, int device_id, GError ** error)
{
  switch (kind) {
    case CF_BACKEND_CPU:
      return cf_backend_cpu_new (error);
    case CF_BACKEND_CUDA:
#ifdef HAVE_CUDA
      return cf_backend_cuda_new (device_id, error);
#else
      g_set_error (error, CF_ERROR, CF_ERROR_UNSUPPORTED,
          "this build of cudafilter has no CUDA backend (configured without "
          "CUDA); use the cpu backend");
      return NULL;
#endif
  }
  g_set_error (error, CF_ERROR, CF_ERROR_UNSUPPORTED, "unknown backend %d",
      kind);
  return NULL;
}

CfBackend *
cf_backend_new (CfBackendKind kind, int device_id, GError ** error)
{
  CfBackend *backend = backend_new (kind, device_id, error);

  if (backend)
    backend->max_in_flight = 1;
  return backend;
}

#ifndef HAVE_CUDA
int
cf_cuda_device_count (char **why)
{
  if (why)
    *why = g_strdup ("this build of cudafilter has no CUDA support");
  return 0;
}
#endif

const char *
cf_cuda_fft_unavailable (void)
{
#ifdef HAVE_CUFFT
  const char *why;

  return cf_cufft_get (&why) ? NULL : why;
#elif defined(HAVE_CUDA)
  return "this build has no cuFFT support (-Dcufft)";
#else
  return "this build has no CUDA support";
#endif
}

void
cf_backend_free (CfBackend * backend)
{
  if (backend == NULL)
    return;
  /* Frames still in flight finish before their buffers go away. */
  while (backend->in_flight > 0)
    cf_backend_wait (backend, NULL);
  g_free (backend->description);
  backend->klass->free (backend);
}

CfBackendKind
cf_backend_kind (const CfBackend * backend)
{
  return backend->kind;
}

const char *
cf_backend_describe (const CfBackend * backend)
{
  return backend->description;
}

/* One check for every backend: a layout the kernels can take, samples of
 * the size the spec was built for. */
static gboolean
check_layout (const CfSpec * spec, const CfLayout * layout, GError ** error)
{
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
  return TRUE;
}

gboolean
cf_backend_process (CfBackend * backend, const CfSpec * spec,
    const CfLayout * layout, const CfFrame * in, const CfFrame * out,
    GError ** error)
{
  g_return_val_if_fail (backend != NULL && spec != NULL, FALSE);
  g_return_val_if_fail (layout != NULL && in != NULL && out != NULL, FALSE);

  if (!check_layout (spec, layout, error))
    return FALSE;
  return backend->klass->process (backend, spec, layout, in, out, error);
}

void
cf_backend_set_max_in_flight (CfBackend * backend, guint n)
{
  g_return_if_fail (backend->in_flight == 0);
  backend->max_in_flight = MAX (n, 1);
}

guint
cf_backend_get_max_in_flight (const CfBackend * backend)
{
  return backend->max_in_flight;
}

guint
cf_backend_in_flight (const CfBackend * backend)
{
  return backend->in_flight;
}

gboolean
cf_backend_submit (CfBackend * backend, const CfSpec * spec,
    const CfLayout * layout, const CfFrame * in, const CfFrame * out,
    GError ** error)
{
  GError *err = NULL;
  gint64 start;

  g_return_val_if_fail (backend != NULL && spec != NULL, FALSE);
  g_return_val_if_fail (layout != NULL && in != NULL && out != NULL, FALSE);
  g_return_val_if_fail (backend->in_flight < backend->max_in_flight, FALSE);

  if (!check_layout (spec, layout, error))
    return FALSE;

  start = g_get_monotonic_time ();
  if (backend->klass->submit) {
    if (!backend->klass->submit (backend, spec, layout, in, out, error))
      return FALSE;
  } else {
    /* Synchronous backends finish now and report at wait. */
    backend->klass->process (backend, spec, layout, in, out, &err);
    backend->stats.last_kernel_us = g_get_monotonic_time () - start;
    g_queue_push_tail (&backend->sync_errors, err);
  }
  g_queue_push_tail (&backend->submit_times, GSIZE_TO_POINTER (start));
  backend->in_flight++;
  return TRUE;
}

gboolean
cf_backend_wait (CfBackend * backend, GError ** error)
{
  GError *err = NULL;
  gint64 start;
  gboolean ok;

  g_return_val_if_fail (backend != NULL, FALSE);
  g_return_val_if_fail (backend->in_flight > 0, FALSE);

  backend->in_flight--;
  start = GPOINTER_TO_SIZE (g_queue_pop_head (&backend->submit_times));
  if (backend->klass->wait) {
    ok = backend->klass->wait (backend, &err);
  } else {
    err = g_queue_pop_head (&backend->sync_errors);
    ok = err == NULL;
  }
  if (!ok) {
    g_propagate_error (error, err);
    return FALSE;
  }
  backend->stats.frames++;
  backend->stats.last_frame_us = g_get_monotonic_time () - start;
  return TRUE;
}

void
cf_backend_get_stats (const CfBackend * backend, CfBackendStats * stats)
{
  *stats = backend->stats;
}
