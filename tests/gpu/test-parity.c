/* cudafilter GPU tests: the CUDA backend must give the CPU backend's bytes
 * for every filter, border, size and layout, must leave the bytes between
 * rows alone, and must get a few hand-worked results right on its own.
 * Without a CUDA device every test is skipped with the reason. */
#include "config.h"

#include <string.h>
#include <glib.h>

#include "cf-backend.h"
#include "cf-fft-plan.h"
#ifdef HAVE_CUDA
#include <cuda_runtime_api.h>
#include "cf-launch.h"
#endif

static char *no_device_reason;

static gboolean
need_device (void)
{
  if (no_device_reason == NULL)
    return TRUE;
  g_test_skip (no_device_reason);
  return FALSE;
}

/* ---------------------------------------------------------------------- */
/* Frames with padded strides that differ between input and output */

#define IN_PAD 13
#define OUT_PAD 5
#define CANARY 0xA5

typedef struct
{
  CfLayout layout;
  CfFrame in, cpu_out, gpu_out;
  gsize size[CF_MAX_PLANES];    /* bytes of each output plane */
} TestFrame;

#define ROUND_UP_N(v, n) (((v) + (n) - 1) / (n) * (n))

static int
padded (int row_bytes, int pad, int sample_bytes)
{
  return row_bytes + pad * sample_bytes;
}

static void
test_frame_alloc (TestFrame * f, GRand * rand)
{
  const CfLayout *l = &f->layout;
  int align = 1;

  /* 32-bit words (RGB10A2) are read as such: rows start on 4 bytes. */
  for (int c = 0; c < l->n_channels; c++)
    align = MAX (align, l->channels[c].word_bytes);

  for (int p = 0; p < l->n_planes; p++) {
    int sb = l->sample_bytes;
    int in_stride = ROUND_UP_N (padded (l->plane_row_bytes[p], IN_PAD,
            sb), align);
    int out_stride = ROUND_UP_N (padded (l->plane_row_bytes[p],
            OUT_PAD, sb), align);
    gsize in_size = (gsize) in_stride * l->plane_height[p];

    f->size[p] = (gsize) out_stride * l->plane_height[p];
    f->in.stride[p] = in_stride;
    f->in.data[p] = g_malloc (in_size);
    for (gsize i = 0; i < in_size; i++)
      f->in.data[p][i] = (guint8) g_rand_int (rand);
    f->cpu_out.stride[p] = f->gpu_out.stride[p] = out_stride;
    f->cpu_out.data[p] = g_malloc (f->size[p]);
    f->gpu_out.data[p] = g_malloc (f->size[p]);
  }
}

static void
test_frame_clear (TestFrame * f)
{
  for (int p = 0; p < f->layout.n_planes; p++) {
    g_free (f->in.data[p]);
    g_free (f->cpu_out.data[p]);
    g_free (f->gpu_out.data[p]);
  }
}

/* ---------------------------------------------------------------------- */
/* Layouts */

typedef enum
{
  LAYOUT_GRAY8,
  LAYOUT_GRAY16,
  LAYOUT_RGBA8,                 /* alpha copied */
  LAYOUT_RGBA16,
  LAYOUT_I420,                  /* three planes, chroma halved */
  LAYOUT_I420_16,
  LAYOUT_NV12,                  /* luma + interleaved chroma, V filled */
  /* Samples in other words and bits (CfChannel, kernels/cf-sample.h), as
   * the element builds them for these GStreamer formats: */
  LAYOUT_P010,                  /* 10 bits at bit 6 of 16, chroma pairs */
  LAYOUT_I420_10,               /* 10 bits at bit 0 of 16 (I420_10LE) */
  LAYOUT_Y444_12,               /* 12 bits at bit 0 of 16 (Y444_12LE) */
  LAYOUT_YUY2,                  /* packed 4:2:2, a spare luma if odd */
  LAYOUT_NV16,                  /* luma + chroma pairs at full height */
  LAYOUT_RGB10A2,               /* 10-bit R, G, B, 2-bit A in 32 bits */
  LAYOUT_P016,                  /* 16 bits, chroma pairs, V filled */
  LAYOUT_RGB8,                  /* three bytes a pixel, all filtered */
  LAYOUT_UYVY,                  /* packed 4:2:2, luma second */
  N_LAYOUTS
} LayoutId;

static const char *layout_names[N_LAYOUTS] = {
  "gray8", "gray16", "rgba8", "rgba16", "i420", "i420-16", "nv12",
  "p010", "i420-10", "y444-12", "yuy2", "nv16", "rgb10a2", "p016", "rgb8",
  "uyvy"
};

/* Bits of the filtered samples. */
static int
layout_depth (LayoutId id)
{
  switch (id) {
    case LAYOUT_GRAY16:
    case LAYOUT_RGBA16:
    case LAYOUT_I420_16:
    case LAYOUT_P016:
      return 16;
    case LAYOUT_P010:
    case LAYOUT_I420_10:
    case LAYOUT_RGB10A2:
      return 10;
    case LAYOUT_Y444_12:
      return 12;
    default:
      return 8;
  }
}

static int
layout_sample_bytes (LayoutId id)
{
  return layout_depth (id) > 8 ? 2 : 1;
}

static void
add (CfLayout * l, CfChannelMode mode, int plane, int w, int h, int ps,
    int offset, int fill, int word, int depth, int shift, gboolean shared)
{
  g_assert_true (cf_layout_add_channel (l, mode, plane, w, h, ps, offset,
          fill));
  g_assert_true (cf_layout_set_encoding (l, word, depth, shift, shared));
}

static void
make_layout (CfLayout * l, LayoutId id, int w, int h)
{
  int sb = layout_sample_bytes (id);
  int cw = (w + 1) / 2, chh = (h + 1) / 2;

  switch (id) {
    case LAYOUT_GRAY8:
    case LAYOUT_GRAY16:
      cf_layout_init_interleaved (l, w, h, 1, sb, 0x1);
      break;
    case LAYOUT_RGBA8:
    case LAYOUT_RGBA16:
      cf_layout_init_interleaved (l, w, h, 4, sb, 0x7);
      break;
    case LAYOUT_RGB8:
      cf_layout_init_interleaved (l, w, h, 3, 1, 0x7);
      break;
    case LAYOUT_I420:
    case LAYOUT_I420_16:
      memset (l, 0, sizeof (*l));
      l->sample_bytes = sb;
      g_assert_true (cf_layout_add_channel (l, CF_CHANNEL_FILTER, 0, w, h,
              sb, 0, 0));
      g_assert_true (cf_layout_add_channel (l, CF_CHANNEL_FILTER, 1, cw, chh,
              sb, 0, 0));
      g_assert_true (cf_layout_add_channel (l, CF_CHANNEL_FILTER, 2, cw, chh,
              sb, 0, 0));
      break;
    case LAYOUT_NV12:
      memset (l, 0, sizeof (*l));
      l->sample_bytes = 1;
      g_assert_true (cf_layout_add_channel (l, CF_CHANNEL_FILTER, 0, w, h,
              1, 0, 0));
      g_assert_true (cf_layout_add_channel (l, CF_CHANNEL_FILTER, 1, cw, chh,
              2, 0, 0));
      g_assert_true (cf_layout_add_channel (l, CF_CHANNEL_FILL, 1, cw, chh,
              2, 1, 128));
      break;
    case LAYOUT_P010:
    case LAYOUT_P016:{
      /* the samples in the high bits of 16, V filled with the middle */
      const int d = layout_depth (id), sh = 16 - d;

      memset (l, 0, sizeof (*l));
      l->sample_bytes = 2;
      l->depth = d;
      add (l, CF_CHANNEL_FILTER, 0, w, h, 2, 0, 0, 2, d, sh, FALSE);
      add (l, CF_CHANNEL_FILTER, 1, cw, chh, 4, 0, 0, 2, d, sh, FALSE);
      add (l, CF_CHANNEL_FILL, 1, cw, chh, 4, 2, 1 << (d - 1), 2, d, sh,
          FALSE);
      break;
    }
    case LAYOUT_I420_10:
    case LAYOUT_Y444_12:{
      int d = layout_depth (id);
      int pw = id == LAYOUT_I420_10 ? cw : w, ph = id == LAYOUT_I420_10 ?
          chh : h;

      memset (l, 0, sizeof (*l));
      l->sample_bytes = 2;
      l->depth = d;
      add (l, CF_CHANNEL_FILTER, 0, w, h, 2, 0, 0, 2, d, 0, FALSE);
      add (l, CF_CHANNEL_FILTER, 1, pw, ph, 2, 0, 0, 2, d, 0, FALSE);
      add (l, CF_CHANNEL_COPY, 2, pw, ph, 2, 0, 0, 2, 16, 0, FALSE);
      break;
    }
    case LAYOUT_YUY2:
    case LAYOUT_UYVY:{
      /* packed 4:2:2: luma at byte ly of each pair, chroma around it */
      const int ly = id == LAYOUT_UYVY;

      memset (l, 0, sizeof (*l));
      l->sample_bytes = 1;
      g_assert_true (cf_layout_add_channel (l, CF_CHANNEL_FILTER, 0, w, h,
              2, ly, 0));
      g_assert_true (cf_layout_add_channel (l, CF_CHANNEL_FILTER, 0, cw, h,
              4, 1 - ly, 0));
      g_assert_true (cf_layout_add_channel (l, CF_CHANNEL_FILTER, 0, cw, h,
              4, 3 - ly, 0));
      if (w & 1)
        g_assert_true (cf_layout_add_channel (l, CF_CHANNEL_COPY, 0, 1, h,
                2, 2 * w + ly, 0));
      break;
    }
    case LAYOUT_NV16:
      memset (l, 0, sizeof (*l));
      l->sample_bytes = 1;
      g_assert_true (cf_layout_add_channel (l, CF_CHANNEL_FILTER, 0, w, h,
              1, 0, 0));
      g_assert_true (cf_layout_add_channel (l, CF_CHANNEL_FILTER, 1, cw, h,
              2, 0, 0));
      g_assert_true (cf_layout_add_channel (l, CF_CHANNEL_FILTER, 1, cw, h,
              2, 1, 0));
      break;
    case LAYOUT_RGB10A2:
      memset (l, 0, sizeof (*l));
      l->sample_bytes = 2;
      l->depth = 10;
      l->colour = 1;            /* packed RGB, as the element says */
      for (int c = 0; c < 3; c++)
        add (l, CF_CHANNEL_FILTER, 0, w, h, 4, 0, 0, 4, 10, 10 * c, TRUE);
      add (l, CF_CHANNEL_COPY, 0, w, h, 4, 0, 0, 4, 2, 30, TRUE);
      break;
    default:
      g_assert_not_reached ();
  }
}

/* ---------------------------------------------------------------------- */
/* Filters */

typedef struct
{
  const char *name;
  CfFilter filter;
  double sigma, sigma_y;
  int kernel_size;
  const char *kernel;
  double divisor, offset, scale, amount;
  CfShape shape;
  int iterations;
  double sigma_color;
} FilterCase;

/* sigma, offset, scale and amount 0 below mean "leave the default". */
#define F(n, f) .name = n, .filter = f
static const FilterCase filter_cases[] = {
  {F ("gaussian-s1", CF_FILTER_GAUSSIAN),.sigma = 1.0},
  {F ("gaussian-s0.6-k5", CF_FILTER_GAUSSIAN),.sigma = 0.6,.kernel_size = 5},
  {F ("gaussian-s2.5", CF_FILTER_GAUSSIAN),.sigma = 2.5},
  /* 49 taps: 8-bit derives it, 16-bit would derive 65 */
  {F ("gaussian-s8", CF_FILTER_GAUSSIAN),.sigma = 8.0,.kernel_size = 49},
  {F ("gaussian-s1.5-sy3", CF_FILTER_GAUSSIAN),.sigma = 1.5,.sigma_y = 3.0},
  /* a centre tap above 127 (unsigned byte taps on tensor cores) */
  {F ("gaussian-s0.3-k3", CF_FILTER_GAUSSIAN),.sigma = 0.3,.kernel_size = 3},
  /* the same past 17 row taps on RGB (3 x 7 - 2) */
  {F ("gaussian-s0.5-k7", CF_FILTER_GAUSSIAN),.sigma = 0.5,.kernel_size = 7},
  /* the widest taps: two and three tensor-core k-steps */
  {F ("gaussian-s9-k51", CF_FILTER_GAUSSIAN),.sigma = 9.0,.kernel_size = 51},
  {F ("gaussian-s10-k63", CF_FILTER_GAUSSIAN),.sigma = 10.0,
      .kernel_size = 63},
  /* past 63 taps, the long general kernel: 49 taps at 8 bits and 65 at
   * 16; 121 and 161; 187 x 145 and 249 x 193 */
  {F ("gaussian-s8-derived", CF_FILTER_GAUSSIAN),.sigma = 8.0},
  {F ("gaussian-s20", CF_FILTER_GAUSSIAN),.sigma = 20.0},
  {F ("gaussian-s31-sy24", CF_FILTER_GAUSSIAN),.sigma = 31.0,.sigma_y = 24.0},
  {F ("box-3", CF_FILTER_BOX),.kernel_size = 3},
  {F ("box-7", CF_FILTER_BOX),.kernel_size = 7},
  {F ("sobel-1", CF_FILTER_SOBEL),.kernel_size = 1},
  {F ("sobel-3", CF_FILTER_SOBEL),.kernel_size = 3},
  {F ("sobel-5", CF_FILTER_SOBEL),.kernel_size = 5,.scale = 0.25},
  {F ("sobel-7", CF_FILTER_SOBEL),.kernel_size = 7,.offset = 3,.scale = 0.01},
  {F ("sobel-x", CF_FILTER_SOBEL_X),.kernel_size = 3},
  {F ("sobel-y-5", CF_FILTER_SOBEL_Y),.kernel_size = 5,.offset = 10,
      .scale = 0.5},
  {F ("scharr", CF_FILTER_SCHARR)},
  {F ("laplacian-1", CF_FILTER_LAPLACIAN),.kernel_size = 1},
  {F ("laplacian-3", CF_FILTER_LAPLACIAN),.kernel_size = 3},
  {F ("laplacian-5", CF_FILTER_LAPLACIAN),.kernel_size = 5,.scale = 0.5},
  {F ("sharpen", CF_FILTER_SHARPEN),.sigma = 1.2,.amount = 1.5},
  {F ("custom-3x3", CF_FILTER_CUSTOM),.kernel = "0 -1 0; -1 5 -1; 0 -1 0"},
  {F ("custom-3x3-offset", CF_FILTER_CUSTOM),
      .kernel = "-1 0 1; -2 0 2; -1 0 1",.divisor = 1,.offset = 128},
  {F ("custom-5x5", CF_FILTER_CUSTOM),
      .kernel = "1 2 0 -1 3; 4 -2 7 1 0; 2 2 9 2 2; 0 1 -3 5 1; 3 -1 0 2 1"},
  /* integer taps that sum to one: byte taps, four an instruction */
  {F ("custom-5x5-bytes", CF_FILTER_CUSTOM),
      .kernel = "0 0 -1 0 0; 0 -1 -2 -1 0; -1 -2 17 -2 -1; 0 -1 -2 -1 0; "
        "0 0 -1 0 0"},
  {F ("custom-4x2", CF_FILTER_CUSTOM),.kernel = "1 2 3 4; 5 6 7 8"},
  {F ("custom-31x31", CF_FILTER_CUSTOM) /* kernel generated */ },
  {F ("custom-separable", CF_FILTER_CUSTOM),.kernel = "1 2 1; 2 4 2; 1 2 1"},
  /* The nonlinear operations: every pass kind, scratch images, elements
   * larger than small frames, colour groups (RGBA, RGB10A2). */
  {F ("median-3", CF_FILTER_MEDIAN)},
  {F ("median-5", CF_FILTER_MEDIAN),.kernel_size = 5},
  /* the tiled kernels' paths: the last register network, the counting
   * one, the largest tile (63: 126 x 94 samples) */
  {F ("median-7", CF_FILTER_MEDIAN),.kernel_size = 7},
  {F ("median-9", CF_FILTER_MEDIAN),.kernel_size = 9},
  {F ("median-63", CF_FILTER_MEDIAN),.kernel_size = 63},
  /* 8-bit medians from running histograms (9 and up); deeper samples
   * count */
  {F ("median-15", CF_FILTER_MEDIAN),.kernel_size = 15},
  {F ("median-31", CF_FILTER_MEDIAN),.kernel_size = 31},
  {F ("erode-rect-3", CF_FILTER_ERODE)},
  /* a rectangle's row or column pass alone (the whole-row 3x3 kernel) */
  {F ("dilate-kernel-1x3", CF_FILTER_DILATE),.kernel = "1 1 1"},
  {F ("erode-kernel-2x1", CF_FILTER_ERODE),.kernel = "1; 1"},
  /* lines of 8 or more (the shared part, prefixes and suffixes), of the
   * tile's longest (257), and past it (the per-sample kernel) */
  {F ("dilate-rect-8", CF_FILTER_DILATE),.kernel_size = 8},
  {F ("erode-rect-33-it8", CF_FILTER_ERODE),.kernel_size = 33,
      .iterations = 8},
  {F ("erode-rect-63-it5", CF_FILTER_ERODE),.kernel_size = 63,
      .iterations = 5},
  {F ("dilate-ellipse-63", CF_FILTER_DILATE),.kernel_size = 63,
      .shape = CF_SHAPE_ELLIPSE},
  {F ("dilate-rect-5-it3", CF_FILTER_DILATE),.kernel_size = 5,
      .iterations = 3},
  {F ("erode-ellipse-7-it2", CF_FILTER_ERODE),.kernel_size = 7,
      .shape = CF_SHAPE_ELLIPSE,.iterations = 2},
  {F ("open-cross-3", CF_FILTER_OPEN),.shape = CF_SHAPE_CROSS},
  {F ("close-ellipse-5", CF_FILTER_CLOSE),.kernel_size = 5,
      .shape = CF_SHAPE_ELLIPSE},
  {F ("gradient-rect-3", CF_FILTER_GRADIENT)},
  {F ("tophat-kernel-it2", CF_FILTER_TOPHAT),.kernel = "0 1 1; 1 1 0",
      .iterations = 2},
  {F ("blackhat-rect-7", CF_FILTER_BLACKHAT),.kernel_size = 7},
  /* the rectangles' plane kernels: each run of outputs a thread (4, 8,
   * 16), a program of four passes, differences with the frame */
  {F ("erode-rect-15", CF_FILTER_ERODE),.kernel_size = 15},
  {F ("dilate-rect-31", CF_FILTER_DILATE),.kernel_size = 31},
  {F ("open-rect-5", CF_FILTER_OPEN),.kernel_size = 5},
  {F ("close-rect-3-it2", CF_FILTER_CLOSE),.iterations = 2},
  {F ("gradient-rect-15", CF_FILTER_GRADIENT),.kernel_size = 15},
  {F ("tophat-rect-9", CF_FILTER_TOPHAT),.kernel_size = 9},
  {F ("bilateral-5", CF_FILTER_BILATERAL),.kernel_size = 5,.sigma = 2.0,
      .sigma_color = 40.0},
  {F ("bilateral-7-auto", CF_FILTER_BILATERAL),.kernel_size = 7,
      .sigma = 3.0},
  /* kernel_size is pixelate's block size here; 0: the default 16 */
  {F ("pixelate", CF_FILTER_PIXELATE)},
  {F ("pixelate-5", CF_FILTER_PIXELATE),.kernel_size = 5},
};
#undef F

static const FilterCase *
find_filter_case (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (filter_cases); i++)
    if (strcmp (filter_cases[i].name, name) == 0)
      return &filter_cases[i];
  g_assert_not_reached ();
  return NULL;
}

/* A 31x31 matrix of small integers, some negative, fixed content. */
static char *
make_big_kernel (void)
{
  GString *s = g_string_new (NULL);
  GRand *rand = g_rand_new_with_seed (31);

  for (int j = 0; j < 31; j++) {
    for (int i = 0; i < 31; i++)
      g_string_append_printf (s, "%d ", g_rand_int_range (rand, -3, 10));
    g_string_append (s, j < 30 ? ";" : "");
  }
  g_rand_free (rand);
  return g_string_free (s, FALSE);
}

static CfSpec *
make_spec (const FilterCase * fc, CfBorder border, int depth)
{
  CfParams params;
  GError *error = NULL;
  char *big = NULL;
  CfSpec *spec;

  cf_params_init (&params);
  params.filter = fc->filter;
  if (fc->sigma != 0)
    params.sigma = fc->sigma;
  params.sigma_y = fc->sigma_y;
  params.kernel_size = fc->kernel_size;
  if (fc->filter == CF_FILTER_PIXELATE) {
    params.kernel_size = 0;
    if (fc->kernel_size)
      params.block_size = fc->kernel_size;
  }
  if (fc->filter == CF_FILTER_CUSTOM)
    params.kernel = fc->kernel ? fc->kernel : (big = make_big_kernel ());
  else
    params.kernel = fc->kernel;
  params.shape = fc->shape;
  if (fc->iterations != 0)
    params.iterations = fc->iterations;
  if (fc->sigma_color != 0)
    params.sigma_color = fc->sigma_color;
  params.divisor = fc->divisor;
  if (fc->offset != 0)
    params.offset = fc->offset;
  if (fc->scale != 0)
    params.scale = fc->scale;
  if (fc->amount != 0)
    params.amount = fc->amount;
  params.border = border;
  params.border_value = depth == 8 ? 200 : depth == 16 ? 50000 :
      (1 << depth) * 2 / 3;

  spec = cf_spec_new_for_depth (&params, depth, &error);
  g_assert_no_error (error);
  g_assert_nonnull (spec);
  g_free (big);
  return spec;
}

/* ---------------------------------------------------------------------- */
/* Comparison */

static CfBackend *cpu, *gpu;

/* Runs `backend` on f into out, which starts as canary bytes. */
static void
run_into (CfBackend * backend, TestFrame * f, const CfSpec * spec,
    CfFrame * out)
{
  GError *error = NULL;

  for (int p = 0; p < f->layout.n_planes; p++)
    memset (out->data[p], CANARY, f->size[p]);
  g_assert_true (cf_backend_process (backend, spec, &f->layout, &f->in, out,
          &error));
  g_assert_no_error (error);
}

static void
run_both (TestFrame * f, const CfSpec * spec)
{
  run_into (cpu, f, spec, &f->cpu_out);
  run_into (gpu, f, spec, &f->gpu_out);
}

/* Compares the whole output planes, and checks that the bytes past each
 * row were left as they were. */
static gboolean
outputs_match (const TestFrame * f, const char *what)
{
  const CfLayout *l = &f->layout;

  for (int p = 0; p < l->n_planes; p++) {
    int stride = f->gpu_out.stride[p];

    for (int y = 0; y < l->plane_height[p]; y++) {
      const guint8 *c = f->cpu_out.data[p] + (gsize) y * stride;
      const guint8 *g = f->gpu_out.data[p] + (gsize) y * stride;

      for (int x = 0; x < stride; x++) {
        if (x >= l->plane_row_bytes[p] && g[x] != CANARY) {
          g_printerr ("%s: plane %d row %d: padding byte %d changed to %d\n",
              what, p, y, x, g[x]);
          return FALSE;
        }
        if (c[x] != g[x]) {
          g_printerr ("%s: plane %d row %d byte %d: cpu %d, cuda %d\n",
              what, p, y, x, c[x], g[x]);
          return FALSE;
        }
      }
    }
  }
  return TRUE;
}

typedef struct
{
  int w, h;
} Size;

static const Size sizes[] = {
  {1, 1}, {1, 7}, {7, 1}, {3, 3}, {17, 13}, {64, 48}, {333, 211},
  /* just past the fast kernels' tiles (64 or 128 wide, 32 or 64 high) */
  {130, 33}, {131, 65},
};

static const char *border_names[] = {
  "reflect101", "replicate", "reflect", "wrap", "constant"
};

/* One frame of layout li, w x h, of random samples (or fill's) through
 * both backends with `spec` (fc's at border b): whether their bytes match
 * (a mismatch is printed). */
static gboolean
parity_case (const FilterCase * fc, const CfSpec * spec, int b, LayoutId li,
    int w, int h, GRand * rand, void (*fill) (TestFrame * f))
{
  TestFrame f = { 0 };
  char *what;
  gboolean match;

  make_layout (&f.layout, li, w, h);
  test_frame_alloc (&f, rand);
  if (fill != NULL)
    fill (&f);
  run_both (&f, spec);
  what = g_strdup_printf ("%s border=%s %s %dx%d", fc->name, border_names[b],
      layout_names[li], w, h);
  match = outputs_match (&f, what);
  g_free (what);
  test_frame_clear (&f);
  return match;
}

static void
test_filter (gconstpointer data)
{
  const FilterCase *fc = data;
  GRand *rand;
  int failures = 0, cases = 0;

  if (!need_device ())
    return;

  rand = g_rand_new_with_seed (0xcf);
  for (int b = 0; b <= CF_BORDER_CONSTANT; b++) {
    for (int li = 0; li < N_LAYOUTS; li++) {
      CfSpec *spec = make_spec (fc, b, layout_depth (li));

      for (guint si = 0; si < G_N_ELEMENTS (sizes); si++) {
        if (!parity_case (fc, spec, b, li, sizes[si].w, sizes[si].h, rand,
                NULL))
          failures++;
        cases++;
      }
      cf_spec_free (spec);
    }
  }
  g_rand_free (rand);
  if (failures)
    g_test_message ("%d of %d cases differ", failures, cases);
  g_assert_cmpint (failures, ==, 0);
}

/* Regions: the CUDA backend's frame (composite after the filter, or
 * pixelate per region) gives the CPU backend's bytes, inside and outside,
 * for every layout; overlapping, cut and odd-cornered rectangles. */
static void
run_regions_into (CfBackend * backend, TestFrame * f, const CfSpec * spec,
    const CfRegions * r, CfFrame * out)
{
  GError *error = NULL;

  for (int p = 0; p < f->layout.n_planes; p++)
    memset (out->data[p], CANARY, f->size[p]);
  g_assert_true (cf_backend_process_regions (backend, spec, &f->layout,
          &f->in, out, r, &error));
  g_assert_no_error (error);
}

/* The CUDA backend's frame in place (the output is the input, as the
 * element gives it when the regions run as tiles): the input's bytes
 * copied into the output frame, padding canaries kept, filtered there. */
static void
run_regions_in_place (CfBackend * backend, TestFrame * f,
    const CfSpec * spec, const CfRegions * r)
{
  GError *error = NULL;

  for (int p = 0; p < f->layout.n_planes; p++) {
    memset (f->gpu_out.data[p], CANARY, f->size[p]);
    for (int y = 0; y < f->layout.plane_height[p]; y++)
      memcpy (f->gpu_out.data[p] + (gsize) y * f->gpu_out.stride[p],
          f->in.data[p] + (gsize) y * f->in.stride[p],
          f->layout.plane_row_bytes[p]);
  }
  g_assert_true (cf_backend_process_regions (backend, spec, &f->layout,
          &f->gpu_out, &f->gpu_out, r, &error));
  g_assert_no_error (error);
}

static void
test_regions (void)
{
  /* Regions touching the top and the bottom edge too: host frames send
   * only their rows (and the kernel's reach) across PCIe.  Small ones at
   * odd places, at and one sample from every edge and overlapping, run as
   * tiles (the region plus the kernel's reach) on the larger frames. */
  static const char *const lists[] = {
    "3,1,7,5; 12,9,400,3; 5,3,2,2", "0,0,1,1", "", "1,1,1000,1000",
    "4,9,6,500", "2,30,9,2", "0,0,3,2; 330,209,3,2; 1,1,5,3",
    "331,5,2,17; 7,208,13,3; 62,47,2,1", "101,77,9,7; 105,80,13,5",
    "41,0,1,211; 0,100,1,1"
  };
  static const char *const names[] = { "box-3", "gaussian-s2.5",
    "custom-4x2", "pixelate-5", "median-5", "dilate-rect-5-it3"
  };
  const FilterCase *cases[G_N_ELEMENTS (names)];
  static const Size rsizes[] = { {17, 13}, {64, 48}, {333, 211} };
  GRand *rand;
  int failures = 0;

  if (!need_device ())
    return;
  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    cases[k] = find_filter_case (names[k]);
  rand = g_rand_new_with_seed (0x5e);
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    for (int li = 0; li < N_LAYOUTS; li++) {
      CfSpec *spec = make_spec (cases[k], (CfBorder) (li % 3 == 0 ?
              CF_BORDER_WRAP : li % 3 == 1 ? CF_BORDER_REFLECT101 :
              CF_BORDER_REFLECT), layout_depth (li));

      for (guint si = 0; si < G_N_ELEMENTS (rsizes); si++)
        for (guint t = 0; t < G_N_ELEMENTS (lists); t++)
          for (int mode = 0; mode < 2; mode++) {
            TestFrame f = { 0 };
            CfRegions r;
            char *what;

            cf_regions_init (&r);
            r.mode = mode;
            g_assert_true (cf_regions_parse (lists[t], &r, NULL));
            cf_regions_fit (&r, 1, rsizes[si].w, rsizes[si].h);
            make_layout (&f.layout, li, rsizes[si].w, rsizes[si].h);
            test_frame_alloc (&f, rand);
            run_regions_into (cpu, &f, spec, &r, &f.cpu_out);
            run_regions_into (gpu, &f, spec, &r, &f.gpu_out);
            what = g_strdup_printf ("%s %s %dx%d regions \"%s\" %s",
                cases[k]->name, layout_names[li], rsizes[si].w,
                rsizes[si].h, lists[t], mode ? "outside" : "inside");
            if (!outputs_match (&f, what))
              failures++;
            g_free (what);
            if (cf_backend_regions_in_place (gpu, spec, &f.layout, &r)) {
              run_regions_in_place (gpu, &f, spec, &r);
              what = g_strdup_printf ("%s %s %dx%d regions \"%s\" in place",
                  cases[k]->name, layout_names[li], rsizes[si].w,
                  rsizes[si].h, lists[t]);
              if (!outputs_match (&f, what))
                failures++;
              g_free (what);
            }
            test_frame_clear (&f);
            cf_regions_reset (&r);
          }
      cf_spec_free (spec);
    }
  g_rand_free (rand);
  g_assert_cmpint (failures, ==, 0);
}

#ifdef HAVE_CUDA
/* Device frames: f's input uploaded (out_stride rows in place, canary
 * padding), filtered by the CUDA backend on the device into a separate
 * device output or in place, and its output downloaded into gpu_out. */
static void
run_regions_device (CfBackend * backend, TestFrame * f, const CfSpec * spec,
    const CfRegions * r, gboolean in_place)
{
  CfFrame din, dout;
  GError *error = NULL;

  memset (&din, 0, sizeof (din));
  memset (&dout, 0, sizeof (dout));
  din.on_device = dout.on_device = 1;
  for (int p = 0; p < f->layout.n_planes; p++) {
    int rows = f->layout.plane_height[p];

    dout.stride[p] = f->gpu_out.stride[p];
    g_assert_cmpint (cudaMalloc ((void **) &dout.data[p], f->size[p]), ==,
        0);
    g_assert_cmpint (cudaMemset (dout.data[p], CANARY, f->size[p]), ==, 0);
    if (in_place) {
      din.data[p] = dout.data[p];
      din.stride[p] = dout.stride[p];
    } else {
      din.stride[p] = f->in.stride[p];
      g_assert_cmpint (cudaMalloc ((void **) &din.data[p],
              (gsize) din.stride[p] * rows), ==, 0);
    }
    g_assert_cmpint (cudaMemcpy2D (din.data[p], din.stride[p],
            f->in.data[p], f->in.stride[p], f->layout.plane_row_bytes[p],
            rows, cudaMemcpyHostToDevice), ==, 0);
  }
  /* The memset and the copy from pageable memory may return before they
   * land, and the backend's stream (non-blocking) does not wait for the
   * legacy stream they run on: without this the filter could read a
   * previous frame's bytes from a reused allocation. */
  g_assert_cmpint (cudaDeviceSynchronize (), ==, 0);
  g_assert_true (cf_backend_process_regions (backend, spec, &f->layout, &din,
          &dout, r, &error));
  g_assert_no_error (error);
  for (int p = 0; p < f->layout.n_planes; p++) {
    g_assert_cmpint (cudaMemcpy (f->gpu_out.data[p], dout.data[p],
            f->size[p], cudaMemcpyDeviceToHost), ==, 0);
    if (!in_place)
      cudaFree (din.data[p]);
    cudaFree (dout.data[p]);
  }
}
#endif

/* Regions on device frames (CUDA memory): tiles launched over the regions
 * only, into a separate output and in place, give the CPU's bytes. */
static void
test_regions_device (void)
{
  if (!need_device ())
    return;
#ifdef HAVE_CUDA
  static const char *const lists[] = {
    "0,0,3,2; 330,209,3,2; 1,1,5,3", "331,5,2,17; 7,208,13,3; 62,47,2,1",
    "101,77,9,7; 105,80,13,5", "1,1,1000,1000",
    /* Regions of many tiles, at the frame's edges and within it (three or
     * more: one launch in place). */
    "0,0,150,120; 200,130,133,81; 180,5,10,10",
    "40,30,200,150; 290,3,40,190; 250,200,30,8",
    /* Two regions within each other's reach, and one of most of the
     * frame: in place, no block may write before every block has read. */
    "60,40,100,80; 163,43,50,80", "2,2,329,207"
  };
  /* In place: linear fp32 sums on the fast kernels' regions instance,
   * the others (int32 sums, gradient pairs, sharpen, dense, wide) on the
   * strip kernel or as tiles. */
  static const char *const names[] = { "box-3", "gaussian-s1",
    "gaussian-s2.5", "sobel-3", "sharpen", "laplacian-3", "custom-4x2"
  };
  GRand *rand;
  int failures = 0;

  rand = g_rand_new_with_seed (0x5f);
  for (guint k = 0; k < G_N_ELEMENTS (names); k++) {
    const FilterCase *fc = find_filter_case (names[k]);

    for (int li = 0; li < N_LAYOUTS; li++) {
      CfSpec *spec = make_spec (fc, li % 2 ? CF_BORDER_REFLECT101 :
          CF_BORDER_REPLICATE, layout_depth (li));

      for (guint t = 0; t < G_N_ELEMENTS (lists); t++)
        for (int in_place = 0; in_place < 2; in_place++) {
          TestFrame f = { 0 };
          CfRegions r;
          char *what;

          cf_regions_init (&r);
          g_assert_true (cf_regions_parse (lists[t], &r, NULL));
          cf_regions_fit (&r, 0, 333, 211);
          make_layout (&f.layout, li, 333, 211);
          test_frame_alloc (&f, rand);
          if (in_place && !cf_backend_regions_in_place (gpu, spec, &f.layout,
                  &r)) {
            test_frame_clear (&f);
            cf_regions_reset (&r);
            continue;
          }
          run_regions_into (cpu, &f, spec, &r, &f.cpu_out);
          run_regions_device (gpu, &f, spec, &r, in_place);
          what = g_strdup_printf ("%s %s 333x211 regions \"%s\" device%s",
              fc->name, layout_names[li], lists[t],
              in_place ? " in place" : "");
          if (!outputs_match (&f, what))
            failures++;
          g_free (what);
          test_frame_clear (&f);
          cf_regions_reset (&r);
        }
      cf_spec_free (spec);
    }
  }
  g_rand_free (rand);
  g_assert_cmpint (failures, ==, 0);
#endif
}

#ifdef HAVE_CUDA
/* Frame `f`'s input filtered in place on its regions by
 * cf_launch_plan_run_inplace () directly, `rounds` times from the input
 * (the barrier's count goes on across launches), into f->gpu_out. */
static void
run_fast_inplace (TestFrame * f, const CfSpec * spec, const CfRegions * r,
    int rounds)
{
  const CfLayout *l = &f->layout;
  CfLaunchPlan *plan;
  CfDeviceFrame df;
  CfRect rects[CF_MAX_CHANNELS * CF_REGIONS_MAX];
  int chan[CF_MAX_CHANNELS * CF_REGIONS_MAX], n = 0;
  unsigned *barrier, arrivals = 0;
  cudaStream_t stream;

  for (int c = 0; c < l->n_channels; c++) {
    const CfChannel *ch = &l->channels[c];

    for (int i = 0; i < r->n_rects && ch->mode != CF_CHANNEL_COPY; i++) {
      cf_rect_for_channel (&r->rects[i], r->frame_width, r->frame_height,
          ch->width, ch->height, &rects[n]);
      chan[n++] = c;
    }
  }
  memset (&df, 0, sizeof (df));
  df.n_channels = l->n_channels;
  memcpy (df.channels, l->channels, sizeof (CfChannel) * l->n_channels);
  /* Rows on 4 bytes: the fast kernels read 4-sample pixels as words. */
  for (int p = 0; p < l->n_planes; p++) {
    df.src_stride[p] = df.dst_stride[p] =
        ROUND_UP_N (f->gpu_out.stride[p], 4);
    g_assert_cmpint (cudaMalloc ((void **) &df.dst[p],
            (gsize) df.dst_stride[p] * l->plane_height[p]), ==, 0);
    df.src[p] = df.dst[p];
  }
  g_assert_cmpint (cudaMalloc ((void **) &barrier, 4), ==, 0);
  g_assert_cmpint (cudaMemset (barrier, 0, 4), ==, 0);
  g_assert_cmpint (cf_launch_plan_new (l->channels, l->n_channels,
          &spec->kp, &spec->sep, &plan), ==, cudaSuccess);
  /* A stream of its own, as the backend's: not the legacy one. */
  g_assert_cmpint (cudaStreamCreateWithFlags (&stream,
          cudaStreamNonBlocking), ==, 0);
  for (int k = 0; k < rounds; k++) {
    cudaError_t err;

    for (int p = 0; p < l->n_planes; p++) {
      g_assert_cmpint (cudaMemset (df.dst[p], CANARY,
              (gsize) df.dst_stride[p] * l->plane_height[p]), ==, 0);
      g_assert_cmpint (cudaMemcpy2D (df.dst[p], df.dst_stride[p],
              f->in.data[p], f->in.stride[p], l->plane_row_bytes[p],
              l->plane_height[p], cudaMemcpyHostToDevice), ==, 0);
    }
    g_assert_cmpint (cudaDeviceSynchronize (), ==, 0);
    /* Not cudaErrorNotSupported: these cases are the fast kernels'. */
    err = cf_launch_plan_run_inplace (plan, &df, chan, rects, n, barrier,
        &arrivals, stream);
    if (err != cudaSuccess)
      g_printerr ("%s: %s\n", cf_launch_plan_name (plan),
          cudaGetErrorString (err));
    g_assert_cmpint (err, ==, cudaSuccess);
    g_assert_cmpint (cudaStreamSynchronize (stream), ==, 0);
  }
  cudaStreamDestroy (stream);
  g_assert_cmpuint (arrivals, >, 0);
  for (int p = 0; p < l->n_planes; p++) {
    g_assert_cmpint (cudaMemcpy2D (f->gpu_out.data[p], f->gpu_out.stride[p],
            df.dst[p], df.dst_stride[p], f->gpu_out.stride[p],
            l->plane_height[p], cudaMemcpyDeviceToHost), ==, 0);
    cudaFree (df.dst[p]);
  }
  cudaFree (barrier);
  cf_launch_plan_free (plan);
}
#endif

/* Regions in place in one launch of the fast kernels, whose blocks all
 * read before any writes (a grid barrier): the CPU's bytes inside the
 * regions, the input outside, launch after launch. */
static void
test_region_fast_inplace (void)
{
  if (!need_device ())
    return;
#ifdef HAVE_CUDA
  static const struct
  {
    const char *filter;
    LayoutId layout;
    const char *regions;
  } cases[] = {
    {"gaussian-s1", LAYOUT_GRAY8, "60,40,100,80; 163,43,50,80"},
    {"gaussian-s1", LAYOUT_RGBA8, "0,0,70,50; 300,180,33,31"},
    {"gaussian-s1", LAYOUT_I420, "31,17,101,77"},
    {"box-3", LAYOUT_RGBA8, "2,2,329,207"},
    {"box-7", LAYOUT_GRAY8, "5,5,3,3; 100,0,1,211; 0,100,333,1"},
    {"gaussian-s0.6-k5", LAYOUT_RGBA8, "64,32,64,32; 10,150,200,40"},
    {"box-3", LAYOUT_I420, "120,60,140,100"},
  };
  GRand *rand = g_rand_new_with_seed (0x1b);
  int failures = 0;

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++) {
    const FilterCase *fc = find_filter_case (cases[k].filter);
    TestFrame f = { 0 };
    CfSpec *spec;
    CfRegions r;
    char *what;

    spec = make_spec (fc, k % 2 ? CF_BORDER_REFLECT101 : CF_BORDER_CONSTANT,
        8);
    cf_regions_init (&r);
    g_assert_true (cf_regions_parse (cases[k].regions, &r, NULL));
    cf_regions_fit (&r, 0, 333, 211);
    make_layout (&f.layout, cases[k].layout, 333, 211);
    test_frame_alloc (&f, rand);
    run_regions_into (cpu, &f, spec, &r, &f.cpu_out);
    run_fast_inplace (&f, spec, &r, 3);
    what = g_strdup_printf ("%s %s 333x211 regions \"%s\" fast in place",
        fc->name, layout_names[cases[k].layout], cases[k].regions);
    if (!outputs_match (&f, what))
      failures++;
    g_free (what);
    test_frame_clear (&f);
    cf_regions_reset (&r);
    cf_spec_free (spec);
  }
  g_rand_free (rand);
  g_assert_cmpint (failures, ==, 0);
#endif
}

/* One full-HD frame, so the grid spans many tiles in x and y. */
static void
test_large (void)
{
  /* RGB, NV16: interleaved samples on tensor cores, two row k-steps;
   * YUY2, UYVY: packed 4:2:2 there, with 7 taps (17 reach past the
   * instances) */
  static const struct
  {
    LayoutId layout;
    const char *filter;
  } cases[] = {
    {LAYOUT_GRAY16, "gaussian-s2.5"}, {LAYOUT_RGBA8, "gaussian-s2.5"},
    {LAYOUT_RGB8, "gaussian-s2.5"}, {LAYOUT_NV16, "gaussian-s2.5"},
    {LAYOUT_YUY2, "gaussian-s1"}, {LAYOUT_UYVY, "gaussian-s1"},
  };
  GRand *rand;

  if (!need_device ())
    return;

  rand = g_rand_new_with_seed (1080);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    const LayoutId li = cases[i].layout;
    const FilterCase *fc = find_filter_case (cases[i].filter);
    CfSpec *spec = make_spec (fc, CF_BORDER_REFLECT101, layout_depth (li));
    TestFrame f = { 0 };

    make_layout (&f.layout, li, 1920, 1080);
    test_frame_alloc (&f, rand);
    run_both (&f, spec);
    g_assert_true (outputs_match (&f, layout_names[li]));
    test_frame_clear (&f);
    cf_spec_free (spec);
  }
  g_rand_free (rand);
}

typedef struct
{
  LayoutId layout;
  int w, h;
} SizedFrame;

/* Every filter case of `names` at every border on every frame, of
 * random samples or, with `fill`, of its samples. */
static void
parity_sweep_filled (const char *const *names, guint n_names,
    const SizedFrame * frames, guint n_frames, void (*fill) (TestFrame * f))
{
  GRand *rand = g_rand_new_with_seed (2309);

  for (guint n = 0; n < n_names; n++)
    for (int b = CF_BORDER_REFLECT101; b <= CF_BORDER_CONSTANT; b++)
      for (guint i = 0; i < n_frames; i++) {
        const FilterCase *fc = find_filter_case (names[n]);
        CfSpec *spec = make_spec (fc, b, layout_depth (frames[i].layout));

        g_assert_true (parity_case (fc, spec, b, frames[i].layout,
                frames[i].w, frames[i].h, rand, fill));
        cf_spec_free (spec);
      }
  g_rand_free (rand);
}

static void
parity_sweep (const char *const *names, guint n_names,
    const SizedFrame * frames, guint n_frames)
{
  parity_sweep_filled (names, n_names, frames, n_frames, NULL);
}

/* The direct kernel (3x3 byte taps on planes of 1 to 3 bytes a pixel of
 * 4 MiB or more; a thread 16 bytes of a row and 2 rows, a block 512 bytes
 * and 8 rows): odd widths (a row's last thread partial), a width of
 * 16-byte threads (the word after the row gathered), a plane 17 bytes
 * wide (every thread at an edge), interleaved pixels whose border maps
 * whole pixels; every border; every spec it takes (dense byte taps,
 * separable products, the linear op with and without an offset, the
 * absolute value). */
static void
test_direct (void)
{
  static const char *names[] = { "box-3", "sobel-x", "laplacian-1",
    "laplacian-3", "custom-3x3", "custom-3x3-offset", "custom-separable"
  };
  static const SizedFrame frames[] = {
    {LAYOUT_GRAY8, 2309, 1821}, {LAYOUT_GRAY8, 2048, 2048},
    {LAYOUT_GRAY8, 17, 246724}, {LAYOUT_I420, 2405, 1803},
    {LAYOUT_NV12, 2405, 1803}, {LAYOUT_RGB8, 1211, 1157},
  };

  if (need_device ())
    parity_sweep (names, G_N_ELEMENTS (names), frames,
        G_N_ELEMENTS (frames));
}

/* The direct kernel for 16-bit words (3x3 on planes of 1, 2 or 4 words
 * a pixel of 4 MiB or more; a thread 8 words of a row and 2 rows, a block
 * 256 words and 8 rows): odd widths, a plane 9 words wide (every thread at
 * an edge), chroma pairs and 4-word pixels whose border maps whole pixels,
 * alpha copied (RGBA64) and V filled (P016), samples at bit 6 (P010) and
 * masked (10 and 12 bits at bit 0); every border; every spec it takes
 * (dense int32 sums, separable products, the box's and a Gaussian's int64
 * column sums, the linear op with and without an offset, the absolute
 * value). */
static void
test_direct_16 (void)
{
  static const char *names[] = { "box-3", "gaussian-s0.3-k3", "sobel-x",
    "laplacian-1", "laplacian-3", "custom-3x3", "custom-3x3-offset",
    "custom-separable"
  };
  static const SizedFrame frames[] = {
    {LAYOUT_GRAY16, 1449, 1451}, {LAYOUT_GRAY16, 9, 233017},
    {LAYOUT_RGBA16, 1023, 1031}, {LAYOUT_P010, 2405, 1803},
    {LAYOUT_P016, 2405, 1803}, {LAYOUT_I420_10, 2405, 1803},
    {LAYOUT_Y444_12, 1451, 1449},
  };

  if (need_device ())
    parity_sweep (names, G_N_ELEMENTS (names), frames,
        G_N_ELEMENTS (frames));
}

/* Planes of 4 MiB and more, where the whole-row 3x3 kernel takes two
 * words of bytes a thread (thread_words () in cf-nonlin-bytes.cu), at
 * odd widths (a row's last word partial); the 5x5 median there too. */
static void
test_large_whole_rows (void)
{
  static const char *names[] = { "median-3", "erode-rect-3", "median-5" };
  static const SizedFrame frames[] = {
    {LAYOUT_GRAY8, 2309, 1821}, {LAYOUT_I420, 2405, 1803},
    {LAYOUT_RGBA8, 1023, 1031},
  };

  if (need_device ())
    parity_sweep (names, G_N_ELEMENTS (names), frames,
        G_N_ELEMENTS (frames));
}

/* The whole-row 3x3 kernel on pixels of four 16-bit samples (RGBA64: two
 * words of halo, the second word's masks copy alpha): widths of one to
 * three pixels, about a block's 32 pixels x 16 rows, frames of many
 * blocks at odd sizes; every border, median and min/max, a row or
 * column pass alone. */
static void
test_whole_rows_rgba64 (void)
{
  static const char *names[] = { "median-3", "erode-rect-3",
    "dilate-kernel-1x3", "erode-kernel-2x1"
  };
  static const SizedFrame frames[] = {
    {LAYOUT_RGBA16, 1, 1}, {LAYOUT_RGBA16, 2, 5}, {LAYOUT_RGBA16, 3, 2},
    {LAYOUT_RGBA16, 31, 15}, {LAYOUT_RGBA16, 33, 17},
    {LAYOUT_RGBA16, 65, 33}, {LAYOUT_RGBA16, 1023, 531},
  };

  if (need_device ())
    parity_sweep (names, G_N_ELEMENTS (names), frames,
        G_N_ELEMENTS (frames));
}

/* Full rectangles on whole planes (cf-nonlin-rect.cu): frames of many
 * blocks (64 rows, 16 to 128 pixels a row pass's block; 8 S rows a
 * column pass's) at odd sizes, every layout the kernels take (1 to 4
 * bytes a pixel, 16-bit samples of 1, 2 and 4 a pixel, chroma pairs, a
 * copied alpha), every border. */
static void
test_rect_planes (void)
{
  static const char *names[] = { "erode-rect-15", "dilate-rect-8",
    "open-rect-5", "gradient-rect-15", "dilate-rect-5-it3",
    "erode-rect-33-it8", "tophat-rect-9"
  };
  static const SizedFrame frames[] = {
    {LAYOUT_GRAY8, 1921, 1083}, {LAYOUT_RGBA8, 1023, 531},
    {LAYOUT_RGB8, 777, 601}, {LAYOUT_NV12, 1283, 721},
    {LAYOUT_I420, 643, 483}, {LAYOUT_GRAY16, 1001, 999},
    {LAYOUT_RGBA16, 513, 517}, {LAYOUT_P016, 641, 361},
  };

  if (need_device ())
    parity_sweep (names, G_N_ELEMENTS (names), frames,
        G_N_ELEMENTS (frames));
}

/* Frame bytes of flat areas of 0 and 255 beside ramps, in blocks of
 * 37 x 23: a window moving across them moves the median by many values
 * at once. */
static void
fill_steps (TestFrame * f)
{
  for (int p = 0; p < f->layout.n_planes; p++)
    for (int y = 0; y < f->layout.plane_height[p]; y++)
      for (int x = 0; x < f->in.stride[p]; x++) {
        const int band = (x / 37 + y / 23) % 3;

        f->in.data[p][(gsize) y * f->in.stride[p] + x] = band == 0 ? 255 :
            band == 1 ? 0 : (guint8) (x + 3 * y);
      }
}

/* Medians from running histograms (cf-nonlin-histogram.cu): frames of
 * many blocks (64 x 64 outputs) at odd sizes, 8-bit layouts of every
 * kind (deeper ones count, the same bytes), every border, on random
 * bytes and on steps (fill_steps). */
static void
test_median_histogram (void)
{
  static const char *names[] = { "median-9", "median-15", "median-31" };
  static const SizedFrame frames[] = {
    {LAYOUT_GRAY8, 1281, 723}, {LAYOUT_RGBA8, 333, 277},
    {LAYOUT_NV12, 643, 361}, {LAYOUT_YUY2, 331, 129},
  };

  if (!need_device ())
    return;
  parity_sweep (names, G_N_ELEMENTS (names), frames, G_N_ELEMENTS (frames));
  /* the steps on GRAY8 and RGBA */
  parity_sweep_filled (names, G_N_ELEMENTS (names), frames, 2, fill_steps);
}

/* The 5x5 median on whole rows (cf-nonlin-bytes.cu): planes of one 8- or
 * 16-bit sample a pixel, at sizes about a block's 256 samples x 16 rows
 * and below the window, every border; NV12 and RGBA take the tiles (the
 * same bytes either way). */
static void
test_median5_whole_rows (void)
{
  static const LayoutId layouts[] = {
    LAYOUT_GRAY8, LAYOUT_GRAY16, LAYOUT_I420, LAYOUT_I420_16, LAYOUT_NV12,
    LAYOUT_RGBA8,
  };
  static const Size frames[] = {
    {2, 2}, {3, 4}, {5, 5}, {6, 1}, {1, 6}, {9, 3}, {255, 17}, {257, 16},
    {259, 33}, {511, 15}, {513, 31}, {771, 49},
  };
  const FilterCase *fc;
  GRand *rand;
  int failures = 0, cases = 0;

  if (!need_device ())
    return;

  fc = find_filter_case ("median-5");
  rand = g_rand_new_with_seed (0x5e5);
  for (int b = 0; b <= CF_BORDER_CONSTANT; b++)
    for (guint li = 0; li < G_N_ELEMENTS (layouts); li++) {
      CfSpec *spec = make_spec (fc, b, layout_depth (layouts[li]));

      for (guint i = 0; i < G_N_ELEMENTS (frames); i++) {
        if (!parity_case (fc, spec, b, layouts[li], frames[i].w,
                frames[i].h, rand, NULL))
          failures++;
        cases++;
      }
      cf_spec_free (spec);
    }
  g_rand_free (rand);
  if (failures)
    g_test_message ("%d of %d cases differ", failures, cases);
  g_assert_cmpint (failures, ==, 0);
}

/* ---------------------------------------------------------------------- */
/* FFT convolution of large dense kernels: the same bytes as the CPU
 * backend, through backends made with CUDAFILTER_CONVOLUTION=fft (every
 * dense spec whose error bound allows it) and =direct, beside the default
 * one (auto, unless the environment says otherwise). */

static CfBackend *gpu_fft, *gpu_direct;

typedef struct
{
  const char *name;
  int kw, kh;                   /* custom kernel of random integers */
  int lo, hi;                   /* their range */
  double divisor, offset;       /* divisor 0: the sum */
  int laplacian;                /* instead: Laplacian of this aperture */
} FftCase;

static const FftCase fft_cases[] = {
  {"custom-15x15", 15, 15, -4, 10},
  {"custom-31x31", 31, 31, -6, 10},
  {"custom-63x63", 63, 63, -6, 10},
  /* integer weights (a power-of-two divisor): exact for 16-bit too */
  {"custom-31x31-int", 31, 31, -6, 10, 4096, 100},
  {"custom-20x9", 20, 9, -9, 10, 0, 30},
  {"laplacian-7",.laplacian = 7},
};

static CfSpec *
fft_spec (const FftCase * fc, CfBorder border, int depth)
{
  CfParams params;
  GError *error = NULL;
  GString *text = g_string_new (NULL);
  GRand *rand = g_rand_new_with_seed (fc->kw * 64 + fc->kh);
  CfSpec *spec;

  for (int j = 0; j < fc->kh; j++) {
    for (int i = 0; i < fc->kw; i++)
      g_string_append_printf (text, "%d ", g_rand_int_range (rand, fc->lo,
              fc->hi));
    g_string_append (text, j < fc->kh - 1 ? ";" : "");
  }
  cf_params_init (&params);
  if (fc->laplacian) {
    params.filter = CF_FILTER_LAPLACIAN;
    params.kernel_size = fc->laplacian;
    params.scale = 0.01;
    params.offset = 20;
  } else {
    params.filter = CF_FILTER_CUSTOM;
    params.kernel = text->str;
    params.divisor = fc->divisor;
    params.offset = fc->offset;
  }
  params.border = border;
  params.border_value = depth == 8 ? 200 : depth == 16 ? 50000 :
      (1 << depth) * 2 / 3;
  spec = cf_spec_new_for_depth (&params, depth, &error);
  g_assert_no_error (error);
  g_assert_false (spec->kp.separable);
  g_string_free (text, TRUE);
  g_rand_free (rand);
  return spec;
}

/* Runs the CPU backend and `backend` on f, compares; TRUE when equal. */
static gboolean
matches_on (CfBackend * backend, TestFrame * f, const CfSpec * spec,
    const char *what)
{
  run_into (backend, f, spec, &f->gpu_out);
  return outputs_match (f, what);
}

/* One frame through the forced FFT, forced direct and default backends;
 * counts the cases the FFT path took. */
static int
compare_fft (const FftCase * fc, CfBorder b, LayoutId li, int w, int h,
    GRand * rand, int *fft_cases_run)
{
  CfSpec *spec = fft_spec (fc, b, layout_depth (li));
  CfFftGeometry geom;
  TestFrame f = { 0 };
  int failures = 0;
  char *what;

  make_layout (&f.layout, li, w, h);
  test_frame_alloc (&f, rand);
  if (cf_fft_decide (CF_CONV_FFT, spec, f.layout.channels,
          f.layout.n_channels, &geom))
    (*fft_cases_run)++;
  run_into (cpu, &f, spec, &f.cpu_out);
  what = g_strdup_printf ("%s border=%s %s %dx%d", fc->name,
      border_names[b], layout_names[li], w, h);
  if (!matches_on (gpu_fft, &f, spec, what))
    failures++;
  if (!matches_on (gpu, &f, spec, what))
    failures++;
  if (!matches_on (gpu_direct, &f, spec, what))
    failures++;
  g_free (what);
  test_frame_clear (&f);
  cf_spec_free (spec);
  return failures;
}

static const Size fft_sizes[] = {
  {97, 61}, {1, 1}, {7, 3}, {130, 33}, {64, 70},
};

static void
test_fft (gconstpointer data)
{
  static const LayoutId layouts[] = { LAYOUT_GRAY8, LAYOUT_GRAY16,
    LAYOUT_RGBA8, LAYOUT_I420, LAYOUT_NV12, LAYOUT_RGBA16, LAYOUT_P010,
    LAYOUT_RGB10A2, LAYOUT_YUY2
  };
  const FftCase *fc = data;
  int failures = 0, cases = 0, through_fft = 0;
  GRand *rand;

  if (!need_device ())
    return;

  rand = g_rand_new_with_seed (0xff7);
  for (int b = 0; b <= CF_BORDER_CONSTANT; b++)
    for (guint li = 0; li < G_N_ELEMENTS (layouts); li++)
      for (guint si = 0; si < G_N_ELEMENTS (fft_sizes); si++, cases++)
        failures += compare_fft (fc, b, layouts[li], fft_sizes[si].w,
            fft_sizes[si].h, rand, &through_fft);
  g_rand_free (rand);
  g_test_message ("%d of %d cases through the FFT, %d comparisons differ",
      through_fft, cases, failures);
#ifndef HAVE_CUFFT
  g_test_message ("built without cuFFT: every case ran the direct kernel");
#endif
  /* 8-bit cases are always exact enough for the FFT path */
  g_assert_cmpint (through_fft, >=, cases / 2);
  g_assert_cmpint (failures, ==, 0);
}

/* With a device, the FFT cases must really run through cuFFT unless
 * CUDAFILTER_CUFFT deliberately points elsewhere (then they check that the
 * direct path stands in with the same bytes). */
static void
fft_check_loaded (void)
{
#ifdef HAVE_CUFFT
  const char *why = cf_cuda_fft_unavailable ();

  if (why == NULL)
    return;
  g_print ("# cuFFT not loaded, FFT cases run the direct path: %s\n", why);
  if (g_getenv ("CUDAFILTER_CUFFT") == NULL)
    g_error ("built with cuFFT, a device present, but %s", why);
#endif
}

/* Full-HD frames: many tiles per channel, several batches. */
static void
test_fft_large (void)
{
  static const struct
  {
    int fc;                     /* index in fft_cases */
    LayoutId layout;
    CfBorder border;
  } runs[] = {
    {0, LAYOUT_GRAY8, CF_BORDER_REFLECT101},
    {0, LAYOUT_GRAY8, CF_BORDER_REPLICATE},
    {0, LAYOUT_GRAY8, CF_BORDER_REFLECT},
    {0, LAYOUT_GRAY8, CF_BORDER_WRAP},
    {0, LAYOUT_GRAY8, CF_BORDER_CONSTANT},
    {0, LAYOUT_I420, CF_BORDER_REPLICATE},
    {1, LAYOUT_RGBA8, CF_BORDER_REFLECT101},
    {2, LAYOUT_GRAY8, CF_BORDER_CONSTANT},
    {3, LAYOUT_GRAY16, CF_BORDER_WRAP},
  };
  int failures = 0;
  GRand *rand;

  if (!need_device ())
    return;

  rand = g_rand_new_with_seed (1920);
  for (guint r = 0; r < G_N_ELEMENTS (runs); r++) {
    const FftCase *fc = &fft_cases[runs[r].fc];
    CfSpec *spec = fft_spec (fc, runs[r].border,
        layout_depth (runs[r].layout));
    CfFftGeometry geom;
    TestFrame f = { 0 };
    char *what;

    make_layout (&f.layout, runs[r].layout, 1920, 1080);
    g_assert_true (cf_fft_decide (CF_CONV_FFT, spec, f.layout.channels,
            f.layout.n_channels, &geom));
    g_assert_cmpint (geom.tiles.n_tiles, >, f.layout.n_channels);
    test_frame_alloc (&f, rand);
    run_into (cpu, &f, spec, &f.cpu_out);
    what = g_strdup_printf ("%s border=%s %s 1920x1080 (%d tiles of %dx%d)",
        fc->name, border_names[runs[r].border], layout_names[runs[r].layout],
        geom.tiles.n_tiles, geom.tiles.fft_w, geom.tiles.fft_h);
    g_test_message ("%s", what);
    if (!matches_on (gpu_fft, &f, spec, what))
      failures++;
    if (!matches_on (gpu, &f, spec, what))
      failures++;
    g_free (what);
    test_frame_clear (&f);
    cf_spec_free (spec);
  }
  g_rand_free (rand);
  g_assert_cmpint (failures, ==, 0);
}

/* The slot's plans and the kernel's spectrum follow spec and size
 * changes from frame to frame. */
static void
test_fft_changes (void)
{
  static const struct
  {
    int fc;
    LayoutId layout;
    int w, h;
  } seq[] = {
    {1, LAYOUT_GRAY8, 300, 200}, {1, LAYOUT_GRAY8, 300, 200},
    {0, LAYOUT_GRAY8, 300, 200}, {0, LAYOUT_RGBA8, 300, 200},
    {0, LAYOUT_RGBA8, 41, 500}, {2, LAYOUT_RGBA8, 41, 500},
    {1, LAYOUT_GRAY8, 300, 200},
  };
  GRand *rand;

  if (!need_device ())
    return;
  rand = g_rand_new_with_seed (77);
  for (guint i = 0; i < G_N_ELEMENTS (seq); i++) {
    CfSpec *spec = fft_spec (&fft_cases[seq[i].fc], CF_BORDER_REFLECT101, 8);
    TestFrame f = { 0 };

    make_layout (&f.layout, seq[i].layout, seq[i].w, seq[i].h);
    test_frame_alloc (&f, rand);
    run_into (cpu, &f, spec, &f.cpu_out);
    g_assert_true (matches_on (gpu_fft, &f, spec, fft_cases[seq[i].fc].name));
    test_frame_clear (&f);
    cf_spec_free (spec);
  }
  g_rand_free (rand);
}

/* A CUDA backend with CUDAFILTER_CONVOLUTION set to `method` while it is
 * made. */
static CfBackend *
cuda_backend_with (const char *method)
{
  char *saved = g_strdup (g_getenv ("CUDAFILTER_CONVOLUTION"));
  GError *error = NULL;
  CfBackend *b;

  g_setenv ("CUDAFILTER_CONVOLUTION", method, TRUE);
  b = cf_backend_new (CF_BACKEND_CUDA, -1, &error);
  g_assert_no_error (error);
  if (saved)
    g_setenv ("CUDAFILTER_CONVOLUTION", saved, TRUE);
  else
    g_unsetenv ("CUDAFILTER_CONVOLUTION");
  g_free (saved);
  return b;
}

/* ---------------------------------------------------------------------- */
/* Results worked out by hand, on the CUDA backend alone */

static CfSpec *
spec_simple (CfFilter filter, int kernel_size, const char *kernel,
    CfBorder border)
{
  CfParams params;
  GError *error = NULL;
  CfSpec *spec;

  cf_params_init (&params);
  params.filter = filter;
  params.kernel_size = kernel_size;
  params.kernel = kernel;
  params.border = border;
  params.border_value = 0;
  spec = cf_spec_new (&params, 1, &error);
  g_assert_no_error (error);
  return spec;
}

/* gray8 frame of w x h, in and out strides padded. */
static void
gray_frame (TestFrame * f, int w, int h)
{
  GRand *rand = g_rand_new_with_seed (7);

  memset (f, 0, sizeof (*f));
  cf_layout_init_interleaved (&f->layout, w, h, 1, 1, 0x1);
  test_frame_alloc (f, rand);
  memset (f->gpu_out.data[0], CANARY, f->size[0]);
  g_rand_free (rand);
}

static void
process_gpu (TestFrame * f, const CfSpec * spec)
{
  GError *error = NULL;

  g_assert_true (cf_backend_process (gpu, spec, &f->layout, &f->in,
          &f->gpu_out, &error));
  g_assert_no_error (error);
}

static guint8
in_at (const TestFrame * f, int x, int y)
{
  return f->in.data[0][y * f->in.stride[0] + x];
}

static guint8
out_at (const TestFrame * f, int x, int y)
{
  return f->gpu_out.data[0][y * f->gpu_out.stride[0] + x];
}

static void
test_hand_values (void)
{
  TestFrame f;
  CfSpec *spec;
  const int w = 40, h = 37;

  if (!need_device ())
    return;

  /* A flat image stays flat under any normalised blur, whatever the
   * border (constant border 0 darkens only the edge rows and columns). */
  gray_frame (&f, w, h);
  for (int y = 0; y < h; y++)
    memset (f.in.data[0] + y * f.in.stride[0], 90, w);
  spec = spec_simple (CF_FILTER_BOX, 5, NULL, CF_BORDER_REFLECT);
  process_gpu (&f, spec);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      g_assert_cmpint (out_at (&f, x, y), ==, 90);
  cf_spec_free (spec);

  /* Box 3x3 with constant border 0: a corner sees 4 of 9 samples,
   * 90 * 4 / 9 = 40; an edge 6 of 9: 60. */
  spec = spec_simple (CF_FILTER_BOX, 3, NULL, CF_BORDER_CONSTANT);
  process_gpu (&f, spec);
  g_assert_cmpint (out_at (&f, 0, 0), ==, 40);
  g_assert_cmpint (out_at (&f, w - 1, h - 1), ==, 40);
  g_assert_cmpint (out_at (&f, 5, 0), ==, 60);
  g_assert_cmpint (out_at (&f, 0, 5), ==, 60);
  g_assert_cmpint (out_at (&f, 5, 5), ==, 90);
  cf_spec_free (spec);

  /* Sobel magnitude of a horizontal ramp of slope 3: gx = 3 * 2 * 4 = 24
   * away from the edges, gy = 0.  With replicate borders the first column
   * sees (I(1) - I(0)) * 4 = 12. */
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      f.in.data[0][y * f.in.stride[0] + x] = 3 * x;
  spec = spec_simple (CF_FILTER_SOBEL, 3, NULL, CF_BORDER_REPLICATE);
  process_gpu (&f, spec);
  for (int y = 0; y < h; y++) {
    g_assert_cmpint (out_at (&f, 0, y), ==, 12);
    for (int x = 1; x < w - 1; x++)
      g_assert_cmpint (out_at (&f, x, y), ==, 24);
    g_assert_cmpint (out_at (&f, w - 1, y), ==, 12);
  }
  cf_spec_free (spec);
  test_frame_clear (&f);

  /* The identity kernel and a shift kernel reproduce the random input;
   * wrap brings the last column round to the first. */
  gray_frame (&f, w, h);
  spec = spec_simple (CF_FILTER_CUSTOM, 0, "0 0 0; 0 1 0; 0 0 0",
      CF_BORDER_CONSTANT);
  process_gpu (&f, spec);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      g_assert_cmpint (out_at (&f, x, y), ==, in_at (&f, x, y));
  cf_spec_free (spec);
  spec = spec_simple (CF_FILTER_CUSTOM, 0, "0 0 0; 1 0 0; 0 0 0",
      CF_BORDER_WRAP);
  process_gpu (&f, spec);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      g_assert_cmpint (out_at (&f, x, y), ==,
          in_at (&f, (x + w - 1) % w, y));
  cf_spec_free (spec);

  /* Padding past each output row is never written. */
  for (int y = 0; y < h; y++)
    for (int x = w; x < f.gpu_out.stride[0]; x++)
      g_assert_cmpint (out_at (&f, x, y), ==, CANARY);
  test_frame_clear (&f);
}

/* ---------------------------------------------------------------------- */
/* Device buffers at odd addresses and strides: the fast kernels must see
 * that 32-bit access is impossible and fall back, or not need it, and give
 * the CPU backend's bytes either way. */

#ifdef HAVE_CUDA
static void
launch_unaligned (const FilterCase * fc, LayoutId li, int w, int h,
    int src_shift, int src_pad, int dst_shift, int dst_pad, GRand * rand)
{
  CfSpec *spec = make_spec (fc, CF_BORDER_REFLECT101, 8);
  CfLayout layout;
  CfFrame in, out;
  CfDeviceFrame df;
  GError *error = NULL;
  unsigned char *d_in, *d_out, *h_in, *h_out, *h_gpu;
  int *d_dense = NULL;
  int row, ss, ds;
  char *what;

  make_layout (&layout, li, w, h);
  g_assert_cmpint (layout.n_planes, ==, 1);
  row = layout.plane_row_bytes[0];
  ss = row + src_pad;
  ds = row + dst_pad;
  h_in = g_malloc ((gsize) ss * h);
  h_out = g_malloc ((gsize) ds * h);
  h_gpu = g_malloc ((gsize) ds * h);
  for (gsize i = 0; i < (gsize) ss * h; i++)
    h_in[i] = (guint8) g_rand_int (rand);
  memset (h_out, CANARY, (gsize) ds * h);
  memset (h_gpu, CANARY, (gsize) ds * h);

  memset (&in, 0, sizeof (in));
  memset (&out, 0, sizeof (out));
  in.data[0] = h_in;
  in.stride[0] = ss;
  out.data[0] = h_out;
  out.stride[0] = ds;
  g_assert_true (cf_backend_process (cpu, spec, &layout, &in, &out, &error));
  g_assert_no_error (error);

  g_assert_cmpint (cudaMalloc ((void **) &d_in, (gsize) ss * h + 16), ==, 0);
  g_assert_cmpint (cudaMalloc ((void **) &d_out, (gsize) ds * h + 16), ==, 0);
  g_assert_cmpint (cudaMemcpy (d_in + src_shift, h_in, (gsize) ss * h,
          cudaMemcpyHostToDevice), ==, 0);
  g_assert_cmpint (cudaMemcpy (d_out + dst_shift, h_gpu, (gsize) ds * h,
          cudaMemcpyHostToDevice), ==, 0);
  if (cf_weights_on_device (&spec->kp)) {
    gsize bytes;
    const void *weights = cf_spec_device_weights (spec, &bytes);
    g_assert_cmpint (cudaMalloc ((void **) &d_dense, bytes), ==, 0);
    g_assert_cmpint (cudaMemcpy (d_dense, weights, bytes,
            cudaMemcpyHostToDevice), ==, 0);
  }
  memset (&df, 0, sizeof (df));
  df.src[0] = d_in + src_shift;
  df.dst[0] = d_out + dst_shift;
  df.src_stride[0] = ss;
  df.dst_stride[0] = ds;
  df.n_channels = layout.n_channels;
  memcpy (df.channels, layout.channels, sizeof (CfChannel) * df.n_channels);
  g_assert_cmpint (cf_launch_filter (&df, &spec->kp, &spec->sep, d_dense,
          0), ==, 0);
  g_assert_cmpint (cudaDeviceSynchronize (), ==, 0);
  g_assert_cmpint (cudaMemcpy (h_gpu, d_out + dst_shift, (gsize) ds * h,
          cudaMemcpyDeviceToHost), ==, 0);

  what = g_strdup_printf ("%s %s %dx%d src +%d/%d dst +%d/%d", fc->name,
      layout_names[li], w, h, src_shift, ss, dst_shift, ds);
  for (int y = 0; y < h; y++) {
    for (int x = 0; x < ds; x++) {
      guint8 c = h_out[y * ds + x], g = h_gpu[y * ds + x];
      if (c != g)
        g_error ("%s: row %d byte %d: cpu %d, cuda %d", what, y, x, c, g);
    }
  }
  g_free (what);
  cudaFree (d_dense);
  cudaFree (d_out);
  cudaFree (d_in);
  g_free (h_gpu);
  g_free (h_out);
  g_free (h_in);
  cf_spec_free (spec);
}
#endif

static void
test_unaligned (void)
{
  if (!need_device ())
    return;
#ifdef HAVE_CUDA
  {
    static const char *names[] = { "gaussian-s1", "box-7", "sobel-3",
      "laplacian-1", "custom-5x5"
    };

    /* RGB: interleaved samples on tensor cores, byte loads and stores
     * where rows are not aligned (one plane: launch_unaligned's frames). */
    static const LayoutId layouts[] = { LAYOUT_GRAY8, LAYOUT_RGBA8,
      LAYOUT_RGB8
    };
    GRand *rand = g_rand_new_with_seed (0x0dd);

    for (guint c = 0; c < G_N_ELEMENTS (names); c++) {
      const FilterCase *fc = find_filter_case (names[c]);
      for (guint i = 0; i < G_N_ELEMENTS (layouts); i++) {
        const LayoutId li = layouts[i];
        /* aligned, then odd addresses, then odd strides */
        launch_unaligned (fc, li, 131, 45, 0, 0, 0, 0, rand);
        launch_unaligned (fc, li, 131, 45, 1, 0, 3, 0, rand);
        launch_unaligned (fc, li, 131, 45, 0, 5, 0, 7, rand);
        launch_unaligned (fc, li, 1, 1, 2, 1, 1, 3, rand);
      }
    }
    g_rand_free (rand);
  }
#endif
}

static void
test_device_errors (void)
{
  GError *error = NULL;
  CfBackend *b;
  int n;

  if (!need_device ())
    return;

  g_assert_true (g_str_has_prefix (cf_backend_describe (gpu), "cuda:0 ("));
  g_assert_cmpint (cf_backend_kind (gpu), ==, CF_BACKEND_CUDA);

  n = cf_cuda_device_count (NULL);
  b = cf_backend_new (CF_BACKEND_CUDA, n, &error);
  g_assert_null (b);
  g_assert_error (error, CF_ERROR, CF_ERROR_NO_DEVICE);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "requested"));
  g_assert_nonnull (strstr (error->message, "0: "));
  g_clear_error (&error);
}

int
main (int argc, char **argv)
{
  GError *error = NULL;
  char *why = NULL;

  g_test_init (&argc, &argv, NULL);

  if (cf_cuda_device_count (&why) == 0) {
    no_device_reason = g_strdup_printf ("no CUDA device: %s", why);
    g_print ("SKIP: %s\n", no_device_reason);
    g_free (why);
  } else {
    cpu = cf_backend_new (CF_BACKEND_CPU, -1, &error);
    g_assert_no_error (error);
    gpu = cf_backend_new (CF_BACKEND_CUDA, -1, &error);
    g_assert_no_error (error);
    gpu_fft = cuda_backend_with ("fft");
    gpu_direct = cuda_backend_with ("direct");
    g_print ("# comparing %s with %s\n", cf_backend_describe (gpu),
        cf_backend_describe (cpu));
    fft_check_loaded ();
  }

  for (guint i = 0; i < G_N_ELEMENTS (filter_cases); i++) {
    char *path = g_strdup_printf ("/gpu-parity/%s", filter_cases[i].name);
    g_test_add_data_func (path, &filter_cases[i], test_filter);
    g_free (path);
  }
  g_test_add_func ("/gpu-parity/large-1920x1080", test_large);
  g_test_add_func ("/gpu-parity/large-whole-rows", test_large_whole_rows);
  g_test_add_func ("/gpu-parity/direct", test_direct);
  g_test_add_func ("/gpu-parity/direct-16", test_direct_16);
  g_test_add_func ("/gpu-parity/whole-rows-rgba64", test_whole_rows_rgba64);
  g_test_add_func ("/gpu-parity/rect-planes", test_rect_planes);
  g_test_add_func ("/gpu-parity/median-histogram", test_median_histogram);
  g_test_add_func ("/gpu-parity/median-5-whole-rows",
      test_median5_whole_rows);
  g_test_add_func ("/gpu-parity/unaligned", test_unaligned);
  g_test_add_func ("/gpu-parity/regions", test_regions);
  g_test_add_func ("/gpu-parity/regions-device", test_regions_device);
  g_test_add_func ("/gpu-parity/region-fast-inplace",
      test_region_fast_inplace);
  for (guint i = 0; i < G_N_ELEMENTS (fft_cases); i++) {
    char *path = g_strdup_printf ("/gpu-parity/fft/%s", fft_cases[i].name);
    g_test_add_data_func (path, &fft_cases[i], test_fft);
    g_free (path);
  }
  g_test_add_func ("/gpu-parity/fft-large-1920x1080", test_fft_large);
  g_test_add_func ("/gpu-parity/fft-changes", test_fft_changes);
  g_test_add_func ("/gpu/hand-values", test_hand_values);
  g_test_add_func ("/gpu/device-errors", test_device_errors);

  int ret = g_test_run ();

  cf_backend_free (gpu_direct);
  cf_backend_free (gpu_fft);
  cf_backend_free (gpu);
  cf_backend_free (cpu);
  g_free (no_device_reason);
  return ret;
}
