/* cudafilter engine unit tests: weights, borders, kernel strings, specs and
 * hand-worked CPU results.  Reference numbers come from OpenCV 4.6
 * (getGaussianKernel, getDerivKernels, borderInterpolate) or are worked out by
 * hand; none are produced by the code under test. */
#include <math.h>
#include <string.h>
#include "cf-spec.h"
#include "cf-sample.h"
#include "cf-backend.h"
#include "cf-arith.h"

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

/* cv2.borderInterpolate (i, n, mode) for i = -7 .. 11 */
static const struct
{
  int n;
  CfBorder border;
  int map[19];
} border_ref[] = {
  {5, CF_BORDER_REFLECT101,
      {1, 2, 3, 4, 3, 2, 1, 0, 1, 2, 3, 4, 3, 2, 1, 0, 1, 2, 3}},
  {5, CF_BORDER_REPLICATE,
      {0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 4, 4, 4, 4, 4, 4, 4}},
  {5, CF_BORDER_REFLECT,
      {3, 4, 4, 3, 2, 1, 0, 0, 1, 2, 3, 4, 4, 3, 2, 1, 0, 0, 1}},
  {5, CF_BORDER_WRAP,
      {3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1}},
  {5, CF_BORDER_CONSTANT, {-1, -1, -1, -1, -1, -1, -1, 0, 1, 2, 3, 4, -1, -1,
          -1, -1, -1, -1, -1}},
  {2, CF_BORDER_REFLECT101,
      {1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1}},
  {2, CF_BORDER_REFLECT,
      {1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0}},
  {2, CF_BORDER_WRAP,
      {1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1}},
  {1, CF_BORDER_REFLECT101, {0}},
  {1, CF_BORDER_REFLECT, {0}},
  {1, CF_BORDER_WRAP, {0}},
  {1, CF_BORDER_REPLICATE, {0}},
};

static void
test_border_index (void)
{
  guint t;
  int i;

  for (t = 0; t < G_N_ELEMENTS (border_ref); t++)
    for (i = -7; i <= 11; i++)
      g_assert_cmpint (cf_border_index (i, border_ref[t].n,
              border_ref[t].border), ==, border_ref[t].map[i + 7]);
  /* far outside still lands inside */
  g_assert_cmpint (cf_border_index (-1000001, 7, CF_BORDER_REFLECT101), >=, 0);
  g_assert_cmpint (cf_border_index (1000001, 7, CF_BORDER_REFLECT), <, 7);
}

static void
test_kernel_parse_good (void)
{
  double *v;
  int w, h;

  g_assert_true (cf_kernel_parse ("0 -1 0; -1 5 -1; 0 -1 0", &w, &h, &v,
          NULL));
  g_assert_cmpint (w, ==, 3);
  g_assert_cmpint (h, ==, 3);
  g_assert_cmpfloat (v[4], ==, 5.0);
  g_assert_cmpfloat (v[3], ==, -1.0);
  g_free (v);

  g_assert_true (cf_kernel_parse ("1,2,3;4,5,6;", &w, &h, &v, NULL));
  g_assert_cmpint (w, ==, 3);
  g_assert_cmpint (h, ==, 2);
  g_assert_cmpfloat (v[5], ==, 6.0);
  g_free (v);

  g_assert_true (cf_kernel_parse ("  -1.5e0 ,\t2.25 ", &w, &h, &v, NULL));
  g_assert_cmpint (w, ==, 2);
  g_assert_cmpint (h, ==, 1);
  g_assert_cmpfloat (v[0], ==, -1.5);
  g_assert_cmpfloat (v[1], ==, 2.25);
  g_free (v);
}

static void
test_kernel_parse_bad (void)
{
  const char *bad[] = { "", "   ", "1 2; 3", "1 x 3", "1;;2", "nan 1",
    "1 2 3; 4 5", "1e999", "1 2 3q", ";"
  };
  GString *big = g_string_new (NULL);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    GError *err = NULL;
    double *v = NULL;
    int w, h;

    g_assert_false (cf_kernel_parse (bad[i], &w, &h, &v, &err));
    g_assert_error (err, CF_ERROR, CF_ERROR_KERNEL_STRING);
    g_assert_nonnull (strstr (err->message, "kernel"));
    g_assert_null (v);
    g_error_free (err);
  }
  for (i = 0; i < 64; i++)
    g_string_append (big, "1 ");
  {
    GError *err = NULL;
    double *v = NULL;
    int w, h;

    g_assert_false (cf_kernel_parse (big->str, &w, &h, &v, &err));
    g_assert_nonnull (strstr (err->message, "too large"));
    g_error_free (err);
  }
  g_string_free (big, TRUE);
}

static void
test_separable (void)
{
  static const double blur[] = { 1, 2, 1, 2, 4, 2, 1, 2, 1 };
  static const double sharp[] = { 0, -1, 0, -1, 5, -1, 0, -1, 0 };
  static const double line[] = { 1, -3, 7, 0.5 };
  double col[4], row[4];
  int i, j;

  g_assert_true (cf_kernel_separate (blur, 3, 3, col, row));
  for (j = 0; j < 3; j++)
    for (i = 0; i < 3; i++)
      g_assert_cmpfloat_with_epsilon (col[j] * row[i], blur[j * 3 + i], 1e-12);
  g_assert_false (cf_kernel_separate (sharp, 3, 3, col, row));
  g_assert_true (cf_kernel_separate (line, 4, 1, col, row));
  g_assert_true (cf_kernel_separate (line, 1, 4, col, row));
}

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
dense_bytes_of (const CfParams * p)
{
  CfSpec *s = cf_spec_new (p, 1, NULL);
  gboolean bytes;

  g_assert_nonnull (s);
  bytes = s->kp.dense_bytes;
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
  g_assert_true (s->kp.dense_bytes);
  cf_spec_free (s);
  /* a divisor of 41 quantises the taps with many fractional bits */
  p.kernel = "1 2 0 -1 3; 4 -2 7 1 0; 2 2 9 2 2; 0 1 -3 5 1; 3 -1 0 2 1";
  g_assert_false (dense_bytes_of (&p));
  p.kernel = "0 1 0; 1 128 1; 0 1 0";
  p.divisor = 1.0;
  g_assert_false (dense_bytes_of (&p));
  /* separable specs never set it */
  p.kernel = "1 2 1; 2 4 2; 1 2 1";
  g_assert_false (dense_bytes_of (&p));

  cf_params_init (&p);
  p.filter = CF_FILTER_LAPLACIAN;
  g_assert_true (dense_bytes_of (&p));
}

/* Runs `params` on a w x h GRAY8 image on the CPU backend. */
static void
run_gray8 (const CfParams * params, const guint8 * in, guint8 * out, int w,
    int h)
{
  CfSpec *spec = cf_spec_new (params, 1, NULL);
  CfBackend *be = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
  CfLayout layout;
  CfFrame fin = { {(guint8 *) in}, {w} }, fout = { {out}, {w} };

  g_assert_nonnull (spec);
  cf_layout_init_interleaved (&layout, w, h, 1, 1, 0x1);
  g_assert_true (cf_backend_process (be, spec, &layout, &fin, &fout, NULL));
  cf_backend_free (be);
  cf_spec_free (spec);
}

static void
test_cpu_hand_worked (void)
{
  static const guint8 nine[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
  guint8 out[64], in[64];
  CfParams p;
  int x;

  /* box 3x3, reflect101, centre of 1..9: 45 / 9 = 5; corner (0,0) sees
   * 5 4 5 / 2 1 2 / 5 4 5 = 33 → 33 / 9 = 3.67 → 4 */
  cf_params_init (&p);
  p.filter = CF_FILTER_BOX;
  run_gray8 (&p, nine, out, 3, 3);
  g_assert_cmpint (out[4], ==, 5);
  g_assert_cmpint (out[0], ==, 4);

  /* 1x1 frame, constant border 0, box 3x3: 90 / 9 = 10 */
  p.border = CF_BORDER_CONSTANT;
  in[0] = 90;
  run_gray8 (&p, in, out, 1, 1);
  g_assert_cmpint (out[0], ==, 10);

  /* a Gaussian of a 1x1 frame with any reflecting border is the pixel */
  cf_params_init (&p);
  p.sigma = 3.0;
  in[0] = 200;
  run_gray8 (&p, in, out, 1, 1);
  g_assert_cmpint (out[0], ==, 200);

  /* identity custom kernel */
  cf_params_init (&p);
  p.filter = CF_FILTER_CUSTOM;
  p.kernel = "0 0 0; 0 1 0; 0 0 0";
  run_gray8 (&p, nine, out, 3, 3);
  g_assert_cmpmem (out, 9, nine, 9);

  /* sobel-x of a ramp 10 * x on 8x3: inside, 4 * (f(x+1) - f(x-1)) = 80;
   * at x = 0 reflect101 mirrors f(-1) = f(1): 0 */
  cf_params_init (&p);
  p.filter = CF_FILTER_SOBEL_X;
  for (x = 0; x < 24; x++)
    in[x] = 10 * (x % 8);
  run_gray8 (&p, in, out, 8, 3);
  g_assert_cmpint (out[8 + 3], ==, 80);
  g_assert_cmpint (out[8 + 0], ==, 0);
  /* the same with scale 0.5 and offset 3: 43 */
  p.scale = 0.5;
  p.offset = 3.0;
  run_gray8 (&p, in, out, 8, 3);
  g_assert_cmpint (out[8 + 3], ==, 43);

  /* sobel magnitude of the ramp: sqrt (80^2 + 0) = 80 */
  cf_params_init (&p);
  p.filter = CF_FILTER_SOBEL;
  run_gray8 (&p, in, out, 8, 3);
  g_assert_cmpint (out[8 + 4], ==, 80);

  /* laplacian (4-neighbour) of a single 10 in zeros: centre |-40| = 40,
   * direct neighbours 10 */
  memset (in, 0, 25);
  in[12] = 10;
  cf_params_init (&p);
  p.filter = CF_FILTER_LAPLACIAN;
  run_gray8 (&p, in, out, 5, 5);
  g_assert_cmpint (out[12], ==, 40);
  g_assert_cmpint (out[7], ==, 10);
  g_assert_cmpint (out[6], ==, 0);

  /* sharpen of a constant frame is the frame */
  memset (in, 77, 25);
  cf_params_init (&p);
  p.filter = CF_FILTER_SHARPEN;
  p.amount = 3.0;
  run_gray8 (&p, in, out, 5, 5);
  for (x = 0; x < 25; x++)
    g_assert_cmpint (out[x], ==, 77);
}

static void
test_cpu_gaussian_impulse (void)
{
  /* Impulse 255 at the centre of 5x5 zeros, sigma 1, 3 taps (70 116 70):
   * centre = round (255 * 116 * 116 / 65536) = round (52.36) = 52,
   * edge neighbour = round (255 * 70 * 116 / 65536) = round (31.59) = 32,
   * diagonal = round (255 * 70 * 70 / 65536) = round (19.07) = 19. */
  guint8 in[25] = { 0 }, out[25];
  CfParams p;

  in[12] = 255;
  cf_params_init (&p);
  p.kernel_size = 3;
  run_gray8 (&p, in, out, 5, 5);
  g_assert_cmpint (out[12], ==, 52);
  g_assert_cmpint (out[7], ==, 32);
  g_assert_cmpint (out[11], ==, 32);
  g_assert_cmpint (out[6], ==, 19);
  g_assert_cmpint (out[0], ==, 0);
}

static void
test_cpu_layout_copy_fill (void)
{
  /* RGBA 2x2: RGB filtered (box of a constant = constant), alpha copied */
  guint8 in[16], out[16];
  CfParams p;
  CfSpec *spec;
  CfBackend *be;
  CfLayout layout;
  CfFrame fin = { {in}, {8} }, fout = { {out}, {8} };
  int i;

  for (i = 0; i < 16; i++)
    in[i] = (i % 4 == 3) ? (guint8) (i * 10) : 100;
  cf_params_init (&p);
  p.filter = CF_FILTER_BOX;
  spec = cf_spec_new (&p, 1, NULL);
  be = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
  cf_layout_init_interleaved (&layout, 2, 2, 4, 1, 0x7);
  g_assert_true (cf_backend_process (be, spec, &layout, &fin, &fout, NULL));
  for (i = 0; i < 16; i++)
    g_assert_cmpint (out[i], ==, (i % 4 == 3) ? i * 10 : 100);

  /* a FILL job writes its value */
  memset (&layout, 0, sizeof (layout));
  layout.sample_bytes = 1;
  cf_layout_add_channel (&layout, CF_CHANNEL_FILL, 0, 2, 2, 4, 1, 128);
  g_assert_true (cf_backend_process (be, spec, &layout, &fin, &fout, NULL));
  g_assert_cmpint (out[1], ==, 128);
  g_assert_cmpint (out[13], ==, 128);
  cf_backend_free (be);
  cf_spec_free (spec);
}

static void
test_cpu_gray16 (void)
{
  guint16 in[35], out[35];
  CfParams p;
  CfSpec *spec;
  CfBackend *be;
  CfLayout layout;
  CfFrame fin = { {(guint8 *) in}, {14} }, fout = { {(guint8 *) out}, {14} };
  int i;

  for (i = 0; i < 35; i++)
    in[i] = 40000;
  cf_params_init (&p);
  p.sigma = 2.0;
  spec = cf_spec_new (&p, 2, NULL);
  be = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
  cf_layout_init_interleaved (&layout, 7, 5, 1, 2, 0x1);
  g_assert_true (cf_backend_process (be, spec, &layout, &fin, &fout, NULL));
  for (i = 0; i < 35; i++)
    g_assert_cmpint (out[i], ==, 40000);
  cf_backend_free (be);
  cf_spec_free (spec);
}

/* The sample accessor by hand: P010 keeps 10 bits at bit 6 of 16 and is
 * written back with the low bits zero; a field of a shared 32-bit word
 * changes only its own bits; encodings no backend reads are refused. */
static void
test_sample_encoding (void)
{
  CfLayout layout = { 0 };
  CfChannel p010 = { 0 }, green = { 0 };
  guint8 w16[2] = { 0xFF, 0xFF };       /* 1023 << 6 | 0x3F */
  guint8 w32[4] = { 0x78, 0x56, 0x34, 0x12 };

  p010.word_bytes = 2;
  p010.depth = 10;
  p010.shift = 6;
  g_assert_cmpint (cf_sample_read (w16, &p010), ==, 1023);
  cf_sample_write (w16, &p010, 512);
  g_assert_cmpint (w16[0] | w16[1] << 8, ==, 512 << 6);

  /* 0x12345678: bits 10-19 are 0x115 */
  green.word_bytes = 4;
  green.depth = 10;
  green.shift = 10;
  green.shared_word = 1;
  g_assert_cmpint (cf_sample_read (w32, &green), ==, 0x115);
  cf_sample_write (w32, &green, 0x3FF);
  g_assert_cmphex (GUINT32_FROM_LE (*(guint32 *) w32), ==,
      0x12345678u | (0x3FFu << 10));

  layout.sample_bytes = 2;
  g_assert_true (cf_layout_add_channel (&layout, CF_CHANNEL_FILTER, 0, 4, 4,
          2, 0, 0));
  g_assert_cmpint (layout.channels[0].word_bytes, ==, 2);
  g_assert_cmpint (layout.channels[0].depth, ==, 16);
  g_assert_false (cf_layout_set_encoding (&layout, 3, 10, 0, FALSE));
  g_assert_false (cf_layout_set_encoding (&layout, 2, 10, 7, FALSE));
  g_assert_false (cf_layout_set_encoding (&layout, 2, 10, 0, TRUE));
  g_assert_false (cf_layout_set_encoding (&layout, 4, 17, 0, TRUE));
  g_assert_true (cf_layout_set_encoding (&layout, 2, 10, 6, FALSE));
}

/* A spec per depth: 10-bit values saturate at 1023, the border value is
 * clamped there, and a 12-bit box of 4095 stays 4095. */
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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/weights/gaussian", test_gaussian_weights);
  g_test_add_func ("/weights/gaussian-fixed", test_gaussian_fixed);
  g_test_add_func ("/weights/sobel", test_sobel_taps);
  g_test_add_func ("/border/index", test_border_index);
  g_test_add_func ("/kernel/parse-good", test_kernel_parse_good);
  g_test_add_func ("/kernel/parse-bad", test_kernel_parse_bad);
  g_test_add_func ("/kernel/separable", test_separable);
  g_test_add_func ("/spec/validation", test_spec_validation);
  g_test_add_func ("/spec/shapes", test_spec_shapes);
  g_test_add_func ("/cpu/hand-worked", test_cpu_hand_worked);
  g_test_add_func ("/cpu/gaussian-impulse", test_cpu_gaussian_impulse);
  g_test_add_func ("/cpu/layout-copy-fill", test_cpu_layout_copy_fill);
  g_test_add_func ("/cpu/gray16", test_cpu_gray16);
  g_test_add_func ("/sample/encoding", test_sample_encoding);
  g_test_add_func ("/spec/depth", test_spec_depth);
  return g_test_run ();
}
