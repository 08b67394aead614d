/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: filters of 16-bit words (GRAY16, RGBA64, P010, I420_10 ...)
 * with exact fp64 sums (cf-wide.cu).  Internal to the kernels; the engine
 * sees only the launch plan of cf-launch.h. */
#ifndef CF_WIDE_H
#define CF_WIDE_H

#include "cf-launch.h"
#include "cf-device.cuh"

/* Integers below 2^53 are exact in fp64: the bound both kernels' plans
 * hold their fp64 sums to. */
#define CF_WIDE_EXACT 9007199254740992.0

/* 16-bit words a pixel a job may interleave: 1, 2 or 4. */
#define CF_WIDE_STEPS 4

/* A job: a plane of 16-bit words, `step` of them a pixel, each the sample
 * of one channel (lane) that is filtered, copied or filled. */
struct CfWideJob
{
  const unsigned char *src;
  unsigned char *dst;
  long long ss, ds;
  int width, height;            /* words of a row (pixels x step), rows */
  int log2_step;                /* 0, 1 or 2 */
  int shift;                    /* lowest bit of the sample in its word */
  unsigned mask;                /* the sample's bits, before the shift */
  unsigned char mode[CF_WIDE_STEPS];    /* CfChannelMode of each lane */
  int fill[CF_WIDE_STEPS];
};

struct CfWideArgs
{
  CfWideJob job[CF_MAX_CHANNELS];
  CfKernelParams kp;
  CfArgWeights sep;             /* separable specs */
  const int *dense;             /* device weights, kh x kw, dense specs */
  int vec;                      /* every source plane and row 8-byte aligned */
  int vec_out;                  /* every output plane and row too */
  /* The four-word kernel's separable sums (cf-wide-quad.cu): row sums
   * signed, and the op's scale 2^-shift and bias x scale. */
  int row_signed;
  double scale, bias_scaled;
  /* The direct kernel's fast path (cf-wide-direct.cu): every plane and
   * row 16-byte aligned, and the border value fits every job's bits. */
  int vec_direct;
};

struct CfWidePlan
{
  int n_jobs;
  int job_plane[CF_MAX_CHANNELS];
  bool border_fits;             /* the border value fits every job's bits */
  bool quad;                    /* the four-word kernel */
  bool direct;                  /* the direct kernel; neither: the wide one */
  CfWideArgs a;                 /* planes and dense filled per frame */
  CfKernelPick < CfWideArgs > pick;
};

/* Plans the wide kernel for 16-bit words (kp->sample_bytes 2) whose sums
 * fp64 holds exactly, on a device of `optin` bytes of shared memory a
 * block; cudaErrorNotSupported where it does not take the spec or the
 * layout (the general kernel does). */
cudaError_t cf_wide_plan (CfWidePlan * p, const CfChannel * channels, int n,
    const CfKernelParams * kp, const CfSepWeights * sep, int optin);
/* Plans the four-word kernel (cf-wide-quad.cu) for the jobs of `p`:
 * single linear kernels whose row sums hold in 32 bits and column sums in
 * fp64 (separable), or dense ones whose sums the spec bounds by 2^31;
 * cudaErrorNotSupported where it does not take them. */
cudaError_t cf_wide_quad_plan (CfWidePlan * p, const CfKernelParams * kp,
    const CfSepWeights * sep, int optin, int max_w, int max_h);
/* Plans the direct kernel (cf-wide-direct.cu) for the jobs of `p`: 3 x 3
 * linear kernels or absolute values at scale 1 and offset 0 whose sums the
 * spec bounds by 2^31, and separable linear ones whose row sums hold in
 * int32 and column sums in int64; cudaErrorNotSupported where it does not
 * take them. */
cudaError_t cf_wide_direct_plan (CfWidePlan * p, const CfKernelParams * kp,
    const CfSepWeights * sep, int max_w, int max_h);
/* The sum of the absolute values of n taps: with 65535, a bound of one
 * direction's sums. */
double cf_wide_abs_sum (const int *taps, int n);
/* Whether one frame's planes are aligned as the kernel reads them. */
bool cf_wide_fits (const CfWidePlan * p, const CfDeviceFrame * frame);
cudaError_t cf_wide_run (const CfWidePlan * p, const CfDeviceFrame * frame,
    const int *dense, cudaStream_t stream);

#endif /* CF_WIDE_H */
