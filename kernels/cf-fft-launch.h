/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: launchers of the FFT convolution's device steps (the
 * transforms themselves are cuFFT's, driven by src/fft/cf-fft.c).  Tiles are
 * fft_w x fft_h doubles, one after another; spectra fft_h x (fft_w / 2 + 1)
 * complex values, as cuFFT's D2Z writes them.  Every launcher takes an
 * explicit stream and returns a cudaError_t. */
#ifndef CF_FFT_LAUNCH_H
#define CF_FFT_LAUNCH_H

#include <cuda_runtime_api.h>
#include "cf-launch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fills `count` tiles from tile `first` on: the channel's samples around
 * each tile's outputs, border-mapped, minus t->centre; tiles past
 * t->n_tiles are zeroed. */
cudaError_t cf_fft_launch_pad (const CfDeviceFrame * frame,
    const CfKernelParams * kp, const CfFftTiles * t, int first, int count,
    double *tiles, cudaStream_t stream);

/* Places the kp->kh x kp->kw weights (device) in one fft_w x fft_h plane
 * so that circular convolution with it is the correlation the direct
 * kernel computes, each weight times `scale`. */
cudaError_t cf_fft_launch_weights (const int *dense, int kw, int kh,
    int fft_w, int fft_h, double scale, double *plane, cudaStream_t stream);

/* spectra[i][k] *= kernel[k] for `count` spectra of n values. */
cudaError_t cf_fft_launch_multiply (double2 * spectra, const double2 * kernel,
    int n, int count, cudaStream_t stream);

/* Rounds the outputs of `count` tiles from `first` on to integer sums,
 * adds t->centre_sum and stores cf_post () of them, as the direct kernel. */
cudaError_t cf_fft_launch_store (const CfDeviceFrame * frame,
    const CfKernelParams * kp, const CfFftTiles * t, int first, int count,
    const double *tiles, cudaStream_t stream);

/* The COPY and FILL jobs of `frame` (FILTER jobs are left alone). */
cudaError_t cf_fft_launch_copy (const CfDeviceFrame * frame,
    int sample_bytes, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif /* CF_FFT_LAUNCH_H */
