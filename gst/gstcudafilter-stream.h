/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the streaming half of the element (gstcudafilter-stream.c):
 * the queue of frames in flight and the vfuncs that feed and drain it,
 * installed by the element's class_init. */
#ifndef __GST_CUDA_FILTER_STREAM_H__
#define __GST_CUDA_FILTER_STREAM_H__

#include "gstcudafilter.h"

G_BEGIN_DECLS

gboolean gst_cuda_filter_stream_set_caps (GstBaseTransform * trans,
    GstCaps * incaps, GstCaps * outcaps);
GstFlowReturn gst_cuda_filter_stream_submit_input_buffer (GstBaseTransform *
    trans, gboolean is_discont, GstBuffer * input);
GstFlowReturn gst_cuda_filter_stream_generate_output (GstBaseTransform *
    trans, GstBuffer ** outbuf);
gboolean gst_cuda_filter_stream_sink_event (GstBaseTransform * trans,
    GstEvent * event);
gboolean gst_cuda_filter_stream_query (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query);
GstStateChangeReturn gst_cuda_filter_stream_change_state (GstElement *
    element, GstStateChange transition);
GstFlowReturn gst_cuda_filter_stream_transform_frame (GstVideoFilter *
    vfilter, GstVideoFrame * in_frame, GstVideoFrame * out_frame);

/* At instance init: the stream's own fields, and the sink pad's event
 * handling (a stop under way answers upstream "flushing"). */
void gst_cuda_filter_stream_init (GstCudaFilter * self);

/* At start: reads frames-in-flight once, so the pools (sized before the
 * first frame) and the depth (chosen at it) come from the same value
 * whatever the property does meanwhile (it applies from the next start). */
void gst_cuda_filter_stream_start (GstCudaFilter * self);

/* The most frames the element holds at once, inputs and outputs alike:
 * the depth once chosen, before that the largest it can be chosen as
 * (the pools are sized before the first frame). */
guint gst_cuda_filter_stream_held_bound (GstCudaFilter * self);

/* Waits for and drops every pending frame (flush, stop). */
void gst_cuda_filter_stream_discard (GstCudaFilter * self);

/* At stop: drops the frames in flight and forgets what the stream chose
 * (depth, preroll, memory path), so the next start chooses again.  The
 * stream's fields are written here and in gstcudafilter-stream.c only. */
void gst_cuda_filter_stream_reset (GstCudaFilter * self);

/* At finalize: frames a renegotiation kept and nothing pushed. */
void gst_cuda_filter_stream_finalize (GstCudaFilter * self);

/* Replaces the backend by a CUDA backend made in the element's context
 * (now set), the old one living in `old_ctx` (NULL: the device's primary
 * context).  The old one is freed, in its own context, only once the new
 * one exists; when making it fails the element keeps its old context and
 * backend and posts an error, so no call ever finds the backend gone.
 * Frames in flight must have been drained. */
gboolean gst_cuda_filter_stream_move_backend (GstCudaFilter * self,
    GstCudaContext * old_ctx, gint device_id);

G_END_DECLS

#endif /* __GST_CUDA_FILTER_STREAM_H__ */
