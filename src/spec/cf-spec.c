/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: filter parameters → quantised integer weights.
 *
 * Every filter becomes one or two integer kernels (separable row/column taps
 * or a dense matrix) plus a post operation (kernels/cf-arith.h).  Integer sums
 * are exact, so any summation order gives the same bytes on every backend. */
#include <math.h>
#include <stdatomic.h>
#include <string.h>
#include "cf-spec-private.h"

#define INT32_LIMIT 2147483647.0

/* Fractional bits per pass of the Gaussian: OpenCV's bit-exact 8-bit
 * GaussianBlur uses 8; 16-bit samples get 16 and 64-bit sums. */
#define GAUSS_BITS_8 8
#define GAUSS_BITS_16 16
/* Box weights 1 / k^2 in fixed point. */
#define BOX_BITS_8 22
#define BOX_BITS_16 30

/* 64 bits, so serials never repeat (a spec a frame at 1000 fps takes 584
 * million years to wrap), and atomic: specs are built on any thread. */
static _Atomic guint64 spec_serial = 0;

void
cf_params_init (CfParams * params)
{
  memset (params, 0, sizeof (*params));
  params->filter = CF_FILTER_GAUSSIAN;
  params->sigma = 1.0;
  params->scale = 1.0;
  params->amount = 1.0;
  params->border = CF_BORDER_REFLECT101;
  params->shape = CF_SHAPE_RECT;
  params->iterations = 1;
  params->sigma_color = CF_SIGMA_COLOR_AUTO;
  params->block_size = CF_PIXELATE_DEFAULT_BLOCK;
}

static int
gaussian_size (double sigma, int sample_bytes)
{
  /* OpenCV: cvRound (sigma * (8U ? 3 : 4) * 2 + 1) | 1 */
  return ((int) rint (sigma * (sample_bytes == 1 ? 3 : 4) * 2 + 1)) | 1;
}

/* The name in error messages. */
static const char *
nick_of (const CfParams * p)
{
  return cf_filters[p->filter].nick;
}

/* kernel-size, or the filter's fixed default for 0. */
static int
size_or_default (const CfParams * p)
{
  return p->kernel_size > 0 ? p->kernel_size :
      cf_filters[p->filter].default_size;
}

static double
sum_abs (const int *w, int n)
{
  double s = 0.0;
  int i;

  for (i = 0; i < n; i++)
    s += fabs ((double) w[i]);
  return s;
}

/* Centres n taps in a kernel of `size` taps, zeros around. */
static void
pad_taps (int *taps, int n, int size)
{
  int tmp[CF_MAX_TAPS + 1] = { 0 };
  int shift = (size - n) / 2, i;

  for (i = 0; i < n; i++)
    tmp[i + shift] = taps[i];
  memcpy (taps, tmp, sizeof (int) * size);
}

static gboolean
check_gaussian (const CfParams * p, GError ** error)
{
  if (!(p->sigma > 0.0) || !isfinite (p->sigma)) {
    g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
        "sigma must be a number greater than 0 (got %g)", p->sigma);
    return FALSE;
  }
  if (!(p->sigma_y >= 0.0) || !isfinite (p->sigma_y)) {
    g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
        "sigma-y must be 0 (same as sigma) or greater (got %g)", p->sigma_y);
    return FALSE;
  }
  return TRUE;
}

static gboolean
check_odd_size (int size, const char *filter, GError ** error)
{
  if (size < 1 || size > CF_MAX_TAPS || (size & 1) == 0) {
    g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
        "kernel-size %d is not valid for %s: use 0 (derived) or an odd "
        "number from 1 to %d", size, filter, CF_MAX_TAPS);
    return FALSE;
  }
  return TRUE;
}

static gboolean
build_gaussian (CfSpec * spec, const CfParams * p, GError ** error)
{
  CfKernelParams *kp = &spec->kp;
  int bits = kp->sample_bytes == 1 ? GAUSS_BITS_8 : GAUSS_BITS_16;
  double sy = p->sigma_y > 0.0 ? p->sigma_y : p->sigma;
  const char *name = nick_of (p);

  if (!check_gaussian (p, error))
    return FALSE;
  if (p->kernel_size > 0) {
    if (!check_odd_size (p->kernel_size, name, error))
      return FALSE;
    kp->kw = kp->kh = p->kernel_size;
  } else {
    kp->kw = gaussian_size (p->sigma, kp->sample_bytes);
    kp->kh = gaussian_size (sy, kp->sample_bytes);
    if (kp->kw > CF_MAX_TAPS || kp->kh > CF_MAX_TAPS) {
      g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
          "sigma %g needs a %d-tap kernel, but at most %d taps are "
          "supported: lower sigma/sigma-y or set kernel-size", MAX (p->sigma,
              sy), MAX (kp->kw, kp->kh), CF_MAX_TAPS);
      return FALSE;
    }
  }
  cf_gaussian_kernel_fixed (kp->kw, p->sigma, bits, spec->sep.row[0]);
  cf_gaussian_kernel_fixed (kp->kh, sy, bits, spec->sep.col[0]);
  kp->separable = 1;
  kp->op = p->filter == CF_FILTER_SHARPEN ? CF_OP_SHARPEN : CF_OP_LINEAR;
  kp->shift = 2 * bits;
  kp->bias = 1LL << (2 * bits - 1);
  return TRUE;
}

static gboolean
build_box (CfSpec * spec, const CfParams * p, GError ** error)
{
  CfKernelParams *kp = &spec->kp;
  int bits = kp->sample_bytes == 1 ? BOX_BITS_8 : BOX_BITS_16;
  int k = size_or_default (p);
  int m, i;

  if (!check_odd_size (k, nick_of (p), error))
    return FALSE;
  /* sum * round (2^bits / k^2) >> bits is within a hair of sum / k^2. */
  m = (int) llround (ldexp (1.0, bits) / (double) (k * k));
  for (i = 0; i < k; i++) {
    spec->sep.row[0][i] = 1;
    spec->sep.col[0][i] = m;
  }
  kp->kw = kp->kh = k;
  kp->separable = 1;
  kp->op = CF_OP_LINEAR;
  kp->shift = bits;
  kp->bias = 1LL << (bits - 1);
  return TRUE;
}

static gboolean
check_derivative_size (int k, const char *filter, GError ** error)
{
  if (k != 1 && k != 3 && k != 5 && k != 7) {
    g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
        "kernel-size %d is not valid for %s: use 0 (default), 1, 3, 5 or 7",
        k, filter);
    return FALSE;
  }
  return TRUE;
}

/* One Sobel derivative (dx, dy) into kernel slot `slot`, padded to size. */
static void
sobel_pair (CfSpec * spec, int slot, int ksize, int dx, int dy, int size)
{
  int nx = cf_sobel_kernel (ksize, dx, spec->sep.row[slot]);
  int ny = cf_sobel_kernel (ksize, dy, spec->sep.col[slot]);

  pad_taps (spec->sep.row[slot], nx, size);
  pad_taps (spec->sep.col[slot], ny, size);
}

static gboolean
build_sobel (CfSpec * spec, const CfParams * p, GError ** error)
{
  CfKernelParams *kp = &spec->kp;
  int k = size_or_default (p);

  if (!check_derivative_size (k, nick_of (p), error))
    return FALSE;
  kp->separable = 1;
  kp->shift = 0;
  kp->bias = 0;
  if (p->filter == CF_FILTER_SOBEL) {
    int size = MAX (k, 3);

    sobel_pair (spec, 0, k, 1, 0, size);
    sobel_pair (spec, 1, k, 0, 1, size);
    kp->kw = kp->kh = size;
    kp->n_kernels = 2;
    kp->op = CF_OP_MAGNITUDE;
  } else {
    int dx = p->filter == CF_FILTER_SOBEL_X, dy = !dx;

    kp->kw = cf_sobel_kernel (k, dx, spec->sep.row[0]);
    kp->kh = cf_sobel_kernel (k, dy, spec->sep.col[0]);
    kp->op = CF_OP_ABS;
  }
  return TRUE;
}

static gboolean
build_scharr (CfSpec * spec, const CfParams * p, GError ** error)
{
  static const int deriv[3] = { -1, 0, 1 }, smooth[3] = { 3, 10, 3 };
  CfKernelParams *kp = &spec->kp;

  if (p->kernel_size != 0 && p->kernel_size != 3) {
    g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
        "kernel-size %d is not valid for scharr, which is 3x3: use 0 or 3",
        p->kernel_size);
    return FALSE;
  }
  memcpy (spec->sep.row[0], deriv, sizeof (deriv));
  memcpy (spec->sep.col[0], smooth, sizeof (smooth));
  memcpy (spec->sep.row[1], smooth, sizeof (smooth));
  memcpy (spec->sep.col[1], deriv, sizeof (deriv));
  kp->kw = kp->kh = 3;
  kp->separable = 1;
  kp->n_kernels = 2;
  kp->op = CF_OP_MAGNITUDE;
  return TRUE;
}

static gboolean
build_laplacian (CfSpec * spec, const CfParams * p, GError ** error)
{
  static const int k1[9] = { 0, 1, 0, 1, -4, 1, 0, 1, 0 };
  static const int k3[9] = { 2, 0, 2, 0, -8, 0, 2, 0, 2 };
  CfKernelParams *kp = &spec->kp;
  int k = size_or_default (p);
  int i, j;

  if (!check_derivative_size (k, nick_of (p), error))
    return FALSE;
  kp->kw = kp->kh = MAX (k, 3);
  spec->dense = g_new0 (int, kp->kw * kp->kh);
  if (k == 1) {
    memcpy (spec->dense, k1, sizeof (k1));
  } else if (k == 3) {
    memcpy (spec->dense, k3, sizeof (k3));
  } else {
    /* OpenCV: d2/dx2 + d2/dy2 with Sobel taps of order 2 and 0. */
    int d2[CF_MAX_TAPS + 1], s0[CF_MAX_TAPS + 1];

    cf_sobel_kernel (k, 2, d2);
    cf_sobel_kernel (k, 0, s0);
    for (j = 0; j < k; j++)
      for (i = 0; i < k; i++)
        spec->dense[j * k + i] = d2[i] * s0[j] + s0[i] * d2[j];
  }
  kp->separable = 0;
  kp->op = CF_OP_ABS;
  return TRUE;
}

/* Custom kernels are quantised so the worst-case rounding error of the
 * result stays below QUANT_ERROR (in output units), which keeps it within
 * 1 LSB of the exact filter; sums go 64-bit when 32 bits cannot hold that
 * precision. */
#define QUANT_ERROR 0.25
#define MAX_BITS 30

static gboolean
exact_in_bits (const double *v, int n, int bits)
{
  int i;

  for (i = 0; i < n; i++) {
    double q = ldexp (v[i], bits);
    if (q != rint (q))
      return FALSE;
  }
  return TRUE;
}

/* Fewest fractional bits for n values whose rounding errors, each at most
 * 2^-(bits+1), are multiplied by at most `gain` before reaching the output. */
static int
bits_needed (const double *v, int n, double gain)
{
  int bits;

  for (bits = 0; bits < MAX_BITS; bits++)
    if (exact_in_bits (v, n, bits) || gain * n * ldexp (0.5, -bits) <=
        QUANT_ERROR)
      break;
  return bits;
}

static double
sum_abs_d (const double *v, int n)
{
  double s = 0.0;
  int i;

  for (i = 0; i < n; i++)
    s += fabs (v[i]);
  return s;
}

static double
peak_abs_d (const double *v, int n)
{
  double m = 0.0;
  int i;

  for (i = 0; i < n; i++)
    m = MAX (m, fabs (v[i]));
  return m;
}

/* Whether `bits` keeps sums reaching `reach` (in units of one) below
 * `limit` and weights as large as `peak` inside int32. */
static gboolean
bits_fit (int bits, double reach, double peak, double limit)
{
  return reach * ldexp (1.0, bits) < limit
      && peak * ldexp (1.0, bits) < INT32_LIMIT;
}

static gboolean
quantise_dense (CfSpec * spec, const double *k, int n, double offset,
    GError ** error)
{
  CfKernelParams *kp = &spec->kp;
  double reach = kp->maxval * sum_abs_d (k, n) + fabs (offset);
  double peak = peak_abs_d (k, n);
  int bits = bits_needed (k, n, kp->maxval), i;
  double limit = INT32_LIMIT;

  if (!bits_fit (bits, reach, peak, limit)) {
    kp->wide_acc = 1;
    limit = ldexp (1.0, 62);
  }
  if (!bits_fit (bits, reach, peak, limit)) {
    g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
        "kernel values are too large after scale and divisor (largest %g)",
        peak);
    return FALSE;
  }
  /* Spare headroom buys more precision. */
  while (bits < MAX_BITS && bits_fit (bits + 1, reach, peak, limit)
      && !exact_in_bits (k, n, bits))
    bits++;

  spec->dense = g_new (int, n);
  for (i = 0; i < n; i++)
    spec->dense[i] = (int) llround (ldexp (k[i], bits));
  kp->shift = bits;
  return TRUE;
}

static gboolean
quantise_separable (CfSpec * spec, const double *row, const double *col,
    double offset, GError ** error)
{
  CfKernelParams *kp = &spec->kp;
  int w = kp->kw, h = kp->kh, i;
  double sum_r = sum_abs_d (row, w), sum_c = sum_abs_d (col, h);
  double peak = MAX (peak_abs_d (row, w), peak_abs_d (col, h));
  /* A row error is scaled by the column sum and vice versa. */
  int bits_r = bits_needed (row, w, kp->maxval * sum_c);
  int bits_c = bits_needed (col, h, kp->maxval * sum_r);
  double reach = kp->maxval * sum_r * sum_c + fabs (offset);
  double limit = INT32_LIMIT;

  if (!bits_fit (bits_r + bits_c, reach, peak, limit)) {
    kp->wide_acc = 1;
    limit = ldexp (1.0, 62);
  }
  if (!bits_fit (bits_r + bits_c, reach, peak, limit)) {
    g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
        "kernel values are too large after scale and divisor (largest %g)",
        peak);
    return FALSE;
  }
  while (bits_r + bits_c < MAX_BITS
      && bits_fit (bits_r + bits_c + 1, reach, peak, limit)) {
    gboolean exact_r = exact_in_bits (row, w, bits_r);
    gboolean exact_c = exact_in_bits (col, h, bits_c);

    if (exact_r && exact_c)
      break;
    if (!exact_c && (exact_r || bits_c <= bits_r))
      bits_c++;
    else
      bits_r++;
  }

  for (i = 0; i < w; i++)
    spec->sep.row[0][i] = (int) llround (ldexp (row[i], bits_r));
  for (i = 0; i < h; i++)
    spec->sep.col[0][i] = (int) llround (ldexp (col[i], bits_c));
  kp->shift = bits_r + bits_c;
  return TRUE;
}

static gboolean
build_custom (CfSpec * spec, const CfParams * p, GError ** error)
{
  CfKernelParams *kp = &spec->kp;
  double *k, divisor, sum = 0.0, row[CF_MAX_TAPS], col[CF_MAX_TAPS];
  int w, h, i, n;
  gboolean ok;

  if (p->kernel == NULL || *p->kernel == '\0') {
    g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
        "filter=custom needs the kernel property, e.g. "
        "kernel=\"0 -1 0; -1 5 -1; 0 -1 0\"");
    return FALSE;
  }
  if (!cf_kernel_parse (p->kernel, &w, &h, &k, error))
    return FALSE;
  n = w * h;
  for (i = 0; i < n; i++)
    sum += k[i];
  divisor = p->divisor != 0.0 ? p->divisor : (sum != 0.0 ? sum : 1.0);
  if (!isfinite (divisor) || !isfinite (p->scale) || !isfinite (p->offset)) {
    g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
        "divisor, scale and offset must be finite numbers");
    g_free (k);
    return FALSE;
  }
  for (i = 0; i < n; i++)
    k[i] = k[i] * p->scale / divisor;
  kp->kw = w;
  kp->kh = h;
  kp->op = CF_OP_LINEAR;
  kp->separable = cf_kernel_separate (k, w, h, col, row);
  ok = kp->separable && quantise_separable (spec, row, col, p->offset, NULL);
  if (!ok) {
    /* The split needs the precision twice (row and column bits add up),
     * which 16-bit samples may not afford; the dense form needs it once. */
    kp->separable = 0;
    kp->wide_acc = 0;
    ok = quantise_dense (spec, k, n, p->offset, error);
  }
  g_free (k);
  if (!ok)
    return FALSE;
  kp->bias = llround (ldexp (p->offset, kp->shift)) +
      (kp->shift > 0 ? 1LL << (kp->shift - 1) : 0);
  return TRUE;
}

/* Whether any partial or final sum can leave the int32 range. */
static gboolean
needs_wide_acc (const CfSpec * spec)
{
  const CfKernelParams *kp = &spec->kp;
  double reach = 0.0;
  int k;

  if (kp->separable) {
    for (k = 0; k < kp->n_kernels; k++) {
      double r = kp->maxval * sum_abs (spec->sep.row[k], kp->kw);

      reach = MAX (reach, r);
      reach = MAX (reach, r * sum_abs (spec->sep.col[k], kp->kh));
    }
  } else {
    reach = kp->maxval * sum_abs (spec->dense, kp->kw * kp->kh);
  }
  return reach + fabs ((double) kp->bias) >= INT32_LIMIT;
}

/* Whether every dense weight fits a signed byte: the GPU's fast kernels
 * then sum four taps an instruction (dp4a, exact). */
static gboolean
dense_weights_are_bytes (const CfSpec * spec)
{
  const CfKernelParams *kp = &spec->kp;
  int i;

  if (kp->separable || kp->wide_acc)
    return FALSE;
  for (i = 0; i < kp->kw * kp->kh; i++)
    if (spec->dense[i] < -128 || spec->dense[i] > 127)
      return FALSE;
  return TRUE;
}

/* Pixelate: no weights; the backends average blocks (cf-pixelate.c,
 * kernels/cf-region.cu). */
static gboolean
build_pixelate (CfSpec * spec, const CfParams * p, GError ** error)
{
  if (p->block_size < 1 || p->block_size > CF_PIXELATE_MAX_BLOCK) {
    g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
        "pixelate: block-size %d is outside 1 .. %d", p->block_size,
        CF_PIXELATE_MAX_BLOCK);
    return FALSE;
  }
  spec->kp.block = p->block_size;
  spec->kp.kw = spec->kp.kh = 1;
  spec->kp.separable = 1;
  return TRUE;
}

#define ALL_SIZE (CF_READS_KERNEL_SIZE | CF_READS_SCALE_OFFSET)
#define MORPH_READS (CF_READS_KERNEL_SIZE | CF_READS_KERNEL | CF_READS_SHAPE \
    | CF_READS_ITERATIONS)

/* The nonlinear operations' builders (cf-spec-nonlin.c). */
#define build_median cf_spec_build_median
#define build_morph cf_spec_build_morph
#define build_bilateral cf_spec_build_bilateral

const CfFilterInfo cf_filters[CF_N_FILTERS] = {
  {CF_FILTER_GAUSSIAN, "gaussian",
        "Gaussian blur (sigma, sigma-y, kernel-size)", "blur",
        CF_OPERATION_CONVOLVE,
        CF_READS_SIGMA | CF_READS_SIGMA_Y | CF_READS_KERNEL_SIZE, FALSE,
      CF_SIZE_FROM_SIGMA, build_gaussian},
  {CF_FILTER_BOX, "box", "Box blur: mean of kernel-size x kernel-size",
      "mean", CF_OPERATION_CONVOLVE, CF_READS_KERNEL_SIZE, FALSE, 3,
      build_box},
  {CF_FILTER_SOBEL, "sobel", "Sobel gradient magnitude",
      "gradient magnitude", CF_OPERATION_CONVOLVE, ALL_SIZE, TRUE, 3,
      build_sobel},
  {CF_FILTER_SOBEL_X, "sobel-x", "Absolute Sobel derivative in x", NULL,
      CF_OPERATION_CONVOLVE, ALL_SIZE, TRUE, 3, build_sobel},
  {CF_FILTER_SOBEL_Y, "sobel-y", "Absolute Sobel derivative in y", NULL,
      CF_OPERATION_CONVOLVE, ALL_SIZE, TRUE, 3, build_sobel},
  /* kernel-size may only be 0 or the fixed 3. */
  {CF_FILTER_SCHARR, "scharr", "Scharr 3x3 gradient magnitude", NULL,
      CF_OPERATION_CONVOLVE, CF_READS_SCALE_OFFSET, TRUE, 3, build_scharr},
  {CF_FILTER_LAPLACIAN, "laplacian", "Absolute Laplacian", NULL,
      CF_OPERATION_CONVOLVE, ALL_SIZE, TRUE, 1, build_laplacian},
  {CF_FILTER_SHARPEN, "sharpen", "Unsharp mask (sigma, kernel-size, amount)",
        "unsharp mask", CF_OPERATION_CONVOLVE,
        CF_READS_SIGMA | CF_READS_SIGMA_Y | CF_READS_KERNEL_SIZE |
        CF_READS_AMOUNT, FALSE,
      CF_SIZE_FROM_SIGMA, build_gaussian},
  {CF_FILTER_CUSTOM, "custom", "User kernel from the kernel property",
        "the kernel property", CF_OPERATION_CONVOLVE,
        CF_READS_KERNEL | CF_READS_SCALE_OFFSET, FALSE, CF_SIZE_FROM_KERNEL,
      build_custom},
  {CF_FILTER_MEDIAN, "median", "Median of kernel-size x kernel-size (odd)",
        "denoise", CF_OPERATION_MEDIAN, CF_READS_KERNEL_SIZE, FALSE, 3,
      build_median},
  {CF_FILTER_ERODE, "erode", "Minimum over the structuring element",
        "morphology", CF_OPERATION_MORPH, MORPH_READS, FALSE, 3, build_morph},
  {CF_FILTER_DILATE, "dilate", "Maximum over the structuring element", NULL,
      CF_OPERATION_MORPH, MORPH_READS, FALSE, 3, build_morph},
  {CF_FILTER_OPEN, "open", "Erode, then dilate", NULL,
      CF_OPERATION_MORPH, MORPH_READS, FALSE, 3, build_morph},
  {CF_FILTER_CLOSE, "close", "Dilate, then erode", NULL,
      CF_OPERATION_MORPH, MORPH_READS, FALSE, 3, build_morph},
  {CF_FILTER_GRADIENT, "gradient", "Morphological gradient: dilate - erode",
      NULL, CF_OPERATION_MORPH, MORPH_READS, TRUE, 3, build_morph},
  {CF_FILTER_TOPHAT, "tophat", "Top hat: source - open", NULL,
      CF_OPERATION_MORPH, MORPH_READS, TRUE, 3, build_morph},
  {CF_FILTER_BLACKHAT, "blackhat", "Black hat: close - source", NULL,
      CF_OPERATION_MORPH, MORPH_READS, TRUE, 3, build_morph},
  {CF_FILTER_BILATERAL, "bilateral",
        "Edge-preserving bilateral smoothing (kernel-size = diameter, sigma, "
        "sigma-color)", "edge-preserving smoothing", CF_OPERATION_BILATERAL,
        CF_READS_SIGMA | CF_READS_KERNEL_SIZE | CF_READS_SIGMA_COLOR, FALSE,
      CF_SIZE_FROM_SIGMA, build_bilateral},
  {CF_FILTER_PIXELATE, "pixelate",
        "Pixelate: blocks of block-size pixels, each its mean", "mosaic",
        CF_OPERATION_PIXELATE, CF_READS_BLOCK_SIZE, FALSE, 1,
      build_pixelate},
};

const CfShapeInfo cf_shapes[CF_N_SHAPES] = {
  {CF_SHAPE_RECT, "rect", "Rectangle: every element"},
  {CF_SHAPE_ELLIPSE, "ellipse", "Ellipse inscribed in the square"},
  {CF_SHAPE_CROSS, "cross", "Cross through the centre"},
};

const CfBorderInfo cf_borders[CF_N_BORDERS] = {
  {CF_BORDER_REFLECT101, "reflect101",
      "Reflect without repeating the edge: gfedcb|abcdefg"},
  {CF_BORDER_REPLICATE, "replicate", "Repeat the edge: aaaaaa|abcdefg"},
  {CF_BORDER_REFLECT, "reflect", "Reflect with the edge: fedcba|abcdef"},
  {CF_BORDER_WRAP, "wrap", "Wrap around: cdefgh|abcdefgh"},
  {CF_BORDER_CONSTANT, "constant", "Constant border-value outside the frame"},
};

const CfFilterInfo *
cf_filter_info (CfFilter filter)
{
  if ((int) filter < 0 || (int) filter >= CF_N_FILTERS)
    return NULL;
  g_assert (cf_filters[filter].filter == filter);
  return &cf_filters[filter];
}

gboolean
cf_filter_is_derivative (CfFilter filter)
{
  const CfFilterInfo *info = cf_filter_info (filter);

  return info != NULL && info->derivative;
}

CfSpec *
cf_spec_new (const CfParams * params, int sample_bytes, GError ** error)
{
  /* Depth 0 for any other size: refused with its error below. */
  return cf_spec_new_for_depth (params, sample_bytes == 1 || sample_bytes == 2
      ? 8 * sample_bytes : 0, error);
}

CfSpec *
cf_spec_new_for_depth (const CfParams * params, int depth, GError ** error)
{
  CfSpec *spec;
  CfKernelParams *kp;
  gboolean ok;

  if (params == NULL || !(depth == 8 || (depth > 8 && depth <= 16))) {
    g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
        "cf_spec_new: invalid argument (%s)", params == NULL ?
        "no parameters" : "sample depths of 8 to 16 bits only");
    return NULL;
  }

  spec = g_new0 (CfSpec, 1);
  kp = &spec->kp;
  /* Deeper samples are filtered as OpenCV filters 16-bit arrays (weights,
   * default sizes); only the saturation differs per depth. */
  kp->sample_bytes = depth == 8 ? 1 : 2;
  kp->maxval = (1 << depth) - 1;
  kp->border = params->border;
  kp->border_value = CLAMP (params->border_value, 0, kp->maxval);
  kp->scale = (float) params->scale;
  kp->offset = (float) params->offset;
  kp->amount = (float) params->amount;
  kp->n_kernels = 1;

  if ((int) params->border < 0 || (int) params->border >= CF_N_BORDERS) {
    g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
        "unknown border mode %d", params->border);
    ok = FALSE;
  } else {
    const CfFilterInfo *info = cf_filter_info (params->filter);

    if (info == NULL) {
      g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
          "unknown filter %d", params->filter);
      ok = FALSE;
    } else {
      kp->operation = info->operation;
      ok = info->build (spec, params, error);
    }
  }
  if (!ok) {
    cf_spec_free (spec);
    return NULL;
  }
  kp->ax = kp->kw / 2;
  kp->ay = kp->kh / 2;
  if (kp->operation == CF_OPERATION_CONVOLVE) {
    kp->wide_acc = kp->wide_acc || needs_wide_acc (spec);
    kp->dense_taps_s8 = dense_weights_are_bytes (spec);
  }
  spec->serial = atomic_fetch_add (&spec_serial, 1) + 1;
  return spec;
}

void
cf_spec_skip_serials (guint64 n)
{
  atomic_fetch_add (&spec_serial, n);
}

gboolean
cf_params_check (const CfParams * params, GError ** error)
{
  static const int depths[] = { 8, 16 };

  for (guint i = 0; i < G_N_ELEMENTS (depths); i++) {
    CfSpec *spec = cf_spec_new_for_depth (params, depths[i], error);

    if (spec == NULL)
      return FALSE;
    cf_spec_free (spec);
  }
  return TRUE;
}

const void *
cf_spec_device_weights (const CfSpec * spec, gsize * bytes)
{
  const CfKernelParams *kp = &spec->kp;

  *bytes = 0;
  if (kp->operation != CF_OPERATION_CONVOLVE) {
    *bytes = (gsize) spec->nl.n_table * sizeof (int);
    return *bytes > 0 ? spec->table : NULL;
  }
  if (!cf_weights_on_device (kp))
    return NULL;
  if (kp->separable) {
    *bytes = sizeof (spec->sep);
    return &spec->sep;
  }
  *bytes = (gsize) kp->kw * kp->kh * sizeof (int);
  return spec->dense;
}

void
cf_spec_free (CfSpec * spec)
{
  if (spec == NULL)
    return;
  g_free (spec->dense);
  g_free (spec->table);
  g_free (spec);
}
