/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the element's regions: the regions, roi-types, roi-padding
 * and region-mode properties, and each buffer's list of rectangles from
 * them and from its metadata (GstVideoRegionOfInterestMeta, and on
 * GStreamer >= 1.24 analytics object detections). */
#ifndef __CUDAFILTER_REGIONS_H__
#define __CUDAFILTER_REGIONS_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/base/gstbasetransform.h>
#include "cf-regions.h"

G_BEGIN_DECLS

typedef struct _GstCudaFilter GstCudaFilter;

/* Lives in GstCudaFilter. */
typedef struct
{
  /* Settings, under the object lock. */
  gchar *text;                  /* regions, as set */
  CfRegions fixed;              /* parsed from it */
  gchar *types_text;            /* roi-types, as set */
  gchar **types;                /* parsed; NULL: metadata ignored */
  gboolean all_types;           /* "*" */
  guint padding;
  CfRegionMode mode;

  /* The streaming thread's: the list of the frame being submitted,
   * refilled for each frame in storage that is kept. */
  CfRegions frame;
  gboolean merge_warned;
} GstCudaFilterRegions;

#define GST_TYPE_CUDA_FILTER_REGION_MODE \
  (gst_cuda_filter_region_mode_get_type ())
GType gst_cuda_filter_region_mode_get_type (void);

/* Installs regions, roi-types, roi-padding and region-mode with ids from
 * `first_prop_id` upward. */
void gst_cuda_filter_regions_install_properties (GObjectClass * klass,
    guint first_prop_id);
void gst_cuda_filter_regions_init (GstCudaFilter * self);
void gst_cuda_filter_regions_finalize (GstCudaFilter * self);
/* FALSE when prop_id is not a region property. */
gboolean gst_cuda_filter_regions_set_property (GstCudaFilter * self,
    guint prop_id, const GValue * value, GParamSpec * pspec);
gboolean gst_cuda_filter_regions_get_property (GstCudaFilter * self,
    guint prop_id, GValue * value);
/* What the property takes, for the refusal warning (NULL: not ours). */
const gchar *gst_cuda_filter_regions_accepted (guint prop_id);

/* Streaming thread: the regions of `buffer` (a frame of `info`), fitted
 * to the frame, or NULL to filter the whole frame (neither regions nor
 * roi-types set, or outside mode with nothing to leave out).  Valid until
 * the next call. */
const CfRegions *gst_cuda_filter_regions_for_buffer (GstCudaFilter * self,
    GstBuffer * buffer, const GstVideoInfo * info);
/* Whether a frame with these regions leaves the element as it came (inside
 * mode, no region). */
gboolean gst_cuda_filter_regions_none (const CfRegions * regions);
/* Whether a meta of this API is kept on the output (the frame keeps its
 * size, so regions stay where they were). */
gboolean gst_cuda_filter_regions_keep_meta (GType api);

/* GstBaseTransform.transform_meta: keeps region metas, else as
 * GstVideoFilter does. */
gboolean gst_cuda_filter_regions_transform_meta (GstBaseTransform * trans,
    GstBuffer * outbuf, GstMeta * meta, GstBuffer * inbuf);
/* Whether a system-memory input buffer holds what its video meta says (as
 * every frame read is checked): one passed on untouched too.  Posts the
 * error otherwise. */
gboolean gst_cuda_filter_regions_input_in_bounds (GstCudaFilter * self,
    GstBuffer * buffer, const GstVideoInfo * info);
/* Whether an input buffer may leave as the output (both pads carry the
 * same memory). */
gboolean gst_cuda_filter_regions_can_pass (GstCudaFilter * self);
/* Whether the frame may be filtered in its own buffer (the output is the
 * input, only the regions written): the engine runs these regions in
 * place (cf_backend_regions_in_place), both pads carry the same caps
 * and memory, and only this element holds the buffer.  The untouched
 * rest of the frame is then neither copied nor, from system memory,
 * moved across PCIe. */
gboolean gst_cuda_filter_regions_in_place (GstCudaFilter * self,
    const CfRegions * regions, GstBuffer * inbuf);

G_END_DECLS

#endif /* __CUDAFILTER_REGIONS_H__ */
