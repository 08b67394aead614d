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
  p.kernel_size = 65;
  expect_spec_error (&p, "kernel-size");

  cf_params_init (&p);
  p.sigma = 0.0;
  expect_spec_error (&p, "sigma");
  p.sigma = 20.0;
  expect_spec_error (&p, "taps");

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
    "pixelate"
  };
  static const char *const borders[] = { "reflect101", "replicate",
    "reflect", "wrap", "constant"
  };
  static const gboolean derivative[] = { FALSE, FALSE, TRUE, TRUE, TRUE,
    TRUE, TRUE, FALSE, FALSE, FALSE
  };

  g_assert_cmpint (CF_N_FILTERS, ==, G_N_ELEMENTS (filters));
  for (int i = 0; i < CF_N_FILTERS; i++) {
    const CfFilterInfo *f = cf_filter_info ((CfFilter) i);

    g_assert_true (f == &cf_filters[i]);
    g_assert_cmpint (f->filter, ==, i);
    g_assert_cmpstr (f->nick, ==, filters[i]);
    g_assert_cmpint (cf_filter_is_derivative ((CfFilter) i), ==,
        derivative[i]);
    g_assert_nonnull (f->blurb);
    g_assert_nonnull (f->build);
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
  g_test_add_func ("/spec/filter-table", test_spec_filter_table);
  return g_test_run ();
}
