/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: the rectangles of a frame that are filtered (or left
 * alone), as they travel with each frame: parsed, padded, clipped, merged,
 * and mapped onto each channel's samples. */
#ifndef CF_REGIONS_H
#define CF_REGIONS_H

#include <glib.h>
#include "cf-types.h"
#include "cf-region-types.h"
#include "cf-error.h"

G_BEGIN_DECLS

/* Most rectangles a frame keeps after cf_regions_fit (): beyond, the
 * nearest ones merge into their bounding boxes (more is filtered, nothing
 * is lost).  The CUDA kernels take them by value. */
#define CF_REGIONS_MAX CF_MAX_RECTS

typedef enum
{
  CF_REGION_INSIDE = 0,         /* filter the union of the rectangles */
  CF_REGION_OUTSIDE = 1         /* filter everything else */
} CfRegionMode;

/* A list of rectangles in frame pixels.  The storage grows and is kept:
 * clearing and refilling it every frame allocates nothing once it has
 * held the largest list. */
typedef struct
{
  CfRect *rects;
  int n_rects;
  int capacity;
  CfRegionMode mode;
  int frame_width, frame_height;        /* set by cf_regions_fit () */
} CfRegions;

void cf_regions_init (CfRegions * regions);
/* Frees the storage; the list is empty (and usable) again. */
void cf_regions_reset (CfRegions * regions);
/* Empties the list, keeping its storage and mode. */
void cf_regions_clear (CfRegions * regions);
void cf_regions_add (CfRegions * regions, int x, int y, int w, int h);
/* Appends every rectangle of `from`. */
void cf_regions_append (CfRegions * regions, const CfRegions * from);

/* Parses "x,y,w,h; x,y,w,h" (integers, w and h >= 0, spaces anywhere, an
 * empty text or a trailing ';' allowed) and appends the rectangles.  On a
 * malformed part, appends nothing and the error names that part. */
gboolean cf_regions_parse (const char *text, CfRegions * regions,
    GError ** error);

/* Readies a list for a frame: grows every rectangle by `padding` on each
 * side, clips it to the frame, drops those left empty and, beyond
 * CF_REGIONS_MAX, merges neighbours (in reading order) into their bounding
 * boxes.  Returns the number of merges (0 normally). */
int cf_regions_fit (CfRegions * regions, int padding, int frame_width,
    int frame_height);

/* The samples of a channel of ch_width x ch_height samples (in a frame of
 * frame_width x frame_height pixels) that the frame rectangle `r` covers,
 * rounded outward: subsampled by sx, it covers samples floor(x / sx) ..
 * ceil((x + w) / sx) - 1.  The subsampling is the power of two (1, 2 or 4)
 * that gives the channel's size. */
void cf_rect_for_channel (const CfRect * r, int frame_width,
    int frame_height, int ch_width, int ch_height, CfRect * out);
/* The subsampling factor of a channel of `ch` samples along a frame
 * dimension of `frame` pixels. */
int cf_regions_subsampling (int frame, int ch);

/* Whether channel sample (x, y) lies in one of the (channel) rectangles. */
static inline gboolean
cf_rects_contain (const CfRect * rects, int n, int x, int y)
{
  int i;

  for (i = 0; i < n; i++)
    if (x >= rects[i].x && x < rects[i].x + rects[i].w && y >= rects[i].y
        && y < rects[i].y + rects[i].h)
      return TRUE;
  return FALSE;
}

G_END_DECLS
#endif /* CF_REGIONS_H */
