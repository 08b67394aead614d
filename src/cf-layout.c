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
  for (c = 0; c < samples; c++)
    cf_layout_add_channel (layout, (filter_mask & (1u << c)) ?
        CF_CHANNEL_FILTER : CF_CHANNEL_COPY, 0, width, height,
        samples * sample_bytes, c * sample_bytes, 0);
}
