/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: the min/max row kernels for one sample type T, their
 * names NAME (x); cf-nonlin-rows.c includes it for 16-bit rows and for
 * 8-bit ones. */

/* acc[x] = min (max) of acc[x] and r[x]. */
static void
NAME (accumulate) (T * restrict acc, const T * restrict r, int w, int max)
{
  int x;

  if (max) {
    for (x = 0; x < w; x++)
      acc[x] = MAX (acc[x], r[x]);
  } else {
    for (x = 0; x < w; x++)
      acc[x] = MIN (acc[x], r[x]);
  }
}

/* out[x] = min (max) of a[x] and b[x]. */
static void
NAME (pair) (T * restrict out, const T * a, const T * b, int w, int max)
{
  int x;

  if (max) {
    for (x = 0; x < w; x++)
      out[x] = MAX (a[x], b[x]);
  } else {
    for (x = 0; x < w; x++)
      out[x] = MIN (a[x], b[x]);
  }
}

/* Outputs t = 0 .. CF_NL_COL_GROUP - 1 of a column of kh >= CF_NL_COL_GROUP
 * rows into outs[t], output t the min (max) of r[t .. t + kh - 1]: the rows
 * all of them read, r[CF_NL_COL_GROUP - 1 .. kh - 1], once, then prefixes
 * past them and suffixes before them (van Herk / Gil-Werman within the
 * group): about kh / 8 + 2 row operations an output row, each of two
 * rows into a third (no copies). */
static void
NAME (column_group) (const T * const *r, int kh, int w, int max, T * tmp,
    T * const *outs)
{
  const int g = CF_NL_COL_GROUP;
  int t, j;

  if (kh > g)
    NAME (pair) (outs[0], r[g - 1], r[g], w, max);
  else
    memcpy (outs[0], r[g - 1], w * sizeof (T));
  for (j = g + 1; j < kh; j++)
    NAME (accumulate) (outs[0], r[j], w, max);
  for (t = 1; t < g; t++)
    NAME (pair) (outs[t], outs[t - 1], r[kh + t - 1], w, max);
  /* tmp = min (max) of r[t .. g - 2], from t = g - 3 down. */
  NAME (accumulate) (outs[g - 2], r[g - 2], w, max);
  for (t = g - 3; t >= 0; t--) {
    if (t == g - 3)
      NAME (pair) (tmp, r[g - 2], r[g - 3], w, max);
    else
      NAME (accumulate) (tmp, r[t], w, max);
    NAME (accumulate) (outs[t], tmp, w, max);
  }
}

/* out[x] = min (max) of rows[0 .. n)[x]: three rows, then two at a time,
 * into out (fewer passes over it than one row at a time). */
static void
NAME (column) (const T * const *rows, int n, int w, int max,
    T * restrict out)
{
  const T *r0 = rows[0], *r1 = rows[MIN (1, n - 1)];
  const T *r2 = rows[MIN (2, n - 1)];
  int x, j;

  if (max) {
    for (x = 0; x < w; x++)
      out[x] = MAX (MAX (r0[x], r1[x]), r2[x]);
  } else {
    for (x = 0; x < w; x++)
      out[x] = MIN (MIN (r0[x], r1[x]), r2[x]);
  }
  for (j = 3; j < n; j += 2) {
    const T *a = rows[j], *b = rows[MIN (j + 1, n - 1)];

    if (max) {
      for (x = 0; x < w; x++)
        out[x] = MAX (out[x], MAX (a[x], b[x]));
    } else {
      for (x = 0; x < w; x++)
        out[x] = MIN (out[x], MIN (a[x], b[x]));
    }
  }
}

/* Lines of 2 and 3 in one pass; up to 255 by doubling: the min (max) of
 * spans of 2, 4, 8 ... samples, each a vectorised pass over the previous,
 * then of two spans overlapping to cover len (log2 (len) + 1 passes).
 * Longer ones by van Herk / Gil-Werman: prefixes and suffixes within
 * blocks of len, three (scalar) operations a sample whatever len.  ps
 * samples a pixel (interleaved channels, each its own line): the
 * neighbour ps samples on, every sample of the row a lane. */
static void
NAME (line) (const T * row, int len, int w, int ps, int max, T * tmp,
    T * out)
{
  const int n = w + len - 1;
  T *g = tmp, *h = tmp + n * ps;
  int x, b, c;

  if (len <= 3) {
    const T *r1 = row + MIN (1, len - 1) * ps, *r2 = row + (len - 1) * ps;

    if (max) {
      for (x = 0; x < w * ps; x++)
        out[x] = MAX (MAX (row[x], r1[x]), r2[x]);
    } else {
      for (x = 0; x < w * ps; x++)
        out[x] = MIN (MIN (row[x], r1[x]), r2[x]);
    }
    return;
  }
  if (len < 256) {
    const T *src = row;
    T *dst = tmp;
    int span = 1;

    /* src[x] = the span samples from x, for x <= n - span (pixels). */
    while (2 * span <= len) {
      const int m = (n - 2 * span + 1) * ps;
      const T *far = src + span * ps;

      if (max) {
        for (x = 0; x < m; x++)
          dst[x] = MAX (src[x], far[x]);
      } else {
        for (x = 0; x < m; x++)
          dst[x] = MIN (src[x], far[x]);
      }
      src = dst;
      dst = dst == tmp ? tmp + n * ps : tmp;
      span *= 2;
    }
    {
      const T *far = src + (len - span) * ps;

      if (max) {
        for (x = 0; x < w * ps; x++)
          out[x] = MAX (src[x], far[x]);
      } else {
        for (x = 0; x < w * ps; x++)
          out[x] = MIN (src[x], far[x]);
      }
    }
    return;
  }
  for (c = 0; c < ps; c++) {
    const T *r = row + c;
    T *gc = g + c, *hc = h + c;

    for (b = 0; b < n; b += len) {
      const int e = MIN (b + len, n);

      gc[b * ps] = r[b * ps];
      for (x = b + 1; x < e; x++)
        gc[x * ps] = max ? MAX (gc[(x - 1) * ps], r[x * ps]) :
            MIN (gc[(x - 1) * ps], r[x * ps]);
      hc[(e - 1) * ps] = r[(e - 1) * ps];
      for (x = e - 2; x >= b; x--)
        hc[x * ps] = max ? MAX (hc[(x + 1) * ps], r[x * ps]) :
            MIN (hc[(x + 1) * ps], r[x * ps]);
    }
  }
  /* [x, x + len - 1] is the suffix of x's block and the prefix of the
   * next one up to x + len - 1. */
  {
    const T *far = g + (len - 1) * ps;

    if (max) {
      for (x = 0; x < w * ps; x++)
        out[x] = MAX (h[x], far[x]);
    } else {
      for (x = 0; x < w * ps; x++)
        out[x] = MIN (h[x], far[x]);
    }
  }
}
