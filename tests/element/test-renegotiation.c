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

static Suite *
renegotiation_suite (void)
{
  Suite *s = suite_create ("cudafilter-renegotiation");
  TCase *tc = tcase_create ("reconfigure");

  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_reconfigure_memory, 0,
      G_N_ELEMENTS (backends));
  return s;
}

GST_CHECK_MAIN (renegotiation);
