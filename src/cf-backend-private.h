/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: what a backend implements. */
#ifndef CF_BACKEND_PRIVATE_H
#define CF_BACKEND_PRIVATE_H

#include "cf-backend.h"
#include "cf-region-tiles.h"

G_BEGIN_DECLS

typedef struct
{
  gboolean (*process) (CfBackend * backend, const CfSpec * spec,
      const CfLayout * layout, const CfFrame * in, const CfFrame * out,
      GError ** error);
  void (*free) (CfBackend * backend);
  /* Optional: asynchronous frames.  `slot` (< CF_BACKEND_MAX_IN_FLIGHT)
   * names the per-frame resources the frame uses from submit to its wait;
   * the base hands the same slot to both and never gives a slot to two
   * frames in flight at once.  Without them submit runs process () and
   * wait only reports its result. */
  gboolean (*submit) (CfBackend * backend, guint slot, const CfSpec * spec,
      const CfLayout * layout, const CfFrame * in, const CfFrame * out,
      GError ** error);
  gboolean (*wait) (CfBackend * backend, guint slot, GError ** error);
  /* The backend reads CfBackend.regions itself; otherwise the base
   * composites after process () (host frames), and process () may read
   * them only to skip work the composite overwrites. */
  gboolean handles_regions;
  /* Optional: whether the spec's output over a region's tile (a frame of
   * its own, cf-region-tiles.h) equals the whole frame's there, as direct
   * convolutions give (not FFTs).  The base then runs process () over the
   * tiles only, with `tiling` set.  Backends that handle regions decide
   * for themselves. */
  gboolean (*tiles_exact) (CfBackend * backend, const CfSpec * spec,
      const CfLayout * layout);
} CfBackendClass;

/* One frame in flight, from submit to wait: the only record of it. */
typedef struct
{
  gpointer data;                /* the caller's, handed back at wait */
  guint slot;
  gint64 submit_time;           /* monotonic µs */
  GError *sync_error;           /* result of a synchronous backend */
  gboolean unchanged;           /* cf_backend_submit_unchanged (): no work */
} CfFlight;

struct _CfBackend
{
  const CfBackendClass *klass;
  CfBackendKind kind;
  int device;                   /* CUDA backends; -1 for the CPU ones */
  char *description;
  char *plan;                   /* cf_backend_describe_plan (); backends set it */
  char *warning;                /* cf_backend_take_warning (); backends set it */
  guint max_in_flight;
  /* Frames in flight, oldest at flights[head]; the ring's size is fixed,
   * whatever the limit, so a changed limit cannot shift a frame. */
  CfFlight flights[CF_BACKEND_MAX_IN_FLIGHT];
  guint head, count;
  guint32 busy_slots;           /* bit s: slot s belongs to a frame in flight */
  CfBackendStats stats;         /* backends set last_kernel_us */
  /* The regions of the frame being processed or submitted, NULL for the
   * whole frame: set by the base around the class's call only. */
  const CfRegions *regions;
  /* Regions as tiles (cf-backend.c, the CUDA backend): the tiles of the
   * frame being run, process () called on a tile, and the host memory the
   * tiles are filtered into (kept, grown). */
  CfRegionTiles *tiles;
  gboolean tiling;
  guint8 *tile_mem;
  gsize tile_len;
};

CfBackend *cf_backend_cpu_new (GError ** error);
CfBackend *cf_backend_cpu_reference_new (GError ** error);
CfBackend *cf_backend_cuda_new (int device_id, GError ** error);

/* The rectangles of the frame's regions in channel `ch`'s samples
 * (rounded outward, empty ones dropped); returns how many (at most
 * CF_REGIONS_MAX). */
int cf_regions_for_channel (const CfRegions * regions, const CfChannel * ch,
    CfRect * out);
/* What copying samples of a frame's layout takes: for each plane whose
 * channels have the same samples and fill every byte of its pixels, one
 * job of whole pixels (a copy per span, not per sample), else each of its
 * channels; from[j] is the channel whose samples job j's are.  Returns
 * how many (at most CF_MAX_CHANNELS). */
int cf_layout_copy_jobs (const CfLayout * layout, CfChannel * jobs,
    int *from);
/* Host frames: copies the input samples the regions leave unfiltered
 * into the output (cf-region-composite.c). */
void cf_regions_composite (const CfLayout * layout, const CfRegions * regions,
    const CfFrame * in, const CfFrame * out);
/* Pixelate blocks in a channel of `ch` samples along a frame dimension of
 * `frame` pixels: the block over the subsampling, at least 1. */
int cf_pixelate_block_for (int block, int frame, int ch);
/* Host frames: pixelates in into out, with blocks of `block` pixels, where
 * the regions say (NULL: the whole frame) (cf-pixelate.c). */
void cf_pixelate_frame (const CfLayout * layout, int block,
    const CfRegions * regions, const CfFrame * in, const CfFrame * out);

/* Cuts the regions into backend->tiles when they run as tiles (one
 * decision for every backend and for cf_backend_regions_in_place ()):
 * inside regions, a spec cf_region_tiles_reach () takes, the backend's
 * tiles_exact (), and tiles cf_region_tiles_make () takes. */
gboolean cf_backend_plan_tiles (CfBackend * backend, const CfSpec * spec,
    const CfLayout * layout, const CfRegions * regions);

/* Replaces the plan description (takes `name`). */
void cf_backend_take_plan_name (CfBackend * backend, char *name);

G_END_DECLS
#endif /* CF_BACKEND_PRIVATE_H */
