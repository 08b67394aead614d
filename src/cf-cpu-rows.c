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

#define CF_CAT_(a, b) a ## b
#define CF_CAT(a, b) CF_CAT_ (a, b)

/* cf_saturate_float() for a finite rounded value, without branches. */
static inline int
cf_cpu_saturate (float v, float maxf)
{
  v = v > 0.0f ? v : 0.0f;
  return (int) (v < maxf ? v : maxf);
}

/* Row `sy` of the group's channels (-1: the constant border) into `dst`,
 * interleaved, with the border columns around it. */
static void
load_row (const CfCpuPlan * plan, const CfCpuGroup * g, const CfFrame * in,
    int sy, gint32 * restrict dst)
{
  const CfKernelParams *kp = &plan->kp;
  const int nc = g->nc, ew = g->width + kp->kw - 1, bv = kp->border_value;
  const guint8 *row;
  int c, ex;

  if (sy < 0) {
    for (ex = 0; ex < ew * nc; ex++)
      dst[ex] = bv;
    return;
  }
  row = in->data[g->plane] + (gsize) sy * in->stride[g->plane];
  for (c = 0; c < nc; c++)
    cf_cpu_load_run (&plan->layout.channels[g->chan[c]], kp->sample_bytes,
        row, 0, g->width, dst + kp->ax * nc + c, nc);
  for (ex = 0; ex < ew; ex++) {
    int sx;

    if (ex == kp->ax)
      ex += g->width;
    if (ex >= ew)
      break;
    sx = g->xmap[ex];
    for (c = 0; c < nc; c++)
      dst[ex * nc + c] = sx < 0 ? bv : dst[(kp->ax + sx) * nc + c];
  }
}

static void
store_row (const CfCpuPlan * plan, const CfCpuGroup * g, const CfFrame * out,
    int y, const gint32 * restrict src)
{
  guint8 *row = out->data[g->plane] + (gsize) y * out->stride[g->plane];
  int c;

  for (c = 0; c < g->nc; c++)
    cf_cpu_store_run (&plan->layout.channels[g->chan[c]],
        plan->kp.sample_bytes, row, 0, g->width, src + c, g->nc);
}

/* Copied and filled channels, through the same load and store. */
static void
band_copy (const CfCpuPlan * plan, const CfCpuGroup * g, const CfFrame * in,
    const CfFrame * out, int y0, int y1, guint8 * scratch)
{
  const CfChannel *ch = &plan->layout.channels[g->chan[0]];
  gint32 *orow = (gint32 *) (scratch + plan->off_out);
  int x, y;

  if (ch->mode == CF_CHANNEL_FILL)
    for (x = 0; x < g->width; x++)
      orow[x] = ch->fill_value;
  for (y = y0; y < y1; y++) {
    if (ch->mode != CF_CHANNEL_FILL)
      cf_cpu_load_run (ch, plan->kp.sample_bytes, in->data[g->plane] +
          (gsize) y * in->stride[g->plane], 0, g->width, orow, 1);
    store_row (plan, g, out, y, orow);
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
