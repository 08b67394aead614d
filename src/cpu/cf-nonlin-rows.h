/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: the fast CPU backend's nonlinear row kernels (medians
 * and min/max over rows of plain 16-bit or 8-bit samples), compiled once per
 * instruction set as the convolution rows are (cf-nonlin-rows.c). */
#ifndef CF_NONLIN_ROWS_H
#define CF_NONLIN_ROWS_H

#include <glib.h>

G_BEGIN_DECLS

/* The widest median the selection network takes (larger ones select
 * otherwise, cf-nonlin-cpu.c). */
#define CF_NL_ROWS_MAX_NETWORK 7

/* The range weights bilateral8 reads: every L1 distance of three 8-bit
 * samples. */
#define CF_NL_BILATERAL8_RANGE (3 * 255 + 1)

/* blend8's period: whole pixels of 1 to 4 bytes, and whole vectors. */
#define CF_NL_BLEND_PERIOD 96

/* The most output rows window3_8 makes together. */
#define CF_NL_W3_ROWS 4

/* window3_8's operations. */
enum
{
  CF_NL_W3_MEDIAN,
  CF_NL_W3_MIN,
  CF_NL_W3_MAX
};

/* Output rows a column_group makes together. */
#define CF_NL_COL_GROUP 8

typedef struct
{
  /* out[x] = the median of the k x k window of rows[0 .. k) at x .. x + k
   * - 1, k odd, 3 <= k <= CF_NL_ROWS_MAX_NETWORK; bytes: every sample is
   * below 256. */
  void (*median) (const guint16 * const *rows, int k, int w, int bytes,
      guint16 * out);
  /* acc[x] = min (max) of acc[x] and r[x]. */
  void (*accumulate) (guint16 * acc, const guint16 * r, int w, int max);
  /* out[x] = min (max) of rows[0 .. n)[x], n >= 1. */
  void (*column) (const guint16 * const *rows, int n, int w, int max,
      guint16 * out);
  /* outs[t][x] = min (max) of rows[t .. t + kh)[x], t = 0 ..
   * CF_NL_COL_GROUP - 1, kh >= CF_NL_COL_GROUP; tmp holds w samples. */
  void (*column_group) (const guint16 * const *rows, int kh, int w, int max,
      guint16 * tmp, guint16 * const *outs);
  /* out[x] = min (max) of row[x .. x + len - 1]; tmp holds 2 (w + len - 1)
   * samples. */
  void (*line) (const guint16 * row, int len, int w, int max, guint16 * tmp,
      guint16 * out);
  /* median, column and line over 8-bit rows into 8-bit samples (median
   * for k 3 and 5); median8 and line8 over w pixels of ps samples
   * (interleaved channels, 1 <= ps <= 4), each sample a lane whose
   * neighbour is ps samples on: rows of (w + k - 1) ps samples, out of w
   * ps, tmp of 2 (w + len - 1) ps. */
  void (*median8) (const guint8 * const *rows, int k, int w, int ps,
      guint8 * out);
  void (*column8) (const guint8 * const *rows, int n, int w, int max,
      guint8 * out);
  void (*column_group8) (const guint8 * const *rows, int kh, int w, int max,
      guint8 * tmp, guint8 * const *outs);
  void (*line8) (const guint8 * row, int len, int w, int ps, int max,
      guint8 * tmp, guint8 * out);
  /* The bilateral of n colours (n 1, or 3 with the L1 colour distance)
   * of 8-bit samples, all n outputs: outs[c][x] = the sum of wt *
   * taps[c * n_offsets + k][x] over the sum of wt, rounded half up, wt =
   * space[k] * range[distance of the n taps k to centre[0 .. n)[x]].
   * range holds CF_NL_BILATERAL8_RANGE weights (zeros past the spec's),
   * each at most 2^26; equal space weights next to each other go faster
   * (they share their products). */
  void (*bilateral8) (const guint16 * const *taps,
      const guint16 * const *centre, int n, const int *space, int n_offsets,
      const int *range, int w, guint16 * const *outs);
  /* The bilateral of one colour of 8-bit samples in two steps, each range
   * weight looked up once for the two outputs it serves (the weight of
   * the pair p, q is the same from p and from q): bilateral8_pairs
   * out[i] = range[|a[i] - b[i]|] for i < n; bilateral8_sum, for x0 <= x
   * < w, out[x] = the sum of wt * taps[k][x] over the sum of wt, rounded
   * half up, wt = space[k] * wts[k][x], each wts[k][x] at most 2^26;
   * runs[k] > k the end of the run of equal space weights that k is in
   * (the offsets sorted so that equal weights are next to each other). */
  void (*bilateral8_pairs) (const guint16 * a, const guint16 * b,
      const int *range, int n, int *out);
  void (*bilateral8_sum) (const guint16 * const *taps,
      const int *const *wts, const int *space, const int *runs,
      int n_offsets, int x0, int w, guint16 * out);
  /* The 3x3 window of interleaved 8-bit pixels read in place, nr output
   * rows (1, 2 or CF_NL_W3_ROWS for min and max, 1 for the median) from
   * rows[0 .. nr + 2): for x < n (bytes), v = the median (op
   * CF_NL_W3_MEDIAN), min or max of rows[t .. t + 3) at x - ps, x and x +
   * ps, ps the bytes a pixel (the neighbour ps bytes on, 1 <= ps <= 4),
   * and outs[t][x] = (v & keep[i]) | (rows[t + 1][x] & take[i]) |
   * fill[i], i = x mod CF_NL_BLEND_PERIOD + o: the copied and filled
   * channels merged in the same store.  The masks hold their period of
   * CF_NL_BLEND_PERIOD bytes twice (blend8's once), o <
   * CF_NL_BLEND_PERIOD their phase at x = 0; keep NULL: none, outs[t][x]
   * = v.  rows[j] is read from -ps to n + ps. */
  void (*window3_8) (const guint8 * const *rows, int nr, int n, int ps,
      int op, const guint8 * keep, const guint8 * take, const guint8 * fill,
      int o, guint8 * const *outs);
  /* d[x] = (d[x] & keep[i]) | (s[x] & take[i]) | fill[i] for x < n, i =
   * x mod CF_NL_BLEND_PERIOD: the copied and filled channels of
   * interleaved pixels over the filtered ones'. */
  void (*blend8) (guint8 * d, const guint8 * s, int n, const guint8 * keep,
      const guint8 * take, const guint8 * fill);
  /* dst[x] = the plain `bytes`-byte sample (1 or 2) at s + x * ps. */
  void (*widen) (const guint8 * s, int ps, int bytes, int w, guint16 * dst);
  /* The plain `bytes`-byte sample at d + x * ps = v[x]. */
  void (*narrow) (const guint16 * v, int w, int ps, int bytes, guint8 * d);
} CfNlRows;

/* One per instruction set; the fast backend picks one with the
 * convolution rows (cf_cpu_band_func, cf_nonlin_cpu_new). */
extern const CfNlRows cf_nl_rows_portable;
extern const CfNlRows cf_nl_rows_avx2;
extern const CfNlRows cf_nl_rows_avx512;

G_END_DECLS
#endif /* CF_NONLIN_ROWS_H */
