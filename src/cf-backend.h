/* cudafilter engine: the backends behind one interface.  The CPU backend is
 * the reference and the fallback; the CUDA backend computes the same bytes. */
#ifndef CF_BACKEND_H
#define CF_BACKEND_H

#include <glib.h>
#include "cf-spec.h"
#include "cf-layout.h"

G_BEGIN_DECLS

typedef enum
{
  CF_BACKEND_CPU = 0,
  CF_BACKEND_CUDA = 1
} CfBackendKind;

typedef struct _CfBackend CfBackend;

/* device_id -1 picks the calling thread's current device (CUDA only): the
 * device of a driver context the caller made current, else device 0.  A
 * CUDA backend lives in the context current when it is created (the
 * device's primary context unless the caller pushed another); make the same
 * context current around every later call with that backend. */
CfBackend *cf_backend_new (CfBackendKind kind, int device_id,
    GError ** error);
void cf_backend_free (CfBackend * backend);

CfBackendKind cf_backend_kind (const CfBackend * backend);
/* "cpu" or "cuda:N (device name)". */
const char *cf_backend_describe (const CfBackend * backend);

/* Filters `in` into `out` (distinct buffers of the same layout) and returns
 * when `out` is complete. */
gboolean cf_backend_process (CfBackend * backend, const CfSpec * spec,
    const CfLayout * layout, const CfFrame * in, const CfFrame * out,
    GError ** error);

/* Frames may be in flight: cf_backend_submit() starts filtering and
 * returns, cf_backend_wait() completes the oldest submitted frame.  Frames
 * complete in submission order; `in` and `out` must stay mapped and
 * untouched until their wait returns.  At most `n` frames may be in flight
 * (default 1); set it before the first submit. */
void cf_backend_set_max_in_flight (CfBackend * backend, guint n);
guint cf_backend_get_max_in_flight (const CfBackend * backend);
guint cf_backend_in_flight (const CfBackend * backend);
gboolean cf_backend_submit (CfBackend * backend, const CfSpec * spec,
    const CfLayout * layout, const CfFrame * in, const CfFrame * out,
    GError ** error);
/* Waits for the oldest frame; FALSE with `error` set if it failed. */
gboolean cf_backend_wait (CfBackend * backend, GError ** error);

/* What a user needs to tell whether filtering keeps up. */
typedef struct
{
  guint64 frames;               /* frames completed */
  double last_kernel_us;        /* filtering time of the last frame: GPU
                                 * time of its launch, or CPU time */
  double last_frame_us;         /* submit to completion of the last frame,
                                 * copies and queueing included */
} CfBackendStats;

void cf_backend_get_stats (const CfBackend * backend, CfBackendStats * stats);

/* Number of usable CUDA devices (0 without a driver, a device or CUDA
 * support in this build); fills `why` with the reason when 0. */
int cf_cuda_device_count (char **why);

/* NULL when the CUDA backend can convolve large dense kernels through
 * cuFFT (the library loads, once per process); else why not.  Without it
 * those kernels run the direct path, with the same bytes. */
const char *cf_cuda_fft_unavailable (void);

G_END_DECLS
#endif /* CF_BACKEND_H */
