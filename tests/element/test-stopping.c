/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* A stop (PAUSED to READY) while upstream still streams: between the
 * deactivation of the element's source pad and of its sink pad (GStreamer
 * deactivates source pads first), upstream may push a buffer behind a new
 * sticky event (a segment after a seek or a start, new caps).  That is a
 * shutdown like any other: upstream must learn "flushing", never "error",
 * which a source turns into "Internal data stream error" on the bus (the
 * hostile fuzzer's failures at frames-in-flight and state changes).
 * GstBaseTransform's own event handling answers error there
 * (docs/reliability.md); the element answers flushing.  The test holds
 * the element in that state (its source pad inactive) and pushes. */
#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>

#define CAPS "video/x-raw,format=RGBA,width=16,height=8,framerate=30/1"
#define OTHER_CAPS "video/x-raw,format=RGBA,width=8,height=8,framerate=30/1"

static const gchar *
backend (void)
{
  const gchar *b = g_getenv ("CF_TEST_BACKEND");

  return b ? b : "cpu";
}

static GstBuffer *
frame (guint n, gsize size)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, size, NULL);

  gst_buffer_memset (buf, 0, 40 + n, size);
  GST_BUFFER_PTS (buf) = n * GST_SECOND / 30;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  return buf;
}

/* A harness on the element itself (not a bin), frames in flight held,
 * its source pad deactivated as a stop does first. */
static GstHarness *
harness_half_stopped (GstBus ** bus)
{
  GstElement *e = gst_element_factory_make ("cudafilter", NULL);
  GstHarness *h;
  GstPad *src;
  guint n;

  fail_unless (e != NULL);
  gst_util_set_object_arg (G_OBJECT (e), "backend", backend ());
  g_object_set (e, "frames-in-flight", 4, NULL);
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  *bus = gst_bus_new ();
  gst_element_set_bus (h->element, *bus);
  gst_harness_set_src_caps_str (h, CAPS);
  for (n = 0; n < 3; n++)
    fail_unless_equals_int (gst_harness_push (h, frame (n, 16 * 8 * 4)),
        GST_FLOW_OK);

  src = gst_element_get_static_pad (h->element, "src");
  fail_unless (gst_pad_set_active (src, FALSE));
  gst_object_unref (src);
  return h;
}

static void
check_no_error (GstBus * bus)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

  if (msg) {
    GError *err = NULL;

    gst_message_parse_error (msg, &err, NULL);
    fail ("ERROR from %s: %s", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)),
        err->message);
  }
}

static void
finish (GstHarness * h, GstBus * bus)
{
  check_no_error (bus);
  gst_element_set_bus (h->element, NULL);
  gst_harness_teardown (h);
  gst_object_unref (bus);
}

GST_START_TEST (test_segment_while_stopping)
{
  GstBus *bus;
  GstHarness *h = harness_half_stopped (&bus);
  GstSegment segment;

  gst_segment_init (&segment, GST_FORMAT_TIME);
  segment.base = GST_SECOND;
  gst_harness_push_event (h, gst_event_new_segment (&segment));
  fail_unless_equals_int (gst_harness_push (h, frame (3, 16 * 8 * 4)),
      GST_FLOW_FLUSHING);
  finish (h, bus);
}

GST_END_TEST;

GST_START_TEST (test_caps_while_stopping)
{
  GstBus *bus;
  GstHarness *h = harness_half_stopped (&bus);

  gst_harness_set_src_caps_str (h, OTHER_CAPS);
  fail_unless_equals_int (gst_harness_push (h, frame (3, 8 * 8 * 4)),
      GST_FLOW_FLUSHING);
  finish (h, bus);
}

GST_END_TEST;

GST_START_TEST (test_tag_while_stopping)
{
  GstBus *bus;
  GstHarness *h = harness_half_stopped (&bus);

  gst_harness_push_event (h, gst_event_new_tag (gst_tag_list_new
          (GST_TAG_TITLE, "stopping", NULL)));
  fail_unless_equals_int (gst_harness_push (h, frame (3, 16 * 8 * 4)),
      GST_FLOW_FLUSHING);
  finish (h, bus);
}

GST_END_TEST;

static Suite *
stopping_suite (void)
{
  Suite *s = suite_create ("stopping");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_segment_while_stopping);
  tcase_add_test (tc, test_caps_while_stopping);
  tcase_add_test (tc, test_tag_while_stopping);
  return s;
}

GST_CHECK_MAIN (stopping);
