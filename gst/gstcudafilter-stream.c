/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the streaming half of the element.
 *
 * Frames in flight: each input buffer is submitted to the backend as soon as
 * it arrives and its output is pushed once `depth` frames are in flight, so
 * the upload, filtering and download of consecutive frames overlap on the
 * GPU.  The backend holds each frame until its wait hands it back: the one
 * record of which frame is where.
 * Order and timestamps are kept (a FIFO); serialized events (EOS, caps,
 * segments, ...), DRAIN and ALLOCATION queries, a pause and renegotiation
 * drain every pending frame first (frames downstream refused under the old
 * caps wait in done_outputs for the new ones, which a drain negotiates
 * itself when no frame comes to do it); a flush discards them.
 *
 * With memory:CUDAMemory caps the backend reads and writes the buffers in
 * place, in the element's shared CUDA context (cudafilter-cuda-memory.c).
 * Every engine call runs with that context current, where the backend's
 * streams and buffers live. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafilter.h"
#include "gstcudafilter-stream.h"
#include "cudafilter-layout.h"
#include "cudafilter-stats.h"
#include "cudafilter-cuda-memory.h"
#include "cudafilter-pin.h"
#include "cudafilter-frame-bounds.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_filter_debug

#define AUTO_DEPTH 4

typedef struct
{
  GstBuffer *inbuf;
  GstBuffer *outbuf;
  GstVideoFrame in, out;
} CfPendingFrame;

/* GstVideoFilter's vfuncs, which these chain up to. */
#define PARENT_CLASS \
  GST_BASE_TRANSFORM_CLASS (g_type_class_peek (GST_TYPE_VIDEO_FILTER))

static void
pending_free (CfPendingFrame * pf)
{
  /* A frame no region touched was never mapped. */
  if (pf->in.buffer)
    gst_video_frame_unmap (&pf->in);
  if (pf->out.buffer)
    gst_video_frame_unmap (&pf->out);
  gst_buffer_unref (pf->inbuf);
  gst_clear_buffer (&pf->outbuf);
  g_free (pf);
}

static gboolean
upstream_is_live (GstCudaFilter * self)
{
  GstQuery *query = gst_query_new_latency ();
  gboolean live = FALSE;

  if (gst_pad_peer_query (GST_BASE_TRANSFORM_SINK_PAD (self), query))
    gst_query_parse_latency (query, &live, NULL, NULL);
  gst_query_unref (query);
  return live;
}

/* The depth for the frames-in-flight property (0 = auto): one frame in
 * flight for live upstreams, which wait for each, AUTO_DEPTH otherwise. */
static guint
depth_for (guint frames_in_flight, gboolean live)
{
  if (frames_in_flight != 0)
    return frames_in_flight;
  return live ? 1 : AUTO_DEPTH;
}

guint
gst_cuda_filter_stream_held_bound (GstCudaFilter * self)
{
  if (self->stream.depth != 0)
    return self->stream.depth;
  /* Not live: the larger of the two automatic depths. */
  return depth_for (self->stream.frames_wanted, FALSE);
}

/* Chosen at the first frame, when upstream can tell whether it is live.
 * QoS (dropping frames that would arrive late) is for live pipelines only:
 * elsewhere every frame that goes in comes out. */
static void
choose_depth (GstCudaFilter * self)
{
  gboolean live = upstream_is_live (self);
  gboolean qos_set;
  guint wanted;

  GST_OBJECT_LOCK (self);
  qos_set = self->settings.qos_set;
  GST_OBJECT_UNLOCK (self);

  wanted = depth_for (self->stream.frames_wanted, live);
  self->stream.depth = wanted;
  cf_backend_set_max_in_flight (self->backend, wanted);
  if (!qos_set)
    gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (self), live);
  GST_INFO_OBJECT (self, "%u frame(s) in flight on %s, %s upstream", wanted,
      cf_backend_describe (self->backend), live ? "live" : "non-live");
}

/* Names the kernel path at INFO when the backend's plan changes (a new
 * spec or layout). */
static void
log_plan (GstCudaFilter * self)
{
  const char *plan = cf_backend_describe_plan (self->backend);

  if (g_strcmp0 (plan, self->logged_plan) == 0)
    return;
  GST_INFO_OBJECT (self, "filtering with %s on %s", plan,
      cf_backend_describe (self->backend));
  g_free (self->logged_plan);
  self->logged_plan = g_strdup (plan);
}

/* Posts, once, what the backend has to say that did not stop it (a CPU
 * pool that started fewer threads). */
static void
post_backend_warning (GstCudaFilter * self)
{
  char *text = cf_backend_take_warning (self->backend);

  if (text == NULL)
    return;
  GST_ELEMENT_WARNING (self, RESOURCE, FAILED, ("%s", text), (NULL));
  g_free (text);
}

/* Posts the backend's error for a frame (pf may be NULL) and drops it. */
static GstFlowReturn
frame_failed (GstCudaFilter * self, CfPendingFrame * pf, GError * err)
{
  GST_ELEMENT_ERROR (self, STREAM, FAILED,
      ("Filtering a frame on %s failed: %s",
          cf_backend_describe (self->backend),
          err ? err->message : "no reason given"), (NULL));
  g_clear_error (&err);
  if (pf)
    pending_free (pf);
  return GST_FLOW_ERROR;
}

/* Completes the oldest frame in flight; its output goes to *outbuf. */
static GstFlowReturn
finish_oldest (GstCudaFilter * self, GstBuffer ** outbuf)
{
  CfPendingFrame *pf = NULL;
  GError *err = NULL;
  gboolean pushed = cudafilter_cuda_push (self);
  gboolean ok = cf_backend_wait (self->backend, (gpointer *) & pf, &err);

  cudafilter_cuda_pop (pushed);
  if (!ok)
    return frame_failed (self, pf, err);
  *outbuf = pf->outbuf;
  pf->outbuf = NULL;
  pending_free (pf);
  gst_cuda_filter_stats_frame_done (self);
  return GST_FLOW_OK;
}

void
gst_cuda_filter_stream_discard (GstCudaFilter * self)
{
  gboolean pushed;

  g_queue_clear_full (&self->stream.done_outputs,
      (GDestroyNotify) gst_buffer_unref);
  if (cf_backend_in_flight (self->backend) == 0)
    return;
  pushed = cudafilter_cuda_push (self);
  cf_backend_discard (self->backend, (GDestroyNotify) pending_free);
  cudafilter_cuda_pop (pushed);
}

/* GstBaseTransform's event function for the sink pad. */
static GstPadEventFunction base_sink_event;

/* A sticky event (a segment, new caps, tags) that cannot go on downstream
 * because a stop has deactivated the source pad already (GStreamer
 * deactivates source pads before sink pads, while upstream still streams)
 * makes GstBaseTransform answer FALSE, which GstPad turns into an error
 * for upstream (not-negotiated for caps): a source then posts "Internal
 * data stream error".  A stop is a flush: upstream learns "flushing", as
 * for a buffer pushed then, and keeps the event to send again. */
static GstFlowReturn
sink_event_full (GstPad * pad, GstObject * parent, GstEvent * event)
{
  GstPad *srcpad = GST_BASE_TRANSFORM_SRC_PAD (parent);
  GstEventType type = GST_EVENT_TYPE (event);
  gboolean flushing;

  if (base_sink_event (pad, parent, event))
    return GST_FLOW_OK;
  GST_OBJECT_LOCK (srcpad);
  flushing = GST_PAD_IS_FLUSHING (srcpad);
  GST_OBJECT_UNLOCK (srcpad);
  if (flushing)
    return GST_FLOW_FLUSHING;
  return type == GST_EVENT_CAPS ? GST_FLOW_NOT_NEGOTIATED : GST_FLOW_ERROR;
}

void
gst_cuda_filter_stream_init (GstCudaFilter * self)
{
  GstPad *sinkpad = GST_BASE_TRANSFORM_SINK_PAD (self);

  g_queue_init (&self->stream.done_outputs);
  /* The same for every instance: GstBaseTransform's. */
  if (base_sink_event == NULL)
    base_sink_event = GST_PAD_EVENTFUNC (sinkpad);
  gst_pad_set_event_full_function (sinkpad, sink_event_full);
}

void
gst_cuda_filter_stream_start (GstCudaFilter * self)
{
  GST_OBJECT_LOCK (self);
  self->stream.frames_wanted = self->settings.frames_in_flight;
  GST_OBJECT_UNLOCK (self);
}

void
gst_cuda_filter_stream_reset (GstCudaFilter * self)
{
  gst_cuda_filter_stream_discard (self);
  self->stream.depth = 0;
  self->stream.prerolled = FALSE;
  self->stream.memory_path = 0;
}

void
gst_cuda_filter_stream_finalize (GstCudaFilter * self)
{
  g_queue_clear_full (&self->stream.done_outputs,
      (GDestroyNotify) gst_buffer_unref);
}

/* A frame finished for the caps before a renegotiation: in the memory
 * the new caps name, through a buffer of the new pool when the memory
 * differs (a CUDA neighbour gets CUDA memory, a system-memory one host
 * memory), else as it is. */
static GstBuffer *
for_current_caps (GstCudaFilter * self, GstBuffer * done)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstCaps *caps = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SRC_PAD (self));
  GstBufferPool *pool = gst_base_transform_get_buffer_pool (trans);
  GstVideoInfo *info = &GST_VIDEO_FILTER (self)->out_info;
  GstBuffer *copy = NULL;
  GstVideoFrame from, to;
  gboolean cuda = caps && gst_cuda_filter_caps_are_cuda (caps);

  if (caps == NULL || pool == NULL || gst_buffer_n_memory (done) == 0
      || cudafilter_cuda_is_cuda_memory (gst_buffer_peek_memory (done,
              0)) == cuda)
    goto keep;
  if (!gst_buffer_pool_set_active (pool, TRUE)
      || gst_buffer_pool_acquire_buffer (pool, &copy, NULL) != GST_FLOW_OK)
    goto keep;
  if (!gst_video_frame_map (&from, info, done, GST_MAP_READ))
    goto keep;
  if (!gst_video_frame_map (&to, info, copy, GST_MAP_WRITE)) {
    gst_video_frame_unmap (&from);
    goto keep;
  }
  gst_video_frame_copy (&to, &from);
  gst_video_frame_unmap (&to);
  gst_video_frame_unmap (&from);
  gst_buffer_copy_into (copy, done, GST_BUFFER_COPY_METADATA, 0, -1);
  gst_buffer_unref (done);
  done = g_steal_pointer (&copy);
keep:
  gst_clear_buffer (&copy);
  gst_clear_object (&pool);
  gst_clear_caps (&caps);
  return done;
}

/* Pushes the frames kept for the new caps (done_outputs), oldest first,
 * in the caps now on the source pad.  One that downstream refuses there
 * too (not-negotiated: it changed its caps again) goes back to the head,
 * to wait for the next ones. */
static GstFlowReturn
push_kept (GstCudaFilter * self)
{
  GstFlowReturn ret = GST_FLOW_OK;
  GstBuffer *done;

  while (ret == GST_FLOW_OK
      && (done = g_queue_pop_head (&self->stream.done_outputs)) != NULL) {
    done = for_current_caps (self, done);
    ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self),
        gst_buffer_ref (done));
    if (ret == GST_FLOW_NOT_NEGOTIATED)
      g_queue_push_head (&self->stream.done_outputs, done);
    else
      gst_buffer_unref (done);
  }
  return ret;
}

/* Finishes every frame in flight and pushes it, oldest first.  A frame
 * downstream refuses under the caps it was made for (a capsfilter that
 * changed its caps answers not-negotiated) is kept in done_outputs, and
 * every later one waits behind it there, to leave in the new caps.
 * FLOW_ERROR when a frame failed. */
static GstFlowReturn
push_in_flight (GstCudaFilter * self)
{
  GstFlowReturn ret = GST_FLOW_OK;

  while (ret == GST_FLOW_OK && cf_backend_in_flight (self->backend) > 0) {
    GstBuffer *outbuf = NULL;

    ret = finish_oldest (self, &outbuf);
    if (ret != GST_FLOW_OK)
      break;
    if (!g_queue_is_empty (&self->stream.done_outputs)) {
      g_queue_push_tail (&self->stream.done_outputs, outbuf);
      continue;
    }
    ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self),
        gst_buffer_ref (outbuf));
    if (ret == GST_FLOW_NOT_NEGOTIATED) {
      GST_DEBUG_OBJECT (self, "downstream refuses the old caps: the frames "
          "in flight leave after the new ones");
      g_queue_push_tail (&self->stream.done_outputs, outbuf);
      ret = GST_FLOW_OK;
    } else {
      gst_buffer_unref (outbuf);
    }
  }
  return ret;
}

/* Negotiates the source pad again, as GstBaseTransform does before the
 * next buffer when downstream asked (set_caps runs, a new pool comes). */
static gboolean
renegotiate (GstCudaFilter * self)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);

  gst_base_transform_reconfigure_src (trans);
  return gst_base_transform_reconfigure (trans);
}

static gboolean
src_is_flushing (GstCudaFilter * self)
{
  GstPad *srcpad = GST_BASE_TRANSFORM_SRC_PAD (self);
  gboolean flushing;

  GST_OBJECT_LOCK (srcpad);
  flushing = GST_PAD_IS_FLUSHING (srcpad);
  GST_OBJECT_UNLOCK (srcpad);
  return flushing;
}

/* Every frame the element holds leaves, oldest first: the ones a
 * renegotiation kept, then those in flight.  The one drain, before what
 * asked for it goes on (EOS and every serialized event, a DRAIN or
 * ALLOCATION query, a pause, a move to another CUDA context), and before
 * the next frame when a renegotiation kept some.  Downstream that changed
 * its caps refuses the frames made for the old ones (not-negotiated): the
 * source pad negotiates again and they leave in the new caps, never
 * dropped.  Only when downstream refuses those too (or a flush or a
 * failed frame stops it) are the frames discarded, with an ERROR where
 * nothing flushes them. */
static GstFlowReturn
drain (GstCudaFilter * self)
{
  GstFlowReturn ret = push_kept (self);

  /* Refused again: the frames in flight wait behind those. */
  if (ret == GST_FLOW_NOT_NEGOTIATED)
    ret = GST_FLOW_OK;
  if (ret == GST_FLOW_OK)
    ret = push_in_flight (self);
  if (ret == GST_FLOW_OK && !g_queue_is_empty (&self->stream.done_outputs)) {
    GST_DEBUG_OBJECT (self, "downstream refused %u frame(s) under the old "
        "caps: negotiating again",
        g_queue_get_length (&self->stream.done_outputs));
    if (src_is_flushing (self))
      ret = GST_FLOW_FLUSHING;
    else if (!renegotiate (self))
      ret = GST_FLOW_NOT_NEGOTIATED;
    else
      ret = push_kept (self);
  }
  if (ret == GST_FLOW_OK)
    return ret;
  GST_DEBUG_OBJECT (self, "drain stopped: %s", gst_flow_get_name (ret));
  if (ret == GST_FLOW_NOT_NEGOTIATED && !src_is_flushing (self))
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("Downstream refuses the caps of the %u frame(s) this element "
            "still holds, the old caps and the new alike.",
            g_queue_get_length (&self->stream.done_outputs)
            + cf_backend_in_flight (self->backend)), (NULL));
  gst_cuda_filter_stream_discard (self);
  return ret;
}

/* Takes the sink pad's stream lock, as the streaming thread holds it;
 * FALSE, with the lock taken all the same, when the pad is flushing (a
 * flush or a stop is under way and discards the frames). */
static gboolean
lock_stream_unless_flushing (GstCudaFilter * self)
{
  GstPad *sinkpad = GST_BASE_TRANSFORM_SINK_PAD (self);
  gboolean flushing;

  GST_PAD_STREAM_LOCK (sinkpad);
  GST_OBJECT_LOCK (sinkpad);
  flushing = GST_PAD_IS_FLUSHING (sinkpad);
  GST_OBJECT_UNLOCK (sinkpad);
  return !flushing;
}

/* Frames stay in flight only while PLAYING.  Below, every sink downstream
 * waits for a buffer to preroll on, and a frame held may be the only one
 * that comes: upstream done for now, or a tee blocked by a branch that
 * prerolled already (its queue holds the allocation query of a
 * renegotiation until PLAYING).  A held frame then stops the preroll, so
 * in PAUSED each frame leaves as soon as it is done, and those held when
 * the element pauses leave at once: from a thread of GStreamer's pool,
 * under the sink pad's stream lock as the streaming thread pushes them
 * (and so never beside it), waiting in the sink's preroll as that thread
 * would; a flush or a stop releases them.  Nothing to do once the pad is
 * flushing: the flush or stop discards the frames. */
static void
release_held (GstElement * element, gpointer unused)
{
  GstCudaFilter *self = GST_CUDA_FILTER (element);

  if (lock_stream_unless_flushing (self)
      && cf_backend_in_flight (self->backend) > 0) {
    GST_DEBUG_OBJECT (self, "paused: %u frame(s) in flight leave now",
        cf_backend_in_flight (self->backend));
    drain (self);
  }
  GST_PAD_STREAM_UNLOCK (GST_BASE_TRANSFORM_SINK_PAD (self));
}

GstStateChangeReturn
gst_cuda_filter_stream_change_state (GstElement * element,
    GstStateChange transition)
{
  GstCudaFilter *self = GST_CUDA_FILTER (element);

  if (transition == GST_STATE_CHANGE_PAUSED_TO_PLAYING)
    g_atomic_int_set (&self->stream.playing, TRUE);
  if (transition == GST_STATE_CHANGE_PLAYING_TO_PAUSED) {
    g_atomic_int_set (&self->stream.playing, FALSE);
    gst_element_call_async (element, release_held, NULL, NULL);
  }
  return GST_ELEMENT_CLASS (g_type_class_peek (GST_TYPE_VIDEO_FILTER))->
      change_state (element, transition);
}

/* Says once, and again when it changes, where the frames are read and
 * written: CUDA memory read through the host costs two copies a frame. */
static void
log_memory_path (GstCudaFilter * self, GstBuffer * inbuf, GstBuffer * outbuf,
    gboolean in_dev, gboolean out_dev)
{
  gint path = 1 + (in_dev ? 1 : 0) + (out_dev ? 2 : 0);

  if (path == self->stream.memory_path)
    return;
  self->stream.memory_path = path;
  GST_INFO_OBJECT (self, "reading %s, writing %s (input %" GST_PTR_FORMAT
      ", output %" GST_PTR_FORMAT ")",
      in_dev ? "device memory in place" : "through host memory",
      out_dev ? "device memory in place" : "through host memory", inbuf,
      outbuf);
}

/* A frame no region touches (region-mode=inside) leaves as it came, in
 * its turn: no upload, no copy. */
static GstFlowReturn
submit_unchanged (GstCudaFilter * self, GstBuffer * inbuf)
{
  CfPendingFrame *pf = g_new0 (CfPendingFrame, 1);
  GError *err = NULL;

  pf->inbuf = inbuf;
  pf->outbuf = gst_buffer_ref (inbuf);
  if (!cf_backend_submit_unchanged (self->backend, pf, &err))
    return frame_failed (self, pf, err);
  return GST_FLOW_OK;
}

/* Metadata written by another element may describe more than a buffer
 * holds: refused with an error naming the plane, never read or written
 * past the end. */
static gboolean
frames_in_bounds (GstCudaFilter * self, CfPendingFrame * pf)
{
  gchar *why = NULL;
  const gchar *which = "input";

  if (gst_cuda_filter_frame_in_bounds (&pf->in, &why)) {
    which = "output";
    /* In place: the output is the input, mapped once. */
    if (pf->out.buffer == NULL
        || gst_cuda_filter_frame_in_bounds (&pf->out, &why))
      return TRUE;
  }
  GST_ELEMENT_ERROR (self, STREAM, FORMAT,
      ("The %s buffer is smaller than its video meta says: %s.", which, why),
      ("%s buffer %" GST_PTR_FORMAT, which, which[0] == 'i' ? pf->inbuf :
          pf->outbuf));
  g_free (why);
  return FALSE;
}

static GstFlowReturn
submit_frame (GstCudaFilter * self, GstBuffer * inbuf)
{
  const CfRegions *regions;
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstVideoFilter *vfilter = GST_VIDEO_FILTER (self);
  CfPendingFrame *pf;
  GstBuffer *outbuf = NULL;
  GstFlowReturn ret;
  CfFrame in, out;
  GError *err = NULL;
  gboolean device_ok, in_dev, out_dev, pushed, ok, in_place;

  if (self->stream.depth == 0)
    choose_depth (self);
  if (GST_BASE_TRANSFORM_GET_CLASS (trans)->before_transform)
    GST_BASE_TRANSFORM_GET_CLASS (trans)->before_transform (trans, inbuf);
  if (!gst_cuda_filter_prepare (self, &vfilter->in_info, FALSE)) {
    gst_buffer_unref (inbuf);
    return GST_FLOW_ERROR;
  }
  regions = gst_cuda_filter_regions_for_buffer (self, inbuf,
      &vfilter->in_info);
  if (gst_cuda_filter_regions_none (regions)
      && gst_cuda_filter_regions_can_pass (self)) {
    if (!gst_cuda_filter_regions_input_in_bounds (self, inbuf,
            &vfilter->in_info)) {
      gst_buffer_unref (inbuf);
      return GST_FLOW_ERROR;
    }
    return submit_unchanged (self, inbuf);
  }

  /* Regions filtered in the input's own buffer: the rest stays put. */
  in_place = gst_cuda_filter_regions_in_place (self, regions, inbuf);
  if (!in_place) {
    ret = PARENT_CLASS->prepare_output_buffer (trans, inbuf, &outbuf);
    if (ret != GST_FLOW_OK || outbuf == NULL) {
      gst_buffer_unref (inbuf);
      return ret == GST_FLOW_OK ? GST_FLOW_ERROR : ret;
    }
  }

  /* Device planes only for a backend made in the buffers' context. */
  device_ok = cf_backend_kind (self->backend) == CF_BACKEND_CUDA
      && self->cuda.backend_in_context;

  pf = g_new0 (CfPendingFrame, 1);
  pf->inbuf = inbuf;
  pf->outbuf = outbuf;
  if (!cudafilter_cuda_map_frame (self, &pf->in, &vfilter->in_info,
          inbuf, in_place ? GST_MAP_READWRITE : GST_MAP_READ, device_ok,
          &in_dev)) {
    gst_clear_buffer (&outbuf);
    gst_buffer_unref (inbuf);
    g_free (pf);
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("The input buffer is smaller than its caps or video meta say: it "
            "cannot be mapped as %s %dx%d.",
            GST_VIDEO_INFO_NAME (&vfilter->in_info),
            GST_VIDEO_INFO_WIDTH (&vfilter->in_info),
            GST_VIDEO_INFO_HEIGHT (&vfilter->in_info)), (NULL));
    return GST_FLOW_ERROR;
  }
  if (in_place) {
    /* Mapped for writing while this element held the only reference. */
    pf->outbuf = outbuf = gst_buffer_ref (inbuf);
    out_dev = in_dev;
  } else if (!cudafilter_cuda_map_frame (self, &pf->out, &vfilter->out_info,
          outbuf, GST_MAP_WRITE, device_ok, &out_dev)) {
    gst_video_frame_unmap (&pf->in);
    gst_buffer_unref (outbuf);
    gst_buffer_unref (inbuf);
    g_free (pf);
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Could not map an output buffer for writing."), (NULL));
    return GST_FLOW_ERROR;
  }

  if (!frames_in_bounds (self, pf)) {
    pending_free (pf);
    return GST_FLOW_ERROR;
  }
  if (!in_dev && cf_backend_kind (self->backend) == CF_BACKEND_CUDA)
    gst_cuda_filter_pin_recycled_memory (inbuf,
        cf_backend_device (self->backend));
  log_memory_path (self, inbuf, outbuf, in_dev, out_dev);

  gst_cuda_filter_frame_from_video_frame (&pf->in, &in);
  in.on_device = in_dev;
  in.wait_stream = cudafilter_cuda_wait_stream (inbuf, in_dev);
  if (in_place) {
    out = in;
  } else {
    gst_cuda_filter_frame_from_video_frame (&pf->out, &out);
    out.on_device = out_dev;
    out.wait_stream = cudafilter_cuda_wait_stream (outbuf, out_dev);
  }
  pushed = cudafilter_cuda_push (self);
  ok = cf_backend_submit_regions (self->backend, self->spec, &self->layout,
      &in, &out, regions, pf, &err);
  cudafilter_cuda_pop (pushed);
  if (!ok)
    return frame_failed (self, pf, err);
  log_plan (self);
  post_backend_warning (self);
  return GST_FLOW_OK;
}

gboolean
gst_cuda_filter_stream_move_backend (GstCudaFilter * self,
    GstCudaContext * old_ctx, gint device_id)
{
  CfBackend *backend = NULL;
  GError *err = NULL;
  gboolean pushed;

  pushed = cudafilter_cuda_push (self);
  /* CUDAFILTER_FAULT=context: the tests' way to make this fail. */
  if (g_strcmp0 (g_getenv ("CUDAFILTER_FAULT"), "context") == 0)
    g_set_error (&err, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "injected fault (CUDAFILTER_FAULT=context)");
  else
    backend = cf_backend_new (CF_BACKEND_CUDA, pushed ? -1 : device_id, &err);
  cudafilter_cuda_pop (pushed);
  if (backend == NULL) {
    cudafilter_cuda_set_context_object (self, old_ctx);
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Could not filter on the CUDA device in the CUDA context of the "
            "neighbouring elements: %s. Set cuda-device-id to another GPU, "
            "or use backend=cpu.", err ? err->message : "no reason given"),
        (NULL));
    g_clear_error (&err);
    return FALSE;
  }

  pushed = cudafilter_cuda_push_context (old_ctx);
  cf_backend_free (self->backend);
  cudafilter_cuda_pop (pushed);
  self->backend = backend;
  self->cuda.backend_in_context = self->cuda.context != NULL;
  if (self->stream.depth)
    cf_backend_set_max_in_flight (backend, self->stream.depth);
  GST_INFO_OBJECT (self, "now filtering on %s", cf_backend_describe (backend));
  return TRUE;
}

static gboolean
backend_is_cuda (GstCudaFilter * self)
{
  return self->backend != NULL
      && cf_backend_kind (self->backend) == CF_BACKEND_CUDA;
}

/* Upstream CUDA memory of another context (a decoder that made its own,
 * say): move the backend into that context, so its buffers are read in
 * place, and renegotiate the output pool on it. */
static GstFlowReturn
adopt_upstream_context (GstCudaFilter * self, GstBuffer * inbuf)
{
  GstCudaContext *ctx, *old_ctx;
  GstFlowReturn ret;
  gboolean ok;

  if (!backend_is_cuda (self))
    return GST_FLOW_OK;
  ctx = cudafilter_cuda_context_to_adopt (self, inbuf,
      gst_cuda_filter_get_device_id (self));
  if (ctx == NULL)
    return GST_FLOW_OK;

  /* Frames in flight finish on the backend they started on. */
  ret = drain (self);
  if (ret != GST_FLOW_OK) {
    gst_object_unref (ctx);
    return ret;
  }
  old_ctx = self->cuda.context ? gst_object_ref (self->cuda.context) : NULL;
  cudafilter_cuda_set_context_object (self, ctx);
  gst_object_unref (ctx);
  ok = gst_cuda_filter_stream_move_backend (self, old_ctx, -1);
  gst_clear_object (&old_ctx);
  if (!ok)
    return GST_FLOW_ERROR;
  gst_base_transform_reconfigure_src (GST_BASE_TRANSFORM (self));
  return GST_FLOW_OK;
}

/* Frames in flight were filtered on the backend they were submitted to,
 * so they are finished before the caps change.  A caps event has pushed
 * them already; with frames left, GstBaseTransform renegotiates because
 * downstream asked (RECONFIGURE), and downstream may refuse the old caps
 * (push_in_flight keeps those frames for after the new ones, which the
 * next frame or drain pushes first).
 *
 * CUDA memory on either pad then needs a GstCudaContext (shared with the
 * neighbours, or a new one) for its pools and mappings: the backend moves
 * into it.  System memory on both pads keeps the backend on the device's
 * primary context, as the CUDA runtime uses it. */
gboolean
gst_cuda_filter_stream_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);
  GstFlowReturn ret = push_in_flight (self);

  if (ret != GST_FLOW_OK) {
    GST_DEBUG_OBJECT (self, "frames before new caps: %s",
        gst_flow_get_name (ret));
    gst_cuda_filter_stream_discard (self);
    if (ret == GST_FLOW_ERROR)
      return FALSE;
  }
  if (!PARENT_CLASS->set_caps (trans, incaps, outcaps))
    return FALSE;
  if (self->cuda.context != NULL || !backend_is_cuda (self)
      || !(gst_cuda_filter_caps_are_cuda (incaps)
          || gst_cuda_filter_caps_are_cuda (outcaps)))
    return TRUE;
  if (!cudafilter_cuda_open (self, gst_cuda_filter_get_device_id (self)))
    return TRUE;                /* no context: CUDA memory through the host */
  return gst_cuda_filter_stream_move_backend (self, NULL,
      gst_cuda_filter_get_device_id (self));
}

GstFlowReturn
gst_cuda_filter_stream_submit_input_buffer (GstBaseTransform * trans,
    gboolean is_discont, GstBuffer * input)
{
  GstFlowReturn ret = adopt_upstream_context (GST_CUDA_FILTER (trans), input);

  if (ret != GST_FLOW_OK) {
    gst_buffer_unref (input);
    return ret;
  }
  return PARENT_CLASS->submit_input_buffer (trans, is_discont, input);
}

/* Downstream may ask for new caps (RECONFIGURE) after the base class
 * looked, as this frame came in: a frame it pushed now, under the old caps,
 * that downstream refuses would be lost with it.  So the negotiation runs
 * here too, before a frame leaves: set_caps pushes the frames in flight,
 * keeping those downstream refuses, which then leave in the new caps. */
static GstFlowReturn
renegotiate_if_asked (GstCudaFilter * self)
{
  if (!gst_pad_needs_reconfigure (GST_BASE_TRANSFORM_SRC_PAD (self)))
    return GST_FLOW_OK;
  if (!gst_base_transform_reconfigure (GST_BASE_TRANSFORM (self)))
    return src_is_flushing (self) ? GST_FLOW_FLUSHING :
        GST_FLOW_NOT_NEGOTIATED;
  if (!g_queue_is_empty (&self->stream.done_outputs))
    return drain (self);
  return GST_FLOW_OK;
}

GstFlowReturn
gst_cuda_filter_stream_generate_output (GstBaseTransform * trans,
    GstBuffer ** outbuf)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);
  GstBuffer *inbuf = trans->queued_buf;
  guint in_flight;

  *outbuf = NULL;
  /* Frames a renegotiation kept (none is in flight: set_caps finished
   * them) leave first. */
  if (!g_queue_is_empty (&self->stream.done_outputs)) {
    GstFlowReturn ret = drain (self);

    if (ret != GST_FLOW_OK) {
      gst_clear_buffer (&trans->queued_buf);
      return ret;
    }
  }
  if (inbuf != NULL) {
    GstFlowReturn ret;

    trans->queued_buf = NULL;
    ret = submit_frame (self, inbuf);
    if (ret != GST_FLOW_OK)
      return ret;
  }
  /* The base class calls again until no buffer comes out.  The first frame
   * after a start or a flush leaves as soon as it is done: the sink prerolls
   * on it, and held for `depth` frames a seek's preroll came that much
   * later, into the time the application sends its next event (an EOS sent
   * while a preroll is committed deadlocks in GStreamer: send_event holds
   * the pipeline's state lock waiting for the streaming thread, which waits
   * in the sink's preroll for the state change the lock blocks). */
  in_flight = cf_backend_in_flight (self->backend);
  if (in_flight > 0 && (!self->stream.prerolled
          || !g_atomic_int_get (&self->stream.playing)
          || in_flight >= MAX (self->stream.depth, 1))) {
    GstFlowReturn ret;

    self->stream.prerolled = TRUE;
    ret = renegotiate_if_asked (self);
    if (ret != GST_FLOW_OK || cf_backend_in_flight (self->backend) == 0)
      return ret;
    return finish_oldest (self, outbuf);
  }
  return GST_FLOW_OK;
}

gboolean
gst_cuda_filter_stream_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);

  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP) {
    gst_cuda_filter_stream_discard (self);
    self->stream.prerolled = FALSE;
  } else if (GST_EVENT_IS_SERIALIZED (event))
    drain (self);               /* EOS, caps, segment...: frames go first */

  return PARENT_CLASS->sink_event (trans, event);
}

/* Adds (depth - 1) frames to the latency upstream reports. */
gboolean
gst_cuda_filter_stream_query (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);
  GstVideoInfo *info = &GST_VIDEO_FILTER (trans)->in_info;
  gboolean live;
  GstClockTime min, max, frame, added;
  guint depth;

  if (cudafilter_cuda_handle_query (self, query))
    return TRUE;
  if (direction == GST_PAD_SINK && (GST_QUERY_TYPE (query) ==
          GST_QUERY_ALLOCATION || GST_QUERY_TYPE (query) == GST_QUERY_DRAIN)) {
    /* Upstream wants its buffers back (a decoder changing resolution
     * sends both): every frame in flight leaves first, as at EOS.  Under
     * the stream lock, like every other user of the frames in flight
     * (release_held); an allocation query may also renegotiate, and so
     * drain (set_caps).  Not once the pad is flushing: a stop may be under
     * way, which the base class runs after waiting for that lock, and an
     * answer in parallel puts the base class's allocation query back after
     * the stop cleared it (leaked, its pool and caps with it, if the
     * element is freed). */
    gboolean ok = FALSE;

    if (lock_stream_unless_flushing (self)
        && drain (self) != GST_FLOW_ERROR)
      ok = PARENT_CLASS->query (trans, direction, query);
    GST_PAD_STREAM_UNLOCK (GST_BASE_TRANSFORM_SINK_PAD (self));
    return ok;
  }
  if (!PARENT_CLASS->query (trans, direction, query))
    return FALSE;
  if (direction != GST_PAD_SRC || GST_QUERY_TYPE (query) != GST_QUERY_LATENCY)
    return TRUE;

  gst_query_parse_latency (query, &live, &min, &max);
  depth = self->stream.depth ? self->stream.depth :
      depth_for (self->stream.frames_wanted, live);
  frame = GST_VIDEO_INFO_FPS_N (info) > 0 ?
      gst_util_uint64_scale_int (GST_SECOND, GST_VIDEO_INFO_FPS_D (info),
      GST_VIDEO_INFO_FPS_N (info)) : 0;
  added = frame * (depth - 1);
  GST_DEBUG_OBJECT (self, "adding %" GST_TIME_FORMAT " latency (%u in flight)",
      GST_TIME_ARGS (added), depth);
  min += added;
  if (GST_CLOCK_TIME_IS_VALID (max))
    max += added;
  gst_query_set_latency (query, live, min, max);
  return TRUE;
}

/* Not reached in normal flow (generate_output does the work), but
 * GstVideoFilter needs it to stay out of in-place mode; filters one frame
 * synchronously. */
GstFlowReturn
gst_cuda_filter_stream_transform_frame (GstVideoFilter * vfilter,
    GstVideoFrame * in_frame, GstVideoFrame * out_frame)
{
  GstCudaFilter *self = GST_CUDA_FILTER (vfilter);
  CfFrame in, out;
  GError *err = NULL;
  gboolean pushed, ok;

  if (!gst_cuda_filter_prepare (self, &vfilter->in_info, FALSE))
    return GST_FLOW_ERROR;
  gst_cuda_filter_frame_from_video_frame (in_frame, &in);
  gst_cuda_filter_frame_from_video_frame (out_frame, &out);
  pushed = cudafilter_cuda_push (self);
  ok = cf_backend_process_regions (self->backend, self->spec, &self->layout,
      &in, &out, gst_cuda_filter_regions_for_buffer (self, in_frame->buffer,
          &vfilter->in_info), &err);
  cudafilter_cuda_pop (pushed);
  if (!ok)
    return frame_failed (self, NULL, err);
  post_backend_warning (self);
  return GST_FLOW_OK;
}
