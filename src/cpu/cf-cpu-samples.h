/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: how the fast CPU backend reads and writes samples.
 * Every sample it touches goes through this one pair of functions, so a new
 * sample encoding is a change here only.  Compiled into each instruction-set
 * variant of the row kernels (cf-cpu-rows.c). */
#ifndef CF_CPU_SAMPLES_H
#define CF_CPU_SAMPLES_H

#include <glib.h>
#include "cf-types.h"
#include "cf-sample.h"

/* Whether every channel holds whole words of sample_bytes (8-bit, GRAY16,
 * RGBA64...); deeper-than-stored, shifted or shared words (P010, I420_10LE
 * at 10 of 16 bits, RGB10A2) go through kernels/cf-sample.h instead. */
static inline gboolean
cf_cpu_samples_plain (const CfChannel * const *chs, int nc, int sample_bytes)
{
  int c;

  for (c = 0; c < nc; c++)
    if (!cf_sample_is_plain (chs[c], sample_bytes))
      return FALSE;
  return TRUE;
}

/* Whether the nc channels fill their pixels back to back (RGBA, RGB, GRAY,
 * an NV12 chroma pair...): then a run of pixels is a run of samples. */
static inline gboolean
cf_cpu_samples_contiguous (const CfChannel * const *chs, int nc,
    int sample_bytes)
{
  int c;

  if (chs[0]->pixel_stride != nc * sample_bytes)
    return FALSE;
  for (c = 1; c < nc; c++)
    if (chs[c]->offset != chs[0]->offset + c * sample_bytes)
      return FALSE;
  return TRUE;
}

/* Loads pixels x0 .. x0 + n - 1 of the nc channels chs[] (one plane, one
 * pixel stride) from `row`, the start of a row of their plane:
 * channel c of pixel i goes to dst[i * nc + c]. */
static inline void
cf_cpu_load_run (const CfChannel * const *chs, int nc, int sample_bytes,
    const guint8 * row, int x0, int n, gint32 * restrict dst)
{
  const int ps = chs[0]->pixel_stride;
  int c, i;

  if (!cf_cpu_samples_plain (chs, nc, sample_bytes)) {
    for (c = 0; c < nc; c++) {
      const guint8 *s = row + (gsize) x0 * ps + chs[c]->offset;

      for (i = 0; i < n; i++)
        dst[(gsize) i * nc + c] = cf_sample_read (s + (gsize) i * ps, chs[c]);
    }
    return;
  }
  if (cf_cpu_samples_contiguous (chs, nc, sample_bytes)) {
    const guint8 *s = row + (gsize) x0 * ps + chs[0]->offset;

    if (sample_bytes == 1) {
      for (i = 0; i < n * nc; i++)
        dst[i] = s[i];
    } else {
      const guint16 *s16 = (const guint16 *) s;

      for (i = 0; i < n * nc; i++)
        dst[i] = s16[i];
    }
    return;
  }
  for (c = 0; c < nc; c++) {
    const guint8 *s = row + (gsize) x0 * ps + chs[c]->offset;

    for (i = 0; i < n; i++)
      dst[(gsize) i * nc + c] = sample_bytes == 1 ? s[(gsize) i * ps]
          : *(const guint16 *) (s + (gsize) i * ps);
  }
}

/* Stores src[i * nc + c] (already in the sample range) as channel c of
 * pixels x0 .. x0 + n - 1 in `row`. */
static inline void
cf_cpu_store_run (const CfChannel * const *chs, int nc, int sample_bytes,
    guint8 * row, int x0, int n, const gint32 * restrict src)
{
  const int ps = chs[0]->pixel_stride;
  int c, i;

  if (!cf_cpu_samples_plain (chs, nc, sample_bytes)) {
    for (c = 0; c < nc; c++) {
      guint8 *d = row + (gsize) x0 * ps + chs[c]->offset;

      for (i = 0; i < n; i++)
        cf_sample_write (d + (gsize) i * ps, chs[c], src[(gsize) i * nc + c]);
    }
    return;
  }
  if (cf_cpu_samples_contiguous (chs, nc, sample_bytes)) {
    guint8 *d = row + (gsize) x0 * ps + chs[0]->offset;

    if (sample_bytes == 1) {
      for (i = 0; i < n * nc; i++)
        d[i] = (guint8) src[i];
    } else {
      guint16 *d16 = (guint16 *) d;

      for (i = 0; i < n * nc; i++)
        d16[i] = (guint16) src[i];
    }
    return;
  }
  for (c = 0; c < nc; c++) {
    guint8 *d = row + (gsize) x0 * ps + chs[c]->offset;

    for (i = 0; i < n; i++) {
      if (sample_bytes == 1)
        d[(gsize) i * ps] = (guint8) src[(gsize) i * nc + c];
      else
        *(guint16 *) (d + (gsize) i * ps) = (guint16) src[(gsize) i * nc + c];
    }
  }
}

#endif /* CF_CPU_SAMPLES_H */
