/* Frames in flight in the element: order, timestamps, EOS drain, flush,
 * renegotiation, latency reporting and QoS, with several frames pending.
 * CPU backend here; backend=cuda when a device is usable. */
#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include "cf-backend.h"

#define DEPTH 4

static const gchar *backend_name = "cpu";

static GstHarness *
harness (guint in_flight, const gchar * caps)
{
  gchar *desc = g_strdup_printf ("cudafilter backend=%s filter=box "
      "frames-in-flight=%u", backend_name, in_flight);
  GstHarness *h = gst_harness_new_parse (desc);

  g_free (desc);
  gst_harness_set_src_caps_str (h, caps);
  return h;
}

/* A GRAY8 frame of one value, with timestamps of frame n at 25 fps. */
static GstBuffer *
frame (guint n, gsize size, guint8 value)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, size, NULL);

  gst_buffer_memset (buf, 0, value, size);
  GST_BUFFER_PTS (buf) = n * 40 * GST_MSECOND;
  GST_BUFFER_DURATION (buf) = 40 * GST_MSECOND;
  return buf;
}

/* Box of a constant frame is the constant: each output tells its input. */
static void
check_frame (GstBuffer * out, guint n, guint8 value)
{
  GstMapInfo map;
  gsize i;

  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), n * 40 * GST_MSECOND);
  fail_unless_equals_uint64 (GST_BUFFER_DURATION (out), 40 * GST_MSECOND);
  gst_buffer_map (out, &map, GST_MAP_READ);
  for (i = 0; i < map.size; i++)
    fail_unless_equals_int (map.data[i], value);
  gst_buffer_unmap (out, &map);
}

#define GRAY_CAPS(w, h) "video/x-raw,format=GRAY8,width=" #w ",height=" #h \
  ",framerate=25/1"

GST_START_TEST (test_order_and_eos_drain)
{
  GstHarness *h = harness (DEPTH, GRAY_CAPS (16, 8));
  guint n;

  for (n = 0; n < 10; n++)
    fail_unless_equals_int (gst_harness_push (h, frame (n, 16 * 8, n * 20)),
        GST_FLOW_OK);
  /* DEPTH - 1 frames are still pending... */
  fail_unless_equals_int (gst_harness_buffers_received (h), 10 - (DEPTH - 1));
  /* ... and EOS brings them out before itself, in order. */
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (h), 10);
  for (n = 0; n < 10; n++) {
    GstBuffer *out = gst_harness_pull (h);

    check_frame (out, n, n * 20);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_one_in_flight_is_immediate)
{
  GstHarness *h = harness (1, GRAY_CAPS (16, 8));
  guint n;

  for (n = 0; n < 5; n++) {
    GstBuffer *out;

    gst_harness_push (h, frame (n, 16 * 8, 7 * n));
    fail_unless_equals_int (gst_harness_buffers_received (h), n + 1);
    out = gst_harness_pull (h);
    check_frame (out, n, 7 * n);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_flush_discards_pending)
{
  GstHarness *h = harness (DEPTH, GRAY_CAPS (16, 8));
  GstBuffer *out;
  guint n;

  /* The first frame leaves at once (the sink prerolls on it), the next
   * DEPTH - 1 stay in flight. */
  for (n = 0; n < DEPTH; n++)
    gst_harness_push (h, frame (n, 16 * 8, 50));
  fail_unless_equals_int (gst_harness_buffers_received (h), 1);
  gst_buffer_unref (gst_harness_pull (h));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_harness_push_event (h, gst_event_new_segment (&(GstSegment) {
          .format = GST_FORMAT_TIME,.rate = 1.0,.applied_rate = 1.0,
          .stop = GST_CLOCK_TIME_NONE,.duration = GST_CLOCK_TIME_NONE}));
  /* After the flush only new frames come out. */
  gst_harness_push (h, frame (100, 16 * 8, 99));
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (h), 2);
  out = gst_harness_pull (h);
  check_frame (out, 100, 99);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_renegotiation_drains_first)
{
  GstHarness *h = harness (DEPTH, GRAY_CAPS (16, 8));
  guint n;

  for (n = 0; n < 3; n++)
    gst_harness_push (h, frame (n, 16 * 8, 30 + n));
  /* New caps: the three 16x8 frames leave first, with their own size. */
  gst_harness_set_src_caps_str (h, GRAY_CAPS (8, 3));
  for (n = 3; n < 6; n++)
    fail_unless_equals_int (gst_harness_push (h, frame (n, 8 * 3, 30 + n)),
        GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (h), 6);
  for (n = 0; n < 6; n++) {
    GstBuffer *out = gst_harness_pull (h);

    fail_unless_equals_int (gst_buffer_get_size (out), n < 3 ? 16 * 8 : 8 * 3);
    check_frame (out, n, 30 + n);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_latency_counts_frames_in_flight)
{
  GstHarness *h = harness (DEPTH, GRAY_CAPS (16, 8));
  GstQuery *q;
  gboolean live;
  GstClockTime min, max;

  gst_harness_push (h, frame (0, 16 * 8, 1));
  q = gst_query_new_latency ();
  fail_unless (gst_pad_peer_query (h->sinkpad, q));
  gst_query_parse_latency (q, &live, &min, &max);
  /* (DEPTH - 1) frames of 40 ms on top of upstream's (zero) latency */
  fail_unless_equals_uint64 (min, (DEPTH - 1) * 40 * GST_MSECOND);
  gst_query_unref (q);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_qos_never_drops_when_not_live)
{
  GstHarness *h = harness (2, GRAY_CAPS (16, 8));
  guint n;

  /* The harness answers latency queries as a live source: make this one a
   * file-like, non-live source. */
  gst_harness_use_testclock (h);
  gst_harness_set_live (h, FALSE);
  gst_harness_push (h, frame (0, 16 * 8, 3));
  /* A sink reporting that everything up to 10 s is too late. */
  gst_harness_push_upstream_event (h, gst_event_new_qos (GST_QOS_TYPE_UNDERFLOW,
          0.5, 10 * GST_SECOND, 0));
  for (n = 1; n < 8; n++)
    gst_harness_push (h, frame (n, 16 * 8, 3));
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (h), 8);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
streaming_suite (void)
{
  Suite *s = suite_create ("cudafilter-streaming");
  TCase *tc = tcase_create ("in-flight");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_order_and_eos_drain);
  tcase_add_test (tc, test_one_in_flight_is_immediate);
  tcase_add_test (tc, test_flush_discards_pending);
  tcase_add_test (tc, test_renegotiation_drains_first);
  tcase_add_test (tc, test_latency_counts_frames_in_flight);
  tcase_add_test (tc, test_qos_never_drops_when_not_live);
  return s;
}

int
main (int argc, char **argv)
{
  int failed;
  char *why = NULL;

  gst_check_init (&argc, &argv);
  failed = gst_check_run_suite (streaming_suite (), "cudafilter-streaming",
      __FILE__);
  if (cf_cuda_device_count (&why) > 0) {
    backend_name = "cuda";
    failed += gst_check_run_suite (streaming_suite (),
        "cudafilter-streaming-cuda", __FILE__);
  } else {
    g_print ("SKIP: streaming tests with backend=cuda: no CUDA device (%s)\n",
        why);
  }
  g_free (why);
  return failed ? 1 : 0;
}
