/* cudafilter: the streaming half of the element.
 *
 * Frames in flight: each input buffer is submitted to the backend as soon as
 * it arrives and its output is pushed once `depth` frames are pending, so the
 * upload, filtering and download of consecutive frames overlap on the GPU.
 * Order and timestamps are kept (a FIFO); serialized events (EOS, caps,
 * segments, ...) drain every pending frame first; a flush discards them.
 *
 * Allocation: upstream is offered a pool of pinned host memory, and outputs
 * come from one unless downstream provides special memory.  With
 * memory:CUDAMemory caps, pools of CUDA memory in the shared context
 * instead, and the backend reads and writes the buffers in place
 * (cudafilter-cuda-memory.c).  Every engine call runs with that context
 * current, where the backend's streams and buffers live. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafilter.h"
#include "cudafilter-layout.h"
#include "cudafilter-host-allocator.h"
#include "cudafilter-stats.h"
#include "cudafilter-cuda-memory.h"
#include "cf-host-memory.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_filter_debug

#define AUTO_DEPTH 4

typedef struct
{
  GstBuffer *inbuf;
  GstBuffer *outbuf;
  GstVideoFrame in, out;
} CfPendingFrame;

static GstBaseTransformClass *base_class;
static gboolean (*element_start) (GstBaseTransform * trans);
static gboolean (*element_stop) (GstBaseTransform * trans);

static void
pending_free (CfPendingFrame * pf)
{
  gst_video_frame_unmap (&pf->in);
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

/* Chosen at the first frame, when upstream can tell whether it is live.
 * QoS (dropping frames that would arrive late) is for live pipelines only:
 * elsewhere every frame that goes in comes out. */
static void
choose_depth (GstCudaFilter * self)
{
  gboolean live = upstream_is_live (self);
  guint wanted;

  GST_OBJECT_LOCK (self);
  wanted = self->frames_in_flight;
  GST_OBJECT_UNLOCK (self);

  if (wanted == 0)
    wanted = live ? 1 : AUTO_DEPTH;
  self->depth = wanted;
  cf_backend_set_max_in_flight (self->backend, wanted);
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (self), live);
  GST_INFO_OBJECT (self, "%u frame(s) in flight on %s, %s upstream", wanted,
      cf_backend_describe (self->backend), live ? "live" : "non-live");
}

/* Posts the backend's error for a frame (pf may be NULL) and drops it. */
static GstFlowReturn
frame_failed (GstCudaFilter * self, CfPendingFrame * pf, GError * err)
{
  GST_ELEMENT_ERROR (self, STREAM, FAILED,
      ("Filtering a frame on %s failed: %s",
          cf_backend_describe (self->backend), err->message), (NULL));
  g_error_free (err);
  if (pf)
    pending_free (pf);
  return GST_FLOW_ERROR;
}

/* Completes the oldest pending frame; its output goes to *outbuf. */
static GstFlowReturn
finish_oldest (GstCudaFilter * self, GstBuffer ** outbuf)
{
  CfPendingFrame *pf = g_queue_pop_head (&self->pending);
  GError *err = NULL;
  gboolean pushed = gst_cuda_filter_cuda_push (self);
  gboolean ok = cf_backend_wait (self->backend, &err);

  gst_cuda_filter_cuda_pop (pushed);
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
  CfPendingFrame *pf;
  gboolean pushed;

  if (g_queue_is_empty (&self->pending))
    return;
  pushed = gst_cuda_filter_cuda_push (self);
  while ((pf = g_queue_pop_head (&self->pending)) != NULL) {
    cf_backend_wait (self->backend, NULL);
    pending_free (pf);
  }
  gst_cuda_filter_cuda_pop (pushed);
}

/* Pushes every pending frame downstream, oldest first. */
static GstFlowReturn
drain (GstCudaFilter * self)
{
  GstFlowReturn ret = GST_FLOW_OK;

  while (ret == GST_FLOW_OK && !g_queue_is_empty (&self->pending)) {
    GstBuffer *outbuf = NULL;

    ret = finish_oldest (self, &outbuf);
    if (ret == GST_FLOW_OK)
      ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), outbuf);
  }
  if (ret != GST_FLOW_OK) {
    GST_DEBUG_OBJECT (self, "drain stopped: %s", gst_flow_get_name (ret));
    gst_cuda_filter_stream_discard (self);
  }
  return ret;
}

#define SEEN_QUARK (g_quark_from_static_string ("cudafilter-seen"))
#define PINNED_QUARK (g_quark_from_static_string ("cudafilter-pinned"))

static void
unpin (gpointer base)
{
  cf_host_unregister (base);
}

/* Upstream system memory is pinned the second time it is seen: pools
 * recycle their memory, so it will come back and every later upload runs
 * at pinned speed; one-off buffers are left alone.  The pin goes with the
 * memory (qdata), released when the memory is freed. */
static void
pin_recycled_memory (GstBuffer * buf)
{
  guint i, n = gst_buffer_n_memory (buf);

  for (i = 0; i < n; i++) {
    GstMemory *mem = gst_buffer_peek_memory (buf, i);
    GstMiniObject *root;
    GstMapInfo map;
    guint8 *base;

    if (mem->parent)
      mem = mem->parent;
    root = GST_MINI_OBJECT_CAST (mem);
    if (!gst_memory_is_type (mem, GST_ALLOCATOR_SYSMEM)
        || gst_mini_object_get_qdata (root, PINNED_QUARK))
      continue;
    if (!gst_mini_object_get_qdata (root, SEEN_QUARK)) {
      gst_mini_object_set_qdata (root, SEEN_QUARK, GINT_TO_POINTER (1), NULL);
      continue;
    }
    if (!gst_memory_map (mem, &map, GST_MAP_READ))
      continue;
    base = map.data - mem->offset;
    if (cf_host_register (base, mem->maxsize))
      gst_mini_object_set_qdata (root, PINNED_QUARK, base, unpin);
    else                        /* do not try again */
      gst_mini_object_set_qdata (root, PINNED_QUARK, GINT_TO_POINTER (1),
          NULL);
    gst_memory_unmap (mem, &map);
  }
}

/* Says once, and again when it changes, where the frames are read and
 * written: CUDA memory read through the host costs two copies a frame. */
static void
log_memory_path (GstCudaFilter * self, GstBuffer * inbuf, GstBuffer * outbuf,
    gboolean in_dev, gboolean out_dev)
{
  gint path = 1 + (in_dev ? 1 : 0) + (out_dev ? 2 : 0);

  if (path == self->memory_path)
    return;
  self->memory_path = path;
  GST_INFO_OBJECT (self, "reading %s, writing %s (input %" GST_PTR_FORMAT
      ", output %" GST_PTR_FORMAT ")",
      in_dev ? "device memory in place" : "through host memory",
      out_dev ? "device memory in place" : "through host memory", inbuf,
      outbuf);
}

static GstFlowReturn
submit_frame (GstCudaFilter * self, GstBuffer * inbuf)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstVideoFilter *vfilter = GST_VIDEO_FILTER (self);
  CfPendingFrame *pf;
  GstBuffer *outbuf = NULL;
  GstFlowReturn ret;
  CfFrame in, out;
  GError *err = NULL;
  gboolean device_ok, in_dev, out_dev, pushed, ok;

  if (self->depth == 0)
    choose_depth (self);
  if (GST_BASE_TRANSFORM_GET_CLASS (trans)->before_transform)
    GST_BASE_TRANSFORM_GET_CLASS (trans)->before_transform (trans, inbuf);
  if (!gst_cuda_filter_prepare (self, &vfilter->in_info, FALSE)) {
    gst_buffer_unref (inbuf);
    return GST_FLOW_ERROR;
  }

  ret = base_class->prepare_output_buffer (trans, inbuf, &outbuf);
  if (ret != GST_FLOW_OK || outbuf == NULL) {
    gst_buffer_unref (inbuf);
    return ret == GST_FLOW_OK ? GST_FLOW_ERROR : ret;
  }

  /* Device planes only for a backend made in the buffers' context. */
  device_ok = cf_backend_kind (self->backend) == CF_BACKEND_CUDA
      && self->backend_in_context;

  pf = g_new0 (CfPendingFrame, 1);
  pf->inbuf = inbuf;
  pf->outbuf = outbuf;
  if (!gst_cuda_filter_cuda_map_frame (self, &pf->in, &vfilter->in_info,
          inbuf, GST_MAP_READ, device_ok, &in_dev)) {
    gst_buffer_unref (outbuf);
    gst_buffer_unref (inbuf);
    g_free (pf);
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Could not map the input buffer as %s %dx%d: it is smaller than "
            "the negotiated caps say.", GST_VIDEO_INFO_NAME (&vfilter->in_info),
            GST_VIDEO_INFO_WIDTH (&vfilter->in_info),
            GST_VIDEO_INFO_HEIGHT (&vfilter->in_info)), (NULL));
    return GST_FLOW_ERROR;
  }
  if (!gst_cuda_filter_cuda_map_frame (self, &pf->out, &vfilter->out_info,
          outbuf, GST_MAP_WRITE, device_ok, &out_dev)) {
    gst_video_frame_unmap (&pf->in);
    gst_buffer_unref (outbuf);
    gst_buffer_unref (inbuf);
    g_free (pf);
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Could not map an output buffer for writing."), (NULL));
    return GST_FLOW_ERROR;
  }

  if (!in_dev && cf_backend_kind (self->backend) == CF_BACKEND_CUDA)
    pin_recycled_memory (inbuf);
  log_memory_path (self, inbuf, outbuf, in_dev, out_dev);

  gst_cuda_filter_frame_from_video_frame (&pf->in, &in);
  gst_cuda_filter_frame_from_video_frame (&pf->out, &out);
  in.on_device = in_dev;
  out.on_device = out_dev;
  in.wait_stream = gst_cuda_filter_cuda_wait_stream (inbuf, in_dev);
  out.wait_stream = gst_cuda_filter_cuda_wait_stream (outbuf, out_dev);
  pushed = gst_cuda_filter_cuda_push (self);
  ok = cf_backend_submit (self->backend, self->spec, &self->layout, &in, &out,
      &err);
  gst_cuda_filter_cuda_pop (pushed);
  if (!ok)
    return frame_failed (self, pf, err);
  g_queue_push_tail (&self->pending, pf);
  return GST_FLOW_OK;
}

/* Recreates the CUDA backend inside `ctx`, which becomes the element's
 * context; the old backend is freed in the context it was made in.  With
 * ctx NULL the new backend runs on the device's primary context. */
static gboolean
move_backend (GstCudaFilter * self, GstObject * ctx, gint device_id)
{
  CfBackend *backend;
  GError *err = NULL;
  gboolean pushed;

  pushed = gst_cuda_filter_cuda_push (self);
  g_clear_pointer (&self->backend, cf_backend_free);
  gst_cuda_filter_cuda_pop (pushed);

  gst_cuda_filter_cuda_set_context_object (self, ctx);
  pushed = gst_cuda_filter_cuda_push (self);
  backend = cf_backend_new (CF_BACKEND_CUDA, pushed ? -1 : device_id, &err);
  gst_cuda_filter_cuda_pop (pushed);
  if (backend == NULL) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Could not filter on the CUDA device: %s. Set cuda-device-id to "
            "another GPU, or use backend=cpu.", err->message), (NULL));
    g_error_free (err);
    return FALSE;
  }
  self->backend = backend;
  self->backend_in_context = pushed;
  if (self->depth)
    cf_backend_set_max_in_flight (backend, self->depth);
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
  GstObject *ctx;
  GstFlowReturn ret;
  gboolean ok;

  if (!backend_is_cuda (self))
    return GST_FLOW_OK;
  ctx = gst_cuda_filter_cuda_context_to_adopt (self, inbuf,
      gst_cuda_filter_get_device_id (self));
  if (ctx == NULL)
    return GST_FLOW_OK;

  /* Frames in flight finish on the backend they started on. */
  ret = drain (self);
  if (ret != GST_FLOW_OK) {
    gst_object_unref (ctx);
    return ret;
  }
  ok = move_backend (self, ctx, -1);
  gst_object_unref (ctx);
  if (!ok)
    return GST_FLOW_ERROR;
  gst_base_transform_reconfigure_src (GST_BASE_TRANSFORM (self));
  return GST_FLOW_OK;
}

/* CUDA memory on either pad needs a GstCudaContext (shared with the
 * neighbours, or a new one) for its pools and mappings: the backend moves
 * into it.  System memory on both pads keeps the backend on the device's
 * primary context, as the CUDA runtime uses it. */
static gboolean
gst_cuda_filter_stream_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);
  GstObject *ctx;
  gint device_id;

  if (!base_class->set_caps (trans, incaps, outcaps))
    return FALSE;
  if (self->cuda_context != NULL || !backend_is_cuda (self)
      || !(gst_cuda_filter_caps_are_cuda (incaps)
          || gst_cuda_filter_caps_are_cuda (outcaps)))
    return TRUE;

  /* Pending frames were drained before the caps event. */
  device_id = gst_cuda_filter_get_device_id (self);
  g_clear_pointer (&self->backend, cf_backend_free);
  if (!gst_cuda_filter_cuda_open (self, device_id))
    return move_backend (self, NULL, device_id);
  ctx = gst_object_ref (self->cuda_context);
  if (!move_backend (self, ctx, device_id)) {
    gst_object_unref (ctx);
    return FALSE;
  }
  gst_object_unref (ctx);
  return TRUE;
}

static GstFlowReturn
gst_cuda_filter_submit_input_buffer (GstBaseTransform * trans,
    gboolean is_discont, GstBuffer * input)
{
  GstFlowReturn ret = adopt_upstream_context (GST_CUDA_FILTER (trans), input);

  if (ret != GST_FLOW_OK) {
    gst_buffer_unref (input);
    return ret;
  }
  return base_class->submit_input_buffer (trans, is_discont, input);
}

/* A CUDA context set on the element (by the application, or shared in the
 * pipeline) hosts the backend from the start; otherwise one is taken only
 * when CUDA memory is negotiated (set_caps). */
static gboolean
gst_cuda_filter_stream_start (GstBaseTransform * trans)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);
  gboolean pushed, ok;

  pushed = gst_cuda_filter_cuda_push (self);
  ok = element_start (trans);
  gst_cuda_filter_cuda_pop (pushed);
  self->backend_in_context = pushed;
  return ok;
}

static gboolean
gst_cuda_filter_stream_stop (GstBaseTransform * trans)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);
  gboolean pushed = gst_cuda_filter_cuda_push (self);
  gboolean ok = element_stop (trans);

  gst_cuda_filter_cuda_pop (pushed);
  self->backend_in_context = FALSE;
  self->memory_path = 0;
  gst_cuda_filter_cuda_close (self);
  return ok;
}

static GstFlowReturn
gst_cuda_filter_generate_output (GstBaseTransform * trans, GstBuffer ** outbuf)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);
  GstBuffer *inbuf = trans->queued_buf;

  *outbuf = NULL;
  if (inbuf != NULL) {
    GstFlowReturn ret;

    trans->queued_buf = NULL;
    ret = submit_frame (self, inbuf);
    if (ret != GST_FLOW_OK)
      return ret;
  }
  /* The base class calls again until no buffer comes out. */
  if (self->pending.length >= MAX (self->depth, 1))
    return finish_oldest (self, outbuf);
  return GST_FLOW_OK;
}

static gboolean
gst_cuda_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);

  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP)
    gst_cuda_filter_stream_discard (self);
  else if (GST_EVENT_IS_SERIALIZED (event))
    drain (self);               /* EOS, caps, segment...: frames go first */

  return base_class->sink_event (trans, event);
}

/* Adds (depth - 1) frames to the latency upstream reports. */
static gboolean
gst_cuda_filter_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);
  GstVideoInfo *info = &GST_VIDEO_FILTER (trans)->in_info;
  gboolean live;
  GstClockTime min, max, frame, added;
  guint depth;

  if (gst_cuda_filter_cuda_handle_query (self, query))
    return TRUE;
  if (!base_class->query (trans, direction, query))
    return FALSE;
  if (direction != GST_PAD_SRC || GST_QUERY_TYPE (query) != GST_QUERY_LATENCY)
    return TRUE;

  gst_query_parse_latency (query, &live, &min, &max);
  GST_OBJECT_LOCK (self);
  depth = self->frames_in_flight;
  GST_OBJECT_UNLOCK (self);
  if (self->depth)
    depth = self->depth;
  else if (depth == 0)
    depth = live ? 1 : AUTO_DEPTH;
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

static gboolean
gst_cuda_filter_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCaps *caps;
  gboolean need_pool;
  GstVideoInfo info;
  GstAllocator *allocator;
  GstAllocationParams params;

  gst_query_parse_allocation (query, &caps, &need_pool);
  if (caps == NULL || !gst_video_info_from_caps (&info, caps))
    return FALSE;

  if (gst_cuda_filter_caps_are_cuda (caps)) {
    /* A host pool is of no use to a CUDA neighbour. */
    if (!gst_cuda_filter_cuda_propose_allocation (GST_CUDA_FILTER (trans),
            query, caps, &info))
      gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
    return TRUE;
  }

  if (need_pool) {
    GstBufferPool *pool = gst_cuda_filter_host_pool_new (caps, 0, 0);

    if (pool) {
      gst_query_add_allocation_pool (query, pool, info.size, 0, 0);
      gst_object_unref (pool);
    }
  }
  allocator = gst_cuda_filter_host_allocator_get ();
  gst_allocation_params_init (&params);
  params.align = 63;
  gst_query_add_allocation_param (query, allocator, &params);
  gst_object_unref (allocator);
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return TRUE;
}

/* Whether a pool downstream proposed holds only plain system memory, so
 * pinned memory is strictly better. */
static gboolean
pool_is_plain (GstBufferPool * pool)
{
  GstStructure *config;
  GstAllocator *allocator = NULL;
  gboolean plain;

  if (pool == NULL)
    return TRUE;
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_allocator (config, &allocator, NULL);
  plain = (allocator == NULL
      || g_strcmp0 (allocator->mem_type, GST_ALLOCATOR_SYSMEM) == 0)
      && (G_OBJECT_TYPE (pool) == GST_TYPE_BUFFER_POOL
      || G_OBJECT_TYPE (pool) == GST_TYPE_VIDEO_BUFFER_POOL);
  gst_structure_free (config);
  return plain;
}

static gboolean
gst_cuda_filter_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstBufferPool *pool = NULL;
  GstCaps *caps;
  guint size = 0, min = 0, max = 0;
  GstVideoInfo info;

  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL || !gst_video_info_from_caps (&info, caps))
    return FALSE;
  if (gst_cuda_filter_caps_are_cuda (caps)) {
    if (!gst_cuda_filter_cuda_decide_allocation (GST_CUDA_FILTER (trans),
            query, caps, &info))
      GST_WARNING_OBJECT (trans, "CUDA memory caps without a CUDA context: "
          "outputs will be system memory");
    return base_class->decide_allocation (trans, query);
  }
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);

  if (pool_is_plain (pool)) {
    GstBufferPool *pinned = gst_cuda_filter_host_pool_new (caps, 0, 0);
    GstAllocator *allocator = gst_cuda_filter_host_allocator_get ();
    GstAllocationParams params;

    gst_allocation_params_init (&params);
    params.align = 63;
    size = MAX (size, info.size);
    if (gst_query_get_n_allocation_pools (query) > 0)
      gst_query_set_nth_allocation_pool (query, 0, pinned, size, min, 0);
    else
      gst_query_add_allocation_pool (query, pinned, size, min, 0);
    if (gst_query_get_n_allocation_params (query) > 0)
      gst_query_set_nth_allocation_param (query, 0, allocator, &params);
    else
      gst_query_add_allocation_param (query, allocator, &params);
    gst_object_unref (allocator);
    gst_object_unref (pinned);
  }
  gst_clear_object (&pool);

  return base_class->decide_allocation (trans, query);
}

/* Not reached in normal flow (generate_output does the work), but
 * GstVideoFilter needs it to stay out of in-place mode; filters one frame
 * synchronously. */
static GstFlowReturn
gst_cuda_filter_transform_frame (GstVideoFilter * vfilter,
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
  pushed = gst_cuda_filter_cuda_push (self);
  ok = cf_backend_process (self->backend, self->spec, &self->layout, &in,
      &out, &err);
  gst_cuda_filter_cuda_pop (pushed);
  return ok ? GST_FLOW_OK : frame_failed (self, NULL, err);
}

void
gst_cuda_filter_stream_init_class (GstBaseTransformClass * trans_class)
{
  base_class = g_type_class_peek_parent (trans_class);
  /* Set by the element before this runs; wrapped for the CUDA context. */
  element_start = trans_class->start;
  element_stop = trans_class->stop;
  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_filter_stream_start);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cuda_filter_stream_set_caps);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_filter_stream_stop);
  trans_class->submit_input_buffer =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_submit_input_buffer);
  gst_cuda_filter_cuda_init_class (trans_class);

  GST_VIDEO_FILTER_CLASS (trans_class)->transform_frame =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_transform_frame);
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_generate_output);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cuda_filter_sink_event);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cuda_filter_query);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_decide_allocation);
}
