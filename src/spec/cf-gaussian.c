/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: Gaussian and Sobel taps, as OpenCV computes them.
 *
 * The Gaussian follows getGaussianKernelBitExact (exp of x^2 / (8 sigma^2)
 * over x in steps of 2, normalised, mirrored) and, for fixed point, the error
 * diffusion of getGaussianKernelFixedPoint_ED, which OpenCV's bit-exact 8-bit
 * GaussianBlur uses with 8 fractional bits per pass. */
#include <math.h>
#include "cf-spec.h"

void
cf_gaussian_kernel (int n, double sigma, double *out)
{
  double scale2x = -0.125 / (sigma * sigma);
  int half = (n - 1) / 2;
  double sum = 0.0, mul;
  int i, x;

  for (i = 0, x = 1 - n; i < half; i++, x += 2) {
    out[i] = exp ((double) (x * x) * scale2x);
    sum += out[i];
  }
  sum = sum * 2.0 + 1.0;
  if ((n & 1) == 0)
    sum += 1.0;
  mul = 1.0 / sum;
  for (i = 0; i < half; i++) {
    out[i] *= mul;
    out[n - 1 - i] = out[i];
  }
  out[half] = mul;
  if ((n & 1) == 0)
    out[half + 1] = mul;
}

void
cf_gaussian_kernel_fixed (int n, double sigma, int bits, int *out)
{
  double k[CF_MAX_TAPS + 1];
  double one = (double) (1LL << bits);
  double err = 0.0;
  long long sum = 0;
  int half = n / 2;
  int i;

  g_return_if_fail (n >= 1 && n <= CF_MAX_TAPS && (n & 1) == 1);

  cf_gaussian_kernel (n, sigma, k);
  for (i = 0; i < half; i++) {
    double adj = k[i] * one + err;
    long long v = llrint (adj);

    err = adj - (double) v;
    out[i] = out[n - 1 - i] = (int) v;
    sum += v;
  }
  /* The centre takes what is left, so the taps sum to exactly 1 << bits. */
  out[half] = (int) ((1LL << bits) - 2 * sum);
}

int
cf_sobel_kernel (int size, int order, int *out)
{
  int k[CF_MAX_TAPS + 2];
  int i, j;

  if (size == 1 && order > 0)
    size = 3;
  g_return_val_if_fail (size >= 1 && size <= CF_MAX_TAPS && order < size, 0);

  if (size == 1) {
    out[0] = 1;
    return 1;
  }
  /* Binomial smoothing of size - order - 1 steps, then order differences,
   * exactly as OpenCV's getSobelKernels. */
  k[0] = 1;
  for (i = 1; i <= size; i++)
    k[i] = 0;
  for (i = 0; i < size - order - 1; i++) {
    int oldval = k[0];
    for (j = 1; j <= size; j++) {
      int newval = k[j] + k[j - 1];
      k[j - 1] = oldval;
      oldval = newval;
    }
  }
  for (i = 0; i < order; i++) {
    int oldval = -k[0];
    for (j = 1; j <= size; j++) {
      int newval = k[j - 1] - k[j];
      k[j - 1] = oldval;
      oldval = newval;
    }
  }
  for (i = 0; i < size; i++)
    out[i] = k[i];
  return size;
}
