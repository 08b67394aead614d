/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: pinned host memory as a GstAllocator. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include "cudafilter-host-allocator.h"
#include "cf-host-memory.h"

typedef struct
{
  GstMemory mem;
  guint8 *data;                 /* block start; shared by sub-memories */
  gint pinned_on;               /* the device that pinned it, -1: none */
} HostMemory;

struct _GstCudaFilterHostAllocator
{
  GstAllocator parent;
  gint device;                  /* pins for this CUDA device only */
};

G_DEFINE_TYPE (GstCudaFilterHostAllocator, gst_cuda_filter_host_allocator,
    GST_TYPE_ALLOCATOR);

static GstMemory *
host_alloc (GstAllocator * allocator, gsize size, GstAllocationParams * params)
{
  gsize maxsize = size + params->prefix + params->padding;
  HostMemory *mem = g_new0 (HostMemory, 1);

  /* Blocks are page-aligned, which satisfies any smaller alignment. */
  mem->data = cf_host_alloc (maxsize,
      ((GstCudaFilterHostAllocator *) allocator)->device, &mem->pinned_on);
  if (mem->data == NULL) {
    g_free (mem);
    return NULL;
  }
  gst_memory_init (GST_MEMORY_CAST (mem), params->flags, allocator, NULL,
      maxsize, MIN (params->align, CF_HOST_ALIGN - 1), params->prefix, size);
  if (params->prefix && (params->flags & GST_MEMORY_FLAG_ZERO_PREFIXED))
    memset (mem->data, 0, params->prefix);
  if (params->padding && (params->flags & GST_MEMORY_FLAG_ZERO_PADDED))
    memset (mem->data + params->prefix + size, 0, params->padding);
  return GST_MEMORY_CAST (mem);
}

static void
host_free (GstAllocator * allocator, GstMemory * memory)
{
  HostMemory *mem = (HostMemory *) memory;

  if (memory->parent == NULL)
    cf_host_free (mem->data, mem->pinned_on);
  g_free (mem);
}

static gpointer
host_map (GstMemory * memory, gsize maxsize, GstMapFlags flags)
{
  return ((HostMemory *) memory)->data;
}

static void
host_unmap (GstMemory * memory)
{
}

static GstMemory *
host_share (GstMemory * memory, gssize offset, gssize size)
{
  HostMemory *mem = (HostMemory *) memory, *sub;
  GstMemory *parent = memory->parent ? memory->parent : memory;

  if (size == -1)
    size = memory->size - offset;
  sub = g_new0 (HostMemory, 1);
  sub->data = mem->data;
  sub->pinned_on = mem->pinned_on;
  gst_memory_init (GST_MEMORY_CAST (sub),
      GST_MINI_OBJECT_FLAGS (parent) | GST_MINI_OBJECT_FLAG_LOCK_READONLY,
      memory->allocator, parent, memory->maxsize, memory->align,
      memory->offset + offset, size);
  return GST_MEMORY_CAST (sub);
}

static void
gst_cuda_filter_host_allocator_class_init (GstCudaFilterHostAllocatorClass *
    klass)
{
  GstAllocatorClass *alloc_class = GST_ALLOCATOR_CLASS (klass);

  alloc_class->alloc = host_alloc;
  alloc_class->free = host_free;
}

static void
gst_cuda_filter_host_allocator_init (GstCudaFilterHostAllocator * self)
{
  GstAllocator *alloc = GST_ALLOCATOR_CAST (self);

  alloc->mem_type = GST_CUDA_FILTER_HOST_MEMORY_TYPE;
  alloc->mem_map = host_map;
  alloc->mem_unmap = host_unmap;
  alloc->mem_share = host_share;
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

GstAllocator *
gst_cuda_filter_host_allocator_get (gint device)
{
  static GMutex lock;
  static GstAllocator *instances[GST_CUDA_FILTER_HOST_MAX_DEVICES];
  GstAllocator *a;

  g_return_val_if_fail (device >= 0
      && device < GST_CUDA_FILTER_HOST_MAX_DEVICES, NULL);
  g_mutex_lock (&lock);
  if (instances[device] == NULL) {
    a = g_object_new (GST_TYPE_CUDA_FILTER_HOST_ALLOCATOR, NULL);
    ((GstCudaFilterHostAllocator *) a)->device = device;
    gst_object_ref_sink (a);
    /* Lives for the process, as GStreamer's own default allocators. */
    GST_OBJECT_FLAG_SET (a, GST_OBJECT_FLAG_MAY_BE_LEAKED);
    instances[device] = a;
  }
  a = gst_object_ref (instances[device]);
  g_mutex_unlock (&lock);
  return a;
}

gboolean
gst_cuda_filter_is_pinned_memory (GstMemory * mem)
{
  return gst_memory_is_type (mem, GST_CUDA_FILTER_HOST_MEMORY_TYPE)
      && ((HostMemory *) mem)->pinned_on >= 0;
}

void
gst_cuda_filter_host_params_init (GstAllocationParams * params)
{
  gst_allocation_params_init (params);
  params->align = 63;
}

GstBufferPool *
gst_cuda_filter_host_pool_new (GstCaps * caps, gint pin_device, guint min,
    guint max)
{
  GstVideoInfo info;
  GstBufferPool *pool;
  GstStructure *config;

  if (!gst_video_info_from_caps (&info, caps))
    return NULL;

  pool = gst_video_buffer_pool_new ();
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, info.size, min, max);
  if (pin_device >= 0) {
    GstAllocator *allocator = gst_cuda_filter_host_allocator_get (pin_device);
    GstAllocationParams params;

    gst_cuda_filter_host_params_init (&params);
    gst_buffer_pool_config_set_allocator (config, allocator, &params);
    gst_object_unref (allocator);
  }
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}
