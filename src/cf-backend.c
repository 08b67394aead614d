/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: backend creation, dispatch, and the frames in flight:
 * the base owns their queue and which slot each one uses, so no backend
 * and no caller keeps a count of its own. */
#include "config.h"
#include <string.h>
#include "cf-backend-private.h"
#ifdef HAVE_CUFFT
#include "cf-cufft.h"
#endif
#ifdef HAVE_FFTW
#include "cf-fftw.h"
#endif

/* Bad arguments are errors like any other: a caller that gets FALSE always
 * has a message to show. */
#define CHECK_ARG(expr) G_STMT_START {                                  \
    if (G_UNLIKELY (!(expr))) {                                         \
      g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,             \
          "%s: invalid argument (%s)", G_STRFUNC, #expr);               \
      return FALSE;                                                     \
    }                                                                   \
  } G_STMT_END

static CfBackend *
backend_new (CfBackendKind kind, int device_id, GError ** error)
{
  switch (kind) {
    case CF_BACKEND_CPU:
      return cf_backend_cpu_new (error);
    case CF_BACKEND_CPU_REFERENCE:
      return cf_backend_cpu_reference_new (error);
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

  if (backend) {
    backend->max_in_flight = 1;
    if (backend->kind != CF_BACKEND_CUDA)
      backend->device = -1;
  }
  return backend;
}

int
cf_backend_device (const CfBackend * backend)
{
  return backend ? backend->device : -1;
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

const char *
cf_cpu_fft_unavailable (void)
{
#ifdef HAVE_FFTW
  const char *why;

  return cf_fftw_get (&why) ? NULL : why;
#else
  return "this build has no FFTW support (-Dfftw)";
#endif
}

void
cf_backend_free (CfBackend * backend)
{
  if (backend == NULL)
    return;
  /* Frames still in flight finish before their buffers go away. */
  cf_backend_discard (backend, NULL);
  g_free (backend->description);
  g_free (backend->plan);
  g_free (backend->warning);
  g_free (backend->tiles);
  g_free (backend->tile_mem);
  backend->klass->free (backend);
}

CfBackendKind
cf_backend_kind (const CfBackend * backend)
{
  return backend ? backend->kind : CF_BACKEND_CPU;
}

const char *
cf_backend_describe (const CfBackend * backend)
{
  return backend ? backend->description : "none";
}

const char *
cf_backend_describe_plan (const CfBackend * backend)
{
  return backend && backend->plan ? backend->plan : "none";
}

char *
cf_backend_take_warning (CfBackend * backend)
{
  return backend ? g_steal_pointer (&backend->warning) : NULL;
}

void
cf_backend_take_plan_name (CfBackend * backend, char *name)
{
  g_free (backend->plan);
  backend->plan = name;
}

/* One check for every backend: a layout the kernels can take, samples of
 * the size the spec was built for. */
static gboolean
check_frame (const CfSpec * spec, const CfLayout * layout, const CfFrame * in,
    const CfFrame * out, GError ** error)
{
  CHECK_ARG (spec != NULL);
  CHECK_ARG (layout != NULL);
  CHECK_ARG (in != NULL);
  CHECK_ARG (out != NULL);
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

/* A region list the backends can take: fitted to a frame, not too long. */
static gboolean
check_regions (const CfRegions * regions, GError ** error)
{
  if (regions == NULL)
    return TRUE;
  if (regions->frame_width <= 0 || regions->frame_height <= 0
      || regions->n_rects < 0 || regions->n_rects > CF_REGIONS_MAX
      || (regions->n_rects > 0 && regions->rects == NULL)) {
    g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
        "Region list not fitted to the frame (cf_regions_fit): %d "
        "rectangles for a %dx%d frame", regions->n_rects,
        regions->frame_width, regions->frame_height);
    return FALSE;
  }
  return TRUE;
}

gboolean
cf_backend_plan_tiles (CfBackend * backend, const CfSpec * spec,
    const CfLayout * layout, const CfRegions * regions)
{
  int rx, ry;

  if (regions == NULL || regions->mode != CF_REGION_INSIDE
      || backend->klass->tiles_exact == NULL
      || !cf_region_tiles_reach (spec, &rx, &ry)
      || !backend->klass->tiles_exact (backend, spec, layout))
    return FALSE;
  if (backend->tiles == NULL)
    backend->tiles = g_new0 (CfRegionTiles, 1);
  return cf_region_tiles_make (layout, regions, rx, ry, backend->tiles);
}

gboolean
cf_backend_regions_in_place (CfBackend * backend, const CfSpec * spec,
    const CfLayout * layout, const CfRegions * regions)
{
  if (backend == NULL || spec == NULL || layout == NULL
      || !check_regions (regions, NULL))
    return FALSE;
  return cf_backend_plan_tiles (backend, spec, layout, regions);
}

/* Tile `t`'s frame in the backend's tile memory from byte `at`; returns
 * the byte after it.  Rows 64-byte aligned. */
static gsize
tile_memory_frame (CfBackend * backend, const CfRegionTile * t, gsize at,
    CfFrame * frame)
{
  memset (frame, 0, sizeof (*frame));
  for (int p = 0; p < t->layout.n_planes; p++) {
    frame->stride[p] = (t->layout.plane_row_bytes[p] + 63) & ~63;
    if (backend->tile_mem)
      frame->data[p] = backend->tile_mem + at;
    at += (gsize) frame->stride[p] * t->layout.plane_height[p];
  }
  return at;
}

/* Host frames: the filter over each region's tile only (plus the kernel's
 * reach, read from the frame), into the backend's tile memory, then each
 * tile's region into the output, then the input around them (not when the
 * output is the input).  All tiles are filtered before any region is
 * written, so an output that is the input still gives every tile the
 * input's samples.  FALSE with *ran FALSE: the whole frame instead. */
static gboolean
run_tiles (CfBackend * backend, const CfSpec * spec, const CfLayout * layout,
    const CfFrame * in, const CfFrame * out, const CfRegions * regions,
    gboolean * ran, GError ** error)
{
  CfRegionTiles *tiles;
  gsize off[CF_REGIONS_MAX], total = 0;
  int i;
  gboolean ok = TRUE;

  *ran = FALSE;
  if (!cf_backend_plan_tiles (backend, spec, layout, regions))
    return FALSE;
  tiles = backend->tiles;
  *ran = TRUE;
  for (i = 0; i < tiles->n; i++) {
    CfFrame unused;

    off[i] = total;
    total = tile_memory_frame (backend, &tiles->tiles[i], total, &unused);
  }
  if (total > backend->tile_len) {
    g_free (backend->tile_mem);
    backend->tile_mem = g_malloc (total);
    backend->tile_len = total;
  }
  backend->tiling = TRUE;
  for (i = 0; i < tiles->n && ok; i++) {
    const CfRegionTile *t = &tiles->tiles[i];
    CfFrame tin, tout;

    cf_region_tile_frame (t, in, &tin);
    tile_memory_frame (backend, t, off[i], &tout);
    ok = backend->klass->process (backend, spec, &t->layout, &tin, &tout,
        error);
  }
  backend->tiling = FALSE;
  if (!ok)
    return FALSE;
  for (i = 0; i < tiles->n; i++) {
    const CfRegionTile *t = &tiles->tiles[i];
    CfFrame tout;

    tile_memory_frame (backend, t, off[i], &tout);
    cf_region_tile_copy_inner (t, &tout, out);
  }
  if (memcmp (in->data, out->data, sizeof (in->data)) != 0)
    cf_regions_composite (layout, regions, in, out);
  return TRUE;
}

/* The output may be the input only where cf_backend_regions_in_place ()
 * said so: whole frames read neighbours a filter has overwritten. */
static gboolean
in_place_allowed (const CfFrame * in, const CfFrame * out, GError ** error)
{
  if (memcmp (in->data, out->data, sizeof (in->data)) != 0)
    return TRUE;
  g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
      "The output is the input, but these regions are not filtered in place "
      "(cf_backend_regions_in_place () is FALSE): give a separate output");
  return FALSE;
}

/* One frame, synchronously.  Backends that do not read the regions
 * filter the whole frame and the input is composited back where the
 * regions leave it alone; pixelate needs no backend (exact integer means,
 * cf-pixelate.c). */
static gboolean
run_frame (CfBackend * backend, const CfSpec * spec, const CfLayout * layout,
    const CfFrame * in, const CfFrame * out, const CfRegions * regions,
    GError ** error)
{
  gboolean ok;

  if (backend->klass->handles_regions) {
    backend->regions = regions;
    ok = backend->klass->process (backend, spec, layout, in, out, error);
    backend->regions = NULL;
    return ok;
  }
  if (regions) {
    gboolean ran;

    ok = run_tiles (backend, spec, layout, in, out, regions, &ran, error);
    if (ran)
      return ok;
  }
  if (!in_place_allowed (in, out, error))
    return FALSE;
  if (spec->kp.operation == CF_OPERATION_PIXELATE) {
    cf_pixelate_frame (layout, spec->kp.block, regions, in, out);
    return TRUE;
  }
  if (regions && regions->mode == CF_REGION_INSIDE && regions->n_rects == 0) {
    cf_regions_composite (layout, regions, in, out);
    return TRUE;
  }

  /* The backend may skip rows no region covers (cpu-fast). */
  backend->regions = regions;
  ok = backend->klass->process (backend, spec, layout, in, out, error);
  backend->regions = NULL;
  if (ok && regions)
    cf_regions_composite (layout, regions, in, out);
  return ok;
}

gboolean
cf_backend_process (CfBackend * backend, const CfSpec * spec,
    const CfLayout * layout, const CfFrame * in, const CfFrame * out,
    GError ** error)
{
  return cf_backend_process_regions (backend, spec, layout, in, out, NULL,
      error);
}

gboolean
cf_backend_process_regions (CfBackend * backend, const CfSpec * spec,
    const CfLayout * layout, const CfFrame * in, const CfFrame * out,
    const CfRegions * regions, GError ** error)
{
  CHECK_ARG (backend != NULL);
  if (!check_frame (spec, layout, in, out, error)
      || !check_regions (regions, error))
    return FALSE;
  return run_frame (backend, spec, layout, in, out, regions, error);
}

void
cf_backend_set_max_in_flight (CfBackend * backend, guint n)
{
  g_return_if_fail (backend != NULL);
  backend->max_in_flight = CLAMP (n, 1, CF_BACKEND_MAX_IN_FLIGHT);
}

guint
cf_backend_get_max_in_flight (const CfBackend * backend)
{
  return backend ? backend->max_in_flight : 0;
}

guint
cf_backend_in_flight (const CfBackend * backend)
{
  return backend ? backend->count : 0;
}

/* The lowest slot no frame in flight holds: below the number in flight,
 * so a backend touches only as many slots as frames it has had at once. */
static guint
free_slot (const CfBackend * backend)
{
  guint s = 0;

  while (backend->busy_slots & (1u << s))
    s++;
  return s;
}

/* The next flight record, or NULL (error set) when the limit is reached. */
static CfFlight *
next_flight (CfBackend * backend, GError ** error)
{
  CfFlight *flight;

  if (backend->count >= backend->max_in_flight) {
    g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
        "%u frame%s already in flight, the most allowed (%u): wait for one "
        "first", backend->count, backend->count == 1 ? "" : "s",
        backend->max_in_flight);
    return NULL;
  }
  flight = &backend->flights[(backend->head + backend->count) %
      CF_BACKEND_MAX_IN_FLIGHT];
  memset (flight, 0, sizeof (*flight));
  return flight;
}

static void
take_flight (CfBackend * backend, CfFlight * flight, gpointer frame_data,
    guint slot, gint64 start)
{
  flight->data = frame_data;
  flight->slot = slot;
  flight->submit_time = start;
  backend->busy_slots |= 1u << slot;
  backend->count++;
}

gboolean
cf_backend_submit (CfBackend * backend, const CfSpec * spec,
    const CfLayout * layout, const CfFrame * in, const CfFrame * out,
    gpointer frame_data, GError ** error)
{
  return cf_backend_submit_regions (backend, spec, layout, in, out, NULL,
      frame_data, error);
}

gboolean
cf_backend_submit_regions (CfBackend * backend, const CfSpec * spec,
    const CfLayout * layout, const CfFrame * in, const CfFrame * out,
    const CfRegions * regions, gpointer frame_data, GError ** error)
{
  CfFlight *flight;
  gint64 start;
  guint slot;

  CHECK_ARG (backend != NULL);
  if (!check_frame (spec, layout, in, out, error)
      || !check_regions (regions, error))
    return FALSE;
  flight = next_flight (backend, error);
  if (flight == NULL)
    return FALSE;

  slot = free_slot (backend);
  start = g_get_monotonic_time ();
  if (backend->klass->submit) {
    gboolean ok;

    backend->regions = regions;
    ok = backend->klass->submit (backend, slot, spec, layout, in, out, error);
    backend->regions = NULL;
    if (!ok)
      return FALSE;
  } else {
    /* Synchronous backends finish now and report at wait. */
    run_frame (backend, spec, layout, in, out, regions, &flight->sync_error);
    backend->stats.last_kernel_us = g_get_monotonic_time () - start;
  }
  take_flight (backend, flight, frame_data, slot, start);
  return TRUE;
}

gboolean
cf_backend_submit_unchanged (CfBackend * backend, gpointer frame_data,
    GError ** error)
{
  CfFlight *flight;

  CHECK_ARG (backend != NULL);
  flight = next_flight (backend, error);
  if (flight == NULL)
    return FALSE;
  flight->unchanged = TRUE;
  take_flight (backend, flight, frame_data, free_slot (backend),
      g_get_monotonic_time ());
  return TRUE;
}

/* Takes the oldest frame out of flight: waits for it and returns its
 * record; its slot is free again. */
static gboolean
retire_oldest (CfBackend * backend, CfFlight * done, GError ** error)
{
  GError *err = NULL;
  gboolean ok;

  *done = backend->flights[backend->head];
  if (backend->klass->wait && !done->unchanged) {
    ok = backend->klass->wait (backend, done->slot, &err);
  } else {
    err = done->sync_error;
    ok = err == NULL;
  }
  backend->head = (backend->head + 1) % CF_BACKEND_MAX_IN_FLIGHT;
  backend->count--;
  backend->busy_slots &= ~(1u << done->slot);
  if (!ok)
    g_propagate_error (error, err);
  return ok;
}

gboolean
cf_backend_wait (CfBackend * backend, gpointer * frame_data, GError ** error)
{
  CfFlight done;
  gboolean ok;

  if (frame_data)
    *frame_data = NULL;
  CHECK_ARG (backend != NULL);
  if (backend->count == 0) {
    g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
        "No frame in flight to wait for");
    return FALSE;
  }
  ok = retire_oldest (backend, &done, error);
  if (frame_data)
    *frame_data = done.data;
  if (!ok)
    return FALSE;
  backend->stats.frames++;
  backend->stats.last_frame_us = g_get_monotonic_time () - done.submit_time;
  return TRUE;
}

void
cf_backend_discard (CfBackend * backend, GDestroyNotify release)
{
  if (backend == NULL)
    return;
  while (backend->count > 0) {
    CfFlight done;

    retire_oldest (backend, &done, NULL);
    if (release)
      release (done.data);
  }
}

void
cf_backend_get_stats (const CfBackend * backend, CfBackendStats * stats)
{
  g_return_if_fail (stats != NULL);
  if (backend == NULL) {
    memset (stats, 0, sizeof (*stats));
    return;
  }
  *stats = backend->stats;
}
