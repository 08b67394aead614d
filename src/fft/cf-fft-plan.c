/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: FFT convolution decisions.
 *
 * Exactness.  The direct path sums integer weights times integer samples;
 * the FFT path computes the same sums in double precision and rounds each
 * to the nearest integer, which gives the exact sum whenever the error is
 * below 0.5.  Samples are centred first (x - c, c = (maxval + 1) / 2, so
 * |x - c| <= A = c) and c * sum(w) is added back as an integer.  For one
 * tile of N = fft_w * fft_h points, with u = 2^-53 and L = ceil(log2 N) + 2
 * levels (the +2 covers the real-to-complex pre and post steps), the
 * standard FFT error analysis (Higham, Accuracy and Stability of Numerical
 * Algorithms, 2nd ed., 24.1: relative 2-norm error <= L * eta per
 * transform, eta ~ 6.7u for radix 2 with accurate twiddles; we take 8u for
 * cuFFT's mixed radices) bounds, in the 2-norm over the tile,
 *   the image transform's error   by 8 L u * sum|w| * ||x||_2,
 *   the kernel transform's error  by 8 L u * sum|w| * ||x||_2 (componentwise,
 *                                    each output is one path per weight),
 *   the inverse transform's error by 8 L u * sum|w| * ||x||_2,
 *   the pointwise products        by 4 u * sum|w| * ||x||_2,
 * and ||x||_2 <= sqrt(N) * A.  The largest error of one sum is at most the
 * 2-norm of all of them, so
 *   bound = (24 L + 4) * u * sqrt(N) * A * sum|w|.
 * It is pessimistic (real errors are spread over N outputs, about sqrt(N)
 * times smaller), and we ask it to stay below CF_FFT_MAX_ERROR = 1/16.
 * sqrt(N) is why large frames are cut into tiles (overlap-save): a whole
 * 4K plane would need a bound 6 times larger than a 512 x 512 tile's. */
#include <math.h>
#include <string.h>
#include "cf-fft-plan.h"

#define LEVEL_ERROR 8.0         /* per level and transform, in units of u */
#define POINTWISE_ERROR 4.0     /* complex product and the 1/N scale */
#define MIN_SIDE 8
/* Tiles a launch grid can hold (grid z). */
#define MAX_BATCH 65535

gboolean
cf_conv_method_parse (const char *text, CfConvMethod * method)
{
  if (text == NULL || *text == '\0' || g_ascii_strcasecmp (text, "auto") == 0)
    *method = CF_CONV_AUTO;
  else if (g_ascii_strcasecmp (text, "direct") == 0)
    *method = CF_CONV_DIRECT;
  else if (g_ascii_strcasecmp (text, "fft") == 0)
    *method = CF_CONV_FFT;
  else
    return FALSE;
  return TRUE;
}

const char *
cf_conv_method_name (CfConvMethod method)
{
  switch (method) {
    case CF_CONV_DIRECT:
      return "direct";
    case CF_CONV_FFT:
      return "fft";
    case CF_CONV_AUTO:
    default:
      return "auto";
  }
}

CfConvMethod
cf_conv_method_from_env (const char *name)
{
  const char *text = g_getenv (name);
  CfConvMethod method;

  if (cf_conv_method_parse (text, &method))
    return method;
  g_warning ("%s=\"%s\" is not one of auto, direct or fft; using auto",
      name, text);
  return CF_CONV_AUTO;
}

gboolean
cf_fft_size_is_smooth (int n)
{
  static const int primes[] = { 2, 3, 5, 7 };

  if (n < 1)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (primes); i++)
    while (n % primes[i] == 0)
      n /= primes[i];
  return n == 1;
}

int
cf_fft_next_size (int n)
{
  n = MAX (n, 2);
  n += n & 1;
  while (!cf_fft_size_is_smooth (n))
    n += 2;
  return n;
}

double
cf_fft_error_bound (int fft_w, int fft_h, double amplitude, double sum_abs)
{
  double n = (double) fft_w * fft_h;
  double levels = ceil (log2 (n)) + 2.0;

  return (3.0 * LEVEL_ERROR * levels + POINTWISE_ERROR) * ldexp (1.0, -53)
      * sqrt (n) * amplitude * sum_abs;
}

gsize
cf_fft_tile_bytes (int fft_w, int fft_h)
{
  return (gsize) fft_w * fft_h * sizeof (double)
      + (gsize) fft_h * (fft_w / 2 + 1) * 2 * sizeof (double);
}

gboolean
cf_fft_spec_eligible (const CfSpec * spec)
{
  const CfKernelParams *kp = &spec->kp;

  return kp->operation == CF_OPERATION_CONVOLVE && !kp->separable
      && spec->dense != NULL && kp->n_kernels == 1
      && (kp->op == CF_OP_LINEAR || kp->op == CF_OP_ABS);
}

/* Even 7-smooth sizes in [lo, hi], ascending. */
static int
candidate_sizes (int lo, int hi, int *out, int max)
{
  int n = 0;

  for (int s = cf_fft_next_size (lo); s <= hi && n < max;
      s = cf_fft_next_size (s + 1))
    out[n++] = s;
  return n;
}

/* Relative cost per point of a transform side: cuFFT is fastest on powers
 * of two, and each odd radix costs a little more. */
static double
radix_cost (int n)
{
  static const int odd[] = { 3, 5, 7 };
  double cost = 1.0;

  for (guint i = 0; i < G_N_ELEMENTS (odd); i++)
    for (; n % odd[i] == 0; n /= odd[i])
      cost *= 1.0 + (odd[i] - 1) / 40.0;
  return cost;
}

static int
div_up (int a, int b)
{
  return (a + b - 1) / b;
}

/* Tiles over every filtered channel for one transform size; -1 when a
 * count would overflow. */
static gint64
count_tiles (const CfChannel * channels, int n_channels, int step_x, int step_y)
{
  gint64 total = 0;

  for (int c = 0; c < n_channels; c++) {
    const CfChannel *ch = &channels[c];

    if (ch->mode != CF_CHANNEL_FILTER || ch->width <= 0 || ch->height <= 0)
      continue;
    total += (gint64) div_up (ch->width, step_x) * div_up (ch->height, step_y);
  }
  return total;
}

static void
fill_geometry (CfFftGeometry * geom, const CfSpec * spec,
    const CfChannel * channels, int n_channels, int fw, int fh, double bound,
    long long sum)
{
  CfFftTiles *t = &geom->tiles;
  gsize per_batch;
  int n_batches;

  memset (geom, 0, sizeof (*geom));
  t->fft_w = fw;
  t->fft_h = fh;
  t->step_x = fw - spec->kp.kw + 1;
  t->step_y = fh - spec->kp.kh + 1;
  for (int c = 0; c < n_channels; c++) {
    const CfChannel *ch = &channels[c];

    t->first_tile[c] = t->n_tiles;
    if (ch->mode != CF_CHANNEL_FILTER || ch->width <= 0 || ch->height <= 0)
      continue;
    t->tiles_x[c] = div_up (ch->width, t->step_x);
    t->tiles_y[c] = div_up (ch->height, t->step_y);
    t->n_tiles += t->tiles_x[c] * t->tiles_y[c];
  }
  t->centre = (spec->kp.maxval + 1) / 2;
  t->centre_sum = (long long) t->centre * sum;

  /* Equal batches, so the last one transforms few unused tiles. */
  per_batch = MAX (CF_FFT_BATCH_BYTES / cf_fft_tile_bytes (fw, fh), 1);
  geom->batch = (int) MIN ((gsize) MIN (t->n_tiles, MAX_BATCH), per_batch);
  n_batches = div_up (t->n_tiles, geom->batch);
  geom->batch = div_up (t->n_tiles, n_batches);
  geom->bound = bound;
}

gboolean
cf_fft_plan_geometry (const CfSpec * spec, const CfChannel * channels,
    int n_channels, CfFftGeometry * geom)
{
  return cf_fft_plan_geometry_max (spec, channels, n_channels,
      CF_FFT_MAX_SIDE, geom);
}

gboolean
cf_fft_plan_geometry_max (const CfSpec * spec, const CfChannel * channels,
    int n_channels, int max_side, CfFftGeometry * geom)
{
  const CfKernelParams *kp = &spec->kp;
  int n = kp->kw * kp->kh, max_w = 0, max_h = 0;
  int xs[1024], ys[1024], nx, ny, best_w = 0, best_h = 0;
  double sum_abs = 0.0, amplitude = (kp->maxval + 1) / 2, best_cost = 0.0;
  double best_bound = 0.0;
  long long sum = 0;

  if (!cf_fft_spec_eligible (spec))
    return FALSE;
  for (int i = 0; i < n; i++) {
    sum_abs += fabs ((double) spec->dense[i]);
    sum += spec->dense[i];
  }
  for (int c = 0; c < n_channels; c++) {
    if (channels[c].mode != CF_CHANNEL_FILTER)
      continue;
    max_w = MAX (max_w, channels[c].width);
    max_h = MAX (max_h, channels[c].height);
  }
  if (max_w <= 0 || max_h <= 0)
    return FALSE;

  /* Beyond one tile covering the widest channel nothing is gained; a
   * channel smaller than the smallest tile still gets one. */
  nx = candidate_sizes (MAX (kp->kw, MIN_SIDE),
      MIN (cf_fft_next_size (MAX (max_w + kp->kw - 1, MIN_SIDE)), max_side),
      xs, G_N_ELEMENTS (xs));
  ny = candidate_sizes (MAX (kp->kh, MIN_SIDE),
      MIN (cf_fft_next_size (MAX (max_h + kp->kh - 1, MIN_SIDE)), max_side),
      ys, G_N_ELEMENTS (ys));

  for (int i = 0; i < nx; i++) {
    for (int j = 0; j < ny; j++) {
      int fw = xs[i], fh = ys[j];
      double points = (double) fw * fh, bound, cost;
      gint64 tiles;

      if (cf_fft_tile_bytes (fw, fh) > CF_FFT_BATCH_BYTES)
        continue;
      bound = cf_fft_error_bound (fw, fh, amplitude, sum_abs);
      if (!(bound < CF_FFT_MAX_ERROR))
        continue;
      tiles = count_tiles (channels, n_channels, fw - kp->kw + 1,
          fh - kp->kh + 1);
      if (tiles <= 0 || tiles > G_MAXINT / 2)
        continue;
      /* A model, not a measurement: transforms cost about N log N a tile,
       * more for odd radices, and the passes over the tile (pad, product,
       * store) a few N more. */
      cost = tiles * points * (log2 (points) * radix_cost (fw) *
          radix_cost (fh) + 6.0);
      if (best_w == 0 || cost < best_cost) {
        best_w = fw;
        best_h = fh;
        best_cost = cost;
        best_bound = bound;
      }
    }
  }
  if (best_w == 0)
    return FALSE;
  fill_geometry (geom, spec, channels, n_channels, best_w, best_h,
      best_bound, sum);
  return TRUE;
}

gboolean
cf_fft_decide (CfConvMethod method, const CfSpec * spec,
    const CfChannel * channels, int n_channels, CfFftGeometry * geom)
{
  if (method == CF_CONV_DIRECT || !cf_fft_spec_eligible (spec))
    return FALSE;
  if (method == CF_CONV_AUTO
      && spec->kp.kw * spec->kp.kh < CF_FFT_CROSSOVER_AREA)
    return FALSE;
  return cf_fft_plan_geometry (spec, channels, n_channels, geom);
}
