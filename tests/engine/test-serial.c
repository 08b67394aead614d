/* cudafilter engine: spec serials are unique for the life of the process.
 * Backends cache weights and launch plans on them, so a repeated serial
 * would run a stale plan; a pipeline whose properties a GstController
 * syncs builds a spec every frame, 2^32 of them in 2.3 years at 60 fps. */
#include <stdlib.h>
#include "cf-spec-private.h"

static CfSpec *
new_spec (void)
{
  CfParams params;
  GError *error = NULL;
  CfSpec *spec;

  cf_params_init (&params);
  spec = cf_spec_new (&params, 1, &error);
  g_assert_no_error (error);
  return spec;
}

/* 2^32 - 1 specs after a spec, the next one must not repeat its serial. */
static void
test_no_wrap (void)
{
  CfSpec *a = new_spec (), *b, *c;

  cf_spec_skip_serials (G_MAXUINT32);
  b = new_spec ();
  g_assert_cmpuint (b->serial, ==, a->serial + G_MAXUINT32 + 1ull);
  cf_spec_skip_serials (G_MAXUINT32);
  c = new_spec ();
  g_assert_cmpuint (c->serial, ==, b->serial + G_MAXUINT32 + 1ull);
  cf_spec_free (a);
  cf_spec_free (b);
  cf_spec_free (c);
}

#define THREADS 4
#define PER_THREAD 2000

static gpointer
build_many (gpointer data)
{
  guint64 *serials = data;

  for (int i = 0; i < PER_THREAD; i++) {
    CfSpec *spec = new_spec ();
    serials[i] = spec->serial;
    cf_spec_free (spec);
  }
  return NULL;
}

static int
cmp_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

/* Specs built on several threads at once (property setters run on any
 * thread) get distinct serials. */
static void
test_threads_unique (void)
{
  guint64 *serials = g_new (guint64, THREADS * PER_THREAD);
  GThread *threads[THREADS];

  for (int t = 0; t < THREADS; t++)
    threads[t] = g_thread_new ("spec", build_many, serials + t * PER_THREAD);
  for (int t = 0; t < THREADS; t++)
    g_thread_join (threads[t]);
  qsort (serials, THREADS * PER_THREAD, sizeof (guint64), cmp_u64);
  for (int i = 1; i < THREADS * PER_THREAD; i++)
    g_assert_cmpuint (serials[i], >, serials[i - 1]);
  g_free (serials);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/serial/threads-unique", test_threads_unique);
  g_test_add_func ("/serial/no-wrap", test_no_wrap);
  return g_test_run ();
}
