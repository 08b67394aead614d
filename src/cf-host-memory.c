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
cf_host_alloc (gsize size, gboolean * pinned)
{
  gpointer data = NULL;

  *pinned = FALSE;
#ifdef HAVE_CUDA
  /* Portable: usable from every device and context in the process. */
  if (cuda_usable () && cudaHostAlloc (&data, MAX (size, 1),
          cudaHostAllocPortable) == cudaSuccess) {
    *pinned = TRUE;
    return data;
  }
  cudaGetLastError ();
#endif
  if (posix_memalign (&data, CF_HOST_ALIGN, MAX (size, 1)) != 0)
    return NULL;
  return data;
}

void
cf_host_free (gpointer data, gboolean pinned)
{
  if (data == NULL)
    return;
#ifdef HAVE_CUDA
  if (pinned) {
    cudaFreeHost (data);
    return;
  }
#endif
  free (data);
}

gboolean
cf_host_register (gpointer data, gsize size)
{
#ifdef HAVE_CUDA
  struct cudaPointerAttributes attr;

  if (!cuda_usable ())
    return FALSE;
  /* Memory that is pinned already (cudaHostAlloc'd, or registered by its
   * owner) cannot be registered again: leave it, without an API error. */
  if (cudaPointerGetAttributes (&attr, data) == cudaSuccess
      && attr.type != cudaMemoryTypeUnregistered)
    return FALSE;
  if (cudaHostRegister (data, size, cudaHostRegisterPortable) == cudaSuccess)
    return TRUE;
  cudaGetLastError ();
#endif
  return FALSE;
}

void
cf_host_unregister (gpointer data)
{
#ifdef HAVE_CUDA
  if (cudaHostUnregister (data) != cudaSuccess)
    cudaGetLastError ();
#endif
}
