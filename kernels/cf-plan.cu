/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: launch plans.  Which kernel runs a spec on a layout is
 * decided here once, when either changes: the tensor-core kernels where the
 * device and the taps allow, else the fast 8-bit kernels where the layout
 * and the taps allow, else for 16-bit words the four-word kernel (single
 * linear kernels within its bounds) or the wide kernel where fp64 holds
 * the sums, else the general kernel; the device is queried once,
 * and the arguments are prepared then.  A frame only fills in its planes
 * and launches.  The general kernel is planned beside a fast or wide one
 * for frames whose planes are not aligned as that kernel reads them. */

#include <stdio.h>
#include <new>
#include <cuda_runtime.h>

#include "cf-launch.h"
#include "cf-fast.h"
#include "cf-wide.h"
#include "cf-plan.h"

struct CfLaunchPlan
{
  bool empty;                   /* no channel job has samples */
  bool dense;                   /* needs the device weights */
  bool fast;                    /* f is the plan, g the fallback */
  CfFastPlan f;
  bool wide;                    /* w is the plan, g the fallback */
  CfWidePlan w;
  CfGeneralPlan g;
  cudaError_t g_err;            /* why g cannot run, if it cannot */
  char name[160];
};

namespace
{

void
describe_fast (const CfLaunchPlan * plan, const CfKernelParams * kp,
    char *buf, size_t size)
{
  const CfFastPlan & f = plan->f;
  char where[96];
  int K = (kp->kw > kp->kh ? kp->kw : kp->kh) | 1;

  int interleaved = 0, step = 1;

  for (int j = 0; j < f.n_jobs; j++)
    if (f.job_step[j] > 1) {
      interleaved++;
      step = f.job_step[j];
    }
  if (f.ch == 4)
    snprintf (where, sizeof where, "4-sample pixels (%d filtered)", f.nf);
  else if (step == CF_MMA_PACKED_422)
    snprintf (where, sizeof where, "%d plane%s of bytes, packed 4:2:2",
        f.n_jobs, f.n_jobs == 1 ? "" : "s");
  else if (interleaved)
    snprintf (where, sizeof where, "%d plane%s of bytes, %d of %d-sample "
        "pixels", f.n_jobs, f.n_jobs == 1 ? "" : "s", interleaved, step);
  else
    snprintf (where, sizeof where, "%d single-sample plane%s", f.n_jobs,
        f.n_jobs == 1 ? "" : "s");
  if (f.direct)
    snprintf (buf, size, "direct %dx%d, %s, byte %s (dp4a)", K, K, where,
        kp->separable ? "products of the separable taps" : "taps");
  else if (f.mma && kp->separable)
    snprintf (buf, size, "tensor-core separable, %s, %d taps", where, K);
  else if (f.mma)
    snprintf (buf, size, "tensor-core dense, %s, %dx%d taps", where, K, K);
  else if (kp->separable)
    snprintf (buf, size, "fast separable, %s, %d taps, %s sums%s", where, K,
        f.use_float ? "fp32" : "int32",
        kp->n_kernels == 2 ? ", gradient pair" : "");
  else
    snprintf (buf, size, "fast dense, %s, %dx%d taps%s", where, K, K,
        kp->dense_taps_s8 && K <= 5 ? ", byte taps (dp4a)" : ", int32");
}

void
describe_wide (const CfLaunchPlan * plan, const CfKernelParams * kp,
    char *buf, size_t size)
{
  const CfWidePlan & w = plan->w;
  int interleaved = 0, words = 1;
  char where[96];

  for (int j = 0; j < w.n_jobs; j++)
    if (w.a.job[j].log2_step > 0) {
      interleaved++;
      words = 1 << w.a.job[j].log2_step;
    }
  if (interleaved)
    snprintf (where, sizeof where, "%d plane%s of 16-bit words, %d of "
        "%d-word pixels", w.n_jobs, w.n_jobs == 1 ? "" : "s", interleaved,
        words);
  else
    snprintf (where, sizeof where, "%d plane%s of 16-bit words", w.n_jobs,
        w.n_jobs == 1 ? "" : "s");
  if (w.direct)
    snprintf (buf, size, "direct 3x3, %s, %s", where, kp->wide_acc ?
        "int32 row sums, int64 column sums" : "int32 sums");
  else if (w.quad && kp->separable)
    snprintf (buf, size, "four-word separable, %s, %dx%d taps, 32-bit row "
        "sums, fp64 column sums", where, kp->kw, kp->kh);
  else if (w.quad)
    snprintf (buf, size, "four-word dense, %s, %dx%d taps, int32 sums", where,
        kp->kw, kp->kh);
  else if (kp->separable)
    snprintf (buf, size, "wide separable, %s, %dx%d taps, fp64 sums%s", where,
        kp->kw, kp->kh, kp->n_kernels == 2 ? ", gradient pair" : "");
  else
    snprintf (buf, size, "wide dense, %s, %dx%d taps, fp64 sums", where,
        kp->kw, kp->kh);
}

void
describe_general (const CfLaunchPlan * plan, const CfKernelParams * kp,
    char *buf, size_t size)
{
  snprintf (buf, size, "general %s%s, %d-bit samples, %s sums, %d row%s a "
      "thread", plan->g.tiled ? "" : "long ",
      kp->separable ? "separable" : "dense",
      8 * kp->sample_bytes, kp->wide_acc ? "64-bit" : "32-bit",
      plan->g.rows, plan->g.rows == 1 ? "" : "s");
}

cudaError_t
plan_init (CfLaunchPlan * plan, const CfChannel * channels, int n,
    const CfKernelParams * kp, const CfSepWeights * sep, int optin,
    int major)
{
  int max_w = 0, max_h = 0;

  if (n > CF_MAX_CHANNELS || kp->kw < 1 || kp->kh < 1 ||
      kp->kw > CF_MAX_TAPS || kp->kh > CF_MAX_TAPS ||
      (kp->separable && (kp->n_kernels < 1 || kp->n_kernels > 2)) ||
      (!kp->separable && kp->n_kernels != 1) ||
      (kp->sample_bytes != 1 && kp->sample_bytes != 2))
    return cudaErrorInvalidValue;
  for (int i = 0; i < n; i++) {
    const int wb = channels[i].word_bytes;

    if (channels[i].plane < 0 || channels[i].plane >= CF_MAX_PLANES ||
        (wb != 1 && wb != 2 && wb != 4))
      return cudaErrorInvalidValue;
    if (channels[i].width > max_w)
      max_w = channels[i].width;
    if (channels[i].height > max_h)
      max_h = channels[i].height;
  }
  plan->dense = cf_weights_on_device (kp);
  if (n <= 0 || max_w <= 0 || max_h <= 0) {
    plan->empty = true;
    snprintf (plan->name, sizeof plan->name, "nothing to filter");
    return cudaSuccess;
  }

  plan->fast = cf_fast_plan (&plan->f, channels, n, kp, sep, major) ==
      cudaSuccess;
  plan->g_err = cf_general_plan (&plan->g, channels, n, kp, sep, optin,
      max_w, max_h);
  if (plan->fast) {
    describe_fast (plan, kp, plan->name, sizeof plan->name);
    return cudaSuccess;
  }
  plan->wide = cf_wide_plan (&plan->w, channels, n, kp, sep, optin) ==
      cudaSuccess;
  if (plan->wide) {
    describe_wide (plan, kp, plan->name, sizeof plan->name);
    return cudaSuccess;
  }
  if (plan->g_err != cudaSuccess)
    return plan->g_err;
  describe_general (plan, kp, plan->name, sizeof plan->name);
  return cudaSuccess;
}

}                               /* namespace */

extern "C" cudaError_t
cf_launch_plan_new_for (const CfChannel * channels, int n_channels,
    const CfKernelParams * kp, const CfSepWeights * sep, int optin,
    int major, CfLaunchPlan ** plan)
{
  CfLaunchPlan *p = new (std::nothrow) CfLaunchPlan ();
  cudaError_t err;

  *plan = NULL;
  if (p == NULL)
    return cudaErrorMemoryAllocation;
  err = plan_init (p, channels, n_channels, kp, sep, optin, major);
  if (err != cudaSuccess) {
    delete p;
    return err;
  }
  *plan = p;
  return cudaSuccess;
}

extern "C" cudaError_t
cf_launch_plan_new (const CfChannel * channels, int n_channels,
    const CfKernelParams * kp, const CfSepWeights * sep,
    CfLaunchPlan ** plan)
{
  int device, optin = 0, major = 0;
  cudaError_t err;

  *plan = NULL;
  if ((err = cudaGetDevice (&device)) != cudaSuccess ||
      (err = cudaDeviceGetAttribute (&optin,
              cudaDevAttrMaxSharedMemoryPerBlockOptin, device)) != cudaSuccess
      || (err = cudaDeviceGetAttribute (&major,
              cudaDevAttrComputeCapabilityMajor, device)) != cudaSuccess)
    return err;
  return cf_launch_plan_new_for (channels, n_channels, kp, sep, optin, major,
      plan);
}

extern "C" void
cf_launch_plan_free (CfLaunchPlan * plan)
{
  delete plan;
}

extern "C" const char *
cf_launch_plan_name (const CfLaunchPlan * plan)
{
  return plan ? plan->name : "none";
}

extern "C" cudaError_t
cf_launch_plan_run (const CfLaunchPlan * plan, const CfDeviceFrame * frame,
    const int *dense, cudaStream_t stream)
{
  if (plan->empty)
    return cudaSuccess;
  if (plan->dense && dense == NULL)
    return cudaErrorInvalidValue;
  if (plan->fast && cf_fast_fits (&plan->f, frame))
    return cf_fast_run (&plan->f, frame, dense, stream);
  if (plan->wide && cf_wide_fits (&plan->w, frame))
    return cf_wide_run (&plan->w, frame, dense, stream);
  if (plan->g_err != cudaSuccess)
    return plan->g_err;
  return cf_general_run (&plan->g, frame, dense, stream);
}

extern "C" cudaError_t
cf_launch_plan_run_inplace (const CfLaunchPlan * plan,
    const CfDeviceFrame * frame, const int *chan, const CfRect * rects,
    int n_rects, unsigned *barrier, unsigned *arrivals, cudaStream_t stream)
{
  if (plan->empty || !plan->fast)
    return cudaErrorNotSupported;
  return cf_fast_run_inplace (&plan->f, frame, chan, rects, n_rects, barrier,
      arrivals, stream);
}

extern "C" cudaError_t
cf_launch_filter (const CfDeviceFrame * frame, const CfKernelParams * kp,
    const CfSepWeights * sep, const int *dense, cudaStream_t stream)
{
  CfLaunchPlan *plan;
  cudaError_t err;

  if (frame->n_channels <= 0)
    return cudaSuccess;
  err = cf_launch_plan_new (frame->channels, frame->n_channels, kp, sep,
      &plan);
  if (err != cudaSuccess)
    return err;
  err = cf_launch_plan_run (plan, frame, dense, stream);
  cf_launch_plan_free (plan);
  return err;
}
