/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: cutting a frame's regions into tiles (docs/regions.md,
 * "How it runs"). */
#include <string.h>
#include "cf-region-tiles.h"
#include "cf-backend-private.h"

gboolean
cf_region_tiles_reach (const CfSpec * spec, int *reach_x, int *reach_y)
{
  const CfKernelParams *kp = &spec->kp;

  if (kp->operation != CF_OPERATION_CONVOLVE || kp->border == CF_BORDER_WRAP)
    return FALSE;
  /* The larger reach both ways: asymmetric kernels too. */
  *reach_x = MAX (kp->ax, kp->kw - 1 - kp->ax);
  *reach_y = MAX (kp->ay, kp->kh - 1 - kp->ay);
  return TRUE;
}

/* Start and end of the outer rectangle along one dimension (frame
 * pixels): the region grown by the reach in the most subsampled
 * channel's samples, its start on that channel's sample grid. */
/* Tile sides are rounded up to this (within the frame): regions that
 * move or change size a little, as detectors' do, keep their tiles'
 * shapes, so the backends' per-shape plans are reused, not remade. */
#define TILE_STEP 16

static void
outer_span (int r0, int r1, int frame, int reach, int s, int *o0, int *o1)
{
  *o0 = MAX (0, r0 - reach * s) / s * s;
  *o1 = MIN (frame, r1 + reach * s);
  *o1 = MIN (frame, *o0 + (*o1 - *o0 + TILE_STEP - 1) / TILE_STEP *
      TILE_STEP);
}

/* The channel samples of frame pixels o0 .. o1 (o0 on the sample grid):
 * at the frame's far edge all the channel has. */
static void
channel_span (int o0, int o1, int frame, int s, int ch, int *c0, int *c1)
{
  *c0 = MIN (o0 / s, ch);
  *c1 = o1 == frame ? ch : MIN ((o1 + s - 1) / s, ch);
}

static gboolean
make_tile (const CfLayout * layout, const CfRegions * regions,
    const CfRect * r, int reach_x, int reach_y, int max_sx, int max_sy,
    CfRegionTile * t)
{
  const int fw = regions->frame_width, fh = regions->frame_height;
  int max_row[CF_MAX_PLANES] = { 0 }, max_h[CF_MAX_PLANES] = { 0 };
  gboolean seen[CF_MAX_PLANES] = { FALSE };
  int x0, x1, y0, y1, c, p;

  memset (t, 0, sizeof (*t));
  t->inner = *r;
  outer_span (r->x, r->x + r->w, fw, reach_x, max_sx, &x0, &x1);
  outer_span (r->y, r->y + r->h, fh, reach_y, max_sy, &y0, &y1);
  t->outer.x = x0;
  t->outer.y = y0;
  t->outer.w = x1 - x0;
  t->outer.h = y1 - y0;
  t->layout = *layout;
  for (c = 0; c < layout->n_channels; c++) {
    const CfChannel *ch = &layout->channels[c];
    CfChannel *tc = &t->layout.channels[c];
    int sx = cf_regions_subsampling (fw, ch->width);
    int sy = cf_regions_subsampling (fh, ch->height);
    int cx0, cx1, cy0, cy1, bx;
    CfRect in;

    p = ch->plane;
    if (p < 0 || p >= layout->n_planes)
      return FALSE;
    channel_span (x0, x1, fw, sx, ch->width, &cx0, &cx1);
    channel_span (y0, y1, fh, sy, ch->height, &cy0, &cy1);
    /* The channels of a plane must start at the same byte and row: one
     * offset per plane moves them all. */
    bx = cx0 * ch->pixel_stride;
    if (seen[p] && (t->plane_x[p] != bx || t->plane_y[p] != cy0))
      return FALSE;
    seen[p] = TRUE;
    t->plane_x[p] = bx;
    t->plane_y[p] = cy0;
    tc->width = cx1 - cx0;
    tc->height = cy1 - cy0;
    max_row[p] = MAX (max_row[p], tc->width * ch->pixel_stride);
    max_h[p] = MAX (max_h[p], tc->height);
    cf_rect_for_channel (r, fw, fh, ch->width, ch->height, &in);
    if (in.w > 0 && in.h > 0) {
      t->inner_ch[c].x = in.x - cx0;
      t->inner_ch[c].y = in.y - cy0;
      t->inner_ch[c].w = in.w;
      t->inner_ch[c].h = in.h;
    }
  }
  for (p = 0; p < layout->n_planes; p++) {
    t->layout.plane_row_bytes[p] = MIN (layout->plane_row_bytes[p] -
        t->plane_x[p], max_row[p]);
    t->layout.plane_height[p] = MIN (layout->plane_height[p] -
        t->plane_y[p], max_h[p]);
    if (t->layout.plane_row_bytes[p] < 0 || t->layout.plane_height[p] < 0)
      return FALSE;
  }
  return TRUE;
}

gboolean
cf_region_tiles_make (const CfLayout * layout, const CfRegions * regions,
    int reach_x, int reach_y, CfRegionTiles * tiles)
{
  gint64 area = 0;
  int max_sx = 1, max_sy = 1, i, c;

  tiles->n = 0;
  if (regions == NULL || regions->mode != CF_REGION_INSIDE
      || regions->n_rects <= 0 || regions->frame_width <= 0
      || regions->frame_height <= 0)
    return FALSE;
  for (c = 0; c < layout->n_channels; c++) {
    max_sx = MAX (max_sx, cf_regions_subsampling (regions->frame_width,
            layout->channels[c].width));
    max_sy = MAX (max_sy, cf_regions_subsampling (regions->frame_height,
            layout->channels[c].height));
  }
  for (i = 0; i < regions->n_rects && i < CF_REGIONS_MAX; i++) {
    const CfRect *r = &regions->rects[i];
    CfRegionTile *t = &tiles->tiles[tiles->n];

    if (r->w <= 0 || r->h <= 0)
      continue;
    if (!make_tile (layout, regions, r, reach_x, reach_y, max_sx, max_sy, t)) {
      tiles->n = 0;
      return FALSE;
    }
    area += (gint64) t->outer.w * t->outer.h;
    tiles->n++;
  }
  /* Tiles that overlap or cover much of the frame cost more than the
   * frame: filter it whole. */
  if (tiles->n == 0 || area * 2 > (gint64) regions->frame_width *
      regions->frame_height) {
    tiles->n = 0;
    return FALSE;
  }
  return TRUE;
}

void
cf_region_tile_frame (const CfRegionTile * t, const CfFrame * frame,
    CfFrame * tile_frame)
{
  *tile_frame = *frame;
  for (int p = 0; p < t->layout.n_planes; p++)
    tile_frame->data[p] = frame->data[p] + (gsize) t->plane_y[p] *
        frame->stride[p] + t->plane_x[p];
}

void
cf_region_tile_copy_inner (const CfRegionTile * t, const CfFrame * tile,
    const CfFrame * out)
{
  CfFrame dst;

  CfChannel jobs[CF_MAX_CHANNELS];
  int from[CF_MAX_CHANNELS];
  int n = cf_layout_copy_jobs (&t->layout, jobs, from);

  cf_region_tile_frame (t, out, &dst);
  for (int j = 0; j < n; j++) {
    const CfChannel *ch = &jobs[j];
    const CfRect *r = &t->inner_ch[from[j]];
    int p = ch->plane;

    /* Whole words: channels that share one (RGB10A2) share their
     * regions, so the word is wholly inside. */
    for (int y = r->y; y < r->y + r->h; y++) {
      const guint8 *s = tile->data[p] + (gsize) y * tile->stride[p] +
          ch->offset;
      guint8 *d = dst.data[p] + (gsize) y * dst.stride[p] + ch->offset;

      if (ch->pixel_stride == ch->word_bytes) {
        memcpy (d + (gsize) r->x * ch->word_bytes,
            s + (gsize) r->x * ch->word_bytes, (gsize) r->w * ch->word_bytes);
        continue;
      }
      for (int x = r->x; x < r->x + r->w; x++)
        memcpy (d + (gsize) x * ch->pixel_stride,
            s + (gsize) x * ch->pixel_stride, ch->word_bytes);
    }
  }
}
