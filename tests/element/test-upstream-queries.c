/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* ALLOCATION and DRAIN queries from upstream (V4L2 and hardware decoders
 * taking their buffers back) with frames in flight: every frame leaves
 * before the query is answered. */
#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#define W 16
#define H 8
#define CAPS "video/x-raw,format=GRAY8,width=16,height=8,framerate=25/1"

/* backend=cpu here; CF_TEST_BACKEND=cuda on a GPU host (and under
 * compute-sanitizer). */
static const gchar *
backend (void)
{
  const gchar *b = g_getenv ("CF_TEST_BACKEND");

  return b ? b : "cpu";
}

static GstHarness *
harness_with_three_held (void)
{
  gchar *desc = g_strdup_printf ("cudafilter backend=%s filter=box "
      "frames-in-flight=4", backend ());
  GstHarness *h = gst_harness_new_parse (desc);
  guint n;

  g_free (desc);
  gst_harness_set_src_caps_str (h, CAPS);
  for (n = 0; n < 3; n++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, W * H, NULL);

    gst_buffer_memset (buf, 0, 20 + n, W * H);
    GST_BUFFER_PTS (buf) = n * 40 * GST_MSECOND;
    fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  }
  /* The first leaves at once (the sink prerolls on it), two are held. */
  fail_unless_equals_int (gst_harness_buffers_received (h), 1);
  return h;
}

static void
check_all_out (GstHarness * h)
{
  guint n;

  fail_unless_equals_int (gst_harness_buffers_received (h), 3);
  for (n = 0; n < 3; n++) {
    GstBuffer *out = gst_harness_pull (h);
    GstMapInfo map;

    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), n * 40 * GST_MSECOND);
    fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
    /* Box of a constant frame is the constant. */
    fail_unless_equals_int (map.data[0], 20 + n);
    gst_buffer_unmap (out, &map);
    gst_buffer_unref (out);
  }
}

GST_START_TEST (test_allocation_query_pushes_held_frames)
{
  GstHarness *h = harness_with_three_held ();
  GstCaps *caps = gst_caps_from_string (CAPS);
  GstQuery *q = gst_query_new_allocation (caps, TRUE);

  fail_unless (gst_pad_peer_query (h->srcpad, q));
  check_all_out (h);
  gst_query_unref (q);
  gst_caps_unref (caps);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_drain_query_pushes_held_frames)
{
  GstHarness *h = harness_with_three_held ();
  GstQuery *q = gst_query_new_drain ();

  fail_unless (gst_pad_peer_query (h->srcpad, q));
  check_all_out (h);
  gst_query_unref (q);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
upstream_queries_suite (void)
{
  Suite *s = suite_create ("cudafilter-upstream-queries");
  TCase *tc = tcase_create ("queries");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_allocation_query_pushes_held_frames);
  tcase_add_test (tc, test_drain_query_pushes_held_frames);
  return s;
}

GST_CHECK_MAIN (upstream_queries);
