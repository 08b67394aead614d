/* cudafilter engine unit tests: specs from parameters (cf-spec.c):
 * validation, shapes, depths and the filter table, worked out by hand.  None
 * of the reference numbers is produced by the code under test. */
#include <math.h>
#include <string.h>
#include "cf-spec.h"
#include "cf-backend.h"

static void
expect_spec_error (CfParams * p, const char *needle)
{
  GError *err = NULL;
  CfSpec *spec = cf_spec_new (p, 1, &err);

  g_assert_null (spec);
  g_assert_nonnull (err);
  if (strstr (err->message, needle) == NULL)
    g_error ("message '%s' does not mention '%s'", err->message, needle);
  g_error_free (err);
}

static void
test_spec_validation (void)
{
  CfParams p;

  cf_params_init (&p);
  p.kernel_size = 4;
  expect_spec_error (&p, "kernel-size");
  p.kernel_size = 257;
  expect_spec_error (&p, "kernel-size");

  cf_params_init (&p);
  p.sigma = 0.0;
  expect_spec_error (&p, "sigma");
  /* 8-bit samples: cvRound (6 sigma + 1) | 1 taps, 259 here. */
  p.sigma = 43.0;
  expect_spec_error (&p, "259-tap");

  cf_params_init (&p);
  p.filter = CF_FILTER_CUSTOM;
  expect_spec_error (&p, "kernel");
  p.kernel = "1 2; 3";
  expect_spec_error (&p, "row 2");

  cf_params_init (&p);
  p.filter = CF_FILTER_SOBEL;
  p.kernel_size = 9;
  expect_spec_error (&p, "1, 3, 5 or 7");
  p.filter = CF_FILTER_SCHARR;
  p.kernel_size = 5;
  expect_spec_error (&p, "scharr");
}

/* Refusals of the nonlinear filters: the messages name the property. */
static void
test_spec_nonlinear_validation (void)
{
  CfParams p;
  CfSpec *s;

  cf_params_init (&p);
  p.filter = CF_FILTER_MEDIAN;
  p.kernel_size = 4;
  expect_spec_error (&p, "kernel-size 4 is not valid for median");
  p.kernel_size = 1;
  expect_spec_error (&p, "from 3 to 63");
  p.kernel_size = 63;
  s = cf_spec_new_for_depth (&p, 16, NULL);
  g_assert_nonnull (s);         /* slow, not wrong */
  g_assert_cmpint (s->nl.rank, ==, 63 * 63 / 2);
  cf_spec_free (s);

  cf_params_init (&p);
  p.filter = CF_FILTER_ERODE;
  p.iterations = 0;
  expect_spec_error (&p, "iterations 0");
  p.iterations = 17;
  expect_spec_error (&p, "iterations 17");
  p.iterations = 1;
  p.kernel = "0 0; 0 0";
  expect_spec_error (&p, "no nonzero value");
  p.kernel = "1 2; 3";
  expect_spec_error (&p, "row 2");
  p.kernel = NULL;
  p.kernel_size = 64;
  expect_spec_error (&p, "kernel-size 64");
  p.kernel_size = 2;            /* even elements are fine, as OpenCV's */
  s = cf_spec_new (&p, 1, NULL);
  g_assert_nonnull (s);
  cf_spec_free (s);

  cf_params_init (&p);
  p.filter = CF_FILTER_BILATERAL;
  p.sigma_color = 0.0;
  expect_spec_error (&p, "sigma-color");
  p.sigma_color = -3.0;
  expect_spec_error (&p, "sigma-color");
  p.sigma_color = 10.0;
  p.sigma = 30.0;               /* radius 45 */
  expect_spec_error (&p, "sigma");
  p.kernel_size = 63;
  s = cf_spec_new (&p, 1, NULL);
  g_assert_nonnull (s);
  cf_spec_free (s);
}

/* OpenCV 4's getStructuringElement, printed and copied here. */
static void
test_spec_structuring_elements (void)
{
  static const int ellipse5[25] = {
    0, 0, 1, 0, 0,
    1, 1, 1, 1, 1,
    1, 1, 1, 1, 1,
    1, 1, 1, 1, 1,
    0, 0, 1, 0, 0
  };
  static const int ellipse7[49] = {
    0, 0, 0, 1, 0, 0, 0,
    0, 1, 1, 1, 1, 1, 0,
    1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1,
    0, 1, 1, 1, 1, 1, 0,
    0, 0, 0, 1, 0, 0, 0
  };
  static const int cross3[9] = { 0, 1, 0, 1, 1, 1, 0, 1, 0 };
  static const int ellipse4[16] = {
    0, 0, 1, 0,
    1, 1, 1, 1,
    1, 1, 1, 1,
    1, 1, 1, 1
  };
  int se[49];
  CfParams p;
  CfSpec *s;

  cf_structuring_element (CF_SHAPE_ELLIPSE, 5, se);
  g_assert_cmpmem (se, sizeof (ellipse5), ellipse5, sizeof (ellipse5));
  cf_structuring_element (CF_SHAPE_ELLIPSE, 7, se);
  g_assert_cmpmem (se, sizeof (ellipse7), ellipse7, sizeof (ellipse7));
  cf_structuring_element (CF_SHAPE_ELLIPSE, 4, se);
  g_assert_cmpmem (se, sizeof (ellipse4), ellipse4, sizeof (ellipse4));
  cf_structuring_element (CF_SHAPE_CROSS, 3, se);
  g_assert_cmpmem (se, sizeof (cross3), cross3, sizeof (cross3));

  /* A 3x3 rectangle twice is one 5x5 rectangle: a row and a column pass
   * of 5 (OpenCV's rule for iterated rectangles). */
  cf_params_init (&p);
  p.filter = CF_FILTER_DILATE;
  p.iterations = 2;
  s = cf_spec_new (&p, 1, NULL);
  g_assert_nonnull (s);
  g_assert_cmpint (s->nl.n_passes, ==, 2);
  g_assert_cmpint (s->nl.passes[0].step, ==, CF_NL_MAX_ROW);
  g_assert_cmpint (s->nl.passes[0].len, ==, 5);
  g_assert_cmpint (s->nl.passes[0].anchor, ==, 2);
  g_assert_cmpint (s->nl.passes[1].step, ==, CF_NL_MAX_COL);
  g_assert_cmpint (s->nl.passes[1].dst, ==, CF_NL_OUT);
  cf_spec_free (s);
  /* Any other element repeats: open = 3 erosions, then 3 dilations. */
  p.filter = CF_FILTER_OPEN;
  p.shape = CF_SHAPE_CROSS;
  p.iterations = 3;
  s = cf_spec_new (&p, 1, NULL);
  g_assert_nonnull (s);
  g_assert_cmpint (s->nl.n_passes, ==, 6);
  g_assert_cmpint (s->nl.passes[2].step, ==, CF_NL_MIN_SE);
  g_assert_cmpint (s->nl.passes[3].step, ==, CF_NL_MAX_SE);
  g_assert_cmpint (s->nl.passes[5].dst, ==, CF_NL_OUT);
  cf_spec_free (s);
}

/* The bilateral's window is OpenCV's disk and its weights exp() in as
 * many fractional bits as 64-bit sums allow: (63 - depth - ceil (log2
 * (offsets))) / 2. */
static void
test_spec_bilateral (void)
{
  CfParams p;
  CfSpec *s;
  int n;

  cf_params_init (&p);
  p.filter = CF_FILTER_BILATERAL;
  p.kernel_size = 5;            /* radius 2: 13 offsets, i^2 + j^2 <= 4 */
  p.sigma = 100.0;
  s = cf_spec_new (&p, 1, NULL);
  g_assert_nonnull (s);
  g_assert_cmpint (s->nl.n_offsets, ==, 13);
  g_assert_cmpint (s->kp.kw, ==, 5);
  /* (63 - 8 - 4) / 2 = 25 bits. */
  g_assert_cmpint (s->nl.weight_bits, ==, 25);
  n = s->nl.n_offsets;
  /* The centre weighs 1; the range table at 0 and at 30 (the default
   * 8-bit sigma-color): exp (-1/2) * 2^25 = 20351791.8. */
  for (int k = 0; k < n; k++)
    if (s->table[n + k] == 0 && s->table[2 * n + k] == 0)
      g_assert_cmpint (s->table[k], ==, 1 << 25);
  g_assert_cmpint (s->table[s->nl.off_range], ==, 1 << 25);
  g_assert_cmpint (s->table[s->nl.off_range + 30], ==, 20351792);
  cf_spec_free (s);

  /* kernel-size 0: radius round (1.5 sigma) = 3 for sigma 2. */
  p.kernel_size = 0;
  p.sigma = 2.0;
  s = cf_spec_new (&p, 1, NULL);
  g_assert_cmpint (s->kp.kw, ==, 7);
  cf_spec_free (s);
  /* The default sigma-color scales with the depth: 120.35 at 10 bits;
   * 29 offsets, (63 - 10 - 5) / 2 = 24 bits: 10205737.1 at 120, 10121187.3
   * at 121. */
  s = cf_spec_new_for_depth (&p, 10, NULL);
  g_assert_cmpint (s->nl.weight_bits, ==, 24);
  g_assert_cmpint (s->table[s->nl.off_range + 120], ==, 10205737);
  g_assert_cmpint (s->table[s->nl.off_range + 121], ==, 10121187);
  cf_spec_free (s);
}

/* The largest kernels: 255 taps a side, Gaussian sigma up to 31 at every
 * depth (OpenCV's sizes: 6 sigma + 1 at 8 bits, 8 sigma + 1 deeper). */
static void
test_largest_kernels (void)
{
  CfParams p;
  CfSpec *spec;
  GError *err = NULL;

  cf_params_init (&p);
  p.sigma = 31.0;
  spec = cf_spec_new (&p, 1, &err);
  g_assert_no_error (err);
  g_assert_cmpint (spec->kp.kw, ==, 187);
  cf_spec_free (spec);
  spec = cf_spec_new (&p, 2, &err);
  g_assert_no_error (err);
  g_assert_cmpint (spec->kp.kw, ==, 249);
  g_assert_cmpint (spec->kp.kh, ==, 249);
  cf_spec_free (spec);
  g_assert_true (cf_params_check (&p, &err));
  g_assert_no_error (err);

  /* sigma 8 on 16-bit samples (65 taps) was refused at 63. */
  p.sigma = 8.0;
  spec = cf_spec_new_for_depth (&p, 16, &err);
  g_assert_no_error (err);
  g_assert_cmpint (spec->kp.kw, ==, 65);
  cf_spec_free (spec);

  p.kernel_size = 255;
  p.filter = CF_FILTER_BOX;
  g_assert_true (cf_params_check (&p, &err));
  g_assert_no_error (err);
}

/* Settings are checked at every depth: sigma 32 fits 8-bit samples (193
 * taps) but not 16-bit ones (257), so it is refused whatever the format. */
static void
test_params_check_every_depth (void)
{
  CfParams p;
  CfSpec *spec;
  GError *err = NULL;

  cf_params_init (&p);
  p.sigma = 32.0;
  spec = cf_spec_new (&p, 1, &err);
  g_assert_no_error (err);
  cf_spec_free (spec);
  g_assert_false (cf_params_check (&p, &err));
  g_assert_error (err, CF_ERROR, CF_ERROR_INVALID_PARAM);
  g_assert_nonnull (strstr (err->message, "257-tap"));
  g_clear_error (&err);

  p.sigma = 2.0;
  p.sigma_y = 32.0;
  g_assert_false (cf_params_check (&p, &err));
  g_assert_nonnull (strstr (err->message, "257-tap"));
  g_clear_error (&err);
}

/* Whether the 8-bit spec of `p` has dense taps that all fit a byte. */
static gboolean
dense_taps_s8_of (const CfParams * p)
{
  CfSpec *s = cf_spec_new (p, 1, NULL);
  gboolean bytes;

  g_assert_nonnull (s);
  bytes = s->kp.dense_taps_s8;
  cf_spec_free (s);
  return bytes;
}

static void
test_spec_shapes (void)
{
  CfParams p;
  CfSpec *s;

  cf_params_init (&p);
  p.sigma = 2.0;
  s = cf_spec_new (&p, 1, NULL);
  /* OpenCV: round (2 * 6 + 1) | 1 = 13 taps */
  g_assert_cmpint (s->kp.kw, ==, 13);
  g_assert_true (s->kp.separable);
  g_assert_false (s->kp.wide_acc);
  cf_spec_free (s);

  p.sigma_y = 1.0;
  s = cf_spec_new (&p, 1, NULL);
  g_assert_cmpint (s->kp.kw, ==, 13);
  g_assert_cmpint (s->kp.kh, ==, 7);
  cf_spec_free (s);

  cf_params_init (&p);
  s = cf_spec_new (&p, 2, NULL);
  g_assert_true (s->kp.wide_acc);
  /* 16-bit: OpenCV uses sigma * 8 + 1 → 9 taps at sigma 1 */
  g_assert_cmpint (s->kp.kw, ==, 9);
  cf_spec_free (s);

  cf_params_init (&p);
  p.filter = CF_FILTER_CUSTOM;
  p.kernel = "1 2 1; 2 4 2; 1 2 1";
  s = cf_spec_new (&p, 1, NULL);
  g_assert_true (s->kp.separable);
  cf_spec_free (s);
  p.kernel = "0 -1 0; -1 5 -1; 0 -1 0";
  s = cf_spec_new (&p, 1, NULL);
  g_assert_false (s->kp.separable);
  g_assert_nonnull (s->dense);
  /* integer taps stay integers: bytes */
  g_assert_cmpint (s->dense[4], ==, 5);
  g_assert_true (s->kp.dense_taps_s8);
  cf_spec_free (s);
  /* a divisor of 41 quantises the taps with many fractional bits */
  p.kernel = "1 2 0 -1 3; 4 -2 7 1 0; 2 2 9 2 2; 0 1 -3 5 1; 3 -1 0 2 1";
  g_assert_false (dense_taps_s8_of (&p));
  p.kernel = "0 1 0; 1 128 1; 0 1 0";
  p.divisor = 1.0;
  g_assert_false (dense_taps_s8_of (&p));
  /* separable specs never set it */
  p.kernel = "1 2 1; 2 4 2; 1 2 1";
  g_assert_false (dense_taps_s8_of (&p));

  cf_params_init (&p);
  p.filter = CF_FILTER_LAPLACIAN;
  g_assert_true (dense_taps_s8_of (&p));
}

static void
test_spec_depth (void)
{
  CfParams p;
  CfSpec *spec;
  CfBackend *be = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
  CfLayout layout;
  guint16 in[4] = { 300, 600, 4095, 0 }, out[4];
  CfFrame fin = { {(guint8 *) in}, {8} }, fout = { {(guint8 *) out}, {8} };

  cf_params_init (&p);
  p.filter = CF_FILTER_CUSTOM;
  p.kernel = "2";
  p.divisor = 1;
  p.border_value = 5000;
  spec = cf_spec_new_for_depth (&p, 10, NULL);
  g_assert_cmpint (spec->kp.maxval, ==, 1023);
  g_assert_cmpint (spec->kp.border_value, ==, 1023);
  g_assert_cmpint (spec->kp.sample_bytes, ==, 2);
  cf_layout_init_interleaved (&layout, 4, 1, 1, 2, 0x1);
  g_assert_true (cf_layout_set_encoding (&layout, 2, 10, 0, FALSE));
  g_assert_true (cf_backend_process (be, spec, &layout, &fin, &fout, NULL));
  /* 4095 reads as its low 10 bits, 1023 */
  g_assert_cmpint (out[0], ==, 600);
  g_assert_cmpint (out[1], ==, 1023);
  g_assert_cmpint (out[2], ==, 1023);
  g_assert_cmpint (out[3], ==, 0);
  cf_spec_free (spec);

  p.filter = CF_FILTER_BOX;
  spec = cf_spec_new_for_depth (&p, 12, NULL);
  in[0] = in[1] = in[2] = in[3] = 4095;
  g_assert_true (cf_layout_set_encoding (&layout, 2, 12, 0, FALSE));
  g_assert_true (cf_backend_process (be, spec, &layout, &fin, &fout, NULL));
  for (int i = 0; i < 4; i++)
    g_assert_cmpint (out[i], ==, 4095);
  cf_spec_free (spec);
  cf_backend_free (be);
}

/* The tables are indexed by value and carry the public names, which the
 * element's enums and the tools read: gst-launch-1.0 lines depend on them. */
static void
test_spec_filter_table (void)
{
  static const char *const filters[] = { "gaussian", "box", "sobel",
    "sobel-x", "sobel-y", "scharr", "laplacian", "sharpen", "custom",
    "median", "erode", "dilate", "open", "close", "gradient", "tophat",
    "blackhat", "bilateral", "pixelate"
  };
  static const char *const borders[] = { "reflect101", "replicate",
    "reflect", "wrap", "constant"
  };
  static const gboolean derivative[] = { FALSE, FALSE, TRUE, TRUE, TRUE,
    TRUE, TRUE, FALSE, FALSE, FALSE, FALSE, FALSE, FALSE, FALSE, TRUE, TRUE,
    TRUE, FALSE, FALSE
  };
  static const CfOperation operation[] = { CF_OPERATION_CONVOLVE,
    CF_OPERATION_CONVOLVE, CF_OPERATION_CONVOLVE, CF_OPERATION_CONVOLVE,
    CF_OPERATION_CONVOLVE, CF_OPERATION_CONVOLVE, CF_OPERATION_CONVOLVE,
    CF_OPERATION_CONVOLVE, CF_OPERATION_CONVOLVE, CF_OPERATION_MEDIAN,
    CF_OPERATION_MORPH, CF_OPERATION_MORPH, CF_OPERATION_MORPH,
    CF_OPERATION_MORPH, CF_OPERATION_MORPH, CF_OPERATION_MORPH,
    CF_OPERATION_MORPH, CF_OPERATION_BILATERAL, CF_OPERATION_PIXELATE
  };

  g_assert_cmpint (CF_N_FILTERS, ==, G_N_ELEMENTS (filters));
  g_assert_cmpint (CF_N_FILTERS, ==, G_N_ELEMENTS (derivative));
  g_assert_cmpint (CF_N_FILTERS, ==, G_N_ELEMENTS (operation));
  for (int i = 0; i < CF_N_FILTERS; i++) {
    const CfFilterInfo *f = cf_filter_info ((CfFilter) i);

    g_assert_true (f == &cf_filters[i]);
    g_assert_cmpint (f->filter, ==, i);
    g_assert_cmpstr (f->nick, ==, filters[i]);
    g_assert_cmpint (cf_filter_is_derivative ((CfFilter) i), ==,
        derivative[i]);
    g_assert_nonnull (f->blurb);
    g_assert_nonnull (f->build);
    g_assert_cmpint (f->operation, ==, operation[i]);
  }
  g_assert_null (cf_filter_info ((CfFilter) - 1));
  g_assert_null (cf_filter_info ((CfFilter) CF_N_FILTERS));
  g_assert_false (cf_filter_is_derivative ((CfFilter) CF_N_FILTERS));

  g_assert_cmpint (CF_N_BORDERS, ==, G_N_ELEMENTS (borders));
  for (int i = 0; i < CF_N_BORDERS; i++) {
    g_assert_cmpint (cf_borders[i].border, ==, i);
    g_assert_cmpstr (cf_borders[i].nick, ==, borders[i]);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/spec/validation", test_spec_validation);
  g_test_add_func ("/spec/shapes", test_spec_shapes);
  g_test_add_func ("/spec/depth", test_spec_depth);
  g_test_add_func ("/spec/largest-kernels", test_largest_kernels);
  g_test_add_func ("/spec/params-check-every-depth",
      test_params_check_every_depth);
  g_test_add_func ("/spec/filter-table", test_spec_filter_table);
  g_test_add_func ("/spec/nonlinear-validation",
      test_spec_nonlinear_validation);
  g_test_add_func ("/spec/structuring-elements",
      test_spec_structuring_elements);
  g_test_add_func ("/spec/bilateral", test_spec_bilateral);
  return g_test_run ();
}
