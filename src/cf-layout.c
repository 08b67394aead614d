/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: frame layouts. */
#include <string.h>
#include "cf-layout.h"

gboolean
cf_layout_add_channel (CfLayout * layout, CfChannelMode mode, int plane,
    int width, int height, int pixel_stride, int offset, int fill_value)
{
  CfChannel *ch;

  g_return_val_if_fail (plane >= 0 && plane < CF_MAX_PLANES, FALSE);
  if (layout->n_channels >= CF_MAX_CHANNELS)
    return FALSE;

  ch = &layout->channels[layout->n_channels++];
  ch->mode = mode;
  ch->plane = plane;
  ch->width = width;
  ch->height = height;
  ch->pixel_stride = pixel_stride;
  ch->offset = offset;
  ch->fill_value = fill_value;
  ch->word_bytes = layout->sample_bytes;
  ch->depth = 8 * layout->sample_bytes;
  ch->shift = 0;
  ch->shared_word = 0;
  if (plane >= layout->n_planes)
    layout->n_planes = plane + 1;
  /* Bytes up to the channel's last sample, also for a channel starting
   * inside a row (the padding sample of an odd-width YUY2 row). */
  layout->plane_row_bytes[plane] = MAX (layout->plane_row_bytes[plane],
      MAX (width * pixel_stride, offset + (width - 1) * pixel_stride +
          layout->sample_bytes));
  layout->plane_height[plane] = MAX (layout->plane_height[plane], height);
  return TRUE;
}

gboolean
cf_layout_set_encoding (CfLayout * layout, int word_bytes, int depth,
    int shift, gboolean shared_word)
{
  CfChannel *ch;

  g_return_val_if_fail (layout->n_channels > 0, FALSE);
  if ((word_bytes != 1 && word_bytes != 2 && word_bytes != 4) || depth < 1
      || depth > 16 || shift < 0 || shift + depth > 8 * word_bytes
      || (shared_word && word_bytes != 4))
    return FALSE;

  ch = &layout->channels[layout->n_channels - 1];
  ch->word_bytes = word_bytes;
  ch->depth = depth;
  ch->shift = shift;
  ch->shared_word = shared_word ? 1 : 0;
  return TRUE;
}

int
cf_layout_depth (const CfLayout * layout)
{
  return layout->depth > 0 ? layout->depth : 8 * layout->sample_bytes;
}

void
cf_layout_init_interleaved (CfLayout * layout, int width, int height,
    int samples, int sample_bytes, guint filter_mask)
{
  int c;

  g_return_if_fail (samples >= 1 && samples <= CF_MAX_CHANNELS);

  memset (layout, 0, sizeof (*layout));
  layout->sample_bytes = sample_bytes;
  layout->depth = 8 * sample_bytes;
  layout->colour = samples >= 3;
  for (c = 0; c < samples; c++)
    cf_layout_add_channel (layout, (filter_mask & (1u << c)) ?
        CF_CHANNEL_FILTER : CF_CHANNEL_COPY, 0, width, height,
        samples * sample_bytes, c * sample_bytes, 0);
}

int
cf_layout_colour_groups (const CfLayout * layout,
    int groups[CF_MAX_CHANNELS][3])
{
  int c, largest = 1;

  for (c = 0; c < layout->n_channels; c++) {
    const CfChannel *ch = &layout->channels[c];
    int members[3], n = 0, i, j;

    groups[c][0] = c;
    groups[c][1] = groups[c][2] = -1;
    if (!layout->colour || ch->mode != CF_CHANNEL_FILTER)
      continue;
    /* The three filtered channels of the plane with the lowest offsets
     * (RGB10A2's share one word: then in the layout's order). */
    for (i = 0; i < layout->n_channels; i++) {
      const CfChannel *o = &layout->channels[i];
      int rank = 0;

      if (o->mode != CF_CHANNEL_FILTER || o->plane != ch->plane
          || o->width != ch->width || o->height != ch->height
          || o->pixel_stride != ch->pixel_stride)
        continue;
      for (j = 0; j < layout->n_channels; j++) {
        const CfChannel *q = &layout->channels[j];

        if (q->mode == CF_CHANNEL_FILTER && q->plane == ch->plane
            && q->width == ch->width && q->height == ch->height
            && q->pixel_stride == ch->pixel_stride && (q->offset < o->offset
                || (q->offset == o->offset && j < i)))
          rank++;
      }
      if (rank < 3)
        members[rank] = i, n++;
    }
    if (n < 3)
      continue;
    if (c != members[0] && c != members[1] && c != members[2])
      continue;
    for (i = 0; i < 3; i++)
      groups[c][i] = members[i];
    largest = 3;
  }
  return largest;
}
