/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: fast paths for 8-bit frames, planned before the general
 * kernel.  Internal to the kernels; the engine sees only the launch plan
 * of cf-launch.h. */
#ifndef CF_FAST_H
#define CF_FAST_H

#include "cf-launch.h"
#include "cf-fast-args.h"
#include "cf-region-types.h"

/* Picks a fast kernel (tensor cores first, on compute capability `major`
 * 8 and newer) for the spec on these channel jobs; cudaErrorNotSupported
 * when none takes them.  Reads no plane pointer. */
cudaError_t cf_fast_plan (CfFastPlan * p, const CfChannel * channels, int n,
    const CfKernelParams * kp, const CfSepWeights * sep, int major);
/* Whether one frame's planes are aligned as the picked kernel reads them. */
bool cf_fast_fits (const CfFastPlan * p, const CfDeviceFrame * frame);
/* Launches the picked kernel on one frame; `dense` as cf_launch_plan_run. */
cudaError_t cf_fast_run (const CfFastPlan * p, const CfDeviceFrame * frame,
    const int *dense, cudaStream_t stream);
/* Filters rectangles in place in one launch: cf_launch_plan_run_inplace. */
cudaError_t cf_fast_run_inplace (const CfFastPlan * p,
    const CfDeviceFrame * frame, const int *chan, const CfRect * rects,
    int n_rects, unsigned *barrier, unsigned *arrivals, cudaStream_t stream);

#endif /* CF_FAST_H */
