/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: statistics a user can read (properties) or receive (element
 * messages) to tell whether filtering keeps up. */
#ifndef __GST_CUDA_FILTER_STATS_H__
#define __GST_CUDA_FILTER_STATS_H__

#include <gst/gst.h>

G_BEGIN_DECLS

typedef struct _GstCudaFilter GstCudaFilter;

/* Lives in GstCudaFilter, under its object lock. */
typedef struct
{
  guint64 frames;               /* completed since the element started */
  gdouble kernel_us;            /* last frame */
  gdouble frame_us;
  gdouble kernel_us_sum;        /* since the last message */
  gdouble frame_us_sum;
  guint summed;
  gboolean post;                /* post-stats */
  guint interval;               /* stats-interval */
} GstCudaFilterStats;

#define GST_CUDA_FILTER_STATS_MESSAGE "cudafilter-stats"

/* Installs frames-processed, filter-time (and its old name gpu-time),
 * last-frame-time, post-stats and stats-interval with ids from
 * `first_prop_id` upward. */
void gst_cuda_filter_stats_install_properties (GObjectClass * klass,
    guint first_prop_id);
void gst_cuda_filter_stats_init (GstCudaFilter * self);
/* Counters back to 0 (when the element starts). */
void gst_cuda_filter_stats_reset (GstCudaFilter * self);
/* FALSE when prop_id is not a statistics property. */
gboolean gst_cuda_filter_stats_set_property (GstCudaFilter * self,
    guint prop_id, const GValue * value);
gboolean gst_cuda_filter_stats_get_property (GstCudaFilter * self,
    guint prop_id, GValue * value);
/* Streaming thread, once per frame whose output is complete. */
void gst_cuda_filter_stats_frame_done (GstCudaFilter * self);

G_END_DECLS

#endif /* __GST_CUDA_FILTER_STATS_H__ */
