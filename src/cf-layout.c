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
  if (plane >= layout->n_planes)
    layout->n_planes = plane + 1;
  layout->plane_row_bytes[plane] =
      MAX (layout->plane_row_bytes[plane], width * pixel_stride);
  layout->plane_height[plane] = MAX (layout->plane_height[plane], height);
  return TRUE;
}

void
cf_layout_init_interleaved (CfLayout * layout, int width, int height,
    int samples, int sample_bytes, guint filter_mask)
{
  int c;

  g_return_if_fail (samples >= 1 && samples <= CF_MAX_CHANNELS);

  memset (layout, 0, sizeof (*layout));
  layout->sample_bytes = sample_bytes;
  for (c = 0; c < samples; c++)
    cf_layout_add_channel (layout, (filter_mask & (1u << c)) ?
        CF_CHANNEL_FILTER : CF_CHANNEL_COPY, 0, width, height,
        samples * sample_bytes, c * sample_bytes, 0);
}
