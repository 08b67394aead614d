/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: the fast CPU backend's row kernels.  This file is
 * compiled once per instruction set (CF_CPU_VARIANT names the variant:
 * portable, avx2, avx512); the backend picks one at run time.  The sums
 * are exact in every variant (cf-cpu-plan.c picks the accumulator), so all
 * variants and the reference backend give the same bytes.
 *
 * Built with -ffp-contract=fast: the float sums hold integers below 2^24
 * (or 2^53), exact whether or not a multiply and an add fuse; the post
 * operations round through cf-arith.h's explicit fmaf/rintf/sqrtf. */
#include "cf-cpu-plan.h"
#include "cf-cpu-samples.h"
#include "cf-arith.h"
#include <string.h>

#define CF_CAT_(a, b) a ## b
#define CF_CAT(a, b) CF_CAT_ (a, b)

/* cf_saturate_float() for a finite rounded value, without branches. */
static inline int
cf_cpu_saturate (float v, float maxf)
{
  v = v > 0.0f ? v : 0.0f;
  return (int) (v < maxf ? v : maxf);
}

#define CF_CPU_PREFETCH_ROWS 4

/* Expanded columns ex0 .. ex0 + n - 1 of row `sy` (-1: the constant
 * border) of the group's channels into `dst`, interleaved: the part inside
 * the frame as one run, border columns a pixel at a time. */
static void
load_cols (const CfCpuPlan * plan, const CfCpuGroup * g, const CfFrame * in,
    int sy, int ex0, int n, gint32 * restrict dst)
{
  const CfKernelParams *kp = &plan->kp;
  const int nc = g->nc, sb = kp->sample_bytes, bv = kp->border_value;
  const int lo = MAX (ex0, kp->ax), hi = MIN (ex0 + n, kp->ax + g->width);
  const guint8 *row;
  int c, ex;

  if (sy < 0) {
    for (ex = 0; ex < n * nc; ex++)
      dst[ex] = bv;
    return;
  }
  row = in->data[g->plane] + (gsize) sy * in->stride[g->plane];
  if (lo < hi) {
    const guint8 *ahead = row + (gsize) CF_CPU_PREFETCH_ROWS *
        in->stride[g->plane] + (gsize) (lo - kp->ax) * g->chs[0]->pixel_stride;
    gsize len = (gsize) (hi - lo) * g->chs[0]->pixel_stride, i;

    /* Strips read a piece of each row, too short for the hardware to
     * stream ahead: ask for the rows to come.  Reading past the frame is
     * harmless for a prefetch, never faults. */
    if (sy + CF_CPU_PREFETCH_ROWS < g->height)
      for (i = 0; i < len; i += 64)
        __builtin_prefetch (ahead + i);
    cf_cpu_load_run (g->chs, nc, sb, row, lo - kp->ax, hi - lo,
        dst + (lo - ex0) * nc);
  }
  for (ex = ex0; ex < ex0 + n; ex++) {
    gint32 *d = dst + (ex - ex0) * nc;

    if (ex == lo && lo < hi)
      ex = hi - 1;
    else if (g->xmap[ex] < 0)
      for (c = 0; c < nc; c++)
        d[c] = bv;
    else
      cf_cpu_load_run (g->chs, nc, sb, row, g->xmap[ex], 1, d);
  }
}

/* Stores pixels [px, px + np) of an output row from src (interleaved,
 * starting at pixel px); copied lanes take their source samples from
 * `centre` (the source row, the same way) first. */
static void
store_pixels (const CfCpuPlan * plan, const CfCpuGroup * g,
    const CfFrame * out, int y, int px, int np, gint32 * restrict src,
    const gint32 * restrict centre)
{
  guint8 *row = out->data[g->plane] + (gsize) y * out->stride[g->plane];
  int i;

  if (g->copy_lanes) {
    const gint32 *keep = g->keep;

    /* keep[] is -1 on copied lanes, period nc: a blend that vectorises. */
    for (i = 0; i < np * g->nc; i++)
      src[i] = (src[i] & ~keep[i]) | (centre[i] & keep[i]);
  }
  cf_cpu_store_run (g->chs, g->nc, plan->kp.sample_bytes, row, px, np, src);
}

/* Copied and filled channels, through the same load and store. */
static void
band_copy (const CfCpuPlan * plan, const CfCpuGroup * g, const CfFrame * in,
    const CfFrame * out, int y0, int y1, guint8 * scratch)
{
  const CfChannel *ch = g->chs[0];
  gint32 *orow = (gint32 *) (scratch + plan->off_out);
  int px, x, y;

  for (px = 0; px < g->width; px += CF_CPU_STRIP) {
    int np = MIN (CF_CPU_STRIP, g->width - px);

    for (x = 0; x < np; x++)
      orow[x] = ch->fill_value;
    for (y = y0; y < y1; y++) {
      if (ch->mode != CF_CHANNEL_FILL)
        cf_cpu_load_run (g->chs, 1, plan->kp.sample_bytes,
            in->data[g->plane] + (gsize) y * in->stride[g->plane], px, np,
            orow);
      store_pixels (plan, g, out, y, px, np, orow, NULL);
    }
  }
}

/* 32-bit floats: integer sums below 2^24, finished in 32-bit integers. */
#define CF_ACC float
#define CF_WIDE int
#define CF_SFX f32
#define CF_TO_FLOAT(a, g) ((a) * (float) (g))
#define CF_SUM_IN_FN sum_in_f32
#define CF_SUM_ACC_FN sum_acc_f32
#include "cf-cpu-band.inc"
#undef CF_ACC
#undef CF_WIDE
#undef CF_SFX
#undef CF_TO_FLOAT
#undef CF_SUM_IN_FN
#undef CF_SUM_ACC_FN

#include "cf-cpu-band8.inc"

/* Doubles: integer sums below 2^53. */
#define CF_ACC double
#define CF_WIDE long long
#define CF_SFX f64
#define CF_TO_FLOAT(a, g) CF_LL2F ((long long) (a) * (g))
#define CF_SUM_IN_FN sum_in_f64
#define CF_SUM_ACC_FN sum_acc_f64
#include "cf-cpu-band.inc"
#undef CF_ACC
#undef CF_WIDE
#undef CF_SFX
#undef CF_TO_FLOAT
#undef CF_SUM_IN_FN
#undef CF_SUM_ACC_FN

/* 64-bit integers: everything else. */
#define CF_ACC gint64
#define CF_WIDE long long
#define CF_SFX i64
#define CF_TO_FLOAT(a, g) CF_LL2F ((long long) (a) * (g))
#define CF_SUM_IN_FN sum_in_i64
#define CF_SUM_ACC_FN sum_acc_i64
#include "cf-cpu-band.inc"
#undef CF_ACC
#undef CF_WIDE
#undef CF_SFX
#undef CF_TO_FLOAT
#undef CF_SUM_IN_FN
#undef CF_SUM_ACC_FN

void
CF_CAT (cf_cpu_band_, CF_CPU_VARIANT) (const CfCpuPlan * plan,
    const CfCpuGroup * g, const CfFrame * in, const CfFrame * out, int y0,
    int y1, guint8 * scratch)
{
  gboolean sep = plan->kp.separable;

  if (y0 >= y1)
    return;
  if (g->mode != CF_CHANNEL_FILTER) {
    band_copy (plan, g, in, out, y0, y1, scratch);
    return;
  }
  switch (plan->acc) {
    case CF_CPU_ACC_F32:
      if (g->bytes && plan->sum16[0] && (plan->n_kernels == 1
              || plan->sum16[1])) {
        (sep ? band_separable_8 : band_dense_8) (plan, g, in, out, y0, y1,
            scratch);
        break;
      }
      (sep ? band_separable_f32 : band_dense_f32) (plan, g, in, out, y0, y1,
          scratch);
      break;
    case CF_CPU_ACC_F64:
      (sep ? band_separable_f64 : band_dense_f64) (plan, g, in, out, y0, y1,
          scratch);
      break;
    default:
      (sep ? band_separable_i64 : band_dense_i64) (plan, g, in, out, y0, y1,
          scratch);
      break;
  }
}
