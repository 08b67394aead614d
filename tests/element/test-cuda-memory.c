/* cudafilter with memory:CUDAMemory.
 *
 * Everywhere: the pad templates and caps queries offer CUDA memory beside
 * system memory for every format, and every mix of the two negotiates
 * (no buffers, no GPU needed).
 *
 * With an NVIDIA GPU: frames uploaded with cudaupload, or decoded by
 * nvh264dec, are filtered in CUDA memory and come out byte for byte as the
 * system-memory path on the CPU backend gives them; two cudafilters in a
 * row stay in CUDA memory; the whole chain shares one CUDA context, also
 * one set on the pipeline. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

#include "cf-backend.h"

#ifdef HAVE_GST_CUDA
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#endif

#define CUDA_FEATURE "memory:CUDAMemory"
/* For failure messages only (check's printf knows no GST_PTR_FORMAT); the
 * string is evaluated, and leaked, only when the check fails. */
#define CAPS_STR(caps) gst_caps_to_string (caps)
#define FORMATS_TESTED 45       /* every format of the element */

static const gchar *all_formats[] = { "GRAY8", "GRAY16_LE", "RGB", "BGR",
  "RGBA", "BGRA", "ARGB", "ABGR", "RGBx", "BGRx", "xRGB", "xBGR", "I420",
  "YV12", "NV12", "NV21", "Y42B", "Y444", "GBR", "GBRA",
  "P010_10LE", "P012_LE", "P016_LE", "NV16", "NV61", "NV24", "I420_10LE",
  "I420_12LE", "I422_10LE", "I422_12LE", "Y444_10LE", "Y444_12LE",
  "Y444_16LE", "GBR_10LE", "GBR_12LE", "GBR_16LE", "YUY2", "UYVY", "YVYU",
  "VUYA", "AYUV", "RGB10A2_LE", "BGR10A2_LE", "RGBA64_LE", "BGRA64_LE"
};

#ifdef HAVE_GST_CUDA
/* What GStreamer's CUDA allocator holds in every version from 1.22 (which
 * aborts on the others); a newer GStreamer's cudaupload says what it holds
 * beyond these. */
static const gchar *cuda_formats[] = { "RGB", "BGR", "RGBA", "BGRA", "ARGB",
  "ABGR", "RGBx", "BGRx", "I420", "YV12", "NV12", "NV21", "Y42B", "Y444"
};

/* Whether the running GStreamer's cudaupload offers `format` in CUDA
 * memory; without cudaupload, whether the base set has it. */
static gboolean
allocator_holds (const gchar * format)
{
  GstElementFactory *f = gst_element_factory_find ("cudaupload");
  gboolean found = FALSE, held = FALSE;
  const GList *l;
  guint i, j;

  if (f == NULL) {
    for (i = 0; i < G_N_ELEMENTS (cuda_formats); i++)
      held |= g_str_equal (format, cuda_formats[i]);
    return held;
  }
  for (l = gst_element_factory_get_static_pad_templates (f); l; l = l->next) {
    GstStaticPadTemplate *t = l->data;
    GstCaps *caps = gst_static_caps_get (&t->static_caps);

    for (j = 0; t->direction == GST_PAD_SRC && j < gst_caps_get_size (caps);
        j++) {
      GstCapsFeatures *feat = gst_caps_get_features (caps, j);
      const GValue *v = gst_structure_get_value (gst_caps_get_structure (caps,
              j), "format");
      GValue fmt = G_VALUE_INIT;

      if (!feat || !gst_caps_features_contains (feat, CUDA_FEATURE) || !v)
        continue;
      found = TRUE;
      g_value_init (&fmt, G_TYPE_STRING);
      g_value_set_string (&fmt, format);
      held |= gst_value_intersect (NULL, v, &fmt);
      g_value_unset (&fmt);
    }
    gst_caps_unref (caps);
  }
  gst_object_unref (f);
  if (!found)
    for (i = 0; i < G_N_ELEMENTS (cuda_formats); i++)
      held |= g_str_equal (format, cuda_formats[i]);
  return held;
}
#endif

static gboolean
structure_is_cuda (GstCaps * caps, guint i)
{
  GstCapsFeatures *f = gst_caps_get_features (caps, i);

  return f && !gst_caps_features_is_any (f)
      && gst_caps_features_contains (f, CUDA_FEATURE);
}

/* Whether `caps` has a structure of `format` in CUDA (or system) memory. */
static gboolean
caps_have (GstCaps * caps, const gchar * format, gboolean cuda)
{
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_caps_get_structure (caps, i);
    const GValue *v = gst_structure_get_value (s, "format");
    GValue fmt = G_VALUE_INIT;
    gboolean match;

    if (structure_is_cuda (caps, i) != cuda || v == NULL)
      continue;
    g_value_init (&fmt, G_TYPE_STRING);
    g_value_set_string (&fmt, format);
    match = gst_value_intersect (NULL, v, &fmt);
    g_value_unset (&fmt);
    if (match)
      return TRUE;
  }
  return FALSE;
}

static GstElement *
make_filter (const gchar * backend)
{
  GstElement *e = gst_element_factory_make ("cudafilter", NULL);

  fail_unless (e != NULL, "cudafilter not found: is GST_PLUGIN_PATH set?");
  gst_util_set_object_arg (G_OBJECT (e), "backend", backend);
  return e;
}

/* ---------------------------------------------------------------------- */
/* Caps (no GPU needed) */

GST_START_TEST (test_templates)
{
  GstElement *e = make_filter ("cpu");
  const gchar *pads[] = { "sink", "src" };
  guint p, f;

  g_assert_cmpuint (G_N_ELEMENTS (all_formats), ==, FORMATS_TESTED);
  for (p = 0; p < G_N_ELEMENTS (pads); p++) {
    GstPad *pad = gst_element_get_static_pad (e, pads[p]);
    GstCaps *templ = gst_pad_get_pad_template_caps (pad);

    for (f = 0; f < G_N_ELEMENTS (all_formats); f++) {
      if (gst_video_format_from_string (all_formats[f]) ==
          GST_VIDEO_FORMAT_UNKNOWN)
        continue;               /* newer than this GStreamer */
      fail_unless (caps_have (templ, all_formats[f], FALSE),
          "%s template lacks system-memory %s", pads[p], all_formats[f]);
#ifdef HAVE_GST_CUDA
      if (gst_video_format_from_string (all_formats[f]) ==
          GST_VIDEO_FORMAT_UNKNOWN)
        continue;
      if (allocator_holds (all_formats[f]))
        fail_unless (caps_have (templ, all_formats[f], TRUE),
            "%s template lacks CUDA-memory %s", pads[p], all_formats[f]);
      else
        fail_if (caps_have (templ, all_formats[f], TRUE),
            "%s template offers CUDA-memory %s, which GStreamer's CUDA "
            "allocator cannot hold", pads[p], all_formats[f]);
#else
      fail_if (caps_have (templ, all_formats[f], TRUE),
          "%s template offers CUDA memory in a build without it", pads[p]);
#endif
    }
#ifdef HAVE_GST_CUDA
    /* CUDA memory first: preferred where both are possible. */
    fail_unless (structure_is_cuda (templ, 0));
#endif
    gst_caps_unref (templ);
    gst_object_unref (pad);
  }
  gst_object_unref (e);
}

GST_END_TEST;

#ifdef HAVE_GST_CUDA

#define RGBA_64x48 "format=RGBA, width=64, height=48, framerate=30/1"
#define CUDA_CAPS "video/x-raw(" CUDA_FEATURE "), " RGBA_64x48
#define SYS_CAPS "video/x-raw, " RGBA_64x48

/* What the element accepts when downstream takes only CUDA memory (or only
 * system memory): both, since it converts; the peer's memory first. */
GST_START_TEST (test_query_caps_both_memories)
{
  const gchar *downstream[] = { CUDA_CAPS, SYS_CAPS };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (downstream); i++) {
    GstHarness *h = gst_harness_new_with_element (make_filter ("cpu"),
        "sink", "src");
    GstPad *sinkpad = gst_element_get_static_pad (h->element, "sink");
    GstCaps *caps;

    gst_object_unref (h->element);      /* the harness holds it */
    gst_harness_set_sink_caps_str (h, downstream[i]);
    caps = gst_pad_query_caps (sinkpad, NULL);
    GST_INFO ("downstream %s -> sink caps %" GST_PTR_FORMAT, downstream[i],
        caps);
    fail_unless (caps_have (caps, "RGBA", TRUE), "%s", CAPS_STR (caps));
    fail_unless (caps_have (caps, "RGBA", FALSE), "%s", CAPS_STR (caps));
    fail_if (caps_have (caps, "I420", TRUE), "%s", CAPS_STR (caps));
    fail_unless (structure_is_cuda (caps, 0) == (i == 0),
        "peer's memory should come first: %s", CAPS_STR (caps));
    gst_caps_unref (caps);
    gst_object_unref (sinkpad);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

typedef struct
{
  const gchar *upstream;
  const gchar *downstream;      /* NULL: downstream takes anything */
  gboolean out_cuda;
} NegotiationCase;

/* The element keeps the memory it is given when downstream takes it. */
static const NegotiationCase negotiation_cases[] = {
  {CUDA_CAPS, CUDA_CAPS "; " SYS_CAPS, TRUE},
  {CUDA_CAPS, SYS_CAPS "; " CUDA_CAPS, TRUE},
  {SYS_CAPS, CUDA_CAPS "; " SYS_CAPS, FALSE},
  {CUDA_CAPS, SYS_CAPS, FALSE},
  {SYS_CAPS, CUDA_CAPS, TRUE},
  {CUDA_CAPS, NULL, TRUE},
  {SYS_CAPS, NULL, FALSE},
};

/* Caps events only: every mix negotiates, to the memory expected. */
GST_START_TEST (test_negotiate_mixes)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (negotiation_cases); i++) {
    const NegotiationCase *c = &negotiation_cases[i];
    GstHarness *h = gst_harness_new_with_element (make_filter ("cpu"),
        "sink", "src");
    GstPad *srcpad = gst_element_get_static_pad (h->element, "src");
    GstCaps *out, *in = gst_caps_from_string (c->upstream);
    GstVideoInfo in_info, out_info;

    gst_object_unref (h->element);
    if (c->downstream)
      gst_harness_set_sink_caps_str (h, c->downstream);
    gst_harness_set_src_caps (h, gst_caps_ref (in));
    out = gst_pad_get_current_caps (srcpad);
    fail_unless (out != NULL, "case %u (%s -> %s) did not negotiate", i,
        c->upstream, GST_STR_NULL (c->downstream));
    GST_INFO ("case %u: %" GST_PTR_FORMAT, i, out);
    fail_unless (gst_caps_is_fixed (out));
    fail_unless (structure_is_cuda (out, 0) == c->out_cuda,
        "case %u (%s -> %s) gave %s", i, c->upstream,
        GST_STR_NULL (c->downstream), CAPS_STR (out));
    /* Only the memory changes. */
    fail_unless (gst_video_info_from_caps (&in_info, in));
    fail_unless (gst_video_info_from_caps (&out_info, out));
    fail_unless (gst_video_info_is_equal (&in_info, &out_info));
    gst_caps_unref (out);
    gst_caps_unref (in);
    gst_object_unref (srcpad);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Downstream is an element that lists system memory first whatever it is
 * asked (as cudadownload and any GstBaseTransform whose output is system
 * memory do): CUDA memory coming in still goes out as CUDA memory. */
GST_START_TEST (test_keeps_cuda_before_a_system_first_peer)
{
  GstHarness *h = gst_harness_new_parse ("cudafilter name=f backend=cpu ! "
      "cudafilter backend=cpu");
  GstElement *f = gst_bin_get_by_name (GST_BIN (h->element), "f");
  GstPad *srcpad = gst_element_get_static_pad (f, "src");
  GstCaps *out;

  gst_harness_set_sink_caps_str (h, SYS_CAPS);
  gst_harness_set_src_caps_str (h, CUDA_CAPS);
  out = gst_pad_get_current_caps (srcpad);
  fail_unless (out != NULL, "did not negotiate");
  fail_unless (structure_is_cuda (out, 0),
      "CUDA memory left the GPU between two elements: %s", CAPS_STR (out));
  gst_caps_unref (out);
  gst_object_unref (srcpad);
  gst_object_unref (f);
  gst_harness_teardown (h);
}

GST_END_TEST;

#endif /* HAVE_GST_CUDA */

/* ---------------------------------------------------------------------- */
/* Pipelines on the GPU */

#ifdef HAVE_GST_CUDA

static gboolean
have_gpu (const gchar * test)
{
  char *why = NULL;

  if (cf_cuda_device_count (&why) > 0 && gst_cuda_load_library ())
    return TRUE;
  g_print ("SKIP %s: no usable CUDA device (%s); runs on a machine with an "
      "NVIDIA GPU\n", test, why ? why : "CUDA driver library not loadable");
  g_free (why);
  return FALSE;
}

/* Finds an element, loading its plugin from the system directories this
 * test otherwise keeps out of the registry. */
static gboolean
have_element (const gchar * name, const gchar * file)
{
  GstPluginFeature *f = gst_registry_find_feature (gst_registry_get (), name,
      GST_TYPE_ELEMENT_FACTORY);
  const gchar *env = g_getenv ("GST_PLUGIN_SYSTEM_PATH_1_0");
  gchar **dirs, **d;
  gboolean found = FALSE;

  if (f != NULL) {
    gst_object_unref (f);
    return TRUE;
  }
  dirs = g_strsplit_set (env && env[0] ? env : SYSTEM_PLUGINS_DIR, ":", -1);
  for (d = dirs; *d && !found; d++) {
    gchar *path = g_build_filename (*d, file, NULL);
    GstPlugin *plugin = gst_plugin_load_file (path, NULL);

    g_free (path);
    if (plugin) {
      gst_object_unref (plugin);
      f = gst_registry_find_feature (gst_registry_get (), name,
          GST_TYPE_ELEMENT_FACTORY);
      found = f != NULL;
      gst_clear_object (&f);
    }
  }
  g_strfreev (dirs);
  return found;
}

static gboolean
have_pipeline_elements (const gchar * test)
{
  if (have_element ("videotestsrc", "libgstvideotestsrc.so")
      && have_element ("appsink", "libgstapp.so")
      && have_element ("cudaupload", "libgstnvcodec.so")
      && have_element ("cudadownload", "libgstnvcodec.so"))
    return TRUE;
  g_print ("SKIP %s: videotestsrc, appsink or nvcodec's cudaupload / "
      "cudadownload not installed\n", test);
  return FALSE;
}

typedef struct
{
  GPtrArray *samples;           /* GstSample * */
  GstElement *pipeline;
} Run;

#define PIPELINE_TIMEOUT_S 60

/* Plays run->pipeline (ending in "appsink name=sink") to EOS, keeping
 * every sample; FALSE on an error (which never reaches the appsink, so the
 * bus is watched too) or when it takes over a minute. */
static gboolean
run_parsed (Run * run)
{
  GError *err = NULL;
  GstElement *sink;
  GstSample *sample;
  GstBus *bus;
  GstMessage *msg = NULL;
  gint64 deadline = g_get_monotonic_time () + PIPELINE_TIMEOUT_S *
      G_TIME_SPAN_SECOND;
  gboolean ok = TRUE;

  run->samples = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_sample_unref);
  sink = gst_bin_get_by_name (GST_BIN (run->pipeline), "sink");
  g_object_set (sink, "sync", FALSE, NULL);
  bus = gst_element_get_bus (run->pipeline);
  gst_element_set_state (run->pipeline, GST_STATE_PLAYING);
  while (msg == NULL) {
    sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        50 * GST_MSECOND);
    if (sample) {
      g_ptr_array_add (run->samples, sample);
      continue;
    }
    if (gst_app_sink_is_eos (GST_APP_SINK (sink)))
      break;
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    if (msg == NULL && g_get_monotonic_time () > deadline) {
      g_printerr ("pipeline still running after %d s\n", PIPELINE_TIMEOUT_S);
      ok = FALSE;
      break;
    }
  }
  if (msg == NULL)
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  if (msg) {
    gchar *dbg = NULL;

    gst_message_parse_error (msg, &err, &dbg);
    g_printerr ("pipeline failed: %s (%s)\n", err->message, GST_STR_NULL (dbg));
    g_clear_error (&err);
    g_free (dbg);
    gst_message_unref (msg);
    ok = FALSE;
  }
  gst_object_unref (bus);
  gst_object_unref (sink);
  return ok;
}

static GstElement *
parse (const gchar * desc)
{
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);

  fail_unless (pipeline != NULL && err == NULL, "%s: %s", desc,
      err ? err->message : "");
  return pipeline;
}

/* Runs `desc` to EOS; the pipeline is kept (for its caps) when asked. */
static gboolean
run_pipeline (const gchar * desc, Run * run, gboolean keep_pipeline)
{
  gboolean ok;

  run->pipeline = parse (desc);
  ok = run_parsed (run);
  if (!ok)
    g_printerr ("  pipeline: %s\n", desc);
  if (!keep_pipeline) {
    gst_element_set_state (run->pipeline, GST_STATE_NULL);
    gst_clear_object (&run->pipeline);
  }
  return ok;
}

static void
run_clear (Run * run)
{
  if (run->pipeline) {
    gst_element_set_state (run->pipeline, GST_STATE_NULL);
    gst_clear_object (&run->pipeline);
  }
  g_clear_pointer (&run->samples, g_ptr_array_unref);
}

/* Frames equal in every sample of every plane (padding excluded). */
static void
assert_same_frames (Run * a, Run * b, const gchar * what)
{
  guint n;

  fail_unless (a->samples->len > 0, "%s: no frames", what);
  fail_unless_equals_int (a->samples->len, b->samples->len);
  for (n = 0; n < a->samples->len; n++) {
    GstSample *sa = g_ptr_array_index (a->samples, n);
    GstSample *sb = g_ptr_array_index (b->samples, n);
    GstVideoInfo ia, ib;
    GstVideoFrame fa, fb;
    guint p, c;

    fail_unless (gst_video_info_from_caps (&ia, gst_sample_get_caps (sa)));
    fail_unless (gst_video_info_from_caps (&ib, gst_sample_get_caps (sb)));
    fail_unless (gst_video_info_is_equal (&ia, &ib) ||
        (GST_VIDEO_INFO_FORMAT (&ia) == GST_VIDEO_INFO_FORMAT (&ib) &&
            GST_VIDEO_INFO_WIDTH (&ia) == GST_VIDEO_INFO_WIDTH (&ib) &&
            GST_VIDEO_INFO_HEIGHT (&ia) == GST_VIDEO_INFO_HEIGHT (&ib)),
        "%s: caps differ", what);
    fail_unless (gst_video_frame_map (&fa, &ia, gst_sample_get_buffer (sa),
            GST_MAP_READ));
    fail_unless (gst_video_frame_map (&fb, &ib, gst_sample_get_buffer (sb),
            GST_MAP_READ));
    for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&fa); p++) {
      guint row = 0, rows = 0, y;

      for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&fa); c++) {
        if (GST_VIDEO_FORMAT_INFO_PLANE (fa.info.finfo, c) != p)
          continue;
        row = MAX (row, (guint) (GST_VIDEO_FRAME_COMP_WIDTH (&fa, c) *
                GST_VIDEO_FRAME_COMP_PSTRIDE (&fa, c)));
        rows = MAX (rows, (guint) GST_VIDEO_FRAME_COMP_HEIGHT (&fa, c));
      }
      for (y = 0; y < rows; y++) {
        const guint8 *ra = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fa,
            p) + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&fa, p);
        const guint8 *rb = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fb,
            p) + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&fb, p);

        if (memcmp (ra, rb, row) != 0) {
          guint x = 0;

          while (ra[x] == rb[x])
            x++;
          fail ("%s: frame %u plane %u row %u differs at byte %u: %u != %u",
              what, n, p, y, x, ra[x], rb[x]);
        }
      }
    }
    gst_video_frame_unmap (&fa);
    gst_video_frame_unmap (&fb);
  }
}

static gboolean
pad_caps_are_cuda (GstElement * pipeline, const gchar * element,
    const gchar * pad_name)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), element);
  GstPad *pad = gst_element_get_static_pad (e, pad_name);
  GstCaps *caps = gst_pad_get_current_caps (pad);
  gboolean cuda;

  fail_unless (caps != NULL, "%s.%s has no caps", element, pad_name);
  cuda = structure_is_cuda (caps, 0);
  if (!cuda) {
    gchar *str = gst_caps_to_string (caps);

    g_print ("%s.%s negotiated %s\n", element, pad_name, str);
    g_free (str);
  }
  gst_caps_unref (caps);
  gst_object_unref (pad);
  gst_object_unref (e);
  return cuda;
}

/* The CUDA context an element answers a context query with, or NULL (the
 * context's structure holds it under its type's name). */
static GstCudaContext *
element_context (GstElement * pipeline, const gchar * element)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), element);
  GstPad *pad = gst_element_get_static_pad (e, "src");
  GstQuery *q = gst_query_new_context (GST_CUDA_CONTEXT_TYPE);
  GstCudaContext *ctx = NULL;

  if (gst_pad_query (pad, q)) {
    GstContext *context = NULL;

    gst_query_parse_context (q, &context);
    if (context)
      gst_structure_get (gst_context_get_structure (context),
          GST_CUDA_CONTEXT_TYPE,
          GST_TYPE_CUDA_CONTEXT, &ctx, NULL);
  }
  gst_query_unref (q);
  gst_object_unref (pad);
  gst_object_unref (e);
  return ctx;
}

/* Pad probe: every buffer through is CUDA memory of one context (and,
 * GStreamer >= 1.24, carries one stream). */
typedef struct
{
  guint buffers, cuda;
  GstCudaContext *context;      /* of the first buffer */
  gboolean one_context;
  gpointer stream;              /* GstCudaStream of the first buffer */
  gboolean one_stream;
} MemoryWatch;

static gpointer
memory_stream (GstMemory * mem)
{
#if GST_CHECK_VERSION(1, 24, 0)
  return gst_cuda_memory_get_stream (GST_CUDA_MEMORY_CAST (mem));
#else
  return NULL;
#endif
}

static GstPadProbeReturn
watch_memory (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  MemoryWatch *w = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstMemory *mem = gst_buffer_peek_memory (buf, 0);

  w->buffers++;
  if (gst_is_cuda_memory (mem)) {
    GstCudaContext *ctx = GST_CUDA_MEMORY_CAST (mem)->context;

    w->cuda++;
    if (w->context == NULL) {
      w->context = ctx;
      w->one_context = TRUE;
      w->stream = memory_stream (mem);
      w->one_stream = TRUE;
    } else {
      if (w->context != ctx)
        w->one_context = FALSE;
      if (w->stream != memory_stream (mem))
        w->one_stream = FALSE;
    }
  }
  return GST_PAD_PROBE_OK;
}

static void
watch_pad (GstElement * pipeline, const gchar * element, MemoryWatch * w)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipeline), element);
  GstPad *pad = gst_element_get_static_pad (e, "src");

  memset (w, 0, sizeof (*w));
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, watch_memory, w, NULL);
  gst_object_unref (pad);
  gst_object_unref (e);
}

static gboolean
quick (void)
{
  return g_getenv ("CUDAFILTER_TEST_QUICK") != NULL;
}

static const gchar *filters[] = {
  "filter=gaussian sigma=2", "filter=box kernel-size=5", "filter=sobel",
  "filter=sobel-x", "filter=sobel-y", "filter=scharr", "filter=laplacian",
  "filter=sharpen amount=1.5 sigma=1.5 border=replicate",
  "filter=custom kernel=\"1 2 0; -1 5 1; 0 -2 1\" border=constant "
      "border-value=17",
};

/* The deeper and packed formats run where the running GStreamer's
 * cudaupload (and so its CUDA allocator) takes them. */
static const gchar *gpu_formats[] = { "RGBA", "I420", "NV12", "BGRx", "RGB",
  "Y444", "Y42B", "P010_10LE", "P016_LE", "I420_10LE", "I422_10LE",
  "Y444_16LE", "NV16", "NV24", "YUY2", "UYVY", "VUYA", "AYUV", "RGB10A2_LE",
  "BGR10A2_LE", "RGBA64_LE", "GBR_10LE"
};

static gboolean
cudaupload_takes (const gchar * format)
{
  GstElementFactory *f = gst_element_factory_find ("cudaupload");
  const GList *l;
  gboolean ok = FALSE;

  for (l = gst_element_factory_get_static_pad_templates (f); l; l = l->next) {
    GstStaticPadTemplate *t = l->data;
    GstCaps *caps;

    if (t->direction != GST_PAD_SINK)
      continue;
    caps = gst_static_caps_get (&t->static_caps);
    ok = caps_have (caps, format, FALSE);
    gst_caps_unref (caps);
  }
  gst_object_unref (f);
  return ok;
}

#define SOURCE "videotestsrc num-buffers=3 pattern=zone-plate kx2=20 " \
  "ky2=20 kt=1 ! video/x-raw,format=%s,width=318,height=238," \
  "framerate=30/1"

/* cudaupload ! cudafilter ! cudadownload gives the system-memory path's
 * bytes (CPU backend) for every filter and several formats, with CUDA
 * memory on both pads and the buffers read and written in place. */
GST_START_TEST (test_upload_filter_download_matches)
{
  guint fi, ff, n_formats = quick ()? 2 : G_N_ELEMENTS (gpu_formats);

  if (!have_gpu (__func__) || !have_pipeline_elements (__func__))
    return;

  for (fi = 0; fi < n_formats; fi++) {
    const gchar *format = gpu_formats[fi];

    if (gst_video_format_from_string (format) == GST_VIDEO_FORMAT_UNKNOWN
        || !cudaupload_takes (format)) {
      g_print ("SKIP %s %s: cudaupload does not take it\n", __func__, format);
      continue;
    }
    /* Every filter on the first three formats, two on the others. */
    guint n_filters = quick ()? 3 : fi < 3 ? G_N_ELEMENTS (filters) : 2;

    for (ff = 0; ff < n_filters; ff++) {
      const gchar *filter = filters[quick ()? ff * 4 : fi < 3 ? ff : ff * 8];
      gchar *src = g_strdup_printf (SOURCE, format);
      gchar *ref_desc = g_strdup_printf ("%s ! cudafilter backend=cpu %s ! "
          "appsink name=sink", src, filter);
      gchar *gpu_desc = g_strdup_printf ("%s ! cudaupload ! "
          "video/x-raw(" CUDA_FEATURE ") ! cudafilter name=f %s ! "
          "video/x-raw(" CUDA_FEATURE ") ! cudadownload ! video/x-raw ! "
          "appsink name=sink", src, filter);
      gchar *what = g_strdup_printf ("%s %s", format, filter);
      Run ref = { 0 }, gpu = { 0 };
      MemoryWatch out;
      GstCudaContext *ctx;

      fail_unless (run_pipeline (ref_desc, &ref, FALSE), "%s", ref_desc);
      gpu.pipeline = parse (gpu_desc);
      watch_pad (gpu.pipeline, "f", &out);
      fail_unless (run_parsed (&gpu), "%s", gpu_desc);
      assert_same_frames (&gpu, &ref, what);
      fail_unless (pad_caps_are_cuda (gpu.pipeline, "f", "sink"));
      fail_unless (pad_caps_are_cuda (gpu.pipeline, "f", "src"));
      /* Outputs are CUDA memory of the element's own context. */
      ctx = element_context (gpu.pipeline, "f");
      fail_unless (ctx != NULL, "%s: cudafilter has no CUDA context", what);
      fail_unless (out.buffers > 0);
      fail_unless_equals_int (out.cuda, out.buffers);
      fail_unless (out.one_context && out.context == ctx,
          "%s: outputs not in the element's context", what);
#if GST_CHECK_VERSION(1, 24, 0)
      /* ... tagged with one stream of that context, which the engine
       * orders after its writes (cudadownload syncs on it). */
      fail_unless (out.stream != NULL && out.one_stream,
          "%s: outputs carry no stream, or several", what);
      fail_unless (((GstCudaStream *) out.stream)->context == ctx,
          "%s: the outputs' stream is of another context", what);
#endif
      gst_object_unref (ctx);

      run_clear (&ref);
      run_clear (&gpu);
      g_free (what);
      g_free (gpu_desc);
      g_free (ref_desc);
      g_free (src);
    }
  }
}

GST_END_TEST;

/* Two cudafilters in a row negotiate CUDA memory between them, and the
 * whole chain (upload, both filters, download) shares one context. */
/* Switches the capsfilter after cudafilter to CUDA memory when the 20th
 * frame enters cudafilter, and back to system memory at the 23rd, while
 * frames made for CUDA memory are in flight. */
static GstPadProbeReturn
switch_downstream (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GstElement *capsfilter = data;
  guint n = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (pad), "n")) + 1;

  g_object_set_data (G_OBJECT (pad), "n", GUINT_TO_POINTER (n));
  if (n == 20 || n == 23) {
    GstCaps *caps = gst_caps_from_string (n == 20 ?
        "video/x-raw(" CUDA_FEATURE ")" : "video/x-raw");

    g_object_set (capsfilter, "caps", caps, NULL);
    gst_caps_unref (caps);
  }
  return GST_PAD_PROBE_OK;
}

/* Downstream changes to CUDA memory and back while frames are in flight:
 * every frame still comes out, in order, with the CPU backend's bytes. */
GST_START_TEST (test_downstream_memory_change_keeps_frames)
{
  const gchar *src = "videotestsrc num-buffers=40 pattern=ball ! "
      "video/x-raw,format=RGBA,width=64,height=48,framerate=30/1";
  gchar *ref_desc = g_strdup_printf ("%s ! cudafilter backend=cpu "
      "filter=box ! appsink name=sink", src);
  gchar *gpu_desc = g_strdup_printf ("%s ! cudafilter name=f backend=cuda "
      "frames-in-flight=4 filter=box ! capsfilter name=down caps="
      "video/x-raw ! appsink name=sink", src);
  Run ref = { 0 }, gpu = { 0 };
  GstElement *f, *down;
  GstPad *pad;
  guint i;

  if (!have_gpu (__func__) || !have_pipeline_elements (__func__))
    return;

  fail_unless (run_pipeline (ref_desc, &ref, FALSE), "%s", ref_desc);
  gpu.pipeline = parse (gpu_desc);
  f = gst_bin_get_by_name (GST_BIN (gpu.pipeline), "f");
  down = gst_bin_get_by_name (GST_BIN (gpu.pipeline), "down");
  pad = gst_element_get_static_pad (f, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, switch_downstream,
      down, NULL);
  fail_unless (run_parsed (&gpu), "%s", gpu_desc);
  fail_unless_equals_int (gpu.samples->len, 40);
  for (i = 1; i < gpu.samples->len; i++)
    fail_unless (GST_BUFFER_PTS (gst_sample_get_buffer (g_ptr_array_index
                (gpu.samples, i))) > GST_BUFFER_PTS (gst_sample_get_buffer
            (g_ptr_array_index (gpu.samples, i - 1))), "frame %u out of "
        "order", i);
  assert_same_frames (&gpu, &ref, "memory change downstream");
  gst_object_unref (pad);
  gst_object_unref (down);
  gst_object_unref (f);
  run_clear (&ref);
  run_clear (&gpu);
  g_free (ref_desc);
  g_free (gpu_desc);
}

GST_END_TEST;

GST_START_TEST (test_two_filters_one_context)
{
  const gchar *chain = "cudafilter name=f1 %s filter=gaussian sigma=1.5 ! "
      "cudafilter name=f2 %s filter=sobel";
  gchar *ref_chain, *gpu_chain, *ref_desc, *gpu_desc, *src;
  Run ref = { 0 }, gpu = { 0 };
  const gchar *names[] = { "up", "f1", "f2", "down" };
  GstCudaContext *ctx[4];
  MemoryWatch w1, w2;
  guint i;

  if (!have_gpu (__func__) || !have_pipeline_elements (__func__))
    return;

  src = g_strdup_printf (SOURCE, "RGBA");
  ref_chain = g_strdup_printf (chain, "backend=cpu", "backend=cpu");
  gpu_chain = g_strdup_printf (chain, "", "");
  ref_desc = g_strdup_printf ("%s ! %s ! appsink name=sink", src, ref_chain);
  /* cudaupload and cudadownload prefer passthrough (system memory) when
   * their neighbour takes it: the caps filters ask for CUDA memory at the
   * chain's ends, and the link between the filters must pick it alone. */
  gpu_desc = g_strdup_printf ("%s ! cudaupload name=up ! video/x-raw("
      CUDA_FEATURE ") ! %s ! video/x-raw(" CUDA_FEATURE ") ! "
      "cudadownload name=down ! video/x-raw ! appsink name=sink", src,
      gpu_chain);

  fail_unless (run_pipeline (ref_desc, &ref, FALSE), "%s", ref_desc);
  gpu.pipeline = parse (gpu_desc);
  watch_pad (gpu.pipeline, "f1", &w1);
  watch_pad (gpu.pipeline, "f2", &w2);
  fail_unless (run_parsed (&gpu), "%s", gpu_desc);

  assert_same_frames (&gpu, &ref, "gaussian then sobel");
  fail_unless (pad_caps_are_cuda (gpu.pipeline, "f1", "sink"));
  fail_unless (pad_caps_are_cuda (gpu.pipeline, "f1", "src"),
      "the link between the two filters left CUDA memory");
  fail_unless (pad_caps_are_cuda (gpu.pipeline, "f2", "src"));
  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    ctx[i] = element_context (gpu.pipeline, names[i]);
    fail_unless (ctx[i] != NULL, "%s has no CUDA context", names[i]);
    if (i > 0)
      fail_unless (ctx[i] == ctx[0], "%s uses another CUDA context than %s",
          names[i], names[0]);
  }
  fail_unless (w1.buffers > 0 && w1.cuda == w1.buffers && w1.one_context
      && w1.context == ctx[0]);
  fail_unless (w2.buffers > 0 && w2.cuda == w2.buffers && w2.one_context
      && w2.context == ctx[0]);
  for (i = 0; i < G_N_ELEMENTS (names); i++)
    gst_object_unref (ctx[i]);

  run_clear (&ref);
  run_clear (&gpu);
  g_free (src);
  g_free (ref_chain);
  g_free (gpu_chain);
  g_free (ref_desc);
  g_free (gpu_desc);
}

GST_END_TEST;

/* A context the application sets on the pipeline is the one used. */
GST_START_TEST (test_context_from_application)
{
  GstCudaContext *mine, *used;
  GstContext *context;
  Run run = { 0 };
  gchar *src, *desc;

  if (!have_gpu (__func__) || !have_pipeline_elements (__func__))
    return;

  mine = gst_cuda_context_new (0);
  fail_unless (mine != NULL);
  context = gst_context_new_cuda_context (mine);
  src = g_strdup_printf (SOURCE, "NV12");
  /* cudaupload would pass system memory through without the caps filter;
   * cudafilter keeps CUDA memory towards cudadownload by itself. */
  desc = g_strdup_printf ("%s ! cudaupload ! video/x-raw(" CUDA_FEATURE ") ! "
      "cudafilter name=f filter=box ! cudadownload ! video/x-raw ! "
      "appsink name=sink", src);

  run.pipeline = parse (desc);
  gst_element_set_context (run.pipeline, context);
  fail_unless (run_parsed (&run), "%s", desc);

  fail_unless_equals_int (run.samples->len, 3);
  used = element_context (run.pipeline, "f");
  fail_unless (used == mine, "cudafilter ignored the pipeline's context");
  fail_unless (pad_caps_are_cuda (run.pipeline, "f", "src"));
  gst_object_unref (used);

  run_clear (&run);
  gst_context_unref (context);
  gst_object_unref (mine);
  g_free (src);
  g_free (desc);
}

GST_END_TEST;

/* The backend cannot be made in the shared context (injected with
 * CUDAFILTER_FAULT=context): an error a user can read, the element keeps
 * its old backend, and a flushing seek and teardown afterwards do not
 * crash; without the fault the same pipeline runs. */
GST_START_TEST (test_failed_context_move_errors)
{
  Run run = { 0 };
  gchar *src, *desc;
  GstBus *bus;
  GstMessage *m;
  GError *err = NULL;

  if (!have_gpu (__func__) || !have_pipeline_elements (__func__))
    return;
  src = g_strdup_printf (SOURCE, "NV12");
  desc = g_strdup_printf ("%s ! cudaupload ! video/x-raw(" CUDA_FEATURE ") ! "
      "cudafilter name=f filter=box ! cudadownload ! video/x-raw ! "
      "appsink name=sink", src);

  g_setenv ("CUDAFILTER_FAULT", "context", TRUE);
  run.pipeline = parse (desc);
  bus = gst_element_get_bus (run.pipeline);
  gst_element_set_state (run.pipeline, GST_STATE_PLAYING);
  m = gst_bus_timed_pop_filtered (bus, PIPELINE_TIMEOUT_S * GST_SECOND,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  fail_unless (m != NULL && GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR,
      "no error with CUDAFILTER_FAULT=context");
  gst_message_parse_error (m, &err, NULL);
  fail_unless (strstr (err->message, "CUDA context") != NULL, "%s",
      err->message);
  g_clear_error (&err);
  gst_message_unref (m);
  gst_element_seek_simple (run.pipeline, GST_FORMAT_TIME,
      GST_SEEK_FLAG_FLUSH, 0);
  gst_element_set_state (run.pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_clear_object (&run.pipeline);
  g_unsetenv ("CUDAFILTER_FAULT");

  run.pipeline = parse (desc);
  fail_unless (run_parsed (&run), "%s", desc);
  fail_unless_equals_int (run.samples->len, 3);
  run_clear (&run);
  g_free (src);
  g_free (desc);
}

GST_END_TEST;

typedef struct
{
  GstElement *filter;
  gint stop;
  guint answered;
} Asker;

/* Asks the element for its CUDA context, as a neighbour does from its own
 * thread, until told to stop. */
static gpointer
ask_context (gpointer data)
{
  Asker *a = data;

  while (!g_atomic_int_get (&a->stop)) {
    GstQuery *q = gst_query_new_context (GST_CUDA_CONTEXT_TYPE);

    if (gst_element_query (a->filter, q))
      a->answered++;
    gst_query_unref (q);
  }
  return NULL;
}

/* Context queries from another thread while the element takes and drops
 * its context (start, negotiation, stop), 20 times. */
GST_START_TEST (test_context_query_while_replaced)
{
  gchar *src, *desc;
  Asker a = { 0 };
  GThread *t;
  int i;

  if (!have_gpu (__func__) || !have_pipeline_elements (__func__))
    return;
  src = g_strdup_printf (SOURCE, "NV12");
  desc = g_strdup_printf ("%s ! cudaupload ! video/x-raw(" CUDA_FEATURE ") ! "
      "cudafilter name=f filter=box ! cudadownload ! video/x-raw ! "
      "appsink name=sink", src);
  for (i = 0; i < 20; i++) {
    Run run = { 0 };

    run.pipeline = parse (desc);
    a.filter = gst_bin_get_by_name (GST_BIN (run.pipeline), "f");
    g_atomic_int_set (&a.stop, 0);
    t = g_thread_new ("ask", ask_context, &a);
    fail_unless (run_parsed (&run), "%s", desc);
    gst_element_set_state (run.pipeline, GST_STATE_NULL);
    g_atomic_int_set (&a.stop, 1);
    g_thread_join (t);
    gst_object_unref (a.filter);
    run_clear (&run);
  }
  g_print ("%s: %u context queries answered\n", __func__, a.answered);
  g_free (src);
  g_free (desc);
}

GST_END_TEST;

/* Decoded on the GPU, filtered there: nvh264dec ! cudafilter !
 * cudadownload gives what the CPU backend gives on the downloaded frames. */
GST_START_TEST (test_decoder_to_filter)
{
  const gchar *dec = NULL;
  gchar *ref_desc, *gpu_desc;
  Run ref = { 0 }, gpu = { 0 };

  if (!have_gpu (__func__) || !have_pipeline_elements (__func__))
    return;
  if (!have_element ("qtdemux", "libgstisomp4.so") ||
      !have_element ("filesrc", "libgstcoreelements.so")) {
    g_print ("SKIP %s: qtdemux (isomp4) not installed\n", __func__);
    return;
  }
  /* The stateless decoder takes avc as qtdemux gives it; the other one
   * wants byte-stream, through h264parse. */
  if (have_element ("nvh264sldec", "libgstnvcodec.so"))
    dec = "nvh264sldec";
  else if (have_element ("nvh264dec", "libgstnvcodec.so")
      && have_element ("h264parse", "libgstvideoparsersbad.so"))
    dec = "h264parse ! nvh264dec";
  if (dec == NULL) {
    g_print ("SKIP %s: no NVIDIA H.264 decoder on this machine\n", __func__);
    return;
  }

  ref_desc = g_strdup_printf ("filesrc location=%s ! qtdemux ! %s ! "
      "cudadownload ! video/x-raw ! cudafilter backend=cpu filter=sobel ! "
      "appsink name=sink", CLIP_PATH, dec);
  gpu_desc = g_strdup_printf ("filesrc location=%s ! qtdemux ! %s ! "
      "cudafilter name=f filter=sobel ! cudadownload ! video/x-raw ! "
      "appsink name=sink", CLIP_PATH, dec);
  fail_unless (run_pipeline (ref_desc, &ref, FALSE), "%s", ref_desc);
  fail_unless (run_pipeline (gpu_desc, &gpu, TRUE), "%s", gpu_desc);
  fail_unless_equals_int (gpu.samples->len, 90);
  assert_same_frames (&gpu, &ref, dec);
  fail_unless (pad_caps_are_cuda (gpu.pipeline, "f", "sink"),
      "decoder output left the GPU");
  fail_unless (pad_caps_are_cuda (gpu.pipeline, "f", "src"));

  run_clear (&ref);
  run_clear (&gpu);
  g_free (ref_desc);
  g_free (gpu_desc);
}

GST_END_TEST;

/* 10-bit HEVC (tests/data/hevc-main10-320x240.mp4: 30 frames of
 * videotestsrc as I420_10LE, x265 Main 10) decoded by nvh265dec stays in
 * CUDA memory as P010_10LE through cudafilter on both pads, and gives what
 * the CPU backend gives on the downloaded frames. */
GST_START_TEST (test_hevc10_decoder_to_filter)
{
  const gchar *dec = NULL;
  gchar *ref_desc, *gpu_desc;
  Run ref = { 0 }, gpu = { 0 };
  guint i;

  if (!have_gpu (__func__) || !have_pipeline_elements (__func__))
    return;
  if (!have_element ("qtdemux", "libgstisomp4.so") ||
      !have_element ("filesrc", "libgstcoreelements.so")) {
    g_print ("SKIP %s: qtdemux (isomp4) not installed\n", __func__);
    return;
  }
  if (have_element ("nvh265sldec", "libgstnvcodec.so"))
    dec = "nvh265sldec";
  else if (have_element ("nvh265dec", "libgstnvcodec.so")
      && have_element ("h265parse", "libgstvideoparsersbad.so"))
    dec = "h265parse ! nvh265dec";
  if (dec == NULL) {
    g_print ("SKIP %s: no NVIDIA H.265 decoder on this machine\n", __func__);
    return;
  }

  for (i = 0; i < 2; i++) {
    const gchar *filter = i == 0 ? "filter=sobel" :
        "filter=gaussian sigma=2 border=constant border-value=700";

    ref_desc = g_strdup_printf ("filesrc location=%s ! qtdemux ! %s ! "
        "video/x-raw(" CUDA_FEATURE "),format=P010_10LE ! cudadownload ! "
        "video/x-raw ! cudafilter backend=cpu %s ! appsink name=sink",
        CLIP_HEVC10_PATH, dec, filter);
    gpu_desc = g_strdup_printf ("filesrc location=%s ! qtdemux ! %s ! "
        "video/x-raw(" CUDA_FEATURE "),format=P010_10LE ! "
        "cudafilter name=f %s ! video/x-raw(" CUDA_FEATURE
        "),format=P010_10LE ! cudadownload ! video/x-raw ! "
        "appsink name=sink", CLIP_HEVC10_PATH, dec, filter);
    fail_unless (run_pipeline (ref_desc, &ref, FALSE), "%s", ref_desc);
    fail_unless (run_pipeline (gpu_desc, &gpu, TRUE), "%s", gpu_desc);
    fail_unless_equals_int (gpu.samples->len, 30);
    assert_same_frames (&gpu, &ref, filter);
    fail_unless (pad_caps_are_cuda (gpu.pipeline, "f", "sink"),
        "decoder output left the GPU");
    fail_unless (pad_caps_are_cuda (gpu.pipeline, "f", "src"));
    run_clear (&ref);
    run_clear (&gpu);
    g_free (ref_desc);
    g_free (gpu_desc);
  }
}

GST_END_TEST;

#endif /* HAVE_GST_CUDA */

static Suite *
cuda_memory_suite (void)
{
  Suite *s = suite_create ("cudafilter-cuda-memory");
  TCase *caps = tcase_create ("caps");
  TCase *gpu = tcase_create ("gpu");

  suite_add_tcase (s, caps);
  tcase_add_test (caps, test_templates);
#ifdef HAVE_GST_CUDA
  tcase_add_test (caps, test_query_caps_both_memories);
  tcase_add_test (caps, test_negotiate_mixes);
  tcase_add_test (caps, test_keeps_cuda_before_a_system_first_peer);

  suite_add_tcase (s, gpu);
  tcase_set_timeout (gpu, 240);
  tcase_add_test (gpu, test_upload_filter_download_matches);
  tcase_add_test (gpu, test_two_filters_one_context);
  tcase_add_test (gpu, test_downstream_memory_change_keeps_frames);
  tcase_add_test (gpu, test_context_from_application);
  tcase_add_test (gpu, test_decoder_to_filter);
  tcase_add_test (gpu, test_hevc10_decoder_to_filter);
  tcase_add_test (gpu, test_failed_context_move_errors);
  tcase_add_test (gpu, test_context_query_while_replaced);
#else
  (void) gpu;
  g_print ("\nSKIP: built without gstreamer-cuda-1.0 (-Dcuda-memory): only "
      "the system-memory caps are checked.\n\n");
#endif
  return s;
}

GST_CHECK_MAIN (cuda_memory);
