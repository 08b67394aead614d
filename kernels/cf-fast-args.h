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
  /* The direct kernel (cf-fast-direct.cu): samples a pixel interleaved in
   * each job (1 to 3, all filtered; taps spread that far apart), and
   * whether its taps are the products of the separable ones in iw. */
  int step[CF_FAST_JOBS];
  bool sep_products;
};

/* The taps of the regions-in-place instances (one kernel, up to 13). */
#define CF_REGION_TAPS 13

/* The parameters of the regions-in-place instances (cf_fast_run_inplace):
 * what they read of CfFastArgs, under the same names, in 960 bytes
 * instead of 2960 (fewer constant-bank lines for each block to fetch).
 * A launch over a small region is mostly fixed costs: on an H200 this
 * took RGBA Gaussian 13, 5 % in place, from 12.0 to 11.6 us and eight
 * small regions from 12.5 to 9.6 us (bench/README.md). */
struct CfFastRegionArgs
{
  const unsigned char *src[CF_FAST_JOBS];
  unsigned char *dst[CF_FAST_JOBS];
  long long ss[CF_FAST_JOBS], ds[CF_FAST_JOBS];
  int width[CF_FAST_JOBS], height[CF_FAST_JOBS];
  int lane[4];
  unsigned keep, fill;
  float fw[1][2][CF_REGION_TAPS];
  int op, shift, bias, gain, maxval, border, border_value;
  float scale, offset, amount;
  /* The grid's blocks are these rectangles' tiles, filtered in place: each
   * block adds one to *barrier once it has read its tile, and writes only
   * once *barrier reaches barrier_target, so no block reads a sample
   * another has written (the launch is cooperative: every block runs at
   * once). */
  int n_regions;
  CfFastRegion region[CF_FAST_REGIONS];
  unsigned *barrier;
  unsigned barrier_target;
};

/* The output op and border fields, which every launch's parameters
 * (CfFastArgs, CfFastRegionArgs, CfMmaArgs) carry under the same names. */
template < class To, class From > inline void
cf_fast_copy_op (To & to, const From & from)
{
  to.op = from.op;
  to.shift = from.shift;
  to.bias = from.bias;
  to.gain = from.gain;
  to.maxval = from.maxval;
  to.border = from.border;
  to.border_value = from.border_value;
  to.scale = from.scale;
  to.offset = from.offset;
  to.amount = from.amount;
}

/* Samples a pixel the tensor-core kernels take interleaved in one job
 * (NV12's chroma pairs: 2, RGB: 3), and the step that stands for packed
 * 4:2:2 (YUY2, UYVY: luma 2 bytes apart, each chroma 4). */
#define CF_MMA_STEPS 3
#define CF_MMA_PACKED_422 4
/* Row tap tables of a launch: one a step, four (a byte's place in the
 * macro-pixel) for packed 4:2:2. */
#define CF_MMA_TAP_SETS 8

/* Packed 4:2:2: bytes between neighbours of the channel the byte at
 * `place` (0-3) of a macro-pixel belongs to, whose luma starts at
 * luma_off (0 or 1): 2 for luma, 4 for chroma. */
__host__ __device__ constexpr int
cf_packed_422_distance (int place, int luma_off)
{
  return ((place - luma_off) & 1) ? 4 : 2;
}

/* What the tensor-core kernels (cf-mma.cu) read.  A job is a plane of
 * bytes: single samples, or `step` samples a pixel interleaved, all
 * filtered, whose row correlation is the byte row's with the taps spread
 * `step` apart (zeros between); the columns are the same either way.
 * Packed 4:2:2 spreads a byte's taps by its channel's distance (2 for
 * luma, 4 for chroma), so its table depends on the byte's place in the
 * 4-byte macro-pixel. */
struct CfMmaArgs
{
  const unsigned char *src[CF_FAST_JOBS];
  unsigned char *dst[CF_FAST_JOBS];
  long long ss[CF_FAST_JOBS], ds[CF_FAST_JOBS];
  int width[CF_FAST_JOBS], height[CF_FAST_JOBS];       /* in bytes, rows */
  int step[CF_FAST_JOBS];       /* 1 .. CF_MMA_STEPS, or CF_MMA_PACKED_422;
                                 * 1 for 4-sample pixels */
  int luma_off[CF_FAST_JOBS];   /* packed 4:2:2: the first luma byte, 0 or 1 */
  int lane[4];
  unsigned keep, fill;
  unsigned filtered;            /* byte lanes of lane[] as a bit mask */
  int ky;                       /* column taps (odd), centred */
  /* A job's row reach: kx columns (odd), centred; off is (-kx / 2) mod 4
   * (see load_planes); its row taps are row_taps[taps_set] (and the next
   * three for packed 4:2:2). */
  int kx[CF_FAST_JOBS], off[CF_FAST_JOBS], taps_set[CF_FAST_JOBS];
  unsigned flags;               /* SRC_WORDS, SRC_VEC, DST_VEC */
  int op, shift, bias, gain, maxval, border, border_value;
  float scale, offset, amount;
  int hbias;                    /* added to horizontal sums: >= 0 */
  int hconst;                   /* hbias * sum of the column taps */
  /* Taps as bytes: word w of a row's holds the taps t[4 w - 16 - off ..
   * + 3] (zero outside the kernel), the columns' the same with off 0.
   * Lanes read different words, which constant memory would serialise,
   * so the kernel copies its job's to shared memory first. */
  unsigned row_taps[CF_MMA_TAP_SETS][32];
  unsigned col_taps[32];
  /* Dense kernels: the device weights, kh x kw, anchored at (ax, ay). */
  const int *dense;
  int kw, kh, ax, ay;
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
  /* Samples a pixel interleaved in each job's plane (1: single samples;
   * CF_MMA_PACKED_422: YUY2's and UYVY's); above 1, only the tensor-core
   * kernels take the plan. */
  int job_step[CF_FAST_JOBS];
  int job_luma_off[CF_FAST_JOBS];       /* CF_MMA_PACKED_422: first luma byte */
  CfFastArgs a;
  bool use_float;               /* separable sums in fp32 (exact here) */
  CfKernelPick < CfFastArgs > fast;
  /* Regions in place (cf_fast_run_inplace): region's kernel and the
   * blocks of it the device runs at once (0: none). */
  CfKernelPick < CfFastRegionArgs > region;
  int resident;
  bool direct;                  /* fast is the direct kernel (cf-fast-direct.cu) */
  bool mma;                     /* tensor cores: m and mma_kernel instead */
  CfMmaArgs m;
  CfKernelPick < CfMmaArgs > mma_kernel;
};

/* Separable filters on tensor cores (sm_80 and newer): picks the kernel
 * for p->a into p->m and p->mma_kernel, or returns cudaErrorNotSupported
 * when the device (compute capability `major`) or the taps do not fit.
 * p->ch is 1 (planes of bytes, n_jobs of them, p->job_step[] samples a
 * pixel interleaved in each) or 4 (one plane of 4-sample pixels, nf of
 * them filtered); K is the odd tap count the taps in
 * p->a are centred in, nk the kernels (2 for a gradient magnitude). */
cudaError_t cf_mma_plan (CfFastPlan * p, int major, int nk, int K);
/* The same for a dense K x K spec (K 3 or 5) of signed byte taps
 * (taps_s8) on planes of bytes (p->ch 1), whose weights each launch reads
 * from the device. */
cudaError_t cf_mma_dense_plan (CfFastPlan * p, int major, int K,
    bool taps_s8);
/* Launches the picked kernel on the planes `a` (per frame) names. */
cudaError_t cf_mma_run (const CfFastPlan * p, const CfFastArgs & a,
    cudaStream_t stream);

#endif /* CF_FAST_ARGS_H */
