/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: a failed CUDA call as a GError a user can act on
 * (CUDA builds only). */
#ifndef CF_CUDA_CHECK_H
#define CF_CUDA_CHECK_H

#include <glib.h>
#include <cuda_runtime_api.h>

G_BEGIN_DECLS

/* TRUE when err is cudaSuccess; otherwise sets `error` (CF_ERROR_DEVICE)
 * naming `call` and the CUDA error, and returns FALSE. */
gboolean cf_cuda_check (cudaError_t err, const char *call, GError ** error);

G_END_DECLS
#endif /* CF_CUDA_CHECK_H */
