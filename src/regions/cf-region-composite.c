/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: puts the input back where the regions leave a host
 * frame unfiltered, after a whole-frame filter. */
#include <stdlib.h>
#include <string.h>
#include "cf-backend-private.h"

/* Channel rectangles of the frame's regions; returns how many. */
int
cf_regions_for_channel (const CfRegions * regions, const CfChannel * ch,
    CfRect * out)
{
  int i, n = 0;

  for (i = 0; i < regions->n_rects && i < CF_REGIONS_MAX; i++) {
    cf_rect_for_channel (&regions->rects[i], regions->frame_width,
        regions->frame_height, ch->width, ch->height, &out[n]);
    if (out[n].w > 0 && out[n].h > 0)
      n++;
  }
  return n;
}

int
cf_layout_copy_jobs (const CfLayout * layout, CfChannel * jobs, int *from)
{
  int n = 0;

  for (int p = 0; p < layout->n_planes; p++) {
    guint8 covered[16] = { 0 };
    const CfChannel *first = NULL;
    gboolean whole = TRUE;
    int ps = 0;

    for (int c = 0; c < layout->n_channels && whole; c++) {
      const CfChannel *ch = &layout->channels[c];

      if (ch->plane != p)
        continue;
      if (first == NULL) {
        first = ch;
        ps = ch->pixel_stride;
      }
      whole = ps > 0 && ps <= 16 && ch->pixel_stride == ps
          && ch->width == first->width && ch->height == first->height
          && ch->offset >= 0 && ch->offset + ch->word_bytes <= ps;
      for (int b = 0; whole && b < ch->word_bytes; b++)
        covered[ch->offset + b] = 1;
    }
    for (int b = 0; whole && b < ps; b++)
      whole = covered[b];
    if (first != NULL && whole) {
      /* One job of whole pixels: every byte belongs to a channel with
       * the same samples, so the same rectangles. */
      jobs[n] = *first;
      jobs[n].offset = 0;
      jobs[n].word_bytes = ps;
      from[n++] = first - layout->channels;
      continue;
    }
    for (int c = 0; c < layout->n_channels; c++)
      if (layout->channels[c].plane == p) {
        jobs[n] = layout->channels[c];
        from[n++] = c;
      }
  }
  return n;
}

typedef struct
{
  int x0, x1;
} Span;

static int
compare_spans (const void *a, const void *b)
{
  const Span *sa = a, *sb = b;

  return sa->x0 < sb->x0 ? -1 : sa->x0 > sb->x0;
}

/* Copies the words of samples x0 .. x1 - 1 of row y.  Words several
 * channels share (RGB10A2) are copied whole: those channels have the same
 * regions, so the word is wholly on one side. */
static void
copy_samples (const CfChannel * ch, const CfFrame * in, const CfFrame * out,
    int y, int x0, int x1)
{
  const guint8 *src = in->data[ch->plane] + (gsize) y * in->stride[ch->plane]
      + ch->offset;
  guint8 *dst = out->data[ch->plane] + (gsize) y * out->stride[ch->plane]
      + ch->offset;
  int x;

  if (ch->pixel_stride == ch->word_bytes) {
    memcpy (dst + (gsize) x0 * ch->word_bytes,
        src + (gsize) x0 * ch->word_bytes, (gsize) (x1 - x0) * ch->word_bytes);
    return;
  }
  for (x = x0; x < x1; x++)
    memcpy (dst + (gsize) x * ch->pixel_stride,
        src + (gsize) x * ch->pixel_stride, ch->word_bytes);
}

static void
composite_channel (const CfChannel * ch, const CfRegions * regions,
    const CfFrame * in, const CfFrame * out)
{
  CfRect rects[CF_REGIONS_MAX];
  Span spans[CF_REGIONS_MAX];
  int n = cf_regions_for_channel (regions, ch, rects);
  gboolean inside = regions->mode == CF_REGION_INSIDE;
  int y, i;

  for (y = 0; y < ch->height; y++) {
    int n_spans = 0, x = 0;

    for (i = 0; i < n; i++)
      if (y >= rects[i].y && y < rects[i].y + rects[i].h) {
        spans[n_spans].x0 = rects[i].x;
        spans[n_spans].x1 = rects[i].x + rects[i].w;
        n_spans++;
      }
    qsort (spans, n_spans, sizeof (Span), compare_spans);
    /* Walk the covered spans in order: copy the gaps (inside) or the
     * spans (outside). */
    for (i = 0; i < n_spans; i++) {
      int x0 = MAX (spans[i].x0, x), x1 = spans[i].x1;

      if (x1 <= x)
        continue;
      if (inside && x0 > x)
        copy_samples (ch, in, out, y, x, x0);
      else if (!inside)
        copy_samples (ch, in, out, y, x0, x1);
      x = x1;
    }
    if (inside && x < ch->width)
      copy_samples (ch, in, out, y, x, ch->width);
  }
}

void
cf_regions_composite (const CfLayout * layout, const CfRegions * regions,
    const CfFrame * in, const CfFrame * out)
{
  CfChannel jobs[CF_MAX_CHANNELS];
  int from[CF_MAX_CHANNELS];
  int n = cf_layout_copy_jobs (layout, jobs, from);

  for (int j = 0; j < n; j++)
    if (jobs[j].width > 0 && jobs[j].height > 0)
      composite_channel (&jobs[j], regions, in, out);
}
