/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: where the samples of a frame are.  A layout lists the
 * planes and, per channel, whether it is filtered, copied or filled.  The
 * element derives it from GstVideoInfo; engine users can build one for
 * interleaved images with cf_layout_init_interleaved(). */
#ifndef CF_LAYOUT_H
#define CF_LAYOUT_H

#include <glib.h>
#include "cf-types.h"

G_BEGIN_DECLS

typedef struct
{
  int sample_bytes;             /* 1 (8-bit samples) or 2 (deeper) */
  int depth;                    /* bits of the filtered samples; 0: 8 *
                                 * sample_bytes (cf_layout_depth) */
  int n_planes;
  int plane_row_bytes[CF_MAX_PLANES];   /* bytes of samples in a row */
  int plane_height[CF_MAX_PLANES];      /* rows */
  int n_channels;
  CfChannel channels[CF_MAX_CHANNELS];
  /* Packed RGB: the first three filtered channels of a plane are one
   * pixel's colour (the bilateral's colour distance spans them). */
  int colour;
} CfLayout;

/* Plane pointers and strides (bytes) of one frame, in or out.  With
 * `on_device` set (CUDA backend only) the planes are device pointers in the
 * context current on the calling thread, each pitched as `stride` says, and
 * the backend reads or writes them in place instead of copying through the
 * host; zero (host memory) keeps plain initialisers valid.  `wait_stream`,
 * when set for a device frame, is the CUDA stream (cudaStream_t) of that
 * context that orders work on the planes: the backend's own stream waits
 * for the work queued on it before touching them, and for an output the
 * stream is in turn ordered after the writes, so whoever synchronises
 * with it sees the frame; the host waits for neither. */
typedef struct
{
  guint8 *data[CF_MAX_PLANES];
  int stride[CF_MAX_PLANES];
  int on_device;
  void *wait_stream;
} CfFrame;

/* One plane of width x height pixels with `samples` interleaved samples of
 * sample_bytes each; channel c is filtered when bit c of filter_mask is set,
 * else copied.  Three or more samples are a colour (CfLayout.colour). */
void cf_layout_init_interleaved (CfLayout * layout, int width, int height,
    int samples, int sample_bytes, guint filter_mask);

/* Appends a channel job of plain samples (words of sample_bytes, all bits
 * used); returns FALSE when the layout is full. */
gboolean cf_layout_add_channel (CfLayout * layout, CfChannelMode mode,
    int plane, int width, int height, int pixel_stride, int offset,
    int fill_value);

/* Sets how the samples of the last channel added sit in their words (see
 * CfChannel); FALSE for an encoding the backends cannot read. */
gboolean cf_layout_set_encoding (CfLayout * layout, int word_bytes,
    int depth, int shift, gboolean shared_word);

/* For each channel c, groups[c] the channels whose samples form its colour
 * (three for packed RGB, see CfLayout.colour) or only c, unused ones -1.
 * Returns the largest group's size. */
int cf_layout_colour_groups (const CfLayout * layout,
    int groups[CF_MAX_CHANNELS][3]);

/* The depth filter specs are built for (cf_spec_new_for_depth). */
int cf_layout_depth (const CfLayout * layout);

G_END_DECLS
#endif /* CF_LAYOUT_H */
