/* cudafilter reliability: a soak.  Pushes FRAMES frames of WxH through a
 * cudafilter (GstHarness), re-sending one pre-filled frame so the source
 * costs nothing, and changes a property every 100 frames (filter, sigma,
 * border, kernel, border-value in turn).  Checks frames in == frames out
 * and timestamps in order, and prints resident memory and free device
 * memory after a warm-up and at the end: both must stay flat.
 *
 * Usage: soak [FRAMES] [BACKEND] [WIDTH] [HEIGHT] [FORMAT]
 * SOAK_SECONDS=N stops pushing after N seconds (the figures say how many
 * frames ran). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "cf-backend.h"
#include "cf-host-memory.h"
#ifdef HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#define WARMUP 1000
/* Memory may grow by this much between the warm-up and the end (pools are
 * sized by then; anything per frame would be far larger over the run). */
#define RSS_SLACK_KB (16 * 1024)

static long
rss_kb (void)
{
  long pages = 0, resident = 0;
  FILE *f = fopen ("/proc/self/statm", "r");

  if (f) {
    if (fscanf (f, "%ld %ld", &pages, &resident) != 2)
      resident = 0;
    fclose (f);
  }
  return resident * (sysconf (_SC_PAGESIZE) / 1024);
}

static long long
device_free_mb (void)
{
#ifdef HAVE_CUDA
  size_t free_b = 0, total_b = 0;

  if (cf_cuda_device_count (NULL) > 0 && cudaMemGetInfo (&free_b,
          &total_b) == cudaSuccess)
    return (long long) (free_b >> 20);
#endif
  return -1;
}

static void
free_pinned (gpointer data)
{
  cf_host_free (data, 0);
}

static void
free_plain (gpointer data)
{
  cf_host_free (data, -1);
}

static void
change_property (GstElement * f, guint step)
{
  static const char *const filters[] = { "gaussian", "box", "sobel",
    "sharpen", "laplacian", "scharr", "custom", "sobel-x"
  };
  static const char *const borders[] = { "reflect101", "replicate",
    "reflect", "wrap", "constant"
  };
  static const char *const kernels[] = { "1 2 1; 2 4 2; 1 2 1",
    "0 -1 0; -1 5 -1; 0 -1 0", "1 1 1 1 1 1 1"
  };

  switch (step % 5) {
    case 0:
      gst_util_set_object_arg (G_OBJECT (f), "filter",
          filters[(step / 5) % G_N_ELEMENTS (filters)]);
      break;
    case 1:
      g_object_set (f, "sigma", 0.5 + (step % 17) * 0.25, NULL);
      break;
    case 2:
      gst_util_set_object_arg (G_OBJECT (f), "border",
          borders[(step / 5) % G_N_ELEMENTS (borders)]);
      break;
    case 3:
      g_object_set (f, "kernel", kernels[(step / 5) % G_N_ELEMENTS (kernels)],
          NULL);
      break;
    default:
      g_object_set (f, "border-value", (guint) (step * 7 % 256), NULL);
      break;
  }
}

int
main (int argc, char **argv)
{
  guint64 frames = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 100000;
  const char *backend = argc > 2 ? argv[2] : "cuda";
  int w = argc > 3 ? atoi (argv[3]) : 1920, h = argc > 4 ? atoi (argv[4]) :
      1080;
  const char *format = argc > 5 ? argv[5] : "NV12";
  GstHarness *harness;
  GstElement *f;
  GstBus *bus;
  GstVideoInfo info;
  GstBuffer *src;
  GstMessage *msg;
  gpointer data;
  gint pinned_on;
  gboolean pinned;
  guint64 i, out = 0;
  GstClockTime last = GST_CLOCK_TIME_NONE;
  long rss0 = 0, rss1;
  long long dev0 = -1, dev1;
  gint64 t0 = 0, t1;
  int rc = 0;
  const char *limit_env = g_getenv ("SOAK_SECONDS");
  gint64 deadline = limit_env ? g_get_monotonic_time () +
      g_ascii_strtoll (limit_env, NULL, 10) * G_USEC_PER_SEC : G_MAXINT64;

  gst_init (&argc, &argv);
  if (!strcmp (backend, "cuda") && cf_cuda_device_count (NULL) == 0) {
    printf ("SKIP: the backend=cuda soak needs a CUDA device\n");
    return 0;
  }

  f = gst_element_factory_make ("cudafilter", NULL);
  if (f == NULL) {
    fprintf (stderr, "cudafilter not found: is GST_PLUGIN_PATH set?\n");
    return 1;
  }
  gst_util_set_object_arg (G_OBJECT (f), "backend", backend);
  g_object_set (f, "frames-in-flight", 3, "kernel", "1 2 1", NULL);
  bus = gst_bus_new ();
  gst_element_set_bus (f, bus);
  harness = gst_harness_new_with_element (f, "sink", "src");

  gst_video_info_set_format (&info, gst_video_format_from_string (format), w,
      h);
  info.fps_n = 30;
  info.fps_d = 1;
  gst_harness_set_src_caps (harness, gst_video_info_to_caps (&info));
  data = cf_host_alloc (info.size, 0, &pinned_on);
  pinned = pinned_on >= 0;
  for (gsize b = 0; b < info.size; b++)
    ((guint8 *) data)[b] = (guint8) (b * 131 + (b >> 11));
  src = gst_buffer_new_wrapped_full (0, data, info.size, 0, info.size,
      data, pinned ? free_pinned : free_plain);

  for (i = 0; i < frames; i++) {
    GstBuffer *in = gst_buffer_copy (src), *res;
    GstFlowReturn ret;

    if (i == MIN (WARMUP, frames / 2)) {
      rss0 = rss_kb ();
      dev0 = device_free_mb ();
      t0 = g_get_monotonic_time ();
    }
    if (i % 1000 == 0 && g_get_monotonic_time () > deadline)
      break;
    if (i % 100 == 99)
      change_property (f, (guint) (i / 100));
    GST_BUFFER_PTS (in) = i * (GST_SECOND / 30);
    GST_BUFFER_DURATION (in) = GST_SECOND / 30;
    ret = gst_harness_push (harness, in);
    if (ret != GST_FLOW_OK) {
      fprintf (stderr, "frame %" G_GUINT64_FORMAT ": %s\n", i,
          gst_flow_get_name (ret));
      rc = 1;
      break;
    }
    while ((res = gst_harness_try_pull (harness)) != NULL) {
      if (GST_CLOCK_TIME_IS_VALID (last) && GST_BUFFER_PTS (res) <= last) {
        fprintf (stderr, "timestamps out of order at output %" G_GUINT64_FORMAT
            "\n", out);
        rc = 1;
      }
      last = GST_BUFFER_PTS (res);
      out++;
      gst_buffer_unref (res);
    }
  }
  gst_harness_push_event (harness, gst_event_new_eos ());
  {
    GstBuffer *res;

    while ((res = gst_harness_try_pull (harness)) != NULL) {
      out++;
      gst_buffer_unref (res);
    }
  }
  t1 = g_get_monotonic_time ();
  rss1 = rss_kb ();
  dev1 = device_free_mb ();

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR)) != NULL) {
    GError *err = NULL;

    gst_message_parse_error (msg, &err, NULL);
    fprintf (stderr, "error: %s\n", err->message);
    g_error_free (err);
    gst_message_unref (msg);
    rc = 1;
  }
  printf ("soak: %s %dx%d backend=%s, %" G_GUINT64_FORMAT " frames in, %"
      G_GUINT64_FORMAT " out, %" G_GUINT64_FORMAT " property changes, %.0f "
      "fps\n", format, w, h, backend, i, out, i / 100,
      (i - MIN (WARMUP, frames / 2)) / ((t1 - t0) / 1e6));
  printf ("soak: RSS %ld -> %ld kB, device free %lld -> %lld MB (pinned "
      "input: %s)\n", rss0, rss1, dev0, dev1, pinned ? "yes" : "no");
  if (out != i) {
    fprintf (stderr, "frames in != frames out\n");
    rc = 1;
  }
  if (rss1 - rss0 > RSS_SLACK_KB) {
    fprintf (stderr, "resident memory grew by %ld kB\n", rss1 - rss0);
    rc = 1;
  }
  if (dev0 >= 0 && dev0 - dev1 > 16) {
    fprintf (stderr, "free device memory fell by %lld MB\n", dev0 - dev1);
    rc = 1;
  }
  gst_buffer_unref (src);
  gst_harness_teardown (harness);
  gst_object_unref (f);
  gst_object_unref (bus);
  return rc;
}
