/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: one device made current for a call, the caller's CUDA
 * context given back after it. */
#ifndef CF_CUDA_CURRENT_H
#define CF_CUDA_CURRENT_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  gboolean switched;            /* the call changed the current context */
  gpointer context;             /* the caller's CUcontext, NULL: none */
  int device;                   /* the caller's device, without the driver's
                                 * context calls */
} CfCudaCurrent;

/* Makes `device` current on this thread unless a context of the caller's
 * on it is current already (pushed or primary: then used as it is). */
gboolean cf_cuda_current_enter (int device, CfCudaCurrent * saved,
    GError ** error);
/* Gives the caller back exactly the context it had, or none: never makes a
 * device current that the caller did not have (cudaSetDevice back to the
 * runtime's default device 0 would create its primary context). */
void cf_cuda_current_leave (const CfCudaCurrent * saved);

G_END_DECLS
#endif /* CF_CUDA_CURRENT_H */
