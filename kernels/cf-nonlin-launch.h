/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the launcher C ABI of the nonlinear operations (median,
 * morphology, bilateral): a spec's program of passes (CfNonlin) on one
 * frame, on an explicit stream. */
#ifndef CF_NONLIN_LAUNCH_H
#define CF_NONLIN_LAUNCH_H

#include "cf-launch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of device scratch the program needs for the frame's channels. */
size_t cf_nonlin_scratch_bytes (const CfDeviceFrame * frame,
    const CfNonlin * nl);

/* Runs every pass of `nl` over the frame's channel jobs: `table` is a
 * device copy of the spec's nl->n_table ints (NULL when none), `scratch`
 * cf_nonlin_scratch_bytes () of device memory, `groups` each channel's
 * colour (cf_layout_colour_groups). */
cudaError_t cf_nonlin_run (const CfDeviceFrame * frame,
    const CfKernelParams * kp, const CfNonlin * nl, const int *table,
    const int groups[CF_MAX_CHANNELS][3], unsigned short *scratch,
    cudaStream_t stream);

/* The whole-row kernel (kernels/cf-nonlin-bytes.cu) that runs a frame's
 * program in one launch, or NONE when the tiled kernels run it. */
typedef enum
{
  CF_NL_WHOLE_ROWS_NONE,
  CF_NL_WHOLE_ROWS_MINMAX,      /* a min or max within 3x3 */
  CF_NL_WHOLE_ROWS_MEDIAN3,
  CF_NL_WHOLE_ROWS_MEDIAN5      /* planes of one sample a pixel */
} CfNlWholeRows;

/* Which whole-row kernel cf_nonlin_run gives the frame (its channels,
 * plane addresses and strides) and program: a host decision, no device
 * needed. */
CfNlWholeRows cf_nonlin_whole_rows (const CfDeviceFrame * frame,
    const CfNonlin * nl);

/* Whether cf_nonlin_run gives the frame's program to the rectangles'
 * plane kernels (kernels/cf-nonlin-rect.cu): a host decision, no device
 * needed. */
int cf_nonlin_rect_planes (const CfDeviceFrame * frame, const CfNonlin * nl);

#ifdef __cplusplus
}
#endif
#endif /* CF_NONLIN_LAUNCH_H */
