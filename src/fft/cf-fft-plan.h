/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: when a dense kernel is convolved through FFTs, and on
 * which tiles.  Plain arithmetic (no CUDA), so it is unit-tested anywhere;
 * src/fft/cf-fft.c runs what it decides. */
#ifndef CF_FFT_PLAN_H
#define CF_FFT_PLAN_H

#include <glib.h>
#include "cf-spec.h"

G_BEGIN_DECLS

typedef enum
{
  CF_CONV_AUTO = 0,             /* FFT from CF_FFT_CROSSOVER_AREA taps */
  CF_CONV_DIRECT,               /* never FFT */
  CF_CONV_FFT                   /* FFT wherever it is exact */
} CfConvMethod;

/* Kernel area (kw * kh) from which `auto` convolves dense kernels through
 * FFTs.  It is the crossover measured by bench/fft-crossover.sh (see
 * bench/README.md): where the FFT time first drops below the direct
 * kernel's for 4K RGBA and GRAY8.  Update it from that script's output.
 * Measured on an H200: from 23x23 on, for both formats (bench/README.md). */
#define CF_FFT_CROSSOVER_AREA 529

/* The FFT path is taken only where the worst-case error of every integer
 * sum stays below this (rounding recovers the exact sum below 0.5; the
 * factor 8 is margin on top of an already pessimistic bound). */
#define CF_FFT_MAX_ERROR (1.0 / 16.0)

/* Device bytes of tiles (real and complex) one transform batch may use;
 * larger frames run in several batches. */
#define CF_FFT_BATCH_BYTES ((gsize) 128 << 20)

/* Largest transform side considered. */
#define CF_FFT_MAX_SIDE 4096

typedef struct
{
  CfFftTiles tiles;             /* what the kernels need */
  int batch;                    /* tiles per transform batch */
  double bound;                 /* worst-case error of a sum */
} CfFftGeometry;

/* "auto", "direct" or "fft" (case-insensitive; NULL or "" is auto). */
gboolean cf_conv_method_parse (const char *text, CfConvMethod * method);
const char *cf_conv_method_name (CfConvMethod method);
/* The method the environment variable `name` gives (auto when unset);
 * another value warns and gives auto. */
CfConvMethod cf_conv_method_from_env (const char *name);

/* n has no prime factor above 7 (cuFFT's fast radices). */
gboolean cf_fft_size_is_smooth (int n);
/* The smallest even 7-smooth size >= n. */
int cf_fft_next_size (int n);

/* Worst-case error of a sum computed through real FFTs of fft_w x fft_h,
 * samples of magnitude <= amplitude and weights with sum |w| = sum_abs. */
double cf_fft_error_bound (int fft_w, int fft_h, double amplitude,
    double sum_abs);

/* Bytes of one tile on the device: its real plane and its half spectrum. */
gsize cf_fft_tile_bytes (int fft_w, int fft_h);

/* Whether a spec's arithmetic can go through FFTs at all: one dense
 * kernel whose post step only reads the sum (LINEAR or ABS). */
gboolean cf_fft_spec_eligible (const CfSpec * spec);

/* Picks the cheapest tiling of the channel jobs whose error bound stays
 * below CF_FFT_MAX_ERROR; FALSE if none does. */
gboolean cf_fft_plan_geometry (const CfSpec * spec, const CfChannel * channels,
    int n_channels, CfFftGeometry * geom);

/* The same with transform sides of at most max_side (the CPU path keeps
 * its tiles in cache). */
gboolean cf_fft_plan_geometry_max (const CfSpec * spec,
    const CfChannel * channels, int n_channels, int max_side,
    CfFftGeometry * geom);

/* The decision for one spec and layout: TRUE (with geom filled) when
 * `method` sends it through FFTs. */
gboolean cf_fft_decide (CfConvMethod method, const CfSpec * spec,
    const CfChannel * channels, int n_channels, CfFftGeometry * geom);

G_END_DECLS
#endif /* CF_FFT_PLAN_H */
