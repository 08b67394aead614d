/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: what a backend implements. */
#ifndef CF_BACKEND_PRIVATE_H
#define CF_BACKEND_PRIVATE_H

#include "cf-backend.h"

G_BEGIN_DECLS

typedef struct
{
  gboolean (*process) (CfBackend * backend, const CfSpec * spec,
      const CfLayout * layout, const CfFrame * in, const CfFrame * out,
      GError ** error);
  void (*free) (CfBackend * backend);
  /* Optional: asynchronous frames.  `slot` (< CF_BACKEND_MAX_IN_FLIGHT)
   * names the per-frame resources the frame uses from submit to its wait;
   * the base hands the same slot to both and never gives a slot to two
   * frames in flight at once.  Without them submit runs process () and
   * wait only reports its result. */
  gboolean (*submit) (CfBackend * backend, guint slot, const CfSpec * spec,
      const CfLayout * layout, const CfFrame * in, const CfFrame * out,
      GError ** error);
  gboolean (*wait) (CfBackend * backend, guint slot, GError ** error);
} CfBackendClass;

/* One frame in flight, from submit to wait: the only record of it. */
typedef struct
{
  gpointer data;                /* the caller's, handed back at wait */
  guint slot;
  gint64 submit_time;           /* monotonic µs */
  GError *sync_error;           /* result of a synchronous backend */
} CfFlight;

struct _CfBackend
{
  const CfBackendClass *klass;
  CfBackendKind kind;
  char *description;
  char *plan;                   /* cf_backend_describe_plan (); backends set it */
  char *warning;                /* cf_backend_take_warning (); backends set it */
  guint max_in_flight;
  /* Frames in flight, oldest at flights[head]; the ring's size is fixed,
   * whatever the limit, so a changed limit cannot shift a frame. */
  CfFlight flights[CF_BACKEND_MAX_IN_FLIGHT];
  guint head, count;
  guint32 busy_slots;           /* bit s: slot s belongs to a frame in flight */
  CfBackendStats stats;         /* backends set last_kernel_us */
};

CfBackend *cf_backend_cpu_new (GError ** error);
CfBackend *cf_backend_cpu_reference_new (GError ** error);
CfBackend *cf_backend_cuda_new (int device_id, GError ** error);

/* Replaces the plan description (takes `name`). */
void cf_backend_take_plan_name (CfBackend * backend, char *name);

G_END_DECLS
#endif /* CF_BACKEND_PRIVATE_H */
