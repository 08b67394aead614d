/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: GstPreset with built-in presets (soft-blur, edges, ...) next
 * to the user's own saved ones. */
#ifndef __GST_CUDA_FILTER_PRESETS_H__
#define __GST_CUDA_FILTER_PRESETS_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* The GInterfaceInitFunc for G_IMPLEMENT_INTERFACE (GST_TYPE_PRESET, ...). */
void gst_cuda_filter_presets_init_interface (gpointer g_iface,
    gpointer iface_data);

G_END_DECLS

#endif /* __GST_CUDA_FILTER_PRESETS_H__ */
