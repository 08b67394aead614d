/* cudafilter element tests: streaming behaviour, and a pipeline as
 * gst-launch-1.0 would build it. */
#include "element-common.h"

/* Streaming behaviour */

GST_START_TEST (test_renegotiation)
{
  GstHarness *h;
  GstVideoInfo info;
  GstVideoFrame out;
  GstBuffer *res;
  GstCaps *caps;
  const gchar *props[] = { "filter", "box", NULL };

  SKIP_WITHOUT_BACKEND (__i__);

  h = make_harness (__i__, props, NULL);
  set_caps (h, &info, "RGBA", 64, 48);
  res = push_pull (h, &info, make_buffer (&info, constant_value,
          GINT_TO_POINTER (FALSE)), &out);
  check_constant_output (&out, "RGBA", "box", FALSE);
  gst_video_frame_unmap (&out);
  gst_buffer_unref (res);

  set_caps (h, &info, "GRAY8", 33, 17);
  res = push_pull (h, &info, make_buffer (&info, constant_value,
          GINT_TO_POINTER (FALSE)), &out);
  check_constant_output (&out, "GRAY8", "box", FALSE);
  gst_video_frame_unmap (&out);
  gst_buffer_unref (res);

  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (gst_video_info_from_caps (&info, caps));
  check_int (GST_VIDEO_INFO_FORMAT (&info), GST_VIDEO_FORMAT_GRAY8);
  check_int (GST_VIDEO_INFO_WIDTH (&info), 33);
  check_int (GST_VIDEO_INFO_HEIGHT (&info), 17);
  gst_caps_unref (caps);

  /* And to 16 bits: the spec is rebuilt for the new sample size. */
  set_caps (h, &info, "GRAY16_LE", 5, 3);
  res = push_pull (h, &info, make_buffer (&info, constant_value,
          GINT_TO_POINTER (16)), &out);
  check_constant_output (&out, "GRAY16_LE", "box", FALSE);
  gst_video_frame_unmap (&out);
  gst_buffer_unref (res);

  gst_harness_teardown (h);
}

GST_END_TEST;

static guint
unit_ramp (int comp, int x, int y, gpointer user_data)
{
  return x;
}

static void
assert_ramp_result (GstHarness * h, GstVideoInfo * info, int expect_mid,
    const gchar * what)
{
  GstVideoFrame out;
  GstBuffer *res;

  res = push_pull (h, info, make_buffer (info, unit_ramp, NULL), &out);
  /* Row 1, x = 3 is interior for every aperture used here. */
  check_int (comp_get (&out, 0, 3, 1), expect_mid, "%s", what);
  gst_video_frame_unmap (&out);
  gst_buffer_unref (res);
}

GST_START_TEST (test_change_while_playing)
{
  GstHarness *h;
  GstVideoInfo info;
  const gchar *props[] = { "filter", "box", NULL };

  SKIP_WITHOUT_BACKEND (__i__);

  h = make_harness (__i__, props, NULL);
  set_caps (h, &info, "GRAY8", 12, 4);
  /* The box mean of a linear ramp is the ramp. */
  assert_ramp_result (h, &info, 3, "box");
  gst_util_set_object_arg (G_OBJECT (h->element), "filter", "sobel-x");
  assert_ramp_result (h, &info, 8, "sobel-x after the change");
  g_object_set (h->element, "kernel-size", 5, NULL);
  assert_ramp_result (h, &info, 128, "sobel-x with kernel-size 5");
  g_object_set (h->element, "scale", 0.25, NULL);
  assert_ramp_result (h, &info, 32, "sobel-x with scale 0.25");
  g_object_set (h->element, "scale", 1.0, NULL);
  gst_util_set_object_arg (G_OBJECT (h->element), "filter", "custom");
  g_object_set (h->element, "kernel", "0 0 0; 0 2 0; 0 0 0", NULL);
  assert_ramp_result (h, &info, 3, "custom 2 / divisor 2");
  g_object_set (h->element, "divisor", 1.0, NULL);
  assert_ramp_result (h, &info, 6, "custom 2 / divisor 1");
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A controlled property takes its value at each buffer's stream time. */
GST_START_TEST (test_controlled_property)
{
  GstHarness *h;
  GstVideoInfo info;
  GstControlSource *cs;
  GstVideoFrame out;
  GstBuffer *buf, *res;
  const gchar *props[] = { "filter", "sobel-x", NULL };
  int i;

  SKIP_WITHOUT_BACKEND (__i__);

  h = make_harness (__i__, props, NULL);
  cs = gst_interpolation_control_source_new ();
  g_object_set (cs, "mode", GST_INTERPOLATION_MODE_NONE, NULL);
  fail_unless (gst_object_add_control_binding (GST_OBJECT (h->element),
          gst_direct_control_binding_new_absolute (GST_OBJECT (h->element),
              "offset", cs)));
  gst_timed_value_control_source_set (GST_TIMED_VALUE_CONTROL_SOURCE (cs),
      0, 0.0);
  gst_timed_value_control_source_set (GST_TIMED_VALUE_CONTROL_SOURCE (cs),
      GST_SECOND, 50.0);

  set_caps (h, &info, "GRAY8", 12, 4);
  for (i = 0; i < 3; i++) {
    buf = make_buffer (&info, unit_ramp, NULL);
    GST_BUFFER_PTS (buf) = i * GST_SECOND / 2;
    res = push_pull (h, &info, buf, &out);
    /* Unit ramp: sobel-x 8, plus the offset in force at the PTS. */
    check_int (comp_get (&out, 0, 3, 1), i < 2 ? 8 : 58, "buffer %d", i);
    gst_video_frame_unmap (&out);
    gst_buffer_unref (res);
  }
  gst_object_unref (cs);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_eos_and_timestamps)
{
  GstHarness *h;
  GstVideoInfo info;
  GstEvent *ev;
  gboolean got_eos = FALSE;
  int i;

  SKIP_WITHOUT_BACKEND (__i__);

  h = make_harness (__i__, NULL, NULL);
  set_caps (h, &info, "I420", 15, 7);
  for (i = 0; i < 10; i++) {
    GstBuffer *buf = make_buffer (&info, constant_value, NULL);

    GST_BUFFER_PTS (buf) = i * 33 * GST_MSECOND;
    GST_BUFFER_DURATION (buf) = 33 * GST_MSECOND;
    check_int (gst_harness_push (h, buf), GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));

  check_int (gst_harness_buffers_in_queue (h), 10);
  for (i = 0; i < 10; i++) {
    GstBuffer *buf = gst_harness_pull (h);

    fail_unless_equals_uint64 (GST_BUFFER_PTS (buf), i * 33 * GST_MSECOND);
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (buf), 33 * GST_MSECOND);
    check_int (gst_buffer_get_size (buf), info.size);
    gst_buffer_unref (buf);
  }
  while ((ev = gst_harness_try_pull_event (h)) != NULL) {
    if (GST_EVENT_TYPE (ev) == GST_EVENT_EOS)
      got_eos = TRUE;
    gst_event_unref (ev);
  }
  fail_unless (got_eos);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_flush)
{
  GstHarness *h;
  GstVideoInfo info;
  GstVideoFrame out;
  GstBuffer *res;
  GstSegment segment;

  SKIP_WITHOUT_BACKEND (__i__);

  h = make_harness (__i__, NULL, NULL);
  set_caps (h, &info, "RGBx", 9, 5);
  res = push_pull (h, &info, make_buffer (&info, constant_value, NULL), &out);
  gst_video_frame_unmap (&out);
  gst_buffer_unref (res);

  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));

  res = push_pull (h, &info, make_buffer (&info, constant_value, NULL), &out);
  check_constant_output (&out, "RGBx", "gaussian", FALSE);
  gst_video_frame_unmap (&out);
  gst_buffer_unref (res);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Upstream is offered GstVideoMeta, so it may send padded strides. */
GST_START_TEST (test_allocation_offers_video_meta)
{
  GstHarness *h;
  GstVideoInfo info;
  GstCaps *caps;
  GstQuery *query;

  SKIP_WITHOUT_BACKEND (__i__);

  h = make_harness (__i__, NULL, NULL);
  set_caps (h, &info, "RGBA", 32, 16);
  caps = gst_video_info_to_caps (&info);
  query = gst_query_new_allocation (caps, TRUE);
  fail_unless (gst_pad_peer_query (h->srcpad, query));
  fail_unless (gst_query_find_allocation_meta (query,
          GST_VIDEO_META_API_TYPE, NULL));
  gst_query_unref (query);
  gst_caps_unref (caps);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* A pipeline as gst-launch-1.0 would build it. */

static gboolean
ensure_plugin (const gchar * feature, const gchar * file)
{
  GstPluginFeature *f = gst_registry_find_feature (gst_registry_get (),
      feature, GST_TYPE_ELEMENT_FACTORY);
  gchar *path;
  GstPlugin *plugin;

  if (f != NULL) {
    gst_object_unref (f);
    return TRUE;
  }
  /* The tests run with only this build's plugins registered. */
  path = g_build_filename (SYSTEM_PLUGINS_DIR, file, NULL);
  plugin = gst_plugin_load_file (path, NULL);
  g_free (path);
  if (plugin == NULL)
    return FALSE;
  gst_object_unref (plugin);
  return TRUE;
}

GST_START_TEST (test_parse_launch)
{
  GstElement *pipeline;
  GstBus *bus;
  GstMessage *msg;
  gchar *desc;
  GError *err = NULL;

  SKIP_WITHOUT_BACKEND (__i__);

  if (!ensure_plugin ("videotestsrc", "libgstvideotestsrc.so") ||
      !ensure_plugin ("fakesink", "libgstcoreelements.so")) {
    g_print ("SKIP %s: videotestsrc or fakesink not installed in %s\n",
        __func__, SYSTEM_PLUGINS_DIR);
    return;
  }

  desc = g_strdup_printf ("videotestsrc num-buffers=3 ! cudafilter "
      "backend=%s filter=sobel ! fakesink", backend_nicks[__i__]);
  pipeline = gst_parse_launch (desc, &err);
  fail_unless (pipeline != NULL, "%s", err ? err->message : "");
  g_free (desc);

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no EOS within 30 s");
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &err, NULL);
    fail ("pipeline error: %s", err->message);
  }
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
}

GST_END_TEST;

static void
add_backend_tests (TCase * tc, int backend)
{
  ADD_BACKEND_TEST (tc, test_renegotiation, backend);
  ADD_BACKEND_TEST (tc, test_change_while_playing, backend);
  ADD_BACKEND_TEST (tc, test_controlled_property, backend);
  ADD_BACKEND_TEST (tc, test_eos_and_timestamps, backend);
  ADD_BACKEND_TEST (tc, test_flush, backend);
  ADD_BACKEND_TEST (tc, test_allocation_offers_video_meta, backend);
  ADD_BACKEND_TEST (tc, test_parse_launch, backend);
}

ELEMENT_TEST_MAIN (pipeline);
