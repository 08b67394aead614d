/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: switching the current device around engine calls
 * (cf-cuda-current.h).  The runtime cannot say whether a thread has a
 * context at all (cudaGetDevice answers 0 for a thread with none), so the
 * caller's context is read and put back with the driver's own
 * cuCtxGetCurrent and cuCtxSetCurrent, from the driver library the
 * runtime has loaded already. */
#include "config.h"

#include <cuda_runtime_api.h>

#include "cf-cuda-current.h"
#include "cf-cuda-check.h"
#include "cf-module.h"

typedef int (*CtxGetCurrent) (gpointer * ctx);
typedef int (*CtxSetCurrent) (gpointer ctx);

static struct
{
  CtxGetCurrent get;
  CtxSetCurrent set;
} driver;

/* TRUE when the driver's context calls are there (always, where the
 * runtime works: it loaded that library). */
static gboolean
driver_loaded (void)
{
  static gsize loaded = 0;

  if (g_once_init_enter (&loaded)) {
    static const char *const symbols[] = { "cuCtxGetCurrent",
      "cuCtxSetCurrent"
    };
    gpointer slots[2] = { NULL, NULL };
    GString *tried = g_string_new (NULL);
    gsize v = 1;

    if (cf_module_open ("libcuda.so.1", symbols, 2, slots, tried)) {
      driver.get = (CtxGetCurrent) slots[0];
      driver.set = (CtxSetCurrent) slots[1];
      v = 2;
    }
    g_string_free (tried, TRUE);
    g_once_init_leave (&loaded, v);
  }
  return loaded == 2;
}

gboolean
cf_cuda_current_enter (int device, CfCudaCurrent * saved, GError ** error)
{
  gboolean loaded = driver_loaded ();

  saved->switched = FALSE;
  saved->context = NULL;
  saved->device = -1;
  /* A thread with no context reads NULL (or an error before cuInit, with
   * no context either): the device is then made current, and the thread
   * left with no context after. */
  if (loaded && driver.get (&saved->context) != 0)
    saved->context = NULL;
  if (saved->context != NULL || !loaded) {
    if (!cf_cuda_check (cudaGetDevice (&saved->device), "cudaGetDevice",
            error))
      return FALSE;
    if (saved->device == device)
      return TRUE;
  }
  if (!cf_cuda_check (cudaSetDevice (device), "cudaSetDevice", error))
    return FALSE;
  saved->switched = TRUE;
  return TRUE;
}

void
cf_cuda_current_leave (const CfCudaCurrent * saved)
{
  if (!saved->switched)
    return;
  if (driver_loaded ())
    driver.set (saved->context);
  else
    cudaSetDevice (saved->device);
}
