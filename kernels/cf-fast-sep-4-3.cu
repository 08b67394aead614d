/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the fast separable kernels for 4-sample pixels with 3 filtered
 * lanes (cf-fast-instances.h). */
#include "cf-fast-kernels.cuh"
#include "cf-fast-instances.h"

cudaError_t
cf_fast_pick_sep_4_3 (int K, int nk, bool use_float, const CfFastArgs & a,
    int n_jobs, int w, int h, CfKernelPick < CfFastArgs > &pick)
{
  return sep_dispatch < 4, 3 > (K, nk, use_float, a, n_jobs, w, h, pick);
}

cudaError_t
cf_fast_pick_region_4_3 (int K, int nk, bool use_float, const CfFastArgs & a,
    CfKernelPick < CfFastRegionArgs > &pick)
{
  return region_dispatch < 4, 3 > (K, nk, use_float, a, pick);
}
