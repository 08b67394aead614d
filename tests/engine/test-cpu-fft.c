/* The CPU backend's FFT path (FFTW) against the reference CPU backend, byte
 * for byte: dense kernels from 7x7 to the largest allowed, every border,
 * the linear and the absolute post steps, 8- and 16-bit samples, GRAY, RGBA (alpha copied), planar with a filled
 * plane, odd sizes, frames cut into several tiles, padded strides, 1 to 3
 * threads.  Every case asserts that the FFT path was taken, so a silent
 * fall back to the direct path cannot pass for it; and that it is not
 * taken where the error bound fails or below the crossover (a cost of the
 * direct plan, checked on hand-counted terms). */
#include "config.h"

#include <string.h>
#include "cf-spec.h"
#include "cf-backend.h"
#include "cf-cpu-fft.h"
#include "cf-cpu-plan.h"

typedef enum
{
  L_GRAY, L_RGBA, L_PLANAR, L_N
} LayoutKind;

typedef struct
{
  guint8 *data;
  gsize bytes;
  CfFrame frame;
} Image;

/* Random integers in [lo, hi) as a kernel string of n x m (rows x cols). */
static char *
kernel_text (int rows, int cols, int lo, int hi, GRand * rand)
{
  GString *s = g_string_new (NULL);

  for (int j = 0; j < rows; j++) {
    for (int i = 0; i < cols; i++)
      g_string_append_printf (s, "%d ", g_rand_int_range (rand, lo, hi));
    g_string_append (s, j < rows - 1 ? ";" : "");
  }
  return g_string_free (s, FALSE);
}

static CfSpec *
custom_spec (const char *kernel, double divisor, double offset, int border,
    int sample_bytes)
{
  CfParams p;
  GError *err = NULL;
  CfSpec *spec;

  cf_params_init (&p);
  p.filter = CF_FILTER_CUSTOM;
  p.kernel = kernel;
  p.divisor = divisor;
  p.offset = offset;
  p.border = border;
  p.border_value = sample_bytes == 1 ? 201 : 50001;
  spec = cf_spec_new (&p, sample_bytes, &err);
  g_assert_no_error (err);
  return spec;
}

static void
make_layout (CfLayout * l, LayoutKind k, int w, int h, int sb, int pad,
    int *strides)
{
  switch (k) {
    case L_GRAY:
      cf_layout_init_interleaved (l, w, h, 1, sb, 0x1);
      break;
    case L_RGBA:
      cf_layout_init_interleaved (l, w, h, 4, sb, 0x7);
      break;
    default:
      memset (l, 0, sizeof (*l));
      l->sample_bytes = sb;
      cf_layout_add_channel (l, CF_CHANNEL_FILTER, 0, w, h, sb, 0, 0);
      cf_layout_add_channel (l, CF_CHANNEL_FILTER, 1, (w + 1) / 2,
          (h + 1) / 2, sb, 0, 0);
      cf_layout_add_channel (l, CF_CHANNEL_FILL, 2, (w + 1) / 2,
          (h + 1) / 2, sb, 0, sb == 1 ? 128 : 32768);
      break;
  }
  for (int p = 0; p < l->n_planes; p++)
    strides[p] = l->plane_row_bytes[p] + pad;
}

static void
image_init (Image * im, const CfLayout * l, const int *strides, GRand * rand)
{
  gsize off[CF_MAX_PLANES], total = 0;

  for (int p = 0; p < l->n_planes; p++) {
    off[p] = total;
    total += (gsize) strides[p] * l->plane_height[p];
  }
  im->bytes = total;
  im->data = g_malloc (total + 1);
  memset (&im->frame, 0, sizeof (im->frame));
  for (int p = 0; p < l->n_planes; p++) {
    im->frame.data[p] = im->data + off[p];
    im->frame.stride[p] = strides[p];
  }
  /* Many extreme samples, so saturation and clamping are exercised. */
  for (gsize i = 0; i < total; i++) {
    guint32 r = g_rand_int (rand);

    im->data[i] = (r & 7) == 0 ? 0 : (r & 7) == 1 ? 255 : (guint8) (r >> 8);
  }
}

static CfBackend *
fft_backend (const char *method, int threads)
{
  CfBackend *be;

  g_setenv ("CUDAFILTER_CPU_CONVOLUTION", method, TRUE);
  be = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
  g_unsetenv ("CUDAFILTER_CPU_CONVOLUTION");
  g_assert_nonnull (be);
  cf_backend_set_cpu_threads (be, threads);
  return be;
}

/* Filters one frame with `be` and the reference; TRUE when `be` took the
 * FFT path.  Fails on the first byte that differs. */
static gboolean
check_frame (CfBackend * be, CfBackend * ref, const CfSpec * spec,
    LayoutKind k, int w, int h, int sb, int pad, GRand * rand,
    const char *what)
{
  int strides[CF_MAX_PLANES];
  CfLayout l;
  Image in, want, got;
  gboolean fft;

  make_layout (&l, k, w, h, sb, pad, strides);
  image_init (&in, &l, strides, rand);
  image_init (&want, &l, strides, rand);
  image_init (&got, &l, strides, rand);
  /* Both start from the same bytes: padding must stay. */
  memcpy (got.data, want.data, got.bytes);
  g_assert_true (cf_backend_process (ref, spec, &l, &in.frame, &want.frame,
          NULL));
  g_assert_true (cf_backend_process (be, spec, &l, &in.frame, &got.frame,
          NULL));
  fft = strstr (cf_backend_describe_plan (be), "FFT") != NULL;
  if (memcmp (got.data, want.data, got.bytes) != 0) {
    gsize i;

    for (i = 0; got.data[i] == want.data[i]; i++);
    g_error ("%s: layout %d %dx%d sb %d pad %d on %s: byte %" G_GSIZE_FORMAT
        " is %d, the reference %d", what, k, w, h, sb, pad,
        cf_backend_describe_plan (be), i, got.data[i], want.data[i]);
  }
  g_free (in.data);
  g_free (want.data);
  g_free (got.data);
  return fft;
}

static const int sizes[][2] = {
  {1, 1}, {2, 3}, {7, 4}, {37, 23}, {64, 1},
  /* wider than one tile (CF_CPU_FFT_MAX_SIDE): several tiles a row */
  {1031, 5}, {3, 611},
};

static void
test_matches_reference (void)
{
  /* rows x cols, weights in [lo, hi), divisor (0: the sum), offset */
  static const struct
  {
    int rows, cols, lo, hi;
    double divisor, offset;
  } kernels[] = {
    {7, 7, -6, 10, 0, 0},
    {5, 9, -3, 4, 7, 40},       /* asymmetric, fractional, negative sums */
    {15, 15, 0, 9, 0, 0},
    {63, 63, -2, 5, 0, 3},      /* the largest allowed */
  };
  CfBackend *ref = cf_backend_new (CF_BACKEND_CPU_REFERENCE, -1, NULL);
  CfBackend *be[4];
  GRand *rand = g_rand_new_with_seed (29);
  guint n = 0;

  for (int t = 1; t <= 3; t++)
    be[t] = fft_backend ("fft", t);
  for (guint q = 0; q < G_N_ELEMENTS (kernels); q++) {
    char *text = kernel_text (kernels[q].rows, kernels[q].cols,
        kernels[q].lo, kernels[q].hi, rand);

    for (int sb = 1; sb <= 2; sb++) {
      for (int border = CF_BORDER_REFLECT101; border <= CF_BORDER_CONSTANT;
          border++) {
        /* 16-bit sums through FFTs are exact for a power-of-two divisor
         * (a sum's divisor gives weights scaled for 64-bit sums, beyond
         * the bound: see test_bound_fails). */
        CfSpec *spec = custom_spec (text, sb == 1 ? kernels[q].divisor : 16,
            kernels[q].offset, border, sb);

        for (int k = 0; k < L_N; k++) {
          for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
            int threads = 1 + (int) ((q + s + k + border) % 3);
            int pad = (int) (s % 2) * 2 * sb;
            char *what = g_strdup_printf ("kernel %dx%d border %d",
                kernels[q].cols, kernels[q].rows, border);

            /* The 63x63 case on the small sizes only: it is slow on the
             * reference. */
            if (kernels[q].rows == 63 && s >= 5 && k != L_GRAY)
              continue;
            g_assert_true (check_frame (be[threads], ref, spec, k,
                    sizes[s][0], sizes[s][1], sb, pad, rand, what));
            n++;
            g_free (what);
          }
        }
        cf_spec_free (spec);
      }
    }
    g_free (text);
  }
  g_test_message ("%u frames through FFTs identical to the reference", n);
  for (int t = 1; t <= 3; t++)
    cf_backend_free (be[t]);
  cf_backend_free (ref);
  g_rand_free (rand);
}

/* The absolute post step (Laplacian 7x7, dense, with scale and offset):
 * every border, both sample sizes, every layout. */
static void
test_abs_post (void)
{
  CfBackend *ref = cf_backend_new (CF_BACKEND_CPU_REFERENCE, -1, NULL);
  CfBackend *be = fft_backend ("fft", 2);
  GRand *rand = g_rand_new_with_seed (11);

  for (int sb = 1; sb <= 2; sb++) {
    for (int border = CF_BORDER_REFLECT101; border <= CF_BORDER_CONSTANT;
        border++) {
      CfParams p;
      CfSpec *spec;

      cf_params_init (&p);
      p.filter = CF_FILTER_LAPLACIAN;
      p.kernel_size = 7;
      p.scale = 0.37;
      p.offset = -5;
      p.border = border;
      p.border_value = sb == 1 ? 3 : 60000;
      spec = cf_spec_new (&p, sb, NULL);
      g_assert_nonnull (spec);
      g_assert_cmpint (spec->kp.op, ==, CF_OP_ABS);
      for (int k = 0; k < L_N; k++)
        for (guint s = 2; s < G_N_ELEMENTS (sizes); s++)
          g_assert_true (check_frame (be, ref, spec, k, sizes[s][0],
                  sizes[s][1], sb, (int) (s % 2) * 2 * sb, rand,
                  "laplacian 7"));
      cf_spec_free (spec);
    }
  }
  cf_backend_free (be);
  cf_backend_free (ref);
  g_rand_free (rand);
}

/* Weights whose sums are too large for the bound: the direct path, with
 * the reason said, and the same bytes. */
static void
test_bound_fails (void)
{
  CfBackend *ref = cf_backend_new (CF_BACKEND_CPU_REFERENCE, -1, NULL);
  CfBackend *be = fft_backend ("fft", 2);
  GRand *rand = g_rand_new_with_seed (3);
  char *text = kernel_text (7, 7, -6, 10, rand);
  /* 16-bit samples, weights divided by their sum: scaled towards 2^62. */
  CfSpec *spec = custom_spec (text, 0, 0, CF_BORDER_REFLECT101, 2);
  const char *why = NULL;
  CfLayout l;
  int strides[CF_MAX_PLANES];

  g_assert_true (spec->kp.wide_acc);

  CfCpuPlan *direct;

  make_layout (&l, L_GRAY, 40, 30, 2, 0, strides);
  direct = cf_cpu_plan_new (spec, &l);
  g_assert_null (cf_cpu_fft_new (CF_CONV_FFT, spec, &l, direct, &why));
  cf_cpu_plan_free (direct);
  g_assert_cmpstr (why, ==, "no tile size keeps the error bound");
  g_assert_false (check_frame (be, ref, spec, L_GRAY, 40, 30, 2, 0, rand,
          "beyond the bound"));
  cf_spec_free (spec);
  g_free (text);
  cf_backend_free (be);
  cf_backend_free (ref);
  g_rand_free (rand);
}

static int
direct_cost (const CfSpec * spec, LayoutKind k)
{
  CfLayout l;
  int strides[CF_MAX_PLANES], cost;
  CfCpuPlan *direct;

  make_layout (&l, k, 50, 40, spec->kp.sample_bytes, 0, strides);
  direct = cf_cpu_plan_new (spec, &l);
  cost = cf_cpu_fft_direct_cost (direct);
  cf_cpu_plan_free (direct);
  return cost;
}

/* The direct cost counts terms: a 7x7 Laplacian's weights are point
 * symmetric (24 pairs and the centre), a random matrix's are not. */
static void
test_direct_cost (void)
{
  CfParams p;
  CfSpec *spec;
  GRand *rand = g_rand_new_with_seed (8);
  char *text = kernel_text (7, 7, 1, 1000, rand);

  cf_params_init (&p);
  p.filter = CF_FILTER_LAPLACIAN;
  p.kernel_size = 7;
  spec = cf_spec_new (&p, 1, NULL);
  g_assert_cmpint (direct_cost (spec, L_GRAY), ==, 25);
  cf_spec_free (spec);
  /* 49 distinct weights (a repeat would pair only if point-mirrored). */
  spec = custom_spec (text, 0, 0, CF_BORDER_REFLECT101, 1);
  g_assert_cmpint (direct_cost (spec, L_RGBA), >=, 45);
  cf_spec_free (spec);
  g_free (text);
  g_rand_free (rand);
}

/* `auto` takes the FFT path from a direct cost of
 * CF_CPU_FFT_CROSSOVER_COST, `direct` never, and each is still the
 * reference's bytes. */
static void
test_methods (void)
{
  CfBackend *ref = cf_backend_new (CF_BACKEND_CPU_REFERENCE, -1, NULL);
  CfBackend *autob = fft_backend ("auto", 1), *direct = fft_backend ("direct",
      1);
  GRand *rand = g_rand_new_with_seed (5);
  CfSpec *below = NULL, *above = NULL;

  /* Random square kernels of growing size: the last below the crossover
   * and the first at it. */
  for (int side = 1; above == NULL; side += 2) {
    char *text = kernel_text (side, side, 1, 1000, rand);
    CfSpec *spec = custom_spec (text, 0, 0, CF_BORDER_REPLICATE, 1);

    g_free (text);
    if (direct_cost (spec, L_RGBA) >= CF_CPU_FFT_CROSSOVER_COST) {
      above = spec;
    } else {
      cf_spec_free (below);
      below = spec;
    }
  }
  g_assert_nonnull (below);

  g_assert_false (check_frame (autob, ref, below, L_RGBA, 50, 40, 1, 0,
          rand, "auto below"));
  g_assert_true (check_frame (autob, ref, above, L_RGBA, 50, 40, 1, 0, rand,
          "auto above"));
  g_assert_false (check_frame (direct, ref, above, L_RGBA, 50, 40, 1, 0,
          rand, "direct"));
  cf_spec_free (below);
  cf_spec_free (above);
  cf_backend_free (autob);
  cf_backend_free (direct);
  cf_backend_free (ref);
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (cf_cpu_fft_unavailable () != NULL) {
    /* Built with fftw3.h, but no library to run: nothing to compare. */
    g_test_message ("%s", cf_cpu_fft_unavailable ());
    return 77;
  }
  g_test_add_func ("/cpu-fft/matches-reference", test_matches_reference);
  g_test_add_func ("/cpu-fft/abs-post", test_abs_post);
  g_test_add_func ("/cpu-fft/bound-fails", test_bound_fails);
  g_test_add_func ("/cpu-fft/direct-cost", test_direct_cost);
  g_test_add_func ("/cpu-fft/methods", test_methods);
  return g_test_run ();
}
