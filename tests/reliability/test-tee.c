/* cudafilter reliability: several elements behind a tee.
 *
 * Each branch gets the same upstream buffers (and so the same recycled
 * pool memory, which a CUDA backend pins on its second sight, from every
 * branch's streaming thread at once).  Every branch must give every frame,
 * equal to the others' and to a single element's output, with no error;
 * backend=cpu and auto here, backend=cuda where a device is usable. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/app/gstappsink.h>
#include "rel-common.h"

#define BRANCHES 4
#define FRAMES 120

/* Keeps a checksum (FNV-1a) of each frame an appsink gets. */
static GstFlowReturn
new_sample (GstAppSink * sink, gpointer data)
{
  GstSample *sample = gst_app_sink_pull_sample (sink);
  GArray *sums = g_object_get_data (G_OBJECT (sink), "sums");
  GstMapInfo map;
  guint32 sum = 2166136261u;
  gsize i;

  gst_buffer_map (gst_sample_get_buffer (sample), &map, GST_MAP_READ);
  for (i = 0; i < map.size; i++)
    sum = (sum ^ map.data[i]) * 16777619u;
  gst_buffer_unmap (gst_sample_get_buffer (sample), &map);
  g_array_append_val (sums, sum);
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

/* Runs `desc` (appsinks s0..s{n-1}) to EOS; returns each sink's checksums
 * of the frames, in order. */
static GArray **
run (const gchar * desc, guint n)
{
  GstElement *pipe = gst_parse_launch (desc, NULL);
  GArray **sums = g_new0 (GArray *, n);
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *m;
  guint i;

  fail_unless (pipe != NULL, "%s", desc);
  for (i = 0; i < n; i++) {
    gchar *name = g_strdup_printf ("s%u", i);
    GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), name);

    sums[i] = g_array_new (FALSE, FALSE, sizeof (guint32));
    g_object_set_data (G_OBJECT (sink), "sums", sums[i]);
    g_object_set (sink, "emit-signals", TRUE, "sync", FALSE, NULL);
    g_signal_connect (sink, "new-sample", G_CALLBACK (new_sample), NULL);
    gst_object_unref (sink);
    g_free (name);
  }
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  m = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (m != NULL, "%s: no EOS in 60 s", desc);
  if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
    GError *err = NULL;

    gst_message_parse_error (m, &err, NULL);
    fail ("%s: %s", desc, err->message);
  }
  gst_message_unref (m);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  return sums;
}

GST_START_TEST (test_tee_branches_agree)
{
  const gchar *backend = rel_backends[__i__];
  GString *desc;
  GArray **ref, **branches;
  guint b, f;

  REL_SKIP_WITHOUT (__i__);
  ref = run ("videotestsrc num-buffers=" G_STRINGIFY (FRAMES)
      " pattern=ball ! video/x-raw,format=RGBA,width=160,height=90 ! "
      "cudafilter backend=cpu filter=gaussian frames-in-flight=1 ! "
      "appsink name=s0", 1);
  desc = g_string_new ("videotestsrc num-buffers=" G_STRINGIFY (FRAMES)
      " pattern=ball ! video/x-raw,format=RGBA,width=160,height=90 ! "
      "tee name=t");
  for (b = 0; b < BRANCHES; b++)
    g_string_append_printf (desc, " t. ! queue ! cudafilter backend=%s "
        "filter=gaussian frames-in-flight=%u ! appsink name=s%u", backend,
        1 + b, b);
  branches = run (desc->str, BRANCHES);
  for (b = 0; b < BRANCHES; b++) {
    fail_unless_equals_int (branches[b]->len, FRAMES);
    for (f = 0; f < FRAMES; f++)
      fail_unless (g_array_index (branches[b], guint32, f) ==
          g_array_index (ref[0], guint32, f), "branch %u frame %u differs",
          b, f);
    g_array_unref (branches[b]);
  }
  g_array_unref (ref[0]);
  g_free (ref);
  g_free (branches);
  g_string_free (desc, TRUE);
}

GST_END_TEST;

static Suite *
tee_suite (void)
{
  Suite *s = suite_create ("cudafilter-tee");
  TCase *tc = tcase_create ("tee");

  tcase_set_timeout (tc, 240);
  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_tee_branches_agree, REL_CPU, REL_CUDA + 1);
  return s;
}

GST_CHECK_MAIN (tee);
