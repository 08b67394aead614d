/* cudafilter engine: how the fast CPU backend reads and writes samples.
 * Every sample it touches goes through this one pair of functions, so a new
 * sample encoding is a change here only.  Compiled into each instruction-set
 * variant of the row kernels (cf-cpu-rows.c). */
#ifndef CF_CPU_SAMPLES_H
#define CF_CPU_SAMPLES_H

#include <glib.h>
#include <string.h>
#include "cf-types.h"

/* Loads samples x0 .. x0 + n - 1 of channel `ch` from `row` (the start of
 * one row of its plane) into dst[0], dst[dst_stride], ...  The constant
 * strides of the common layouts are spelled out so the compiler can
 * vectorise them. */
#define CF_LOAD_LOOP(T, ps, ds) do { \
    const guint8 *s_ = row + (gsize) x0 * (ps) + ch->offset; \
    for (i = 0; i < n; i++) \
      dst[(gsize) i * (ds)] = *(const T *) (s_ + (gsize) i * (ps)); \
  } while (0)

static inline void
cf_cpu_load_run (const CfChannel * ch, int sample_bytes,
    const guint8 * row, int x0, int n, gint32 * restrict dst, int dst_stride)
{
  int i, ps = ch->pixel_stride;

  if (sample_bytes == 1) {
    if (ps == 1 && dst_stride == 1)
      CF_LOAD_LOOP (guint8, 1, 1);
    else if (ps == 4 && dst_stride == 4)
      CF_LOAD_LOOP (guint8, 4, 4);
    else if (ps == 4 && dst_stride == 3)
      CF_LOAD_LOOP (guint8, 4, 3);
    else if (ps == 3 && dst_stride == 3)
      CF_LOAD_LOOP (guint8, 3, 3);
    else
      CF_LOAD_LOOP (guint8, ps, dst_stride);
  } else {
    if (ps == 2 && dst_stride == 1)
      CF_LOAD_LOOP (guint16, 2, 1);
    else
      CF_LOAD_LOOP (guint16, ps, dst_stride);
  }
}

/* Stores src[0], src[src_stride], ... (already in the sample range) as
 * samples x0 .. x0 + n - 1 of channel `ch` in `row`. */
#define CF_STORE_LOOP(T, ps, ss) do { \
    guint8 *d_ = row + (gsize) x0 * (ps) + ch->offset; \
    for (i = 0; i < n; i++) \
      *(T *) (d_ + (gsize) i * (ps)) = (T) src[(gsize) i * (ss)]; \
  } while (0)

static inline void
cf_cpu_store_run (const CfChannel * ch, int sample_bytes, guint8 * row,
    int x0, int n, const gint32 * restrict src, int src_stride)
{
  int i, ps = ch->pixel_stride;

  if (sample_bytes == 1) {
    if (ps == 1 && src_stride == 1)
      CF_STORE_LOOP (guint8, 1, 1);
    else if (ps == 4 && src_stride == 4)
      CF_STORE_LOOP (guint8, 4, 4);
    else if (ps == 4 && src_stride == 3)
      CF_STORE_LOOP (guint8, 4, 3);
    else if (ps == 3 && src_stride == 3)
      CF_STORE_LOOP (guint8, 3, 3);
    else
      CF_STORE_LOOP (guint8, ps, src_stride);
  } else {
    if (ps == 2 && src_stride == 1)
      CF_STORE_LOOP (guint16, 2, 1);
    else
      CF_STORE_LOOP (guint16, ps, src_stride);
  }
}

#undef CF_LOAD_LOOP
#undef CF_STORE_LOOP
#endif /* CF_CPU_SAMPLES_H */
