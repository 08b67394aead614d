/* cudafilter-pipeline-bench: the element's throughput and latency in a real
 * pipeline (appsrc ! cudafilter ! fakesink), beside the PCIe copy floors
 * measured in the same run and the peer a user would otherwise pick
 * (cudaupload ! cudadownload, which filters nothing).
 *
 * Sources cost nothing per frame: buffers are filled once and recycled,
 * either from the pool cudafilter proposes (pinned memory), from a few plain
 * system-memory buffers, or freshly allocated per frame.
 *
 * --cuda-memory measures the zero-copy paths instead: cudaupload !
 * cudafilter ! cudadownload beside cudaupload ! cudadownload, and the
 * element alone between CUDA-memory caps (buffers from the CUDA pool it
 * proposes) beside a device-to-device copy of the frame.
 *
 * Exits 1, saying why, when cudafilter is not on GStreamer's plugin path
 * (GST_PLUGIN_PATH=build/gst) or when a pipeline cannot run, so that a
 * script never takes a table without its rows for a result. */
#include <stdio.h>
#include <string.h>
#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>
#include <cuda_runtime_api.h>

static gchar *opt_size = NULL;
static gchar *opt_format = NULL;
static gchar *opt_filter = NULL;
static gdouble opt_sigma = 2.0;
static gint opt_frames = 600;
static gint opt_in_flight = 0;
static gboolean opt_no_peer = FALSE;
static gboolean opt_latency = FALSE;
static gchar *opt_cases = NULL;
static gchar *opt_backend = NULL;
static gboolean opt_cuda_memory = FALSE;
static gchar *opt_regions = NULL;

static GOptionEntry entries[] = {
  {"size", 's', 0, G_OPTION_ARG_STRING, &opt_size, "Frame size (3840x2160)",
      "WxH"},
  {"format", 'f', 0, G_OPTION_ARG_STRING, &opt_format,
      "Video format (RGBA)", "FMT"},
  {"filter", 0, 0, G_OPTION_ARG_STRING, &opt_filter,
      "cudafilter filter (gaussian)", "NAME"},
  {"sigma", 0, 0, G_OPTION_ARG_DOUBLE, &opt_sigma, "sigma (2)", "S"},
  {"frames", 'n', 0, G_OPTION_ARG_INT, &opt_frames,
      "Frames per case after warm-up (600)", "N"},
  {"frames-in-flight", 0, 0, G_OPTION_ARG_INT, &opt_in_flight,
      "cudafilter frames-in-flight (0 = auto)", "N"},
  {"cases", 0, 0, G_OPTION_ARG_STRING, &opt_cases,
      "Comma list of: pool,plain,fresh (default all)", "LIST"},
  {"backend", 0, 0, G_OPTION_ARG_STRING, &opt_backend,
      "cudafilter backend (cuda)", "NAME"},
  {"no-peer", 0, 0, G_OPTION_ARG_NONE, &opt_no_peer,
      "Skip cudaupload ! cudadownload", NULL},
  {"latency", 0, 0, G_OPTION_ARG_NONE, &opt_latency,
      "Also measure per-frame latency with frames-in-flight=1", NULL},
  {"cuda-memory", 0, 0, G_OPTION_ARG_NONE, &opt_cuda_memory,
      "Measure the memory:CUDAMemory paths (see above)", NULL},
  {"regions", 0, 0, G_OPTION_ARG_STRING, &opt_regions,
      "cudafilter regions, e.g. \"1600,756,640,648\" (5% of 4K): filter "
        "only there", "LIST"},
  {NULL}
};

#define WARMUP 20
#define PLAIN_BUFFERS 4

typedef struct
{
  GMutex lock;
  GCond cond;
  guint count;
  gint64 first_us, last_us;
} Counter;

static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, Counter * c)
{
  gint64 now = g_get_monotonic_time ();

  g_mutex_lock (&c->lock);
  if (c->count == WARMUP)
    c->first_us = now;
  c->count++;
  c->last_us = now;
  g_cond_signal (&c->cond);
  g_mutex_unlock (&c->lock);
}

static double
median (double *v, int n)
{
  int i, j;

  for (i = 1; i < n; i++)
    for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
      double t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
  return v[n / 2];
}

/* Median copy time in µs over a few repetitions. */
static double
time_copy (void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind)
{
  cudaEvent_t a, b;
  double t[9];
  int i;

  cudaEventCreate (&a);
  cudaEventCreate (&b);
  cudaMemcpy (dst, src, bytes, kind);
  for (i = 0; i < 9; i++) {
    float ms;
    cudaEventRecord (a, 0);
    cudaMemcpyAsync (dst, src, bytes, kind, 0);
    cudaEventRecord (b, 0);
    cudaEventSynchronize (b);
    cudaEventElapsedTime (&ms, a, b);
    t[i] = ms * 1000.0;
  }
  cudaEventDestroy (a);
  cudaEventDestroy (b);
  return median (t, 9);
}

/* Prints the copy floors; returns the device-to-device copy in µs. */
static double
print_floors (size_t bytes, const char *label)
{
  void *pinned, *pageable = g_malloc (bytes), *dev, *dev2;
  double h2d, d2h, d2d, ph2d, pd2h;

  if (cudaMallocHost (&pinned, bytes) != cudaSuccess ||
      cudaMalloc (&dev, bytes) != cudaSuccess ||
      cudaMalloc (&dev2, bytes) != cudaSuccess) {
    g_print ("floors: no CUDA device, skipped\n");
    g_free (pageable);
    return -1.0;
  }
  memset (pinned, 1, bytes);
  memset (pageable, 1, bytes);
  h2d = time_copy (dev, pinned, bytes, cudaMemcpyHostToDevice);
  d2h = time_copy (pinned, dev, bytes, cudaMemcpyDeviceToHost);
  d2d = time_copy (dev2, dev, bytes, cudaMemcpyDeviceToDevice);
  ph2d = time_copy (dev, pageable, bytes, cudaMemcpyHostToDevice);
  pd2h = time_copy (pageable, dev, bytes, cudaMemcpyDeviceToHost);
  g_print ("floors for %s (%zu bytes):\n", label, bytes);
  g_print ("  pinned H2D %8.1f us   pinned D2H %8.1f us   D2D %6.1f us\n",
      h2d, d2h, d2d);
  g_print ("  pageable H2D %6.1f us   pageable D2H %6.1f us\n", ph2d, pd2h);
  g_print ("  overlapped PCIe floor (both directions at once): %.0f fps\n",
      1e6 / MAX (h2d, d2h));
  g_print ("csv,floor,%s,%.1f,%.1f,%.1f,%.1f,%.1f\n", label, h2d, d2h, d2d,
      ph2d, pd2h);
  cudaFreeHost (pinned);
  cudaFree (dev);
  cudaFree (dev2);
  g_free (pageable);
  return d2d;
}

/* Runs `chain` between appsrc and fakesink; returns frames per second, or
 * the median latency in µs when `latency` (one frame at a time). */
static double
run_case (const char *chain, GstCaps * caps, const char *source,
    gboolean latency)
{
  GstElement *pipe, *src, *sink;
  GstVideoInfo info;
  GstBufferPool *pool = NULL;
  GstBuffer *plain[PLAIN_BUFFERS];
  Counter c = { 0 };
  gchar *desc;
  GError *err = NULL;
  guint i, total = opt_frames + WARMUP;
  double result, *lat = NULL;
  GstBus *bus;
  GstMessage *msg;

  gst_video_info_from_caps (&info, caps);
  desc = g_strdup_printf ("appsrc name=src format=time block=true "
      "max-bytes=%" G_GSIZE_FORMAT " ! %s ! fakesink name=sink sync=false "
      "signal-handoffs=true", (gsize) info.size * 3, chain);
  pipe = gst_parse_launch (desc, &err);
  g_free (desc);
  /* A property the plugin lacks (an older build) is a recoverable error:
   * the pipeline comes back without it, and would be timed as another. */
  if (err != NULL) {
    g_printerr ("cannot build pipeline: %s\n", err->message);
    g_error_free (err);
    gst_clear_object (&pipe);
    return -1.0;
  }
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  g_object_set (src, "caps", caps, NULL);
  g_mutex_init (&c.lock);
  g_cond_init (&c.cond);
  g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), &c);
  gst_element_set_state (pipe, GST_STATE_PLAYING);

  for (i = 0; i < PLAIN_BUFFERS; i++) {
    GstMapInfo map;

    plain[i] = gst_buffer_new_allocate (NULL, info.size, NULL);
    gst_buffer_map (plain[i], &map, GST_MAP_WRITE);
    memset (map.data, 40 * i + 20, map.size);
    gst_buffer_unmap (plain[i], &map);
  }
  if (latency)
    lat = g_new (double, total);

  for (i = 0; i < total; i++) {
    GstBuffer *buf = NULL;
    gint64 pushed;

    if (g_str_equal (source, "pool") && i == 1) {
      /* Negotiated by the first buffer: ask for the pool offered to us. */
      GstPad *pad = gst_element_get_static_pad (src, "src");
      int tries;

      /* Answered once the first buffer's caps are negotiated. */
      for (tries = 0; tries < 5000 && pool == NULL; tries++) {
        GstQuery *q = gst_query_new_allocation (caps, TRUE);

        if (gst_pad_peer_query (pad, q)
            && gst_query_get_n_allocation_pools (q) > 0)
          gst_query_parse_nth_allocation_pool (q, 0, &pool, NULL, NULL, NULL);
        else
          g_usleep (1000);
        gst_query_unref (q);
      }
      gst_object_unref (pad);
      if (pool && !gst_buffer_pool_set_active (pool, TRUE))
        gst_clear_object (&pool);
      if (pool == NULL)
        g_printerr ("no pool offered: using plain buffers\n");
    }
    if (pool)
      gst_buffer_pool_acquire_buffer (pool, &buf, NULL);
    else if (g_str_equal (source, "fresh") && i > 0)
      buf = gst_buffer_new_allocate (NULL, info.size, NULL);
    else
      buf = gst_buffer_ref (plain[i % PLAIN_BUFFERS]);
    buf = gst_buffer_make_writable (buf);
    GST_BUFFER_PTS (buf) = i * GST_MSECOND;
    GST_BUFFER_DURATION (buf) = GST_MSECOND;

    pushed = g_get_monotonic_time ();
    gst_app_src_push_buffer (GST_APP_SRC (src), buf);
    if (latency) {
      g_mutex_lock (&c.lock);
      while (c.count <= i)
        g_cond_wait (&c.cond, &c.lock);
      lat[i] = c.last_us - pushed;
      g_mutex_unlock (&c.lock);
    }
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  bus = gst_element_get_bus (pipe);
  msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &err, NULL);
    g_printerr ("pipeline error: %s\n", err->message);
    g_error_free (err);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);

  if (latency)
    result = median (lat + WARMUP, opt_frames);
  else if (c.count > WARMUP + 1)
    result = (c.count - WARMUP - 1) * 1e6 / (double) (c.last_us - c.first_us);
  else
    result = -1.0;
  if (c.count != total)
    g_printerr ("frames in %u, frames out %u\n", total, c.count);

  gst_element_set_state (pipe, GST_STATE_NULL);
  if (pool) {
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
  }
  for (i = 0; i < PLAIN_BUFFERS; i++)
    gst_buffer_unref (plain[i]);
  g_free (lat);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  return result;
}

/* Rows that could not be measured: the exit status says so. */
static guint failed_rows;

static void
report (const char *what, const char *source, const char *label, double fps)
{
  if (fps <= 0)
    failed_rows++;
  g_print ("  %-34s %-6s %9.1f fps  %8.3f ms/frame\n", what, source, fps,
      fps > 0 ? 1000.0 / fps : 0.0);
  g_print ("csv,pipeline,%s,%s,%s,%.1f\n", label, what, source, fps);
}

#define CUDA_CAPS_FILTER "video/x-raw(memory:CUDAMemory)"

static int
exit_status (void)
{
  if (failed_rows == 0)
    return 0;
  g_printerr ("%u pipeline(s) could not run (see above)\n", failed_rows);
  return 1;
}

/* The zero-copy targets: what cudafilter adds between cudaupload and
 * cudadownload (the caps filters keep every link in CUDA memory), and the
 * element's own time per frame with CUDA memory on both sides. */
static void
run_cuda_memory_cases (GstCaps * caps, const char *label,
    const char *filter_chain, double d2d_us)
{
  GstCaps *cuda_caps = gst_caps_copy (caps);
  gchar *with, *cuda_label = g_strdup_printf ("%s-cuda", label);
  const char *peer = "cudaupload ! " CUDA_CAPS_FILTER " ! cudadownload";
  double peer_fps, with_fps, alone_fps, base_fps;

  gst_caps_set_features (cuda_caps, 0,
      gst_caps_features_new ("memory:CUDAMemory", NULL));
  with = g_strdup_printf ("cudaupload ! " CUDA_CAPS_FILTER " ! %s ! "
      CUDA_CAPS_FILTER " ! cudadownload", filter_chain);

  g_print ("memory:CUDAMemory, %s, %d frames each:\n", label, opt_frames);
  /* Same source buffers, same run: only cudafilter differs. */
  peer_fps = run_case (peer, caps, "plain", FALSE);
  with_fps = run_case (with, caps, "plain", FALSE);
  report ("cudaupload ! cudadownload", "plain", label, peer_fps);
  report ("cudaupload ! cudafilter ! cudadownload", "plain", label, with_fps);
  if (peer_fps > 0 && with_fps > 0)
    g_print ("  cudafilter adds %.1f%% time per frame (%.3f ms) between "
        "cudaupload and cudadownload\n", 100.0 * (peer_fps / with_fps - 1.0),
        1000.0 / with_fps - 1000.0 / peer_fps);
  g_print ("csv,cuda-added,%s,%.1f,%.1f\n", label, peer_fps, with_fps);

  /* Buffers from the CUDA pool cudafilter proposes, CUDA memory out. */
  alone_fps = run_case (filter_chain, cuda_caps, "pool", FALSE);
  base_fps = run_case ("identity", cuda_caps, "plain", FALSE);
  report (filter_chain, "cuda", cuda_label, alone_fps);
  report ("identity (appsrc ! fakesink cost)", "cuda", cuda_label, base_fps);
  if (alone_fps > 0 && d2d_us > 0)
    g_print ("  cudafilter alone, CUDA memory both sides: %.1f us/frame = "
        "%.2fx the D2D copy (%.1f us); %.1f us without the source/sink "
        "cost\n", 1e6 / alone_fps, 1e6 / alone_fps / d2d_us, d2d_us,
        base_fps > 0 ? 1e6 / alone_fps - 1e6 / base_fps : 0.0);
  g_print ("csv,cuda-alone,%s,%.1f,%.1f,%.1f\n", label, alone_fps, base_fps,
      d2d_us);

  g_free (with);
  g_free (cuda_label);
  gst_caps_unref (cuda_caps);
}

int
main (int argc, char **argv)
{
  GOptionContext *ctx;
  GError *err = NULL;
  int w = 3840, h = 2160;
  GstCaps *caps;
  GstVideoInfo info;
  gchar *filter_chain, *label, **cases;
  guint i;

  ctx = g_option_context_new ("- cudafilter pipeline throughput and latency");
  g_option_context_set_summary (ctx, "Measures appsrc ! cudafilter ! fakesink "
      "with recycled source buffers, beside the pinned PCIe copy floors and "
      "cudaupload ! cudadownload of the same frames.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("%s\n", err->message);
    return 2;
  }
  g_option_context_free (ctx);
  if (opt_size && sscanf (opt_size, "%dx%d", &w, &h) != 2) {
    g_printerr ("--size wants WxH, e.g. 1920x1080\n");
    return 2;
  }
  caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING,
      opt_format ? opt_format : "RGBA", "width", G_TYPE_INT, w, "height",
      G_TYPE_INT, h, "framerate", GST_TYPE_FRACTION, 1000, 1, NULL);
  if (!gst_video_info_from_caps (&info, caps)) {
    g_printerr ("unknown format\n");
    return 2;
  }
  {
    GstElementFactory *f = gst_element_factory_find ("cudafilter");

    if (f == NULL) {
      g_printerr ("cudafilter not found: set GST_PLUGIN_PATH to the folder "
          "holding libgstcudafilter.so (the build's gst/ folder)\n");
      gst_caps_unref (caps);
      return 1;
    }
    gst_object_unref (f);
  }
  label = g_strdup_printf ("%dx%d-%s", w, h, GST_VIDEO_INFO_NAME (&info));
  filter_chain = g_strdup_printf ("cudafilter backend=%s filter=%s "
      "sigma=%g frames-in-flight=%d regions=\"%s\"",
      opt_backend ? opt_backend : "cuda", opt_filter ? opt_filter :
      "gaussian", opt_sigma, opt_in_flight, opt_regions ? opt_regions : "");

  {
    int dev = 0;
    struct cudaDeviceProp prop;
    if (cudaGetDevice (&dev) == cudaSuccess
        && cudaGetDeviceProperties (&prop, dev) == cudaSuccess)
      g_print ("device %d: %s\n", dev, prop.name);
  }
  {
    double d2d = print_floors (info.size, label);

    if (opt_cuda_memory) {
      run_cuda_memory_cases (caps, label, filter_chain, d2d);
      g_free (filter_chain);
      g_free (label);
      gst_caps_unref (caps);
      return exit_status ();
    }
  }
  g_print ("pipelines, %s, %d frames each:\n", label, opt_frames);

  cases = g_strsplit (opt_cases ? opt_cases : "pool,plain,fresh", ",", -1);
  for (i = 0; cases[i]; i++)
    report (filter_chain, cases[i], label, run_case (filter_chain, caps,
            cases[i], FALSE));
  if (!opt_no_peer) {
    /* The caps filter keeps the peer from negotiating system memory
     * passthrough, which would copy nothing. */
    const char *peer = "cudaupload ! video/x-raw(memory:CUDAMemory) ! "
        "cudadownload";

    report ("cudaupload ! cudadownload", "pool", label,
        run_case (peer, caps, "pool", FALSE));
    report ("cudaupload ! cudadownload", "plain", label,
        run_case (peer, caps, "plain", FALSE));
  }
  if (opt_latency) {
    gchar *live = g_strdup_printf ("cudafilter backend=%s filter=%s "
        "sigma=%g frames-in-flight=1 regions=\"%s\"",
        opt_backend ? opt_backend : "cuda", opt_filter ? opt_filter :
        "gaussian", opt_sigma, opt_regions ? opt_regions : "");
    double us = run_case (live, caps, "pool", TRUE);

    if (us <= 0)
      failed_rows++;

    g_print ("  latency, frames-in-flight=1, push to sink: median %.1f us\n",
        us);
    g_print ("csv,latency,%s,%.1f\n", label, us);
    g_free (live);
  }
  g_strfreev (cases);
  g_free (filter_chain);
  g_free (label);
  gst_caps_unref (caps);
  return exit_status ();
}
