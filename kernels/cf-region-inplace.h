/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: regions of a device frame filtered in place in one launch
 * (cf-region-inplace.cu).  The regions are cut into tiles, a block each,
 * in order; a block keeps the samples of its tile that later
 * tiles read (its bottom rows and right columns) in a strip, and reads
 * the earlier tiles' from theirs once they have read the frame.  No
 * block waits for a later one, so every launch finishes whatever the GPU
 * runs beside it, and no copy of the frame or second launch is needed. */
#ifndef CF_REGION_INPLACE_H
#define CF_REGION_INPLACE_H

#include "cf-launch.h"
#include "cf-region-types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most (channel job, rectangle) pairs a launch takes by value. */
#define CF_INPLACE_MAX_ENTRIES 48

/* One rectangle of one channel job, in its samples, cut into tiles_x
 * columns of tiles numbered from `first`, row-major. */
typedef struct
{
  int job;
  int x, y, w, h;
  int tiles_x;
  int first;
} CfInplaceEntry;

/* What a frame's launch takes, worked out before anything is queued. */
typedef struct
{
  int n_entries;
  CfInplaceEntry entries[CF_INPLACE_MAX_ENTRIES];
  int n_tiles;
  int strip_w, strip_h;         /* right columns and bottom rows kept */
  int strip_len;                /* samples of a tile's strip */
  size_t flag_bytes;            /* a word a tile */
  size_t strip_bytes;
} CfInplacePlan;

/* Plans the filter `kp` over `rects[i]` (channel job jobs[i]'s samples;
 * filtered or filled jobs only) of the frame's `channels`, on a device
 * with `optin` bytes of shared memory a block (no device is asked: what a
 * plan takes is testable without one).  cudaErrorNotSupported when this
 * launch cannot take it (weights the parameters do not carry, a reach
 * past a tile or one that would more than double the samples a tile
 * reads, regions whose reach meets another region, too many rectangles, a
 * tile too large for the shared memory): filter the regions another way. */
cudaError_t cf_region_inplace_plan (CfInplacePlan * plan,
    const CfChannel * channels, int n_channels, const CfKernelParams * kp,
    const int *jobs, const CfRect * rects, int n_rects, int optin);

/* Queues the planned launch on `stream` over `frame` (src and dst the
 * same planes).  `flags` (plan->flag_bytes, zeroed when made) and `strips`
 * (plan->strip_bytes) belong to this stream; `epoch` counts the launches
 * on `flags` from 1 up: the caller zeroes `flags` again before it wraps. */
cudaError_t cf_region_inplace_run (const CfInplacePlan * plan,
    const CfDeviceFrame * frame, const CfKernelParams * kp,
    const CfSepWeights * sep, const int *dense, unsigned *flags,
    unsigned short *strips, unsigned epoch, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif /* CF_REGION_INPLACE_H */
