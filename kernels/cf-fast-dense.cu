/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the fast dense kernels, every layout (cf-fast-instances.h). */
#include "cf-fast-kernels.cuh"
#include "cf-fast-instances.h"

cudaError_t
cf_fast_pick_dense (int ch, int nf, int K, bool taps_s8, const CfFastArgs & a,
    int n_jobs, int w, int h, CfKernelPick < CfFastArgs > &pick)
{
  if (ch == 1)
    return dense_dispatch < 1, 1 > (K, taps_s8, a, n_jobs, w, h, pick);
  if (nf == 3)
    return dense_dispatch < 4, 3 > (K, taps_s8, a, n_jobs, w, h, pick);
  return dense_dispatch < 4, 4 > (K, taps_s8, a, n_jobs, w, h, pick);
}
