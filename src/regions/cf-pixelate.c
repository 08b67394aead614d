/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: the pixelate filter on host frames, for every CPU
 * backend: each block the round-half-up mean of its samples (the CUDA
 * kernel, kernels/cf-region.cu, computes the same integers). */
#include <string.h>
#include "cf-backend-private.h"
#include "cf-sample.h"

static inline const guint8 *
sample_at (const CfFrame * f, const CfChannel * ch, int x, int y)
{
  return f->data[ch->plane] + (gsize) y * f->stride[ch->plane]
      + (gsize) x * ch->pixel_stride + ch->offset;
}

/* Block size in a channel's samples: the pixel block over its
 * subsampling, at least 1. */
int
cf_pixelate_block_for (int block, int frame, int ch)
{
  return MAX (1, block / cf_regions_subsampling (frame, ch));
}

/* Blocks of bx x by samples from the rectangle's top-left corner; those
 * cut by its right or bottom edge average what they cover.  Copied and
 * filled channels are copied and filled there, as a whole-frame filter
 * does. */
static void
pixelate_rect (const CfChannel * ch, const CfFrame * in, const CfFrame * out,
    const CfRect * r, int bx, int by)
{
  int x0, y0, x, y;

  for (y0 = r->y; y0 < r->y + r->h; y0 += by) {
    int y1 = MIN (y0 + by, r->y + r->h);

    for (x0 = r->x; x0 < r->x + r->w; x0 += bx) {
      int x1 = MIN (x0 + bx, r->x + r->w);
      guint64 sum = 0, n = (guint64) (x1 - x0) * (y1 - y0);
      int mean;

      for (y = y0; y < y1; y++)
        for (x = x0; x < x1; x++)
          if (ch->mode == CF_CHANNEL_COPY)
            cf_sample_write ((guint8 *) sample_at (out, ch, x, y), ch,
                cf_sample_read (sample_at (in, ch, x, y), ch));
          else
            sum += cf_sample_read (sample_at (in, ch, x, y), ch);
      if (ch->mode == CF_CHANNEL_COPY)
        continue;
      mean = ch->mode == CF_CHANNEL_FILL ? ch->fill_value :
          (int) ((sum + n / 2) / n);
      for (y = y0; y < y1; y++)
        for (x = x0; x < x1; x++)
          cf_sample_write ((guint8 *) sample_at (out, ch, x, y), ch, mean);
    }
  }
}

/* The input's words, as they are (what a region leaves alone). */
static void
copy_words (const CfChannel * ch, const CfFrame * in, const CfFrame * out)
{
  int x, y;

  for (y = 0; y < ch->height; y++)
    for (x = 0; x < ch->width; x++)
      memcpy ((guint8 *) sample_at (out, ch, x, y), sample_at (in, ch, x, y),
          ch->word_bytes);
}

void
cf_pixelate_frame (const CfLayout * layout, int block,
    const CfRegions * regions, const CfFrame * in, const CfFrame * out)
{
  gboolean in_regions = regions && regions->mode == CF_REGION_INSIDE;
  int c, i, fw = 0, fh = 0;

  /* The frame's size is its widest channel's (the layout has no other). */
  for (c = 0; c < layout->n_channels; c++) {
    fw = MAX (fw, layout->channels[c].width);
    fh = MAX (fh, layout->channels[c].height);
  }
  if (regions) {
    fw = regions->frame_width;
    fh = regions->frame_height;
  }
  block = MAX (block, 1);

  /* Inside regions: the input everywhere first (whole words, before any
   * channel writes its bits of a shared one), then each region's blocks
   * from the input, in list order. */
  for (c = 0; c < layout->n_channels && in_regions; c++) {
    const CfChannel *ch = &layout->channels[c];

    if (ch->width > 0 && ch->height > 0)
      copy_words (ch, in, out);
  }
  for (c = 0; c < layout->n_channels; c++) {
    const CfChannel *ch = &layout->channels[c];
    int bx = cf_pixelate_block_for (block, fw, ch->width);
    int by = cf_pixelate_block_for (block, fh, ch->height);

    if (ch->width <= 0 || ch->height <= 0)
      continue;
    if (in_regions) {
      CfRect rects[CF_REGIONS_MAX];
      int n = cf_regions_for_channel (regions, ch, rects);

      for (i = 0; i < n; i++)
        pixelate_rect (ch, in, out, &rects[i], bx, by);
    } else {
      CfRect whole = { 0, 0, ch->width, ch->height };

      pixelate_rect (ch, in, out, &whole, bx, by);
    }
  }
  if (regions && !in_regions)
    cf_regions_composite (layout, regions, in, out);
}
