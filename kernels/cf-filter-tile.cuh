/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the general kernel's tile (internal to kernels/, nvcc only):
 * how samples are read and written, the shared memory a tile takes, and
 * the integer sums over a tile already in shared memory.  cf-filter.cu's
 * kernels and the in-place region kernel (cf-region-inplace.cu) share
 * them, so a region gives the whole frame's bytes. */
#ifndef CF_FILTER_TILE_CUH
#define CF_FILTER_TILE_CUH

#include "cf-arith.h"
#include "cf-sample.h"
#include "cf-types.h"

namespace cf_tile
{

/* Threads per block: one warp across, BLOCK_Y rows; each thread computes
 * ROWS outputs down a column (the tile is BLOCK_X x BLOCK_Y * ROWS). */
constexpr int BLOCK_X = 32;
constexpr int BLOCK_Y = 8;
constexpr int THREADS = BLOCK_X * BLOCK_Y;

/* How the kernel reads and writes samples: whole words of T, as every
 * layout of plain 8- or 16-bit samples has them (the loads the kernel had
 * before it took other encodings), or any word layout through
 * kernels/cf-sample.h. */
template < typename T > struct PlainWords
{
  static __device__ __forceinline__ int
  read (const unsigned char *p, const CfChannel &)
  {
    return *(const T *) p;
  }
  static __device__ __forceinline__ void
  write (unsigned char *p, const CfChannel &, int v)
  {
    *(T *) p = (T) v;
  }
};

struct AnyWords
{
  static __device__ __forceinline__ int
  read (const unsigned char *p, const CfChannel & ch)
  {
    return cf_sample_read (p, &ch);
  }
  static __device__ __forceinline__ void
  write (unsigned char *p, const CfChannel & ch, int v)
  {
    cf_sample_write (p, &ch, v);
  }
};

__host__ __device__ constexpr size_t
align16 (size_t n)
{
  return (n + 15) & ~(size_t) 15;
}

/* Shared memory: the tile as int, the row and column maps, then the
 * horizontal sums (separable) or the weights (dense). */
__host__ __device__ constexpr size_t
in_bytes (size_t in_w, size_t in_h)
{
  return align16 (in_w * in_h * sizeof (int));
}

__host__ __device__ constexpr size_t
map_bytes (size_t in_h)
{
  return align16 (in_h * sizeof (long long));
}

/* Dynamic shared memory for a tile of `rows` rows per thread. */
inline size_t
tile_bytes (const CfKernelParams * kp, int rows, size_t acc_size)
{
  const size_t in_w = BLOCK_X + kp->kw - 1;
  const size_t in_h = (size_t) BLOCK_Y * rows + kp->kh - 1;
  size_t bytes = in_bytes (in_w, in_h) + map_bytes (in_h) +
      align16 (in_w * sizeof (int));

  if (kp->separable)
    bytes += (size_t) kp->n_kernels * BLOCK_X * in_h * acc_size;
  else
    bytes += (size_t) kp->kw * kp->kh * sizeof (int);
  return bytes;
}

/* The separable taps the launch parameters carry (up to CF_ARG_TAPS). */
inline void
arg_weights (CfArgWeights * to, const CfSepWeights * from)
{
  for (int k = 0; k < 2; k++)
    for (int i = 0; i <= CF_ARG_TAPS; i++) {
      to->row[k][i] = from->row[k][i];
      to->col[k][i] = from->col[k][i];
    }
}

/* The sums of this thread's ROWS outputs (rows ROWS * threadIdx.y ..,
 * column threadIdx.x of the tile) over `in`, the in_w x in_h tile with
 * its apron (kw - 1 columns, kh - 1 rows).  `rest` is the shared memory
 * after the tile and its maps.  Separable weights come from `sep`, dense
 * ones from `dense`.  A barrier comes before `in` is read: it may be
 * freshly loaded. */
template < typename Acc, int ROWS > __device__ __forceinline__ void
tile_sums (const CfKernelParams & kp, const CfArgWeights & sep,
    const int *dense, const int *in, int in_w, int in_h, unsigned char *rest,
    Acc (&acc)[ROWS][2])
{
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int tid = ty * BLOCK_X + tx;
  const int kw = kp.kw;
  const int kh = kp.kh;
  const int r0 = ty * ROWS;

#pragma unroll
  for (int n = 0; n < ROWS; n++)
    acc[n][0] = acc[n][1] = 0;

  if (kp.separable) {
    Acc *hbuf = (Acc *) rest;

    __syncthreads ();
    for (int k = 0; k < kp.n_kernels; k++) {
      const int *row = sep.row[k];
      for (int r = ty; r < in_h; r += BLOCK_Y) {
        const int *ip = in + r * in_w + tx;
        Acc s = 0;
#pragma unroll 4
        for (int i = 0; i < kw; i++)
          s += (Acc) row[i] * ip[i];
        hbuf[(k * in_h + r) * BLOCK_X + tx] = s;
      }
    }
    __syncthreads ();
#pragma unroll
    for (int k = 0; k < 2; k++) {
      if (k >= kp.n_kernels)
        break;
      const int *col = sep.col[k];
      const Acc *hp = hbuf + (k * in_h + r0) * BLOCK_X + tx;
      Acc win[ROWS];
#pragma unroll
      for (int n = 0; n < ROWS - 1; n++)
        win[n] = hp[n * BLOCK_X];
      for (int j = 0; j < kh; j++) {
        win[ROWS - 1] = hp[(j + ROWS - 1) * BLOCK_X];
        const Acc c = col[j];
#pragma unroll
        for (int n = 0; n < ROWS; n++)
          acc[n][k] += c * win[n];
#pragma unroll
        for (int n = 0; n < ROWS - 1; n++)
          win[n] = win[n + 1];
      }
    }
  } else {
    int *w = (int *) rest;

    for (int t = tid; t < kw * kh; t += THREADS)
      w[t] = dense[t];
    __syncthreads ();
    for (int i = 0; i < kw; i++) {
      const int *ip = in + r0 * in_w + tx + i;
      int win[ROWS];
#pragma unroll
      for (int n = 0; n < ROWS - 1; n++)
        win[n] = ip[n * in_w];
      for (int j = 0; j < kh; j++) {
        win[ROWS - 1] = ip[(j + ROWS - 1) * in_w];
        const Acc c = w[j * kw + i];
#pragma unroll
        for (int n = 0; n < ROWS; n++)
          acc[n][0] += c * win[n];
#pragma unroll
        for (int n = 0; n < ROWS - 1; n++)
          win[n] = win[n + 1];
      }
    }
  }
}

}                               /* namespace cf_tile */

#endif /* CF_FILTER_TILE_CUH */
