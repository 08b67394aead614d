/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: FFT convolution of dense kernels with cuFFT.  One
 * CfFft belongs to one stream (a CUDA backend slot): it keeps the plans,
 * tile buffers and the kernel's spectrum of the last spec and frame
 * geometry it ran, and makes them again only when those change.  Only in
 * builds with cuFFT (HAVE_CUFFT). */
#ifndef CF_FFT_H
#define CF_FFT_H

#include <glib.h>
#include <cuda_runtime_api.h>
#include "cf-launch.h"
#include "cf-fft-plan.h"

G_BEGIN_DECLS

typedef struct _CfFft CfFft;

/* NULL when no cuFFT library loads (cf_cufft_get ()): the caller then
 * runs the direct kernel. */
CfFft *cf_fft_new (void);
/* Waits for nothing: the caller has synchronised the stream it used. */
void cf_fft_free (CfFft * fft);

/* Whether `method` sends `spec` on these channel jobs through the FFT
 * (cf_fft_decide, remembered for the last spec and geometry). */
gboolean cf_fft_wanted (CfFft * fft, CfConvMethod method,
    const CfSpec * spec, const CfDeviceFrame * frame);

/* Queues the whole frame on `stream` (all channel jobs, FILTER through the
 * FFT, COPY and FILL as the direct kernel writes them); call it only when
 * cf_fft_wanted () said so for the same arguments.  `dense` holds the
 * spec's weights on the device, as for cf_launch_filter (). */
gboolean cf_fft_filter (CfFft * fft, const CfSpec * spec, const int *dense,
    const CfDeviceFrame * frame, cudaStream_t stream, GError ** error);

G_END_DECLS
#endif /* CF_FFT_H */
