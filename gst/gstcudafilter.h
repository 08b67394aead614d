/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the element. */
#ifndef __GST_CUDA_FILTER_H__
#define __GST_CUDA_FILTER_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>

#include "cf-backend.h"
#include "cudafilter-enums.h"
#include "cudafilter-stats.h"
#include "cudafilter-regions.h"

G_BEGIN_DECLS

/* libgstcuda's context (gst/cuda/gstcudacontext.h); only
 * cudafilter-cuda-memory.c, which builds without libgstcuda too, looks
 * inside. */
typedef struct _GstCudaContext GstCudaContext;
typedef struct _GstCudaStream GstCudaStream;

#define GST_TYPE_CUDA_FILTER (gst_cuda_filter_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaFilter, gst_cuda_filter, GST, CUDA_FILTER,
    GstVideoFilter);

/* The properties: set_property's and get_property's (gstcudafilter.c),
 * under the object lock; the streaming thread reads them under it at
 * start and when `dirty` says they changed. */
typedef struct
{
  CfParams params;              /* params.kernel points at `kernel` */
  gchar *kernel;
  GstCudaFilterPlanes planes;
  GstCudaFilterBackend backend_choice;
  gint device_id;
  guint frames_in_flight;       /* 0 = auto: 1 when live, else 4 */
  guint cpu_threads;            /* 0 = one per core */
  gboolean dirty;               /* spec and layout must be rebuilt */
  guint settings_batch;         /* > 0: a preset is being applied; the
                                 * stream keeps its spec until it is whole */
  gboolean qos_set;             /* the application set the qos property:
                                 * never overridden */
  GQueue refusals;              /* gchar *: refused values set before the
                                 * element had a bus, posted at start */
} GstCudaFilterSettings;

/* The CUDA side: cudafilter-cuda-memory.c's (contexts shared with the
 * neighbours, the element's stream); the streaming code asks it. */
typedef struct
{
  GstCudaContext *context;      /* shared with the neighbours, or NULL;
                                 * replaced under the object lock, read
                                 * with a reference off this thread */
  gboolean context_wanted;      /* the streaming thread is asking for a
                                 * context (cudafilter_cuda_open), under the
                                 * object lock */
  gboolean backend_in_context;  /* the CUDA backend was made in it */
  GstCudaStream *stream;        /* the element's own stream in that context
                                 * (GStreamer >= 1.24), which its output
                                 * pool's memories carry; NULL until an
                                 * output pool is decided */
} GstCudaFilterCuda;

/* Frames in flight: gstcudafilter-stream.c's, on the streaming thread
 * (start and stop reset it through that file), except where a field says
 * otherwise. */
typedef struct
{
  guint frames_wanted;          /* frames-in-flight as read at start: the
                                 * one input of the depth and the pools'
                                 * sizes (0 = auto) */
  guint depth;                  /* frames in flight in use; 0 = not chosen;
                                 * also read by latency queries, from any
                                 * thread (a word, set once a start) */
  gboolean prerolled;           /* a frame left since start or flush */
  GQueue done_outputs;          /* GstBuffer *: frames finished before a
                                 * downstream renegotiation, to leave after
                                 * it */
  gint playing;                 /* frames may stay in flight: PLAYING
                                 * (atomic, set by change_state) */
  gint memory_path;             /* last (input, output) on device, for logs */
} GstCudaFilterStream;

struct _GstCudaFilter
{
  GstVideoFilter parent;

  GstCudaFilterSettings settings;
  GstCudaFilterStats stats;     /* cudafilter-stats.c */
  GstCudaFilterRegions regions; /* cudafilter-regions.c */
  GstCudaFilterCuda cuda;

  /* The filter the streaming thread runs: made at start, rebuilt by
   * gst_cuda_filter_prepare () when the settings or caps change, freed at
   * stop (gstcudafilter.c). */
  CfBackend *backend;
  CfSpec *spec;
  CfLayout layout;
  CfParams applied;             /* what `spec` was built from (kernel
                                 * owned), when have_applied */
  gboolean have_applied;
  gboolean incomplete_warned;   /* a half-made change was reported */
  gboolean fallback_warned;
  gchar *logged_plan;           /* kernel path last logged */
  GstCudaFilterStream stream;
};

/* The cuda-device-id property, read under the object lock (for the
 * streaming half and the CUDA-memory glue). */
gint gst_cuda_filter_get_device_id (GstCudaFilter * self);

/* Brackets settings that apply together (a preset): the stream sees the
 * settings before or after, never some of them. */
void gst_cuda_filter_begin_settings (GstCudaFilter * self);
void gst_cuda_filter_end_settings (GstCudaFilter * self);

/* Rebuilds the spec and layout when properties changed (or `force`). */
gboolean gst_cuda_filter_prepare (GstCudaFilter * self,
    const GstVideoInfo * info, gboolean force);

/* Posts the refusal of a property value (a warning, or at start for
 * values set before the element had a bus) and keeps the old value. */
void gst_cuda_filter_warn_invalid (GstCudaFilter * self, GParamSpec * pspec,
    const GValue * value, const GError * err);

GST_ELEMENT_REGISTER_DECLARE (cudafilter);

G_END_DECLS

#endif /* __GST_CUDA_FILTER_H__ */
