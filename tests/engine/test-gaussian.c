/* cudafilter engine unit tests: Gaussian and Sobel weights (cf-gaussian.c)
 * against OpenCV 4.6 (getGaussianKernel, getDerivKernels).  None of the
 * reference numbers is produced by the code under test. */
#include <math.h>
#include "cf-spec.h"

/* cv2.getGaussianKernel (n, sigma, CV_64F) */
static const struct
{
  int n;
  double sigma;
  double k[13];
} gauss_ref[] = {
  {3, 1.0, {0.27406861906119701, 0.45186276187760605, 0.27406861906119701}},
  {5, 1.0, {0.054488684549642945, 0.24420134200323335, 0.40261994689424746,
              0.24420134200323335, 0.054488684549642945}},
  {7, 1.5, {0.036632845369194027, 0.11128075847888487, 0.21674532140370781,
              0.27068214949642655, 0.21674532140370781, 0.11128075847888487,
          0.036632845369194027}},
  {13, 2.0, {0.0022181958546457652, 0.0087731347915883887,
              0.027023157602879527, 0.064825185138526836, 0.12110939007484814,
              0.17621312278855084, 0.19967562749792112, 0.17621312278855084,
              0.12110939007484814, 0.064825185138526836, 0.027023157602879527,
          0.0087731347915883887, 0.0022181958546457652}},
  {4, 1.0, {0.12254250656618586, 0.37745749343381413, 0.37745749343381413,
          0.12254250656618586}},
};

static void
test_gaussian_weights (void)
{
  guint t;

  for (t = 0; t < G_N_ELEMENTS (gauss_ref); t++) {
    double k[CF_MAX_TAPS];
    int i, n = gauss_ref[t].n;

    cf_gaussian_kernel (n, gauss_ref[t].sigma, k);
    for (i = 0; i < n; i++)
      g_assert_cmpfloat_with_epsilon (k[i], gauss_ref[t].k[i], 1e-12);
  }
}

static void
test_gaussian_fixed (void)
{
  guint t;

  for (t = 0; t < G_N_ELEMENTS (gauss_ref); t++) {
    int q[CF_MAX_TAPS], i, n = gauss_ref[t].n, sum = 0;

    if ((n & 1) == 0)
      continue;
    cf_gaussian_kernel_fixed (n, gauss_ref[t].sigma, 8, q);
    for (i = 0; i < n; i++) {
      sum += q[i];
      g_assert_cmpint (q[i], ==, q[n - 1 - i]);
      g_assert_cmpfloat (fabs (q[i] - 256.0 * gauss_ref[t].k[i]), <=, 1.0);
    }
    g_assert_cmpint (sum, ==, 256);
  }
  {
    /* sigma 1, 3 taps: 256 * {0.274, 0.452, 0.274} → 70, 116, 70 */
    int q[3];

    cf_gaussian_kernel_fixed (3, 1.0, 8, q);
    g_assert_cmpint (q[0], ==, 70);
    g_assert_cmpint (q[1], ==, 116);
    g_assert_cmpint (q[2], ==, 70);
  }
}

static void
test_sobel_taps (void)
{
  /* cv2.getDerivKernels */
  static const int d1_5[] = { -1, -2, 0, 2, 1 }, s0_5[] = { 1, 4, 6, 4, 1 };
  static const int d2_7[] = { 1, 2, -1, -4, -1, 2, 1 };
  static const int d1_3[] = { -1, 0, 1 }, s0_1[] = { 1 };
  int k[CF_MAX_TAPS];

  g_assert_cmpint (cf_sobel_kernel (5, 1, k), ==, 5);
  g_assert_cmpmem (k, sizeof (d1_5), d1_5, sizeof (d1_5));
  g_assert_cmpint (cf_sobel_kernel (5, 0, k), ==, 5);
  g_assert_cmpmem (k, sizeof (s0_5), s0_5, sizeof (s0_5));
  g_assert_cmpint (cf_sobel_kernel (7, 2, k), ==, 7);
  g_assert_cmpmem (k, sizeof (d2_7), d2_7, sizeof (d2_7));
  /* ksize 1: derivative taken over 3 taps, no smoothing */
  g_assert_cmpint (cf_sobel_kernel (1, 1, k), ==, 3);
  g_assert_cmpmem (k, sizeof (d1_3), d1_3, sizeof (d1_3));
  g_assert_cmpint (cf_sobel_kernel (1, 0, k), ==, 1);
  g_assert_cmpmem (k, sizeof (s0_1), s0_1, sizeof (s0_1));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/weights/gaussian", test_gaussian_weights);
  g_test_add_func ("/weights/gaussian-fixed", test_gaussian_fixed);
  g_test_add_func ("/weights/sobel", test_sobel_taps);
  return g_test_run ();
}
