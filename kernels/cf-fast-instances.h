/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the instances of the fast FMA kernels (cf-fast-kernels.cuh),
 * a translation unit a group so that ninja compiles them in parallel:
 * separable specs of single-sample planes (cf-fast-sep-1.cu), of 4-sample
 * pixels with 3 or 4 filtered lanes (cf-fast-sep-4-3.cu, cf-fast-sep-4-4.cu)
 * and every dense one (cf-fast-dense.cu).  Each picks the kernel for K taps
 * into `pick`, or returns cudaErrorNotSupported. */
#ifndef CF_FAST_INSTANCES_H
#define CF_FAST_INSTANCES_H

#include <cuda_runtime.h>
#include "cf-fast-args.h"

/* nk kernels (2: a gradient pair), fp32 sums when use_float. */
cudaError_t cf_fast_pick_sep_1 (int K, int nk, bool use_float,
    const CfFastArgs & a, int n_jobs, int w, int h,
    CfKernelPick < CfFastArgs > &pick);
cudaError_t cf_fast_pick_sep_4_3 (int K, int nk, bool use_float,
    const CfFastArgs & a, int n_jobs, int w, int h,
    CfKernelPick < CfFastArgs > &pick);
cudaError_t cf_fast_pick_sep_4_4 (int K, int nk, bool use_float,
    const CfFastArgs & a, int n_jobs, int w, int h,
    CfKernelPick < CfFastArgs > &pick);
/* The regions-in-place instance for the same specs (sep_kernel's REGION;
 * cudaErrorNotSupported for specs it does not take). */
cudaError_t cf_fast_pick_region_1 (int K, int nk, bool use_float,
    const CfFastArgs & a, CfKernelPick < CfFastRegionArgs > &pick);
cudaError_t cf_fast_pick_region_4_3 (int K, int nk, bool use_float,
    const CfFastArgs & a, CfKernelPick < CfFastRegionArgs > &pick);
cudaError_t cf_fast_pick_region_4_4 (int K, int nk, bool use_float,
    const CfFastArgs & a, CfKernelPick < CfFastRegionArgs > &pick);
/* ch samples a pixel, nf of them filtered; byte taps (dp4a) when
 * taps_s8. */
cudaError_t cf_fast_pick_dense (int ch, int nf, int K, bool taps_s8,
    const CfFastArgs & a, int n_jobs, int w, int h,
    CfKernelPick < CfFastArgs > &pick);
/* 3 x 3 (K) byte taps (taps_s8) on planes of bytes without a tile
 * (cf-fast-direct.cu): a.step[] samples a pixel in each job (1 to 3),
 * max_step the largest; the dense weights, or the products of the
 * separable taps in a when a.sep_products. */
cudaError_t cf_fast_pick_direct (int K, int max_step, bool taps_s8,
    const CfFastArgs & a, int n_jobs, int w, int h,
    CfKernelPick < CfFastArgs > &pick);

#endif /* CF_FAST_INSTANCES_H */
