/* cudafilter reliability: nothing leaks over many pipeline lifetimes.
 *
 * Runs CYCLES pipelines (build, play to EOS, tear down) in one process under
 * GStreamer's leaks tracer, cycling through formats, filters and frames in
 * flight, then counts, per type, the objects the tracer saw created during
 * the cycles less those it saw destroyed: there must be none left.  A
 * warm-up cycle of every kind runs first so that process-wide singletons
 * (allocators, types, caches) exist before tracking starts.  The tracer is enabled here (GST_TRACERS=leaks) unless
 * the environment already names tracers; at exit gst_deinit () makes it log
 * any object still alive, which tools/valgrind and the meson wrapper also
 * check ("object-alive" lines).
 *
 * Usage: test-leaks [CYCLES] [BACKEND] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gst/gst.h>


static const char *const formats[] = { "RGBA", "I420", "GRAY16_LE", "NV12",
  "BGRx", "Y444", "GBRA", "GRAY8"
};

static const char *const filters[] = { "gaussian sigma=1.2", "box",
  "sobel", "sobel-x", "scharr", "laplacian kernel-size=3", "sharpen",
  "custom kernel=\"0 -1 0; -1 5 -1; 0 -1 0\""
};

static gboolean
run_cycle (guint i, const char *backend)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=%u ! "
      "video/x-raw,format=%s,width=%u,height=%u ! cudafilter backend=%s "
      "frames-in-flight=%u filter=%s ! fakesink sync=false",
      2 + i % 4, formats[i % G_N_ELEMENTS (formats)], 16 + i % 13,
      8 + i % 11, backend, 1 + i % 3, filters[(i / 3) %
          G_N_ELEMENTS (filters)]);
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch (desc, &err);
  GstBus *bus;
  GstMessage *msg;
  gboolean ok;

  if (pipe == NULL) {
    fprintf (stderr, "cycle %u: cannot build '%s': %s\n", i, desc,
        err ? err->message : "?");
    g_clear_error (&err);
    g_free (desc);
    return FALSE;
  }
  bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  ok = msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
  if (!ok) {
    gchar *dbg = NULL;

    if (msg != NULL)
      gst_message_parse_error (msg, &err, &dbg);
    fprintf (stderr, "cycle %u (%s): %s\n", i, desc,
        err ? err->message : "no EOS within 10 s");
    g_clear_error (&err);
    g_free (dbg);
  }
  if (msg)
    gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  g_free (desc);
  return ok;
}

static GstTracer *
find_leaks_tracer (void)
{
  GList *tracers = gst_tracing_get_active_tracers (), *l;
  GstTracer *found = NULL;

  for (l = tracers; l != NULL; l = l->next)
    if (found == NULL && g_strcmp0 (G_OBJECT_TYPE_NAME (l->data),
            "GstLeaksTracer") == 0)
      found = gst_object_ref (l->data);
  g_list_free_full (tracers, gst_object_unref);
  return found;
}

/* Adds the tracer's activity since the last checkpoint to net, per type
 * name: +1 for each object created, -1 for each destroyed.  The checkpoint
 * lists name objects by type and address only.  (The tracer's
 * "get-live-objects" hands over the live objects themselves without a
 * reference: freeing its answer drops a reference the caller does not own,
 * and a pipeline's task thread later unrefs a freed object.) */
static void
add_activity (GstTracer * tracer, GHashTable * net)
{
  static const struct
  {
    const gchar *list;
    gint sign;
  } kinds[] = { {"objects-created-list", 1}, {"objects-removed-list", -1} };
  GstStructure *cp = NULL;
  guint k, i;

  g_signal_emit_by_name (tracer, "activity-get-checkpoint", &cp);
  for (k = 0; cp != NULL && k < G_N_ELEMENTS (kinds); k++) {
    const GValue *list = gst_structure_get_value (cp, kinds[k].list);
    guint n = list ? gst_value_list_get_size (list) : 0;

    for (i = 0; i < n; i++) {
      const GstStructure *o =
          gst_value_get_structure (gst_value_list_get_value (list, i));
      const gchar *type = gst_structure_get_string (o, "type-name");
      gint was;

      type = type ? type : "(unknown)";
      was = GPOINTER_TO_INT (g_hash_table_lookup (net, type));
      g_hash_table_insert (net, g_strdup (type),
          GINT_TO_POINTER (was + kinds[k].sign));
    }
  }
  if (cp)
    gst_structure_free (cp);
}

/* Objects created since tracking started and still alive, per type; prints
 * them and returns how many. */
static guint
report_leaks (GHashTable * net, gboolean print)
{
  GHashTableIter it;
  gpointer key, value;
  guint leaked = 0;

  g_hash_table_iter_init (&it, net);
  while (g_hash_table_iter_next (&it, &key, &value)) {
    gint n = GPOINTER_TO_INT (value);

    if (n > 0 && print)
      fprintf (stderr, "leaked: %d more %s alive after the cycles\n", n,
          (const char *) key);
    if (n > 0)
      leaked += n;
  }
  return leaked;
}

int
main (int argc, char **argv)
{
  guint cycles = argc > 1 ? (guint) atoi (argv[1]) : 1000, i, failed = 0;
  const char *backend = argc > 2 ? argv[2] : "cpu";
  GstTracer *tracer;
  GHashTable *net;
  guint alive;

  if (g_getenv ("GST_TRACERS") == NULL)
    g_setenv ("GST_TRACERS", "leaks", TRUE);
  gst_init (&argc, &argv);

  if (strcmp (backend, "cuda") == 0) {
    GstElement *probe = gst_element_factory_make ("cudafilter", NULL);
    gboolean usable;

    gst_util_set_object_arg (G_OBJECT (probe), "backend", "cuda");
    usable = gst_element_set_state (probe, GST_STATE_PAUSED) !=
        GST_STATE_CHANGE_FAILURE;
    gst_element_set_state (probe, GST_STATE_NULL);
    gst_object_unref (probe);
    if (!usable) {
      printf ("SKIP: backend=cuda leak cycles need a CUDA device\n");
      gst_deinit ();
      return 0;
    }
  }

  tracer = find_leaks_tracer ();
  if (tracer == NULL) {
    fprintf (stderr, "the leaks tracer is not active (GST_TRACERS=%s)\n",
        g_getenv ("GST_TRACERS"));
    return 1;
  }

  /* Warm-up: every format and filter once, before tracking. */
  for (i = 0; i < 3 * G_N_ELEMENTS (formats) * G_N_ELEMENTS (filters); i++)
    failed += !run_cycle (i, backend);

  net = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_signal_emit_by_name (tracer, "activity-start-tracking");
  for (i = 0; i < cycles; i++) {
    failed += !run_cycle (i, backend);
    /* Checkpoints keep the tracer's activity lists short. */
    if (i % 100 == 99)
      add_activity (tracer, net);
  }
  /* A task's thread drops its last reference just after the join that
   * state NULL waits for: give stragglers a moment before counting. */
  for (i = 0; i < 20; i++) {
    add_activity (tracer, net);
    alive = report_leaks (net, i == 19);
    if (alive == 0)
      break;
    g_usleep (50000);
  }
  g_signal_emit_by_name (tracer, "activity-stop-tracking");
  g_hash_table_unref (net);
  gst_object_unref (tracer);

  printf ("%u pipeline cycles (backend=%s): %u failed, %u objects leaked\n",
      cycles, backend, failed, alive);
  gst_deinit ();
  return failed == 0 && alive == 0 ? 0 : 1;
}
