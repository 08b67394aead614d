/* cudafilter engine: what a backend implements. */
#ifndef CF_BACKEND_PRIVATE_H
#define CF_BACKEND_PRIVATE_H

#include "cf-backend.h"

G_BEGIN_DECLS

typedef struct
{
  gboolean (*process) (CfBackend * backend, const CfSpec * spec,
      const CfLayout * layout, const CfFrame * in, const CfFrame * out,
      GError ** error);
  void (*free) (CfBackend * backend);
  /* Optional: asynchronous frames.  Without them submit runs process() and
   * wait only reports its result. */
  gboolean (*submit) (CfBackend * backend, const CfSpec * spec,
      const CfLayout * layout, const CfFrame * in, const CfFrame * out,
      GError ** error);
  gboolean (*wait) (CfBackend * backend, GError ** error);
} CfBackendClass;

struct _CfBackend
{
  const CfBackendClass *klass;
  CfBackendKind kind;
  char *description;
  guint max_in_flight;
  guint in_flight;
  GQueue sync_errors;           /* GError* (or NULL) per frame, for !submit */
  GQueue submit_times;          /* monotonic µs of each frame in flight */
  CfBackendStats stats;         /* backends set last_kernel_us */
};

CfBackend *cf_backend_cpu_new (GError ** error);
CfBackend *cf_backend_cpu_reference_new (GError ** error);
CfBackend *cf_backend_cuda_new (int device_id, GError ** error);

G_END_DECLS
#endif /* CF_BACKEND_PRIVATE_H */
