/* cudafilter's GstCudaContext against other threads, with no GPU.
 *
 * Run against the stub driver library (tests/nodevice, CF_STUB_DEVICES=1),
 * whose device holds contexts and nothing else: GstCudaContext, context
 * queries and GstContext sharing run for real, the element filters on the
 * CPU.  Each case stops a thread inside libgstcuda, at the log line it
 * writes on entering gst_cuda_handle_context_query () or on finding the
 * context in gst_cuda_handle_set_context (), makes the other thread change
 * the element's context meanwhile, and then checks with weak references
 * which contexts are alive: a context query must hold the context it
 * answers with (the element's reference may be dropped under it), and two
 * set_context calls at once must leave one context on the element and
 * none leaked. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <gst/check/gstcheck.h>

#ifdef HAVE_GST_CUDA
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>

#define WAIT_S 10

/* ---- holding one thread inside libgstcuda ---- */

typedef struct
{
  GMutex lock;
  GCond cond;
  const gchar *function;        /* libgstcuda's, as its log names it */
  GThread *spared;              /* the test's own thread, never held */
  gboolean held, released;
} Gate;

static Gate gate;

static void
hold_at_log (GstDebugCategory * category, GstDebugLevel level,
    const gchar * file, const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  Gate *g = user_data;

  if (g_thread_self () == g->spared || function == NULL
      || strstr (function, g->function) == NULL)
    return;
  g_mutex_lock (&g->lock);
  if (!g->held && !g->released) {
    g->held = TRUE;
    g_cond_broadcast (&g->cond);
    while (!g->released)
      g_cond_wait (&g->cond, &g->lock);
  }
  g_mutex_unlock (&g->lock);
}

/* Holds the first other thread that logs in `function`, once. */
static void
gate_arm (const gchar * function)
{
  g_mutex_lock (&gate.lock);
  gate.function = function;
  gate.spared = g_thread_self ();
  gate.held = gate.released = FALSE;
  g_mutex_unlock (&gate.lock);
}

/* Whether the thread reached the gate within WAIT_S seconds. */
static gboolean
gate_wait_held (void)
{
  gint64 end = g_get_monotonic_time () + WAIT_S * G_TIME_SPAN_SECOND;
  gboolean held;

  g_mutex_lock (&gate.lock);
  while (!gate.held && g_cond_wait_until (&gate.cond, &gate.lock, end));
  held = gate.held;
  g_mutex_unlock (&gate.lock);
  return held;
}

static void
gate_release (void)
{
  g_mutex_lock (&gate.lock);
  gate.released = TRUE;
  g_cond_broadcast (&gate.cond);
  g_mutex_unlock (&gate.lock);
}

/* libgstcuda logs there in GStreamer's "GST_CONTEXT" category (1.22) or
 * its own "cudautils" (later versions).  (hold_at_log is installed once,
 * in main: GStreamer keeps the lists of log functions it replaces.) */
static void
gate_install (void)
{
  gst_debug_set_active (TRUE);
  gst_debug_set_threshold_for_name ("GST_CONTEXT", GST_LEVEL_LOG);
  gst_debug_set_threshold_for_name ("cudautils", GST_LEVEL_LOG);
}

static void
gate_remove (void)
{
  gst_debug_unset_threshold_for_name ("GST_CONTEXT");
  gst_debug_unset_threshold_for_name ("cudautils");
}

/* ---- contexts whose end the test sees ---- */

static void
note_freed (gpointer data, GObject * where_the_object_was)
{
  g_atomic_int_set ((gint *) data, TRUE);
}

/* A new context on the stub's device, with a weak reference that sets
 * *freed when it is finalized. */
static GstCudaContext *
watched_context (gint * freed)
{
  GstCudaContext *ctx = gst_cuda_context_new (0);

  fail_unless (ctx != NULL, "no GstCudaContext on device 0 (without a GPU: "
      "is LD_LIBRARY_PATH at tests/nodevice and CF_STUB_DEVICES=1?)");
  *freed = FALSE;
  g_object_weak_ref (G_OBJECT (ctx), note_freed, freed);
  return ctx;
}

static void
set_context_on (GstElement * e, GstCudaContext * ctx)
{
  GstContext *c = gst_context_new_cuda_context (ctx);

  gst_element_set_context (e, c);
  gst_context_unref (c);
}

static GstElement *
make_filter (void)
{
  GstElement *e = gst_element_factory_make ("cudafilter", NULL);

  fail_unless (e != NULL, "cudafilter not found: is GST_PLUGIN_PATH set?");
  gst_util_set_object_arg (G_OBJECT (e), "backend", "cpu");
  return e;
}

/* ---- a context query while the streaming side drops the context ---- */

typedef struct
{
  GstElement *filter;
  gboolean answered;
  GstCudaContext *answer;       /* not a reference: compared only */
} Query;

static gpointer
ask_context (gpointer data)
{
  Query *q = data;
  GstQuery *query = gst_query_new_context (GST_CUDA_CONTEXT_TYPE);

  q->answered = gst_element_query (q->filter, query);
  if (q->answered) {
    GstContext *c = NULL;
    GstCudaContext *ctx = NULL;

    gst_query_parse_context (query, &c);
    if (c && gst_structure_get (gst_context_get_structure (c),
            GST_CUDA_CONTEXT_TYPE, GST_TYPE_CUDA_CONTEXT, &ctx, NULL)) {
      q->answer = ctx;
      gst_object_unref (ctx);
    }
  }
  gst_query_unref (query);
  return NULL;
}

/* The element holds context A, set by the application, and the only
 * reference left on it (the application has set B since, which the
 * element's list of contexts keeps instead).  A neighbour's context query
 * is held inside libgstcuda while the element stops and drops A: A must
 * live until the query is answered, with A. */
GST_START_TEST (test_query_holds_its_context)
{
  GstElement *filter = make_filter ();
  GstCudaContext *a, *b;
  gint a_freed, b_freed, a_freed_under_query;
  Query q = { 0 };
  GThread *t;

  a = watched_context (&a_freed);
  b = watched_context (&b_freed);
  set_context_on (filter, a);
  gst_object_unref (a);
  fail_unless_equals_int (gst_element_set_state (filter, GST_STATE_PAUSED),
      GST_STATE_CHANGE_SUCCESS);
  set_context_on (filter, b);   /* taken into the list, not the element */
  fail_if (g_atomic_int_get (&a_freed), "the element dropped A at a set "
      "context of B");

  gate_install ();
  gate_arm ("gst_cuda_handle_context_query");
  q.filter = filter;
  t = g_thread_new ("ask", ask_context, &q);
  fail_unless (gate_wait_held (), "the context query never reached "
      "gst_cuda_handle_context_query");
  /* The streaming side lets A go (stop). */
  fail_unless_equals_int (gst_element_set_state (filter, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  a_freed_under_query = g_atomic_int_get (&a_freed);
  /* A failure here leaves the held thread behind: releasing it would only
   * read freed memory. */
  fail_if (a_freed_under_query, "the element freed its CUDA context while a "
      "context query was answering with it");
  gate_release ();
  g_thread_join (t);
  gate_remove ();

  fail_unless (q.answered, "the context query was not answered");
  fail_unless (q.answer == a, "the query was answered with another context "
      "than the element's");
  fail_unless (g_atomic_int_get (&a_freed), "A outlived the query");

  gst_element_set_state (filter, GST_STATE_NULL);
  gst_object_unref (filter);
  gst_object_unref (b);
  fail_unless (g_atomic_int_get (&b_freed), "B leaked");
}

GST_END_TEST;

/* ---- two set_context calls at once ---- */

typedef struct
{
  GstElement *filter;
  GstCudaContext *ctx;
} Setter;

static gpointer
set_from_thread (gpointer data)
{
  Setter *s = data;

  set_context_on (s->filter, s->ctx);
  return NULL;
}

/* The application sets A from one thread while B arrives from another (a
 * neighbour's context, propagated by the bin) on an element that has
 * none: the first taken stays, the other is dropped, none leaks. */
GST_START_TEST (test_concurrent_set_context)
{
  GstElement *filter = make_filter ();
  GstCudaContext *a, *b;
  gint a_freed, b_freed;
  Setter s;
  GThread *t;

  a = watched_context (&a_freed);
  b = watched_context (&b_freed);
  gate_install ();
  gate_arm ("gst_cuda_handle_set_context");
  s.filter = filter;
  s.ctx = a;
  t = g_thread_new ("set", set_from_thread, &s);
  fail_unless (gate_wait_held (), "set_context never reached "
      "gst_cuda_handle_set_context");
  set_context_on (filter, b);
  gate_release ();
  g_thread_join (t);
  gate_remove ();

  /* The element still works with one of them. */
  fail_unless_equals_int (gst_element_set_state (filter, GST_STATE_PAUSED),
      GST_STATE_CHANGE_SUCCESS);
  gst_element_set_state (filter, GST_STATE_NULL);
  gst_object_unref (filter);
  gst_object_unref (a);
  gst_object_unref (b);
  fail_unless (g_atomic_int_get (&a_freed), "context A leaked");
  fail_unless (g_atomic_int_get (&b_freed), "context B leaked: two "
      "set_context calls both stored a context on the element");
}

GST_END_TEST;

/* ---- a context handed over while the element runs ---- */

/* An application's NEED_CONTEXT handler sets its context on the pipeline,
 * which GstBin passes to every child, also to an element that runs without
 * one: its backend lives elsewhere, so the context is refused until the
 * element is back in READY, where it is taken. */
GST_START_TEST (test_context_after_start)
{
  GstElement *filter = make_filter ();
  GstCudaContext *a;
  gint a_freed;
  Query q = { 0 };

  a = watched_context (&a_freed);
  fail_unless_equals_int (gst_element_set_state (filter, GST_STATE_PAUSED),
      GST_STATE_CHANGE_SUCCESS);
  set_context_on (filter, a);
  q.filter = filter;
  ask_context (&q);
  fail_if (q.answered && q.answer == a, "the element took a CUDA context "
      "while running");

  fail_unless_equals_int (gst_element_set_state (filter, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  set_context_on (filter, a);
  ask_context (&q);
  fail_unless (q.answered && q.answer == a, "the element refused a CUDA "
      "context in READY");

  gst_element_set_state (filter, GST_STATE_NULL);
  gst_object_unref (filter);
  gst_object_unref (a);
  fail_unless (g_atomic_int_get (&a_freed), "A leaked");
}

GST_END_TEST;

static Suite *
cuda_context_suite (void)
{
  Suite *s = suite_create ("cudafilter-cuda-context");
  TCase *tc = tcase_create ("threads");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_query_holds_its_context);
  tcase_add_test (tc, test_concurrent_set_context);
  tcase_add_test (tc, test_context_after_start);
  return s;
}

/* Whether libgstcuda finds the stub's device. */
static gboolean
stub_device_found (void)
{
  GstCudaContext *ctx;

  if (!gst_cuda_load_library ())
    return FALSE;
  ctx = gst_cuda_context_new (0);
  if (ctx == NULL)
    return FALSE;
  gst_object_unref (ctx);
  return TRUE;
}
#endif /* HAVE_GST_CUDA */

int
main (int argc, char **argv)
{
#ifdef HAVE_GST_CUDA
  gst_check_init (&argc, &argv);
  g_mutex_init (&gate.lock);
  g_cond_init (&gate.cond);
  gate.released = TRUE;         /* holds nothing until armed */
  gst_debug_add_log_function (hold_at_log, &gate, NULL);
  if (!stub_device_found ()) {
    g_printerr ("libgstcuda finds no CUDA device: run with LD_LIBRARY_PATH "
        "at the stub driver library (build/tests/nodevice) and "
        "CF_STUB_DEVICES=1\n");
    return 1;
  }
  return gst_check_run_suite (cuda_context_suite (), "cuda-context",
      __FILE__);
#else
  g_print ("SKIP: built without gstreamer-cuda-1.0 (-Dcuda-memory): the "
      "element has no CUDA context to share.\n");
  return 77;
#endif
}
