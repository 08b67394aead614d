/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: host memory the copy engines can read and write
 * directly.  Page-locked (pinned) when CUDA is usable, which makes
 * host<->device copies several times faster and truly asynchronous;
 * ordinary aligned memory otherwise, so callers need no second path. */
#ifndef CF_HOST_MEMORY_H
#define CF_HOST_MEMORY_H

#include <glib.h>

G_BEGIN_DECLS

/* Alignment of every block: a page, which also suits the kernels' vector
 * loads and the copy engines. */
#define CF_HOST_ALIGN 4096

/* Returns size bytes aligned to CF_HOST_ALIGN, pinned for the CUDA
 * `device` (-1: never pinned), with that device current and the caller's
 * context given back: no other device is touched.  *pinned_on says which
 * device pinned it (-1: ordinary memory) and must be given back to
 * cf_host_free, which frees it on that device.  NULL only when out of
 * memory. */
gpointer cf_host_alloc (gsize size, int device, int *pinned_on);
void cf_host_free (gpointer data, int pinned_on);

/* Pins memory allocated elsewhere for `device`, so copies from it run at
 * pinned speed; worth it only for memory that is reused (a pool's
 * buffers).  Returns FALSE (and changes nothing) where pinning is not
 * possible.  Unregistered on the same device. */
gboolean cf_host_register (gpointer data, gsize size, int device);
void cf_host_unregister (gpointer data, int device);

G_END_DECLS
#endif /* CF_HOST_MEMORY_H */
