/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the general kernel's part of a launch plan (internal to
 * kernels/, C++ only).  cf-filter.cu picks and launches it, cf-plan.cu
 * holds it beside the fast kernels' part. */
#ifndef CF_PLAN_H
#define CF_PLAN_H

#include "cf-launch.h"
#include "cf-device.cuh"

/* What the general kernels read, by value. */
struct CfFilterArgs
{
  CfDeviceFrame frame;
  CfKernelParams kp;
  CfArgWeights sep;             /* unless cf_weights_on_device */
  const int *dense;             /* device weights (cf_weights_on_device) */
};

struct CfGeneralPlan
{
  CfFilterArgs args;            /* frame and dense filled per frame */
  CfKernelPick < CfFilterArgs > pick;
  int rows;                     /* outputs a thread computes down a column */
  bool tiled;                   /* the tile in shared memory, else the long
                                 * kernel reading the frame directly */
};

/* Picks the general kernel for the spec on these channel jobs, whose
 * largest is max_w x max_h, on a device with `optin` bytes of shared
 * memory a block: the tiled kernel when its tile fits and the weights are
 * in the launch parameters, else the long one, which takes every size. */
cudaError_t cf_general_plan (CfGeneralPlan * g, const CfChannel * channels,
    int n, const CfKernelParams * kp, const CfSepWeights * sep, int optin,
    int max_w, int max_h);
cudaError_t cf_general_run (const CfGeneralPlan * g,
    const CfDeviceFrame * frame, const int *dense, cudaStream_t stream);

#endif /* CF_PLAN_H */
