/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: allocation.
 *
 * The one place that sizes and picks the pools, from the frames the element
 * holds (its depth), the backend and what downstream offered.  The element
 * holds up to `depth` inputs and as many outputs, so the pool offered
 * upstream asks for that many buffers, and an output pool must give that
 * many besides those downstream keeps (its minimum): a downstream pool with
 * a smaller maximum (display sinks, hardware encoders) is replaced with one
 * of the element's own, without a maximum, which downstream copies from,
 * instead of the element blocking on it for good.
 *
 * Host pools are of pinned memory for the CUDA backend only (faster
 * copies); with the CPU backend nothing touches CUDA.  With
 * memory:CUDAMemory caps, pools of CUDA memory in the element's context
 * instead (cudafilter-cuda-memory.c). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafilter-allocation.h"
#include "gstcudafilter-stream.h"
#include "cudafilter-host-allocator.h"
#include "cudafilter-cuda-memory.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_filter_debug

/* The device host memory is pinned for: the CUDA backend's, for its
 * copies only; -1 (not pinned) for the CPU backend. */
static gint
pin_device (GstCudaFilter * self)
{
  gint device;

  if (self->backend == NULL
      || cf_backend_kind (self->backend) != CF_BACKEND_CUDA)
    return -1;
  device = cf_backend_device (self->backend);
  /* Beyond the allocators' devices: plain memory, slower copies. */
  return device < GST_CUDA_FILTER_HOST_MAX_DEVICES ? device : -1;
}

gboolean
gst_cuda_filter_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);
  GstCaps *caps;
  gboolean need_pool;
  GstVideoInfo info;
  guint held = gst_cuda_filter_stream_held_bound (self);

  gst_query_parse_allocation (query, &caps, &need_pool);
  if (caps == NULL || !gst_video_info_from_caps (&info, caps))
    return FALSE;

  if (gst_cuda_filter_caps_are_cuda (caps)) {
    /* A host pool is of no use to a CUDA neighbour. */
    if (!cudafilter_cuda_propose_allocation (self, query, caps, &info, held))
      gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
    return TRUE;
  }

  if (need_pool) {
    GstBufferPool *pool = gst_cuda_filter_host_pool_new (caps,
        pin_device (self), held, 0);

    if (pool) {
      gst_query_add_allocation_pool (query, pool, info.size, held, 0);
      gst_object_unref (pool);
    }
  }
  if (pin_device (self) >= 0) {
    GstAllocator *allocator =
        gst_cuda_filter_host_allocator_get (pin_device (self));
    GstAllocationParams params;

    gst_cuda_filter_host_params_init (&params);
    gst_query_add_allocation_param (query, allocator, &params);
    gst_object_unref (allocator);
  }
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return TRUE;
}

/* Whether a pool downstream proposed holds only plain system memory, so
 * a pool of the element's own (pinned for the CUDA backend) is as good. */
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

/* Puts `pool` first in the query, or adds it. */
static void
set_first_pool (GstQuery * query, GstBufferPool * pool, guint size,
    guint min, guint max)
{
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
}

gboolean
gst_cuda_filter_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);
  GstBaseTransformClass *parent =
      GST_BASE_TRANSFORM_CLASS (g_type_class_peek (GST_TYPE_VIDEO_FILTER));
  GstBufferPool *pool = NULL;
  GstCaps *caps;
  guint size = 0, min = 0, max = 0;
  guint held = gst_cuda_filter_stream_held_bound (self);
  GstVideoInfo info;

  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL || !gst_video_info_from_caps (&info, caps))
    return FALSE;
  if (gst_cuda_filter_caps_are_cuda (caps)) {
    if (!cudafilter_cuda_decide_allocation (self, query, caps, &info, held))
      GST_WARNING_OBJECT (trans, "CUDA memory caps without a CUDA context: "
          "outputs will be system memory");
    return parent->decide_allocation (trans, query);
  }
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  size = MAX (size, info.size);

  if (pool_is_plain (pool) || (max != 0 && max < min + held)) {
    GstBufferPool *own = gst_cuda_filter_host_pool_new (caps,
        pin_device (self), min + held, 0);

    if (pool != NULL && !pool_is_plain (pool))
      GST_INFO_OBJECT (self, "downstream's %" GST_PTR_FORMAT " holds at most "
          "%u buffers, %u of them its own: too few for %u frames in flight; "
          "outputs come from a pool of the element's own", pool, max, min,
          held);
    set_first_pool (query, own, size, min + held, 0);
    gst_object_unref (own);
    if (pin_device (self) >= 0) {
      GstAllocator *allocator =
          gst_cuda_filter_host_allocator_get (pin_device (self));
      GstAllocationParams params;

      gst_cuda_filter_host_params_init (&params);
      if (gst_query_get_n_allocation_params (query) > 0)
        gst_query_set_nth_allocation_param (query, 0, allocator, &params);
      else
        gst_query_add_allocation_param (query, allocator, &params);
      gst_object_unref (allocator);
    }
  } else {
    /* Downstream's own memory, with room for the frames in flight. */
    set_first_pool (query, pool, size, min + held, max);
  }
  gst_clear_object (&pool);

  return parent->decide_allocation (trans, query);
}
