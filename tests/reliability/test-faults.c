/* cudafilter reliability: faults.
 *
 * A device that is missing, an allocation that fails (CUDAFILTER_FAULT=alloc
 * makes the CUDA backend's device allocations fail) and a frame larger than
 * device memory give an error a user can read; the process stays alive and
 * the pipeline goes back to NULL and starts again.  backend=auto falls back
 * to the CPU only at start, with a warning, and never silently mid-stream.
 * The CPU-side checks run everywhere; the GPU ones skip without a device. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <sys/mman.h>
#include "rel-common.h"
#include "cf-backend.h"
#include "cf-spec.h"
#include "cf-layout.h"

/* The message text (not the debug part) of the first message of type on
 * bus; NULL when there is none. */
static gchar *
message_text (GstBus * bus, GstMessageType type)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, type);
  GError *err = NULL;
  gchar *dbg = NULL, *text;

  if (msg == NULL)
    return NULL;
  if (type == GST_MESSAGE_ERROR)
    gst_message_parse_error (msg, &err, &dbg);
  else
    gst_message_parse_warning (msg, &err, &dbg);
  text = g_strdup (err->message);
  g_error_free (err);
  g_free (dbg);
  gst_message_unref (msg);
  return text;
}

static void
assert_mentions (const gchar * text, const gchar * word)
{
  fail_unless (text != NULL, "no message");
  fail_unless (strstr (text, word) != NULL, "'%s' not in the message: %s",
      word, text);
}

static GstElement *
pipeline (const gchar * props, GstElement ** filter)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=5 ! "
      "video/x-raw,format=RGBA,width=64,height=48 ! cudafilter name=f %s ! "
      "fakesink sync=false", props);
  GstElement *pipe = gst_parse_launch (desc, NULL);

  fail_unless (pipe != NULL, "cannot build %s", desc);
  *filter = gst_bin_get_by_name (GST_BIN (pipe), "f");
  g_free (desc);
  return pipe;
}

/* Warnings seen by the last play (), in order. */
static GPtrArray *warnings;

/* Plays to EOS or error; returns the error text (NULL at EOS) and keeps
 * the warnings' texts in `warnings`. */
static gchar *
play (GstElement * pipe)
{
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *msg;
  gchar *text = NULL;

  if (warnings == NULL)
    warnings = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_set_size (warnings, 0);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (;;) {
    GError *err = NULL;

    msg = gst_bus_timed_pop_filtered (bus, 20 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);
    fail_unless (msg != NULL, "neither EOS nor an error within 20 s");
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING) {
      gst_message_parse_warning (msg, &err, NULL);
      g_ptr_array_add (warnings, g_strdup (err->message));
      g_error_free (err);
      gst_message_unref (msg);
      continue;
    }
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      gst_message_parse_error (msg, &err, NULL);
      text = g_strdup (err->message);
      g_error_free (err);
    }
    gst_message_unref (msg);
    break;
  }
  gst_object_unref (bus);
  return text;
}

/* The n-th warning of the last play (), or NULL. */
static const gchar *
warning_text (guint n)
{
  return warnings && n < warnings->len ? g_ptr_array_index (warnings, n) :
      NULL;
}

static void
back_to_null (GstElement * pipe)
{
  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
}

/* Without a device, backend=cuda fails at start with a message naming the
 * cause and the way out; the same pipeline then runs with backend=cpu. */
GST_START_TEST (test_no_device_then_restart)
{
  GstElement *f, *pipe;
  gchar *text;

  if (rel_backend_usable (REL_CUDA)) {
    g_print ("SKIP %s: a CUDA device is present (test_missing_device covers "
        "this machine)\n", __func__);
    return;
  }
  pipe = pipeline ("backend=cuda", &f);
  text = play (pipe);
  assert_mentions (text, "no CUDA device is usable");
  assert_mentions (text, "backend=cpu");
  g_free (text);
  back_to_null (pipe);

  for (int i = 0; i < 3; i++) {
    gst_util_set_object_arg (G_OBJECT (f), "backend", "cpu");
    text = play (pipe);
    fail_unless (text == NULL, "restart on the CPU failed: %s", text);
    back_to_null (pipe);
    gst_util_set_object_arg (G_OBJECT (f), "backend", "cuda");
    text = play (pipe);
    assert_mentions (text, "CUDA");
    g_free (text);
    back_to_null (pipe);
  }
  gst_object_unref (f);
  gst_object_unref (pipe);
}

GST_END_TEST;

/* backend=auto without a device: one warning at start, CPU output. */
GST_START_TEST (test_auto_fallback_at_start)
{
  GstElement *f, *pipe;
  gchar *text;

  if (rel_backend_usable (REL_CUDA)) {
    g_print ("SKIP %s: a CUDA device is present, auto uses it\n", __func__);
    return;
  }
  pipe = pipeline ("backend=auto", &f);
  text = play (pipe);
  fail_unless (text == NULL, "auto failed: %s", text);
  assert_mentions (warning_text (0), "on the CPU");
  fail_unless (warning_text (1) == NULL, "more than one warning");
  back_to_null (pipe);
  /* Restarted: the fallback happens at start again, still no error. */
  text = play (pipe);
  fail_unless (text == NULL, "auto failed on restart: %s", text);
  back_to_null (pipe);
  gst_object_unref (f);
  gst_object_unref (pipe);
}

GST_END_TEST;

/* A device id that does not exist: the error lists the devices there are. */
GST_START_TEST (test_missing_device)
{
  GstElement *f, *pipe;
  gchar *text;

  REL_SKIP_WITHOUT (REL_CUDA);
  pipe = pipeline ("backend=cuda cuda-device-id=7", &f);
  for (int i = 0; i < 3; i++) {
    text = play (pipe);
    assert_mentions (text, "CUDA device 7");
    assert_mentions (text, "present");
    g_free (text);
    back_to_null (pipe);
    g_object_set (f, "cuda-device-id", -1, NULL);
    text = play (pipe);
    fail_unless (text == NULL, "restart on device -1 failed: %s", text);
    back_to_null (pipe);
    g_object_set (f, "cuda-device-id", 7, NULL);
  }
  /* auto with a missing device id falls back, at start, with a warning. */
  gst_util_set_object_arg (G_OBJECT (f), "backend", "auto");
  text = play (pipe);
  fail_unless (text == NULL, "auto with device 7: %s", text);
  assert_mentions (warning_text (0), "CPU");
  back_to_null (pipe);
  gst_object_unref (f);
  gst_object_unref (pipe);
}

GST_END_TEST;

/* Device allocations fail: an error, not a silent switch to the CPU, for
 * backend=cuda and for backend=auto (which picked CUDA at start). */
GST_START_TEST (test_alloc_failure)
{
  static const gchar *const choices[] = { "cuda", "auto" };
  GstElement *f, *pipe;
  gchar *text;

  REL_SKIP_WITHOUT (REL_CUDA);
  for (guint c = 0; c < G_N_ELEMENTS (choices); c++) {
    gchar *props = g_strdup_printf ("backend=%s", choices[c]);

    pipe = pipeline (props, &f);
    g_setenv ("CUDAFILTER_FAULT", "alloc", TRUE);
    text = play (pipe);
    g_unsetenv ("CUDAFILTER_FAULT");
    assert_mentions (text, "GPU memory");
    g_free (text);
    fail_unless (warning_text (0) == NULL,
        "backend=%s warned (fell back?) instead of failing: %s", choices[c],
        warning_text (0));
    back_to_null (pipe);
    /* The fault is gone: the same pipeline starts again and runs. */
    text = play (pipe);
    fail_unless (text == NULL, "restart after the fault failed: %s", text);
    back_to_null (pipe);
    gst_object_unref (f);
    gst_object_unref (pipe);
    g_free (props);
  }
}

GST_END_TEST;

/* A frame larger than any device memory, through the engine: an error
 * naming GPU memory, and the backend still filters the next frame. */
GST_START_TEST (test_frame_too_large)
{
  /* 262143 x 65535 pixels of 4 x 16-bit samples: 137 GB per buffer. */
  const int w = 262143, h = 65535;
  gsize bytes = (gsize) w * 8 * h;
  CfBackend *be;
  CfParams params;
  CfSpec *spec;
  CfLayout layout;
  CfFrame in, out;
  GError *err = NULL;
  guint8 *mem;
  guint16 small_in[4 * 4], small_out[4 * 4];

  REL_SKIP_WITHOUT (REL_CUDA);
  memset (&in, 0, sizeof (in));
  memset (&out, 0, sizeof (out));
  be = cf_backend_new (CF_BACKEND_CUDA, -1, &err);
  fail_unless (be != NULL, "%s", err ? err->message : "");
  cf_params_init (&params);
  spec = cf_spec_new (&params, 2, NULL);
  cf_layout_init_interleaved (&layout, w, h, 4, 2, 0x7);
  /* Address space only: nothing is read if the device refuses. */
  mem = mmap (NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE |
      MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  fail_unless (mem != MAP_FAILED);
  in.data[0] = out.data[0] = mem;
  in.stride[0] = out.stride[0] = w * 8;
  fail_if (cf_backend_process (be, spec, &layout, &in, &out, &err),
      "a %" G_GSIZE_FORMAT "-byte frame was accepted", bytes);
  fail_unless (err != NULL);
  assert_mentions (err->message, "GPU memory");
  g_print ("too large: %s\n", err->message);
  g_clear_error (&err);
  munmap (mem, bytes);

  /* The same backend carries on with a frame that fits: a constant 2x2
   * GRAY16 stays constant under the Gaussian. */
  for (int i = 0; i < 16; i++)
    small_in[i] = 1234;
  cf_layout_init_interleaved (&layout, 2, 2, 4, 2, 0x7);
  in.data[0] = (guint8 *) small_in;
  out.data[0] = (guint8 *) small_out;
  in.stride[0] = out.stride[0] = 2 * 8;
  fail_unless (cf_backend_process (be, spec, &layout, &in, &out, &err),
      "%s", err ? err->message : "");
  for (int i = 0; i < 16; i++)
    fail_unless_equals_int (small_out[i], 1234);
  cf_spec_free (spec);
  cf_backend_free (be);
}

GST_END_TEST;

/* A mid-stream device failure with frames in flight: error, then the
 * pipeline returns to NULL and runs again. */
GST_START_TEST (test_alloc_failure_in_flight)
{
  GstHarness *h;
  GstBus *bus;
  GstVideoInfo info;
  gchar *text;

  REL_SKIP_WITHOUT (REL_CUDA);
  g_setenv ("CUDAFILTER_FAULT", "alloc", TRUE);
  h = rel_harness (REL_CUDA, &bus, "frames-in-flight", "3", NULL);
  g_unsetenv ("CUDAFILTER_FAULT");
  rel_set_caps (h, &info, "I420", 64, 48);
  fail_unless_equals_int (gst_harness_push (h, rel_constant_buffer (&info,
              50)), GST_FLOW_ERROR);
  text = message_text (bus, GST_MESSAGE_ERROR);
  assert_mentions (text, "GPU memory");
  g_free (text);
  fail_unless_equals_int (gst_element_set_state (h->element, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  fail_unless (gst_element_set_state (h->element, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless (gst_harness_push_event (h, gst_event_new_stream_start ("x")));
  rel_set_caps (h, &info, "I420", 64, 48);
  for (int i = 0; i < 4; i++)
    fail_unless_equals_int (gst_harness_push (h, rel_constant_buffer (&info,
                50)), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 2);
  rel_assert_no_error (bus, "after restart");
  rel_teardown (h, bus);
}

GST_END_TEST;

static Suite *
faults_suite (void)
{
  Suite *s = suite_create ("cudafilter-faults");
  TCase *tc = tcase_create ("faults");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_no_device_then_restart);
  tcase_add_test (tc, test_auto_fallback_at_start);
  tcase_add_test (tc, test_missing_device);
  tcase_add_test (tc, test_alloc_failure);
  tcase_add_test (tc, test_frame_too_large);
  tcase_add_test (tc, test_alloc_failure_in_flight);
  return s;
}

GST_CHECK_MAIN (faults);
