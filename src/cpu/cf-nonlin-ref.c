/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: the reference nonlinear operations, straight from
 * their definitions (OpenCV's medianBlur, morphologyEx, bilateralFilter):
 * each channel is read into an array, the window around each sample is
 * gathered with the border and sorted, or its minimum, maximum or weighted
 * mean taken.  Slow on purpose; it shares nothing with the passes of
 * cf-nonlin-cpu.c and the CUDA kernels but the spec's tables. */
#include <stdlib.h>
#include <string.h>
#include "cf-nonlin-cpu.h"
#include "cf-arith.h"
#include "cf-sample.h"

typedef struct
{
  int w, h;
  int *v;
} Plane;

static int
at (const Plane * p, int x, int y, const CfKernelParams * kp)
{
  int bx = cf_border_index (x, p->w, kp->border);
  int by = cf_border_index (y, p->h, kp->border);

  return bx < 0 || by < 0 ? kp->border_value : p->v[by * p->w + bx];
}

static void
read_channel (const CfFrame * f, const CfChannel * ch, Plane * p)
{
  int x, y;

  p->w = ch->width;
  p->h = ch->height;
  p->v = g_new (int, (gsize) p->w * p->h);
  for (y = 0; y < p->h; y++)
    for (x = 0; x < p->w; x++)
      p->v[y * p->w + x] = cf_sample_read (f->data[ch->plane] + (gsize) y *
          f->stride[ch->plane] + (gsize) x * ch->pixel_stride + ch->offset,
          ch);
}

static void
write_channel (const CfFrame * f, const CfChannel * ch, const Plane * p)
{
  int x, y;

  for (y = 0; y < p->h; y++)
    for (x = 0; x < p->w; x++)
      cf_sample_write (f->data[ch->plane] + (gsize) y * f->stride[ch->plane]
          + (gsize) x * ch->pixel_stride + ch->offset, ch,
          p->v[y * p->w + x]);
}

static int
compare_int (const void *a, const void *b)
{
  int x = *(const int *) a, y = *(const int *) b;

  return (x > y) - (x < y);
}

static void
median (const Plane * src, Plane * dst, int k, const CfKernelParams * kp)
{
  int *win = g_new (int, k * k), r = k / 2, x, y, i, j;

  for (y = 0; y < src->h; y++)
    for (x = 0; x < src->w; x++) {
      int n = 0;

      for (j = -r; j <= r; j++)
        for (i = -r; i <= r; i++)
          win[n++] = at (src, x + i, y + j, kp);
      qsort (win, n, sizeof (int), compare_int);
      dst->v[y * src->w + x] = win[n / 2];
    }
  g_free (win);
}

/* One erosion or dilation with element se (w x h, anchor ax, ay). */
static void
minmax (const Plane * src, Plane * dst, const int *se, int w, int h, int ax,
    int ay, gboolean max, const CfKernelParams * kp)
{
  int x, y, i, j;

  for (y = 0; y < src->h; y++)
    for (x = 0; x < src->w; x++) {
      int v = max ? 0 : kp->maxval;

      for (j = 0; j < h; j++)
        for (i = 0; i < w; i++)
          if (se[j * w + i]) {
            int s = at (src, x + i - ax, y + j - ay, kp);

            v = max ? MAX (v, s) : MIN (v, s);
          }
      dst->v[y * src->w + x] = v;
    }
}

/* nl->iterations erosions or dilations, as OpenCV's erode/dilate: a full
 * rectangle iterated is one larger rectangle (anchor times n), a 1x1
 * element a copy. */
static void
morph_n (const Plane * src, Plane * dst, const CfSpec * spec, gboolean max)
{
  const CfNonlin *nl = &spec->nl;
  int w = nl->se_w, h = nl->se_h, n = nl->iterations, i, full = 1;
  gsize len = (gsize) src->w * src->h;

  for (i = 0; i < w * h; i++)
    full = full && spec->table[i];
  if (w * h == 1) {
    memcpy (dst->v, src->v, sizeof (int) * len);
  } else if (full) {
    int bw = w + (n - 1) * (w - 1), bh = h + (n - 1) * (h - 1);
    int *se = g_new (int, bw * bh);

    for (i = 0; i < bw * bh; i++)
      se[i] = 1;
    minmax (src, dst, se, bw, bh, nl->se_ax * n, nl->se_ay * n, max,
        &spec->kp);
    g_free (se);
  } else {
    Plane tmp = { src->w, src->h, g_new (int, len) };

    memcpy (dst->v, src->v, sizeof (int) * len);
    for (i = 0; i < n; i++) {
      memcpy (tmp.v, dst->v, sizeof (int) * len);
      minmax (&tmp, dst, spec->table, w, h, nl->se_ax, nl->se_ay, max,
          &spec->kp);
    }
    g_free (tmp.v);
  }
}

static void
bilateral (Plane * planes, int n, int own, Plane * dst, const CfSpec * spec)
{
  const CfNonlin *nl = &spec->nl;
  const int *space = spec->table + nl->off_space;
  const int *dx = space + nl->n_offsets, *dy = dx + nl->n_offsets;
  const int *range = spec->table + nl->off_range;
  const Plane *p0 = &planes[0];
  int x, y, k, c;

  for (y = 0; y < p0->h; y++)
    for (x = 0; x < p0->w; x++) {
      gint64 sum = 0, wsum = 0;

      for (k = 0; k < nl->n_offsets; k++) {
        int d = 0;

        for (c = 0; c < n; c++)
          d += ABS (at (&planes[c], x + dx[k], y + dy[k], &spec->kp) -
              planes[c].v[y * p0->w + x]);
        if (d < nl->range_len) {
          gint64 w = (gint64) space[k] * range[d];

          sum += w * at (&planes[own], x + dx[k], y + dy[k], &spec->kp);
          wsum += w;
        }
      }
      dst->v[y * p0->w + x] = (int) ((sum + wsum / 2) / wsum);
    }
}

static void
filter_channel (const CfSpec * spec, const CfLayout * layout, int c,
    int groups[CF_MAX_CHANNELS][3], const CfFrame * in, const CfFrame * out)
{
  const CfChannel *ch = &layout->channels[c];
  const CfKernelParams *kp = &spec->kp;
  Plane src, dst, a, b;
  gsize n;
  int i;

  read_channel (in, ch, &src);
  n = (gsize) src.w * src.h;
  dst.w = a.w = b.w = src.w;
  dst.h = a.h = b.h = src.h;
  dst.v = g_new (int, n);
  a.v = g_new (int, n);
  b.v = g_new (int, n);

  if (kp->operation == CF_OPERATION_MEDIAN) {
    median (&src, &dst, kp->kw, kp);
  } else if (kp->operation == CF_OPERATION_BILATERAL) {
    Plane planes[3];
    int m = 0, own = 0;

    for (i = 0; i < 3 && groups[c][i] >= 0; i++) {
      if (groups[c][i] == c)
        own = i;
      read_channel (in, &layout->channels[groups[c][i]], &planes[m++]);
    }
    bilateral (planes, m, own, &dst, spec);
    for (i = 0; i < m; i++)
      g_free (planes[i].v);
  } else {
    switch (spec->nl.morph) {
      case CF_MORPH_ERODE:
      case CF_MORPH_DILATE:
        morph_n (&src, &dst, spec, spec->nl.morph == CF_MORPH_DILATE);
        break;
      case CF_MORPH_OPEN:
      case CF_MORPH_TOPHAT:
        morph_n (&src, &a, spec, FALSE);
        morph_n (&a, &dst, spec, TRUE);
        break;
      case CF_MORPH_CLOSE:
      case CF_MORPH_BLACKHAT:
        morph_n (&src, &a, spec, TRUE);
        morph_n (&a, &dst, spec, FALSE);
        break;
      case CF_MORPH_GRADIENT:
        morph_n (&src, &a, spec, TRUE);
        morph_n (&src, &b, spec, FALSE);
        for (i = 0; i < (int) n; i++)
          dst.v[i] = MAX (a.v[i] - b.v[i], 0);
        break;
    }
    /* The hats: saturated differences with the source. */
    for (i = 0; i < (int) n; i++) {
      if (spec->nl.morph == CF_MORPH_TOPHAT)
        dst.v[i] = MAX (src.v[i] - dst.v[i], 0);
      else if (spec->nl.morph == CF_MORPH_BLACKHAT)
        dst.v[i] = MAX (dst.v[i] - src.v[i], 0);
    }
  }
  write_channel (out, ch, &dst);
  g_free (src.v);
  g_free (dst.v);
  g_free (a.v);
  g_free (b.v);
}

void
cf_nonlin_reference (const CfSpec * spec, const CfLayout * layout,
    const CfFrame * in, const CfFrame * out)
{
  int groups[CF_MAX_CHANNELS][3];
  int c;

  cf_layout_colour_groups (layout, groups);
  for (c = 0; c < layout->n_channels; c++) {
    const CfChannel *ch = &layout->channels[c];

    if (ch->width <= 0 || ch->height <= 0)
      continue;
    if (ch->mode == CF_CHANNEL_FILTER) {
      filter_channel (spec, layout, c, groups, in, out);
    } else {
      Plane p;
      int i;

      read_channel (in, ch, &p);
      if (ch->mode == CF_CHANNEL_FILL)
        for (i = 0; i < p.w * p.h; i++)
          p.v[i] = ch->fill_value;
      write_channel (out, ch, &p);
      g_free (p.v);
    }
  }
}
