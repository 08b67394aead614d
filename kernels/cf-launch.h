/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the launcher C ABI between the engine and the CUDA kernels.
 * Every launcher takes an explicit stream and returns a cudaError_t. */
#ifndef CF_LAUNCH_H
#define CF_LAUNCH_H

#include <cuda_runtime_api.h>
#include "cf-types.h"
#include "cf-region-types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Device pointers and pitches (bytes) of one frame's planes, and the
 * channel jobs: every job of the frame runs in one launch. */
typedef struct
{
  const unsigned char *src[CF_MAX_PLANES];
  long long src_stride[CF_MAX_PLANES];
  unsigned char *dst[CF_MAX_PLANES];
  long long dst_stride[CF_MAX_PLANES];
  int n_channels;
  CfChannel channels[CF_MAX_CHANNELS];
} CfDeviceFrame;

/* A launch plan: the kernel chosen for one spec on one set of channel
 * jobs on the current device, with its arguments prepared, so a frame
 * pays only for its plane pointers.  Made when the spec or the layout
 * changes, used from any stream of the device it was made on. */
typedef struct CfLaunchPlan CfLaunchPlan;

/* Chooses the kernel for `kp` and `sep` (when kp->separable) on the channel
 * jobs, querying the current device once.  cudaErrorInvalidValue for a spec
 * or layout no kernel takes. */
cudaError_t cf_launch_plan_new (const CfChannel * channels, int n_channels,
    const CfKernelParams * kp, const CfSepWeights * sep,
    CfLaunchPlan ** plan);
/* The same for a device with `optin` bytes of shared memory a block and
 * compute capability `major`, asking no device: what a plan chooses is
 * testable without one. */
cudaError_t cf_launch_plan_new_for (const CfChannel * channels,
    int n_channels, const CfKernelParams * kp, const CfSepWeights * sep,
    int optin, int major, CfLaunchPlan ** plan);
void cf_launch_plan_free (CfLaunchPlan * plan);
/* What the plan runs, for the log: "fast separable, 4-sample pixels (3
 * filtered), 5 taps, fp32 sums", ... */
const char *cf_launch_plan_name (const CfLaunchPlan * plan);

/* Filters every channel of `frame` (the plan's channel jobs) in one launch
 * on `stream`.  `dense` is the device weights when cf_weights_on_device:
 * kp->kh * kp->kw of them when !kp->separable, else a CfSepWeights. */
cudaError_t cf_launch_plan_run (const CfLaunchPlan * plan,
    const CfDeviceFrame * frame, const int *dense, cudaStream_t stream);

/* Filters rectangles of a frame in place (its src and dst planes the
 * same) in one launch: rects[i] in the samples of channel chan[i] (clipped
 * to it), each output what the whole frame's launch gives.  Every block
 * reads its tile before any block writes: they meet at `barrier`, a
 * device word zeroed once, whose count *arrivals follows (advanced on
 * success; keep one word and count per stream).  cudaErrorNotSupported,
 * with nothing queued, where the plan cannot: only 8-bit specs with linear
 * fp32 sums of up to 13 taps do (the fast kernels' regions instance: no
 * weights on the device), up to
 * CF_FAST_REGIONS rectangles and as many tiles as the device runs at
 * once. */
cudaError_t cf_launch_plan_run_inplace (const CfLaunchPlan * plan,
    const CfDeviceFrame * frame, const int *chan, const CfRect * rects,
    int n_rects, unsigned *barrier, unsigned *arrivals, cudaStream_t stream);

/* Plans, runs and frees: for one-off launches (tests). */
cudaError_t cf_launch_filter (const CfDeviceFrame * frame,
    const CfKernelParams * kp, const CfSepWeights * sep, const int *dense,
    cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif /* CF_LAUNCH_H */
