/* The fast kernels' gradient magnitude for 8-bit output with scale 1 and
 * offset 0 (cf-fast-post.cuh, magnitude_u8: an approximate square root)
 * against the shared arithmetic's correctly rounded one (cf-arith.h,
 * cf_post_magnitude_f), on the GPU:
 *   - every float n from 0 to 70000 through the rounding step;
 *   - every pair of derivatives |gx|, |gy| <= 300, which reaches every n
 *     below the saturation point;
 *   - derivatives up to 7-tap Sobel's largest.
 * Exits 77 (skip) without a CUDA device. */

#include <stdio.h>
#include <cuda_runtime.h>

#include "cf-fast-post.cuh"

#define PAIR 300
#define N_MAX 70000

/* Mismatches counted on the device; the first one kept for the report. */
struct Result
{
  unsigned long long checked, bad;
  float x, y;
  int got, want;
};

__device__ void
report (Result * r, float x, float y, int got, int want)
{
  atomicAdd (&r->checked, 1ULL);
  if (got == want)
    return;
  if (atomicAdd (&r->bad, 1ULL) == 0) {
    r->x = x;
    r->y = y;
    r->got = got;
    r->want = want;
  }
}

__device__ int
reference (float x, float y)
{
  return cf_post_magnitude_f (x, y, 1.0f, 0.0f, 255);
}

/* The rounding step on every n, whether or not a sum of two squares. */
__global__ void
check_n (Result * r)
{
  const int n = blockIdx.x * blockDim.x + threadIdx.x;

  if (n > N_MAX)
    return;
  const float fn = (float) n;
  const int want = cf_saturate_float (rintf (__fsqrt_rn (fn)), 255);
  report (r, fn, -1.0f, cf_fast::magnitude_u8_of (fn), want);
}

__global__ void
check_pairs (Result * r)
{
  const int gx = (int) blockIdx.x - PAIR, gy = (int) threadIdx.x - PAIR;

  if (gy > PAIR)
    return;
  const int want = reference ((float) gx, (float) gy);
  report (r, gx, gy, cf_fast::magnitude_u8 ((float) gx, (float) gy), want);
}

/* Large derivatives: a grid of values up to 64 * 10 * 255 (7-tap Sobel). */
__global__ void
check_large (Result * r)
{
  const int gx = ((int) blockIdx.x - 512) * 319, gy = ((int) threadIdx.x -
      512) * 317;

  report (r, gx, gy, cf_fast::magnitude_u8 ((float) gx, (float) gy),
      reference (gx, gy));
}

int
main (void)
{
  int n_dev = 0;
  Result *r, h;

  if (cudaGetDeviceCount (&n_dev) != cudaSuccess || n_dev == 0) {
    printf ("1..0 # SKIP no CUDA device: the magnitude check needs a GPU\n");
    return 77;
  }
  if (cudaMalloc (&r, sizeof (*r)) != cudaSuccess
      || cudaMemset (r, 0, sizeof (*r)) != cudaSuccess) {
    printf ("not ok 1 - cudaMalloc\n");
    return 1;
  }
  check_n <<< (N_MAX + 256) / 256, 256 >>> (r);
  check_pairs <<< 2 * PAIR + 1, 2 * PAIR + 32 >>> (r);
  check_large <<< 1024, 1024 >>> (r);
  if (cudaMemcpy (&h, r, sizeof (h), cudaMemcpyDeviceToHost) != cudaSuccess) {
    printf ("not ok 1 - %s\n", cudaGetErrorString (cudaGetLastError ()));
    return 1;
  }
  cudaFree (r);
  /* 70001 values of n, 601 x 601 pairs, 1024 x 1024 large pairs */
  if (h.checked != 70001ULL + 601ULL * 601 + 1024ULL * 1024) {
    printf ("not ok 1 - only %llu values checked\n", h.checked);
    return 1;
  }
  if (h.bad) {
    printf ("not ok 1 - %llu of %llu differ, first: gx %g gy %g: %d, "
        "correctly rounded %d\n", h.bad, h.checked, h.x, h.y, h.got, h.want);
    return 1;
  }
  printf ("1..1\nok 1 - magnitude: %llu values as correctly rounded\n",
      h.checked);
  return 0;
}
