/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: the fast CPU backend's worker threads. */
#include "cf-cpu-pool.h"

struct _CfCpuPool
{
  GMutex lock;
  GCond work;                   /* a new job, or quit */
  GCond done;                   /* the last part finished */
  guint64 generation;           /* bumped per job */
  int pending;                  /* parts still running */
  gboolean quit;
  CfCpuJob job;
  gpointer data;
  int n_parts;
  int n_workers;
  GThread **workers;
};

typedef struct
{
  CfCpuPool *pool;
  int index;
} Worker;

static gpointer
worker_main (gpointer arg)
{
  Worker *me = arg;
  CfCpuPool *pool = me->pool;
  guint64 seen = 0;

  g_mutex_lock (&pool->lock);
  for (;;) {
    while (!pool->quit && pool->generation == seen)
      g_cond_wait (&pool->work, &pool->lock);
    if (pool->quit)
      break;
    seen = pool->generation;
    g_mutex_unlock (&pool->lock);
    pool->job (pool->data, me->index, pool->n_parts);
    g_mutex_lock (&pool->lock);
    if (--pool->pending == 0)
      g_cond_signal (&pool->done);
  }
  g_mutex_unlock (&pool->lock);
  g_free (me);
  return NULL;
}

CfCpuPool *
cf_cpu_pool_new (int n_threads, char **shortfall)
{
  CfCpuPool *pool = g_new0 (CfCpuPool, 1);
  gboolean fault = g_strcmp0 (g_getenv ("CUDAFILTER_FAULT"), "threads") == 0;
  int i;

  *shortfall = NULL;
  g_mutex_init (&pool->lock);
  g_cond_init (&pool->work);
  g_cond_init (&pool->done);
  pool->workers = g_new0 (GThread *, MAX (n_threads, 1));
  for (i = 1; i < n_threads; i++) {
    Worker *w = g_new (Worker, 1);
    GError *err = NULL;
    GThread *t;

    w->pool = pool;
    w->index = i;
    if (fault) {
      t = NULL;
      g_set_error_literal (&err, G_THREAD_ERROR, G_THREAD_ERROR_AGAIN,
          "injected fault (CUDAFILTER_FAULT=threads)");
    } else {
      t = g_thread_try_new ("cf-cpu", worker_main, w, &err);
    }
    if (t == NULL) {
      *shortfall = g_strdup_printf ("Could only start %d of %d CPU "
          "threads (%s): filtering on %d; a lower cpu-threads asks for fewer", i,
          n_threads, err->message, i);
      g_error_free (err);
      g_free (w);
      break;
    }
    pool->workers[pool->n_workers++] = t;
  }
  pool->n_parts = pool->n_workers + 1;
  return pool;
}

int
cf_cpu_pool_size (const CfCpuPool * pool)
{
  return pool->n_workers + 1;
}

void
cf_cpu_pool_run (CfCpuPool * pool, CfCpuJob job, gpointer data)
{
  if (pool->n_workers == 0) {
    job (data, 0, 1);
    return;
  }
  g_mutex_lock (&pool->lock);
  pool->job = job;
  pool->data = data;
  pool->pending = pool->n_workers;
  pool->generation++;
  g_cond_broadcast (&pool->work);
  g_mutex_unlock (&pool->lock);

  job (data, 0, pool->n_parts);

  g_mutex_lock (&pool->lock);
  while (pool->pending > 0)
    g_cond_wait (&pool->done, &pool->lock);
  g_mutex_unlock (&pool->lock);
}

void
cf_cpu_pool_free (CfCpuPool * pool)
{
  int i;

  if (pool == NULL)
    return;
  g_mutex_lock (&pool->lock);
  pool->quit = TRUE;
  g_cond_broadcast (&pool->work);
  g_mutex_unlock (&pool->lock);
  for (i = 0; i < pool->n_workers; i++)
    g_thread_join (pool->workers[i]);
  g_free (pool->workers);
  g_mutex_clear (&pool->lock);
  g_cond_clear (&pool->work);
  g_cond_clear (&pool->done);
  g_free (pool);
}
