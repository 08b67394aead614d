/* cudafilter engine: backend creation and dispatch. */
#include "config.h"
#include "cf-backend-private.h"

CfBackend *
cf_backend_new (CfBackendKind kind, int device_id, GError ** error)
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

#ifndef HAVE_CUDA
int
cf_cuda_device_count (char **why)
{
  if (why)
    *why = g_strdup ("this build of cudafilter has no CUDA support");
  return 0;
}
#endif

void
cf_backend_free (CfBackend * backend)
{
  if (backend == NULL)
    return;
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

gboolean
cf_backend_process (CfBackend * backend, const CfSpec * spec,
    const CfLayout * layout, const CfFrame * in, const CfFrame * out,
    GError ** error)
{
  g_return_val_if_fail (backend != NULL && spec != NULL, FALSE);
  g_return_val_if_fail (layout != NULL && in != NULL && out != NULL, FALSE);
  g_return_val_if_fail (layout->sample_bytes == spec->kp.sample_bytes, FALSE);

  return backend->klass->process (backend, spec, layout, in, out, error);
}
