/* cudafilter reliability: flushing seeks while frames are in flight.
 *
 * After a flush the first frame leaves the element as soon as it is done,
 * whatever frames-in-flight says: the sink prerolls on it.  Held for
 * `depth` frames, each seek's preroll came that much later, into the time
 * an application sends its next event.
 *
 * An EOS sent with gst_element_send_event () while a flushing seek's
 * preroll is being committed deadlocks in GStreamer 1.22, whatever the
 * elements (seen with gdb: the application thread in basesrc's send_event,
 * under the pipeline's state lock, waits for the source pad's stream lock;
 * the streaming thread holding it waits in the sink's preroll for PLAYING;
 * the bin's state-continue thread that would bring PLAYING waits for the
 * state lock).  So the storms, as an application must, wait for the last
 * seek's state change before the EOS.
 *
 * Storms: a pipeline filtering a fast test source with several frames in
 * flight takes 60 flushing seeks 3 ms apart, then EOS.  CI runs 12 storms
 * with 6 frames in flight (sharpen), 12 with 16 (box) and 6 on
 * backend=auto, each on the CPU and again on CUDA where a device is usable
 * (CUDAFILTER_SEEK_STORM_RUNS sets the 12); each run has a watchdog that
 * fails the test instead of hanging it. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <unistd.h>
#include "rel-common.h"

#define SEEKS 60
#define RUN_TIMEOUT_S 20

static gint runs = 12;

typedef struct
{
  GMutex lock;
  GCond cond;
  gboolean done;
} Watchdog;

static void
eos_or_error (GstBus * bus, const gchar * what, int run)
{
  GstMessage *msg = gst_bus_timed_pop_filtered (bus,
      RUN_TIMEOUT_S * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);

  fail_unless (msg != NULL, "%s run %d: no EOS within %d s", what, run,
      RUN_TIMEOUT_S);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;

    gst_message_parse_error (msg, &err, NULL);
    fail ("%s run %d: error from %s: %s", what, run,
        GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message);
  }
  gst_message_unref (msg);
}

/* Fails (and so ends the process) when a run has not ended in time: a
 * seek that never returns cannot be timed out from its own thread. */
static gpointer
watchdog_thread (gpointer data)
{
  Watchdog *w = data;
  gint64 end = g_get_monotonic_time () + RUN_TIMEOUT_S * G_TIME_SPAN_SECOND;

  g_mutex_lock (&w->lock);
  while (!w->done)
    if (!g_cond_wait_until (&w->cond, &w->lock, end))
      break;
  if (!w->done) {
    g_printerr ("seek storm: a run is stuck after %d s (a seek or EOS never "
        "returned)\n", RUN_TIMEOUT_S);
    _exit (1);
  }
  g_mutex_unlock (&w->lock);
  return NULL;
}

static void
storm (const gchar * backend, const gchar * props, int run, GRand * rand)
{
  gchar *desc = g_strdup_printf ("videotestsrc pattern=ball ! "
      "video/x-raw,format=NV12,width=128,height=72,framerate=1000/1 ! "
      "cudafilter backend=%s %s ! fakesink sync=false",
      backend, props);
  GstElement *pipe = gst_parse_launch (desc, NULL);
  GstBus *bus = gst_element_get_bus (pipe);
  Watchdog w = { 0 };
  GThread *dog;
  int i;

  g_mutex_init (&w.lock);
  g_cond_init (&w.cond);
  dog = g_thread_new ("watchdog", watchdog_thread, &w);

  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_PLAYING),
      GST_STATE_CHANGE_ASYNC);
  fail_unless_equals_int (gst_element_get_state (pipe, NULL, NULL,
          RUN_TIMEOUT_S * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
  for (i = 0; i < SEEKS; i++) {
    GstSeekFlags flags = GST_SEEK_FLAG_FLUSH |
        (g_rand_boolean (rand) ? GST_SEEK_FLAG_KEY_UNIT : 0);
    gint64 pos = g_rand_int_range (rand, 0, 5000) * GST_MSECOND;

    gst_element_seek_simple (pipe, GST_FORMAT_TIME, flags, pos);
    g_usleep (3000);
  }
  fail_unless (gst_element_get_state (pipe, NULL, NULL,
          RUN_TIMEOUT_S * GST_SECOND) != GST_STATE_CHANGE_FAILURE);
  gst_element_send_event (pipe, gst_event_new_eos ());
  eos_or_error (bus, desc, run);
  gst_element_set_state (pipe, GST_STATE_NULL);

  g_mutex_lock (&w.lock);
  w.done = TRUE;
  g_cond_signal (&w.cond);
  g_mutex_unlock (&w.lock);
  g_thread_join (dog);
  g_mutex_clear (&w.lock);
  g_cond_clear (&w.cond);

  gst_object_unref (bus);
  gst_object_unref (pipe);
  g_free (desc);
}

static void
storms (const gchar * backend, const gchar * props, int n)
{
  GRand *rand = g_rand_new_with_seed (14);
  int run;

  for (run = 0; run < n; run++)
    storm (backend, props, run, rand);
  g_rand_free (rand);
}

/* Flush, new segment, one frame: it comes out at once (and the next
 * `depth - 1` stay in flight as before). */
GST_START_TEST (test_first_frame_after_flush_leaves_at_once)
{
  GstHarness *h;
  GstVideoInfo info;
  GstSegment seg;
  int i;

  REL_SKIP_WITHOUT (__i__);
  h = rel_harness (__i__, NULL, "filter", "box", "frames-in-flight", "6",
      NULL);
  rel_set_caps (h, &info, "NV12", 32, 16);
  gst_segment_init (&seg, GST_FORMAT_TIME);
  for (i = 0; i < 8; i++)
    fail_unless_equals_int (gst_harness_push (h, rel_constant_buffer (&info,
                40)), GST_FLOW_OK);
  /* 1 out at once, then 6 in flight: 8 - 6 + 1 */
  fail_unless_equals_int (gst_harness_buffers_received (h), 3);
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  fail_unless_equals_int (gst_harness_push (h, rel_constant_buffer (&info,
              90)), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_received (h), 4);
  for (i = 0; i < 5; i++)
    gst_harness_push (h, rel_constant_buffer (&info, 90));
  fail_unless_equals_int (gst_harness_buffers_received (h), 4);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (h), 9);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_seek_storm_sharpen_6)
{
  REL_SKIP_WITHOUT (__i__);
  storms (rel_backends[__i__], "frames-in-flight=6 filter=sharpen", runs);
}

GST_END_TEST;

GST_START_TEST (test_seek_storm_box_16)
{
  REL_SKIP_WITHOUT (__i__);
  storms (rel_backends[__i__], "frames-in-flight=16 filter=box", runs);
}

GST_END_TEST;

GST_START_TEST (test_seek_storm_auto)
{
  /* The CPU here (after its one warning), the GPU where there is one. */
  storms ("auto", "frames-in-flight=4 filter=gaussian", MAX (runs / 2, 1));
}

GST_END_TEST;

static Suite *
seek_storm_suite (void)
{
  Suite *s = suite_create ("cudafilter-seek-storm");
  TCase *tc = tcase_create ("storm");

  tcase_set_timeout (tc, 0);
  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_first_frame_after_flush_leaves_at_once,
      REL_CPU, REL_CUDA + 1);
  tcase_add_loop_test (tc, test_seek_storm_sharpen_6, REL_CPU, REL_CUDA + 1);
  tcase_add_loop_test (tc, test_seek_storm_box_16, REL_CPU, REL_CUDA + 1);
  tcase_add_test (tc, test_seek_storm_auto);
  return s;
}

int
main (int argc, char **argv)
{
  const gchar *n = g_getenv ("CUDAFILTER_SEEK_STORM_RUNS");

  if (n != NULL)
    runs = MAX (1, atoi (n));
  gst_check_init (&argc, &argv);
  return gst_check_run_suite (seek_storm_suite (), "cudafilter-seek-storm",
      __FILE__);
}
