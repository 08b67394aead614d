/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: whether a mapped video frame's planes lie in its memory. */
#ifndef __CUDAFILTER_FRAME_BOUNDS_H__
#define __CUDAFILTER_FRAME_BOUNDS_H__

#include <gst/video/video.h>

G_BEGIN_DECLS

/* TRUE when every plane of `frame` (offset, stride and rows, as its
 * GstVideoMeta or video info says) lies inside the memory it was mapped
 * from; else FALSE with *why (free it) naming the plane and the sizes.
 * gst_video_frame_map checks the size only of buffers without a meta. */
gboolean gst_cuda_filter_frame_in_bounds (const GstVideoFrame * frame,
    gchar ** why);

G_END_DECLS
#endif /* __CUDAFILTER_FRAME_BOUNDS_H__ */
