/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: pinned host memory with an ordinary fallback. */
#include "config.h"

#include <stdlib.h>
#include "cf-host-memory.h"
#include "cf-backend.h"
#ifdef HAVE_CUDA
#include "cf-cuda-current.h"
#endif

#ifdef HAVE_CUDA
#include <cuda_runtime_api.h>

/* Pinning needs a driver; ask once. */
static gboolean
cuda_usable (void)
{
  static gsize usable = 0;

  if (g_once_init_enter (&usable)) {
    gsize v = cf_cuda_device_count (NULL) > 0 ? 2 : 1;
    g_once_init_leave (&usable, v);
  }
  return usable == 2;
}
#endif

gpointer
cf_host_alloc (gsize size, int device, int *pinned_on)
{
  gpointer data = NULL;

  *pinned_on = -1;
#ifdef HAVE_CUDA
  if (device >= 0 && cuda_usable ()) {
    CfCudaCurrent saved;

    if (cf_cuda_current_enter (device, &saved, NULL)) {
      /* Portable: usable from every context in the process. */
      if (cudaHostAlloc (&data, MAX (size, 1), cudaHostAllocPortable)
          == cudaSuccess)
        *pinned_on = device;
      else
        cudaGetLastError ();
      cf_cuda_current_leave (&saved);
    }
    if (*pinned_on >= 0)
      return data;
  }
#endif
  if (posix_memalign (&data, CF_HOST_ALIGN, MAX (size, 1)) != 0)
    return NULL;
  return data;
}

void
cf_host_free (gpointer data, int pinned_on)
{
  if (data == NULL)
    return;
#ifdef HAVE_CUDA
  if (pinned_on >= 0) {
    CfCudaCurrent saved;

    if (cf_cuda_current_enter (pinned_on, &saved, NULL)) {
      cudaFreeHost (data);
      cf_cuda_current_leave (&saved);
    }
    return;
  }
#endif
  free (data);
}

gboolean
cf_host_register (gpointer data, gsize size, int device)
{
#ifdef HAVE_CUDA
  struct cudaPointerAttributes attr;
  CfCudaCurrent saved;
  gboolean pinned = FALSE;

  if (device < 0 || !cuda_usable ()
      || !cf_cuda_current_enter (device, &saved, NULL))
    return FALSE;
  /* Memory that is pinned already (cudaHostAlloc'd, or registered by its
   * owner) cannot be registered again: leave it, without an API error. */
  if (cudaPointerGetAttributes (&attr, data) == cudaSuccess
      && attr.type != cudaMemoryTypeUnregistered)
    pinned = FALSE;
  else if (cudaHostRegister (data, size, cudaHostRegisterPortable)
      == cudaSuccess)
    pinned = TRUE;
  else
    cudaGetLastError ();
  cf_cuda_current_leave (&saved);
  return pinned;
#else
  return FALSE;
#endif
}

void
cf_host_unregister (gpointer data, int device)
{
#ifdef HAVE_CUDA
  CfCudaCurrent saved;

  if (!cf_cuda_current_enter (device, &saved, NULL))
    return;
  if (cudaHostUnregister (data) != cudaSuccess)
    cudaGetLastError ();
  cf_cuda_current_leave (&saved);
#endif
}
