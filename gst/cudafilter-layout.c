/* cudafilter: GstVideoInfo to CfLayout, generically from GstVideoFormatInfo
 * so every format is described by the same few rules: one channel job per
 * component, plus a copy job for every byte of a pixel that no component
 * covers (the x of RGBx). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "cudafilter-layout.h"
#include "cf-error.h"

static gboolean
add_channel (CfLayout * layout, const GstVideoInfo * info, CfChannelMode mode,
    int plane, int width, int height, int pstride, int offset, int fill,
    GError ** error)
{
  if (cf_layout_add_channel (layout, mode, plane, width, height, pstride,
          offset, fill))
    return TRUE;

  g_set_error (error, CF_ERROR, CF_ERROR_UNSUPPORTED,
      "Format %s has more channels than the filter supports (%d)",
      GST_VIDEO_INFO_NAME (info), CF_MAX_CHANNELS);
  return FALSE;
}

gboolean
gst_cuda_filter_layout_from_info (const GstVideoInfo * info,
    gboolean luma_only, gboolean derivative, CfLayout * layout, GError ** error)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  guint n_comps = GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo);
  gboolean is_yuv = GST_VIDEO_FORMAT_INFO_IS_YUV (finfo);
  int depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0);
  int sample_bytes = (depth + 7) / 8;
  guint c, p;

  if ((sample_bytes != 1 && sample_bytes != 2) ||
      GST_VIDEO_INFO_N_PLANES (info) > CF_MAX_PLANES ||
      GST_VIDEO_FORMAT_INFO_IS_TILED (finfo) ||
      (sample_bytes == 2 && !GST_VIDEO_FORMAT_INFO_IS_LE (finfo)
          && G_BYTE_ORDER == G_LITTLE_ENDIAN)) {
    g_set_error (error, CF_ERROR, CF_ERROR_UNSUPPORTED,
        "Format %s is not supported", GST_VIDEO_INFO_NAME (info));
    return FALSE;
  }

  memset (layout, 0, sizeof (*layout));
  layout->sample_bytes = sample_bytes;
  layout->n_planes = GST_VIDEO_INFO_N_PLANES (info);

  for (c = 0; c < n_comps; c++) {
    int plane = GST_VIDEO_FORMAT_INFO_PLANE (finfo, c);
    int pstride = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c);
    int offset = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c);
    int w = GST_VIDEO_INFO_COMP_WIDTH (info, c);
    int h = GST_VIDEO_INFO_COMP_HEIGHT (info, c);
    CfChannelMode mode = CF_CHANNEL_FILTER;
    int fill = 0;

    if (c == GST_VIDEO_COMP_A) {
      mode = CF_CHANNEL_COPY;
    } else if (is_yuv && (c == GST_VIDEO_COMP_U || c == GST_VIDEO_COMP_V)) {
      if (luma_only) {
        mode = CF_CHANNEL_COPY;
      } else if (derivative) {
        mode = CF_CHANNEL_FILL;
        fill = 1 << (GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c) - 1);
      }
    }

    if (!add_channel (layout, info, mode, plane, w, h, pstride, offset, fill,
            error))
      return FALSE;

    layout->plane_row_bytes[plane] = MAX (layout->plane_row_bytes[plane],
        w * pstride);
    layout->plane_height[plane] = MAX (layout->plane_height[plane], h);
  }

  /* Bytes of a pixel that carry no component (padding) pass through. */
  for (p = 0; p < (guint) layout->n_planes; p++) {
    int pstride = 0, width = 0, height = 0, b;
    guint8 covered[16] = { 0 };

    for (c = 0; c < n_comps; c++) {
      int i;

      if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) != p)
        continue;
      pstride = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c);
      width = GST_VIDEO_INFO_COMP_WIDTH (info, c);
      height = GST_VIDEO_INFO_COMP_HEIGHT (info, c);
      for (i = 0; i < sample_bytes; i++) {
        int byte = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c) + i;
        if (byte < (int) sizeof (covered))
          covered[byte] = 1;
      }
    }
    if (pstride <= 0 || pstride > (int) sizeof (covered) ||
        pstride % sample_bytes != 0)
      continue;

    for (b = 0; b < pstride; b += sample_bytes) {
      if (!covered[b] && !add_channel (layout, info, CF_CHANNEL_COPY, p,
              width, height, pstride, b, 0, error))
        return FALSE;
    }
  }

  return TRUE;
}

void
gst_cuda_filter_frame_from_video_frame (const GstVideoFrame * vframe,
    CfFrame * frame)
{
  guint p;

  memset (frame, 0, sizeof (*frame));
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (vframe) && p < CF_MAX_PLANES; p++) {
    frame->data[p] = GST_VIDEO_FRAME_PLANE_DATA (vframe, p);
    frame->stride[p] = GST_VIDEO_FRAME_PLANE_STRIDE (vframe, p);
  }
}
