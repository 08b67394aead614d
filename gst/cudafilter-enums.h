/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the enum types of the element's properties. */
#ifndef __CUDAFILTER_ENUMS_H__
#define __CUDAFILTER_ENUMS_H__

#include <gst/gst.h>
#include "cf-spec.h"

G_BEGIN_DECLS

/* Values equal the engine's CfFilter. */
typedef enum
{
  GST_CUDA_FILTER_MODE_GAUSSIAN = 0,
  GST_CUDA_FILTER_MODE_BOX,
  GST_CUDA_FILTER_MODE_SOBEL,
  GST_CUDA_FILTER_MODE_SOBEL_X,
  GST_CUDA_FILTER_MODE_SOBEL_Y,
  GST_CUDA_FILTER_MODE_SCHARR,
  GST_CUDA_FILTER_MODE_LAPLACIAN,
  GST_CUDA_FILTER_MODE_SHARPEN,
  GST_CUDA_FILTER_MODE_CUSTOM,
  GST_CUDA_FILTER_MODE_MEDIAN,
  GST_CUDA_FILTER_MODE_ERODE,
  GST_CUDA_FILTER_MODE_DILATE,
  GST_CUDA_FILTER_MODE_OPEN,
  GST_CUDA_FILTER_MODE_CLOSE,
  GST_CUDA_FILTER_MODE_GRADIENT,
  GST_CUDA_FILTER_MODE_TOPHAT,
  GST_CUDA_FILTER_MODE_BLACKHAT,
  GST_CUDA_FILTER_MODE_BILATERAL,
  GST_CUDA_FILTER_MODE_PIXELATE
} GstCudaFilterMode;

/* Values equal the engine's CfShape. */
typedef enum
{
  GST_CUDA_FILTER_SHAPE_RECT = 0,
  GST_CUDA_FILTER_SHAPE_ELLIPSE,
  GST_CUDA_FILTER_SHAPE_CROSS
} GstCudaFilterShape;

/* Values equal the engine's CfBorder. */
typedef enum
{
  GST_CUDA_FILTER_BORDER_REFLECT101 = 0,
  GST_CUDA_FILTER_BORDER_REPLICATE,
  GST_CUDA_FILTER_BORDER_REFLECT,
  GST_CUDA_FILTER_BORDER_WRAP,
  GST_CUDA_FILTER_BORDER_CONSTANT
} GstCudaFilterBorder;

typedef enum
{
  GST_CUDA_FILTER_BACKEND_AUTO = 0,
  GST_CUDA_FILTER_BACKEND_CUDA,
  GST_CUDA_FILTER_BACKEND_CPU
} GstCudaFilterBackend;

typedef enum
{
  GST_CUDA_FILTER_PLANES_ALL = 0,
  GST_CUDA_FILTER_PLANES_LUMA
} GstCudaFilterPlanes;

#define GST_TYPE_CUDA_FILTER_MODE (gst_cuda_filter_mode_get_type ())
GType gst_cuda_filter_mode_get_type (void);

#define GST_TYPE_CUDA_FILTER_BORDER (gst_cuda_filter_border_get_type ())
GType gst_cuda_filter_border_get_type (void);

#define GST_TYPE_CUDA_FILTER_SHAPE (gst_cuda_filter_shape_get_type ())
GType gst_cuda_filter_shape_get_type (void);

#define GST_TYPE_CUDA_FILTER_BACKEND (gst_cuda_filter_backend_get_type ())
GType gst_cuda_filter_backend_get_type (void);

#define GST_TYPE_CUDA_FILTER_PLANES (gst_cuda_filter_planes_get_type ())
GType gst_cuda_filter_planes_get_type (void);

const gchar *gst_cuda_filter_list_filters (CfFilterReads reads,
    gboolean glosses, const gchar * last_separator);

G_END_DECLS

#endif /* __CUDAFILTER_ENUMS_H__ */
