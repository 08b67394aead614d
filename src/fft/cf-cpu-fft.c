/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: FFT convolution on the CPU (see cf-cpu-fft.h).
 *
 * Each tile of fft_w x fft_h centred samples (borders mapped as the direct
 * path maps them) goes through a real forward transform, a product with
 * the kernel's spectrum (scaled by 1 / N), and the inverse; each output is
 * then rounded to the nearest integer, which is the exact integer sum
 * wherever cf_fft_error_bound () < CF_FFT_MAX_ERROR, as cf-fft-plan.c
 * proves for the GPU path (FFTW's accuracy is within the same per-level
 * bound).  The sum then takes the direct path's post step.  Plans are made
 * once per (spec, layout), under cf_fftw_lock (); executing them on new
 * arrays is thread-safe, so every part runs its tiles in its own buffers. */
#include "config.h"

#include <math.h>
#include <string.h>
#include "cf-cpu-fft.h"
#include "cf-fftw.h"
#include "cf-backend.h"
#include "cf-arith.h"
#include "cf-sample.h"

struct _CfCpuFft
{
  const CfFftw *fftw;
  CfKernelParams kp;
  CfLayout layout;
  CfFftTiles t;
  int n_spectrum;               /* fft_h * (fft_w / 2 + 1) */
  fftw_plan forward, inverse;
  fftw_complex *kernel;         /* the weights' spectrum, times 1 / N */
  /* Per channel job: tile coordinate -> source column / row, -1 outside
   * a constant border. */
  int *xmap[CF_MAX_CHANNELS], *ymap[CF_MAX_CHANNELS];
  /* One tile and its spectrum per part. */
  int n_parts;
  double *real[CF_CPU_MAX_THREADS];
  fftw_complex *spectrum[CF_CPU_MAX_THREADS];
  char *description;
};

static int *
border_map (int n, int first, int size, int border)
{
  int *map = g_new (int, n);

  for (int i = 0; i < n; i++)
    map[i] = cf_border_index (i + first, size, border);
  return map;
}

static gboolean
has_shared_word (const CfLayout * layout)
{
  for (int c = 0; c < layout->n_channels; c++)
    if (layout->channels[c].shared_word)
      return TRUE;
  return FALSE;
}

/* The weights at (-i, -j) modulo the tile, so that circular convolution
 * reads tile samples at +i, +j: the direct path's correlation anchored at
 * the tile's corner (as kernels/cf-fft.cu's weights_kernel). */
static void
kernel_plane (double *plane, const int *dense, int kw, int kh, int fw,
    int fh, double scale)
{
  memset (plane, 0, sizeof (double) * fw * fh);
  for (int j = 0; j < kh; j++)
    for (int i = 0; i < kw; i++)
      plane[(gsize) (j == 0 ? 0 : fh - j) * fw + (i == 0 ? 0 : fw - i)] =
          dense[j * kw + i] * scale;
}

void
cf_cpu_fft_reserve (CfCpuFft * fft, int n_parts)
{
  gsize real = sizeof (double) * fft->t.fft_w * fft->t.fft_h;
  gsize spectrum = sizeof (fftw_complex) * fft->n_spectrum;

  n_parts = CLAMP (n_parts, 1, CF_CPU_MAX_THREADS);
  for (; fft->n_parts < n_parts; fft->n_parts++) {
    /* fftw_malloc: the alignment the plans were made for. */
    fft->real[fft->n_parts] = fft->fftw->malloc (real);
    fft->spectrum[fft->n_parts] = fft->fftw->malloc (spectrum);
    if (fft->real[fft->n_parts] == NULL
        || fft->spectrum[fft->n_parts] == NULL)
      g_error ("out of memory for FFT tiles (%" G_GSIZE_FORMAT " bytes)",
          real + spectrum);
  }
}

int
cf_cpu_fft_direct_cost (const CfCpuPlan * direct)
{
  /* 64-bit integer multiplies are several times a float lane's. */
  return direct->dense.n * (direct->acc == CF_CPU_ACC_I64 ? 4 : 1);
}

CfCpuFft *
cf_cpu_fft_new (CfConvMethod method, const CfSpec * spec,
    const CfLayout * layout, const CfCpuPlan * direct, const char **why)
{
  const CfFftw *fftw = cf_fftw_get (why);
  CfFftGeometry geom;
  CfCpuFft *fft;
  const char *dummy;

  if (why == NULL)
    why = &dummy;
  if (fftw == NULL)
    return NULL;
  if (method == CF_CONV_DIRECT) {
    *why = "direct convolution asked for";
    return NULL;
  }
  if (!cf_fft_spec_eligible (spec)) {
    *why = "not one dense kernel with a linear or absolute post step";
    return NULL;
  }
  /* Parts would split the channels of one word between threads. */
  if (has_shared_word (layout)) {
    *why = "channels share words";
    return NULL;
  }
  if (method == CF_CONV_AUTO
      && cf_cpu_fft_direct_cost (direct) < CF_CPU_FFT_CROSSOVER_COST) {
    *why = "kernel below the crossover";
    return NULL;
  }
  if (!cf_fft_plan_geometry_max (spec, layout->channels, layout->n_channels,
          CF_CPU_FFT_MAX_SIDE, &geom)) {
    *why = "no tile size keeps the error bound";
    return NULL;
  }

  fft = g_new0 (CfCpuFft, 1);
  fft->fftw = fftw;
  fft->kp = spec->kp;
  fft->layout = *layout;
  fft->t = geom.tiles;
  fft->n_spectrum = fft->t.fft_h * (fft->t.fft_w / 2 + 1);
  cf_cpu_fft_reserve (fft, 1);

  cf_fftw_lock ();
  fft->forward = fftw->plan_r2c_2d (fft->t.fft_h, fft->t.fft_w, fft->real[0],
      fft->spectrum[0], FFTW_ESTIMATE);
  fft->inverse = fftw->plan_c2r_2d (fft->t.fft_h, fft->t.fft_w,
      fft->spectrum[0], fft->real[0], FFTW_ESTIMATE);
  cf_fftw_unlock ();
  fft->kernel = fftw->malloc (sizeof (fftw_complex) * fft->n_spectrum);
  if (fft->forward == NULL || fft->inverse == NULL || fft->kernel == NULL) {
    cf_cpu_fft_free (fft);
    *why = "FFTW made no plan";
    return NULL;
  }
  kernel_plane (fft->real[0], spec->dense, spec->kp.kw, spec->kp.kh,
      fft->t.fft_w, fft->t.fft_h,
      1.0 / ((double) fft->t.fft_w * fft->t.fft_h));
  fftw->execute_r2c (fft->forward, fft->real[0], fft->kernel);

  for (int c = 0; c < layout->n_channels; c++) {
    const CfChannel *ch = &layout->channels[c];
    const CfFftTiles *t = &fft->t;

    if (ch->mode != CF_CHANNEL_FILTER || ch->width <= 0 || ch->height <= 0)
      continue;
    fft->xmap[c] = border_map ((t->tiles_x[c] - 1) * t->step_x + t->fft_w,
        -spec->kp.ax, ch->width, spec->kp.border);
    fft->ymap[c] = border_map ((t->tiles_y[c] - 1) * t->step_y + t->fft_h,
        -spec->kp.ay, ch->height, spec->kp.border);
  }
  fft->description = g_strdup_printf ("FFT overlap-save (FFTW), %dx%d taps "
      "in %dx%d tiles", spec->kp.kw, spec->kp.kh, fft->t.fft_w, fft->t.fft_h);
  *why = NULL;
  return fft;
}

void
cf_cpu_fft_free (CfCpuFft * fft)
{
  if (fft == NULL)
    return;
  cf_fftw_lock ();
  if (fft->forward)
    fft->fftw->destroy_plan (fft->forward);
  if (fft->inverse)
    fft->fftw->destroy_plan (fft->inverse);
  cf_fftw_unlock ();
  fft->fftw->free (fft->kernel);
  for (int i = 0; i < fft->n_parts; i++) {
    fft->fftw->free (fft->real[i]);
    fft->fftw->free (fft->spectrum[i]);
  }
  for (int c = 0; c < CF_MAX_CHANNELS; c++) {
    g_free (fft->xmap[c]);
    g_free (fft->ymap[c]);
  }
  g_free (fft->description);
  g_free (fft);
}

const char *
cf_cpu_fft_describe (const CfCpuFft * fft)
{
  return fft->description;
}

static inline const guint8 *
sample_at (const CfFrame * f, const CfChannel * ch, int x, int y)
{
  return f->data[ch->plane] + (gsize) y * f->stride[ch->plane]
      + (gsize) x * ch->pixel_stride + ch->offset;
}

/* Tile (tx, ty) of channel job c into `real`, centred. */
static void
pad_tile (const CfCpuFft * fft, const CfFrame * in, int c, int tx, int ty,
    double *real)
{
  const CfFftTiles *t = &fft->t;
  const CfChannel *ch = &fft->layout.channels[c];
  const int *xm = fft->xmap[c] + tx * t->step_x;
  const int *ym = fft->ymap[c] + ty * t->step_y;
  const double outside = fft->kp.border_value - t->centre;
  const int centre = t->centre, w = t->fft_w;
  const int plain8 = cf_sample_is_plain (ch, 1), ps = ch->pixel_stride;
  /* Tiles inside the channel's columns read their rows straight. */
  const int x0 = tx * t->step_x - fft->kp.ax;
  const gboolean inside = x0 >= 0 && x0 + t->fft_w <= ch->width;

  for (int j = 0; j < t->fft_h; j++) {
    double *row = real + (gsize) j * t->fft_w;
    const guint8 *src;

    if (ym[j] < 0) {
      for (int i = 0; i < t->fft_w; i++)
        row[i] = outside;
      continue;
    }
    src = sample_at (in, ch, 0, ym[j]);
    if (plain8 && inside) {
      const guint8 *p = src + (gsize) x0 * ps;

      for (int i = 0; i < w; i++)
        row[i] = (double) (p[(gsize) i * ps] - centre);
    } else if (plain8) {
      for (int i = 0; i < t->fft_w; i++)
        row[i] = xm[i] < 0 ? outside :
            (double) (src[(gsize) xm[i] * ps] - t->centre);
    } else {
      for (int i = 0; i < t->fft_w; i++)
        row[i] = xm[i] < 0 ? outside :
            (double) (cf_sample_read (src + (gsize) xm[i] * ps, ch)
            - t->centre);
    }
  }
}

/* The nearest integer to v (ties to even, as rint), for |v| < 2^51, which
 * the error bound implies: adding 1.5 * 2^52 leaves no fraction bits. */
static inline long long
nearest (double v)
{
  return (long long) ((v + 0x1.8p52) - 0x1.8p52);
}

/* The exact sums of tile (tx, ty) of channel job c, post-processed as the
 * direct path does, into the output channel. */
static void
store_tile (const CfCpuFft * fft, const CfFrame * out, int c, int tx, int ty,
    const double *real)
{
  const CfFftTiles *t = &fft->t;
  const CfChannel *ch = &fft->layout.channels[c];
  int x0 = tx * t->step_x, y0 = ty * t->step_y;
  int w = MIN (t->step_x, ch->width - x0), h = MIN (t->step_y,
      ch->height - y0);

  const CfKernelParams *kp = &fft->kp;
  const int ps = ch->pixel_stride;
  const gboolean linear8 = kp->op == CF_OP_LINEAR
      && cf_sample_is_plain (ch, 1);

  /* Within the bound the nearest integer is the exact sum of the centred
   * samples; the centring comes back as an integer.  LINEAR and ABS do not
   * read the source sample. */
  for (int j = 0; j < h; j++) {
    const double *row = real + (gsize) j * t->fft_w;
    guint8 *dst = (guint8 *) sample_at (out, ch, x0, y0 + j);

    if (linear8) {
      /* Locals: the byte stores may alias any field. */
      const long long cs = t->centre_sum, bias = kp->bias;
      const int shift = kp->shift, maxval = kp->maxval;

      for (int i = 0; i < w; i++)
        dst[(gsize) i * ps] = (guint8) cf_post_linear (nearest (row[i]) + cs,
            shift, bias, maxval);
      continue;
    }
    for (int i = 0; i < w; i++)
      cf_sample_write (dst + (gsize) i * ps, ch,
          cf_post (kp, nearest (row[i]) + t->centre_sum, 0, 0));
  }
}

/* Rows [y0, y1) of a copied or filled channel job, as the direct path
 * writes them. */
static void
copy_rows (const CfChannel * ch, const CfFrame * in, const CfFrame * out,
    int y0, int y1)
{
  for (int y = y0; y < y1; y++) {
    const guint8 *src = sample_at (in, ch, 0, y);
    guint8 *dst = (guint8 *) sample_at (out, ch, 0, y);

    for (int x = 0; x < ch->width; x++) {
      gsize o = (gsize) x * ch->pixel_stride;

      cf_sample_write (dst + o, ch, ch->mode == CF_CHANNEL_FILL ?
          ch->fill_value : cf_sample_read (src + o, ch));
    }
  }
}

void
cf_cpu_fft_run (CfCpuFft * fft, const CfFrame * in, const CfFrame * out,
    int index, int n_parts)
{
  const CfFftTiles *t = &fft->t;
  const fftw_complex *k = fft->kernel;
  double *real = fft->real[index];
  fftw_complex *s = fft->spectrum[index];
  int g0 = (int) ((gint64) t->n_tiles * index / n_parts);
  int g1 = (int) ((gint64) t->n_tiles * (index + 1) / n_parts);
  int c = 0;

  g_return_if_fail (index < fft->n_parts);
  for (int g = g0; g < g1; g++) {
    int local, tx, ty;

    /* The channel job owning tile g: tiles are numbered job by job. */
    while (fft->layout.channels[c].mode != CF_CHANNEL_FILTER
        || g >= t->first_tile[c] + t->tiles_x[c] * t->tiles_y[c])
      c++;
    local = g - t->first_tile[c];
    ty = local / t->tiles_x[c];
    tx = local - ty * t->tiles_x[c];

    pad_tile (fft, in, c, tx, ty, real);
    fft->fftw->execute_r2c (fft->forward, real, s);
    for (int i = 0; i < fft->n_spectrum; i++) {
      double re = s[i][0] * k[i][0] - s[i][1] * k[i][1];
      double im = s[i][0] * k[i][1] + s[i][1] * k[i][0];

      s[i][0] = re;
      s[i][1] = im;
    }
    fft->fftw->execute_c2r (fft->inverse, s, real);
    store_tile (fft, out, c, tx, ty, real);
  }

  for (int j = 0; j < fft->layout.n_channels; j++) {
    const CfChannel *ch = &fft->layout.channels[j];

    if (ch->mode == CF_CHANNEL_FILTER || ch->width <= 0 || ch->height <= 0)
      continue;
    copy_rows (ch, in, out, (int) ((gint64) ch->height * index / n_parts),
        (int) ((gint64) ch->height * (index + 1) / n_parts));
  }
}
