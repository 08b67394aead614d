/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: pinning the upstream system memory that pools recycle. */
#ifndef __CUDAFILTER_PIN_H__
#define __CUDAFILTER_PIN_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* Pins each system memory of `buf` the second time it is seen (pools
 * recycle their memory, so it will come back and every later upload runs
 * at pinned speed; one-off buffers are left alone).  The pin goes with the
 * memory and is released when the memory is freed.  Safe from several
 * streaming threads on the same memory (elements behind a tee).  Pinned
 * for CUDA device `device`, with that device current. */
void gst_cuda_filter_pin_recycled_memory (GstBuffer * buf, gint device);

G_END_DECLS

#endif /* __CUDAFILTER_PIN_H__ */
