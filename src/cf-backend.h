/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: the backends behind one interface.  The CPU backend is
 * the reference and the fallback; the CUDA backend computes the same bytes. */
#ifndef CF_BACKEND_H
#define CF_BACKEND_H

#include <glib.h>
#include "cf-spec.h"
#include "cf-layout.h"
#include "cf-regions.h"

G_BEGIN_DECLS

typedef enum
{
  CF_BACKEND_CPU = 0,           /* threaded and vectorised */
  CF_BACKEND_CUDA = 1,
  CF_BACKEND_CPU_REFERENCE = 2  /* the plain oracle the others must match */
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

/* Functions returning FALSE or NULL set their GError, bad arguments (NULL
 * pointers) included; the others accept a NULL backend (cf_backend_kind
 * says CPU, cf_backend_describe "none", the counts 0). */
CfBackendKind cf_backend_kind (const CfBackend * backend);
/* "cpu" or "cuda:N (device name)". */
const char *cf_backend_describe (const CfBackend * backend);
/* The CUDA device a CUDA backend filters on; -1 for the CPU backends. */
int cf_backend_device (const CfBackend * backend);

/* Filters `in` into `out` (distinct buffers of the same layout) and returns
 * when `out` is complete. */
gboolean cf_backend_process (CfBackend * backend, const CfSpec * spec,
    const CfLayout * layout, const CfFrame * in, const CfFrame * out,
    GError ** error);

/* Frames in flight.  cf_backend_submit () starts filtering a frame and
 * returns; cf_backend_wait () completes the oldest frame in flight and hands
 * back the `frame_data` it was submitted with, so the backend is the one
 * place that knows which frame is where: a caller keeps no queue of its own
 * and asks cf_backend_in_flight () how many there are.  Frames complete in
 * submission order; `in` and `out` must stay mapped and untouched until
 * their frame is handed back (by wait or discard).
 *
 * At most cf_backend_get_max_in_flight () frames are in flight (default 1,
 * at most CF_BACKEND_MAX_IN_FLIGHT); the limit may change at any time, and
 * frames already in flight are unaffected: submit refuses until fewer than
 * the new limit are. */
#define CF_BACKEND_MAX_IN_FLIGHT 16

void cf_backend_set_max_in_flight (CfBackend * backend, guint n);
guint cf_backend_get_max_in_flight (const CfBackend * backend);
guint cf_backend_in_flight (const CfBackend * backend);
gboolean cf_backend_submit (CfBackend * backend, const CfSpec * spec,
    const CfLayout * layout, const CfFrame * in, const CfFrame * out,
    gpointer frame_data, GError ** error);
/* Completes the oldest frame in flight.  Its frame_data goes to
 * *frame_data (may be NULL) whether or not it succeeded: the frame has left
 * the backend either way.  FALSE with `error` set if the frame failed, or
 * if none was in flight (then *frame_data is NULL). */
gboolean cf_backend_wait (CfBackend * backend, gpointer * frame_data,
    GError ** error);
/* Completes every frame in flight without reporting their results, oldest
 * first, handing each one's frame_data to `release` (may be NULL).
 * cf_backend_free () does the same with no `release`. */
void cf_backend_discard (CfBackend * backend, GDestroyNotify release);

/* Regions (docs/regions.md): the same, filtering only where `regions`
 * says (NULL: the whole frame).  The list must have been fitted to the
 * frame (cf_regions_fit); it is read during the call only.  In
 * CF_REGION_INSIDE mode the output equals the whole-frame output inside the
 * union of the rectangles and the input elsewhere; CF_REGION_OUTSIDE the
 * opposite. */
gboolean cf_backend_process_regions (CfBackend * backend, const CfSpec * spec,
    const CfLayout * layout, const CfFrame * in, const CfFrame * out,
    const CfRegions * regions, GError ** error);
gboolean cf_backend_submit_regions (CfBackend * backend, const CfSpec * spec,
    const CfLayout * layout, const CfFrame * in, const CfFrame * out,
    const CfRegions * regions, gpointer frame_data, GError ** error);
/* Whether a frame with these regions may be given its input as its
 * output (the same CfFrame for both): the regions run as tiles (direct
 * convolutions over small inside regions, cf-region-tiles.h), which read
 * every input sample they need before writing any, and the rest of the
 * output is the input already.  FALSE: a separate output is needed. */
gboolean cf_backend_regions_in_place (CfBackend * backend,
    const CfSpec * spec, const CfLayout * layout, const CfRegions * regions);

/* A frame that needs no filtering (no region in CF_REGION_INSIDE mode):
 * it takes its place among the frames in flight, so it completes in order,
 * and costs nothing (the caller passes its input on). */
gboolean cf_backend_submit_unchanged (CfBackend * backend,
    gpointer frame_data, GError ** error);

/* The kernel path the last frame's spec and layout were planned onto, as
 * the backend chose it once for them ("cpu", "fast separable 4x8-bit K=5
 * float", ...); "none" before the first frame. */
const char *cf_backend_describe_plan (const CfBackend * backend);
/* Something the user should hear about that did not stop the filtering
 * (a CPU backend that started fewer threads than asked), each once, or
 * NULL: g_free () it. */
char *cf_backend_take_warning (CfBackend * backend);

/* What a user needs to tell whether filtering keeps up. */
typedef struct
{
  guint64 frames;               /* frames completed */
  double last_kernel_us;        /* filtering time of the last frame: GPU
                                 * time of its launch, or CPU time */
  double last_frame_us;         /* submit to completion of the last frame,
                                 * copies and queueing included */
} CfBackendStats;

/* Zeros for a NULL backend. */
void cf_backend_get_stats (const CfBackend * backend, CfBackendStats * stats);

/* CPU backend: filter on n_threads threads (0 = one per core; more than
 * the cores is allowed), started at the next frame and kept.  Threads that
 * cannot start leave fewer, with a warning.  Other backends ignore it. */
#define CF_CPU_MAX_THREADS 128
void cf_backend_set_cpu_threads (CfBackend * backend, guint n_threads);

/* Number of usable CUDA devices (0 without a driver, a device or CUDA
 * support in this build); fills `why` with the reason when 0. */
int cf_cuda_device_count (char **why);

/* NULL when the CUDA backend can convolve large dense kernels through
 * cuFFT (the library loads, once per process); else why not.  Without it
 * those kernels run the direct path, with the same bytes. */
const char *cf_cuda_fft_unavailable (void);

/* NULL when the CPU backend can convolve large dense kernels through FFTW
 * (the library loads, once per process); else why not.  Without it those
 * kernels run the direct path, with the same bytes. */
const char *cf_cpu_fft_unavailable (void);

G_END_DECLS
#endif /* CF_BACKEND_H */
