/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: regions as tiles, each a small frame of its own (the
 * region plus the kernel's reach, read from the real frame), so a filter
 * runs over what the regions cover instead of the whole frame. */
#ifndef CF_REGION_TILES_H
#define CF_REGION_TILES_H

#include <glib.h>
#include "cf-layout.h"
#include "cf-regions.h"
#include "cf-spec.h"

G_BEGIN_DECLS

/* One region as a frame of its own.  Filtering `layout` over the planes
 * offset by plane_x bytes and plane_y rows gives, inside `inner_ch`, the
 * whole-frame filter's samples: the tile reaches as far as the kernel
 * does, or to the real frame's edge, where the border applies as it does
 * for the whole frame. */
typedef struct
{
  CfRect inner;                 /* the region, frame pixels */
  CfRect outer;                 /* plus the reach, aligned, clipped */
  CfLayout layout;              /* the outer rectangle's channels */
  int plane_x[CF_MAX_PLANES];   /* bytes into a plane row */
  int plane_y[CF_MAX_PLANES];   /* rows into a plane */
  CfRect inner_ch[CF_MAX_CHANNELS];     /* the region in each channel of
                                         * the tile (empty: none) */
} CfRegionTile;

typedef struct
{
  int n;
  CfRegionTile tiles[CF_REGIONS_MAX];
} CfRegionTiles;

/* How far (in each channel's samples) a spec reads around an output
 * sample, when its output over a tile equals the whole frame's there:
 * convolutions with any border but wrap (which reads the far edge).
 * FALSE otherwise (nonlinear programs, pixelate, wrap). */
gboolean cf_region_tiles_reach (const CfSpec * spec, int *reach_x,
    int *reach_y);

/* Cuts an inside-mode region list fitted to the frame into tiles.  FALSE
 * (filter the whole frame) for outside mode, no region, planes whose
 * channels cannot be cut at the same byte, or tiles that cover more than
 * half the frame: the one place that choice is made. */
gboolean cf_region_tiles_make (const CfLayout * layout,
    const CfRegions * regions, int reach_x, int reach_y,
    CfRegionTiles * tiles);

/* Host frames: copies the tile's inner samples (whole words) from `tile`
 * (a frame of the tile's layout) to their place in `out` (the frame's). */
void cf_region_tile_copy_inner (const CfRegionTile * t, const CfFrame * tile,
    const CfFrame * out);

/* `frame` (the whole frame's planes) offset to the tile's first sample. */
void cf_region_tile_frame (const CfRegionTile * t, const CfFrame * frame,
    CfFrame * tile_frame);

G_END_DECLS
#endif /* CF_REGION_TILES_H */
