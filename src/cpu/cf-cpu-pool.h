/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: a fixed set of worker threads that run one job split
 * n ways and return when all parts are done.  Threads start once, when the
 * pool is made; running a job allocates nothing. */
#ifndef CF_CPU_POOL_H
#define CF_CPU_POOL_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CfCpuPool CfCpuPool;

/* Part `index` of `n_parts`. */
typedef void (*CfCpuJob) (gpointer data, int index, int n_parts);

/* n_threads parts run at once, one of them on the calling thread.  Threads
 * that cannot start leave fewer parts (at least the calling thread), and
 * *shortfall a sentence saying so (else NULL).  Test hook:
 * CUDAFILTER_FAULT=threads, read here, fails every thread's start. */
CfCpuPool *cf_cpu_pool_new (int n_threads, char **shortfall);
int cf_cpu_pool_size (const CfCpuPool * pool);
void cf_cpu_pool_run (CfCpuPool * pool, CfCpuJob job, gpointer data);
void cf_cpu_pool_free (CfCpuPool * pool);

G_END_DECLS
#endif /* CF_CPU_POOL_H */
