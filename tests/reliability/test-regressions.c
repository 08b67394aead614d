/* cudafilter reliability: regressions for what the fuzz targets found.
 * Expected values are worked out by hand in the comments. */
#include <string.h>
#include <glib.h>
#include "cf-backend.h"
#include "cf-spec.h"

/* A 1x5 custom kernel on 16-bit samples was refused as "too large": its
 * separable split needed the precision twice.  With divisor 0 (the sum,
 * -2.5) the weights are [4 -6 -1 -2 2.5] / -2.5 = [-1.6 2.4 0.4 0.8 -1].
 * An impulse of 10000 at x = 4 in a row of 9 zeros (border constant 0)
 * gives out(x) = sum_i w[i] * in(x + i - 2), so out(4 - i + 2) = w[i] *
 * 10000: 24000 at x = 5, 4000 at x = 4, 8000 at x = 3, and the negative
 * ones saturate to 0 (x = 6, x = 2). */
static void
test_custom_16bit_separable_precision (void)
{
  static const guint16 want[9] = { 0, 0, 0, 8000, 4000, 24000, 0, 0, 0 };
  CfParams params;
  CfSpec *spec;
  CfLayout layout;
  CfFrame in, out;
  CfBackend *be;
  GError *err = NULL;
  guint16 src[9] = { 0 }, dst[9];
  int i;

  cf_params_init (&params);
  params.filter = CF_FILTER_CUSTOM;
  /* (The fuzzer's input separated -6 and -1.0 by a tab, the others by
   * commas: a mix now refused as rows without ';'.) */
  params.kernel = "4,-6,\t-1.0,-2.0, 2.5;";
  params.border = CF_BORDER_CONSTANT;
  spec = cf_spec_new (&params, 2, &err);
  g_assert_no_error (err);
  g_assert_nonnull (spec);

  src[4] = 10000;
  cf_layout_init_interleaved (&layout, 9, 1, 1, 2, 1);
  memset (&in, 0, sizeof (in));
  memset (&out, 0, sizeof (out));
  in.data[0] = (guint8 *) src;
  out.data[0] = (guint8 *) dst;
  in.stride[0] = out.stride[0] = sizeof (src);
  be = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
  g_assert_true (cf_backend_process (be, spec, &layout, &in, &out, &err));
  g_assert_no_error (err);
  for (i = 0; i < 9; i++)
    g_assert_cmpint (dst[i], ==, want[i]);
  cf_backend_free (be);
  cf_spec_free (spec);
}

/* strtod () skips a vertical tab or form feed before a number, so "\v"
 * was taken as part of the value after it and " \v  -1" parsed as 1x1.
 * All white space separates values: "1\v2\f3" is 1x3 [1 2 3], and
 * "0\v" is 1x1 [0]. */
static void
test_kernel_vertical_tab (void)
{
  double *v = NULL;
  int w, h;

  g_assert_true (cf_kernel_parse ("1\v2\f3", &w, &h, &v, NULL));
  g_assert_cmpint (w, ==, 3);
  g_assert_cmpint (h, ==, 1);
  g_assert_cmpfloat (v[0], ==, 1);
  g_assert_cmpfloat (v[1], ==, 2);
  g_assert_cmpfloat (v[2], ==, 3);
  g_free (v);
  g_assert_true (cf_kernel_parse ("0\v", &w, &h, &v, NULL));
  g_assert_cmpint (w * h, ==, 1);
  g_assert_cmpfloat (v[0], ==, 0);
  g_free (v);
  /* Both rows need the same count: "1 2; 3\v4" is 2x2. */
  g_assert_true (cf_kernel_parse ("1 2; 3\v4", &w, &h, &v, NULL));
  g_assert_cmpint (w, ==, 2);
  g_assert_cmpint (h, ==, 2);
  g_assert_cmpfloat (v[3], ==, 4);
  g_free (v);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/regressions/custom-16bit-separable-precision",
      test_custom_16bit_separable_precision);
  g_test_add_func ("/regressions/kernel-vertical-tab",
      test_kernel_vertical_tab);
  return g_test_run ();
}
