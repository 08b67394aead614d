/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: cuFFT, loaded at run time.  The plugin needs only the
 * NVIDIA driver to load; the FFT path runs where a cuFFT library can be
 * opened, and every kernel takes the direct path elsewhere.  Only in builds
 * with cuFFT (HAVE_CUFFT). */
#ifndef CF_CUFFT_H
#define CF_CUFFT_H

#include <glib.h>
#include <cufft.h>

G_BEGIN_DECLS

/* The entry points the FFT convolution calls, with cufft.h's signatures. */
typedef struct
{
  __typeof__ (cufftCreate) *create;
  __typeof__ (cufftDestroy) *destroy;
  __typeof__ (cufftSetAutoAllocation) *set_auto_allocation;
  __typeof__ (cufftMakePlanMany) *make_plan_many;
  __typeof__ (cufftSetWorkArea) *set_work_area;
  __typeof__ (cufftSetStream) *set_stream;
  __typeof__ (cufftExecD2Z) *exec_d2z;
  __typeof__ (cufftExecZ2D) *exec_z2d;
} CfCufft;

/* Opens cuFFT once per process: CUDAFILTER_CUFFT (a file name or path)
 * when set, else libcufft.so.12, .so.11 and .so on the loader's path, then
 * in $CUDA_PATH, $CUDA_HOME and the build's toolkit.  NULL when none
 * loads; *why (may be NULL) then says what was tried, and the library as
 * loaded otherwise. */
const CfCufft *cf_cufft_get (const char **why);

G_END_DECLS
#endif /* CF_CUFFT_H */
