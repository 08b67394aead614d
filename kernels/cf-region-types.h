/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: plain region types shared by the engine (gcc) and the region
 * kernels (nvcc). */
#ifndef CF_REGION_TYPES_H
#define CF_REGION_TYPES_H

#ifdef __cplusplus
extern "C" {
#endif

/* Most rectangles one frame carries into a launch (by value). */
#define CF_MAX_RECTS 64

/* A rectangle: in frame pixels, or in a channel's samples. */
typedef struct
{
  int x, y, w, h;
} CfRect;

#ifdef __cplusplus
}
#endif
#endif /* CF_REGION_TYPES_H */
