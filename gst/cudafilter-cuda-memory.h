/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: memory:CUDAMemory interop (gstreamer-cuda-1.0).
 *
 * Built with the cuda-memory feature, the element accepts and produces
 * video/x-raw(memory:CUDAMemory) as well as system memory, shares one
 * GstCudaContext with its neighbours and runs its CUDA backend inside that
 * context, so device buffers go straight to the kernels.  Without the
 * feature every function here is a no-op and the caps are system memory
 * only. */
#ifndef __CUDAFILTER_CUDA_MEMORY_H__
#define __CUDAFILTER_CUDA_MEMORY_H__

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "gstcudafilter.h"

G_BEGIN_DECLS

#define GST_CUDA_FILTER_MEMORY_CUDA "memory:CUDAMemory"

/* video/x-raw(memory:CUDAMemory) caps for those of `formats` (a list of
 * format names) that the running GStreamer's CUDA allocator can hold; empty
 * caps without the cuda-memory feature. */
GstCaps *cudafilter_cuda_memory_caps (const GValue * formats);

/* Installs set_context, transform_caps and fixate_caps (with the feature
 * only); they chain up to GstVideoFilter's. */
void cudafilter_cuda_init_class (GstBaseTransformClass * trans_class);

/* Finds or creates the CUDA context for `device_id` (-1 = any): set on the
 * element, asked of the neighbours and the application, else new.  FALSE
 * when CUDA is not usable; the element then runs without a context. */
gboolean cudafilter_cuda_open (GstCudaFilter * self, gint device_id);
void cudafilter_cuda_close (GstCudaFilter * self);

/* Makes the element's context current on this thread around engine calls;
 * returns whether something was pushed, to give to _pop. */
gboolean cudafilter_cuda_push (GstCudaFilter * self);
/* The same for a given context (NULL: nothing is pushed). */
gboolean cudafilter_cuda_push_context (GstCudaContext * context);
void cudafilter_cuda_pop (gboolean pushed);

/* Answers a context query with the element's context. */
gboolean cudafilter_cuda_handle_query (GstCudaFilter * self,
    GstQuery * query);

/* The context of `buf`'s CUDA memory when the element should move to it
 * (another context, on a device cuda-device-id allows), with a reference;
 * else NULL. */
GstCudaContext *cudafilter_cuda_context_to_adopt (GstCudaFilter * self,
    GstBuffer * buf, gint device_id);
/* Replaces the element's context (reference taken; NULL: none), under
 * the object lock: only the streaming thread (and start/stop) calls it. */
void cudafilter_cuda_set_context_object (GstCudaFilter * self,
    GstCudaContext * context);

/* Maps `buf` as a video frame: its device planes when it is CUDA memory of
 * the element's context and `device_ok` (the backend runs on CUDA), else
 * host planes (GstCudaMemory downloads or uploads itself).  *on_device
 * tells which. */
gboolean cudafilter_cuda_map_frame (GstCudaFilter * self,
    GstVideoFrame * frame, const GstVideoInfo * info, GstBuffer * buf,
    GstMapFlags flags, gboolean device_ok, gboolean * on_device);

/* For a frame mapped on the device: the CUDA stream whose queued work on
 * `buf` the engine must wait for (CfFrame.wait_stream), NULL when there is
 * none (GStreamer 1.22, or mapping has synchronised). */
gpointer cudafilter_cuda_wait_stream (GstBuffer * buf,
    gboolean on_device);

gboolean gst_cuda_filter_caps_are_cuda (GstCaps * caps);
/* Whether `mem` is GStreamer's CUDA memory (FALSE without gstreamer-cuda). */
gboolean cudafilter_cuda_is_cuda_memory (GstMemory * mem);

/* Allocation with CUDA caps: a GstCudaBufferPool on the element's context.
 * Return TRUE when they handled the query. */
gboolean cudafilter_cuda_propose_allocation (GstCudaFilter * self,
    GstQuery * query, GstCaps * caps, const GstVideoInfo * info, guint held);
gboolean cudafilter_cuda_decide_allocation (GstCudaFilter * self,
    GstQuery * query, GstCaps * caps, const GstVideoInfo * info, guint held);

G_END_DECLS

#endif /* __CUDAFILTER_CUDA_MEMORY_H__ */
