/* cudafilter: a frame and a separable or dense spec as the fast 8-bit
 * kernels see them (internal to kernels/, C++ only).  cf-fast.cu fills it
 * from the launch parameters; the kernels of cf-fast.cu and cf-mma.cu read
 * it by value. */
#ifndef CF_FAST_ARGS_H
#define CF_FAST_ARGS_H

#include <cuda_runtime.h>
#include "cf-types.h"

#define CF_FAST_JOBS CF_MAX_CHANNELS

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
  float fw[2][2][CF_MAX_TAPS + 1];
  int iw[2][2][CF_MAX_TAPS + 1];
  const int *dense;             /* device, kh x kw */
  int kw, kh, ax, ay;
  int op, shift, bias, gain, maxval, border, border_value;
  float scale, offset, amount;
};

/* Separable filters on tensor cores (sm_80 and newer): returns
 * cudaErrorNotSupported, launching nothing, when the device, the taps or
 * the frame do not fit.  ch is 1 (planes of single samples, n_jobs of
 * them) or 4 (one plane of 4-sample pixels, nf of them filtered); K is the
 * odd tap count the taps in `a` are centred in, nk the kernels (2 for a
 * gradient magnitude). */
cudaError_t cf_mma_launch (const CfFastArgs & a, int ch, int nf, int nk,
    int K, int n_jobs, int max_w, int max_h, cudaStream_t stream);

#endif /* CF_FAST_ARGS_H */
