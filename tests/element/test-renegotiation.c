/* Renegotiation with frames in flight: downstream changes what it accepts
 * (the memory it wants: the only output change fixed input caps leave) and
 * sends RECONFIGURE while frames are pending.  GstBaseTransform renegotiates inside the next
 * buffer's submission; the frames submitted under the old caps must leave,
 * whole and in order, before the new caps go downstream.  backend=cpu and
 * backend=auto everywhere, backend=cuda where a device is usable. */
#include <string.h>
#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include "element-common.h"
#include <gst/video/video.h>

#define DEPTH 4
#define SIZE (8 * 4 * 4)           /* RGBA 8x4: a format CUDA memory carries */

static const gchar *const backends[] = { "cpu", "auto", "cuda" };

/* What reached the harness's sink pad, in order: 'C' + the caps' memory,
 * or 'B' + the buffer's value. */
typedef struct
{
  GString *log;
} Seen;

static GstPadProbeReturn
record (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Seen *seen = data;

  if (GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_BUFFER) {
    GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
    guint8 v = 0;

    gst_buffer_extract (buf, 0, &v, 1);
    g_string_append_printf (seen->log, "B%u ", v);
  } else {
    GstEvent *ev = GST_PAD_PROBE_INFO_EVENT (info);

    if (GST_EVENT_TYPE (ev) == GST_EVENT_CAPS) {
      GstCaps *caps;

      gst_event_parse_caps (ev, &caps);
      g_string_append_printf (seen->log, "C%s ",
          gst_caps_features_contains (gst_caps_get_features (caps, 0),
              "memory:CUDAMemory") ? "cuda" : "sys");
    }
  }
  return GST_PAD_PROBE_OK;
}


static GstBuffer *
frame (guint8 value)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, SIZE, NULL);

  gst_buffer_memset (buf, 0, value, SIZE);
  return buf;
}

/* Pushes frames 10, 20, 30 (DEPTH in flight: the first leaves at once),
 * then switches the harness's sink caps to `next` with a RECONFIGURE and
 * pushes 40 and 50, then EOS; returns what came out, in order. */
static gchar *
renegotiate (const gchar * backend, const gchar * first, const gchar * next)
{
  gchar *desc = g_strdup_printf ("cudafilter backend=%s filter=box "
      "frames-in-flight=%u", backend, DEPTH);
  GstHarness *h = gst_harness_new_parse (desc);
  Seen seen = { g_string_new (NULL) };
  guint8 v;

  g_free (desc);
  gst_harness_set_sink_caps_str (h, first);
  gst_pad_add_probe (h->sinkpad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, record, &seen, NULL);
  gst_harness_set_src_caps_str (h, "video/x-raw,format=RGBA,width=8,"
      "height=4,framerate=25/1");

  for (v = 10; v <= 30; v += 10)
    fail_unless_equals_int (gst_harness_push (h, frame (v)), GST_FLOW_OK);
  gst_harness_set_sink_caps_str (h, next);
  fail_unless (gst_harness_push_upstream_event (h,
          gst_event_new_reconfigure ()));
  for (v = 40; v <= 50; v += 10)
    fail_unless_equals_int (gst_harness_push (h, frame (v)), GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (h), 5);
  gst_harness_teardown (h);
  return g_string_free (seen.log, FALSE);
}

/* Whether the element speaks memory:CUDAMemory (built with it). */
static gboolean
has_cuda_caps (void)
{
  GstElementFactory *f = gst_element_factory_find ("cudafilter");
  gboolean cuda_caps = FALSE;
  const GList *l;

  for (l = gst_element_factory_get_static_pad_templates (f); l; l = l->next) {
    GstStaticPadTemplate *t = l->data;
    GstCaps *caps = gst_static_pad_template_get_caps (t);
    guint i;

    for (i = 0; i < gst_caps_get_size (caps); i++)
      cuda_caps |= gst_caps_features_contains (gst_caps_get_features (caps,
              i), "memory:CUDAMemory");
    gst_caps_unref (caps);
  }
  gst_object_unref (f);
  if (!cuda_caps)
    g_print ("SKIP renegotiation: built without memory:CUDAMemory, the "
        "only output a downstream RECONFIGURE can change\n");
  return cuda_caps;
}

/* Downstream switches from system memory to CUDA memory (a CUDA backend
 * moves into a shared context for it) and back. */
GST_START_TEST (test_reconfigure_memory)
{
  const gchar *backend = backends[__i__];
  gchar *log;

  if (!has_cuda_caps () || !backend_starts (backend))
    return;
  log = renegotiate (backend, "video/x-raw", "video/x-raw(memory:CUDAMemory)");
  fail_unless_equals_string (log, "Csys B10 B20 B30 Ccuda B40 B50 ");
  g_free (log);
  log = renegotiate (backend, "video/x-raw(memory:CUDAMemory)", "video/x-raw");
  fail_unless_equals_string (log, "Ccuda B10 B20 B30 Csys B40 B50 ");
  g_free (log);
}

GST_END_TEST;

/* How a drain is asked for once downstream changed its caps with frames
 * in flight and no frame after them. */
enum
{
  DRAIN_BY_EOS,
  DRAIN_BY_QUERY,               /* a DRAIN query, as a decoder sends */
  DRAIN_BY_ALLOCATION,          /* an ALLOCATION query, the same */
  DRAIN_BY_EVENT,               /* a serialized custom event */
  DRAIN_WAYS
};

static const gchar *const drain_names[] = { "eos", "drain query",
  "allocation query", "serialized event"
};

/* Logs buffers (value and PTS in ms), caps and the events that drain. */
static GstPadProbeReturn
record_timed (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Seen *seen = data;

  if (GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_BUFFER) {
    GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
    guint8 v = 0;

    gst_buffer_extract (buf, 0, &v, 1);
    g_string_append_printf (seen->log, "B%u@%" G_GUINT64_FORMAT "+%"
        G_GUINT64_FORMAT " ", v, GST_BUFFER_PTS (buf) / GST_MSECOND,
        GST_BUFFER_DURATION (buf) / GST_MSECOND);
    return GST_PAD_PROBE_OK;
  }
  switch (GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info))) {
    case GST_EVENT_EOS:
      g_string_append (seen->log, "EOS ");
      break;
    case GST_EVENT_CUSTOM_DOWNSTREAM:
      g_string_append (seen->log, "X ");
      break;
    default:
      return record (pad, info, data);
  }
  return GST_PAD_PROBE_OK;
}

/* The tests run with only this build's plugins registered. */
static void
load_capsfilter (void)
{
  GstElementFactory *f = gst_element_factory_find ("capsfilter");
  GstPlugin *core;

  if (f != NULL) {
    gst_object_unref (f);
    return;
  }
  core = gst_plugin_load_file (CORE_PLUGINS_DIR "/libgstcoreelements.so",
      NULL);
  fail_unless (core != NULL, "no capsfilter in %s", CORE_PLUGINS_DIR);
  gst_object_unref (core);
}

/* Frames 10, 20, 30 at 0, 40 and 80 ms go in (DEPTH in flight: the first
 * leaves at once, the others are held); the capsfilter downstream then
 * switches to CUDA memory and RECONFIGURE comes from the sink (the
 * capsfilter refuses the held frames under the old caps: not-negotiated)
 * and, with no frame after them, a drain comes `how`.  Every held frame must leave, in order, with
 * its timestamps, in the new caps, before what drained goes on. */
static gchar *
drain_after_caps_change (const gchar * backend, gint how)
{
  gchar *desc = g_strdup_printf ("cudafilter backend=%s filter=box "
      "frames-in-flight=%u ! capsfilter name=down caps=video/x-raw",
      backend, DEPTH);
  GstHarness *h;
  Seen seen = { g_string_new (NULL) };
  GstCaps *cuda = gst_caps_from_string ("video/x-raw(memory:CUDAMemory)");
  GstCaps *caps;
  GstQuery *query;
  GstElement *down;
  guint8 v;

  load_capsfilter ();
  h = gst_harness_new_parse (desc);
  down = gst_bin_get_by_name (GST_BIN (h->element), "down");
  g_free (desc);
  gst_pad_add_probe (h->sinkpad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, record_timed, &seen, NULL);
  gst_harness_set_src_caps_str (h, "video/x-raw,format=RGBA,width=8,"
      "height=4,framerate=25/1");
  for (v = 10; v <= 30; v += 10) {
    GstBuffer *buf = frame (v);

    GST_BUFFER_PTS (buf) = (v / 10 - 1) * 40 * GST_MSECOND;
    GST_BUFFER_DURATION (buf) = 40 * GST_MSECOND;
    fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  }
  /* What a sink that changed what it takes sends: the capsfilter then
   * renegotiates at the next buffer, and refuses it under the old caps. */
  g_object_set (down, "caps", cuda, NULL);
  fail_unless (gst_harness_push_upstream_event (h,
          gst_event_new_reconfigure ()));
  switch (how) {
    case DRAIN_BY_EOS:
      fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
      break;
    case DRAIN_BY_QUERY:
      query = gst_query_new_drain ();
      fail_unless (gst_pad_peer_query (h->srcpad, query));
      gst_query_unref (query);
      break;
    case DRAIN_BY_ALLOCATION:
      caps = gst_pad_get_current_caps (h->srcpad);
      query = gst_query_new_allocation (caps, TRUE);
      gst_caps_unref (caps);
      fail_unless (gst_pad_peer_query (h->srcpad, query));
      gst_query_unref (query);
      break;
    default:
      fail_unless (gst_harness_push_event (h,
              gst_event_new_custom (GST_EVENT_CUSTOM_DOWNSTREAM,
                  gst_structure_new_empty ("drain-me"))));
      break;
  }
  fail_unless_equals_int (gst_harness_buffers_received (h), 3);
  gst_caps_unref (cuda);
  gst_object_unref (down);
  gst_harness_teardown (h);
  return g_string_free (seen.log, FALSE);
}

/* The frames refused under the old caps leave in the new ones, never
 * dropped: EOS, a DRAIN or ALLOCATION query and a serialized event each
 * drain them (the fuzzer's seed 21 on the stub driver lost them at EOS). */
GST_START_TEST (test_drain_after_caps_change)
{
  const gchar *backend = backends[__i__ % G_N_ELEMENTS (backends)];
  gint how = __i__ / G_N_ELEMENTS (backends);
  const gchar *after[] = { "EOS ", "", "", "X " };
  gchar *log, *expected;

  if (!has_cuda_caps () || !backend_starts (backend))
    return;
  GST_INFO ("backend=%s, drained by %s", backend, drain_names[how]);
  log = drain_after_caps_change (backend, how);
  expected = g_strconcat ("Csys B10@0+40 Ccuda B20@40+40 B30@80+40 ",
      after[how], NULL);
  fail_unless_equals_string (log, expected);
  g_free (expected);
  g_free (log);
}

GST_END_TEST;

static Suite *
renegotiation_suite (void)
{
  Suite *s = suite_create ("cudafilter-renegotiation");
  TCase *tc = tcase_create ("reconfigure");

  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_reconfigure_memory, 0,
      G_N_ELEMENTS (backends));
  tcase_add_loop_test (tc, test_drain_after_caps_change, 0,
      G_N_ELEMENTS (backends) * DRAIN_WAYS);
  return s;
}

GST_CHECK_MAIN (renegotiation);
