/* cudafilter: the element. */
#ifndef __GST_CUDA_FILTER_H__
#define __GST_CUDA_FILTER_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>

#include "cf-backend.h"
#include "cudafilter-enums.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_FILTER (gst_cuda_filter_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaFilter, gst_cuda_filter, GST, CUDA_FILTER,
    GstVideoFilter);

struct _GstCudaFilter
{
  GstVideoFilter parent;

  /* Properties, under the object lock. */
  CfParams params;              /* params.kernel points at `kernel` */
  gchar *kernel;
  GstCudaFilterPlanes planes;
  GstCudaFilterBackend backend_choice;
  gint device_id;
  gboolean dirty;               /* spec and layout must be rebuilt */

  /* Streaming state, touched only by the streaming thread (and start/stop). */
  CfBackend *backend;
  CfSpec *spec;
  CfLayout layout;
  gboolean fallback_warned;
};

GST_ELEMENT_REGISTER_DECLARE (cudafilter);

G_END_DECLS

#endif /* __GST_CUDA_FILTER_H__ */
