/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: launchers of the region kernels (cf-region.cu): compositing
 * the input back where regions leave a frame unfiltered, and pixelate. */
#ifndef CF_REGION_LAUNCH_H
#define CF_REGION_LAUNCH_H

#include "cf-launch.h"
#include "cf-region-types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The rectangles of a frame (frame pixels) and each channel job's
 * subsampling, by value: the kernel maps them onto each channel's samples
 * rounded outward (floor(x / sx) .. ceil((x + w) / sx) - 1). */
typedef struct
{
  int n_rects;
  int inside;                   /* 1: filtered inside the rectangles */
  int sx[CF_MAX_CHANNELS], sy[CF_MAX_CHANNELS];
  CfRect rects[CF_MAX_RECTS];
} CfRegionArgs;

/* Copies the input samples (whole words) of every channel job that the
 * regions leave unfiltered from frame->src to frame->dst. */
cudaError_t cf_launch_region_composite (const CfDeviceFrame * frame,
    const CfRegionArgs * args, cudaStream_t stream);

/* One rectangle per channel job (in its samples; w or h 0: none) cut into
 * blocks of bx x by samples from its top-left corner. */
typedef struct
{
  CfRect rect[CF_MAX_CHANNELS];
  int bx[CF_MAX_CHANNELS], by[CF_MAX_CHANNELS];
} CfPixelateArgs;

/* Writes into frame->dst, for every filtered channel job, each block's
 * round-half-up mean of its samples of frame->src (blocks cut by the
 * rectangle's edge average what they cover); copied channels are copied
 * and filled ones filled in the rectangle.  Nothing else is written. */
cudaError_t cf_launch_pixelate (const CfDeviceFrame * frame,
    const CfPixelateArgs * args, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif /* CF_REGION_LAUNCH_H */
