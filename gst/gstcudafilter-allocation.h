/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: allocation (GstBaseTransform's propose_allocation and
 * decide_allocation): pinned host pools, or CUDA pools with CUDA caps. */
#ifndef __GST_CUDA_FILTER_ALLOCATION_H__
#define __GST_CUDA_FILTER_ALLOCATION_H__

#include <gst/base/gstbasetransform.h>

G_BEGIN_DECLS

gboolean gst_cuda_filter_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query);
gboolean gst_cuda_filter_decide_allocation (GstBaseTransform * trans,
    GstQuery * query);

G_END_DECLS

#endif /* __GST_CUDA_FILTER_ALLOCATION_H__ */
