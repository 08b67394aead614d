/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: one output sample of a nonlinear pass (CfNlPass), for the
 * fast CPU backend (gcc) and the CUDA kernels (nvcc) alike: the same code
 * gives the same bytes.  A median or a min/max is a sample of the window;
 * the bilateral sums integer weights in 64 bits, exact in any order. */
#ifndef CF_NONLIN_H
#define CF_NONLIN_H

#include "cf-arith.h"
#include "cf-sample.h"

/* One image a pass reads: a channel of a frame, or a scratch image of the
 * channel's width x height samples, row-major. */
typedef struct
{
  const unsigned char *frame;   /* the plane's first row + channel offset */
  long long stride;             /* bytes between frame rows */
  const unsigned short *scratch;        /* used when frame is NULL */
  CfChannel ch;
} CfNlImage;

/* Sample (x, y), inside the channel. */
CF_HD int
cf_nl_read (const CfNlImage * im, int x, int y)
{
  if (im->frame != 0)
    return cf_sample_read (im->frame + y * im->stride +
        (long long) x * im->ch.pixel_stride, &im->ch);
  return im->scratch[(long long) y * im->ch.width + x];
}

/* Sample (x, y) anywhere: the border decides outside the channel. */
CF_HD int
cf_nl_at (const CfNlImage * im, int x, int y, const CfKernelParams * kp)
{
  int bx = cf_border_index (x, im->ch.width, kp->border);
  int by = cf_border_index (y, im->ch.height, kp->border);

  if (bx < 0 || by < 0)
    return kp->border_value;
  return cf_nl_read (im, bx, by);
}

/* The rank-th smallest of the len x len window at (x, y), anchor at its
 * centre: the largest v with fewer than rank + 1 samples below it, found
 * bit by bit from the top. */
CF_HD int
cf_nl_median (const CfNlImage * im, int x, int y, int len, int rank,
    const CfKernelParams * kp)
{
  int r = len / 2, bit, v = 0, depth = 0, i, j;

  while ((1 << depth) <= kp->maxval)
    depth++;
  for (bit = depth - 1; bit >= 0; bit--) {
    int cand = v | (1 << bit), below = 0;

    for (j = -r; j <= r; j++)
      for (i = -r; i <= r; i++)
        below += cf_nl_at (im, x + i, y + j, kp) < cand;
    if (below <= rank)
      v = cand;
  }
  return v;
}

/* Min or max of len samples along x (dx 1) or y (dx 0) from -anchor. */
CF_HD int
cf_nl_minmax_line (const CfNlImage * im, int x, int y, int len, int anchor,
    int along_x, int max, const CfKernelParams * kp)
{
  int v = max ? 0 : kp->maxval, i;

  for (i = 0; i < len; i++) {
    int s = along_x ? cf_nl_at (im, x + i - anchor, y, kp) :
        cf_nl_at (im, x, y + i - anchor, kp);

    v = max ? (s > v ? s : v) : (s < v ? s : v);
  }
  return v;
}

/* Min or max over the structuring element table[se_h][se_w]. */
CF_HD int
cf_nl_minmax_se (const CfNlImage * im, int x, int y, const CfNonlin * nl,
    const int *table, int max, const CfKernelParams * kp)
{
  int v = max ? 0 : kp->maxval, i, j;

  for (j = 0; j < nl->se_h; j++)
    for (i = 0; i < nl->se_w; i++) {
      int s;

      if (!table[j * nl->se_w + i])
        continue;
      s = cf_nl_at (im, x + i - nl->se_ax, y + j - nl->se_ay, kp);
      v = max ? (s > v ? s : v) : (s < v ? s : v);
    }
  return v;
}

/* The bilateral of channel `own` (0..n-1) of the n images of one colour
 * (n 1 or 3) at (x, y): sum of w * sample / sum of w, rounded half up,
 * w = space[k] * range[L1 distance of the n samples]. */
CF_HD int
cf_nl_bilateral (const CfNlImage * ims, int n, int own, int x, int y,
    const CfNonlin * nl, const int *table, const CfKernelParams * kp)
{
  const int *space = table + nl->off_space;
  const int *dx = space + nl->n_offsets, *dy = dx + nl->n_offsets;
  const int *range = table + nl->off_range;
  int centre[3], c, k;
  long long sum = 0, wsum = 0;

  for (c = 0; c < n; c++)
    centre[c] = cf_nl_read (&ims[c], x, y);
  for (k = 0; k < nl->n_offsets; k++) {
    int d = 0, v = 0;
    long long w;

    for (c = 0; c < n; c++) {
      int s = cf_nl_at (&ims[c], x + dx[k], y + dy[k], kp);

      d += s > centre[c] ? s - centre[c] : centre[c] - s;
      if (c == own)
        v = s;
    }
    if (d >= nl->range_len)
      continue;
    w = (long long) space[k] * range[d];
    sum += w * v;
    wsum += w;
  }
  return (int) ((sum + wsum / 2) / wsum);
}

/* Saturated a - b. */
CF_HD int
cf_nl_sub (int a, int b)
{
  return a > b ? a - b : 0;
}

/* The output of pass p at (x, y): `src` the image it reads, `src2` the
 * second one of a difference, `group` the n images of the sample's colour
 * (own: which is the channel's) for the bilateral.  The CUDA kernel runs
 * this per thread; tests run it on the host. */
CF_HD int
cf_nl_pass_sample (const CfNlPass * p, const CfNlImage * src,
    const CfNlImage * src2, const CfNlImage * group, int n_group, int own,
    int x, int y, const CfNonlin * nl, const int *table,
    const CfKernelParams * kp)
{
  switch (p->step) {
    case CF_NL_MEDIAN:
      return cf_nl_median (src, x, y, p->len, nl->rank, kp);
    case CF_NL_MIN_ROW:
    case CF_NL_MAX_ROW:
      return cf_nl_minmax_line (src, x, y, p->len, p->anchor, 1,
          p->step == CF_NL_MAX_ROW, kp);
    case CF_NL_MIN_COL:
    case CF_NL_MAX_COL:
      return cf_nl_minmax_line (src, x, y, p->len, p->anchor, 0,
          p->step == CF_NL_MAX_COL, kp);
    case CF_NL_MIN_SE:
    case CF_NL_MAX_SE:
      return cf_nl_minmax_se (src, x, y, nl, table, p->step == CF_NL_MAX_SE,
          kp);
    case CF_NL_SUB:
      return cf_nl_sub (cf_nl_read (src, x, y), cf_nl_read (src2, x, y));
    case CF_NL_BILATERAL:
    default:
      return cf_nl_bilateral (group, n_group, own, x, y, nl, table, kp);
  }
}

#endif /* CF_NONLIN_H */
