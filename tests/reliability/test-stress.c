/* cudafilter reliability: GstHarness under stress.
 *
 * - properties changed from another thread while frames flow;
 * - PLAYING <-> PAUSED from another thread while frames flow, and a
 *   pipeline cycling through every state while its source pushes;
 * - renegotiation between sizes and formats mid-stream, 3 frames in flight;
 * - flushes (and flushing seeks in a pipeline).
 *
 * What must hold: no crash, no critical (gst-check makes them fatal), no
 * error message, frames in == frames out where no flush intervened, and
 * timestamps in order.  Frames carry distinct constant values and the
 * filter is a normalised smoothing one, so each output must be exactly its
 * own input's constant: a frame swapped, lost or mixed with another shows. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "rel-common.h"

#define FRAME_DUR (GST_SECOND / 30)

static guint
value_of (guint i)
{
  return 16 + (i * 37) % 220;
}

static GstBuffer *
frame (const GstVideoInfo * info, guint i)
{
  GstBuffer *buf = rel_constant_buffer (info, value_of (i));

  GST_BUFFER_PTS (buf) = i * FRAME_DUR;
  GST_BUFFER_DURATION (buf) = FRAME_DUR;
  return buf;
}

/* Pulls every frame available; checks order, timestamps and values against
 * the frame numbers expected next (*next is advanced). */
static guint
pull_and_check (GstHarness * h, const GstVideoInfo * info, guint * next,
    gboolean check_values)
{
  GstBuffer *out;
  guint n = 0;
  gchar *why = NULL;

  while ((out = gst_harness_try_pull (h)) != NULL) {
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), *next * FRAME_DUR);
    if (check_values)
      fail_unless (rel_buffer_is_constant (info, out, value_of (*next), &why),
          "frame %u: %s", *next, why);
    gst_buffer_unref (out);
    (*next)++;
    n++;
  }
  return n;
}

static void
drain (GstHarness * h)
{
  fail_unless (gst_harness_push_event (h,
          gst_event_new_custom (GST_EVENT_CUSTOM_DOWNSTREAM,
              gst_structure_new_empty ("drain"))));
}

/* ---------------------------------------------------------------------- */

typedef struct
{
  GstElement *element;
  volatile gint stop;
  guint changes;
} PropThread;

static gpointer
change_properties (gpointer data)
{
  static const gchar *const filters[] = { "gaussian", "box", "sobel",
    "sobel-x", "sobel-y", "scharr", "laplacian", "sharpen", "custom"
  };
  static const gchar *const borders[] = { "reflect101", "replicate",
    "reflect", "wrap", "constant"
  };
  static const gchar *const kernels[] = { "0 -1 0; -1 5 -1; 0 -1 0",
    "1 2 1; 2 4 2; 1 2 1", "1,1,1,1,1", "1; 2; 1", "0.5 0.25; 0.25 0.125"
  };
  PropThread *t = data;
  GRand *rand = g_rand_new_with_seed (1234);

  while (!g_atomic_int_get (&t->stop)) {
    switch (g_rand_int_range (rand, 0, 5)) {
      case 0:
        gst_util_set_object_arg (G_OBJECT (t->element), "filter",
            filters[g_rand_int_range (rand, 0, G_N_ELEMENTS (filters))]);
        break;
      case 1:
        g_object_set (t->element, "sigma", g_rand_double_range (rand, 0.3,
                6.0), NULL);
        break;
      case 2:
        g_object_set (t->element, "kernel",
            kernels[g_rand_int_range (rand, 0, G_N_ELEMENTS (kernels))], NULL);
        break;
      case 3:
        gst_util_set_object_arg (G_OBJECT (t->element), "border",
            borders[g_rand_int_range (rand, 0, G_N_ELEMENTS (borders))]);
        break;
      default:
        g_object_set (t->element, "kernel-size",
            g_rand_int_range (rand, 0, 4) * 2 + 1, NULL);
        break;
    }
    t->changes++;
    if (t->changes % 8 == 0)
      g_thread_yield ();
  }
  g_rand_free (rand);
  return NULL;
}

GST_START_TEST (test_properties_from_another_thread)
{
  int backend = __i__;
  GstBus *bus;
  GstHarness *h;
  GstVideoInfo info;
  PropThread t = { 0 };
  GThread *thread;
  guint i, next = 0, in = 600;

  REL_SKIP_WITHOUT (backend);
  /* The kernel first, so that filter=custom always has one. */
  h = rel_harness (backend, &bus, "kernel", "1 2 1", "frames-in-flight", "3",
      NULL);
  rel_set_caps (h, &info, "RGBA", 48, 36);
  t.element = h->element;
  thread = g_thread_new ("props", change_properties, &t);
  for (i = 0; i < in; i++) {
    fail_unless_equals_int (gst_harness_push (h, frame (&info, i)),
        GST_FLOW_OK);
    pull_and_check (h, &info, &next, FALSE);
  }
  drain (h);
  pull_and_check (h, &info, &next, FALSE);
  g_atomic_int_set (&t.stop, 1);
  g_thread_join (thread);

  fail_unless_equals_int (next, in);
  rel_assert_no_error (bus, "property changes");
  g_print ("properties (%s): %u frames in == out, %u changes from another "
      "thread\n", rel_backends[backend], in, t.changes);
  rel_teardown (h, bus);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */

typedef struct
{
  GstHarness *h;
  GstVideoInfo *info;
  volatile gint stop;
  guint pushed;
} Pusher;

static gpointer
push_frames (gpointer data)
{
  Pusher *p = data;

  while (!g_atomic_int_get (&p->stop)) {
    GstFlowReturn ret = gst_harness_push (p->h, frame (p->info, p->pushed));

    fail_unless_equals_int (ret, GST_FLOW_OK);
    p->pushed++;
  }
  return NULL;
}

/* PLAYING <-> PAUSED keeps the pads active: every frame pushed comes out. */
GST_START_TEST (test_pause_play_under_load)
{
  int backend = __i__;
  GstBus *bus;
  GstHarness *h;
  GstVideoInfo info;
  Pusher p = { 0 };
  GThread *thread;
  guint i, next = 0;

  REL_SKIP_WITHOUT (backend);
  h = rel_harness (backend, &bus, "frames-in-flight", "3", "filter", "box",
      NULL);
  rel_set_caps (h, &info, "I420", 50, 20);
  p.h = h;
  p.info = &info;
  thread = g_thread_new ("push", push_frames, &p);
  /* At least 400 state changes, and until 300 frames went through them
   * (the pusher may start late on a busy machine). */
  for (i = 0; i < 400 || (g_atomic_int_get ((gint *) & p.pushed) < 300 &&
          i < 400000); i++) {
    fail_unless (gst_element_set_state (h->element, i % 2 ?
            GST_STATE_PLAYING : GST_STATE_PAUSED) !=
        GST_STATE_CHANGE_FAILURE);
    pull_and_check (h, &info, &next, TRUE);
    g_thread_yield ();
  }
  g_atomic_int_set (&p.stop, 1);
  g_thread_join (thread);
  gst_element_set_state (h->element, GST_STATE_PLAYING);
  drain (h);
  pull_and_check (h, &info, &next, TRUE);

  fail_unless_equals_int (next, p.pushed);
  fail_unless (p.pushed >= 300, "only %u frames pushed", p.pushed);
  rel_assert_no_error (bus, "pause/play");
  g_print ("pause/play under load (%s): %u frames in == out\n",
      rel_backends[backend], p.pushed);
  rel_teardown (h, bus);
}

GST_END_TEST;

/* A pipeline whose source pushes as fast as it can while another thread
 * (this one) drives it through every state. */
GST_START_TEST (test_state_changes_under_load)
{
  static const GstState states[] = { GST_STATE_PLAYING, GST_STATE_PAUSED,
    GST_STATE_PLAYING, GST_STATE_READY, GST_STATE_PLAYING, GST_STATE_NULL,
    GST_STATE_PAUSED, GST_STATE_NULL
  };
  int backend = __i__;
  gchar *desc;
  GstElement *pipe;
  GstBus *bus;
  guint i;

  REL_SKIP_WITHOUT (backend);
  desc = g_strdup_printf ("videotestsrc pattern=snow ! "
      "video/x-raw,format=NV12,width=96,height=64 ! queue max-size-buffers=4 "
      "! cudafilter backend=%s frames-in-flight=3 filter=sobel ! fakesink "
      "sync=false", rel_backends[backend]);
  pipe = gst_parse_launch (desc, NULL);
  fail_unless (pipe != NULL);
  bus = gst_element_get_bus (pipe);
  for (i = 0; i < 300; i++) {
    GstStateChangeReturn ret = gst_element_set_state (pipe,
        states[i % G_N_ELEMENTS (states)]);

    fail_unless (ret != GST_STATE_CHANGE_FAILURE);
    if (i % 3 == 0)
      fail_unless (gst_element_get_state (pipe, NULL, NULL, 10 * GST_SECOND)
          != GST_STATE_CHANGE_FAILURE);
    rel_assert_no_error (bus, "state changes under load");
  }
  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  rel_assert_no_error (bus, "state changes under load");
  gst_object_unref (bus);
  gst_object_unref (pipe);
  g_free (desc);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */

GST_START_TEST (test_renegotiation_in_flight)
{
  static const struct
  {
    const gchar *format;
    int w, h, frames;
  } steps[] = {
    {"RGBA", 64, 48, 5}, {"I420", 33, 17, 4}, {"GRAY16_LE", 320, 240, 3},
    {"NV12", 2, 2, 7}, {"RGBA", 1, 1, 2}, {"GBRA", 63, 5, 1},
    {"Y444", 17, 33, 6}, {"BGRx", 640, 2, 3}, {"GRAY8", 5, 400, 4},
    {"NV21", 31, 31, 5}, {"RGBA", 64, 48, 2},
  };
  int backend = __i__;
  GstBus *bus;
  GstHarness *h;
  guint s, i, round, n = 0, next = 0;

  REL_SKIP_WITHOUT (backend);
  h = rel_harness (backend, &bus, "frames-in-flight", "3", "filter",
      "gaussian", "sigma", "2.0", NULL);
  for (round = 0; round < 3; round++) {
    for (s = 0; s < G_N_ELEMENTS (steps); s++) {
      GstVideoInfo info;

      /* New caps drain the frames in flight first: they come out with the
       * caps they were filtered with, checked against the old info. */
      rel_set_caps (h, &info, steps[s].format, steps[s].w, steps[s].h);
      for (i = 0; i < (guint) steps[s].frames; i++) {
        fail_unless_equals_int (gst_harness_push (h, frame (&info, n)),
            GST_FLOW_OK);
        n++;
        pull_and_check (h, &info, &next, TRUE);
      }
      drain (h);
      pull_and_check (h, &info, &next, TRUE);
      fail_unless_equals_int (next, n);
    }
  }
  rel_assert_no_error (bus, "renegotiation");
  g_print ("renegotiation (%s): %u frames in == out over %u caps\n",
      rel_backends[backend], n, 3 * (guint) G_N_ELEMENTS (steps));
  rel_teardown (h, bus);
}

GST_END_TEST;

/* Caps change without a drain: the caps event itself must push the frames
 * in flight before the new format applies. */
GST_START_TEST (test_caps_event_drains)
{
  int backend = __i__;
  GstBus *bus;
  GstHarness *h;
  GstVideoInfo a, b;
  guint next = 0;

  REL_SKIP_WITHOUT (backend);
  h = rel_harness (backend, &bus, "frames-in-flight", "3", NULL);
  rel_set_caps (h, &a, "RGBA", 40, 30);
  fail_unless_equals_int (gst_harness_push (h, frame (&a, 0)), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_push (h, frame (&a, 1)), GST_FLOW_OK);
  /* The first frame out at once (the sink prerolls on it), the second in
   * flight (3 in flight: n - 1 of latency) */
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 1);
  rel_set_caps (h, &b, "GRAY8", 7, 9);
  fail_unless_equals_int (pull_and_check (h, &a, &next, TRUE), 2);
  fail_unless_equals_int (gst_harness_push (h, frame (&b, 2)), GST_FLOW_OK);
  drain (h);
  fail_unless_equals_int (pull_and_check (h, &b, &next, TRUE), 1);
  rel_assert_no_error (bus, "caps drain");
  rel_teardown (h, bus);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */

/* With 3 frames in flight, k > 0 frames pushed after a flush give
 * max (k - 2, 1) outputs (the first leaves at once) and leave the others in
 * flight; a flush discards those and nothing else. */
GST_START_TEST (test_flushes)
{
  int backend = __i__;
  GstBus *bus;
  GstHarness *h;
  GstVideoInfo info;
  guint round, i, n = 0, out_total = 0, discarded = 0;

  REL_SKIP_WITHOUT (backend);
  h = rel_harness (backend, &bus, "frames-in-flight", "3", "filter",
      "gaussian", NULL);
  rel_set_caps (h, &info, "NV12", 36, 20);
  for (round = 0; round < 60; round++) {
    guint k = round % 7, next = n, got;
    GstSegment seg;

    for (i = 0; i < k; i++)
      fail_unless_equals_int (gst_harness_push (h, frame (&info, n + i)),
          GST_FLOW_OK);
    got = pull_and_check (h, &info, &next, TRUE);
    fail_unless_equals_int (got, k == 0 ? 0 : k > 2 ? k - 2 : 1);
    out_total += got;
    discarded += k - got;
    n += k;

    fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
    fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
    /* As after a seek: a segment starting at the next frame. */
    gst_segment_init (&seg, GST_FORMAT_TIME);
    seg.start = n * FRAME_DUR;
    seg.time = seg.start;
    fail_unless (gst_harness_push_event (h, gst_event_new_segment (&seg)));
    fail_unless (gst_harness_try_pull (h) == NULL,
        "a frame from before the flush came out after it");
  }
  /* After all this, a last batch comes out whole. */
  for (i = 0; i < 5; i++)
    fail_unless_equals_int (gst_harness_push (h, frame (&info, n + i)),
        GST_FLOW_OK);
  drain (h);
  {
    guint next = n;

    fail_unless_equals_int (pull_and_check (h, &info, &next, TRUE), 5);
  }
  rel_assert_no_error (bus, "flushes");
  g_print ("flushes (%s): %u out, %u discarded by 60 flushes\n",
      rel_backends[backend], out_total + 5, discarded);
  rel_teardown (h, bus);
}

GST_END_TEST;

static void
count_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad,
    gpointer user_data)
{
  guint64 *last = user_data;

  /* Timestamps in order within each segment; a flushing seek resets. */
  last[1]++;
  last[0] = GST_BUFFER_PTS (buf);
}

GST_START_TEST (test_seeks)
{
  int backend = __i__;
  gchar *desc;
  GstElement *pipe, *sink;
  GstBus *bus;
  guint64 last[2] = { 0, 0 };
  guint i;

  REL_SKIP_WITHOUT (backend);
  desc = g_strdup_printf ("videotestsrc ! video/x-raw,format=RGBA,"
      "width=80,height=60,framerate=30/1 ! cudafilter backend=%s "
      "frames-in-flight=3 ! fakesink name=sink sync=false "
      "signal-handoffs=true", rel_backends[backend]);
  pipe = gst_parse_launch (desc, NULL);
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  bus = gst_element_get_bus (pipe);
  g_signal_connect (sink, "handoff", G_CALLBACK (count_handoff), last);
  fail_unless (gst_element_set_state (pipe, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless (gst_element_get_state (pipe, NULL, NULL, 10 * GST_SECOND) ==
      GST_STATE_CHANGE_SUCCESS);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (i = 0; i < 100; i++) {
    gint64 pos = (i * 7919 % 100) * GST_SECOND / 10;

    fail_unless (gst_element_seek_simple (pipe, GST_FORMAT_TIME,
            GST_SEEK_FLAG_FLUSH | (i % 2 ? GST_SEEK_FLAG_ACCURATE : 0), pos));
    fail_unless (gst_element_get_state (pipe, NULL, NULL, 10 * GST_SECOND)
        != GST_STATE_CHANGE_FAILURE);
    rel_assert_no_error (bus, "seeks");
  }
  /* Not wedged: frames keep coming after the last seek. */
  {
    volatile guint64 *count = &last[1];
    guint64 seen = *count, waited = 0;

    while (*count < seen + 10 && waited++ < 500)
      g_usleep (10000);
    fail_unless (last[1] >= seen + 10, "frames stopped after the seeks");
  }
  rel_assert_no_error (bus, "seeks");
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  g_free (desc);
}

GST_END_TEST;

static Suite *
stress_suite (void)
{
  Suite *s = suite_create ("cudafilter-stress");
  TCase *tc = tcase_create ("stress");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_properties_from_another_thread, REL_CPU,
      REL_CUDA + 1);
  tcase_add_loop_test (tc, test_pause_play_under_load, REL_CPU, REL_CUDA + 1);
  tcase_add_loop_test (tc, test_state_changes_under_load, REL_CPU,
      REL_CUDA + 1);
  tcase_add_loop_test (tc, test_renegotiation_in_flight, REL_CPU,
      REL_CUDA + 1);
  tcase_add_loop_test (tc, test_caps_event_drains, REL_CPU, REL_CUDA + 1);
  tcase_add_loop_test (tc, test_flushes, REL_CPU, REL_CUDA + 1);
  tcase_add_loop_test (tc, test_seeks, REL_CPU, REL_CUDA + 1);
  return s;
}

GST_CHECK_MAIN (stress);
