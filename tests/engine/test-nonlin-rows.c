/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* The fast CPU backend's nonlinear row kernels (src/cpu/cf-nonlin-rows.c),
 * every instruction-set variant the machine runs, against the definitions
 * computed here by brute force: medians by sorting, lines by scanning, on
 * wide rows and long lines, where frames of the backend tests are too
 * narrow to tell a wrong window edge (their borders repeat samples). */
#include <string.h>
#include "cf-nonlin-rows.h"

static int
cmp_u16 (const void *a, const void *b)
{
  return (int) *(const guint16 *) a - (int) *(const guint16 *) b;
}

/* The variants this machine can run (the x86 ones exist only there). */
static int
variants (const CfNlRows ** out)
{
  int n = 0;

  out[n++] = &cf_nl_rows_portable;
#if defined(__x86_64__)
  __builtin_cpu_init ();
  if (__builtin_cpu_supports ("avx2") && __builtin_cpu_supports ("fma"))
    out[n++] = &cf_nl_rows_avx2;
  if (__builtin_cpu_supports ("avx512f") && __builtin_cpu_supports ("avx512bw")
      && __builtin_cpu_supports ("avx512dq")
      && __builtin_cpu_supports ("avx512vl"))
    out[n++] = &cf_nl_rows_avx512;
#endif
  return n;
}

static void
fill (GRand * rand, guint16 * a, int n, int maxval)
{
  int i;

  for (i = 0; i < n; i++)
    a[i] = (guint16) g_rand_int_range (rand, 0, maxval + 1);
}

static void
test_median (void)
{
  const CfNlRows *v[3];
  int nv = variants (v), vi, k, wi;
  /* below a vector, odd, chunks of the 5x5 (512) and their remainders;
   * maxval by wi % 3 */
  static const int widths[] = { 1, 5, 31, 128, 129, 300, 513, 1000, 1030 };
  GRand *rand = g_rand_new_with_seed (41);

  for (vi = 0; vi < nv; vi++)
    for (k = 3; k <= CF_NL_ROWS_MAX_NETWORK; k += 2)
      for (wi = 0; wi < (int) G_N_ELEMENTS (widths); wi++) {
        const int w = widths[wi], pitch = w + k - 1;
        /* few values (many ties), bytes, full 16 bits */
        const int maxval = wi % 3 == 0 ? 3 : wi % 3 == 1 ? 255 : 65535;
        guint16 *buf = g_new (guint16, pitch * k), *out = g_new (guint16, w);
        const guint16 *rows[CF_NL_ROWS_MAX_NETWORK];
        guint16 win[CF_NL_ROWS_MAX_NETWORK * CF_NL_ROWS_MAX_NETWORK];
        int x, i, j;

        fill (rand, buf, pitch * k, maxval);
        for (j = 0; j < k; j++)
          rows[j] = buf + j * pitch;
        v[vi]->median (rows, k, w, maxval <= 255, out);
        if (maxval <= 255 && k <= 5) {
          /* the 8-bit rows' median: the same outputs */
          guint8 *b8 = g_new (guint8, pitch * k), *o8 = g_new (guint8, w);
          const guint8 *rows8[5];

          for (i = 0; i < pitch * k; i++)
            b8[i] = (guint8) buf[i];
          for (j = 0; j < k; j++)
            rows8[j] = b8 + j * pitch;
          v[vi]->median8 (rows8, k, w, o8);
          for (x = 0; x < w; x++)
            if (o8[x] != out[x])
              g_error ("variant %d median8 %dx%d width %d: x %d is %d, not "
                  "%d", vi, k, k, w, x, o8[x], out[x]);
          g_free (b8);
          g_free (o8);
        }
        for (x = 0; x < w; x++) {
          for (j = 0; j < k; j++)
            for (i = 0; i < k; i++)
              win[j * k + i] = rows[j][x + i];
          qsort (win, k * k, sizeof (guint16), cmp_u16);
          if (out[x] != win[k * k / 2])
            g_error ("variant %d median %dx%d width %d: x %d is %d, not %d",
                vi, k, k, w, x, out[x], win[k * k / 2]);
        }
        g_free (buf);
        g_free (out);
      }
  g_rand_free (rand);
}

/* column: every count of rows (three at once, pairs, one left over) at
 * widths below and past a vector. */
static void
test_column (void)
{
  const CfNlRows *v[3];
  int nv = variants (v), vi, n, max, wi;
  static const int widths[] = { 1, 7, 33, 100 };
  GRand *rand = g_rand_new_with_seed (47);

  for (vi = 0; vi < nv; vi++)
    for (n = 1; n <= 9; n++)
      for (max = 0; max <= 1; max++)
        for (wi = 0; wi < (int) G_N_ELEMENTS (widths); wi++) {
          const int w = widths[wi];
          guint16 *buf = g_new (guint16, w * n), *out = g_new (guint16, w);
          const guint16 *rows[9];
          int x, j;

          fill (rand, buf, w * n, 65535);
          for (j = 0; j < n; j++)
            rows[j] = buf + j * w;
          if (wi % 2 == 1) {
            /* bytes, through the 8-bit rows' column */
            guint8 *b8 = g_new (guint8, w * n), *o8 = g_new (guint8, w);
            const guint8 *rows8[9];

            for (j = 0; j < w * n; j++)
              buf[j] &= 0xff;
            for (j = 0; j < w * n; j++)
              b8[j] = (guint8) buf[j];
            for (j = 0; j < n; j++)
              rows8[j] = b8 + j * w;
            v[vi]->column8 (rows8, n, w, max, o8);
            for (x = 0; x < w; x++)
              out[x] = o8[x];
            g_free (b8);
            g_free (o8);
          } else {
            v[vi]->column (rows, n, w, max, out);
          }
          for (x = 0; x < w; x++) {
            int m = rows[0][x];

            for (j = 1; j < n; j++)
              m = max ? MAX (m, rows[j][x]) : MIN (m, rows[j][x]);
            if (out[x] != m)
              g_error ("variant %d column of %d %s width %d: x %d is %d, "
                  "not %d", vi, n, max ? "max" : "min", w, x, out[x], m);
          }
          g_free (buf);
          g_free (out);
        }
  g_rand_free (rand);
}

/* bilateral1: the sums over a 5x5 window's offsets, by the definition,
 * at widths below the vector (4), with a remainder, and past a chunk
 * (512); distances past range_len weigh nothing. */
static void
test_bilateral (void)
{
  const CfNlRows *v[3];
  int nv = variants (v), vi, wi;
  static const int widths[] = { 1, 3, 6, 37, 513, 1030 };
  GRand *rand = g_rand_new_with_seed (53);

  for (vi = 0; vi < nv; vi++)
    for (wi = 0; wi < (int) G_N_ELEMENTS (widths); wi++) {
      const int w = widths[wi], pitch = w + 4, len = 40;
      guint16 *buf = g_new (guint16, pitch * 5);
      gint64 *sum = g_new (gint64, w), *wsum = g_new (gint64, w);
      const guint16 *rows[5];
      int space[25], dx[25], dy[25], range[40], n = 0, x, i, j, k;

      /* samples near each other (most within len) and 8 bits; weights
       * up to 2^24, whose products with samples fit 32 bits */
      for (i = 0; i < pitch * 5; i++)
        buf[i] = (guint16) (100 + g_rand_int_range (rand, 0, 60));
      for (j = 0; j < 5; j++)
        rows[j] = buf + j * pitch;
      for (j = -2; j <= 2; j++)
        for (i = -2; i <= 2; i++) {
          if (i * i + j * j > 4)
            continue;
          space[n] = g_rand_int_range (rand, 1, 1 << 24);
          dx[n] = i;
          dy[n++] = j;
        }
      for (i = 0; i < len; i++)
        range[i] = g_rand_int_range (rand, 1, 1 << 24);
      v[vi]->bilateral1 (rows, 2, 2, space, dx, dy, n, range, len, w, sum,
          wsum);
      for (x = 0; x < w; x++) {
        gint64 s = 0, ws = 0;

        for (k = 0; k < n; k++) {
          int c = rows[2][x + 2], a = rows[2 + dy[k]][x + 2 + dx[k]];
          int d = ABS (a - c);

          if (d < len) {
            s += (gint64) space[k] * range[d] * a;
            ws += (gint64) space[k] * range[d];
          }
        }
        if (sum[x] != s || wsum[x] != ws)
          g_error ("variant %d bilateral width %d: x %d sums %" G_GINT64_FORMAT
              " / %" G_GINT64_FORMAT ", not %" G_GINT64_FORMAT " / %"
              G_GINT64_FORMAT, vi, w, x, sum[x], wsum[x], s, ws);
      }
      g_free (buf);
      g_free (sum);
      g_free (wsum);
    }
  g_rand_free (rand);
}

/* column_group (16-bit) and column_group8: the CF_NL_COL_GROUP outputs of
 * columns of 8 rows and more. */
static void
test_column_group (void)
{
  const CfNlRows *v[3];
  int nv = variants (v), vi, ki, max, wi;
  static const int khs[] = { 8, 9, 15, 30 }, widths[] = { 1, 33, 100 };
  GRand *rand = g_rand_new_with_seed (59);

  for (vi = 0; vi < nv; vi++)
    for (ki = 0; ki < (int) G_N_ELEMENTS (khs); ki++)
      for (max = 0; max <= 1; max++)
        for (wi = 0; wi < (int) G_N_ELEMENTS (widths); wi++) {
          const int kh = khs[ki], w = widths[wi], g = CF_NL_COL_GROUP;
          const int n = kh + g - 1, bytes = (ki + wi) % 2;
          guint16 *buf = g_new (guint16, w * n), *o = g_new (guint16, w * g);
          guint16 *tmp = g_new (guint16, w), *outs[CF_NL_COL_GROUP];
          guint8 *b8 = g_new (guint8, w * n), *o8 = g_new (guint8, w * g);
          guint8 *t8 = g_new (guint8, w), *outs8[CF_NL_COL_GROUP];
          const guint16 *rows[64];
          const guint8 *rows8[64];
          int x, j, t;

          fill (rand, buf, w * n, bytes ? 255 : 65535);
          for (j = 0; j < w * n; j++)
            b8[j] = (guint8) buf[j];
          for (j = 0; j < n; j++) {
            rows[j] = buf + j * w;
            rows8[j] = b8 + j * w;
          }
          for (t = 0; t < g; t++) {
            outs[t] = o + t * w;
            outs8[t] = o8 + t * w;
          }
          if (bytes) {
            v[vi]->column_group8 (rows8, kh, w, max, t8, outs8);
            for (j = 0; j < w * g; j++)
              o[j] = o8[j];
          } else {
            v[vi]->column_group (rows, kh, w, max, tmp, outs);
          }
          for (t = 0; t < g; t++)
            for (x = 0; x < w; x++) {
              int m = rows[t][x];

              for (j = 1; j < kh; j++)
                m = max ? MAX (m, rows[t + j][x]) : MIN (m, rows[t + j][x]);
              if (outs[t][x] != m)
                g_error ("variant %d column group of %d %s%s width %d: "
                    "output %d x %d is %d, not %d", vi, kh, max ? "max" :
                    "min", bytes ? " (bytes)" : "", w, t, x, outs[t][x], m);
            }
          g_free (buf);
          g_free (o);
          g_free (tmp);
          g_free (b8);
          g_free (o8);
          g_free (t8);
        }
  g_rand_free (rand);
}

static void
test_line (void)
{
  const CfNlRows *v[3];
  int nv = variants (v), vi, len, max;
  GRand *rand = g_rand_new_with_seed (43);

  for (vi = 0; vi < nv; vi++)
    for (len = 1; len <= 700; len += len < 20 ? 1 : 37)
      for (max = 0; max <= 1; max++) {
        const int w = 1 + g_rand_int_range (rand, 0, 900), n = w + len - 1;
        guint16 *row = g_new (guint16, n), *tmp = g_new (guint16, 2 * n);
        guint16 *out = g_new (guint16, w), *acc = g_new (guint16, w);
        int x, i;

        fill (rand, row, n, 65535);
        fill (rand, acc, w, 65535);
        if ((len + max) % 2 == 1) {
          /* bytes, through the 8-bit rows' line (half the cases) */
          guint8 *r8 = g_new (guint8, n), *t8 = g_new (guint8, 2 * n);
          guint8 *o8 = g_new (guint8, w);

          for (x = 0; x < n; x++)
            r8[x] = (guint8) (row[x] &= 0xff);
          v[vi]->line8 (r8, len, w, max, t8, o8);
          for (x = 0; x < w; x++)
            out[x] = o8[x];
          g_free (r8);
          g_free (t8);
          g_free (o8);
        } else {
          v[vi]->line (row, len, w, max, tmp, out);
        }
        for (x = 0; x < w; x++) {
          int m = row[x];

          for (i = 1; i < len; i++)
            m = max ? MAX (m, row[x + i]) : MIN (m, row[x + i]);
          if (out[x] != m)
            g_error ("variant %d line %d %s width %d: x %d is %d, not %d",
                vi, len, max ? "max" : "min", w, x, out[x], m);
        }
        memcpy (tmp, acc, w * sizeof (guint16));
        v[vi]->accumulate (acc, row, w, max);
        for (x = 0; x < w; x++)
          g_assert_cmpint (acc[x], ==, max ? MAX (tmp[x], row[x]) :
              MIN (tmp[x], row[x]));
        g_free (row);
        g_free (tmp);
        g_free (out);
        g_free (acc);
      }
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nonlin-rows/median", test_median);
  g_test_add_func ("/nonlin-rows/column", test_column);
  g_test_add_func ("/nonlin-rows/column-group", test_column_group);
  g_test_add_func ("/nonlin-rows/line", test_line);
  g_test_add_func ("/nonlin-rows/bilateral", test_bilateral);
  return g_test_run ();
}
