/* cudafilter example: an application that feeds its own frames to the
 * element and takes the results back.
 *
 *   appsrc ! cudafilter ! appsink
 *
 * Each frame is checked against values worked out by hand:
 *   - a box blur of a constant frame is that constant;
 *   - a box blur (3x3) of one pixel of 90 on black spreads 90 / 9 = 10 over
 *     its 3x3 neighbourhood and leaves every other pixel 0;
 *   - as many frames come out as went in, with their timestamps.
 *
 * Build:  cc embed-appsrc.c $(pkg-config --cflags --libs gstreamer-app-1.0 \
 *           gstreamer-video-1.0) -o embed-appsrc
 * Run:    GST_PLUGIN_PATH=/path/to/build/gst ./embed-appsrc [BACKEND]
 *         (BACKEND: auto, cuda or cpu; auto when left out)
 *
 * Exits 0 when every frame is right, 1 when the pipeline fails or a frame is
 * wrong or missing, 2 on a bad argument.
 */
#include <stdio.h>
#include <string.h>
#include <gst/gst.h>
#include <gst/app/app.h>
#include <gst/video/video.h>

#define WIDTH 64
#define HEIGHT 48
#define N_FRAMES 6
#define DOT_X 20
#define DOT_Y 10

/* Frame i: odd frames are one dot of 90 on black, even ones a constant. */
static guint8
constant_of (int i)
{
  return (guint8) (17 + 40 * i);
}

static GstBuffer *
make_frame (const GstVideoInfo * info, int i)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstVideoFrame frame;
  guint8 *p;
  int y;

  gst_video_frame_map (&frame, info, buf, GST_MAP_WRITE);
  p = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
  for (y = 0; y < HEIGHT; y++)
    memset (p + y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0),
        i % 2 ? 0 : constant_of (i), WIDTH);
  if (i % 2)
    p[DOT_Y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0) + DOT_X] = 90;
  gst_video_frame_unmap (&frame);

  GST_BUFFER_PTS (buf) = gst_util_uint64_scale (i, GST_SECOND, 30);
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  return buf;
}

/* The value a 3x3 box blur must give at (x, y) of frame i. */
static int
expected (int i, int x, int y)
{
  if (i % 2 == 0)
    return constant_of (i);
  return (ABS (x - DOT_X) <= 1 && ABS (y - DOT_Y) <= 1) ? 90 / 9 : 0;
}

static int
check_frame (const GstVideoInfo * info, GstSample * sample, int i)
{
  GstBuffer *buf = gst_sample_get_buffer (sample);
  GstVideoFrame frame;
  int x, y, bad = 0;

  if (GST_BUFFER_PTS (buf) != gst_util_uint64_scale (i, GST_SECOND, 30)) {
    fprintf (stderr, "frame %d: timestamp %" GST_TIME_FORMAT "\n", i,
        GST_TIME_ARGS (GST_BUFFER_PTS (buf)));
    return 1;
  }
  gst_video_frame_map (&frame, info, buf, GST_MAP_READ);
  for (y = 0; y < HEIGHT; y++) {
    const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
        0) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);

    for (x = 0; x < WIDTH; x++) {
      if (row[x] != expected (i, x, y) && bad++ < 5)
        fprintf (stderr, "frame %d (%d,%d): got %d, expected %d\n", i, x, y,
            row[x], expected (i, x, y));
    }
  }
  gst_video_frame_unmap (&frame);
  return bad != 0;
}

/* Sets the backend by its name; a name the element does not know is
 * refused with the ones it does (a string in a launch line would only be a
 * warning, and the pipeline would run with the default). */
static gboolean
set_backend (GstElement * filter, const char *name)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS
      (filter), "backend");
  GEnumClass *klass = G_PARAM_SPEC_ENUM (pspec)->enum_class;
  GEnumValue *value = g_enum_get_value_by_nick (klass, name);
  guint i;

  if (value != NULL) {
    g_object_set (filter, "backend", value->value, NULL);
    return TRUE;
  }
  fprintf (stderr, "Unknown backend '%s'; the backend is one of:", name);
  for (i = 0; i < klass->n_values; i++)
    fprintf (stderr, " %s", klass->values[i].value_nick);
  fprintf (stderr, "\n");
  return FALSE;
}

/* An error the pipeline posted, printed; TRUE when there was one. */
static gboolean
report_error (GstElement * pipeline, const char *what)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  GError *err = NULL;

  gst_object_unref (bus);
  if (msg == NULL)
    return FALSE;
  gst_message_parse_error (msg, &err, NULL);
  fprintf (stderr, "%s: %s\n", what, err->message);
  g_clear_error (&err);
  gst_message_unref (msg);
  return TRUE;
}

int
main (int argc, char **argv)
{
  const gchar *backend = argc > 1 ? argv[1] : "auto";
  GstElement *pipeline, *src, *filter, *sink;
  GstVideoInfo info;
  GstCaps *caps;
  GError *err = NULL;
  guint64 processed = 0;
  gdouble filter_us = 0;
  int i, failures = 0, received = 0;

  gst_init (&argc, &argv);
  if (argc > 2) {
    fprintf (stderr, "usage: %s [BACKEND]\n", argv[0]);
    return 2;
  }

  pipeline = gst_parse_launch ("appsrc name=src format=time ! "
      "cudafilter name=filter filter=box kernel-size=3 ! "
      "appsink name=sink sync=false", &err);
  if (pipeline == NULL) {
    fprintf (stderr, "Could not build the pipeline: %s\n(Is GST_PLUGIN_PATH "
        "set to the folder holding libgstcudafilter.so?)\n", err->message);
    g_error_free (err);
    return 1;
  }
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  filter = gst_bin_get_by_name (GST_BIN (pipeline), "filter");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  if (!set_backend (filter, backend)) {
    gst_object_unref (src);
    gst_object_unref (filter);
    gst_object_unref (sink);
    gst_object_unref (pipeline);
    return 2;
  }

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, WIDTH, HEIGHT);
  GST_VIDEO_INFO_FPS_N (&info) = 30;
  GST_VIDEO_INFO_FPS_D (&info) = 1;
  caps = gst_video_info_to_caps (&info);
  gst_app_src_set_caps (GST_APP_SRC (src), caps);
  gst_caps_unref (caps);

  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    /* The element says why on the bus (no CUDA device, bad settings...). */
    if (!report_error (pipeline, "The pipeline did not start"))
      fprintf (stderr, "The pipeline did not start\n");
    gst_element_set_state (pipeline, GST_STATE_NULL);
    return 1;
  }

  /* Push everything, then pull: frames in flight inside the element are
   * flushed out by the end of stream. */
  for (i = 0; i < N_FRAMES; i++)
    gst_app_src_push_buffer (GST_APP_SRC (src), make_frame (&info, i));
  gst_app_src_end_of_stream (GST_APP_SRC (src));

  /* An error stops the stream before its end reaches the sink, so wait in
   * short steps and look at the bus between them rather than block. */
  for (;;) {
    GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        GST_SECOND / 10);

    if (sample == NULL) {
      if (gst_app_sink_is_eos (GST_APP_SINK (sink)))
        break;
      if (report_error (pipeline, "Error")) {
        failures++;
        break;
      }
      continue;
    }
    if (received < N_FRAMES)
      failures += check_frame (&info, sample, received);
    received++;
    gst_sample_unref (sample);
  }

  if (report_error (pipeline, "Error"))
    failures++;

  g_object_get (filter, "frames-processed", &processed, "filter-time",
      &filter_us, NULL);
  if (received != N_FRAMES || processed != N_FRAMES) {
    fprintf (stderr, "%d frames in, %d out, frames-processed %"
        G_GUINT64_FORMAT "\n", N_FRAMES, received, processed);
    failures++;
  }
  printf ("%d frames in, %d out, %d wrong; last frame filtered in %.1f us\n",
      N_FRAMES, received, failures, filter_us);

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (filter);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  return failures ? 1 : 0;
}
