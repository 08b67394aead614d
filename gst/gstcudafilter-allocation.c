/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: allocation.
 *
 * Upstream is offered a pool of pinned host memory, and outputs come from
 * one unless downstream provides special memory.  With memory:CUDAMemory
 * caps, pools of CUDA memory in the element's context instead
 * (cudafilter-cuda-memory.c). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafilter-allocation.h"
#include "cudafilter-host-allocator.h"
#include "cudafilter-cuda-memory.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_filter_debug

gboolean
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
    if (!cudafilter_cuda_propose_allocation (GST_CUDA_FILTER (trans),
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
  gst_cuda_filter_host_params_init (&params);
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

gboolean
gst_cuda_filter_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstBaseTransformClass *parent =
      GST_BASE_TRANSFORM_CLASS (g_type_class_peek (GST_TYPE_VIDEO_FILTER));
  GstBufferPool *pool = NULL;
  GstCaps *caps;
  guint size = 0, min = 0, max = 0;
  GstVideoInfo info;

  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL || !gst_video_info_from_caps (&info, caps))
    return FALSE;
  if (gst_cuda_filter_caps_are_cuda (caps)) {
    if (!cudafilter_cuda_decide_allocation (GST_CUDA_FILTER (trans),
            query, caps, &info))
      GST_WARNING_OBJECT (trans, "CUDA memory caps without a CUDA context: "
          "outputs will be system memory");
    return parent->decide_allocation (trans, query);
  }
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);

  if (pool_is_plain (pool)) {
    GstBufferPool *pinned = gst_cuda_filter_host_pool_new (caps, 0, 0);
    GstAllocator *allocator = gst_cuda_filter_host_allocator_get ();
    GstAllocationParams params;

    gst_cuda_filter_host_params_init (&params);
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

  return parent->decide_allocation (trans, query);
}
