/* cudafilter reliability: pausing while frames are in flight.
 *
 * PLAYING -> PAUSED makes every sink wait for a new buffer to preroll on.
 * An element that keeps `depth - 1` frames in flight until more input
 * comes starves that sink whenever upstream stops: a source that is done
 * for now, or a tee blocked by its other branch (whose sink prerolled
 * already and whose queue holds a serialized query, as a renegotiation
 * sends).  The pause then never completes.  So the frames held when the
 * element pauses leave at once. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/app/gstappsrc.h>
#include "rel-common.h"

#define FRAMES 8
#define DEPTH 6

static GstPadProbeReturn
count_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  g_atomic_int_inc ((gint *) data);
  return GST_PAD_PROBE_OK;
}

static GstBuffer *
frame (guint i)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 32 * 16 * 3 / 2, NULL);

  gst_buffer_memset (buf, 0, 16 + i * 20, 32 * 16 * 3 / 2);
  GST_BUFFER_PTS (buf) = i * GST_SECOND / 30;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  return buf;
}

/* Upstream sends FRAMES frames and then nothing (no EOS): after the pause
 * the sink has only the frames the element held to preroll on. */
GST_START_TEST (test_pause_with_frames_in_flight_prerolls)
{
  gchar *desc = g_strdup_printf ("appsrc name=src format=time "
      "caps=video/x-raw,format=NV12,width=32,height=16,framerate=30/1 ! "
      "cudafilter name=f backend=%s filter=box frames-in-flight=%d ! "
      "fakesink sync=false", rel_backends[__i__], DEPTH);
  GstElement *pipe, *src, *f;
  GstPad *pad;
  GstBus *bus;
  GstMessage *msg;
  gint out = 0;
  guint i;

  REL_SKIP_WITHOUT (__i__);
  pipe = gst_parse_launch (desc, NULL);
  fail_unless (pipe != NULL, "%s", desc);
  bus = gst_element_get_bus (pipe);
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  f = gst_bin_get_by_name (GST_BIN (pipe), "f");
  pad = gst_element_get_static_pad (f, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_buffer, &out,
      NULL);

  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  /* One frame to preroll on, the others once PLAYING (below it, frames
   * leave as soon as they are done). */
  fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src),
          frame (0)), GST_FLOW_OK);
  fail_unless_equals_int (gst_element_get_state (pipe, NULL, NULL,
          10 * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
  for (i = 1; i < FRAMES; i++)
    fail_unless_equals_int (gst_app_src_push_buffer (GST_APP_SRC (src),
            frame (i)), GST_FLOW_OK);
  /* The first frame (the preroll), then one for each frame past DEPTH in
   * flight. */
  for (i = 0; i < 500 && g_atomic_int_get (&out) < FRAMES - DEPTH + 1; i++)
    g_usleep (10000);
  fail_unless_equals_int (g_atomic_int_get (&out), FRAMES - DEPTH + 1);

  fail_unless (gst_element_set_state (pipe, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless (gst_element_get_state (pipe, NULL, NULL, 5 * GST_SECOND) ==
      GST_STATE_CHANGE_SUCCESS, "the pause did not complete within 5 s: "
      "the sink had no frame to preroll on");
  rel_assert_no_error (bus, desc);

  /* Playing again, every frame comes out, once, by EOS. */
  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless_equals_int (gst_app_src_end_of_stream (GST_APP_SRC (src)),
      GST_FLOW_OK);
  msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
      "%s: no EOS", desc);
  gst_message_unref (msg);
  fail_unless_equals_int (g_atomic_int_get (&out), FRAMES);

  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pad);
  gst_object_unref (f);
  gst_object_unref (src);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  g_free (desc);
}

GST_END_TEST;

static Suite *
preroll_suite (void)
{
  Suite *s = suite_create ("cudafilter-preroll");
  TCase *tc = tcase_create ("preroll");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_pause_with_frames_in_flight_prerolls,
      REL_CPU, REL_CUDA + 1);
  return s;
}

GST_CHECK_MAIN (preroll);
