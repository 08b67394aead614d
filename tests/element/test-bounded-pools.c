/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* Downstream pools with a small maximum (display sinks, hardware encoders):
 * every frame comes out, in order, at every depth. */
#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#define W 16
#define H 8
#define FRAMES 20

/* A pool of a type the element does not know, as a sink's own pool. */
typedef struct
{
  GstVideoBufferPool parent;
} ForeignPool;
typedef struct
{
  GstVideoBufferPoolClass parent_class;
} ForeignPoolClass;
static GType foreign_pool_get_type (void);
G_DEFINE_TYPE (ForeignPool, foreign_pool, GST_TYPE_VIDEO_BUFFER_POOL);
static void
foreign_pool_class_init (ForeignPoolClass * klass)
{
}

static void
foreign_pool_init (ForeignPool * self)
{
}

typedef struct
{
  guint max;
  gboolean foreign;
} PoolOffer;

/* Answers the element's ALLOCATION query with a pool of `max` buffers. */
static GstPadProbeReturn
offer_pool (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  PoolOffer *offer = user_data;
  GstQuery *query = GST_PAD_PROBE_INFO_QUERY (info);
  GstBufferPool *pool;
  GstStructure *config;
  GstCaps *caps;
  GstVideoInfo vinfo;

  if (GST_QUERY_TYPE (query) != GST_QUERY_ALLOCATION)
    return GST_PAD_PROBE_OK;
  gst_query_parse_allocation (query, &caps, NULL);
  fail_unless (gst_video_info_from_caps (&vinfo, caps));
  pool = offer->foreign ? g_object_new (foreign_pool_get_type (), NULL)
      : gst_video_buffer_pool_new ();
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, vinfo.size, 1, offer->max);
  fail_unless (gst_buffer_pool_set_config (pool, config));
  gst_query_add_allocation_pool (query, pool, vinfo.size, 1, offer->max);
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_object_unref (pool);
  return GST_PAD_PROBE_HANDLED;
}

/* backend=cpu here; CF_TEST_BACKEND=cuda on a GPU host (and under
 * compute-sanitizer). */
static const gchar *
backend (void)
{
  const gchar *b = g_getenv ("CF_TEST_BACKEND");

  return b ? b : "cpu";
}

static gint finished;

/* A hang shows as a failure with a reason, not as the test's timeout. */
static gpointer
watchdog (gpointer data)
{
  guint i;

  for (i = 0; i < 600 && !g_atomic_int_get (&finished); i++)
    g_usleep (100 * 1000);
  if (!g_atomic_int_get (&finished)) {
    g_printerr ("FAIL %s: no frame came out for 60 s (a hang)\n",
        (const gchar *) data);
    abort ();
  }
  return NULL;
}

static void
run (guint max, gboolean foreign, guint depth)
{
  gchar *desc = g_strdup_printf ("cudafilter backend=%s filter=box "
      "frames-in-flight=%u", backend (), depth);
  gchar *what = g_strdup_printf ("pool max %u (%s), frames-in-flight %u",
      max, foreign ? "foreign" : "video", depth);
  GstHarness *h = gst_harness_new_parse (desc);
  PoolOffer offer = { max, foreign };
  GThread *dog;
  guint n, out = 0;

  g_atomic_int_set (&finished, FALSE);
  dog = g_thread_new ("watchdog", watchdog, what);
  gst_pad_add_probe (h->sinkpad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM,
      offer_pool, &offer, NULL);
  gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,width="
      G_STRINGIFY (W) ",height=" G_STRINGIFY (H) ",framerate=25/1");
  for (n = 0; n <= FRAMES; n++) {
    GstBuffer *buf;

    if (n < FRAMES) {
      buf = gst_buffer_new_allocate (NULL, W * H, NULL);
      gst_buffer_memset (buf, 0, 10 + n, W * H);
      GST_BUFFER_PTS (buf) = n * 40 * GST_MSECOND;
      fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
    } else {
      fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
    }
    /* The sink gives each frame back to its pool once shown. */
    while ((buf = gst_harness_try_pull (h)) != NULL) {
      GstMapInfo map;

      fail_unless_equals_uint64 (GST_BUFFER_PTS (buf), out * 40 * GST_MSECOND);
      fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
      /* Box of a constant frame is the constant. */
      fail_unless_equals_int (map.data[W * H / 2], 10 + out);
      gst_buffer_unmap (buf, &map);
      gst_buffer_unref (buf);
      out++;
    }
  }
  fail_unless_equals_int (out, FRAMES);
  g_atomic_int_set (&finished, TRUE);
  g_thread_join (dog);
  gst_harness_teardown (h);
  g_free (what);
  g_free (desc);
}

GST_START_TEST (test_bounded_pools)
{
  static const guint maxes[] = { 1, 2, 4 };
  static const guint depths[] = { 4, 8, 1 };
  guint m, d, f;

  for (f = 0; f < 2; f++)
    for (m = 0; m < G_N_ELEMENTS (maxes); m++)
      for (d = 0; d < G_N_ELEMENTS (depths); d++)
        run (maxes[m], f, depths[d]);
}

GST_END_TEST;

/* The pool offered upstream asks for the frames the element keeps: a
 * source whose pool follows that number never waits on the element. */
GST_START_TEST (test_upstream_pool_counts_depth)
{
  gchar *desc = g_strdup_printf ("cudafilter backend=%s "
      "frames-in-flight=6", backend ());
  GstHarness *h = gst_harness_new_parse (desc);
  GstCaps *caps = gst_caps_from_string ("video/x-raw,format=GRAY8,width=16,"
      "height=8,framerate=25/1");
  GstQuery *q;
  guint min = 0, max = 1;

  gst_harness_set_src_caps (h, gst_caps_ref (caps));
  q = gst_query_new_allocation (caps, TRUE);
  fail_unless (gst_pad_peer_query (h->srcpad, q));
  fail_unless (gst_query_get_n_allocation_pools (q) > 0);
  gst_query_parse_nth_allocation_pool (q, 0, NULL, NULL, &min, &max);
  fail_unless_equals_int (min, 6);
  fail_unless_equals_int (max, 0);
  gst_query_unref (q);
  gst_caps_unref (caps);
  gst_harness_teardown (h);
  g_free (desc);
}

GST_END_TEST;

static Suite *
bounded_pools_suite (void)
{
  Suite *s = suite_create ("cudafilter-bounded-pools");
  TCase *tc = tcase_create ("pools");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_bounded_pools);
  tcase_add_test (tc, test_upstream_pool_counts_depth);
  return s;
}

GST_CHECK_MAIN (bounded_pools);
