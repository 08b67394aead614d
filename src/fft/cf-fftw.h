/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: FFTW 3 (double precision), loaded at run time.  The
 * plugin loads without it; the CPU backend's FFT path runs where
 * libfftw3 can be opened, and every kernel takes the direct path
 * elsewhere.  Only in builds with FFTW (HAVE_FFTW). */
#ifndef CF_FFTW_H
#define CF_FFTW_H

#include <glib.h>
#include <fftw3.h>

G_BEGIN_DECLS

/* The entry points the CPU FFT convolution calls, with fftw3.h's
 * signatures. */
typedef struct
{
  __typeof__ (fftw_plan_dft_r2c_2d) *plan_r2c_2d;
  __typeof__ (fftw_plan_dft_c2r_2d) *plan_c2r_2d;
  __typeof__ (fftw_execute_dft_r2c) *execute_r2c;
  __typeof__ (fftw_execute_dft_c2r) *execute_c2r;
  __typeof__ (fftw_destroy_plan) *destroy_plan;
  __typeof__ (fftw_malloc) *malloc;
  __typeof__ (fftw_free) *free;
} CfFftw;

/* Opens FFTW once per process: CUDAFILTER_FFTW (a file name or path) when
 * set, else libfftw3.so.3 and libfftw3.so on the loader's path.  NULL
 * when none loads; *why (may be NULL) then says what was tried, and the
 * library as loaded otherwise. */
const CfFftw *cf_fftw_get (const char **why);

/* FFTW's planner is not thread-safe (only executing plans is): every
 * plan is made and destroyed between these. */
void cf_fftw_lock (void);
void cf_fftw_unlock (void);

G_END_DECLS
#endif /* CF_FFTW_H */
