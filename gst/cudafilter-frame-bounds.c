/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: whether a mapped video frame's planes lie in its memory. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudafilter-frame-bounds.h"

/* Bytes of the widest row of `plane`: each of its components' width times
 * its pixel stride. */
static guint64
row_bytes (const GstVideoFrame * frame, guint plane, guint * rows)
{
  const GstVideoFormatInfo *finfo = frame->info.finfo;
  guint64 bytes = 0;
  guint c;

  *rows = 0;
  for (c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo); c++) {
    if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) != plane)
      continue;
    bytes = MAX (bytes, (guint64) GST_VIDEO_FRAME_COMP_WIDTH (frame, c) *
        ABS (GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c)));
    *rows = MAX (*rows, (guint) GST_VIDEO_FRAME_COMP_HEIGHT (frame, c));
  }
  return bytes;
}

gboolean
gst_cuda_filter_frame_in_bounds (const GstVideoFrame * frame, gchar ** why)
{
  guint p;

  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (frame); p++) {
    const GstMapInfo *map = &frame->map[p];
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
    guint64 start, need, row;
    guint rows;

    /* Without a meta the whole buffer is one map (map[0]), which
     * gst_video_frame_map checked against the video info. */
    if (frame->meta == NULL && p > 0)
      map = &frame->map[0];
    row = row_bytes (frame, p, &rows);
    if (rows == 0)
      continue;
    start = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (frame, p) - map->data;
    need = start + (guint64) stride * (rows - 1) + row;
    if (stride < 0 || (guint64) stride < row || need > map->size) {
      *why = g_strdup_printf ("plane %u (offset %" G_GSIZE_FORMAT ", stride "
          "%d, %u rows of %" G_GUINT64_FORMAT " bytes) needs %"
          G_GUINT64_FORMAT " bytes of its memory, which holds %"
          G_GSIZE_FORMAT, p, GST_VIDEO_FRAME_PLANE_OFFSET (frame, p), stride,
          rows, row, need, map->size);
      return FALSE;
    }
  }
  return TRUE;
}
