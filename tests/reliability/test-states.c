/* cudafilter reliability: state changes.
 *
 * The three sequences of GStreamer's generic states test
 * (gstreamer/tests/check/generic/states.c: up and down, up, down), each run
 * CYCLES times on the element alone, in a pipeline with data flowing
 * (videotestsrc ! cudafilter ! fakesink) and under a GstHarness that pushes
 * frames whenever the element is PLAYING, on both backends. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "rel-common.h"

#define CYCLES 100

static const GstState seq_up_and_down[] = {
  GST_STATE_READY, GST_STATE_PAUSED, GST_STATE_PLAYING, GST_STATE_PAUSED,
  GST_STATE_READY, GST_STATE_NULL, GST_STATE_PAUSED, GST_STATE_READY,
  GST_STATE_PLAYING, GST_STATE_PAUSED, GST_STATE_NULL
};

static const GstState seq_up[] = {
  GST_STATE_READY, GST_STATE_NULL, GST_STATE_READY, GST_STATE_PAUSED,
  GST_STATE_READY, GST_STATE_NULL, GST_STATE_READY, GST_STATE_PAUSED,
  GST_STATE_PLAYING, GST_STATE_PAUSED, GST_STATE_READY, GST_STATE_NULL
};

static const GstState seq_down[] = {
  GST_STATE_READY, GST_STATE_PAUSED, GST_STATE_PLAYING, GST_STATE_PAUSED,
  GST_STATE_PLAYING, GST_STATE_PAUSED, GST_STATE_READY, GST_STATE_PAUSED,
  GST_STATE_PLAYING, GST_STATE_PAUSED, GST_STATE_READY, GST_STATE_NULL,
  GST_STATE_READY, GST_STATE_PAUSED, GST_STATE_PLAYING, GST_STATE_NULL
};

typedef struct
{
  const GstState *states;
  guint n;
  const gchar *name;
} Sequence;

static const Sequence sequences[] = {
  {seq_up_and_down, G_N_ELEMENTS (seq_up_and_down), "up-and-down"},
  {seq_up, G_N_ELEMENTS (seq_up), "up"},
  {seq_down, G_N_ELEMENTS (seq_down), "down"},
};

/* Sets the state and waits for it; a live pipeline only prerolls in
 * PLAYING, so NO_PREROLL counts as success. */
static void
go_to (GstElement * e, GstState state, const gchar * where)
{
  GstStateChangeReturn ret = gst_element_set_state (e, state);
  GstState cur;

  if (ret == GST_STATE_CHANGE_ASYNC)
    ret = gst_element_get_state (e, &cur, NULL, 10 * GST_SECOND);
  fail_unless (ret != GST_STATE_CHANGE_FAILURE && ret !=
      GST_STATE_CHANGE_ASYNC, "%s: going to %s gave %s", where,
      gst_element_state_get_name (state),
      gst_element_state_change_return_get_name (ret));
}

GST_START_TEST (test_element_alone)
{
  int backend = __i__;
  guint s, cycle, i;

  REL_SKIP_WITHOUT (backend);
  for (s = 0; s < G_N_ELEMENTS (sequences); s++) {
    GstElement *e = gst_element_factory_make ("cudafilter", NULL);
    GstBus *bus = gst_bus_new ();

    gst_element_set_bus (e, bus);
    gst_util_set_object_arg (G_OBJECT (e), "backend", rel_backends[backend]);
    for (cycle = 0; cycle < CYCLES; cycle++)
      for (i = 0; i < sequences[s].n; i++)
        go_to (e, sequences[s].states[i], sequences[s].name);
    rel_assert_no_error (bus, sequences[s].name);
    gst_element_set_bus (e, NULL);
    gst_object_unref (bus);
    gst_object_unref (e);
  }
}

GST_END_TEST;

static void
count_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad,
    gpointer user_data)
{
  g_atomic_int_inc ((gint *) user_data);
}

GST_START_TEST (test_pipeline_with_data)
{
  static const gchar *const formats[] = { "RGBA", "I420", "GRAY16_LE" };
  int backend = __i__;
  guint s, cycle, i;

  REL_SKIP_WITHOUT (backend);
  for (s = 0; s < G_N_ELEMENTS (sequences); s++) {
    gchar *desc = g_strdup_printf ("videotestsrc is-live=%s pattern=ball ! "
        "video/x-raw,format=%s,width=64,height=48,framerate=300/1 ! "
        "cudafilter backend=%s filter=gaussian sigma=1.5 ! "
        "fakesink name=sink sync=false signal-handoffs=true",
        s == 1 ? "true" : "false", formats[s], rel_backends[backend]);
    GstElement *pipe = gst_parse_launch (desc, NULL);
    GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
    GstBus *bus = gst_element_get_bus (pipe);
    gint frames = 0;

    fail_unless (pipe != NULL && sink != NULL, "cannot build %s", desc);
    g_signal_connect (sink, "handoff", G_CALLBACK (count_handoff), &frames);
    for (cycle = 0; cycle < CYCLES; cycle++) {
      for (i = 0; i < sequences[s].n; i++) {
        gint before = g_atomic_int_get (&frames);

        go_to (pipe, sequences[s].states[i], sequences[s].name);
        /* Let a frame through before leaving PLAYING: a live source
         * delivers on its clock, later on a loaded machine (bounded). */
        for (int w = 0; w < 2000 && sequences[s].states[i] ==
            GST_STATE_PLAYING && g_atomic_int_get (&frames) == before; w++)
          g_usleep (1000);
      }
      rel_assert_no_error (bus, sequences[s].name);
    }
    /* Data really flowed through the filter during the cycles. */
    fail_unless (g_atomic_int_get (&frames) >= CYCLES,
        "%s %s: only %d frames reached the sink in %d cycles",
        sequences[s].name, formats[s], g_atomic_int_get (&frames), CYCLES);
    g_print ("states %s/%s (%s): %d cycles, %d frames through\n",
        sequences[s].name, formats[s], rel_backends[backend], CYCLES, frames);
    gst_object_unref (bus);
    gst_object_unref (sink);
    gst_object_unref (pipe);
    g_free (desc);
  }
}

GST_END_TEST;

/* The harness's pads carry no sticky events after the element went to
 * READY: send them again, then frames, then a serialized event, which
 * makes every frame in flight come out. */
static void
harness_play_frames (GstHarness * h, GstVideoInfo * info, guint n,
    guint value, guint * out_frames)
{
  gchar *why = NULL;
  guint i;

  fail_unless (gst_harness_push_event (h,
          gst_event_new_stream_start ("states")));
  rel_set_caps (h, info, GST_VIDEO_INFO_NAME (info), info->width,
      info->height);
  for (i = 0; i < n; i++)
    fail_unless_equals_int (gst_harness_push (h,
            rel_constant_buffer (info, value)), GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h,
          gst_event_new_custom (GST_EVENT_CUSTOM_DOWNSTREAM,
              gst_structure_new_empty ("drain"))));
  for (i = 0; i < n; i++) {
    GstBuffer *out = gst_harness_try_pull (h);

    fail_unless (out != NULL, "frame %u of %u did not come out", i, n);
    /* A Gaussian of a constant frame is that constant. */
    fail_unless (rel_buffer_is_constant (info, out, value, &why), "%s", why);
    gst_buffer_unref (out);
    (*out_frames)++;
  }
  fail_unless (gst_harness_try_pull (h) == NULL, "more frames out than in");
}

GST_START_TEST (test_harness_with_data)
{
  int backend = __i__;
  guint s, cycle, i, frames = 0;

  REL_SKIP_WITHOUT (backend);
  for (s = 0; s < G_N_ELEMENTS (sequences); s++) {
    GstBus *bus;
    GstHarness *h = rel_harness (backend, &bus, "frames-in-flight", "3",
        "filter", "gaussian", NULL);
    GstVideoInfo info;

    gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 40, 30);
    info.fps_n = 30;
    info.fps_d = 1;
    go_to (h->element, GST_STATE_NULL, "start");
    for (cycle = 0; cycle < CYCLES; cycle++) {
      for (i = 0; i < sequences[s].n; i++) {
        go_to (h->element, sequences[s].states[i], sequences[s].name);
        if (sequences[s].states[i] == GST_STATE_PLAYING)
          harness_play_frames (h, &info, 4, 30 + (cycle + i) % 200, &frames);
      }
    }
    rel_assert_no_error (bus, sequences[s].name);
    rel_teardown (h, bus);
  }
  g_print ("harness states (%s): %u frames in == out\n",
      rel_backends[backend], frames);
}

GST_END_TEST;

static Suite *
states_suite (void)
{
  Suite *s = suite_create ("cudafilter-states");
  TCase *tc = tcase_create ("states");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_element_alone, REL_CPU, REL_CUDA + 1);
  tcase_add_loop_test (tc, test_pipeline_with_data, REL_CPU, REL_CUDA + 1);
  tcase_add_loop_test (tc, test_harness_with_data, REL_CPU, REL_CUDA + 1);
  return s;
}

GST_CHECK_MAIN (states);
