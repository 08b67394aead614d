/* cudafilter reliability tests: helpers shared by the test programs.
 *
 * Each test runs on the backend its loop index names: 0 = cpu, 1 = cuda.
 * A cuda run without a usable device prints why it skips and passes. */
#ifndef REL_COMMON_H
#define REL_COMMON_H

#include <string.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>


#define REL_CPU 0
#define REL_CUDA 1

static const gchar *const rel_backends[] = { "cpu", "cuda" };

/* Whether backend=cuda starts, asked of the element itself (so these
 * programs need not link the CUDA runtime); *why gets the element's error
 * text when it does not. */
static inline gboolean
rel_cuda_probe (gchar ** why)
{
  GstElement *e = gst_element_factory_make ("cudafilter", NULL);
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  gboolean ok;

  fail_unless (e != NULL, "cudafilter not found: is GST_PLUGIN_PATH set?");
  gst_element_set_bus (e, bus);
  gst_util_set_object_arg (G_OBJECT (e), "backend", "cuda");
  ok = gst_element_set_state (e, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE;
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  if (msg != NULL && why != NULL) {
    GError *err = NULL;

    gst_message_parse_error (msg, &err, NULL);
    *why = g_strdup (err->message);
    g_error_free (err);
  }
  if (msg)
    gst_message_unref (msg);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
  return ok;
}

static inline gboolean
rel_backend_usable (int backend)
{
  static int usable = -1;

  if (backend == REL_CPU)
    return TRUE;
  if (usable < 0)
    usable = rel_cuda_probe (NULL);
  return usable;
}

#define REL_SKIP_WITHOUT(be) G_STMT_START {                             \
  if (!rel_backend_usable (be)) {                                       \
    gchar *why_ = NULL;                                                 \
    rel_cuda_probe (&why_);                                             \
    g_print ("SKIP %s (backend=cuda): %s\n", __func__,                 \
        why_ ? why_ : "no usable CUDA device");                         \
    g_free (why_);                                                      \
    return;                                                             \
  }                                                                     \
} G_STMT_END

/* Fails on the first ERROR message on bus (the debug text included). */
static inline void
rel_assert_no_error (GstBus * bus, const gchar * where)
{
  GstMessage *msg;

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR)) != NULL) {
    GError *err = NULL;
    gchar *debug = NULL;

    gst_message_parse_error (msg, &err, &debug);
    fail ("%s: error from %s: %s (%s)", where,
        GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message,
        GST_STR_NULL (debug));
  }
}

/* A harness around a cudafilter with the backend and "name", "value", ...
 * properties; its bus is returned in *bus when bus is not NULL. */
static inline GstHarness *
rel_harness (int backend, GstBus ** bus, ...)
{
  GstElement *e = gst_element_factory_make ("cudafilter", NULL);
  GstHarness *h;
  const gchar *name;
  va_list args;

  fail_unless (e != NULL, "cudafilter not found: is GST_PLUGIN_PATH set?");
  gst_util_set_object_arg (G_OBJECT (e), "backend", rel_backends[backend]);
  va_start (args, bus);
  while ((name = va_arg (args, const gchar *)) != NULL)
    gst_util_set_object_arg (G_OBJECT (e), name, va_arg (args,
            const gchar *));
  va_end (args);
  if (bus != NULL) {
    *bus = gst_bus_new ();
    gst_element_set_bus (e, *bus);
  }
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  return h;
}

/* Tears down a harness made with a bus: the bus is flushed first, since
 * messages it still holds refer to the element, which refers to the bus. */
static inline void
rel_teardown (GstHarness * h, GstBus * bus)
{
  gst_bus_set_flushing (bus, TRUE);
  gst_harness_teardown (h);
  gst_object_unref (bus);
}

static inline void
rel_set_caps (GstHarness * h, GstVideoInfo * info, const gchar * format,
    int w, int hgt)
{
  gst_video_info_set_format (info, gst_video_format_from_string (format), w,
      hgt);
  info->fps_n = 30;
  info->fps_d = 1;
  gst_harness_set_src_caps (h, gst_video_info_to_caps (info));
}

/* A frame of info whose every component sample is `value` (scaled up to
 * 16 bits for deep formats) and whose padding bytes are 0x5A. */
static inline GstBuffer *
rel_constant_buffer (const GstVideoInfo * info, guint value)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstVideoFrame f;
  guint c;
  int x, y;

  gst_buffer_memset (buf, 0, 0x5A, info->size);
  fail_unless (gst_video_frame_map (&f, (GstVideoInfo *) info, buf,
          GST_MAP_WRITE));
  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&f); c++) {
    gboolean deep = GST_VIDEO_FRAME_COMP_DEPTH (&f, c) > 8;

    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&f, c); y++) {
      guint8 *row = (guint8 *) GST_VIDEO_FRAME_COMP_DATA (&f, c) +
          y * GST_VIDEO_FRAME_COMP_STRIDE (&f, c);

      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&f, c); x++) {
        guint8 *p = row + x * GST_VIDEO_FRAME_COMP_PSTRIDE (&f, c);

        if (deep)
          *(guint16 *) p = value * 257;
        else
          *p = value;
      }
    }
  }
  gst_video_frame_unmap (&f);
  return buf;
}

/* Whether every component sample of buf (as info) is `value` (x257 for
 * deep formats); reports the first mismatch. */
static inline gboolean
rel_buffer_is_constant (const GstVideoInfo * info, GstBuffer * buf,
    guint value, gchar ** why)
{
  GstVideoFrame f;
  guint c;
  int x, y;

  if (!gst_video_frame_map (&f, (GstVideoInfo *) info, buf, GST_MAP_READ)) {
    *why = g_strdup_printf ("buffer of %" G_GSIZE_FORMAT " bytes does not "
        "map as %s %dx%d", gst_buffer_get_size (buf),
        GST_VIDEO_INFO_NAME (info), info->width, info->height);
    return FALSE;
  }
  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&f); c++) {
    gboolean deep = GST_VIDEO_FRAME_COMP_DEPTH (&f, c) > 8;
    guint want = deep ? value * 257 : value;

    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&f, c); y++) {
      guint8 *row = (guint8 *) GST_VIDEO_FRAME_COMP_DATA (&f, c) +
          y * GST_VIDEO_FRAME_COMP_STRIDE (&f, c);

      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&f, c); x++) {
        guint8 *p = row + x * GST_VIDEO_FRAME_COMP_PSTRIDE (&f, c);
        guint got = deep ? *(guint16 *) p : *p;

        if (got != want) {
          *why = g_strdup_printf ("%s %dx%d component %u at (%d,%d): got %u, "
              "expected %u", GST_VIDEO_INFO_NAME (info), info->width,
              info->height, c, x, y, got, want);
          gst_video_frame_unmap (&f);
          return FALSE;
        }
      }
    }
  }
  gst_video_frame_unmap (&f);
  return TRUE;
}

#endif /* REL_COMMON_H */
