/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: a failed CUDA call as a GError. */
#include "config.h"

#include "cf-cuda-check.h"
#include "cf-error.h"

gboolean
cf_cuda_check (cudaError_t err, const char *call, GError ** error)
{
  if (err == cudaSuccess)
    return TRUE;
  g_set_error (error, CF_ERROR, CF_ERROR_DEVICE, "CUDA call %s failed: %s (%s)",
      call, cudaGetErrorString (err), cudaGetErrorName (err));
  return FALSE;
}
