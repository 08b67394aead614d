/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: the fast CPU backend's FFT convolution of large dense
 * kernels, with FFTW in double precision.  The tiles, their error bound and
 * the rounding are the GPU path's (cf-fft-plan.c): the bytes are the direct
 * path's wherever it is taken.  Only in builds with FFTW (HAVE_FFTW). */
#ifndef CF_CPU_FFT_H
#define CF_CPU_FFT_H

#include <glib.h>
#include "cf-spec.h"
#include "cf-layout.h"
#include "cf-fft-plan.h"
#include "cf-cpu-plan.h"

G_BEGIN_DECLS

/* The direct path's cost is its terms per sample (mirrored equal weights
 * paired: a symmetric 7x7 Laplacian has 25, a random 7x7 matrix 49), more
 * for 64-bit sums; `auto` takes the FFT path from this cost on: where one
 * thread's FFT time first drops below the direct row kernels' for 1080p
 * RGBA and GRAY8, measured by bench/cpu-fft-crossover.sh (see
 * bench/README.md).  Update it from that script's output. */
#define CF_CPU_FFT_CROSSOVER_COST 36

/* The cost above for a direct plan of a dense kernel. */
int cf_cpu_fft_direct_cost (const CfCpuPlan * direct);

/* Largest transform side: a tile and its spectrum (8 MB at 512 x 512)
 * stay in the caches of one core. */
#define CF_CPU_FFT_MAX_SIDE 512

typedef struct _CfCpuFft CfCpuFft;

/* The FFT path for one (spec, layout), plans made, when `method` sends it
 * there (`auto`: when the direct plan costs more than the crossover) and
 * the error bound holds; NULL for the direct path, with *why (may be NULL;
 * a static string) saying why. */
CfCpuFft *cf_cpu_fft_new (CfConvMethod method, const CfSpec * spec,
    const CfLayout * layout, const CfCpuPlan * direct, const char **why);
void cf_cpu_fft_free (CfCpuFft * fft);

/* Buffers for n_parts parts run at once: made here, not per frame. */
void cf_cpu_fft_reserve (CfCpuFft * fft, int n_parts);

/* Part `index` of n_parts (at most the reserved count) of one frame:
 * its share of the tiles, and of the rows of copied and filled channels.
 * Parts write disjoint samples (layouts with shared words never come
 * here). */
void cf_cpu_fft_run (CfCpuFft * fft, const CfFrame * in, const CfFrame * out,
    int index, int n_parts);

/* "FFT overlap-save (FFTW), 31x31 taps in 256x240 tiles" */
const char *cf_cpu_fft_describe (const CfCpuFft * fft);

G_END_DECLS
#endif /* CF_CPU_FFT_H */
