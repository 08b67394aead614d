/* cudafilter engine unit tests: the FFT convolution's decisions (method
 * names, transform sizes, the error bound, tiling and selection).  Plain
 * arithmetic, so they run without a GPU; the GPU parity test checks the
 * bytes. */
#include <math.h>
#include <string.h>
#include "cf-fft-plan.h"
#include "cf-layout.h"

/* A kw x kh matrix of integers in [lo, hi), rows by ';', fixed content. */
static char *
random_kernel (int kw, int kh, int lo, int hi, guint32 seed)
{
  GString *s = g_string_new (NULL);
  GRand *rand = g_rand_new_with_seed (seed);

  for (int j = 0; j < kh; j++) {
    for (int i = 0; i < kw; i++)
      g_string_append_printf (s, "%d ", g_rand_int_range (rand, lo, hi));
    if (j < kh - 1)
      g_string_append (s, ";");
  }
  g_rand_free (rand);
  return g_string_free (s, FALSE);
}

/* divisor 0: the kernel's sum (not a power of two, so the weights are
 * scaled up to the int32 limit). */
static CfSpec *
custom_spec (int kw, int kh, double divisor, int sample_bytes)
{
  CfParams params;
  GError *error = NULL;
  char *text = random_kernel (kw, kh, -3, 10, kw * 100 + kh);
  CfSpec *spec;

  cf_params_init (&params);
  params.filter = CF_FILTER_CUSTOM;
  params.kernel = text;
  params.divisor = divisor;
  spec = cf_spec_new (&params, sample_bytes, &error);
  g_assert_no_error (error);
  g_assert_false (spec->kp.separable);
  g_free (text);
  return spec;
}

static CfSpec *
filter_spec (CfFilter filter, int kernel_size, const char *kernel)
{
  CfParams params;
  GError *error = NULL;
  CfSpec *spec;

  cf_params_init (&params);
  params.filter = filter;
  params.kernel_size = kernel_size;
  params.kernel = kernel;
  spec = cf_spec_new (&params, 1, &error);
  g_assert_no_error (error);
  return spec;
}

static void
test_method_names (void)
{
  CfConvMethod m = CF_CONV_FFT;

  g_assert_true (cf_conv_method_parse (NULL, &m));
  g_assert_cmpint (m, ==, CF_CONV_AUTO);
  g_assert_true (cf_conv_method_parse ("direct", &m));
  g_assert_cmpint (m, ==, CF_CONV_DIRECT);
  g_assert_true (cf_conv_method_parse ("FFT", &m));
  g_assert_cmpint (m, ==, CF_CONV_FFT);
  g_assert_true (cf_conv_method_parse ("", &m));
  g_assert_cmpint (m, ==, CF_CONV_AUTO);
  g_assert_false (cf_conv_method_parse ("fast", &m));
  g_assert_cmpstr (cf_conv_method_name (CF_CONV_DIRECT), ==, "direct");
  g_assert_cmpstr (cf_conv_method_name (CF_CONV_FFT), ==, "fft");
  g_assert_cmpstr (cf_conv_method_name (CF_CONV_AUTO), ==, "auto");
}

static void
test_sizes (void)
{
  static const int smooth[] = { 1, 2, 3, 5, 7, 8, 49, 112, 126, 1000, 2187 };
  static const int rough[] = { 0, 11, 13, 22, 122, 124, 1006 };
  /* n -> the smallest even 7-smooth size >= n */
  static const int next[][2] = {
    {1, 2}, {3, 4}, {9, 10}, {11, 12}, {61, 64}, {75, 80}, {111, 112},
    {121, 126}, {123, 126}, {1981, 2000}, {1142, 1152}
  };

  for (guint i = 0; i < G_N_ELEMENTS (smooth); i++)
    g_assert_true (cf_fft_size_is_smooth (smooth[i]));
  for (guint i = 0; i < G_N_ELEMENTS (rough); i++)
    g_assert_false (cf_fft_size_is_smooth (rough[i]));
  for (guint i = 0; i < G_N_ELEMENTS (next); i++)
    g_assert_cmpint (cf_fft_next_size (next[i][0]), ==, next[i][1]);
}

static void
test_error_bound (void)
{
  /* 512 x 512: L = 18 + 2, (3 * 8 * 20 + 4) * 2^-53 * 512 * 2^7 * 2^23
   * = 484 * 2^-14, exactly. */
  g_assert_cmpfloat (cf_fft_error_bound (512, 512, 128, ldexp (1, 23)), ==,
      484.0 / 16384.0);
  /* Larger tiles, samples or weights only make it worse. */
  g_assert_cmpfloat (cf_fft_error_bound (1024, 512, 128, 1000), >,
      cf_fft_error_bound (512, 512, 128, 1000));
  g_assert_cmpfloat (cf_fft_error_bound (512, 512, 32768, 1000), >,
      cf_fft_error_bound (512, 512, 128, 1000));
  g_assert_cmpfloat (cf_fft_error_bound (512, 512, 128, 2000), ==,
      2 * cf_fft_error_bound (512, 512, 128, 1000));
  /* A whole 4K plane with 8-bit weights near the int32 limit would be
   * refused: that is why frames are tiled. */
  g_assert_cmpfloat (cf_fft_error_bound (3904, 2224, 128, ldexp (1, 23)), >,
      CF_FFT_MAX_ERROR);
}

static void
test_eligible (void)
{
  CfSpec *spec;

  spec = custom_spec (15, 15, 0, 1);
  g_assert_true (cf_fft_spec_eligible (spec));
  cf_spec_free (spec);
  /* Laplacian: dense, |.| post step */
  spec = filter_spec (CF_FILTER_LAPLACIAN, 5, NULL);
  g_assert_true (cf_fft_spec_eligible (spec));
  cf_spec_free (spec);
  /* separable and two-kernel specs never */
  spec = filter_spec (CF_FILTER_GAUSSIAN, 31, NULL);
  g_assert_false (cf_fft_spec_eligible (spec));
  cf_spec_free (spec);
  spec = filter_spec (CF_FILTER_SOBEL, 7, NULL);
  g_assert_false (cf_fft_spec_eligible (spec));
  cf_spec_free (spec);
  spec = filter_spec (CF_FILTER_CUSTOM, 0, "1 2 1; 2 4 2; 1 2 1");
  g_assert_false (cf_fft_spec_eligible (spec));
  cf_spec_free (spec);
}

/* What every tiling must satisfy. */
static void
check_geometry (const CfFftGeometry * g, const CfSpec * spec,
    const CfLayout * l)
{
  const CfFftTiles *t = &g->tiles;
  double sum_abs = 0.0;
  long long sum = 0;
  int next = 0;

  for (int i = 0; i < spec->kp.kw * spec->kp.kh; i++) {
    sum_abs += fabs ((double) spec->dense[i]);
    sum += spec->dense[i];
  }

  g_assert_true (cf_fft_size_is_smooth (t->fft_w));
  g_assert_true (cf_fft_size_is_smooth (t->fft_h));
  g_assert_cmpint (t->fft_w % 2, ==, 0);
  g_assert_cmpint (t->fft_h % 2, ==, 0);
  g_assert_cmpint (t->step_x, ==, t->fft_w - spec->kp.kw + 1);
  g_assert_cmpint (t->step_y, ==, t->fft_h - spec->kp.kh + 1);
  g_assert_cmpint (t->step_x, >=, 1);
  g_assert_cmpint (t->step_y, >=, 1);
  g_assert_cmpfloat (g->bound, <, CF_FFT_MAX_ERROR);
  g_assert_cmpfloat (g->bound, ==, cf_fft_error_bound (t->fft_w, t->fft_h,
          (spec->kp.maxval + 1) / 2, sum_abs));
  for (int c = 0; c < l->n_channels; c++) {
    const CfChannel *ch = &l->channels[c];

    g_assert_cmpint (t->first_tile[c], ==, next);
    if (ch->mode != CF_CHANNEL_FILTER) {
      g_assert_cmpint (t->tiles_x[c] * t->tiles_y[c], ==, 0);
      continue;
    }
    /* covered, and no tile wholly outside */
    g_assert_cmpint (t->tiles_x[c] * t->step_x, >=, ch->width);
    g_assert_cmpint ((t->tiles_x[c] - 1) * t->step_x, <, ch->width);
    g_assert_cmpint (t->tiles_y[c] * t->step_y, >=, ch->height);
    g_assert_cmpint ((t->tiles_y[c] - 1) * t->step_y, <, ch->height);
    next += t->tiles_x[c] * t->tiles_y[c];
  }
  g_assert_cmpint (t->n_tiles, ==, next);
  g_assert_cmpint (g->batch, >=, 1);
  g_assert_cmpint (g->batch, <=, t->n_tiles);
  g_assert_cmpuint (g->batch * cf_fft_tile_bytes (t->fft_w, t->fft_h), <=,
      MAX (CF_FFT_BATCH_BYTES, cf_fft_tile_bytes (t->fft_w, t->fft_h)));
  g_assert_cmpint (t->centre, ==, (spec->kp.maxval + 1) / 2);
  g_assert_cmpint (t->centre_sum, ==, t->centre * sum);
}

static void
test_geometry_small (void)
{
  CfSpec *spec = custom_spec (15, 15, 0, 1);
  CfFftGeometry g;
  CfLayout l;

  /* One tile covers 50x18 plus the apron, (50 + 14) x (18 + 14). */
  cf_layout_init_interleaved (&l, 50, 18, 1, 1, 0x1);
  g_assert_true (cf_fft_plan_geometry (spec, l.channels, l.n_channels, &g));
  check_geometry (&g, spec, &l);
  g_assert_cmpint (g.tiles.n_tiles, ==, 1);
  g_assert_cmpint (g.tiles.fft_w, ==, 64);
  g_assert_cmpint (g.tiles.fft_h, ==, 32);

  /* 97x61: one 112x80 tile or two narrower ones, as the cost model
   * weighs radix 7 against overlap. */
  cf_layout_init_interleaved (&l, 97, 61, 1, 1, 0x1);
  g_assert_true (cf_fft_plan_geometry (spec, l.channels, l.n_channels, &g));
  check_geometry (&g, spec, &l);
  g_assert_cmpint (g.tiles.n_tiles, <=, 2);

  /* Smaller than the kernel: still one tile. */
  cf_layout_init_interleaved (&l, 3, 1, 4, 1, 0x7);
  g_assert_true (cf_fft_plan_geometry (spec, l.channels, l.n_channels, &g));
  check_geometry (&g, spec, &l);
  g_assert_cmpint (g.tiles.n_tiles, ==, 3);
  g_assert_cmpint (g.tiles.fft_w, ==, 18);
  g_assert_cmpint (g.tiles.fft_h, ==, 16);
  cf_spec_free (spec);

  /* A kernel and a channel both shorter than the smallest tile (5 + 1 - 1
   * rows < 8): one 8-row tile, not the direct path. */
  spec = custom_spec (9, 5, 8, 1);
  cf_layout_init_interleaved (&l, 1, 1, 1, 1, 0x1);
  g_assert_true (cf_fft_plan_geometry (spec, l.channels, l.n_channels, &g));
  check_geometry (&g, spec, &l);
  g_assert_cmpint (g.tiles.n_tiles, ==, 1);
  g_assert_cmpint (g.tiles.fft_h, ==, 8);
  cf_spec_free (spec);
}

static void
test_geometry_large (void)
{
  static const int sizes[] = { 15, 31, 63 };
  CfFftGeometry g;
  CfLayout l;

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++) {
    CfSpec *spec = custom_spec (sizes[i], sizes[i], 0, 1);

    /* 4K RGBA, alpha copied: tiles for three channels only */
    cf_layout_init_interleaved (&l, 3840, 2160, 4, 1, 0x7);
    g_assert_true (cf_fft_plan_geometry (spec, l.channels, l.n_channels, &g));
    check_geometry (&g, spec, &l);
    g_assert_cmpint (g.tiles.n_tiles, >, 3);
    g_test_message ("%dx%d 4K RGBA: %dx%d tiles, %d of them, batch %d, "
        "bound %.3g", sizes[i], sizes[i], g.tiles.fft_w, g.tiles.fft_h,
        g.tiles.n_tiles, g.batch, g.bound);

    /* I420: chroma planes share the tile size, with tiles of their own */
    memset (&l, 0, sizeof (l));
    l.sample_bytes = 1;
    cf_layout_add_channel (&l, CF_CHANNEL_FILTER, 0, 1920, 1080, 1, 0, 0);
    cf_layout_add_channel (&l, CF_CHANNEL_FILTER, 1, 960, 540, 1, 0, 0);
    cf_layout_add_channel (&l, CF_CHANNEL_FILTER, 2, 960, 540, 1, 0, 0);
    g_assert_true (cf_fft_plan_geometry (spec, l.channels, l.n_channels, &g));
    check_geometry (&g, spec, &l);
    g_assert_cmpint (g.tiles.tiles_x[1], ==, g.tiles.tiles_x[2]);
    g_assert_cmpint (g.tiles.tiles_x[1] * g.tiles.tiles_y[1], <=,
        g.tiles.tiles_x[0] * g.tiles.tiles_y[0]);
    cf_spec_free (spec);
  }
}

static void
test_bound_refuses (void)
{
  CfSpec *spec;
  CfFftGeometry g;
  CfLayout l;

  cf_layout_init_interleaved (&l, 1920, 1080, 1, 2, 0x1);
  /* 16-bit samples with weights scaled towards 2^62: no tile is exact */
  spec = custom_spec (31, 31, 0, 2);
  g_assert_true (spec->kp.wide_acc);
  g_assert_false (cf_fft_plan_geometry (spec, l.channels, l.n_channels, &g));
  g_assert_false (cf_fft_decide (CF_CONV_FFT, spec, l.channels, l.n_channels,
          &g));
  cf_spec_free (spec);
  /* the same with integer weights (a power-of-two divisor) is fine */
  spec = custom_spec (31, 31, 256, 2);
  g_assert_true (cf_fft_plan_geometry (spec, l.channels, l.n_channels, &g));
  check_geometry (&g, spec, &l);
  cf_spec_free (spec);
}

static void
test_select (void)
{
  static const int sizes[] = { 3, 5, 7, 9, 11, 13, 15, 31, 63 };
  CfFftGeometry g;
  CfLayout l;
  CfSpec *spec;

  cf_layout_init_interleaved (&l, 640, 480, 4, 1, 0x7);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++) {
    int k = sizes[i];

    spec = custom_spec (k, k, 0, 1);
    g_assert_cmpint (cf_fft_decide (CF_CONV_AUTO, spec, l.channels,
            l.n_channels, &g), ==, k * k >= CF_FFT_CROSSOVER_AREA);
    g_assert_true (cf_fft_decide (CF_CONV_FFT, spec, l.channels,
            l.n_channels, &g));
    g_assert_false (cf_fft_decide (CF_CONV_DIRECT, spec, l.channels,
            l.n_channels, &g));
    cf_spec_free (spec);
  }
  /* a non-square kernel counts its area */
  spec = custom_spec (63, 2, 0, 1);
  g_assert_cmpint (cf_fft_decide (CF_CONV_AUTO, spec, l.channels,
          l.n_channels, &g), ==, 126 >= CF_FFT_CROSSOVER_AREA);
  cf_spec_free (spec);
  /* separable: never, whatever the method */
  spec = filter_spec (CF_FILTER_GAUSSIAN, 63, NULL);
  g_assert_false (cf_fft_decide (CF_CONV_FFT, spec, l.channels, l.n_channels,
          &g));
  cf_spec_free (spec);
  /* nothing to filter */
  cf_layout_init_interleaved (&l, 64, 64, 4, 1, 0x0);
  spec = custom_spec (31, 31, 0, 1);
  g_assert_false (cf_fft_decide (CF_CONV_FFT, spec, l.channels, l.n_channels,
          &g));
  cf_spec_free (spec);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fft/method-names", test_method_names);
  g_test_add_func ("/fft/sizes", test_sizes);
  g_test_add_func ("/fft/error-bound", test_error_bound);
  g_test_add_func ("/fft/eligible", test_eligible);
  g_test_add_func ("/fft/geometry-small", test_geometry_small);
  g_test_add_func ("/fft/geometry-large", test_geometry_large);
  g_test_add_func ("/fft/bound-refuses", test_bound_refuses);
  g_test_add_func ("/fft/select", test_select);
  return g_test_run ();
}
