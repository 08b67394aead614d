/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter-region-floor: what a region filtered in place in one launch
 * cannot cost less than on this GPU, beside which the region kernels'
 * figures of cudafilter-bench --regions are read (bench/README.md,
 * "Regions: what 5 % of a frame costs").
 *
 * It times, between two events on one stream, launches that do no
 * arithmetic: an empty kernel, an empty cooperative launch of the region's
 * blocks, and a copy of the region onto itself in the region kernels'
 * shape (4K RGBA, 64x32 tiles with the 6-pixel reach of 13 taps, every
 * load of a thread in flight, then a grid-wide count of blocks that have
 * read before any block writes) with and without that count, and the
 * empty cooperative launch with the region kernels' parameters and with
 * the whole frames'.  Each is timed twice: on an idle GPU (the host's
 * time to queue the launch counts, as in a frame that waits for its
 * result) and held (the stream first spins for 100 us on the GPU, so
 * every command is queued when the events run: the GPU's own time, as
 * cudafilter-bench's held figures). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <cuda_runtime.h>

#include "cf-fast-args.h"

#define CHECK(call) do { \
    cudaError_t err_ = (call); \
    if (err_ != cudaSuccess) { \
      fprintf (stderr, "cudafilter-region-floor: %s failed: %s\n", #call, \
          cudaGetErrorString (err_)); \
      exit (1); \
    } \
  } while (0)

namespace
{

constexpr int FRAME_W = 3840, FRAME_H = 2160;
constexpr int TILE_W = 64, TILE_H = 32, REACH = 6, THREADS = 256;
constexpr int RAW_W = TILE_W + 2 * REACH, RAW_H = TILE_H + 2 * REACH;
constexpr int RAW = RAW_W * RAW_H;
constexpr int LOADS = (RAW + THREADS - 1) / THREADS;
constexpr int ITERATIONS = 50, WARMUP = 10;

__global__ void
spin (unsigned long long ns)
{
  unsigned long long start, now;

  asm volatile ("mov.u64 %0, %%globaltimer;":"=l" (start));
  do
    asm volatile ("mov.u64 %0, %%globaltimer;":"=l" (now));
  while (now - start < ns);
}

__global__ void
empty (void)
{
}

/* Parameters of P's size, which the launch copies: the regions' own
 * (CfFastRegionArgs) and the whole frames' (CfFastArgs), which the
 * regions took before. */
template < class P > __global__ void
empty_with_parameters (const __grid_constant__ P p)
{
}

struct CopyArgs
{
  unsigned *frame;              /* RGBA pixels, FRAME_W a row */
  int x0, y0, tiles_x;          /* the region's first pixel, its tiles a row */
  unsigned *count;              /* blocks that have read, all launches */
  unsigned target;              /* its value once this launch's have */
};

/* A tile and its reach read, (COUNT) every block's reads before any
 * block's writes, the tile written back where it was. */
template < bool COUNT > __global__ void __launch_bounds__ (THREADS)
copy_in_place (const CopyArgs a)
{
  __shared__ unsigned raw[RAW_H][RAW_W + 1];
  const int bx = blockIdx.x % a.tiles_x, by = blockIdx.x / a.tiles_x;
  const int x = a.x0 + bx * TILE_W, y = a.y0 + by * TILE_H;
  const unsigned *src = a.frame + (size_t) (y - REACH) * FRAME_W + x - REACH;
  unsigned v[LOADS];

#pragma unroll
  for (int k = 0; k < LOADS; k++) {
    const int t = threadIdx.x + k * THREADS;
    if (t < RAW)
      v[k] = __ldg (src + (t / RAW_W) * FRAME_W + t % RAW_W);
  }
#pragma unroll
  for (int k = 0; k < LOADS; k++) {
    const int t = threadIdx.x + k * THREADS;
    if (t < RAW)
      raw[t / RAW_W][t % RAW_W] = v[k];
  }
  __syncthreads ();
  if (COUNT) {
    if (threadIdx.x == 0) {
      unsigned n;

      asm volatile ("red.release.gpu.global.add.u32 [%0], 1;"::"l" (a.count)
          :"memory");
      do
        asm volatile ("ld.acquire.gpu.global.u32 %0, [%1];":"=r" (n)
            :"l" (a.count):"memory");
      while ((int) (n - a.target) < 0);
    }
    __syncthreads ();
  }
  unsigned *dst = a.frame + (size_t) y * FRAME_W + x;
  for (int t = threadIdx.x; t < TILE_W * TILE_H; t += THREADS)
    dst[(t / TILE_W) * FRAME_W + t % TILE_W] =
        raw[t / TILE_W + REACH][t % TILE_W + REACH];
}

enum Launch
{ EMPTY, EMPTY_COOPERATIVE, EMPTY_REGION_ARGS, EMPTY_FAST_ARGS, COPY_COUNTED,
  COPY_UNCOUNTED
};

const char *launch_names[] = {
  "empty kernel, one block",
  "empty cooperative launch, the region's blocks",
  "the same, CfFastRegionArgs' bytes of parameters",
  "the same, CfFastArgs' bytes of parameters",
  "copy in place, blocks counted (one launch)",
  "copy, not counted (not safe in place)",
};

/* Median in us of ITERATIONS launches, each between its own events. */
double
time_launch (Launch what, CopyArgs & a, int blocks, bool held,
    cudaStream_t stream)
{
  cudaEvent_t start, end;
  float ms[ITERATIONS];

  CHECK (cudaEventCreate (&start));
  CHECK (cudaEventCreate (&end));
  for (int i = 0; i < WARMUP + ITERATIONS; i++) {
    if (held)
      spin <<< 1, 1, 0, stream >>> (100000);
    CHECK (cudaEventRecord (start, stream));
    if (what == COPY_COUNTED)
      a.target += blocks;
    void *params[] = { &a };
    switch (what) {
      case EMPTY:
        empty <<< 1, THREADS, 0, stream >>> ();
        break;
      case EMPTY_COOPERATIVE:
        CHECK (cudaLaunchCooperativeKernel ((const void *) empty, blocks,
                THREADS, NULL, 0, stream));
        break;
      case EMPTY_REGION_ARGS:{
        static CfFastRegionArgs p;
        void *pp[] = { &p };
        CHECK (cudaLaunchCooperativeKernel ((const void *)
                empty_with_parameters < CfFastRegionArgs >, blocks, THREADS,
                pp, 0, stream));
        break;
      }
      case EMPTY_FAST_ARGS:{
        static CfFastArgs p;
        void *pp[] = { &p };
        CHECK (cudaLaunchCooperativeKernel ((const void *)
                empty_with_parameters < CfFastArgs >, blocks, THREADS, pp, 0,
                stream));
        break;
      }
      case COPY_COUNTED:
        CHECK (cudaLaunchCooperativeKernel ((const void *)
                copy_in_place < true >, blocks, THREADS, params, 0, stream));
        break;
      case COPY_UNCOUNTED:
        copy_in_place < false > <<< blocks, THREADS, 0, stream >>> (a);
        break;
    }
    CHECK (cudaGetLastError ());
    CHECK (cudaEventRecord (end, stream));
    CHECK (cudaEventSynchronize (end));
    if (i >= WARMUP)
      CHECK (cudaEventElapsedTime (&ms[i - WARMUP], start, end));
  }
  cudaEventDestroy (start);
  cudaEventDestroy (end);
  std::sort (ms, ms + ITERATIONS);
  return ms[ITERATIONS / 2] * 1000.0;
}

}                               /* namespace */

int
main (int argc, char **argv)
{
  int x0 = 1600, y0 = 756, w = 640, h = 648, sms, per_sm;
  cudaStream_t stream;
  CopyArgs a;

  if (argc > 1 && (sscanf (argv[1], "%d,%d,%d,%d", &x0, &y0, &w, &h) != 4
          || w < TILE_W || h < TILE_H || x0 < REACH || y0 < REACH
          || x0 + w + REACH > FRAME_W || y0 + h + REACH > FRAME_H)) {
    fprintf (stderr, "usage: cudafilter-region-floor [X,Y,W,H]\n"
        "  a region of a 3840x2160 RGBA frame, at least %dx%d, its %d "
        "pixels of reach inside the frame (default 1600,756,640,648: "
        "5 %%)\n", TILE_W, TILE_H, REACH);
    return 2;
  }
  memset (&a, 0, sizeof (a));
  a.x0 = x0;
  a.y0 = y0;
  /* Whole tiles only: the region rounded down to them. */
  a.tiles_x = w / TILE_W;
  const int blocks = a.tiles_x * (h / TILE_H);

  CHECK (cudaStreamCreate (&stream));
  CHECK (cudaMalloc (&a.frame, (size_t) FRAME_W * FRAME_H * 4));
  CHECK (cudaMemset (a.frame, 0x5a, (size_t) FRAME_W * FRAME_H * 4));
  CHECK (cudaMalloc (&a.count, sizeof (unsigned)));
  CHECK (cudaMemset (a.count, 0, sizeof (unsigned)));
  CHECK (cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm,
          copy_in_place < true >, THREADS, 0));
  if (blocks > sms * per_sm) {
    fprintf (stderr, "cudafilter-region-floor: %d tiles do not run at once "
        "(%d can): take a smaller region\n", blocks, sms * per_sm);
    return 2;
  }
  printf ("region %d,%d,%dx%d of 3840x2160 RGBA: %d tiles of %dx%d; "
      "median of %d, us\n", x0, y0, a.tiles_x * TILE_W, (h / TILE_H) * TILE_H,
      blocks, TILE_W, TILE_H, ITERATIONS);
  printf ("parameters: CfFastRegionArgs %zu bytes, CfFastArgs %zu\n",
      sizeof (CfFastRegionArgs), sizeof (CfFastArgs));
  printf ("%-48s %8s %8s\n", "launch", "idle", "held");
  for (int l = EMPTY; l <= COPY_UNCOUNTED; l++) {
    const double idle = time_launch ((Launch) l, a, blocks, false, stream);
    const double held = time_launch ((Launch) l, a, blocks, true, stream);

    printf ("%-48s %8.2f %8.2f\n", launch_names[l], idle, held);
    printf ("csv-floor,%d,%d,%d,%d,%d,%.2f,%.2f\n", l, x0, y0, w, h, idle,
        held);
  }
  cudaFree (a.count);
  cudaFree (a.frame);
  cudaStreamDestroy (stream);
  return 0;
}
