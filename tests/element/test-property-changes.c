/* Property changes a user makes and must see the outcome of:
 *  - an application switching to filter=custom while playing and setting
 *    `kernel` a moment later (the natural order in code): the element keeps
 *    filtering as before, warns once, and takes the new filter when it is
 *    complete; at start an incomplete filter is still an error;
 *  - a refused value on the gst-launch-1.0 line, set before the element has
 *    a bus: posted as a WARNING when the element starts (gst-launch-1.0
 *    prints those); set on an element that has a bus: posted at once;
 *  - frames-in-flight set while playing, before the first frame: it
 *    applies from the next start, so the depth is the one the pools were
 *    sized for at negotiation.
 * backend=cpu and backend=auto everywhere, backend=cuda with a device. */
#include <string.h>
#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include "element-common.h"
#include <gst/video/video.h>

static const gchar *const backends[] = { "cpu", "auto", "cuda" };


/* Takes every message off bus (until EOS or an error, waiting up to
 * `wait`); returns the text of cudafilter's ERRORs and WARNINGs, each as
 * "E:text|" or "W:text|", and counts them. */
static gchar *
messages_until (GstBus * bus, GstClockTime wait, guint * errors,
    guint * warnings)
{
  GString *all = g_string_new (NULL);
  GstMessage *m;

  *errors = *warnings = 0;
  while ((m = gst_bus_timed_pop (bus, wait)) != NULL) {
    GError *err = NULL;

    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS) {
      gst_message_unref (m);
      break;
    }
    gboolean error = GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR;

    if (error)
      gst_message_parse_error (m, &err, NULL);
    else if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_WARNING)
      gst_message_parse_warning (m, &err, NULL);
    if (err != NULL
        && g_str_has_prefix (GST_OBJECT_NAME (GST_MESSAGE_SRC (m)),
            "cudafilter")
        && strstr (err->message, "No usable CUDA device") == NULL) {
      g_string_append_printf (all, "%s:%s|", error ? "E" : "W", err->message);
      (*(error ? errors : warnings))++;
    }
    g_clear_error (&err);
    gst_message_unref (m);
  }
  return g_string_free (all, FALSE);
}

#define messages(bus, errors, warnings) messages_until (bus, 0, errors, \
    warnings)

/* An RGBA 8x8 frame of one value. */
static GstBuffer *
frame (guint8 v)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 8 * 8 * 4, NULL);

  gst_buffer_memset (buf, 0, v, 8 * 8 * 4);
  return buf;
}

/* Pushes a frame of 40 and returns the first byte of its output. */
static guint
filter_one (GstHarness * h)
{
  GstBuffer *out;
  guint8 v = 0;

  fail_unless_equals_int (gst_harness_push (h, frame (40)), GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (out != NULL);
  gst_buffer_extract (out, 0, &v, 1);
  gst_buffer_unref (out);
  return v;
}

GST_START_TEST (test_custom_then_kernel_while_playing)
{
  const gchar *backend = backends[__i__];
  GstElement *e;
  GstHarness *h;
  GstBus *bus;
  gchar *text;
  guint errs, n;

  if (!backend_starts (backend))
    return;
  e = gst_element_factory_make ("cudafilter", NULL);
  gst_util_set_object_arg (G_OBJECT (e), "backend", backend);
  /* divisor is for custom only: box ignores it. */
  gst_util_set_object_arg (G_OBJECT (e), "filter", "box");
  g_object_set (e, "frames-in-flight", 1, "divisor", 1.0, NULL);
  bus = gst_bus_new ();
  gst_element_set_bus (e, bus);
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  gst_harness_set_src_caps_str (h, "video/x-raw,format=RGBA,width=8,"
      "height=8,framerate=30/1");

  /* box of a constant frame: the constant */
  fail_unless_equals_int (filter_one (h), 40);

  gst_util_set_object_arg (G_OBJECT (e), "filter", "custom");
  fail_unless_equals_int (filter_one (h), 40);
  fail_unless_equals_int (filter_one (h), 40);
  text = messages (bus, &errs, &n);
  fail_unless (errs == 0 && n == 1, "%u errors, %u warnings: %s", errs, n,
      text);
  fail_unless (strstr (text, "kernel") != NULL, "%s", text);
  g_free (text);

  /* The kernel makes the change complete: 2 x the centre, divisor 1. */
  g_object_set (e, "kernel", "0 0 0; 0 2 0; 0 0 0", NULL);
  fail_unless_equals_int (filter_one (h), 80);
  text = messages (bus, &errs, &n);
  fail_unless (errs == 0 && n == 0, "%u errors, %u warnings: %s", errs, n,
      text);
  g_free (text);

  /* A second half-made change warns again, once. */
  gst_util_set_object_arg (G_OBJECT (e), "filter", "box");
  fail_unless_equals_int (filter_one (h), 40);
  g_object_set (e, "kernel", NULL, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "filter", "custom");
  fail_unless_equals_int (filter_one (h), 40);
  fail_unless_equals_int (filter_one (h), 40);
  text = messages (bus, &errs, &n);
  fail_unless (errs == 0 && n == 1, "%u errors, %u warnings: %s", errs, n,
      text);
  g_free (text);

  gst_bus_set_flushing (bus, TRUE);
  gst_harness_teardown (h);
  gst_object_unref (bus);
}

GST_END_TEST;

/* The formats whose depths decide the taps: 8-bit (6 sigma + 1 taps) and
 * 16-bit samples (8 sigma + 1), which videotestsrc offers first. */
static const gchar *const depth_formats[] = { "RGBA", "BGRA64_LE" };

/* A setting is checked at every depth when it is set, so one that a depth
 * cannot take (sigma 35: 211 taps at 8 bits, 281 at 16, over 255) is
 * refused the same way whatever format comes: a warning, the last value
 * kept, frames filtered as before.  sigma 8 (49 and 65 taps) is taken at
 * every depth. */
GST_START_TEST (test_refusal_same_every_format)
{
  const gchar *backend = backends[__i__ / 2];
  const gchar *format = depth_formats[__i__ % 2];
  const gsize bytes = strcmp (format, "RGBA") == 0 ? 4 : 8;
  GstElement *e;
  GstHarness *h;
  GstBus *bus;
  gchar *text, *caps;
  guint errs, n, i;
  gdouble sigma;

  if (!backend_starts (backend))
    return;
  e = gst_element_factory_make ("cudafilter", NULL);
  gst_util_set_object_arg (G_OBJECT (e), "backend", backend);
  g_object_set (e, "frames-in-flight", 1, "sigma", 8.0, NULL);
  bus = gst_bus_new ();
  gst_element_set_bus (e, bus);
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  caps = g_strdup_printf ("video/x-raw,format=%s,width=8,height=8,"
      "framerate=30/1", format);
  gst_harness_set_src_caps_str (h, caps);
  g_free (caps);

  g_object_set (e, "sigma", 35.0, NULL);
  g_object_get (e, "sigma", &sigma, NULL);
  fail_unless (sigma == 8.0, "sigma %g", sigma);
  for (i = 0; i < 2; i++) {
    guint8 px[8 * 8 * 8];
    GstBuffer *out;
    guint j;

    for (j = 0; j < 8 * 8 * bytes; j++)
      px[j] = 0x55;             /* a constant frame stays that constant */
    fail_unless_equals_int (gst_harness_push (h,
            gst_buffer_new_memdup (px, 8 * 8 * bytes)), GST_FLOW_OK);
    out = gst_harness_pull (h);
    fail_unless (out != NULL);
    gst_buffer_extract (out, 0, px, 8 * 8 * bytes);
    for (j = 0; j < 8 * 8 * bytes; j++)
      fail_unless_equals_int (px[j], 0x55);
    gst_buffer_unref (out);
  }
  text = messages (bus, &errs, &n);
  fail_unless (errs == 0 && n == 1, "%s: %u errors, %u warnings: %s",
      format, errs, n, text);
  fail_unless (strstr (text, "'sigma'") && strstr (text, "281-tap")
      && strstr (text, "Keeping 8"), "%s", text);
  g_free (text);

  gst_bus_set_flushing (bus, TRUE);
  gst_harness_teardown (h);
  gst_object_unref (bus);
}

GST_END_TEST;

static gchar *launch_warnings (const gchar * desc, guint * n);

/* The first natural pipeline: gst-launch-1.0 videotestsrc ! cudafilter
 * sigma=8 ! ..., which negotiates BGRA64_LE (65 taps) where a sink takes
 * it, runs at every depth without a word; sigma=35 is refused with the
 * same warning at every depth, filtering with sigma 1. */
GST_START_TEST (test_sigma_8_every_format)
{
  const gchar *backend = backends[__i__ / 2];
  const gchar *format = depth_formats[__i__ % 2];
  gchar *desc, *text;
  guint n;

  if (!backend_starts (backend))
    return;
  desc = g_strdup_printf ("videotestsrc num-buffers=2 ! "
      "video/x-raw,format=%s,width=32,height=16 ! cudafilter backend=%s "
      "sigma=8 ! fakesink", format, backend);
  text = launch_warnings (desc, &n);
  fail_unless (n == 0, "%s: %u warnings: %s", desc, n, text);
  g_free (text);
  g_free (desc);

  desc = g_strdup_printf ("videotestsrc num-buffers=2 ! "
      "video/x-raw,format=%s,width=32,height=16 ! cudafilter backend=%s "
      "sigma=35 ! fakesink", format, backend);
  text = launch_warnings (desc, &n);
  fail_unless (n == 1, "%s: %u warnings: %s", desc, n, text);
  fail_unless (strstr (text, "'sigma'") && strstr (text, "281-tap")
      && strstr (text, "Keeping 1"), "%s", text);
  g_free (text);
  g_free (desc);
}

GST_END_TEST;

/* At start there is nothing to keep: the start fails, with the error. */
GST_START_TEST (test_custom_without_kernel_at_start)
{
  const gchar *backend = backends[__i__];
  GstElement *e;
  GstBus *bus;
  gchar *text;
  guint errs, n;

  if (!backend_starts (backend))
    return;
  e = gst_element_factory_make ("cudafilter", NULL);
  gst_util_set_object_arg (G_OBJECT (e), "backend", backend);
  gst_util_set_object_arg (G_OBJECT (e), "filter", "custom");
  bus = gst_bus_new ();
  gst_element_set_bus (e, bus);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  text = messages (bus, &errs, &n);
  fail_unless (errs == 1 && strstr (text, "kernel") != NULL, "%s", text);
  g_free (text);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_bus_set_flushing (bus, TRUE);
  gst_object_unref (e);
  gst_object_unref (bus);
}

GST_END_TEST;

/* Runs `desc` to EOS; returns cudafilter's warnings. */
static gchar *
launch_warnings (const gchar * desc, guint * n)
{
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch (desc, &err);
  GstBus *bus;
  gchar *text;
  guint errs;

  fail_unless (pipe != NULL, "%s: %s", desc, err ? err->message : "");
  bus = gst_element_get_bus (pipe);
  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  text = messages_until (bus, 20 * GST_SECOND, &errs, n);
  fail_unless (errs == 0, "%s", text);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  return text;
}

GST_START_TEST (test_launch_line_refusals_are_posted)
{
  const gchar *backend = backends[__i__];
  gchar *desc, *text;
  guint n;

  if (!backend_starts (backend))
    return;
  desc = g_strdup_printf ("videotestsrc num-buffers=3 ! "
      "video/x-raw,width=32,height=16 ! cudafilter backend=%s "
      "filter=gaussian kernel-size=4 ! fakesink", backend);
  text = launch_warnings (desc, &n);
  fail_unless (n == 1, "%u warnings: %s", n, text);
  fail_unless (strstr (text, "'kernel-size'") && strstr (text, " 4 ")
      && strstr (text, "Accepted: ") && strstr (text, "odd"), "%s", text);
  g_free (text);
  g_free (desc);

  desc = g_strdup_printf ("videotestsrc num-buffers=3 ! "
      "video/x-raw,width=32,height=16 ! cudafilter backend=%s filter=sobel "
      "kernel-size=9 ! fakesink", backend);
  text = launch_warnings (desc, &n);
  fail_unless (n == 1, "%u warnings: %s", n, text);
  fail_unless (strstr (text, "'kernel-size'") && strstr (text, " 9 ")
      && strstr (text, "Accepted: "), "%s", text);
  g_free (text);
  g_free (desc);
}

GST_END_TEST;

/* What a user sees: gst-launch-1.0 itself prints the refusal. */
GST_START_TEST (test_gst_launch_prints_refusal)
{
  gchar *launch = g_find_program_in_path ("gst-launch-1.0");
  gchar *out = NULL, *err = NULL;
  gint status = 0;
  gchar *argv[] = { launch, (gchar *) "videotestsrc", (gchar *) "num-buffers=2",
    (gchar *) "!", (gchar *) "cudafilter", (gchar *) "backend=cpu",
    (gchar *) "filter=gaussian", (gchar *) "kernel-size=4", (gchar *) "!",
    (gchar *) "fakesink", NULL
  };
  gchar **env;

  if (launch == NULL) {
    g_print ("SKIP %s: gst-launch-1.0 not found\n", __func__);
    return;
  }
  /* Our plugin and the system ones, whatever the test's registry: the
   * system path the caller set (a GStreamer runtime brought along), else
   * this build's (meson's test environment empties it). */
  env = g_get_environ ();
  if (g_strcmp0 (g_environ_getenv (env, "GST_PLUGIN_SYSTEM_PATH_1_0"),
          "") <= 0)
    env = g_environ_setenv (env, "GST_PLUGIN_SYSTEM_PATH_1_0",
        SYSTEM_PLUGINS_DIR, TRUE);
  env = g_environ_unsetenv (env, "GST_REGISTRY");
  fail_unless (g_spawn_sync (NULL, argv, env, G_SPAWN_DEFAULT, NULL, NULL,
          &out, &err, &status, NULL));
  fail_unless (strstr (out, "WARNING") && strstr (out, "'kernel-size'")
      && strstr (out, "Invalid value 4"), "gst-launch-1.0 printed:\n%s\n%s",
      out, err);
  g_strfreev (env);
  g_free (out);
  g_free (err);
  g_free (launch);
}

GST_END_TEST;

/* An element with a bus posts at once, and not again when it starts. */
GST_START_TEST (test_refusal_with_a_bus_posts_at_once)
{
  GstElement *pipe = gst_parse_launch ("videotestsrc num-buffers=2 ! "
      "video/x-raw,width=32,height=16 ! cudafilter name=cudafilter-f backend=cpu ! "
      "fakesink", NULL);
  GstElement *f = gst_bin_get_by_name (GST_BIN (pipe), "cudafilter-f");
  GstBus *bus = gst_element_get_bus (pipe);
  gchar *text;
  guint errs, n;
  gint ks;

  g_object_set (f, "kernel-size", 4, NULL);
  g_object_get (f, "kernel-size", &ks, NULL);
  fail_unless_equals_int (ks, 0);
  text = messages (bus, &errs, &n);
  fail_unless (errs == 0 && n == 1, "%u errors, %u warnings: %s", errs, n,
      text);
  fail_unless (strstr (text, "'kernel-size'") != NULL, "%s", text);
  g_free (text);

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  text = messages_until (bus, 20 * GST_SECOND, &errs, &n);
  gst_element_set_state (pipe, GST_STATE_NULL);
  fail_unless (errs == 0 && n == 0, "%u errors, %u warnings: %s", errs, n,
      text);
  g_free (text);
  gst_object_unref (f);
  gst_object_unref (bus);
  gst_object_unref (pipe);
}

GST_END_TEST;

/* The pools are sized at negotiation for the frames the element will hold;
 * a frames-in-flight change after that, before the first frame, must not
 * make the depth larger than they were sized for (a bounded pool kept
 * downstream would then block for good). */
GST_START_TEST (test_frames_in_flight_while_playing)
{
  GstElement *e = gst_element_factory_make ("cudafilter", NULL);
  GstHarness *h;
  guint n;

  gst_util_set_object_arg (G_OBJECT (e), "backend", "cpu");
  g_object_set (e, "frames-in-flight", 2, NULL);
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  gst_harness_set_src_caps_str (h,
      "video/x-raw,format=GRAY8,width=16,height=8,framerate=25/1");
  gst_harness_play (h);
  g_object_set (h->element, "frames-in-flight", 8, NULL);
  for (n = 0; n < 5; n++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, 16 * 8, NULL);

    gst_buffer_memset (buf, 0, n, 16 * 8);
    GST_BUFFER_PTS (buf) = n * 40 * GST_MSECOND;
    fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  }
  /* Depth 2: the first frame leaves at once, then one stays in flight. */
  fail_unless_equals_int (gst_harness_buffers_received (h), 4);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A kernel-size that only a structuring element made harmless: clearing
 * the element is refused (morphology would fall back to kernel-size 104,
 * past its 63) instead of failing at the next caps. */
GST_START_TEST (test_clearing_element_checks_kernel_size)
{
  const gchar *backend = backends[__i__];
  gchar *desc, *text;
  guint n;

  if (!backend_starts (backend))
    return;
  desc = g_strdup_printf ("videotestsrc num-buffers=2 ! "
      "video/x-raw,format=GBR,width=5,height=8 ! cudafilter backend=%s "
      "filter=erode kernel=\"1 1; 1 1\" kernel-size=104 kernel=\"\" ! "
      "fakesink", backend);
  text = launch_warnings (desc, &n);
  fail_unless (n == 1, "%s: %u warnings: %s", desc, n, text);
  fail_unless (strstr (text, "'kernel'") && strstr (text, "kernel-size 104"),
      "%s", text);
  g_free (text);
  g_free (desc);
}

GST_END_TEST;

static Suite *
property_changes_suite (void)
{
  Suite *s = suite_create ("cudafilter-property-changes");
  TCase *tc = tcase_create ("changes");

  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_custom_then_kernel_while_playing, 0,
      G_N_ELEMENTS (backends));
  tcase_add_loop_test (tc, test_refusal_same_every_format, 0,
      2 * G_N_ELEMENTS (backends));
  tcase_add_loop_test (tc, test_sigma_8_every_format, 0,
      2 * G_N_ELEMENTS (backends));
  tcase_add_loop_test (tc, test_custom_without_kernel_at_start, 0,
      G_N_ELEMENTS (backends));
  tcase_add_loop_test (tc, test_launch_line_refusals_are_posted, 0,
      G_N_ELEMENTS (backends));
  tcase_add_loop_test (tc, test_clearing_element_checks_kernel_size, 0,
      G_N_ELEMENTS (backends));
  tcase_add_test (tc, test_refusal_with_a_bus_posts_at_once);
  tcase_add_test (tc, test_gst_launch_prints_refusal);
  tcase_add_test (tc, test_frames_in_flight_while_playing);
  return s;
}

int
main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);
  /* videotestsrc and fakesink for the launch lines */
  gst_registry_scan_path (gst_registry_get (), SYSTEM_PLUGINS_DIR);
  return gst_check_run_suite (property_changes_suite (),
      "cudafilter-property-changes", __FILE__);
}
