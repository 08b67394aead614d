/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the engine's CfLayout for a negotiated GstVideoInfo. */
#ifndef __CUDAFILTER_LAYOUT_H__
#define __CUDAFILTER_LAYOUT_H__

#include <gst/video/video.h>
#include "cf-layout.h"

G_BEGIN_DECLS

/* Fills `layout` for frames of `info`.  luma_only: YUV chroma is copied;
 * derivative: YUV chroma is filled with its neutral value (grey edges).
 * Alpha and padding bytes are always copied. */
gboolean gst_cuda_filter_layout_from_info (const GstVideoInfo * info,
    gboolean luma_only, gboolean derivative, CfLayout * layout,
    GError ** error);

/* The frame's planes and strides, as GstVideoFrame maps them (GstVideoMeta
 * strides included). */
void gst_cuda_filter_frame_from_video_frame (const GstVideoFrame * vframe,
    CfFrame * frame);

G_END_DECLS

#endif /* __CUDAFILTER_LAYOUT_H__ */
