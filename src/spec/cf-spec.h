/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: filter parameters and the quantised filter spec built
 * from them.  A spec is built when a parameter (or the sample depth) changes,
 * never per frame; both backends run the same spec and give identical bytes. */
#ifndef CF_SPEC_H
#define CF_SPEC_H

#include <glib.h>
#include "cf-types.h"
#include "cf-error.h"

G_BEGIN_DECLS

typedef enum
{
  CF_FILTER_GAUSSIAN = 0,
  CF_FILTER_BOX,
  CF_FILTER_SOBEL,              /* gradient magnitude */
  CF_FILTER_SOBEL_X,
  CF_FILTER_SOBEL_Y,
  CF_FILTER_SCHARR,             /* gradient magnitude, 3x3 Scharr */
  CF_FILTER_LAPLACIAN,
  CF_FILTER_SHARPEN,            /* unsharp mask */
  CF_FILTER_CUSTOM,
  CF_FILTER_MEDIAN,
  CF_FILTER_ERODE,
  CF_FILTER_DILATE,
  CF_FILTER_OPEN,
  CF_FILTER_CLOSE,
  CF_FILTER_GRADIENT,           /* dilate - erode */
  CF_FILTER_TOPHAT,             /* src - open */
  CF_FILTER_BLACKHAT,           /* close - src */
  CF_FILTER_BILATERAL,
  CF_FILTER_PIXELATE            /* block means (mosaic) */
} CfFilter;

#define CF_N_FILTERS (CF_FILTER_PIXELATE + 1)

/* Structuring elements as OpenCV's getStructuringElement makes them. */
typedef enum
{
  CF_SHAPE_RECT = 0,
  CF_SHAPE_ELLIPSE,
  CF_SHAPE_CROSS
} CfShape;

#define CF_N_SHAPES (CF_SHAPE_CROSS + 1)

/* CfParams.sigma_color: 30 at 8 bits, scaled to the depth. */
#define CF_SIGMA_COLOR_AUTO (-1.0)
#define CF_SIGMA_COLOR_8BIT 30.0
#define CF_MAX_ITERATIONS 16

/* User-facing parameters, as the element's properties hold them. */
typedef struct
{
  CfFilter filter;
  double sigma;                 /* > 0 */
  double sigma_y;               /* 0 = same as sigma */
  int kernel_size;              /* 0 = derived; odd */
  const char *kernel;           /* custom matrix, e.g. "0 -1 0; -1 5 -1; 0 -1 0" */
  double divisor;               /* custom: 0 = sum of the kernel, or 1 if 0 */
  double offset;                /* added to derivative and custom results */
  double scale;                 /* multiplies derivative and custom results */
  double amount;                /* sharpen strength */
  CfBorder border;
  int border_value;             /* sample value, clamped to the depth's range */
  CfShape shape;                /* morphology without a kernel */
  int iterations;               /* morphology: 1 .. CF_MAX_ITERATIONS */
  double sigma_color;           /* bilateral, sample units, or _AUTO */
  int block_size;               /* pixelate: block side in pixels, >= 1 */
} CfParams;

typedef struct
{
  CfKernelParams kp;            /* what the kernels need, by value */
  CfSepWeights sep;             /* weights when kp.separable */
  int *dense;                   /* kh * kw weights, row-major, otherwise */
  CfNonlin nl;                  /* nonlinear operations: the passes */
  int *table;                   /* and their nl.n_table ints, or NULL */
  guint64 serial;               /* unique per spec: backends cache on it */
} CfSpec;

#define CF_PIXELATE_DEFAULT_BLOCK 16
#define CF_PIXELATE_MAX_BLOCK 4096

void cf_params_init (CfParams * params);

/* A spec for samples of `depth` bits (8, or 9..16: values 0 .. 2^depth - 1,
 * saturated there); cf_spec_new takes 1 (8 bits) or 2 (16 bits). */
CfSpec *cf_spec_new_for_depth (const CfParams * params, int depth,
    GError ** error);
CfSpec *cf_spec_new (const CfParams * params, int sample_bytes,
    GError ** error);
void cf_spec_free (CfSpec * spec);
/* Whether params make a spec at every depth a stream may have (8 and 16
 * bits, the extremes of the taps and of the sums): the one test of
 * settings, so that a value is taken or refused the same way whatever
 * format is negotiated later. */
gboolean cf_params_check (const CfParams * params, GError ** error);
/* What a CUDA launch reads from device memory, and its size in bytes: for a
 * convolution (cf_weights_on_device) the dense matrix or separable taps too
 * long for the launch parameters, for a nonlinear operation its table;
 * NULL when the launch parameters carry all it needs. */
const void *cf_spec_device_weights (const CfSpec * spec, gsize * bytes);

/* The parameters a filter reads besides border and border-value, which
 * every filter reads. */
typedef enum
{
  CF_READS_SIGMA = 1 << 0,      /* sigma */
  CF_READS_KERNEL_SIZE = 1 << 1,        /* as its size or aperture */
  CF_READS_KERNEL = 1 << 2,     /* kernel and divisor */
  CF_READS_SCALE_OFFSET = 1 << 3,
  CF_READS_AMOUNT = 1 << 4,
  CF_READS_SHAPE = 1 << 5,      /* shape (unless kernel is set) */
  CF_READS_ITERATIONS = 1 << 6,
  CF_READS_SIGMA_COLOR = 1 << 7,
  CF_READS_BLOCK_SIZE = 1 << 8,
  CF_READS_SIGMA_Y = 1 << 9
} CfFilterReads;

/* CfFilterInfo.default_size when kernel_size 0 is not a fixed size. */
#define CF_SIZE_FROM_SIGMA (-1) /* OpenCV's size for sigma and depth */
#define CF_SIZE_FROM_KERNEL (-2)        /* the kernel property's shape */

/* Everything the engine and the element know about one filter: the one
 * table that the spec builder, the element's enum and its texts read. */
typedef struct
{
  CfFilter filter;
  const char *nick;             /* the public name (gst-launch-1.0): stable */
  const char *blurb;            /* one line for gst-inspect-1.0 */
  const char *gloss;            /* what it does, in the filter list; or NULL */
  CfOperation operation;        /* which implementations run it */
  CfFilterReads reads;
  gboolean derivative;          /* gives grey edges on YUV */
  int default_size;             /* taps when kernel_size is 0, or CF_SIZE_* */
  /* Fills the weights; private to cf-spec.c (use cf_spec_new). */
  gboolean (*build) (CfSpec * spec, const CfParams * params, GError ** error);
} CfFilterInfo;

/* cf_filters[f].filter == f for every CfFilter f. */
extern const CfFilterInfo cf_filters[CF_N_FILTERS];

typedef struct
{
  CfShape shape;
  const char *nick;             /* stable */
  const char *blurb;
} CfShapeInfo;

extern const CfShapeInfo cf_shapes[CF_N_SHAPES];

/* OpenCV's getStructuringElement (shape, (k, k)): k * k ones and zeros. */
void cf_structuring_element (CfShape shape, int k, int *out);

#define CF_N_BORDERS (CF_BORDER_CONSTANT + 1)

typedef struct
{
  CfBorder border;
  const char *nick;             /* OpenCV's name: stable */
  const char *blurb;
} CfBorderInfo;

/* cf_borders[b].border == b for every CfBorder b. */
extern const CfBorderInfo cf_borders[CF_N_BORDERS];

/* The table's row for `filter`, or NULL for a value outside CfFilter. */
const CfFilterInfo *cf_filter_info (CfFilter filter);
/* Derivative filters (sobel*, scharr, laplacian) give grey edges on YUV. */
gboolean cf_filter_is_derivative (CfFilter filter);

/* Gaussian taps as OpenCV's getGaussianKernel (double, sums to 1). */
void cf_gaussian_kernel (int n, double sigma, double *out);
/* The same quantised to `bits` fractional bits with error diffusion so the
 * integer taps sum to exactly 1 << bits, as OpenCV's bit-exact GaussianBlur. */
void cf_gaussian_kernel_fixed (int n, double sigma, int bits, int *out);
/* Sobel derivative taps of `order` in a kernel of `size` (OpenCV's
 * getDerivKernels, unnormalised); size 1 with order > 0 gives 3 taps.
 * Returns the number of taps written. */
int cf_sobel_kernel (int size, int order, int *out);

/* Parses "a b c; d e f" (rows by ';', values by spaces or commas).
 * On success *values holds width * height doubles, row-major; g_free it. */
gboolean cf_kernel_parse (const char *text, int *width, int *height,
    double **values, GError ** error);
/* Rank-1 test: if k == col * row^T (within rounding), fills col and row. */
gboolean cf_kernel_separate (const double *k, int width, int height,
    double *col, double *row);

G_END_DECLS
#endif /* CF_SPEC_H */
