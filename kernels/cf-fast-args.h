/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: a frame and a separable or dense spec as the fast 8-bit
 * kernels see them (internal to kernels/, C++ only).  cf-fast.cu fills them
 * when a plan is made; the kernels of cf-fast-kernels.cuh and cf-mma.cu
 * read them by value. */
#ifndef CF_FAST_ARGS_H
#define CF_FAST_ARGS_H

#include <cuda_runtime.h>
#include "cf-types.h"
#include "cf-device.cuh"

#define CF_FAST_JOBS CF_MAX_CHANNELS
/* Rectangles one in-place launch takes (cf_fast_run_inplace). */
#define CF_FAST_REGIONS 16

/* A tile of the FMA kernels, in pixels: 64 x 32 for 4-sample pixels (16
 * rows for gradient pairs, whose two sets of horizontal sums otherwise
 * limit the blocks an SM holds), 128 x 32 for single samples; 16 or 64
 * rows measured slower for every other kernel (bench/README.md, "Gradient
 * magnitudes, and what was measured and not kept"). */
__host__ __device__ constexpr int
cf_fast_tile_w (int ch)
{
  return ch == 4 ? 64 : 128;
}

__host__ __device__ constexpr int
cf_fast_tile_h (int ch, int nk)
{
  return ch == 4 && nk == 2 ? 16 : 32;
}

/* A rectangle of job `job`'s samples filtered in place, and its tiles:
 * blocks first .. first + tiles_x * tiles_y - 1, row by row. */
struct CfFastRegion
{
  int job, x, y, w, h;
  int tiles_x, first;
};

struct CfFastArgs
{
  const unsigned char *src[CF_FAST_JOBS];
  unsigned char *dst[CF_FAST_JOBS];
  long long ss[CF_FAST_JOBS], ds[CF_FAST_JOBS];
  int width[CF_FAST_JOBS], height[CF_FAST_JOBS];
  int lane[4];                  /* 4-sample pixels: byte of each filtered one */
  unsigned keep;                /* bytes copied from the source pixel */
  unsigned fill;                /* constant bytes */
  /* separable taps centred in K (odd), divided by their common factors for
   * linear ops: [kernel][0 row, 1 column][tap] */
  float fw[2][2][CF_ARG_TAPS + 1];
  int iw[2][2][CF_ARG_TAPS + 1];
  const int *dense;             /* device, kh x kw */
  int kw, kh, ax, ay;
  int op, shift, bias, gain, maxval, border, border_value;
  float scale, offset, amount;
  /* 0: the whole frame, a block a tile of grid (x, y, job).  Else the
   * grid's blocks are these rectangles' tiles, filtered in place: each
   * block adds one to *barrier once it has read its tile, and writes only
   * once *barrier reaches barrier_target, so no block reads a sample
   * another has written (the launch is cooperative: every block runs at
   * once). */
  int n_regions;
  CfFastRegion region[CF_FAST_REGIONS];
  unsigned *barrier;
  unsigned barrier_target;
};

/* What the tensor-core kernels (cf-mma.cu) read. */
struct CfMmaArgs
{
  const unsigned char *src[CF_FAST_JOBS];
  unsigned char *dst[CF_FAST_JOBS];
  long long ss[CF_FAST_JOBS], ds[CF_FAST_JOBS];
  int width[CF_FAST_JOBS], height[CF_FAST_JOBS];
  int lane[4];
  unsigned keep, fill;
  unsigned filtered;            /* byte lanes of lane[] as a bit mask */
  int K;
  int off;                      /* (-K / 2) mod 4: see load_planes */
  unsigned flags;               /* SRC_WORDS, SRC_VEC, DST_VEC */
  int op, shift, bias, gain, maxval, border, border_value;
  float scale, offset, amount;
  int hbias[2];                 /* added to horizontal sums: >= 0 */
  int hconst[2];                /* hbias * sum of the column taps */
  /* Taps as bytes: word w of [kernel][0 row, 1 column] holds the taps
   * t[4 w - 16 - off .. + 3] (zero outside the kernel; off is 0 for
   * columns).  Lanes read different words, which constant memory would
   * serialise, so the kernel copies them to shared memory first. */
  unsigned taps[2][2][32];
};

/* The fast kernels' part of a launch plan: the arguments of everything
 * but the planes, and the kernel picked for them. */
struct CfFastPlan
{
  int ch;                       /* 4: one plane of 4-sample pixels, 1: planes */
  int nf;                       /* filtered samples of a pixel */
  int n_jobs, max_w, max_h;
  int job_plane[CF_FAST_JOBS], job_offset[CF_FAST_JOBS];
  int job_channel[CF_FAST_JOBS];        /* a channel of each job */
  CfFastArgs a;
  bool use_float;               /* separable sums in fp32 (exact here) */
  CfKernelPick < CfFastArgs > fast;
  /* Regions in place (cf_fast_run_inplace): region's kernel and the
   * blocks of it the device runs at once (0: none). */
  CfKernelPick < CfFastArgs > region;
  int resident;
  bool mma;                     /* tensor cores: m and mma_kernel instead */
  CfMmaArgs m;
  CfKernelPick < CfMmaArgs > mma_kernel;
};

/* Separable filters on tensor cores (sm_80 and newer): picks the kernel
 * for p->a into p->m and p->mma_kernel, or returns cudaErrorNotSupported
 * when the device (compute capability `major`) or the taps do not fit.
 * p->ch is 1 (planes of single samples, n_jobs of them) or 4 (one plane of
 * 4-sample pixels, nf of them filtered); K is the odd tap count the taps in
 * p->a are centred in, nk the kernels (2 for a gradient magnitude). */
cudaError_t cf_mma_plan (CfFastPlan * p, int major, int nk, int K);
/* Launches the picked kernel on the planes `a` (per frame) names. */
cudaError_t cf_mma_run (const CfFastPlan * p, const CfFastArgs & a,
    cudaStream_t stream);

#endif /* CF_FAST_ARGS_H */
