/* cudafilter: what users reach for beyond the filters themselves: built-in
 * and user presets (GstPreset) and the statistics (properties and element
 * messages).  Runs on the CPU backend; expected values are worked out by
 * hand in each check. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <glib/gstdio.h>

static const gchar *const builtin_names[] = {
  "soft-blur", "strong-blur", "box-blur", "edges", "edges-fine", "outline",
  "sharpen", "strong-sharpen", "emboss", "denoise", "denoise-strong",
  "skin-smooth", "mask-clean"
};

static GstElement *
make_filter (void)
{
  GstElement *e = gst_element_factory_make ("cudafilter", NULL);

  fail_unless (e != NULL, "cudafilter not found: is GST_PLUGIN_PATH set?");
  gst_util_set_object_arg (G_OBJECT (e), "backend", "cpu");
  return e;
}

static gchar *
get_arg (GstElement * e, const gchar * name)
{
  GValue v = G_VALUE_INIT;
  gchar *s;

  g_object_get_property (G_OBJECT (e), name, (g_value_init (&v,
              G_PARAM_SPEC_VALUE_TYPE (g_object_class_find_property
                  (G_OBJECT_GET_CLASS (e), name))), &v));
  s = gst_value_serialize (&v);
  g_value_unset (&v);
  return s;
}

#define check_arg(e, name, want) G_STMT_START {                          \
  gchar *got_ = get_arg ((e), (name));                                  \
  fail_unless (g_strcmp0 (got_, (want)) == 0,                           \
      "%s: got %s, expected %s", (name), got_, (want));                  \
  g_free (got_);                                                        \
} G_STMT_END

/* One GRAY8 frame of w x h, every byte `value`, through a harnessed
 * filter; returns the first output byte after checking that all output
 * bytes are equal. */
static guint8
filter_constant_frame (GstElement * e, guint8 value)
{
  const int w = 16, h_ = 8;
  GstHarness *h = gst_harness_new_with_element (e, "sink", "src");
  GstVideoInfo info;
  GstVideoFrame frame;
  GstBuffer *in, *out;
  guint8 first;
  int x, y;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, w, h_);
  gst_harness_set_src_caps (h, gst_video_info_to_caps (&info));
  in = gst_buffer_new_allocate (NULL, info.size, NULL);
  gst_buffer_memset (in, 0, value, info.size);
  GST_BUFFER_PTS (in) = 0;
  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  gst_harness_push_event (h, gst_event_new_eos ());
  out = gst_harness_pull (h);
  fail_unless (out != NULL);
  fail_unless (gst_video_frame_map (&frame, &info, out, GST_MAP_READ));
  first = ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0))[0];
  for (y = 0; y < h_; y++)
    for (x = 0; x < w; x++)
      fail_unless_equals_int (((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
                  0))[y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0) + x],
          first);
  gst_video_frame_unmap (&frame);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  return first;
}

/* ---------------------------------------------------------------------- */
/* Presets */

GST_START_TEST (test_preset_names)
{
  GstElement *e = make_filter ();
  gchar **names = gst_preset_get_preset_names (GST_PRESET (e));
  gchar **props = gst_preset_get_property_names (GST_PRESET (e));
  gchar *comment = NULL;
  guint i;

  fail_unless (names != NULL);
  for (i = 0; i < G_N_ELEMENTS (builtin_names); i++)
    fail_unless (g_strv_contains ((const gchar * const *) names,
            builtin_names[i]), "preset %s missing", builtin_names[i]);

  /* Presets hold the filter settings, not where frames are filtered. */
  fail_unless (g_strv_contains ((const gchar * const *) props, "sigma"));
  fail_unless (g_strv_contains ((const gchar * const *) props, "kernel"));
  fail_if (g_strv_contains ((const gchar * const *) props, "backend"));
  fail_if (g_strv_contains ((const gchar * const *) props, "post-stats"));

  fail_unless (gst_preset_get_meta (GST_PRESET (e), "edges", "comment",
          &comment));
  fail_unless (comment != NULL && strstr (comment, "Sobel") != NULL);
  g_free (comment);

  fail_if (gst_preset_load_preset (GST_PRESET (e), "no-such-preset"));

  g_strfreev (names);
  g_strfreev (props);
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_preset_load_sets_properties)
{
  GstElement *e = make_filter ();

  fail_unless (gst_preset_load_preset (GST_PRESET (e), "strong-blur"));
  check_arg (e, "filter", "gaussian");
  check_arg (e, "sigma", "6");

  /* Each preset starts from the defaults: nothing of strong-blur stays. */
  fail_unless (gst_preset_load_preset (GST_PRESET (e), "edges"));
  check_arg (e, "filter", "sobel");
  check_arg (e, "kernel-size", "3");
  check_arg (e, "sigma", "1");

  fail_unless (gst_preset_load_preset (GST_PRESET (e), "strong-sharpen"));
  check_arg (e, "filter", "sharpen");
  check_arg (e, "sigma", "2");
  check_arg (e, "amount", "2.5");
  check_arg (e, "kernel-size", "0");

  fail_unless (gst_preset_load_preset (GST_PRESET (e), "emboss"));
  check_arg (e, "filter", "custom");
  check_arg (e, "kernel", "\"-2\\ -1\\ 0\\;\\ -1\\ 0\\ 1\\;\\ 0\\ 1\\ 2\"");
  check_arg (e, "offset", "128");

  /* Back from custom to a blur: kernel and offset are cleared. */
  fail_unless (gst_preset_load_preset (GST_PRESET (e), "box-blur"));
  check_arg (e, "filter", "box");
  check_arg (e, "kernel-size", "5");
  check_arg (e, "kernel", NULL);
  check_arg (e, "offset", "0");

  /* The nonlinear presets set their own properties, and the next preset
   * puts them back. */
  fail_unless (gst_preset_load_preset (GST_PRESET (e), "mask-clean"));
  check_arg (e, "filter", "open");
  check_arg (e, "shape", "ellipse");
  check_arg (e, "kernel-size", "3");
  fail_unless (gst_preset_load_preset (GST_PRESET (e), "skin-smooth"));
  check_arg (e, "filter", "bilateral");
  check_arg (e, "shape", "rect");
  check_arg (e, "kernel-size", "9");
  check_arg (e, "sigma-color", "30");
  fail_unless (gst_preset_load_preset (GST_PRESET (e), "denoise-strong"));
  check_arg (e, "filter", "median");
  check_arg (e, "kernel-size", "5");
  check_arg (e, "sigma-color", "-1");

  /* The user's choice of planes and backend is left alone. */
  gst_util_set_object_arg (G_OBJECT (e), "planes", "luma");
  fail_unless (gst_preset_load_preset (GST_PRESET (e), "soft-blur"));
  check_arg (e, "planes", "luma");
  check_arg (e, "backend", "cpu");
  check_arg (e, "sigma", "1.5");

  gst_object_unref (e);
}

GST_END_TEST;

/* Every built-in preset runs, and the ones with a closed form on a
 * constant frame give it: blurs and sharpening keep a constant, derivatives
 * give 0, emboss (kernel sum 0, offset 128) gives 128. */
GST_START_TEST (test_preset_output_on_constant)
{
  static const struct
  {
    const gchar *preset;
    int want;
  } cases[] = {
    {"soft-blur", 77}, {"strong-blur", 77}, {"box-blur", 77},
    {"edges", 0}, {"edges-fine", 0}, {"outline", 0},
    {"sharpen", 77}, {"strong-sharpen", 77}, {"emboss", 128},
    {"denoise", 77}, {"denoise-strong", 77}, {"skin-smooth", 77},
    {"mask-clean", 77},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstElement *e = make_filter ();

    fail_unless (gst_preset_load_preset (GST_PRESET (e), cases[i].preset));
    fail_unless_equals_int (filter_constant_frame (e, 77), cases[i].want);
    gst_object_unref (e);
  }
}

GST_END_TEST;

/* A preset the user saves sits next to the built-ins, loads, and a saved
 * preset named like a built-in takes its place until deleted.  Preset
 * files go to $XDG_DATA_HOME, a scratch directory set by main(). */
GST_START_TEST (test_user_presets)
{
  GstElement *e = make_filter ();
  gchar **names;

  gst_util_set_object_arg (G_OBJECT (e), "filter", "laplacian");
  gst_util_set_object_arg (G_OBJECT (e), "kernel-size", "5");
  gst_util_set_object_arg (G_OBJECT (e), "border", "replicate");
  fail_unless (gst_preset_save_preset (GST_PRESET (e), "my-outline"));

  names = gst_preset_get_preset_names (GST_PRESET (e));
  fail_unless (g_strv_contains ((const gchar * const *) names, "my-outline"));
  fail_unless (g_strv_contains ((const gchar * const *) names, "soft-blur"));
  g_strfreev (names);

  fail_unless (gst_preset_load_preset (GST_PRESET (e), "soft-blur"));
  check_arg (e, "filter", "gaussian");
  fail_unless (gst_preset_load_preset (GST_PRESET (e), "my-outline"));
  check_arg (e, "filter", "laplacian");
  check_arg (e, "kernel-size", "5");
  check_arg (e, "border", "replicate");

  /* Override soft-blur, then delete the override: the built-in is back. */
  gst_util_set_object_arg (G_OBJECT (e), "filter", "gaussian");
  gst_util_set_object_arg (G_OBJECT (e), "kernel-size", "0");
  gst_util_set_object_arg (G_OBJECT (e), "sigma", "2.25");
  fail_unless (gst_preset_save_preset (GST_PRESET (e), "soft-blur"));
  gst_util_set_object_arg (G_OBJECT (e), "sigma", "4");
  fail_unless (gst_preset_load_preset (GST_PRESET (e), "soft-blur"));
  check_arg (e, "sigma", "2.25");
  check_arg (e, "border", "replicate");
  fail_unless (gst_preset_delete_preset (GST_PRESET (e), "soft-blur"));
  fail_unless (gst_preset_load_preset (GST_PRESET (e), "soft-blur"));
  check_arg (e, "sigma", "1.5");
  check_arg (e, "border", "reflect101");

  names = gst_preset_get_preset_names (GST_PRESET (e));
  fail_unless_equals_int (g_strv_length (names),
      G_N_ELEMENTS (builtin_names) + 1);
  g_strfreev (names);

  fail_unless (gst_preset_delete_preset (GST_PRESET (e), "my-outline"));
  fail_if (gst_preset_load_preset (GST_PRESET (e), "my-outline"));
  gst_object_unref (e);
}

GST_END_TEST;

/* gst-launch's @preset= syntax reaches the same code. */
GST_START_TEST (test_preset_parse_launch)
{
  GError *err = NULL;
  GstElement *e = gst_parse_launch ("cudafilter @preset=emboss", &err);

  fail_unless (e != NULL && err == NULL, "%s", err ? err->message : "");
  check_arg (e, "filter", "custom");
  check_arg (e, "offset", "128");
  gst_object_unref (e);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* Statistics */

#define STATS_W 320
#define STATS_H 240

static void
push_frames (GstHarness * h, guint n, guint first)
{
  GstVideoInfo info;
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_RGBA, STATS_W, STATS_H);
  if (first == 0)
    gst_harness_set_src_caps (h, gst_video_info_to_caps (&info));
  for (i = 0; i < n; i++) {
    GstBuffer *b = gst_buffer_new_allocate (NULL, info.size, NULL);

    gst_buffer_memset (b, 0, (guint8) (i * 40), info.size);
    GST_BUFFER_PTS (b) = (first + i) * GST_SECOND / 30;
    GST_BUFFER_DURATION (b) = GST_SECOND / 30;
    fail_unless_equals_int (gst_harness_push (h, b), GST_FLOW_OK);
  }
}

GST_START_TEST (test_stats_properties)
{
  GstElement *e = make_filter ();
  GstHarness *h;
  guint64 frames = 99;
  gdouble filter_us = -1, gpu_us = -1, frame_us = -1;
  GParamSpec *old_name;

  /* A 13x13 blur of 320x240 RGBA on the CPU takes well over 1 us. */
  gst_util_set_object_arg (G_OBJECT (e), "sigma", "2");
  h = gst_harness_new_with_element (e, "sink", "src");

  g_object_get (e, "frames-processed", &frames, "filter-time", &filter_us,
      "last-frame-time", &frame_us, NULL);
  fail_unless_equals_uint64 (frames, 0);
  fail_unless_equals_float (filter_us, 0.0);
  fail_unless_equals_float (frame_us, 0.0);

  push_frames (h, 7, 0);
  gst_harness_push_event (h, gst_event_new_eos ());
  /* Frames out == frames in == frames-processed. */
  fail_unless_equals_int (gst_harness_buffers_received (h), 7);
  g_object_get (e, "frames-processed", &frames, "filter-time", &filter_us,
      "gpu-time", &gpu_us, "last-frame-time", &frame_us, NULL);
  fail_unless_equals_uint64 (frames, 7);
  /* The CPU backend's filtering time, under a name true on either backend;
   * gpu-time, its old name, stays readable, marked deprecated. */
  fail_unless (filter_us > 0.0, "filter-time %g", filter_us);
  fail_unless_equals_float (gpu_us, filter_us);
  old_name = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      "gpu-time");
  fail_unless (old_name->flags & G_PARAM_DEPRECATED);
  /* Submit to completion includes the filtering itself. */
  fail_unless (frame_us >= filter_us, "last-frame-time %g < filter-time %g",
      frame_us, filter_us);

  /* A restart counts from 0 again. */
  gst_harness_teardown (h);
  h = gst_harness_new_with_element (e, "sink", "src");
  g_object_get (e, "frames-processed", &frames, NULL);
  push_frames (h, 2, 0);
  gst_harness_push_event (h, gst_event_new_eos ());
  g_object_get (e, "frames-processed", &frames, NULL);
  fail_unless_equals_uint64 (frames, 2);

  gst_harness_teardown (h);
  gst_object_unref (e);
}

GST_END_TEST;

static guint
count_stats_messages (GstBus * bus, guint64 * frames_seen, guint max)
{
  GstMessage *m;
  guint n = 0;

  while ((m = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT)) != NULL) {
    const GstStructure *s = gst_message_get_structure (m);
    guint64 frames = 0;
    gdouble kus = -1, fus = -1, mkus = -1, mfus = -1;

    if (gst_structure_has_name (s, "cudafilter-stats")) {
      fail_unless (gst_structure_get (s, "frames", G_TYPE_UINT64, &frames,
              "kernel-us", G_TYPE_DOUBLE, &kus, "frame-us", G_TYPE_DOUBLE,
              &fus, "mean-kernel-us", G_TYPE_DOUBLE, &mkus, "mean-frame-us",
              G_TYPE_DOUBLE, &mfus, NULL), "%s", gst_structure_to_string (s));
      /* "cpu (N threads, variant)", as "cuda:N (device)" names the GPU */
      fail_unless (g_str_has_prefix (gst_structure_get_string (s, "backend"),
              "cpu ("), "%s", gst_structure_to_string (s));
      fail_unless (kus > 0.0 && fus >= kus && mkus > 0.0 && mfus >= mkus,
          "%s", gst_structure_to_string (s));
      if (n < max)
        frames_seen[n] = frames;
      n++;
    }
    gst_message_unref (m);
  }
  return n;
}

GST_START_TEST (test_stats_messages)
{
  GstElement *e = make_filter ();
  GstBus *bus = gst_bus_new ();
  GstHarness *h;
  guint64 seen[8] = { 0 };

  gst_element_set_bus (e, bus);
  gst_util_set_object_arg (G_OBJECT (e), "sigma", "2");
  h = gst_harness_new_with_element (e, "sink", "src");

  /* Off by default: no message. */
  push_frames (h, 4, 0);
  gst_harness_push_event (h, gst_event_new_eos ());
  fail_unless_equals_int (count_stats_messages (bus, seen, 8), 0);
  gst_harness_teardown (h);

  /* Every 3rd frame of 10: after frames 3, 6 and 9. */
  g_object_set (e, "post-stats", TRUE, "stats-interval", 3, NULL);
  h = gst_harness_new_with_element (e, "sink", "src");
  push_frames (h, 10, 0);
  gst_harness_push_event (h, gst_event_new_eos ());
  fail_unless_equals_int (count_stats_messages (bus, seen, 8), 3);
  fail_unless_equals_uint64 (seen[0], 3);
  fail_unless_equals_uint64 (seen[1], 6);
  fail_unless_equals_uint64 (seen[2], 9);

  gst_harness_teardown (h);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}

GST_END_TEST;

static Suite *
cudafilter_users_suite (void)
{
  Suite *s = suite_create ("cudafilter-users");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_preset_names);
  tcase_add_test (tc, test_preset_load_sets_properties);
  tcase_add_test (tc, test_preset_output_on_constant);
  tcase_add_test (tc, test_user_presets);
  tcase_add_test (tc, test_preset_parse_launch);
  tcase_add_test (tc, test_stats_properties);
  tcase_add_test (tc, test_stats_messages);
  return s;
}

int
main (int argc, char **argv)
{
  Suite *s;
  gchar *scratch;
  int failed;

  /* User presets are written here, never into the real home. */
  scratch = g_dir_make_tmp ("cudafilter-presets-XXXXXX", NULL);
  g_assert (scratch != NULL);
  g_setenv ("XDG_DATA_HOME", scratch, TRUE);

  gst_check_init (&argc, &argv);
  s = cudafilter_users_suite ();
  failed = gst_check_run_suite (s, "cudafilter-users", __FILE__);

  /* The preset file, its directories and the scratch dir itself. */
  {
    gchar *prs = g_build_filename (scratch, "gstreamer-1.0", "presets",
        "GstCudaFilter.prs", NULL);
    gchar *d1 = g_build_filename (scratch, "gstreamer-1.0", "presets", NULL);
    gchar *d2 = g_build_filename (scratch, "gstreamer-1.0", NULL);

    g_remove (prs);
    g_rmdir (d1);
    g_rmdir (d2);
    g_rmdir (scratch);
    g_free (prs);
    g_free (d1);
    g_free (d2);
  }
  g_free (scratch);
  return failed;
}
