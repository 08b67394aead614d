/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: a GstAllocator of pinned host memory (see cf-host-memory.h),
 * offered upstream and used for output buffers so PCIe copies run at full
 * speed and overlap with the kernels. */
#ifndef __CUDAFILTER_HOST_ALLOCATOR_H__
#define __CUDAFILTER_HOST_ALLOCATOR_H__

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

#define GST_CUDA_FILTER_HOST_MEMORY_TYPE "CudaFilterHostMemory"

#define GST_TYPE_CUDA_FILTER_HOST_ALLOCATOR \
  (gst_cuda_filter_host_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaFilterHostAllocator,
    gst_cuda_filter_host_allocator, GST, CUDA_FILTER_HOST_ALLOCATOR,
    GstAllocator);

/* Devices an allocator can pin for. */
#define GST_CUDA_FILTER_HOST_MAX_DEVICES 64

/* The process-wide instance that pins for CUDA device `device` (with that
 * device current, touching no other), with a new reference. */
GstAllocator *gst_cuda_filter_host_allocator_get (gint device);

/* The allocation params offered and used with this allocator: rows start
 * on 64-byte boundaries (a cache line, and the widest vector loads). */
void gst_cuda_filter_host_params_init (GstAllocationParams * params);

/* Whether mem came from this allocator and is page-locked. */
gboolean gst_cuda_filter_is_pinned_memory (GstMemory * mem);

/* A video buffer pool for `caps` (video meta enabled), not yet active: of
 * memory pinned for CUDA device `pin_device` from this allocator, or with
 * -1 of plain system memory (no CUDA call).  Returns NULL when the caps
 * are not video. */
GstBufferPool *gst_cuda_filter_host_pool_new (GstCaps * caps,
    gint pin_device, guint min, guint max);

G_END_DECLS
#endif /* __CUDAFILTER_HOST_ALLOCATOR_H__ */
