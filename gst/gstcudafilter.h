/* cudafilter: the element. */
#ifndef __GST_CUDA_FILTER_H__
#define __GST_CUDA_FILTER_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>

#include "cf-backend.h"
#include "cudafilter-enums.h"
#include "cudafilter-stats.h"

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
  guint frames_in_flight;       /* 0 = auto: 1 when live, else 4 */
  guint cpu_threads;            /* 0 = one per core */
  gboolean dirty;               /* spec and layout must be rebuilt */
  GstCudaFilterStats stats;     /* cudafilter-stats.c */

  /* Streaming state, touched only by the streaming thread (and start/stop). */
  CfBackend *backend;
  CfSpec *spec;
  CfLayout layout;
  gboolean fallback_warned;
  guint depth;                  /* frames in flight in use; 0 = not chosen */
  GQueue pending;               /* CfPendingFrame *, oldest first */
  GstObject *cuda_context;      /* GstCudaContext shared with the neighbours
                                 * (cudafilter-cuda-memory.c), or NULL */
  gboolean backend_in_context;  /* the CUDA backend was made in it */
  gint memory_path;             /* last (input, output) on device, for logs */
};

/* The cuda-device-id property, read under the object lock (for the
 * streaming half and the CUDA-memory glue). */
gint gst_cuda_filter_get_device_id (GstCudaFilter * self);

/* Between the element and its streaming half (gstcudafilter-stream.c). */
gboolean gst_cuda_filter_prepare (GstCudaFilter * self,
    const GstVideoInfo * info, gboolean force);
void gst_cuda_filter_stream_init_class (GstBaseTransformClass * trans_class);
void gst_cuda_filter_stream_discard (GstCudaFilter * self);

GST_ELEMENT_REGISTER_DECLARE (cudafilter);

G_END_DECLS

#endif /* __GST_CUDA_FILTER_H__ */
