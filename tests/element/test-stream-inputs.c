/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* What real pipelines hand the element besides frames: a BYTES segment
 * (appsrc's default), interlaced caps, the application's qos setting and
 * presets loaded while playing. */
#include <string.h>
#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#define CAPS "video/x-raw,format=GRAY8,width=16,height=8,framerate=25/1"

/* The element itself in a harness (not a bin around it). */
static GstHarness *
harness (void)
{
  GstElement *e = gst_element_factory_make ("cudafilter", NULL);
  GstHarness *h;

  gst_util_set_object_arg (G_OBJECT (e), "backend", "cpu");
  gst_util_set_object_arg (G_OBJECT (e), "frames-in-flight", "1");
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  return h;
}

static GstBuffer *
frame (guint8 value)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 16 * 8, NULL);

  gst_buffer_memset (buf, 0, value, 16 * 8);
  return buf;
}

/* gstcheck fails the test on any GStreamer-CRITICAL. */
GST_START_TEST (test_bytes_segment)
{
  GstHarness *h = gst_harness_new_parse ("cudafilter backend=cpu "
      "frames-in-flight=1");
  GstSegment segment;
  GstBuffer *out;
  guint n;

  gst_harness_set_src_caps_str (h, CAPS);
  gst_segment_init (&segment, GST_FORMAT_BYTES);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));
  for (n = 0; n < 3; n++) {
    fail_unless_equals_int (gst_harness_push (h, frame (40 + n)), GST_FLOW_OK);
    out = gst_harness_pull (h);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Filtering across the fields of an interlaced frame mixes two moments:
 * such caps are refused at negotiation. */
GST_START_TEST (test_interlaced_refused)
{
  static const gchar *const modes[] = { "interleaved", "mixed" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (modes); i++) {
    GstHarness *h = gst_harness_new_parse ("cudafilter backend=cpu");
    GstCaps *caps = gst_caps_from_string (CAPS);
    GstQuery *q;
    gboolean ok = TRUE;

    gst_caps_set_simple (caps, "interlace-mode", G_TYPE_STRING, modes[i],
        NULL);
    q = gst_query_new_accept_caps (caps);
    fail_unless (gst_pad_peer_query (h->srcpad, q));
    gst_query_parse_accept_caps_result (q, &ok);
    fail_if (ok, "interlace-mode=%s accepted", modes[i]);
    gst_query_unref (q);
    gst_caps_unref (caps);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

GST_START_TEST (test_progressive_accepted)
{
  GstHarness *h = gst_harness_new_parse ("cudafilter backend=cpu "
      "frames-in-flight=1");
  GstBuffer *out;

  gst_harness_set_src_caps_str (h, CAPS ",interlace-mode=progressive");
  fail_unless_equals_int (gst_harness_push (h, frame (9)), GST_FLOW_OK);
  out = gst_harness_pull (h);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* qos=true on a non-live stream stays true: the element chooses QoS only
 * while the application has not. */
GST_START_TEST (test_qos_setting_kept)
{
  static const gboolean wanted[] = { TRUE, FALSE };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (wanted); i++) {
    GstHarness *h = harness ();
    gboolean qos;

    g_object_set (h->element, "qos", wanted[i], NULL);
    /* Live for the TRUE case would agree with the setting by chance. */
    gst_harness_set_live (h, !wanted[i]);
    gst_harness_set_src_caps_str (h, CAPS);
    fail_unless_equals_int (gst_harness_push (h, frame (1)), GST_FLOW_OK);
    gst_buffer_unref (gst_harness_pull (h));
    g_object_get (h->element, "qos", &qos, NULL);
    fail_unless_equals_int (qos, wanted[i]);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Loading presets while frames flow: the stream takes each preset whole.
 * Leaving emboss sets filter=custom's kernel back to none before the
 * filter: seen by the stream, that half-made state posts a warning. */
static gint stop_pushing;

static gpointer
push_frames (gpointer data)
{
  GstHarness *h = data;
  guint8 n = 0;

  while (!g_atomic_int_get (&stop_pushing)) {
    if (gst_harness_push (h, frame (n++)) != GST_FLOW_OK)
      break;
    gst_buffer_unref (gst_harness_pull (h));
  }
  return NULL;
}

GST_START_TEST (test_preset_whole)
{
  GstHarness *h = harness ();
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GThread *t;
  guint i, loads;

  /* Many loads, so that the stream meets one midway (valgrind, which runs
   * one thread at a time, asks for fewer: CF_PRESET_LOADS). */
  loads = g_getenv ("CF_PRESET_LOADS") ?
      (guint) g_ascii_strtoull (g_getenv ("CF_PRESET_LOADS"), NULL, 10) : 10000;
  gst_element_set_bus (h->element, bus);
  gst_harness_set_src_caps_str (h, CAPS);
  g_atomic_int_set (&stop_pushing, FALSE);
  t = g_thread_new ("push", push_frames, h);
  for (i = 0; i < loads; i++)
    fail_unless (gst_preset_load_preset (GST_PRESET (h->element),
            i % 2 ? "soft-blur" : "emboss"));
  g_atomic_int_set (&stop_pushing, TRUE);
  g_thread_join (t);
  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING |
              GST_MESSAGE_ERROR)) != NULL) {
    GError *err = NULL;

    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
      gst_message_parse_error (msg, &err, NULL);
    else
      gst_message_parse_warning (msg, &err, NULL);
    fail ("a preset load posted '%s'", err->message);
  }
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
stream_inputs_suite (void)
{
  Suite *s = suite_create ("cudafilter-stream-inputs");
  TCase *tc = tcase_create ("inputs");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_bytes_segment);
  tcase_add_test (tc, test_interlaced_refused);
  tcase_add_test (tc, test_progressive_accepted);
  tcase_add_test (tc, test_qos_setting_kept);
  tcase_add_test (tc, test_preset_whole);
  return s;
}

GST_CHECK_MAIN (stream_inputs);
