/* cudafilter engine: which kernel a launch plan chooses, without a device
 * (cf_launch_plan_new_for stands in for the device's shared memory and
 * compute capability).  The expectations are the kernels' documented
 * reach: tensor cores for separable linear taps on sm_80 and newer
 * (cf-mma.cu), the fast 8-bit kernels for 4-sample pixels and
 * single-sample planes, separable up to 13 taps in fp32 and gradient pairs
 * up to 7, dense 3x3 and 5x5 (cf-fast-kernels.cuh), and the general kernel for
 * everything else, its tile as tall as the shared memory allows, or the
 * long general kernel past the tile or 63 separable taps (cf-filter.cu).
 * Nonlinear programs: the whole-row kernel for 3x3 medians and min/max and
 * for 5x5 medians of one sample a pixel (cf-nonlin-bytes.cu), the tiles
 * for the rest. */
#include <string.h>
#include "cf-spec.h"
#include "cf-layout.h"
#include "cf-launch.h"
#include "cf-region-inplace.h"
#include "cf-nonlin-launch.h"

#define H200_OPTIN 232448       /* bytes of shared memory a block, sm_90 */
#define SM75_OPTIN 65536

static CfSpec *
spec_new (CfFilter filter, double sigma, const char *kernel, int bytes)
{
  CfParams params;
  GError *err = NULL;
  CfSpec *spec;

  cf_params_init (&params);
  params.filter = filter;
  params.sigma = sigma;
  params.kernel = kernel;
  params.divisor = 1.0;         /* custom: the integers as they are */
  spec = cf_spec_new (&params, bytes, &err);
  g_assert_no_error (err);
  return spec;
}

/* A box of size x size taps for samples of `bytes`. */
static CfSpec *
box_new (int size, int bytes)
{
  CfParams params;
  GError *err = NULL;
  CfSpec *spec;

  cf_params_init (&params);
  params.filter = CF_FILTER_BOX;
  params.kernel_size = size;
  spec = cf_spec_new (&params, bytes, &err);
  g_assert_no_error (err);
  return spec;
}

/* Semi-planar layouts for plan_name: NV12 (chroma pairs, both filtered)
 * and NV12 with V filled (planes=u, as the element builds it). */
#define NV12 (-1)
#define NV12_V_FILLED (-2)
#define UYVY (-3)
#define P010 (-4)

/* A w x h frame of `samples`-sample pixels (I420-like planes for 0,
 * NV12, NV12_V_FILLED, UYVY or P010) for `spec`. */
static void
make_layout (CfLayout * layout, const CfSpec * spec, int samples, int w,
    int h)
{
  memset (layout, 0, sizeof *layout);
  layout->sample_bytes = 1;
  if (samples == 0) {
    cf_layout_add_channel (layout, CF_CHANNEL_FILTER, 0, w, h, 1, 0, 0);
    cf_layout_add_channel (layout, CF_CHANNEL_FILTER, 1, w / 2, h / 2, 1, 0,
        0);
    cf_layout_add_channel (layout, CF_CHANNEL_FILTER, 2, w / 2, h / 2, 1, 0,
        0);
  } else if (samples == UYVY) {
    /* packed 4:2:2, U Y V Y */
    cf_layout_add_channel (layout, CF_CHANNEL_FILTER, 0, w, h, 2, 1, 0);
    cf_layout_add_channel (layout, CF_CHANNEL_FILTER, 0, w / 2, h, 4, 0, 0);
    cf_layout_add_channel (layout, CF_CHANNEL_FILTER, 0, w / 2, h, 4, 2, 0);
  } else if (samples == P010) {
    /* 10 bits at bit 6 of 16, luma and both chroma filtered */
    layout->sample_bytes = 2;
    for (int c = 0; c < 3; c++) {
      cf_layout_add_channel (layout, CF_CHANNEL_FILTER, c > 0,
          c ? w / 2 : w, c ? h / 2 : h, c ? 4 : 2, c == 2 ? 2 : 0, 0);
      g_assert_true (cf_layout_set_encoding (layout, 2, 10, 6, FALSE));
    }
  } else if (samples < 0) {
    cf_layout_add_channel (layout, CF_CHANNEL_FILTER, 0, w, h, 1, 0, 0);
    cf_layout_add_channel (layout, CF_CHANNEL_FILTER, 1, w / 2, h / 2, 2, 0,
        0);
    cf_layout_add_channel (layout, samples == NV12 ? CF_CHANNEL_FILTER :
        CF_CHANNEL_FILL, 1, w / 2, h / 2, 2, 1, 128);
  } else {
    cf_layout_init_interleaved (layout, w, h, samples,
        spec->kp.sample_bytes, samples == 4 ? 0x7 : (1u << samples) - 1);
  }
}

/* The plan's name for `spec` on a w x h frame of `samples`-sample pixels
 * (make_layout), on a device of `optin` bytes and compute capability
 * `major`. */
static char *
plan_name_at (const CfSpec * spec, int samples, int w, int h, int optin,
    int major)
{
  CfLayout layout;
  CfLaunchPlan *plan = NULL;
  char *name;

  make_layout (&layout, spec, samples, w, h);
  g_assert_cmpint (cf_launch_plan_new_for (layout.channels,
          layout.n_channels, &spec->kp, &spec->sep, optin, major, &plan), ==,
      cudaSuccess);
  name = g_strdup (cf_launch_plan_name (plan));
  cf_launch_plan_free (plan);
  return name;
}

/* The same on 640 x 480. */
static char *
plan_name (const CfSpec * spec, int samples, int optin, int major)
{
  return plan_name_at (spec, samples, 640, 480, optin, major);
}

/* The plan's name on a w x h frame, on the H200, is `want`. */
static void
expect_sized (const CfSpec * spec, int samples, int w, int h,
    const char *want)
{
  char *name = plan_name_at (spec, samples, w, h, H200_OPTIN, 9);

  g_test_message ("%d samples, %dx%d: %s", samples, w, h, name);
  g_assert_cmpstr (name, ==, want);
  g_free (name);
}

/* The plan on a w x h frame, on the H200, is not a direct kernel's. */
static void
expect_not_direct (const CfSpec * spec, int samples, int w, int h)
{
  char *name = plan_name_at (spec, samples, w, h, H200_OPTIN, 9);

  g_test_message ("%d samples, %dx%d: %s", samples, w, h, name);
  g_assert_false (g_str_has_prefix (name, "direct"));
  g_free (name);
}

/* Whether the plan's name is `want`, or (prefix) starts with it. */
static void
expect_name (const CfSpec * spec, int samples, int optin, int major,
    const char *want, gboolean prefix)
{
  char *name = plan_name (spec, samples, optin, major);

  g_test_message ("%d samples, compute capability %d.x: %s", samples, major,
      name);
  if (prefix)
    g_assert_true (g_str_has_prefix (name, want));
  else
    g_assert_cmpstr (name, ==, want);
  g_free (name);
}

static void
expect (const CfSpec * spec, int samples, int optin, int major,
    const char *want)
{
  expect_name (spec, samples, optin, major, want, FALSE);
}

static void
expect_prefix (const CfSpec * spec, int samples, int optin, int major,
    const char *want)
{
  expect_name (spec, samples, optin, major, want, TRUE);
}

static void
test_separable (void)
{
  CfSpec *g2 = spec_new (CF_FILTER_GAUSSIAN, 2.0, NULL, 1);
  CfSpec *g8 = spec_new (CF_FILTER_GAUSSIAN, 8.0, NULL, 1);
  CfSpec *g25 = spec_new (CF_FILTER_GAUSSIAN, 2.5, NULL, 1);

  expect (g2, 4, H200_OPTIN, 9,
      "tensor-core separable, 4-sample pixels (3 filtered), 13 taps");
  expect (g2, 4, SM75_OPTIN, 7,
      "fast separable, 4-sample pixels (3 filtered), 13 taps, fp32 sums");
  expect (g2, 1, H200_OPTIN, 9,
      "tensor-core separable, 1 single-sample plane, 13 taps");
  expect (g2, 0, SM75_OPTIN, 7,
      "fast separable, 3 single-sample planes, 13 taps, fp32 sums");
  /* Interleaved samples (RGB, NV12's chroma pairs) as rows of bytes with
   * the row taps spread: tensor cores only, every sample filtered, up to
   * 81 row taps (3 x 25 - 2 for RGB). */
  expect (g2, 3, H200_OPTIN, 9, "tensor-core separable, 1 plane of bytes, "
      "1 of 3-sample pixels, 13 taps");
  expect (g2, NV12, H200_OPTIN, 9, "tensor-core separable, 2 planes of "
      "bytes, 1 of 2-sample pixels, 13 taps");
  expect (g2, 3, SM75_OPTIN, 7,
      "general separable, 8-bit samples, 32-bit sums, 8 rows a thread");
  expect (g2, NV12_V_FILLED, H200_OPTIN, 9,
      "general separable, 8-bit samples, 32-bit sums, 8 rows a thread");
  expect (g8, 3, H200_OPTIN, 9,
      "general separable, 8-bit samples, 32-bit sums, 8 rows a thread");
  expect (g8, NV12, H200_OPTIN, 9,
      "general separable, 8-bit samples, 32-bit sums, 8 rows a thread");
  expect (g25, NV12, H200_OPTIN, 9, "tensor-core separable, 2 planes of "
      "bytes, 1 of 2-sample pixels, 17 taps");
  expect (g25, 3, H200_OPTIN, 9, "tensor-core separable, 1 plane of bytes, "
      "1 of 3-sample pixels, 17 taps");
  /* Packed 4:2:2: luma taps 2 bytes apart, chroma 4, up to 49 bytes. */
  expect (g2, UYVY, H200_OPTIN, 9, "tensor-core separable, 1 plane of "
      "bytes, packed 4:2:2, 13 taps");
  expect (g25, UYVY, H200_OPTIN, 9,
      "general separable, 8-bit samples, 32-bit sums, 8 rows a thread");
  /* 49 taps: tensor cores reach 63, the FMA kernels 13. */
  expect (g8, 4, H200_OPTIN, 9,
      "tensor-core separable, 4-sample pixels (3 filtered), 49 taps");
  expect (g8, 4, SM75_OPTIN, 7,
      "general separable, 8-bit samples, 32-bit sums, 8 rows a thread");
  cf_spec_free (g2);
  cf_spec_free (g8);
  cf_spec_free (g25);
}

static void
test_gradients (void)
{
  CfSpec *sobel = spec_new (CF_FILTER_SOBEL, 1.0, NULL, 1);
  CfSpec *sobel_x = spec_new (CF_FILTER_SOBEL_X, 1.0, NULL, 1);

  /* Pairs stay on the FMA kernels whatever the device. */
  expect (sobel, 1, H200_OPTIN, 9, "fast separable, 1 single-sample plane, "
      "3 taps, fp32 sums, gradient pair");
  expect (sobel, 4, H200_OPTIN, 9, "fast separable, 4-sample pixels (3 "
      "filtered), 3 taps, fp32 sums, gradient pair");
  expect (sobel_x, 4, H200_OPTIN, 9,
      "tensor-core separable, 4-sample pixels (3 filtered), 3 taps");
  expect (sobel_x, 3, H200_OPTIN, 9, "tensor-core separable, 1 plane of "
      "bytes, 1 of 3-sample pixels, 3 taps");
  cf_spec_free (sobel);
  cf_spec_free (sobel_x);
}

/* The direct kernel: 3 x 3 byte taps (dense, or separable ones whose
 * products are bytes) on planes of 1 to 3 samples a pixel of at least
 * 4 MiB (4K GRAY8, NV12 and I420 luma; RGB from 1080p); smaller planes,
 * RGBA, 5 x 5 and taps past a byte keep the tiled kernels. */
static void
test_direct (void)
{
  CfSpec *lap = spec_new (CF_FILTER_LAPLACIAN, 1.0, NULL, 1);
  CfSpec *box = spec_new (CF_FILTER_BOX, 1.0, NULL, 1);
  CfSpec *sobel_x = spec_new (CF_FILTER_SOBEL_X, 1.0, NULL, 1);
  CfSpec *big = spec_new (CF_FILTER_CUSTOM, 1.0, "1 200 3; 4 5 6; 7 8 9", 1);
  CfSpec *box5 = box_new (5, 1);

  expect_sized (lap, 1, 3840, 2160, "direct 3x3, 1 single-sample plane, "
      "byte taps (dp4a)");
  expect_sized (lap, 0, 3840, 2160, "direct 3x3, 3 single-sample planes, "
      "byte taps (dp4a)");
  expect_sized (lap, NV12, 3840, 2160, "direct 3x3, 2 planes of bytes, 1 of "
      "2-sample pixels, byte taps (dp4a)");
  expect_sized (lap, 3, 1920, 1080, "direct 3x3, 1 plane of bytes, 1 of "
      "3-sample pixels, byte taps (dp4a)");
  expect_sized (box, 1, 3840, 2160, "direct 3x3, 1 single-sample plane, "
      "byte products of the separable taps (dp4a)");
  expect_sized (sobel_x, 3, 3840, 2160, "direct 3x3, 1 plane of bytes, 1 of "
      "3-sample pixels, byte products of the separable taps (dp4a)");
  /* 2048 x 2048 is the smallest square GRAY8 plane it takes. */
  expect_sized (lap, 1, 2048, 2048, "direct 3x3, 1 single-sample plane, "
      "byte taps (dp4a)");
  expect_sized (lap, 1, 2048, 2047, "fast dense, 1 single-sample plane, "
      "3x3 taps, byte taps (dp4a)");
  expect_sized (lap, 1, 1920, 1080, "fast dense, 1 single-sample plane, "
      "3x3 taps, byte taps (dp4a)");
  expect_sized (box, NV12, 1920, 1080, "tensor-core separable, 2 planes of "
      "bytes, 1 of 2-sample pixels, 3 taps");
  expect_sized (lap, 4, 3840, 2160, "fast dense, 4-sample pixels (3 "
      "filtered), 3x3 taps, byte taps (dp4a)");
  expect_sized (box5, 1, 3840, 2160,
      "tensor-core separable, 1 single-sample plane, 5 taps");
  expect_sized (big, 1, 3840, 2160,
      "fast dense, 1 single-sample plane, 3x3 taps, int32");
  cf_spec_free (lap);
  cf_spec_free (box);
  cf_spec_free (sobel_x);
  cf_spec_free (box5);
  cf_spec_free (big);
}

static void
test_dense (void)
{
  CfSpec *lap = spec_new (CF_FILTER_LAPLACIAN, 1.0, NULL, 1);
  CfSpec *big = spec_new (CF_FILTER_CUSTOM, 1.0,
      "1 200 3; 4 5 6; 7 8 9", 1);
  CfSpec *seven = spec_new (CF_FILTER_CUSTOM, 1.0,
      "1 0 0 0 0 0 2; 0 3 0 0 0 0 0; 0 0 0 0 0 0 0; 0 0 0 1 0 0 0;"
      "0 0 0 0 0 0 0; 0 0 0 0 0 5 0; 2 0 0 0 0 0 1", 1);
  GString *k63 = g_string_new (NULL);
  CfSpec *huge;

  expect (lap, 4, H200_OPTIN, 9, "fast dense, 4-sample pixels (3 "
      "filtered), 3x3 taps, byte taps (dp4a)");
  expect (lap, 1, SM75_OPTIN, 7, "fast dense, 1 single-sample plane, 3x3 "
      "taps, byte taps (dp4a)");
  /* Interleaved samples: tensor cores, byte taps up to 5 x 5. */
  expect (lap, 3, H200_OPTIN, 9, "tensor-core dense, 1 plane of bytes, 1 of "
      "3-sample pixels, 3x3 taps");
  expect (lap, NV12, H200_OPTIN, 9, "tensor-core dense, 2 planes of bytes, "
      "1 of 2-sample pixels, 3x3 taps");
  expect (lap, UYVY, H200_OPTIN, 9,
      "general dense, 8-bit samples, 32-bit sums, 8 rows a thread");
  expect (lap, 3, SM75_OPTIN, 7,
      "general dense, 8-bit samples, 32-bit sums, 8 rows a thread");
  expect (big, 3, H200_OPTIN, 9,
      "general dense, 8-bit samples, 32-bit sums, 8 rows a thread");
  /* A tap of 200 is no signed byte. */
  expect (big, 1, H200_OPTIN, 9,
      "fast dense, 1 single-sample plane, 3x3 taps, int32");
  expect (seven, 4, H200_OPTIN, 9,
      "general dense, 8-bit samples, 32-bit sums, 8 rows a thread");

  /* 63 x 63 taps: the tall tile needs more than 48 KB, one row fits. */
  for (int j = 0; j < 63; j++) {
    for (int i = 0; i < 63; i++)
      g_string_append (k63, (i * 7 + j * 3) % 5 == 0 ? "2 " : "1 ");
    g_string_append (k63, j < 62 ? ";" : "");
  }
  huge = spec_new (CF_FILTER_CUSTOM, 1.0, k63->str, 1);
  g_assert_false (huge->kp.separable);
  expect (huge, 1, H200_OPTIN, 9,
      "general dense, 8-bit samples, 32-bit sums, 8 rows a thread");
  expect (huge, 1, 49152, 7,
      "general dense, 8-bit samples, 32-bit sums, 1 row a thread");
  g_string_free (k63, TRUE);
  cf_spec_free (huge);
  cf_spec_free (lap);
  cf_spec_free (big);
  cf_spec_free (seven);
}

/* 16-bit words, one, two (chroma pairs) or four a pixel: the direct
 * kernel for 3 x 3 (test_wide_direct); the four-word kernel
 * (cf-wide-quad.cu) for other single linear kernels, separable and dense;
 * the wide kernel (fp64 sums, cf-wide.cu) for other ops where the general
 * kernel would sum in 64-bit integers or decode shifted words; the general
 * kernel where neither fits (three-word pixels, a tile past the shared
 * memory) or for other ops' int32 sums on plain words. */
static void
test_sixteen_bit (void)
{
  CfSpec *g = spec_new (CF_FILTER_GAUSSIAN, 2.0, NULL, 2);
  CfSpec *g4 = spec_new (CF_FILTER_GAUSSIAN, 4.0, NULL, 2);
  CfSpec *box = box_new (5, 2);
  CfSpec *mag = spec_new (CF_FILTER_SOBEL, 0.0, NULL, 2);
  CfSpec *sharp = spec_new (CF_FILTER_SHARPEN, 1.0, NULL, 2);
  CfSpec *lap = spec_new (CF_FILTER_CUSTOM, 0.0,
      "0 0 0 0 0; 0 0 -1 0 0; 0 -1 5 -1 0; 0 0 -1 0 0; 0 0 0 0 0", 2);
  char want[160];

  /* Single linear kernels: the four-word kernel, 32-bit row sums (a
   * Gaussian's 16-bit taps sum to 2^16: unsigned) and fp64 column sums. */
  g_snprintf (want, sizeof want, "four-word separable, 1 plane of 16-bit "
      "words, %dx%d taps, 32-bit row sums, fp64 column sums", g->kp.kw,
      g->kp.kh);
  expect (g, 1, H200_OPTIN, 9, want);
  /* 17 taps need 56 KB of shared memory a block, within sm_75's 64 KB;
   * 33 need 78 KB (and the wide kernel more), the general kernel takes
   * them there. */
  g_assert_cmpint (g->kp.kw, ==, 17);
  expect (g, 1, SM75_OPTIN, 7, want);
  g_snprintf (want, sizeof want, "four-word separable, 1 plane of 16-bit "
      "words, 1 of 4-word pixels, %dx%d taps, 32-bit row sums, fp64 column "
      "sums", g->kp.kw, g->kp.kh);
  expect (g, 4, H200_OPTIN, 9, want);
  expect (box, P010, H200_OPTIN, 9, "four-word separable, 2 planes of 16-bit "
      "words, 1 of 2-word pixels, 5x5 taps, 32-bit row sums, fp64 column "
      "sums");
  g_assert_cmpint (g4->kp.kw, ==, 33);
  expect_prefix (g4, 1, SM75_OPTIN, 7, "general separable, 16-bit ");
  expect_prefix (g4, 1, H200_OPTIN, 9, "four-word separable, ");
  /* Dense sums the spec bounds by 2^31, on plain words as on P010's. */
  expect (lap, 4, H200_OPTIN, 9, "four-word dense, 1 plane of 16-bit words, "
      "1 of 4-word pixels, 5x5 taps, int32 sums");
  expect (lap, P010, H200_OPTIN, 9, "four-word dense, 2 planes of 16-bit "
      "words, 1 of 2-word pixels, 5x5 taps, int32 sums");
  /* Other ops run the wide kernel where fp64 holds their sums (every
   * sum of P010's words; 64-bit sums on plain words) and the general
   * kernel where int32 sums on plain words do. */
  g_snprintf (want, sizeof want, "wide separable, 1 plane of 16-bit words, "
      "%dx%d taps, fp64 sums", sharp->kp.kw, sharp->kp.kh);
  expect (sharp, 1, H200_OPTIN, 9, want);
  expect_prefix (mag, 1, H200_OPTIN, 9,
      "general separable, 16-bit samples, 32-bit sums");
  expect (mag, P010, H200_OPTIN, 9, "wide separable, 2 planes of 16-bit "
      "words, 1 of 2-word pixels, 3x3 taps, fp64 sums, gradient pair");
  /* Three words a pixel (RGB48) stay on the general kernel. */
  expect_prefix (g, 3, H200_OPTIN, 9, "general separable, 16-bit ");
  cf_spec_free (sharp);
  cf_spec_free (g4);
  cf_spec_free (g);
  cf_spec_free (box);
  cf_spec_free (mag);
  cf_spec_free (lap);
}

/* The direct kernel for 16-bit words (cf-wide-direct.cu): 3 x 3 linear
 * kernels and absolute values at scale 1 and offset 0 on planes of 1, 2 or
 * 4 words a pixel of any size; int32 sums where the spec bounds them
 * by 2^31, else (the 16-bit box and Gaussian) int32 row sums below 2^31
 * and int64 column sums whose quotient holds in an int; other ops and
 * 5 x 5 keep the other kernels. */
static void
test_wide_direct (void)
{
  CfSpec *box = spec_new (CF_FILTER_BOX, 0.0, NULL, 2);
  CfSpec *lap = spec_new (CF_FILTER_LAPLACIAN, 0.0, NULL, 2);
  CfSpec *sobel_x = spec_new (CF_FILTER_SOBEL_X, 0.0, NULL, 2);
  CfSpec *mag = spec_new (CF_FILTER_SOBEL, 0.0, NULL, 2);
  CfSpec *sharp = spec_new (CF_FILTER_SHARPEN, 0.5, NULL, 2);
  CfSpec *dense = spec_new (CF_FILTER_CUSTOM, 0.0, "0 -1 0; -1 5 -1; 0 -1 0",
      2);
  CfSpec *five = spec_new (CF_FILTER_CUSTOM, 0.0,
      "1 2 0 -1 3; 4 -2 7 1 0; 2 2 9 2 2; 0 1 -3 5 1; 3 -1 0 2 1", 2);
  const char *sep = "direct 3x3, 1 plane of 16-bit words, int32 row sums, "
      "int64 column sums";
  const char *quad = "four-word separable, 1 plane of 16-bit words, 3x3 "
      "taps, 32-bit row sums, fp64 column sums";

  /* The box's column taps are 2^30 / 9: its sums pass 32 bits. */
  g_assert_true (box->kp.wide_acc);
  g_assert_false (dense->kp.wide_acc);
  expect_sized (dense, 1, 3840, 2160, "direct 3x3, 1 plane of 16-bit words, "
      "int32 sums");
  expect_sized (dense, 4, 1920, 1080, "direct 3x3, 1 plane of 16-bit words, "
      "1 of 4-word pixels, int32 sums");
  expect_sized (lap, P010, 3840, 2160, "direct 3x3, 2 planes of 16-bit words, "
      "1 of 2-word pixels, int32 sums");
  expect_sized (sobel_x, 1, 3840, 2160, "direct 3x3, 1 plane of 16-bit "
      "words, int32 sums");
  expect_sized (box, 1, 3840, 2160, sep);
  expect_sized (box, P010, 3840, 2160, "direct 3x3, 2 planes of 16-bit "
      "words, 1 of 2-word pixels, int32 row sums, int64 column sums");
  /* Every size, to a plane narrower than a thread's words. */
  expect_sized (dense, 1, 640, 480, "direct 3x3, 1 plane of 16-bit words, "
      "int32 sums");
  expect_sized (box, P010, 6, 2, "direct 3x3, 2 planes of 16-bit words, 1 of "
      "2-word pixels, int32 row sums, int64 column sums");
  /* Gradient pairs, sharpen and 5 x 5 are not its. */
  expect_not_direct (mag, 1, 3840, 2160);
  expect_not_direct (sharp, 1, 3840, 2160);
  expect_not_direct (five, 1, 3840, 2160);
  /* Dense sums past int32 are not its either. */
  dense->kp.wide_acc = 1;
  expect_not_direct (dense, 1, 3840, 2160);

  /* Row sums: 65535 x 32768 = 2^31 - 32768 holds, 65535 x 32769 does not
   * (the four-word kernel's unsigned sums take it). */
  for (int i = 0; i < 3; i++)
    box->sep.col[0][i] = 1;
  box->sep.row[0][0] = 10922;
  box->sep.row[0][1] = 10923;
  box->sep.row[0][2] = 10923;
  expect_sized (box, 1, 3840, 2160, sep);
  box->sep.row[0][2] = 10924;
  expect_sized (box, 1, 3840, 2160, quad);
  /* The quotient: 65535 x 32768 x 3 >> 1 passes 2^31, >> 2 does not. */
  box->sep.row[0][2] = 10923;
  box->kp.shift = 1;
  box->kp.bias = 0;
  expect_not_direct (box, 1, 3840, 2160);
  box->kp.shift = 2;
  expect_sized (box, 1, 3840, 2160, sep);
  cf_spec_free (box);
  cf_spec_free (lap);
  cf_spec_free (sobel_x);
  cf_spec_free (mag);
  cf_spec_free (sharp);
  cf_spec_free (dense);
  cf_spec_free (five);
}

/* The four-word kernel's bounds, worked out by hand: row sums in 32 bits
 * (unsigned for non-negative taps: 65535 x the taps' sum below 2^32;
 * signed: 65535 x their absolute sum below 2^31) and the op's quotient
 * below 2^31; past them the wide kernel's fp64 sums (below 2^53) take the
 * spec. */
static void
test_four_word_bounds (void)
{
  CfSpec *box = box_new (5, 2);
  const char *quad = "four-word separable, 1 plane of 16-bit words, 5x5 "
      "taps, 32-bit row sums, fp64 column sums";
  const char *wide = "wide separable, 1 plane of 16-bit words, 5x5 taps, "
      "fp64 sums";
  const int shift = box->kp.shift;

  g_assert_cmpint (box->kp.kw, ==, 5);
  expect (box, 1, H200_OPTIN, 9, quad);
  /* Column taps of 1 keep the fp64 sums below 2^53 for the row taps
   * below (the box's are 2^30 / 25 each, its row taps 1); the last two
   * row taps 0. */
  for (int i = 0; i < 5; i++)
    box->sep.col[0][i] = 1;
  box->sep.row[0][3] = box->sep.row[0][4] = 0;
  /* 65535 x 65537 = 2^32 - 1: the largest unsigned row sum. */
  box->sep.row[0][0] = 21845;
  box->sep.row[0][1] = 21846;
  box->sep.row[0][2] = 21846;
  expect (box, 1, H200_OPTIN, 9, quad);
  box->sep.row[0][2] = 21847;
  expect (box, 1, H200_OPTIN, 9, wide);
  /* Signed: 65535 x 32768 = 2^31 - 32768 fits, 65535 x 32769 does not. */
  box->sep.row[0][0] = -8192;
  box->sep.row[0][1] = 16384;
  box->sep.row[0][2] = -8192;
  expect (box, 1, H200_OPTIN, 9, quad);
  box->sep.row[0][1] = 16385;
  expect (box, 1, H200_OPTIN, 9, wide);
  /* No shift: the quotient reaches 65535 x 32768 x 5, past 2^31. */
  box->sep.row[0][1] = 16384;
  box->kp.shift = 0;
  expect (box, 1, H200_OPTIN, 9, wide);
  box->kp.shift = shift;
  expect (box, 1, H200_OPTIN, 9, quad);
  cf_spec_free (box);
}

/* Past 63 taps the separable weights do not travel in the launch
 * parameters, and past the shared memory the tile does not fit: the long
 * general kernel takes both, up to 255 taps. */
static void
test_long (void)
{
  CfSpec *g8 = spec_new (CF_FILTER_GAUSSIAN, 8.0, NULL, 2);
  CfSpec *g20 = spec_new (CF_FILTER_GAUSSIAN, 20.0, NULL, 1);
  CfSpec *g31 = spec_new (CF_FILTER_GAUSSIAN, 31.0, NULL, 2);
  GString *k101 = g_string_new (NULL);
  CfSpec *dense;
  char *name;

  g_assert_cmpint (g8->kp.kw, ==, 65);
  name = plan_name (g8, 4, H200_OPTIN, 9);
  g_assert_true (g_str_has_prefix (name, "general long separable, 16-bit "));
  g_assert_true (g_str_has_suffix (name, ", 16 rows a thread"));
  g_free (name);
  /* 121 taps: past the tensor-core and FMA kernels' reach. */
  expect (g20, 4, H200_OPTIN, 9,
      "general long separable, 8-bit samples, 32-bit sums, 16 rows a thread");
  expect (g20, 0, SM75_OPTIN, 7,
      "general long separable, 8-bit samples, 32-bit sums, 16 rows a thread");
  g_assert_cmpint (g31->kp.kw, ==, 249);
  name = plan_name (g31, 1, SM75_OPTIN, 7);
  g_assert_true (g_str_has_prefix (name, "general long separable, 16-bit "));
  g_free (name);

  /* 101 x 101 dense: the tall tile fits 227 KB, no tile fits 48 KB. */
  for (int j = 0; j < 101; j++) {
    for (int i = 0; i < 101; i++)
      g_string_append (k101, (i + j) % 3 == 0 ? "2 " : "1 ");
    g_string_append (k101, j < 100 ? ";" : "");
  }
  dense = spec_new (CF_FILTER_CUSTOM, 1.0, k101->str, 1);
  g_assert_false (dense->kp.separable);
  expect (dense, 1, H200_OPTIN, 9,
      "general dense, 8-bit samples, 32-bit sums, 8 rows a thread");
  expect (dense, 1, 49152, 7,
      "general long dense, 8-bit samples, 32-bit sums, 16 rows a thread");
  g_string_free (k101, TRUE);
  cf_spec_free (dense);
  cf_spec_free (g8);
  cf_spec_free (g20);
  cf_spec_free (g31);
}

static void
test_empty_and_invalid (void)
{
  CfSpec *g = spec_new (CF_FILTER_GAUSSIAN, 1.0, NULL, 1);
  CfChannel bad = { CF_CHANNEL_FILTER, CF_MAX_PLANES, 8, 8, 1, 0, 0, 1, 8, 0 };
  CfChannel empty = { CF_CHANNEL_FILTER, 0, 0, 0, 1, 0, 0, 1, 8, 0 };
  CfLaunchPlan *plan = NULL;

  g_assert_cmpint (cf_launch_plan_new_for (&bad, 1, &g->kp, &g->sep,
          H200_OPTIN, 9, &plan), ==, cudaErrorInvalidValue);
  g_assert_null (plan);
  g_assert_cmpint (cf_launch_plan_new_for (&empty, 1, &g->kp, &g->sep,
          H200_OPTIN, 9, &plan), ==, cudaSuccess);
  g_assert_cmpstr (cf_launch_plan_name (plan), ==, "nothing to filter");
  cf_launch_plan_free (plan);
  g_assert_cmpstr (cf_launch_plan_name (NULL), ==, "none");
  cf_spec_free (g);
}

/* The whole-row kernel cf_nonlin_run gives `filter` (kernel_size k) on a
 * 64 x 48 frame of `layout` ("gray8", "gray16", "i420", "nv12", "rgba",
 * "rgba16", "rgb"), planes at stand-in addresses (never read) with strides
 * of `pad` more bytes than a row's; *rect whether the rectangles' plane
 * kernels take it. */
static CfNlWholeRows
nonlin_kernel (CfFilter filter, int k, const char *layout, int pad,
    gboolean * rect)
{
  /* words: 4-byte aligned, as device allocations are */
  static guint32 src[3][16], dst[3][16];
  CfParams params;
  CfSpec *spec;
  CfLayout l;
  CfDeviceFrame frame;
  GError *err = NULL;
  int depth = g_str_has_suffix (layout, "16") ? 16 : 8;
  CfNlWholeRows kind;

  cf_params_init (&params);
  params.filter = filter;
  params.kernel_size = k;
  spec = cf_spec_new_for_depth (&params, depth, &err);
  g_assert_no_error (err);

  memset (&l, 0, sizeof l);
  if (strcmp (layout, "i420") == 0 || strcmp (layout, "nv12") == 0) {
    gboolean nv12 = strcmp (layout, "nv12") == 0;

    l.sample_bytes = 1;
    cf_layout_add_channel (&l, CF_CHANNEL_FILTER, 0, 64, 48, 1, 0, 0);
    cf_layout_add_channel (&l, CF_CHANNEL_FILTER, 1, 32, 24, nv12 ? 2 : 1,
        0, 0);
    cf_layout_add_channel (&l, CF_CHANNEL_FILTER, nv12 ? 1 : 2, 32, 24,
        nv12 ? 2 : 1, nv12 ? 1 : 0, 0);
  } else {
    cf_layout_init_interleaved (&l, 64, 48, g_str_has_prefix (layout,
            "rgba") ? 4 : strcmp (layout, "rgb") == 0 ? 3 : 1, depth / 8,
        0x7);
  }

  memset (&frame, 0, sizeof frame);
  for (int p = 0; p < 3; p++) {
    frame.src[p] = (const unsigned char *) src[p];
    frame.dst[p] = (unsigned char *) dst[p];
  }
  for (int c = 0; c < l.n_channels; c++) {
    const CfChannel *ch = &l.channels[c];

    frame.src_stride[ch->plane] = frame.dst_stride[ch->plane] =
        ch->width * ch->pixel_stride + pad;
  }
  frame.n_channels = l.n_channels;
  memcpy (frame.channels, l.channels, sizeof (CfChannel) * l.n_channels);
  kind = cf_nonlin_whole_rows (&frame, &spec->nl);
  *rect = cf_nonlin_rect_planes (&frame, &spec->nl);
  cf_spec_free (spec);
  return kind;
}

static CfNlWholeRows
whole_rows (CfFilter filter, int k, const char *layout, int pad)
{
  gboolean rect;

  return nonlin_kernel (filter, k, layout, pad, &rect);
}

static gboolean
rect_planes (CfFilter filter, int k, const char *layout, int pad)
{
  gboolean rect;

  nonlin_kernel (filter, k, layout, pad, &rect);
  return rect;
}

static void
test_nonlin_whole_rows (void)
{
  /* 3x3: every layout of 8- or 16-bit samples */
  g_assert_cmpint (whole_rows (CF_FILTER_MEDIAN, 3, "gray8", 0), ==,
      CF_NL_WHOLE_ROWS_MEDIAN3);
  g_assert_cmpint (whole_rows (CF_FILTER_MEDIAN, 3, "rgba", 0), ==,
      CF_NL_WHOLE_ROWS_MEDIAN3);
  g_assert_cmpint (whole_rows (CF_FILTER_ERODE, 3, "nv12", 0), ==,
      CF_NL_WHOLE_ROWS_MINMAX);
  /* pixels of four 16-bit samples: two words of halo */
  g_assert_cmpint (whole_rows (CF_FILTER_MEDIAN, 3, "rgba16", 0), ==,
      CF_NL_WHOLE_ROWS_MEDIAN3);
  g_assert_cmpint (whole_rows (CF_FILTER_DILATE, 3, "rgba16", 0), ==,
      CF_NL_WHOLE_ROWS_MINMAX);
  /* 5x5 median: planes of one sample a pixel */
  g_assert_cmpint (whole_rows (CF_FILTER_MEDIAN, 5, "gray8", 0), ==,
      CF_NL_WHOLE_ROWS_MEDIAN5);
  g_assert_cmpint (whole_rows (CF_FILTER_MEDIAN, 5, "gray16", 0), ==,
      CF_NL_WHOLE_ROWS_MEDIAN5);
  g_assert_cmpint (whole_rows (CF_FILTER_MEDIAN, 5, "i420", 4), ==,
      CF_NL_WHOLE_ROWS_MEDIAN5);
  /* ... not chroma pairs or pixels of four samples: the tiles */
  g_assert_cmpint (whole_rows (CF_FILTER_MEDIAN, 5, "nv12", 0), ==,
      CF_NL_WHOLE_ROWS_NONE);
  g_assert_cmpint (whole_rows (CF_FILTER_MEDIAN, 5, "rgba", 0), ==,
      CF_NL_WHOLE_ROWS_NONE);
  g_assert_cmpint (whole_rows (CF_FILTER_MEDIAN, 5, "rgba16", 0), ==,
      CF_NL_WHOLE_ROWS_NONE);
  /* rows that are not 4-byte aligned, larger windows: the tiles */
  g_assert_cmpint (whole_rows (CF_FILTER_MEDIAN, 5, "gray8", 1), ==,
      CF_NL_WHOLE_ROWS_NONE);
  g_assert_cmpint (whole_rows (CF_FILTER_MEDIAN, 7, "gray8", 0), ==,
      CF_NL_WHOLE_ROWS_NONE);
  g_assert_cmpint (whole_rows (CF_FILTER_ERODE, 5, "gray8", 0), ==,
      CF_NL_WHOLE_ROWS_NONE);
}

/* Programs of full rectangles past 3x3, and those of 3x3 that the
 * whole-row kernel does not take, run on whole planes of 8- or 16-bit
 * samples (cf-nonlin-rect.cu); structuring elements, medians and rows
 * that are not 4-byte aligned do not. */
static void
test_nonlin_rect_planes (void)
{
  static const char *layouts[] = { "gray8", "gray16", "i420", "nv12",
    "rgba", "rgba16", "rgb"
  };

  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++) {
    g_assert_true (rect_planes (CF_FILTER_ERODE, 5, layouts[i], 0));
    g_assert_true (rect_planes (CF_FILTER_DILATE, 63, layouts[i], 0));
    g_assert_true (rect_planes (CF_FILTER_OPEN, 3, layouts[i], 4));
    g_assert_true (rect_planes (CF_FILTER_GRADIENT, 15, layouts[i], 0));
    g_assert_true (rect_planes (CF_FILTER_BLACKHAT, 7, layouts[i], 0));
    /* a median, and rows one byte past a word */
    g_assert_false (rect_planes (CF_FILTER_MEDIAN, 5, layouts[i], 0));
    g_assert_false (rect_planes (CF_FILTER_ERODE, 5, layouts[i], 1));
  }
  /* 3x3 erosion: the whole-row kernel, which runs first (cf_nonlin_run),
   * for every layout of the planes; a 3x3 opening takes the planes */
  g_assert_cmpint (whole_rows (CF_FILTER_ERODE, 3, "gray8", 0), ==,
      CF_NL_WHOLE_ROWS_MINMAX);
  g_assert_cmpint (whole_rows (CF_FILTER_ERODE, 3, "rgba16", 0), ==,
      CF_NL_WHOLE_ROWS_MINMAX);
  g_assert_cmpint (whole_rows (CF_FILTER_OPEN, 3, "rgba16", 0), ==,
      CF_NL_WHOLE_ROWS_NONE);
  g_assert_true (rect_planes (CF_FILTER_OPEN, 3, "rgba16", 0));
  /* a 1x1 element: one pass of one sample, the tiles */
  g_assert_false (rect_planes (CF_FILTER_ERODE, 1, "gray8", 0));
}

/* Regions in place in one launch (cf-region-inplace.h): tiles of 32 x 64
 * samples numbered region by region, row-major; strips as deep as the
 * reach; anything the launch cannot take is left to the tiles' launches
 * (cudaErrorNotSupported). */
static void
test_region_inplace (void)
{
  CfSpec *g2 = spec_new (CF_FILTER_GAUSSIAN, 2.0, NULL, 1);
  CfSpec *g8 = spec_new (CF_FILTER_GAUSSIAN, 8.0, NULL, 1);
  CfSpec *box = spec_new (CF_FILTER_CUSTOM, 1.0, "1 1 1; 1 1 1; 1 1 1", 1);
  CfSpec *median = spec_new (CF_FILTER_MEDIAN, 1.0, NULL, 1);
  CfLayout gray, rgba;
  CfInplacePlan plan;
  int jobs[CF_INPLACE_MAX_ENTRIES + 1] = { 0 };
  CfRect rects[CF_INPLACE_MAX_ENTRIES + 1];

  g_assert_cmpint (g2->kp.kw, ==, 13);
  g_assert_cmpint (g2->kp.ax, ==, 6);
  cf_layout_init_interleaved (&gray, 640, 480, 1, 1, 0x1);
  cf_layout_init_interleaved (&rgba, 640, 480, 4, 1, 0x7);

  /* 70 x 130 is 3 x 3 tiles, 32 x 64 one more: 10, the second from 9. */
  rects[0] = (CfRect) { 100, 100, 70, 130 };
  rects[1] = (CfRect) { 300, 300, 32, 64 };
  g_assert_cmpint (cf_region_inplace_plan (&plan, gray.channels, 1,
          &g2->kp, jobs, rects, 2, H200_OPTIN), ==, cudaSuccess);
  g_assert_cmpint (plan.n_entries, ==, 2);
  g_assert_cmpint (plan.entries[0].tiles_x, ==, 3);
  g_assert_cmpint (plan.entries[1].first, ==, 9);
  g_assert_cmpint (plan.n_tiles, ==, 10);
  g_assert_cmpint (plan.strip_w, ==, 6);
  g_assert_cmpint (plan.strip_h, ==, 6);
  g_assert_cmpint (plan.strip_len, ==, 6 * 32 + 64 * 6);
  g_assert_cmpuint (plan.flag_bytes, ==, 10 * sizeof (unsigned));
  g_assert_cmpuint (plan.strip_bytes, ==, 10 * 576 * sizeof (unsigned short));

  /* A region 6 samples from another is out of its reach; 5 is within. */
  rects[0] = (CfRect) { 100, 100, 50, 50 };
  rects[1] = (CfRect) { 156, 100, 20, 20 };
  g_assert_cmpint (cf_region_inplace_plan (&plan, gray.channels, 1,
          &g2->kp, jobs, rects, 2, H200_OPTIN), ==, cudaSuccess);
  rects[1].x = 155;
  g_assert_cmpint (cf_region_inplace_plan (&plan, gray.channels, 1,
          &g2->kp, jobs, rects, 2, H200_OPTIN), ==, cudaErrorNotSupported);
  /* Overlapping regions likewise. */
  rects[1] = (CfRect) { 120, 120, 50, 50 };
  g_assert_cmpint (cf_region_inplace_plan (&plan, gray.channels, 1,
          &g2->kp, jobs, rects, 2, H200_OPTIN), ==, cudaErrorNotSupported);

  /* The copied alpha takes no tiles; each colour its own. */
  for (int c = 0; c < 4; c++) {
    jobs[c] = c;
    rects[c] = (CfRect) { 10, 10, 64, 64 };
  }
  g_assert_cmpint (cf_region_inplace_plan (&plan, rgba.channels,
          rgba.n_channels, &box->kp, jobs, rects, 4, H200_OPTIN), ==,
      cudaSuccess);
  g_assert_cmpint (plan.n_entries, ==, 3);
  g_assert_cmpint (plan.n_tiles, ==, 3 * 2);
  g_assert_cmpint (plan.strip_w, ==, 1);

  /* Not taken: a reach of 24 (49 taps) reads more than twice a tile, a
   * median is no convolution, a tile past the device's shared memory,
   * more rectangles than a launch carries. */
  rects[0] = (CfRect) { 100, 100, 50, 50 };
  jobs[0] = 0;
  g_assert_cmpint (cf_region_inplace_plan (&plan, gray.channels, 1,
          &g8->kp, jobs, rects, 1, H200_OPTIN), ==, cudaErrorNotSupported);
  g_assert_cmpint (cf_region_inplace_plan (&plan, gray.channels, 1,
          &median->kp, jobs, rects, 1, H200_OPTIN), ==,
      cudaErrorNotSupported);
  g_assert_cmpint (cf_region_inplace_plan (&plan, gray.channels, 1,
          &g2->kp, jobs, rects, 1, 16384), ==, cudaErrorNotSupported);
  for (int i = 0; i <= CF_INPLACE_MAX_ENTRIES; i++) {
    jobs[i] = 0;
    rects[i] = (CfRect) { 20 * (i % 16), 100 * (i / 16), 4, 4 };
  }
  g_assert_cmpint (cf_region_inplace_plan (&plan, gray.channels, 1,
          &box->kp, jobs, rects, CF_INPLACE_MAX_ENTRIES + 1, H200_OPTIN), ==,
      cudaErrorNotSupported);
  g_assert_cmpint (cf_region_inplace_plan (&plan, gray.channels, 1,
          &box->kp, jobs, rects, CF_INPLACE_MAX_ENTRIES, H200_OPTIN), ==,
      cudaSuccess);
  g_assert_cmpint (plan.n_tiles, ==, CF_INPLACE_MAX_ENTRIES);
  /* A job the layout does not have. */
  jobs[0] = 1;
  g_assert_cmpint (cf_region_inplace_plan (&plan, gray.channels, 1,
          &box->kp, jobs, rects, 1, H200_OPTIN), ==, cudaErrorInvalidValue);

  cf_spec_free (g2);
  cf_spec_free (g8);
  cf_spec_free (box);
  cf_spec_free (median);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/plan/separable", test_separable);
  g_test_add_func ("/plan/gradients", test_gradients);
  g_test_add_func ("/plan/dense", test_dense);
  g_test_add_func ("/plan/direct", test_direct);
  g_test_add_func ("/plan/sixteen-bit", test_sixteen_bit);
  g_test_add_func ("/plan/four-word-bounds", test_four_word_bounds);
  g_test_add_func ("/plan/wide-direct", test_wide_direct);
  g_test_add_func ("/plan/long", test_long);
  g_test_add_func ("/plan/empty-and-invalid", test_empty_and_invalid);
  g_test_add_func ("/plan/region-inplace", test_region_inplace);
  g_test_add_func ("/plan/nonlin-whole-rows", test_nonlin_whole_rows);
  g_test_add_func ("/plan/nonlin-rect-planes", test_nonlin_rect_planes);
  return g_test_run ();
}
