/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: memory:CUDAMemory interop (gstreamer-cuda-1.0).
 *
 * The context is shared the way the nvcodec elements share it: set on the
 * element (GstContext), asked of the neighbours and the application, or
 * taken from the upstream buffers' memory; the CUDA backend is created
 * while that context is current, so its streams and the buffers' device
 * memory live in one context and the kernels read and write the buffers in
 * place. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudafilter-cuda-memory.h"

#ifdef HAVE_GST_CUDA
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudautils.h>
#endif

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_filter_debug

gboolean
cudafilter_cuda_is_cuda_memory (GstMemory * mem)
{
#ifdef HAVE_GST_CUDA
  return gst_is_cuda_memory (mem);
#else
  return FALSE;
#endif
}

gboolean
gst_cuda_filter_caps_are_cuda (GstCaps * caps)
{
  guint i;

  if (caps == NULL)
    return FALSE;
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);

    if (f && !gst_caps_features_is_any (f)
        && gst_caps_features_contains (f, GST_CUDA_FILTER_MEMORY_CUDA))
      return TRUE;
  }
  return FALSE;
}

/* What GStreamer's CUDA allocator holds in every version the element builds
 * with (1.22 aborts on the others, e.g. GRAY8); newer versions hold more. */
#define BASE_CUDA_FORMATS "{ RGB, BGR, RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, " \
  "I420, YV12, NV12, NV21, Y42B, Y444 }"

#ifdef HAVE_GST_CUDA
/* The CUDA-memory formats of the running GStreamer, as its own cudaupload
 * advertises them (it allocates with the same allocator), else the base
 * set. */
static GstCaps *
held_cuda_caps (void)
{
  GstElementFactory *factory = gst_element_factory_find ("cudaupload");
  GstCaps *held = gst_caps_new_empty ();
  const GList *l;

  if (factory) {
    for (l = gst_element_factory_get_static_pad_templates (factory); l;
        l = l->next) {
      GstStaticPadTemplate *t = l->data;
      GstCaps *caps;

      if (t->direction != GST_PAD_SRC)
        continue;
      caps = gst_static_caps_get (&t->static_caps);
      for (guint i = 0; i < gst_caps_get_size (caps); i++)
        if (gst_caps_features_contains (gst_caps_get_features (caps, i),
                GST_CUDA_FILTER_MEMORY_CUDA))
          held = gst_caps_merge (held, gst_caps_copy_nth (caps, i));
      gst_caps_unref (caps);
    }
    gst_object_unref (factory);
  }
  if (gst_caps_is_empty (held)) {
    gst_caps_unref (held);
    held = gst_caps_from_string ("video/x-raw(" GST_CUDA_FILTER_MEMORY_CUDA
        "), format=(string)" BASE_CUDA_FORMATS);
  }
  return held;
}
#endif

GstCaps *
cudafilter_cuda_memory_caps (const GValue * formats)
{
#ifdef HAVE_GST_CUDA
  GstCaps *held = held_cuda_caps (), *ret;
  GValue list = G_VALUE_INIT;
  GString *missing = g_string_new (NULL);
  guint i, j;

  g_value_init (&list, GST_TYPE_LIST);
  for (i = 0; i < gst_value_list_get_size (formats); i++) {
    const GValue *f = gst_value_list_get_value (formats, i);
    gboolean ok = FALSE;

    for (j = 0; j < gst_caps_get_size (held) && !ok; j++) {
      const GValue *v = gst_structure_get_value (gst_caps_get_structure (held,
              j), "format");
      ok = v && gst_value_intersect (NULL, f, v);
    }
    if (ok)
      gst_value_list_append_value (&list, f);
    else
      g_string_append_printf (missing, " %s", g_value_get_string (f));
  }
  gst_caps_unref (held);
  if (missing->len)
    GST_INFO ("%s's CUDA allocator does not hold%s: these "
        "formats travel in system memory only", gst_version_string (),
        missing->str);
  g_string_free (missing, TRUE);

  ret = gst_caps_from_string (GST_VIDEO_CAPS_MAKE_WITH_FEATURES
      (GST_CUDA_FILTER_MEMORY_CUDA, "I420"));
  if (gst_value_list_get_size (&list) > 0)
    gst_caps_set_value (ret, "format", &list);
  else {
    gst_caps_unref (ret);
    ret = gst_caps_new_empty ();
  }
  g_value_unset (&list);
  return ret;
#else
  return gst_caps_new_empty ();
#endif
}

#ifdef HAVE_GST_CUDA

/* The element's context, with a reference, for threads other than the
 * streaming thread (which alone replaces it, under the object lock). */
static GstCudaContext *
ref_context (GstCudaFilter * self)
{
  GstCudaContext *ctx;

  GST_OBJECT_LOCK (self);
  ctx = self->cuda.context ? gst_object_ref (self->cuda.context) : NULL;
  GST_OBJECT_UNLOCK (self);
  return ctx;
}

/* Whether a context handed over now may become the element's: before the
 * element starts (NULL or READY, not on its way up), or when the streaming
 * thread asks for one itself (need-context from cudafilter_cuda_open).  A
 * context handed over while it runs without one (GstBin passes an
 * application's to every child) would be pushed around a backend that
 * lives elsewhere: it is only kept in the element's list (GstElement),
 * and taken at the next start. */
static gboolean
may_take_context (GstCudaFilter * self)
{
  GstElement *e = GST_ELEMENT (self);

  return self->cuda.context_wanted || (GST_STATE (e) <= GST_STATE_READY
      && (GST_STATE_NEXT (e) == GST_STATE_VOID_PENDING
          || GST_STATE_NEXT (e) <= GST_STATE_READY));
}

/* A context given by the application or a neighbour is taken only while
 * the element has none, and only at a point where the backend can be made
 * in it (may_take_context): the backend lives in the one it has. */
static void
gst_cuda_filter_set_context (GstElement * element, GstContext * context)
{
  GstCudaFilter *self = GST_CUDA_FILTER (element);
  GstCudaContext *ctx = ref_context (self);
  gboolean had = ctx != NULL;

  gst_cuda_handle_set_context (element, context,
      gst_cuda_filter_get_device_id (self), &ctx);
  if (!had && ctx != NULL) {
    GST_OBJECT_LOCK (self);
    if (self->cuda.context == NULL && may_take_context (self))
      self->cuda.context = g_steal_pointer (&ctx);
    GST_OBJECT_UNLOCK (self);
    if (ctx != NULL)
      GST_INFO_OBJECT (self, "not taking %" GST_PTR_FORMAT " while running: "
          "the backend lives in another context; it is used from the next "
          "start", ctx);
  }
  gst_clear_object (&ctx);
  GST_ELEMENT_CLASS (g_type_class_peek (GST_TYPE_VIDEO_FILTER))->set_context
      (element, context);
}

/* Every structure in both memories, its own first: the element reads and
 * writes both, and keeping the memory it was given means a sink that takes
 * anything gets system memory from system memory, while a CUDA neighbour
 * upstream keeps the frames on the GPU.  A peer listing CUDA memory first
 * gets CUDA memory first. */
static GstCaps *
gst_cuda_filter_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstCaps *same, *other, *ret;
  guint i;

  if (gst_caps_is_any (caps))
    return filter ? gst_caps_ref (filter) : gst_caps_ref (caps);

  same = gst_caps_new_empty ();
  other = gst_caps_new_empty ();
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_caps_get_structure (caps, i);
    GstCapsFeatures *f = gst_caps_get_features (caps, i);
    GstCapsFeatures *cuda, *sys;

    if (f && gst_caps_features_is_any (f)) {
      same = gst_caps_merge_structure_full (same, gst_structure_copy (s),
          gst_caps_features_copy (f));
      continue;
    }
    cuda = gst_caps_features_new (GST_CUDA_FILTER_MEMORY_CUDA, NULL);
    sys = gst_caps_features_new_empty ();
    if (f && gst_caps_features_contains (f, GST_CUDA_FILTER_MEMORY_CUDA)) {
      same = gst_caps_merge_structure_full (same, gst_structure_copy (s), cuda);
      other = gst_caps_merge_structure_full (other, gst_structure_copy (s),
          sys);
    } else {
      same = gst_caps_merge_structure_full (same, gst_structure_copy (s), sys);
      other = gst_caps_merge_structure_full (other, gst_structure_copy (s),
          cuda);
    }
  }
  ret = gst_caps_merge (same, other);

  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, ret,
        GST_CAPS_INTERSECT_FIRST);

    gst_caps_unref (ret);
    ret = tmp;
  }
  GST_DEBUG_OBJECT (trans, "%s caps %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, ret);
  return ret;
}

/* The memory of the other pad wins when the peer takes it: a peer's own
 * order would otherwise decide (cudadownload lists system memory first, and
 * a decoder's frames would go to the host and back for nothing). */
static GstCaps *
gst_cuda_filter_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  gboolean cuda = gst_cuda_filter_caps_are_cuda (caps);
  guint i;

  for (i = 0; i < gst_caps_get_size (othercaps); i++) {
    GstCaps *one = gst_caps_copy_nth (othercaps, i);

    if (gst_cuda_filter_caps_are_cuda (one) == cuda) {
      gst_caps_unref (othercaps);
      return gst_caps_fixate (one);
    }
    gst_caps_unref (one);
  }
  return gst_caps_fixate (othercaps);
}

void
cudafilter_cuda_init_class (GstBaseTransformClass * trans_class)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (trans_class);

  element_class->set_context = GST_DEBUG_FUNCPTR (gst_cuda_filter_set_context);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_transform_caps);
  trans_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_cuda_filter_fixate_caps);
  gst_cuda_memory_init_once ();
}

gboolean
cudafilter_cuda_open (GstCudaFilter * self, gint device_id)
{
  gboolean ok;

  if (!gst_cuda_load_library ()) {
    GST_INFO_OBJECT (self, "CUDA driver library not loadable: no shared "
        "CUDA context");
    return FALSE;
  }
  /* Writes the field from NULL to a new context (its neighbours' answers
   * arrive through set_context, which does the same under the lock);
   * nothing is freed meanwhile, so a reader under the lock sees either. */
  GST_OBJECT_LOCK (self);
  self->cuda.context_wanted = TRUE;
  GST_OBJECT_UNLOCK (self);
  ok = gst_cuda_ensure_element_context (GST_ELEMENT (self), device_id,
      &self->cuda.context);
  GST_OBJECT_LOCK (self);
  self->cuda.context_wanted = FALSE;
  GST_OBJECT_UNLOCK (self);
  if (!ok) {
    GST_WARNING_OBJECT (self, "no CUDA context for device %d", device_id);
    return FALSE;
  }
  GST_INFO_OBJECT (self, "CUDA context %" GST_PTR_FORMAT, self->cuda.context);
  return TRUE;
}

/* The CUDA side back to what init left: no context, no stream, no backend
 * made in one (stop frees the backend first). */
void
cudafilter_cuda_close (GstCudaFilter * self)
{
  cudafilter_cuda_set_context_object (self, NULL);
  self->cuda.backend_in_context = FALSE;
}

gboolean
cudafilter_cuda_push_context (GstCudaContext * context)
{
  if (context == NULL)
    return FALSE;
  if (!gst_cuda_context_push (context)) {
    GST_WARNING_OBJECT (context, "could not make the CUDA context current");
    return FALSE;
  }
  return TRUE;
}

gboolean
cudafilter_cuda_push (GstCudaFilter * self)
{
  /* The CPU backend touches no CUDA, whatever context it was handed. */
  if (self->backend != NULL && cf_backend_kind (self->backend) ==
      CF_BACKEND_CPU)
    return FALSE;
  return cudafilter_cuda_push_context (self->cuda.context);
}

void
cudafilter_cuda_pop (gboolean pushed)
{
  if (pushed)
    gst_cuda_context_pop (NULL);
}

/* Neighbours ask from their own threads, while the streaming thread may
 * replace the context: answer with a reference of our own. */
gboolean
cudafilter_cuda_handle_query (GstCudaFilter * self, GstQuery * query)
{
  GstCudaContext *ctx;
  gboolean ret;

  if (GST_QUERY_TYPE (query) != GST_QUERY_CONTEXT)
    return FALSE;
  ctx = ref_context (self);
  ret = gst_cuda_handle_context_query (GST_ELEMENT (self), query, ctx);
  gst_clear_object (&ctx);
  return ret;
}

static GstCudaMemory *
first_cuda_memory (GstBuffer * buf)
{
  GstMemory *mem;

  if (gst_buffer_n_memory (buf) == 0)
    return NULL;
  mem = gst_buffer_peek_memory (buf, 0);
  return gst_is_cuda_memory (mem) ? GST_CUDA_MEMORY_CAST (mem) : NULL;
}

GstCudaContext *
cudafilter_cuda_context_to_adopt (GstCudaFilter * self, GstBuffer * buf,
    gint device_id)
{
  GstCudaMemory *cmem = first_cuda_memory (buf);
  guint mem_device = 0;

  if (cmem == NULL || cmem->context == self->cuda.context)
    return NULL;
  g_object_get (cmem->context, "cuda-device-id", &mem_device, NULL);
  if (device_id >= 0 && mem_device != (guint) device_id) {
    GST_DEBUG_OBJECT (self, "upstream memory is on device %u, "
        "cuda-device-id is %d: reading it through the host", mem_device,
        device_id);
    return NULL;
  }
  return gst_object_ref (cmem->context);
}

void
cudafilter_cuda_set_context_object (GstCudaFilter * self,
    GstCudaContext * context)
{
  GstCudaContext *old;

  GST_INFO_OBJECT (self, "CUDA context %" GST_PTR_FORMAT " -> %"
      GST_PTR_FORMAT, self->cuda.context, context);
  GST_OBJECT_LOCK (self);
  old = self->cuda.context;
  self->cuda.context = context ? gst_object_ref (context) : NULL;
  GST_OBJECT_UNLOCK (self);
#if GST_CHECK_VERSION(1, 24, 0)
  /* The stream lives in the context it was made in. */
  if (context != old)
    gst_clear_cuda_stream (&self->cuda.stream);
#endif
  /* Outside the lock: the last unref may run the context's dispose. */
  gst_clear_object (&old);
}

/* Every memory of `buf` is CUDA memory of the element's context. */
static gboolean
is_our_device_memory (GstCudaFilter * self, GstBuffer * buf)
{
  guint i, n = gst_buffer_n_memory (buf);

  if (self->cuda.context == NULL || n == 0)
    return FALSE;
  for (i = 0; i < n; i++) {
    GstMemory *mem = gst_buffer_peek_memory (buf, i);

    if (!gst_is_cuda_memory (mem)
        || GST_CUDA_MEMORY_CAST (mem)->context != self->cuda.context)
      return FALSE;
  }
  return TRUE;
}

#if GST_CHECK_VERSION(1, 24, 0)
/* The one CUDA stream (GStreamer >= 1.24) every memory of `buf` was queued
 * on; NULL when a memory has none (its work is done) or they differ. */
static CUstream
buffer_stream (GstBuffer * buf)
{
  CUstream stream = NULL;
  guint i;

  for (i = 0; i < gst_buffer_n_memory (buf); i++) {
    GstMemory *mem = gst_buffer_peek_memory (buf, i);
    CUstream s;

    if (!gst_is_cuda_memory (mem))
      return NULL;
    s = gst_cuda_stream_get_handle (gst_cuda_memory_get_stream
        (GST_CUDA_MEMORY_CAST (mem)));
    if (s == NULL || (i > 0 && s != stream))
      return NULL;
    stream = s;
  }
  return stream;
}
#endif

gpointer
cudafilter_cuda_wait_stream (GstBuffer * buf, gboolean on_device)
{
#if GST_CHECK_VERSION(1, 24, 0)
  return on_device ? (gpointer) buffer_stream (buf) : NULL;
#else
  /* 1.22's CUDA memory has no streams: mapping synchronises. */
  return NULL;
#endif
}

gboolean
cudafilter_cuda_map_frame (GstCudaFilter * self, GstVideoFrame * frame,
    const GstVideoInfo * info, GstBuffer * buf, GstMapFlags flags,
    gboolean device_ok, gboolean * on_device)
{
  GstCudaMemory *cmem = first_cuda_memory (buf);
  GstVideoInfo layout = *info;

  *on_device = FALSE;
  /* Without a video meta only the memory knows its pitched planes. */
  if (cmem && gst_buffer_n_memory (buf) == 1
      && gst_buffer_get_video_meta (buf) == NULL) {
    guint p;

    for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
      layout.offset[p] = cmem->info.offset[p];
      layout.stride[p] = cmem->info.stride[p];
    }
    layout.size = cmem->info.size;
  }

  if (device_ok && is_our_device_memory (self, buf)) {
#if GST_CHECK_VERSION(1, 24, 0)
    guint i;

    /* Work queued on the memories' streams must be done first: the
     * engine's stream waits for one stream on the GPU
     * (cudafilter_cuda_wait_stream), anything else waits here. */
    if (buffer_stream (buf) == NULL)
      for (i = 0; i < gst_buffer_n_memory (buf); i++)
        gst_cuda_memory_sync (GST_CUDA_MEMORY_CAST (gst_buffer_peek_memory
                (buf, i)));
#endif
    if (gst_video_frame_map (frame, &layout, buf, flags | GST_MAP_CUDA)) {
      *on_device = TRUE;
      return TRUE;
    }
    GST_WARNING_OBJECT (self, "could not map CUDA memory on the device, "
        "going through the host");
  } else if (cmem != NULL) {
    GST_DEBUG_OBJECT (self, "CUDA memory through the host: %s",
        !device_ok ? "the backend is not in a CUDA context" :
        self->cuda.context == NULL ? "the element has no CUDA context" :
        "the memory is of another CUDA context, or mixed");
  }
  return gst_video_frame_map (frame, &layout, buf, flags);
}

gboolean
cudafilter_cuda_propose_allocation (GstCudaFilter * self,
    GstQuery * query, GstCaps * caps, const GstVideoInfo * info, guint held)
{
  GstBufferPool *pool;
  GstStructure *config;
  gboolean need_pool;
  guint size;

  if (!gst_cuda_filter_caps_are_cuda (caps) || self->cuda.context == NULL)
    return FALSE;

  gst_query_parse_allocation (query, NULL, &need_pool);
  if (need_pool) {
    pool = gst_cuda_buffer_pool_new (self->cuda.context);
    config = gst_buffer_pool_get_config (pool);
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
    gst_buffer_pool_config_set_params (config, caps, info->size, held, 0);
    if (!gst_buffer_pool_set_config (pool, config)) {
      GST_WARNING_OBJECT (self, "CUDA pool refused its configuration");
      gst_object_unref (pool);
      return FALSE;
    }
    /* The pool sizes its buffers for pitched planes. */
    config = gst_buffer_pool_get_config (pool);
    gst_buffer_pool_config_get_params (config, NULL, &size, NULL, NULL);
    gst_structure_free (config);
    gst_query_add_allocation_pool (query, pool, size, held, 0);
    gst_object_unref (pool);
  }
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return TRUE;
}

#if GST_CHECK_VERSION(1, 24, 0)
/* Outputs from a pool without a stream of its own carry the element's:
 * the engine orders that stream after each frame's writes, so a CUDA
 * element downstream waits on exactly this work (gst_cuda_memory_sync)
 * instead of a whole context.  A downstream pool's own stream is kept, and
 * ordered the same way. */
static void
tag_pool_stream (GstCudaFilter * self, GstStructure * config)
{
  GstCudaStream *stream = gst_buffer_pool_config_get_cuda_stream (config);

  if (stream != NULL) {
    gst_cuda_stream_unref (stream);
    return;
  }
  if (self->cuda.stream == NULL)
    self->cuda.stream = gst_cuda_stream_new (self->cuda.context);
  if (self->cuda.stream != NULL)
    gst_buffer_pool_config_set_cuda_stream (config, self->cuda.stream);
  else
    GST_WARNING_OBJECT (self, "no CUDA stream of its own: outputs carry "
        "the default stream");
}
#endif

gboolean
cudafilter_cuda_decide_allocation (GstCudaFilter * self,
    GstQuery * query, GstCaps * caps, const GstVideoInfo * info, guint held)
{
  GstBufferPool *pool = NULL;
  GstStructure *config;
  guint size = 0, min = 0, max = 0;
  gboolean update;

  if (!gst_cuda_filter_caps_are_cuda (caps) || self->cuda.context == NULL)
    return FALSE;

  update = gst_query_get_n_allocation_pools (query) > 0;
  if (update)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  /* Only a CUDA pool of our own context gives memory the kernels can
   * write in place. */
  if (pool && (!GST_IS_CUDA_BUFFER_POOL (pool)
          || GST_CUDA_BUFFER_POOL (pool)->context != self->cuda.context))
    gst_clear_object (&pool);
  if (pool == NULL)
    pool = gst_cuda_buffer_pool_new (self->cuda.context);

  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  /* No maximum, and room for the frames in flight, which hold outputs
   * until they are pushed, besides those downstream keeps. */
  min += held;
  gst_buffer_pool_config_set_params (config, caps, info->size, min, 0);
#if GST_CHECK_VERSION(1, 24, 0)
  tag_pool_stream (self, config);
#endif
  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_WARNING_OBJECT (self, "CUDA pool refused its configuration");
    gst_object_unref (pool);
    return FALSE;
  }
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, &size, NULL, NULL);
  gst_structure_free (config);

  if (update)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, 0);
  else
    gst_query_add_allocation_pool (query, pool, size, min, 0);
  /* The pool allocates CUDA memory itself; another allocator would only
   * be forced into its configuration. */
  while (gst_query_get_n_allocation_params (query) > 0)
    gst_query_remove_nth_allocation_param (query, 0);
  gst_object_unref (pool);
  return TRUE;
}

#else /* !HAVE_GST_CUDA */

void
cudafilter_cuda_init_class (GstBaseTransformClass * trans_class)
{
}

gboolean
cudafilter_cuda_open (GstCudaFilter * self, gint device_id)
{
  return FALSE;
}

/* The CUDA side back to what init left: no context, no stream, no backend
 * made in one (stop frees the backend first). */
void
cudafilter_cuda_close (GstCudaFilter * self)
{
  cudafilter_cuda_set_context_object (self, NULL);
  self->cuda.backend_in_context = FALSE;
}

gboolean
cudafilter_cuda_push_context (GstCudaContext * context)
{
  return FALSE;
}

gboolean
cudafilter_cuda_push (GstCudaFilter * self)
{
  return FALSE;
}

void
cudafilter_cuda_pop (gboolean pushed)
{
}

gboolean
cudafilter_cuda_handle_query (GstCudaFilter * self, GstQuery * query)
{
  return FALSE;
}

GstCudaContext *
cudafilter_cuda_context_to_adopt (GstCudaFilter * self, GstBuffer * buf,
    gint device_id)
{
  return NULL;
}

void
cudafilter_cuda_set_context_object (GstCudaFilter * self,
    GstCudaContext * context)
{
  GstCudaContext *old;

  GST_OBJECT_LOCK (self);
  old = self->cuda.context;
  self->cuda.context = context ? gst_object_ref (context) : NULL;
  GST_OBJECT_UNLOCK (self);
  gst_clear_object (&old);
}

gpointer
cudafilter_cuda_wait_stream (GstBuffer * buf, gboolean on_device)
{
  return NULL;
}

gboolean
cudafilter_cuda_map_frame (GstCudaFilter * self, GstVideoFrame * frame,
    const GstVideoInfo * info, GstBuffer * buf, GstMapFlags flags,
    gboolean device_ok, gboolean * on_device)
{
  *on_device = FALSE;
  return gst_video_frame_map (frame, info, buf, flags);
}

gboolean
cudafilter_cuda_propose_allocation (GstCudaFilter * self,
    GstQuery * query, GstCaps * caps, const GstVideoInfo * info, guint held)
{
  return FALSE;
}

gboolean
cudafilter_cuda_decide_allocation (GstCudaFilter * self,
    GstQuery * query, GstCaps * caps, const GstVideoInfo * info, guint held)
{
  return FALSE;
}

#endif /* HAVE_GST_CUDA */
