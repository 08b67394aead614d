/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: specs of the nonlinear operations (median, morphology,
 * bilateral) as programs of passes over whole images (CfNonlin). */
#include <math.h>
#include <string.h>
#include "cf-spec-private.h"

/* Fractional bits of each of the bilateral's two weights (space, range):
 * as many as keep the sum of n products times samples of `depth` bits
 * below 2^63, so the sums are exact in 64 bits, and at most 30 (the
 * tables are ints).  Each weight's rounding moves the result by at most
 * about n * maxval * 2^-(bits + 1) in the worst case, far less in
 * practice (signs mix): 20 bits at 16-bit depth and a 9x9 disk. */
static int
bilateral_bits (int n, int depth)
{
  int log2n = 0;

  while ((1 << log2n) < n)
    log2n++;
  return MIN ((63 - depth - log2n) / 2, 30);
}

static const char *
nick_of (const CfParams * p)
{
  return cf_filters[p->filter].nick;
}

static gboolean
add_pass (CfNonlin * nl, int step, int src, int src2, int dst, int len,
    int anchor)
{
  CfNlPass *pass;

  g_assert (nl->n_passes < CF_NL_MAX_PASSES);
  pass = &nl->passes[nl->n_passes++];
  pass->step = step;
  pass->src = src;
  pass->src2 = src2;
  pass->dst = dst;
  pass->len = len;
  pass->anchor = anchor;
  if (dst >= 0)
    nl->n_scratch = MAX (nl->n_scratch, dst + 1);
  return TRUE;
}

gboolean
cf_spec_build_median (CfSpec * spec, const CfParams * p, GError ** error)
{
  int k = p->kernel_size > 0 ? p->kernel_size : 3;

  if (k < 3 || k > CF_NL_MAX_SIZE || (k & 1) == 0) {
    g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
        "kernel-size %d is not valid for median: use 0 (default 3) or an "
        "odd number from 3 to %d", k, CF_NL_MAX_SIZE);
    return FALSE;
  }
  spec->kp.kw = spec->kp.kh = k;
  spec->nl.rank = k * k / 2;
  add_pass (&spec->nl, CF_NL_MEDIAN, CF_NL_FRAME, CF_NL_FRAME, CF_NL_OUT, k,
      k / 2);
  return TRUE;
}

void
cf_structuring_element (CfShape shape, int k, int *out)
{
  int r = k / 2, c = k / 2, i, j;
  double inv_r2 = r ? 1.0 / ((double) r * r) : 0.0;

  /* OpenCV's getStructuringElement, anchor at the centre. */
  for (i = 0; i < k; i++) {
    int j1 = 0, j2 = 0;

    if (shape == CF_SHAPE_RECT || (shape == CF_SHAPE_CROSS && i == c)) {
      j2 = k;
    } else if (shape == CF_SHAPE_CROSS) {
      j1 = c;
      j2 = c + 1;
    } else {
      int dy = i - r;

      if (ABS (dy) <= r) {
        int dx = (int) rint (c * sqrt ((r * r - dy * dy) * inv_r2));

        j1 = MAX (c - dx, 0);
        j2 = MIN (c + dx + 1, k);
      }
    }
    for (j = 0; j < k; j++)
      out[i * k + j] = j >= j1 && j < j2;
  }
}

/* The structuring element from the kernel property, or from shape and
 * kernel-size; FALSE with an error when it is unusable. */
static gboolean
make_element (CfSpec * spec, const CfParams * p, GError ** error)
{
  CfNonlin *nl = &spec->nl;
  int w, h, i, n = 0;

  if (p->kernel != NULL && *p->kernel != '\0') {
    double *k;

    if (!cf_kernel_parse (p->kernel, &w, &h, &k, error))
      return FALSE;
    spec->table = g_new (int, w * h);
    for (i = 0; i < w * h; i++)
      n += spec->table[i] = k[i] != 0.0;
    g_free (k);
    if (w > CF_NL_MAX_SIZE || h > CF_NL_MAX_SIZE) {
      g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
          "kernel is %dx%d: the structuring element of %s is at most "
          "%dx%d", w, h, nick_of (p), CF_NL_MAX_SIZE, CF_NL_MAX_SIZE);
      return FALSE;
    }
    if (n == 0) {
      g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
          "kernel has no nonzero value: the structuring element of %s "
          "needs at least one", nick_of (p));
      return FALSE;
    }
  } else {
    int k = p->kernel_size > 0 ? p->kernel_size : 3;

    if (k < 1 || k > CF_NL_MAX_SIZE) {
      g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
          "kernel-size %d is not valid for %s: use 0 (default 3) or a "
          "number from 1 to %d", k, nick_of (p), CF_NL_MAX_SIZE);
      return FALSE;
    }
    if ((int) p->shape < 0 || (int) p->shape >= CF_N_SHAPES) {
      g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
          "unknown shape %d", p->shape);
      return FALSE;
    }
    w = h = k;
    spec->table = g_new (int, k * k);
    cf_structuring_element (p->shape, k, spec->table);
  }
  nl->se_w = w;
  nl->se_h = h;
  nl->se_ax = w / 2;
  nl->se_ay = h / 2;
  nl->n_table = w * h;
  spec->kp.kw = w;
  spec->kp.kh = h;
  return TRUE;
}

static gboolean
element_is_full (const CfNonlin * nl, const int *se)
{
  int i;

  for (i = 0; i < nl->se_w * nl->se_h; i++)
    if (!se[i])
      return FALSE;
  return TRUE;
}

/* `iterations` erosions (max FALSE) or dilations from image src to dst,
 * through scratch images a and b.  A full rectangle iterated n times is
 * one rectangle of n (k - 1) + 1 with its anchor times n, as OpenCV makes
 * it, and runs as a row pass and a column pass. */
static void
emit_minmax (CfSpec * spec, gboolean max, int iterations, int src, int dst,
    int a, int b)
{
  CfNonlin *nl = &spec->nl;
  int i;

  if (element_is_full (nl, spec->table)) {
    int n = nl->se_w * nl->se_h == 1 ? 1 : iterations;
    int w = nl->se_w + (n - 1) * (nl->se_w - 1);
    int h = nl->se_h + (n - 1) * (nl->se_h - 1);

    if (w > 1 && h > 1) {
      add_pass (nl, max ? CF_NL_MAX_ROW : CF_NL_MIN_ROW, src, src, a, w,
          nl->se_ax * n);
      add_pass (nl, max ? CF_NL_MAX_COL : CF_NL_MIN_COL, a, a, dst, h,
          nl->se_ay * n);
    } else if (h > 1) {
      add_pass (nl, max ? CF_NL_MAX_COL : CF_NL_MIN_COL, src, src, dst, h,
          nl->se_ay * n);
    } else {
      add_pass (nl, max ? CF_NL_MAX_ROW : CF_NL_MIN_ROW, src, src, dst, w,
          nl->se_ax * n);
    }
    return;
  }
  for (i = 0; i < iterations; i++) {
    int to = i == iterations - 1 ? dst : (i % 2 == 0 ? a : b);

    add_pass (nl, max ? CF_NL_MAX_SE : CF_NL_MIN_SE, src, src, to, 0, 0);
    src = to;
  }
}

gboolean
cf_spec_build_morph (CfSpec * spec, const CfParams * p, GError ** error)
{
  CfNonlin *nl = &spec->nl;
  int n = p->iterations;

  if (n < 1 || n > CF_MAX_ITERATIONS) {
    g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
        "iterations %d is not valid for %s: use a number from 1 to %d", n,
        nick_of (p), CF_MAX_ITERATIONS);
    return FALSE;
  }
  if (!make_element (spec, p, error))
    return FALSE;

  nl->morph = CF_MORPH_ERODE + (p->filter - CF_FILTER_ERODE);
  nl->iterations = n;
  /* Scratch 0 and 1 for the chains, 2 and 3 for what is combined. */
  switch (p->filter) {
    case CF_FILTER_ERODE:
    case CF_FILTER_DILATE:
      emit_minmax (spec, p->filter == CF_FILTER_DILATE, n, CF_NL_FRAME,
          CF_NL_OUT, 0, 1);
      break;
    case CF_FILTER_OPEN:
    case CF_FILTER_CLOSE:
      emit_minmax (spec, p->filter == CF_FILTER_CLOSE, n, CF_NL_FRAME, 2, 0,
          1);
      emit_minmax (spec, p->filter == CF_FILTER_OPEN, n, 2, CF_NL_OUT, 0, 1);
      break;
    case CF_FILTER_GRADIENT:
      emit_minmax (spec, TRUE, n, CF_NL_FRAME, 2, 0, 1);
      emit_minmax (spec, FALSE, n, CF_NL_FRAME, 3, 0, 1);
      add_pass (nl, CF_NL_SUB, 2, 3, CF_NL_OUT, 0, 0);
      break;
    case CF_FILTER_TOPHAT:
    case CF_FILTER_BLACKHAT:{
      gboolean top = p->filter == CF_FILTER_TOPHAT;

      emit_minmax (spec, !top, n, CF_NL_FRAME, 3, 0, 1);
      emit_minmax (spec, top, n, 3, 2, 0, 1);
      if (top)
        add_pass (nl, CF_NL_SUB, CF_NL_FRAME, 2, CF_NL_OUT, 0, 0);
      else
        add_pass (nl, CF_NL_SUB, 2, CF_NL_FRAME, CF_NL_OUT, 0, 0);
      break;
    }
    default:
      g_assert_not_reached ();
  }
  return TRUE;
}

/* exp (-d^2 / 2 sc^2) in fixed point, written so that no sigma, however
 * small or large, gives a NaN: the centre weighs one. */
static int
range_weight (int d, double sc, double one)
{
  double t = d / sc;

  return d == 0 ? (int) one : (int) llround (exp (-0.5 * t * t) * one);
}

gboolean
cf_spec_build_bilateral (CfSpec * spec, const CfParams * p, GError ** error)
{
  CfNonlin *nl = &spec->nl;
  double sc = p->sigma_color, one;
  int radius, i, j, n = 0, len, max_len;
  int *space, *dx, *dy;

  if (!(p->sigma > 0.0) || !isfinite (p->sigma)) {
    g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
        "sigma must be a number greater than 0 (got %g)", p->sigma);
    return FALSE;
  }
  if (sc == CF_SIGMA_COLOR_AUTO) {
    sc = CF_SIGMA_COLOR_8BIT * spec->kp.maxval / 255.0;
  } else if (!(sc > 0.0) || !isfinite (sc)) {
    g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
        "sigma-color must be a number greater than 0, or -1 for the "
        "default (got %g)", sc);
    return FALSE;
  }
  /* OpenCV: radius d / 2, or round (1.5 sigma) for d <= 0; at least 1. */
  radius = p->kernel_size > 0 ? p->kernel_size / 2 :
      (int) rint (MIN (p->sigma * 1.5, 1e6));
  radius = MAX (radius, 1);
  if (2 * radius + 1 > CF_NL_MAX_SIZE) {
    g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
        "sigma %g gives bilateral a diameter of %d, but at most %d taps are "
        "supported: lower sigma or set kernel-size", p->sigma,
        2 * radius + 1, CF_NL_MAX_SIZE);
    return FALSE;
  }
  for (i = -radius; i <= radius; i++)
    for (j = -radius; j <= radius; j++)
      n += i * i + j * j <= radius * radius;
  nl->weight_bits = bilateral_bits (n, spec->kp.maxval == 255 ? 8 :
      g_bit_storage (spec->kp.maxval));
  one = ldexp (1.0, nl->weight_bits);
  n = 0;

  /* Range weights by colour distance (up to three channels' L1), cut
   * where they round to zero (they only fall). */
  max_len = 3 * spec->kp.maxval + 1;
  for (len = 1; len < max_len; len++)
    if (range_weight (len, sc, one) == 0)
      break;

  nl->off_space = 0;
  spec->table = g_new (int, 3 * (2 * radius + 1) * (2 * radius + 1) + len);
  space = spec->table;
  dx = g_new (int, (2 * radius + 1) * (2 * radius + 1));
  dy = g_new (int, (2 * radius + 1) * (2 * radius + 1));
  for (i = -radius; i <= radius; i++)
    for (j = -radius; j <= radius; j++) {
      double r = sqrt ((double) i * i + (double) j * j), t = r / p->sigma;
      long long w = llround (exp (-0.5 * t * t) * one);

      /* Offsets whose weight rounds to zero add nothing. */
      if (r > radius || w == 0)
        continue;
      space[n] = (int) w;
      dx[n] = j;
      dy[n] = i;
      n++;
    }
  memcpy (space + n, dx, n * sizeof (int));
  memcpy (space + 2 * n, dy, n * sizeof (int));
  g_free (dx);
  g_free (dy);
  nl->n_offsets = n;
  nl->off_range = 3 * n;
  nl->range_len = len;
  for (i = 0; i < len; i++)
    spec->table[nl->off_range + i] = range_weight (i, sc, one);
  nl->n_table = nl->off_range + len;

  spec->kp.kw = spec->kp.kh = 2 * radius + 1;
  add_pass (nl, CF_NL_BILATERAL, CF_NL_FRAME, CF_NL_FRAME, CF_NL_OUT, radius,
      radius);
  return TRUE;
}
