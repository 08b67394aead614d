/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: the fast CPU backend's plan (see cf-cpu-plan.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cf-cpu-plan.h"
#include "cf-arith.h"
#include "cf-cpu-samples.h"

#define F32_EXACT 16777216.0    /* 2^24 */
#define F64_EXACT 9007199254740992.0    /* 2^53 */

static int
gcd (int a, int b)
{
  a = abs (a);
  b = abs (b);
  while (b) {
    int t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* The common factor of n weights (1 when they are all zero). */
static int
common_factor (const int *w, int n)
{
  int g = 0, i;

  for (i = 0; i < n; i++)
    g = gcd (g, w[i]);
  return g > 0 ? g : 1;
}

static double
sum_abs (const int *w, int n)
{
  double s = 0.0;
  int i;

  for (i = 0; i < n; i++)
    s += abs (w[i]);
  return s;
}

/* Terms of a 1-D kernel of n weights (divided by g): mirrored equal weights
 * pair up.  `row` true: taps along a row, `step` samples apart; false: taps
 * over ring rows. */
static void
taps_1d (CfCpuTaps * taps, const int *w, int n, int g, gboolean row,
    int step)
{
  int i;

  taps->t = g_new0 (CfCpuTap, n);
  taps->n = 0;
  for (i = 0; i < (n + 1) / 2; i++) {
    int m = n - 1 - i, wi = w[i] / g, wm = w[m] / g;
    CfCpuTap *t;

    if (m != i && wi == wm && wi != 0) {
      t = &taps->t[taps->n++];
      t->w = wi;
      t->ra = row ? 0 : i;
      t->oa = row ? i * step : 0;
      t->rb = row ? 0 : m;
      t->ob = row ? m * step : 0;
      continue;
    }
    if (wi != 0) {
      t = &taps->t[taps->n++];
      t->w = wi;
      t->ra = row ? 0 : i;
      t->oa = row ? i * step : 0;
      t->rb = -1;
    }
    if (m != i && wm != 0) {
      t = &taps->t[taps->n++];
      t->w = wm;
      t->ra = row ? 0 : m;
      t->oa = row ? m * step : 0;
      t->rb = -1;
    }
  }
}

/* Terms of a dense kh x kw kernel over kh ring rows: point-symmetric equal
 * weights pair up. */
static void
taps_dense (CfCpuTaps * taps, const int *w, int kw, int kh, int g, int step)
{
  int n = kw * kh, k;

  taps->t = g_new0 (CfCpuTap, n);
  taps->n = 0;
  for (k = 0; k < (n + 1) / 2; k++) {
    int m = n - 1 - k, wk = w[k] / g, wm = w[m] / g;
    CfCpuTap *t;

    if (m != k && wk == wm && wk != 0) {
      t = &taps->t[taps->n++];
      t->w = wk;
      t->ra = k / kw;
      t->oa = (k % kw) * step;
      t->rb = m / kw;
      t->ob = (m % kw) * step;
      continue;
    }
    if (wk != 0) {
      t = &taps->t[taps->n++];
      t->w = wk;
      t->ra = k / kw;
      t->oa = (k % kw) * step;
      t->rb = -1;
    }
    if (m != k && wm != 0) {
      t = &taps->t[taps->n++];
      t->w = wm;
      t->ra = m / kw;
      t->oa = (m % kw) * step;
      t->rb = -1;
    }
  }
}

static CfCpuGroup *
find_group (CfCpuPlan * plan, const CfLayout * layout, const CfChannel * ch)
{
  int k;

  for (k = 0; k < plan->n_groups; k++) {
    CfCpuGroup *o = &plan->groups[k];
    const CfChannel *first = &layout->channels[o->chan[0]];

    if (o->mode == CF_CHANNEL_FILTER && o->nc < 4
        && o->plane == ch->plane && o->width == ch->width
        && o->height == ch->height
        && first->pixel_stride == ch->pixel_stride)
      return o;
  }
  return NULL;
}

/* Lanes in the order of their offsets. */
static void
sort_lanes (CfCpuGroup * g, const CfLayout * layout)
{
  int i, j;

  for (i = 1; i < g->nc; i++)
    for (j = i; j > 0 && layout->channels[g->chan[j]].offset <
        layout->channels[g->chan[j - 1]].offset; j--) {
      int t = g->chan[j];
      gboolean cj = (g->copy_lanes >> j) & 1, cp = (g->copy_lanes >> (j - 1))
          & 1;

      g->chan[j] = g->chan[j - 1];
      g->chan[j - 1] = t;
      g->copy_lanes &= ~(3u << (j - 1));
      g->copy_lanes |= ((guint) cj << (j - 1)) | ((guint) cp << j);
    }
  for (i = 0; i < g->nc; i++)
    g->chs[i] = &layout->channels[g->chan[i]];
}

/* Filtered channels of one plane and geometry share a group, up to 4;
 * copied channels of the same pixels join it. */
static void
make_groups (CfCpuPlan * plan, const CfLayout * layout)
{
  int c, k, pass;

  /* Filtered channels first, so copied ones know where to go. */
  for (pass = 0; pass < 2; pass++) {
    for (c = 0; c < layout->n_channels; c++) {
      const CfChannel *ch = &layout->channels[c];
      gboolean filter = ch->mode == CF_CHANNEL_FILTER;
      CfCpuGroup *g = NULL;

      if (ch->width <= 0 || ch->height <= 0 || filter != (pass == 0))
        continue;
      if (ch->mode != CF_CHANNEL_FILL)
        g = find_group (plan, layout, ch);
      if (g != NULL && !filter)
        g->copy_lanes |= 1u << g->nc;
      if (g == NULL) {
        g = &plan->groups[plan->n_groups++];
        g->mode = ch->mode;
        g->plane = ch->plane;
        g->width = ch->width;
        g->height = ch->height;
      }
      g->chan[g->nc++] = c;
    }
  }
  for (k = 0; k < plan->n_groups; k++)
    sort_lanes (&plan->groups[k], layout);
}

/* Whether a sum of 8-bit samples times these n weights (divided by g) is
 * exact in 16-bit arithmetic.  Modulo 2^16 products and sums are exact
 * whatever the weights (unsigned arithmetic is a ring homomorphism onto
 * Z/2^16), so what remains is to read the residue back: the true sum lies
 * in [255 * (sum of negative weights), 255 * (sum of positive weights)];
 * a range within [0, 65535] reads back unsigned, one within
 * [-32768, 32767] as two's complement.  Up to 16 terms (cf-cpu-band8.inc
 * unrolls that many). */
static int
sum16_kind (const int *w, int n, int g, int n_terms)
{
  long long lo = 0, hi = 0;
  int i;

  if (n_terms > 16)
    return 0;
  for (i = 0; i < n; i++) {
    if (w[i] < 0)
      lo += 255LL * (w[i] / g);
    else
      hi += 255LL * (w[i] / g);
  }
  if (lo == 0 && hi <= 65535)
    return CF_CPU_SUM16_UNSIGNED;
  if (lo >= -32768 && hi <= 32767)
    return CF_CPU_SUM16_SIGNED;
  return 0;
}

/* Whether the n weights are equal and positive: after the common factor
 * they are all 1, a plain running sum (negative ones would be -1). */
static gboolean
all_equal_positive (const int *w, int n)
{
  int i;

  for (i = 1; i < n; i++)
    if (w[i] != w[0])
      return FALSE;
  return w[0] > 0;
}

/* Taps per kernel pass and the narrowest exact accumulator. */
static void
make_taps (CfCpuPlan * plan, const CfSpec * spec)
{
  const CfKernelParams *kp = &spec->kp;
  double reach = 0.0;
  int k;

  if (kp->separable) {
    plan->n_kernels = kp->n_kernels;
    for (k = 0; k < kp->n_kernels; k++) {
      int gr = common_factor (spec->sep.row[k], kp->kw);
      int gc = common_factor (spec->sep.col[k], kp->kh);
      double r = sum_abs (spec->sep.row[k], kp->kw) / gr;

      taps_1d (&plan->h[k], spec->sep.row[k], kp->kw, gr, TRUE, 1);
      taps_1d (&plan->v[k], spec->sep.col[k], kp->kh, gc, FALSE, 0);
      plan->gain[k] = (long long) gr * gc;
      if (kp->sample_bytes == 1)
        plan->sum16[k] = sum16_kind (spec->sep.row[k], kp->kw, gr,
            plan->h[k].n);
      reach = MAX (reach, kp->maxval * r *
          (sum_abs (spec->sep.col[k], kp->kh) / gc));
    }
  } else {
    int n = kp->kw * kp->kh, g = common_factor (spec->dense, n);

    plan->n_kernels = 1;
    taps_dense (&plan->dense, spec->dense, kp->kw, kp->kh, g, 1);
    plan->gain[0] = g;
    if (kp->sample_bytes == 1)
      plan->sum16[0] = sum16_kind (spec->dense, n, g, plan->dense.n);
    reach = kp->maxval * sum_abs (spec->dense, n) / g;
  }
  plan->v_uniform = kp->separable && kp->n_kernels == 1
      && all_equal_positive (spec->sep.col[0], kp->kh);
  /* The float path finishes in 32-bit integers. */
  if (reach < F32_EXACT && !kp->wide_acc && kp->shift <= 30)
    plan->acc = CF_CPU_ACC_F32;
  else if (reach < F64_EXACT)
    plan->acc = CF_CPU_ACC_F64;
  else
    plan->acc = CF_CPU_ACC_I64;
  /* The 16-bit sums finish in the float path. */
  if (plan->acc != CF_CPU_ACC_F32)
    plan->sum16[0] = plan->sum16[1] = 0;
}

static gsize
align64 (gsize n)
{
  return (n + 63) & ~(gsize) 63;
}

static void
make_scratch (CfCpuPlan * plan)
{
  const CfKernelParams *kp = &plan->kp;
  gsize a, lp = 16, hring;
  int k;

  for (k = 0; k < plan->n_groups; k++) {
    CfCpuGroup *g = &plan->groups[k];
    int e = g->width + kp->kw - 1, i;

    g->keep = g_new (gint32, CF_CPU_STRIP);
    for (i = 0; i < CF_CPU_STRIP; i++)
      g->keep[i] = (g->copy_lanes >> (i % g->nc)) & 1 ? -1 : 0;
    if (g->mode != CF_CHANNEL_FILTER)
      continue;
    g->bytes = kp->sample_bytes == 1
        && cf_cpu_samples_plain (g->chs, g->nc, 1)
        && cf_cpu_samples_contiguous (g->chs, g->nc, 1);
    lp = MAX (lp, (gsize) (CF_CPU_STRIP / g->nc + kp->kw - 1) * g->nc);
    g->xmap = g_new (int, e);
    for (i = 0; i < e; i++)
      g->xmap[i] = cf_border_index (i - kp->ax, g->width, kp->border);
  }
  /* Whole vectors past the end, so no loop needs a scalar tail guard. */
  plan->load_pitch = (lp + 15) & ~(gsize) 15;
  a = plan->acc_bytes = plan->acc == CF_CPU_ACC_F32 ? 4 : 8;
  hring = kp->separable ? (gsize) plan->n_kernels * kp->kh * CF_CPU_STRIP * a
      : 0;

  plan->off_load = 0;
  /* One row more: cf-cpu-band8.inc keeps its byte rows and a row of
   * 32-bit centre samples there. */
  plan->off_ring = align64 ((gsize) (kp->kh + 1) * plan->load_pitch * 4);
  plan->off_acc = align64 (plan->off_ring + hring);
  plan->off_out = align64 (plan->off_acc + 2 * (gsize) CF_CPU_STRIP * a);
  plan->off_terms = align64 (plan->off_out + (gsize) CF_CPU_STRIP * 4);
  /* Row pointers (four) and weights per term. */
  plan->max_terms = MAX (MAX (plan->h[0].n, plan->h[1].n),
      MAX (MAX (plan->v[0].n, plan->v[1].n), plan->dense.n));
  plan->max_terms = MAX (plan->max_terms, 16);
  plan->scratch_bytes = align64 (plan->off_terms +
      (gsize) plan->max_terms * (4 * sizeof (void *) + 8));

  plan->zero_bytes = plan->load_pitch * 8;
  plan->zeros = g_malloc0 (plan->zero_bytes);
}

CfCpuPlan *
cf_cpu_plan_new (const CfSpec * spec, const CfLayout * layout)
{
  CfCpuPlan *plan = g_new0 (CfCpuPlan, 1);

  plan->serial = spec->serial;
  plan->layout = *layout;
  plan->kp = spec->kp;
  plan->finite_post = isfinite (spec->kp.scale) && isfinite (spec->kp.offset)
      && isfinite (spec->kp.amount);
  make_groups (plan, layout);
  make_taps (plan, spec);
  make_scratch (plan);
  return plan;
}

gboolean
cf_cpu_plan_matches (const CfCpuPlan * plan, const CfSpec * spec,
    const CfLayout * layout)
{
  return plan->serial == spec->serial
      && memcmp (&plan->layout, layout, sizeof (*layout)) == 0;
}

void
cf_cpu_plan_free (CfCpuPlan * plan)
{
  int k;

  if (plan == NULL)
    return;
  for (k = 0; k < 2; k++) {
    g_free (plan->h[k].t);
    g_free (plan->v[k].t);
  }
  g_free (plan->dense.t);
  for (k = 0; k < plan->n_groups; k++) {
    g_free (plan->groups[k].xmap);
    g_free (plan->groups[k].keep);
  }
  g_free (plan->zeros);
  g_free (plan);
}
