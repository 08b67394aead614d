/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: per-frame statistics as properties and element messages. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcudafilter.h"
#include "cudafilter-stats.h"

#define DEFAULT_POST_STATS FALSE
#define DEFAULT_STATS_INTERVAL 30

enum
{
  STATS_PROP_FRAMES_PROCESSED,
  STATS_PROP_GPU_TIME,
  STATS_PROP_LAST_FRAME_TIME,
  STATS_PROP_POST_STATS,
  STATS_PROP_STATS_INTERVAL,
  STATS_PROP_FILTER_TIME,
  N_STATS_PROPS
};

/* Offset of our ids among the element's: set once in class_init. */
static guint prop_base;

void
gst_cuda_filter_stats_install_properties (GObjectClass * klass,
    guint first_prop_id)
{
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  prop_base = first_prop_id;

  g_object_class_install_property (klass,
      prop_base + STATS_PROP_FRAMES_PROCESSED,
      g_param_spec_uint64 ("frames-processed", "Frames processed",
          "Frames filtered and pushed on since the element last started "
          "(READY to PAUSED); read-only, for every filter",
          0, G_MAXUINT64, 0, ro));

  g_object_class_install_property (klass, prop_base + STATS_PROP_FILTER_TIME,
      g_param_spec_double ("filter-time", "Filter time",
          "Filtering time of the last frame in microseconds: GPU time of its "
          "kernels with the CUDA backend, wall-clock time of the filtering "
          "with the CPU backend; copies excluded; 0 before the first frame; "
          "read-only",
          0.0, G_MAXDOUBLE, 0.0, ro));

  /* The first name of filter-time, which it is on either backend: kept so
   * that applications reading it go on working. */
  g_object_class_install_property (klass, prop_base + STATS_PROP_GPU_TIME,
      g_param_spec_double ("gpu-time", "GPU time (deprecated)",
          "Deprecated: the same value as filter-time, which is not GPU time "
          "with the CPU backend; read filter-time instead",
          0.0, G_MAXDOUBLE, 0.0, ro | G_PARAM_DEPRECATED));

  g_object_class_install_property (klass,
      prop_base + STATS_PROP_LAST_FRAME_TIME,
      g_param_spec_double ("last-frame-time", "Last frame time",
          "Microseconds from submitting the last frame to its output being "
          "ready: upload, filtering, download and waiting behind earlier "
          "frames in flight; 0 before the first frame; read-only",
          0.0, G_MAXDOUBLE, 0.0, ro));

  g_object_class_install_property (klass, prop_base + STATS_PROP_POST_STATS,
      g_param_spec_boolean ("post-stats", "Post statistics",
          "Post an element message named \"" GST_CUDA_FILTER_STATS_MESSAGE
          "\" on the bus every stats-interval frames, with fields frames "
          "(guint64), kernel-us (filter-time) and frame-us "
          "(last-frame-time) (gdouble, last frame), "
          "mean-kernel-us and mean-frame-us (gdouble, over the interval) "
          "and backend (string)",
          DEFAULT_POST_STATS, rw));

  g_object_class_install_property (klass,
      prop_base + STATS_PROP_STATS_INTERVAL,
      g_param_spec_uint ("stats-interval", "Statistics interval",
          "Frames between two statistics messages (see post-stats)",
          1, G_MAXUINT, DEFAULT_STATS_INTERVAL, rw));
}

void
gst_cuda_filter_stats_init (GstCudaFilter * self)
{
  memset (&self->stats, 0, sizeof (self->stats));
  self->stats.post = DEFAULT_POST_STATS;
  self->stats.interval = DEFAULT_STATS_INTERVAL;
}

void
gst_cuda_filter_stats_reset (GstCudaFilter * self)
{
  GST_OBJECT_LOCK (self);
  self->stats.frames = 0;
  self->stats.kernel_us = self->stats.frame_us = 0.0;
  self->stats.kernel_us_sum = self->stats.frame_us_sum = 0.0;
  self->stats.summed = 0;
  GST_OBJECT_UNLOCK (self);
}

gboolean
gst_cuda_filter_stats_set_property (GstCudaFilter * self, guint prop_id,
    const GValue * value)
{
  if (prop_id < prop_base || prop_id >= prop_base + N_STATS_PROPS)
    return FALSE;

  GST_OBJECT_LOCK (self);
  switch (prop_id - prop_base) {
    case STATS_PROP_POST_STATS:
      self->stats.post = g_value_get_boolean (value);
      break;
    case STATS_PROP_STATS_INTERVAL:
      self->stats.interval = g_value_get_uint (value);
      break;
    default:
      /* Read-only: GObject refuses writes before we are called. */
      break;
  }
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

gboolean
gst_cuda_filter_stats_get_property (GstCudaFilter * self, guint prop_id,
    GValue * value)
{
  if (prop_id < prop_base || prop_id >= prop_base + N_STATS_PROPS)
    return FALSE;

  GST_OBJECT_LOCK (self);
  switch (prop_id - prop_base) {
    case STATS_PROP_FRAMES_PROCESSED:
      g_value_set_uint64 (value, self->stats.frames);
      break;
    case STATS_PROP_FILTER_TIME:
    case STATS_PROP_GPU_TIME:
      g_value_set_double (value, self->stats.kernel_us);
      break;
    case STATS_PROP_LAST_FRAME_TIME:
      g_value_set_double (value, self->stats.frame_us);
      break;
    case STATS_PROP_POST_STATS:
      g_value_set_boolean (value, self->stats.post);
      break;
    case STATS_PROP_STATS_INTERVAL:
      g_value_set_uint (value, self->stats.interval);
      break;
    default:
      g_assert_not_reached ();
  }
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

void
gst_cuda_filter_stats_frame_done (GstCudaFilter * self)
{
  CfBackendStats bs;
  GstCudaFilterStats *st = &self->stats;
  GstStructure *s = NULL;

  cf_backend_get_stats (self->backend, &bs);

  GST_OBJECT_LOCK (self);
  st->frames++;
  st->kernel_us = bs.last_kernel_us;
  st->frame_us = bs.last_frame_us;
  st->kernel_us_sum += bs.last_kernel_us;
  st->frame_us_sum += bs.last_frame_us;
  st->summed++;
  if (st->post && st->interval > 0 && st->frames % st->interval == 0) {
    s = gst_structure_new (GST_CUDA_FILTER_STATS_MESSAGE,
        "frames", G_TYPE_UINT64, st->frames,
        "kernel-us", G_TYPE_DOUBLE, st->kernel_us,
        "frame-us", G_TYPE_DOUBLE, st->frame_us,
        "mean-kernel-us", G_TYPE_DOUBLE, st->kernel_us_sum / st->summed,
        "mean-frame-us", G_TYPE_DOUBLE, st->frame_us_sum / st->summed,
        "backend", G_TYPE_STRING, cf_backend_describe (self->backend), NULL);
  }
  if (s != NULL || st->summed >= st->interval) {
    st->kernel_us_sum = st->frame_us_sum = 0.0;
    st->summed = 0;
  }
  GST_OBJECT_UNLOCK (self);

  /* Posted outside the lock: a bus sync handler may read our properties. */
  if (s != NULL)
    gst_element_post_message (GST_ELEMENT (self),
        gst_message_new_element (GST_OBJECT (self), s));
}
