/* The fast CPU backend against the reference CPU backend, byte for byte:
 * every filter, border and sample size, interleaved, planar and
 * semi-planar layouts with copied and filled channels, sizes from 1x1 to
 * odd sizes larger than the kernels, padded strides, 1 to 5 threads (bands
 * thinner than the kernel radius) and every row-kernel variant this
 * machine runs.  The reference itself is checked against OpenCV and hand
 * values elsewhere (test_reference.py, test-engine.c). */
#include <string.h>
#include "cf-spec.h"
#include "cf-backend.h"

typedef struct
{
  const char *name;
  CfFilter filter;
  double sigma, sigma_y;
  int kernel_size;
  const char *kernel;
  double divisor, offset, scale, amount;
} Case;

#define ONES_11 "1 1 1 1 1 1 1 1 1 1 1; "
#define HUGE_11X11 ONES_11 ONES_11 ONES_11 ONES_11 ONES_11 ONES_11 ONES_11 \
  ONES_11 ONES_11 ONES_11 "1 1 1 1 1 1 1 1 0.7 0.3 0.5"

static const Case cases[] = {
  {"gaussian-s1", CF_FILTER_GAUSSIAN, 1.0},
  {"gaussian-s2", CF_FILTER_GAUSSIAN, 2.0},
  {"gaussian-aniso", CF_FILTER_GAUSSIAN, 0.8, 1.7},
  {"gaussian-k3", CF_FILTER_GAUSSIAN, 3.0, 0, 3},
  /* The largest: 121 taps at 8 bits; 187 x 145 and 249 x 193 at 16. */
  {"gaussian-s20", CF_FILTER_GAUSSIAN, 20.0},
  {"gaussian-s31-24", CF_FILTER_GAUSSIAN, 31.0, 24.0},
  {"box-1", CF_FILTER_BOX, 1, 0, 1},
  {"box-3", CF_FILTER_BOX, 1, 0, 3},
  {"box-7", CF_FILTER_BOX, 1, 0, 7},
  {"sobel", CF_FILTER_SOBEL, 1, 0, 0},
  {"sobel-5", CF_FILTER_SOBEL, 1, 0, 5, NULL, 0, 0, 0.5},
  {"sobel-1", CF_FILTER_SOBEL, 1, 0, 1},
  {"sobel-x", CF_FILTER_SOBEL_X, 1, 0, 3, NULL, 0, 10, 1},
  {"sobel-y-7", CF_FILTER_SOBEL_Y, 1, 0, 7, NULL, 0, 0, 0.01},
  /* A scale beyond float: infinities and NaNs decide the samples. */
  {"sobel-x-inf", CF_FILTER_SOBEL_X, 1, 0, 3, NULL, 0, 0, 1e39},
  {"scharr", CF_FILTER_SCHARR, 1, 0, 0, NULL, 0, 3, 0.25},
  {"laplacian", CF_FILTER_LAPLACIAN, 1},
  {"laplacian-3", CF_FILTER_LAPLACIAN, 1, 0, 3},
  {"laplacian-5", CF_FILTER_LAPLACIAN, 1, 0, 5, NULL, 0, -7, 2},
  {"sharpen", CF_FILTER_SHARPEN, 1.5, 0, 0, NULL, 0, 0, 1, 1.7},
  {"custom-sharpen", CF_FILTER_CUSTOM, 1, 0, 0, "0 -1 0; -1 5 -1; 0 -1 0"},
  {"custom-5x5", CF_FILTER_CUSTOM, 1, 0, 0,
      "1 4 6 4 1; 4 16 24 16 4; 6 24 36 24 6; 4 16 24 16 4; 1 4 6 4 1"},
  {"custom-dense-frac", CF_FILTER_CUSTOM, 1, 0, 0,
      "1 2 0 1 3; 0 1 2 0 1; 2 3 1 1 0; 1 0 2 1 2; 0 1 1 3 1", 29},
  {"custom-separable-frac", CF_FILTER_CUSTOM, 1, 0, 0,
      "1 1 1 1 1; 1 1 1 1 1; 1 1 1 1 1"},
  {"custom-asym", CF_FILTER_CUSTOM, 1, 0, 0, "1 -2; 3 0.5", 1, 40, 0.7},
  {"custom-emboss", CF_FILTER_CUSTOM, 1, 0, 0, "-2 -1 0; -1 1 1; 0 1 2",
      1, 128},
  /* Equal negative column weights: a box-like running sum must keep the
   * sign. */
  {"custom-negative", CF_FILTER_CUSTOM, 1, 0, 0, "1 2 1", -4, 255},
  {"custom-negative-box", CF_FILTER_CUSTOM, 1, 0, 0, "1 1 1; 1 1 1; 1 1 1",
      -9, 255},
  {"custom-zero", CF_FILTER_CUSTOM, 1, 0, 0, "0 0 0", 1, 9},
  {"custom-wide", CF_FILTER_CUSTOM, 1, 0, 0, "3 -1000 7; 1 2 1", 0.001},
  /* Sums beyond 2^53 for 16-bit samples: the 64-bit integer path. */
  {"custom-huge", CF_FILTER_CUSTOM, 1, 0, 0, HUGE_11X11, 7, -2e7, 100},
  {"custom-huge-separable", CF_FILTER_CUSTOM, 1, 0, 0, "1 1 1; 1 1 1", 7,
      -2e7, 1000},
};

typedef enum
{
  L_GRAY, L_RGB, L_RGBA, L_RGBX_MASK, L_PLANAR, L_SEMIPLANAR, L_N
} LayoutKind;

static const int sizes[][2] = {
  {1, 1}, {1, 6}, {5, 1}, {2, 3}, {3, 2}, {7, 4}, {17, 3}, {13, 11},
  {33, 2}, {37, 23}, {70, 9},
  /* wider than a strip of columns (1024 samples): strips with no frame
   * edge in them (read in place) and a last one of 7 pixels */
  {300, 5}, {2055, 3},
};

/* A layout of kind `k` for w x h; stride padding `pad` bytes per row. */
static void
make_layout (CfLayout * l, LayoutKind k, int w, int h, int sb, int *strides,
    int pad)
{
  int cw = (w + 1) / 2, chh = (h + 1) / 2, p;

  switch (k) {
    case L_GRAY:
      cf_layout_init_interleaved (l, w, h, 1, sb, 0x1);
      break;
    case L_RGB:
      cf_layout_init_interleaved (l, w, h, 3, sb, 0x7);
      break;
    case L_RGBA:
      cf_layout_init_interleaved (l, w, h, 4, sb, 0x7);
      break;
    case L_RGBX_MASK:
      /* filtered, copied, filtered, filtered: two groups of one plane */
      cf_layout_init_interleaved (l, w, h, 4, sb, 0xd);
      break;
    case L_PLANAR:
      memset (l, 0, sizeof (*l));
      l->sample_bytes = sb;
      cf_layout_add_channel (l, CF_CHANNEL_FILTER, 0, w, h, sb, 0, 0);
      cf_layout_add_channel (l, CF_CHANNEL_FILTER, 1, cw, chh, sb, 0, 0);
      cf_layout_add_channel (l, CF_CHANNEL_FILL, 2, cw, chh, sb, 0,
          sb == 1 ? 128 : 32768);
      break;
    case L_SEMIPLANAR:
      memset (l, 0, sizeof (*l));
      l->sample_bytes = sb;
      cf_layout_add_channel (l, CF_CHANNEL_FILTER, 0, w, h, sb, 0, 0);
      cf_layout_add_channel (l, CF_CHANNEL_FILTER, 1, cw, chh, 2 * sb, 0, 0);
      cf_layout_add_channel (l, CF_CHANNEL_FILTER, 1, cw, chh, 2 * sb, sb,
          0);
      break;
    default:
      g_assert_not_reached ();
  }
  for (p = 0; p < l->n_planes; p++)
    strides[p] = l->plane_row_bytes[p] + pad;
}

typedef struct
{
  guint8 *data;
  gsize bytes;
  CfFrame frame;
} Image;

static void
image_init (Image * im, const CfLayout * l, const int *strides)
{
  gsize off[CF_MAX_PLANES], total = 0;
  int p;

  for (p = 0; p < l->n_planes; p++) {
    off[p] = total;
    total += (gsize) strides[p] * l->plane_height[p];
  }
  im->bytes = total;
  im->data = g_malloc (total + 1);
  memset (&im->frame, 0, sizeof (im->frame));
  for (p = 0; p < l->n_planes; p++) {
    im->frame.data[p] = im->data + off[p];
    im->frame.stride[p] = strides[p];
  }
}

/* Noise with many extreme samples, so saturation is exercised. */
static void
fill_noise (Image * im, GRand * rand)
{
  gsize i;

  for (i = 0; i < im->bytes; i++) {
    guint32 r = g_rand_int (rand);

    im->data[i] = (r & 7) == 0 ? 0 : (r & 7) == 1 ? 255 : (guint8) (r >> 8);
  }
}

#define N_ISAS 3
static const char *isas[N_ISAS] = { "portable", "avx2", "avx512" };

static CfBackend *
fast_backend (int isa, int threads)
{
  CfBackend *be;

  g_setenv ("CUDAFILTER_CPU_ISA", isas[isa], TRUE);
  be = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
  g_unsetenv ("CUDAFILTER_CPU_ISA");
  g_assert_nonnull (be);
  cf_backend_set_cpu_threads (be, threads);
  return be;
}

static void
test_fast_matches_reference (void)
{
  CfBackend *ref = cf_backend_new (CF_BACKEND_CPU_REFERENCE, -1, NULL);
  CfBackend *fast[N_ISAS][6];
  GRand *rand = g_rand_new_with_seed (17);
  guint n_runs = 0, c;
  int isa, t, sb;

  g_assert_nonnull (ref);
  for (isa = 0; isa < N_ISAS; isa++)
    for (t = 1; t <= 5; t++)
      fast[isa][t] = fast_backend (isa, t);

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    for (sb = 1; sb <= 2; sb++) {
      CfBorder border;

      for (border = CF_BORDER_REFLECT101; border <= CF_BORDER_CONSTANT;
          border++) {
        const Case *cs = &cases[c];
        CfParams p;
        CfSpec *spec;
        GError *err = NULL;
        LayoutKind k;
        guint s;

        cf_params_init (&p);
        p.filter = cs->filter;
        p.sigma = cs->sigma;
        p.sigma_y = cs->sigma_y;
        p.kernel_size = cs->kernel_size;
        p.kernel = cs->kernel;
        p.divisor = cs->divisor;
        p.offset = cs->offset;
        p.scale = cs->scale != 0.0 ? cs->scale : 1.0;
        p.amount = cs->amount != 0.0 ? cs->amount : 1.0;
        p.border = border;
        p.border_value = sb == 1 ? 77 : 40000;
        spec = cf_spec_new (&p, sb, &err);
        g_assert_no_error (err);

        for (k = 0; k < L_N; k++) {
          for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
            int w = sizes[s][0], h = sizes[s][1], strides[CF_MAX_PLANES];
            int pad = (s % 3) * 2 * sb + (sb == 1 ? (int) (s & 1) : 0);
            CfLayout l;
            Image in, want, got, init;

            /* The reference sums every tap of every row of the frame and
             * its apron: the longest kernels on the smaller frames only,
             * which reach past every edge anyway. */
            if (spec->kp.kw > CF_ARG_TAPS && w * h > 300)
              continue;
            make_layout (&l, k, w, h, sb, strides, pad);
            image_init (&in, &l, strides);
            image_init (&want, &l, strides);
            image_init (&got, &l, strides);
            image_init (&init, &l, strides);
            fill_noise (&in, rand);
            fill_noise (&init, rand);
            memcpy (want.data, init.data, want.bytes);
            g_assert_true (cf_backend_process (ref, spec, &l, &in.frame,
                    &want.frame, NULL));

            for (isa = 0; isa < N_ISAS; isa++) {
              /* Every thread count on every variant over the cases. */
              int threads = 1 + (int) ((c + s + k + isa + border) % 5);
              int pass;

              for (pass = 0; pass < 2; pass++) {
                CfBackend *be = fast[isa][pass == 0 ? threads : 1];

                /* Both start from the same bytes: padding must stay. */
                memcpy (got.data, init.data, got.bytes);
                g_assert_true (cf_backend_process (be, spec, &l, &in.frame,
                        &got.frame, NULL));
                n_runs++;
                if (memcmp (got.data, want.data, got.bytes) != 0) {
                  gsize i;

                  for (i = 0; i < got.bytes && got.data[i] == want.data[i];
                      i++);
                  g_error ("%s sb %d border %d layout %d %dx%d pad %d, %s "
                      "%d threads: byte %" G_GSIZE_FORMAT " is %d, the "
                      "reference %d", cs->name, sb, border, k, w, h, pad,
                      cf_backend_describe (be), pass == 0 ? threads : 1, i,
                      got.data[i], want.data[i]);
                }
              }
            }
            g_free (in.data);
            g_free (want.data);
            g_free (got.data);
            g_free (init.data);
          }
        }
        cf_spec_free (spec);
      }
    }
  }
  g_test_message ("%u frames identical to the reference", n_runs);
  for (isa = 0; isa < N_ISAS; isa++)
    for (t = 1; t <= 5; t++)
      cf_backend_free (fast[isa][t]);
  cf_backend_free (ref);
  g_rand_free (rand);
}

/* The nonlinear operations: the fast backend's passes on the pool against
 * the reference's straight definitions, every border, both sample sizes,
 * every layout and size, 1 to 5 threads, each row-kernel variant. */
typedef struct
{
  const char *name;
  CfFilter filter;
  int kernel_size;
  CfShape shape;
  int iterations;
  const char *kernel;
  double sigma, sigma_color;
} NonlinCase;

/* 56 ones of a kernel row */
#define ONES8 "1 1 1 1 1 1 1 1 "
#define ONES56 ONES8 ONES8 ONES8 ONES8 ONES8 ONES8 ONES8
static const NonlinCase nonlin_cases[] = {
  {"median-3", CF_FILTER_MEDIAN, 3},
  {"median-5", CF_FILTER_MEDIAN, 5},
  {"median-7", CF_FILTER_MEDIAN, 7},
  {"median-9", CF_FILTER_MEDIAN, 9},
  /* a row pass and a column pass of 49 (doubled spans, columns in
   * groups), and a row pass of 311 (van Herk / Gil-Werman) */
  {"erode-rect-25-it2", CF_FILTER_ERODE, 25, CF_SHAPE_RECT, 2},
  {"dilate-row-63-it5", CF_FILTER_DILATE, 0, CF_SHAPE_RECT, 5,
      ONES56 "1 1 1 1 1 1 1"},
  /* the element's rows as runs */
  {"dilate-ellipse-9", CF_FILTER_DILATE, 9, CF_SHAPE_ELLIPSE, 1},
  {"erode-cross-it2", CF_FILTER_ERODE, 3, CF_SHAPE_CROSS, 2},
  {"dilate-rect-5-it2", CF_FILTER_DILATE, 5, CF_SHAPE_RECT, 2},
  {"dilate-rect-4x1", CF_FILTER_DILATE, 0, CF_SHAPE_RECT, 3, "1 1 1 1"},
  /* rectangles as a row pass fused into the column pass: lines of 2 and
   * 3 in one step, columns of 2, 3, 4 and 6 */
  {"erode-rect-3", CF_FILTER_ERODE, 3, CF_SHAPE_RECT, 1},
  /* 3x3 max of 8-bit pixels read in place, as the 3x3 min and median */
  {"dilate-rect-3", CF_FILTER_DILATE, 3, CF_SHAPE_RECT, 1},
  {"dilate-rect-2x2", CF_FILTER_DILATE, 0, CF_SHAPE_RECT, 1, "1 1; 1 1"},
  {"erode-rect-3x4", CF_FILTER_ERODE, 0, CF_SHAPE_RECT, 1,
      "1 1 1; 1 1 1; 1 1 1; 1 1 1"},
  {"dilate-rect-2x6", CF_FILTER_DILATE, 0, CF_SHAPE_RECT, 1,
      "1 1; 1 1; 1 1; 1 1; 1 1; 1 1"},
  /* a column pass alone: of 3, and of 9 in groups of 8 output rows */
  {"erode-col-3", CF_FILTER_ERODE, 0, CF_SHAPE_RECT, 1, "1; 1; 1"},
  {"dilate-col-5-it2", CF_FILTER_DILATE, 0, CF_SHAPE_RECT, 2,
      "1; 1; 1; 1; 1"},
  {"open-ellipse-5", CF_FILTER_OPEN, 5, CF_SHAPE_ELLIPSE, 1},
  {"close-rect-3", CF_FILTER_CLOSE, 3, CF_SHAPE_RECT, 1},
  {"gradient-rect-3", CF_FILTER_GRADIENT, 3, CF_SHAPE_RECT, 1},
  {"tophat-asym-it2", CF_FILTER_TOPHAT, 0, CF_SHAPE_RECT, 2, "0 1 1; 1 1 0"},
  {"blackhat-cross-5", CF_FILTER_BLACKHAT, 5, CF_SHAPE_CROSS, 1},
  {"bilateral-5", CF_FILTER_BILATERAL, 5, 0, 1, NULL, 2.0, 40.0},
  /* offsets 4 rows apart: one colour's pairs' ring of 5 rows */
  {"bilateral-9", CF_FILTER_BILATERAL, 9, 0, 1, NULL, 3.0, 30.0},
  {"bilateral-auto", CF_FILTER_BILATERAL, 0, 0, 1, NULL, 1.0,
      CF_SIGMA_COLOR_AUTO},
};

static void
test_nonlinear_matches_reference (void)
{
  CfBackend *ref = cf_backend_new (CF_BACKEND_CPU_REFERENCE, -1, NULL);
  CfBackend *fast[N_ISAS][6];
  GRand *rand = g_rand_new_with_seed (23);
  guint n_runs = 0, c;
  int isa, t, sb;

  for (isa = 0; isa < N_ISAS; isa++)
    for (t = 1; t <= 5; t++)
      fast[isa][t] = fast_backend (isa, t);
  for (c = 0; c < G_N_ELEMENTS (nonlin_cases); c++) {
    for (sb = 1; sb <= 2; sb++) {
      CfBorder border;

      for (border = CF_BORDER_REFLECT101; border <= CF_BORDER_CONSTANT;
          border++) {
        const NonlinCase *cs = &nonlin_cases[c];
        CfParams p;
        CfSpec *spec;
        GError *err = NULL;
        LayoutKind k;
        guint s;

        cf_params_init (&p);
        p.filter = cs->filter;
        p.kernel_size = cs->kernel_size;
        p.shape = cs->shape;
        p.iterations = MAX (cs->iterations, 1);
        p.kernel = cs->kernel;
        if (cs->sigma > 0.0) {
          p.sigma = cs->sigma;
          p.sigma_color = cs->sigma_color;
        }
        p.border = border;
        p.border_value = sb == 1 ? 77 : 40000;
        spec = cf_spec_new (&p, sb, &err);
        g_assert_no_error (err);

        for (k = 0; k < L_N; k++) {
          /* Up to 70x9: the strips of the convolutions' wide sizes mean
           * nothing to the passes, and the reference is slow. */
          for (s = 0; s < G_N_ELEMENTS (sizes) - 2; s++) {
            int w = sizes[s][0], h = sizes[s][1], strides[CF_MAX_PLANES];
            int pad = (s % 3) * 2 * sb + (sb == 1 ? (int) (s & 1) : 0);
            int threads = 1 + (int) ((c + s + k + border) % 5);
            /* each variant in turn: all three see every case over the
             * sizes */
            int vi = (int) ((c + s + k) % N_ISAS);
            CfLayout l;
            Image in, want, got, init;

            make_layout (&l, k, w, h, sb, strides, pad);
            image_init (&in, &l, strides);
            image_init (&want, &l, strides);
            image_init (&got, &l, strides);
            image_init (&init, &l, strides);
            fill_noise (&in, rand);
            fill_noise (&init, rand);
            memcpy (want.data, init.data, want.bytes);
            memcpy (got.data, init.data, got.bytes);
            g_assert_true (cf_backend_process (ref, spec, &l, &in.frame,
                    &want.frame, NULL));
            g_assert_true (cf_backend_process (fast[vi][threads], spec, &l,
                    &in.frame, &got.frame, NULL));
            n_runs++;
            if (memcmp (got.data, want.data, got.bytes) != 0) {
              gsize i;

              for (i = 0; i < got.bytes && got.data[i] == want.data[i]; i++);
              g_error ("%s sb %d border %d layout %d %dx%d pad %d, %d "
                  "threads, %s: byte %" G_GSIZE_FORMAT " is %d, the "
                  "reference %d", cs->name, sb, border, k, w, h, pad, threads,
                  isas[vi], i,
                  got.data[i], want.data[i]);
            }
            g_free (in.data);
            g_free (want.data);
            g_free (got.data);
            g_free (init.data);
          }
        }
        cf_spec_free (spec);
      }
    }
  }
  g_test_message ("%u nonlinear frames identical to the reference", n_runs);
  for (isa = 0; isa < N_ISAS; isa++)
    for (t = 1; t <= 5; t++)
      cf_backend_free (fast[isa][t]);
  cf_backend_free (ref);
  g_rand_free (rand);
}

/* Threads that cannot start (CUDAFILTER_FAULT=threads fails every start):
 * the frame is filtered on the calling thread, the same bytes, and the
 * backend says so once. */
static void
test_threads_fault (void)
{
  CfBackend *ref = cf_backend_new (CF_BACKEND_CPU_REFERENCE, -1, NULL);
  CfBackend *fast;
  GRand *rand = g_rand_new_with_seed (5);
  int strides[CF_MAX_PLANES];
  CfParams p;
  CfSpec *spec;
  CfLayout l;
  Image in, want, got;
  char *warning;

  cf_params_init (&p);
  p.filter = CF_FILTER_GAUSSIAN;
  p.sigma = 1.0;
  spec = cf_spec_new (&p, 1, NULL);
  make_layout (&l, L_RGBA, 300, 7, 1, strides, 0);
  image_init (&in, &l, strides);
  image_init (&want, &l, strides);
  image_init (&got, &l, strides);
  fill_noise (&in, rand);
  g_assert_true (cf_backend_process (ref, spec, &l, &in.frame, &want.frame,
          NULL));

  g_setenv ("CUDAFILTER_FAULT", "threads", TRUE);
  fast = fast_backend (0, 4);
  g_assert_true (cf_backend_process (fast, spec, &l, &in.frame, &got.frame,
          NULL));
  g_unsetenv ("CUDAFILTER_FAULT");
  g_assert_cmpmem (got.data, got.bytes, want.data, want.bytes);
  g_assert_nonnull (strstr (cf_backend_describe (fast), "(1 thread,"));
  warning = cf_backend_take_warning (fast);
  g_assert_nonnull (warning);
  g_assert_nonnull (strstr (warning, "1 of 4"));
  g_free (warning);
  g_assert_true (cf_backend_process (fast, spec, &l, &in.frame, &got.frame,
          NULL));
  g_assert_null (cf_backend_take_warning (fast));

  cf_backend_free (fast);
  cf_backend_free (ref);
  cf_spec_free (spec);
  g_free (in.data);
  g_free (want.data);
  g_free (got.data);
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cpu-fast/matches-reference",
      test_fast_matches_reference);
  g_test_add_func ("/cpu-fast/threads-fault", test_threads_fault);
  g_test_add_func ("/cpu-fast/nonlinear-matches-reference",
      test_nonlinear_matches_reference);
  return g_test_run ();
}
