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
          v[vi]->median8 (rows8, k, w, 1, o8);
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

/* median8 and line8 over interleaved pixels of ps bytes (RGBA, RGB,
 * semi-planar chroma): each byte of the pixel its own channel, by the
 * definition, at odd widths, below a vector and past a chunk. */
static void
test_interleaved (void)
{
  const CfNlRows *v[3];
  int nv = variants (v), vi, ps, wi, k, len, max;
  static const int widths[] = { 1, 2, 5, 13, 33, 131, 257, 700 };
  static const int lens[] = { 2, 3, 4, 7, 15, 16, 31, 255, 256, 300 };
  GRand *rand = g_rand_new_with_seed (59);

  for (vi = 0; vi < nv; vi++)
    for (ps = 2; ps <= 4; ps++)
      for (wi = 0; wi < (int) G_N_ELEMENTS (widths); wi++) {
        const int w = widths[wi];

        for (k = 3; k <= 5; k += 2) {
          const int pitch = (w + k - 1) * ps;
          guint8 *buf = g_new (guint8, pitch * k), *out = g_new (guint8,
              w * ps);
          const guint8 *rows[5];
          int x, c, i, j;

          for (i = 0; i < pitch * k; i++)
            buf[i] = (guint8) g_rand_int_range (rand, 0, wi % 2 ? 4 : 256);
          for (j = 0; j < k; j++)
            rows[j] = buf + j * pitch;
          v[vi]->median8 (rows, k, w, ps, out);
          for (x = 0; x < w; x++)
            for (c = 0; c < ps; c++) {
              guint16 win[25];

              for (j = 0; j < k; j++)
                for (i = 0; i < k; i++)
                  win[j * k + i] = rows[j][(x + i) * ps + c];
              qsort (win, k * k, sizeof (guint16), cmp_u16);
              if (out[x * ps + c] != win[k * k / 2])
                g_error ("variant %d median8 %dx%d of %d-byte pixels, width "
                    "%d: x %d byte %d is %d, not %d", vi, k, k, ps, w, x, c,
                    out[x * ps + c], win[k * k / 2]);
            }
          g_free (buf);
          g_free (out);
        }
        for (len = 0; len < (int) G_N_ELEMENTS (lens); len++)
          for (max = 0; max <= 1; max++) {
            const int l = lens[len], n = (w + l - 1) * ps;
            guint8 *row = g_new (guint8, n), *tmp = g_new (guint8, 2 * n);
            guint8 *out = g_new (guint8, w * ps);
            int x, c, i;

            for (i = 0; i < n; i++)
              row[i] = (guint8) g_rand_int_range (rand, 0, 256);
            v[vi]->line8 (row, l, w, ps, max, tmp, out);
            for (x = 0; x < w; x++)
              for (c = 0; c < ps; c++) {
                int m = row[x * ps + c];

                for (i = 1; i < l; i++)
                  m = max ? MAX (m, row[(x + i) * ps + c]) :
                      MIN (m, row[(x + i) * ps + c]);
                if (out[x * ps + c] != m)
                  g_error ("variant %d line8 %s of %d, %d-byte pixels, "
                      "width %d: x %d byte %d is %d, not %d", vi,
                      max ? "max" : "min", l, ps, w, x, c, out[x * ps + c],
                      m);
              }
            g_free (row);
            g_free (tmp);
            g_free (out);
          }
      }
  g_rand_free (rand);
}

/* blend8: the copied and filled bytes of interleaved pixels (an RGBA
 * alpha copied, a chroma filled) over the filtered ones, by the
 * definition, below a period (96 bytes), at one and past it. */
static void
test_blend (void)
{
  const CfNlRows *v[3];
  int nv = variants (v), vi, ni;
  static const int lens[] = { 1, 7, 95, 96, 97, 300, 7681 };
  GRand *rand = g_rand_new_with_seed (61);

  for (vi = 0; vi < nv; vi++)
    for (ni = 0; ni < (int) G_N_ELEMENTS (lens); ni++) {
      const int n = lens[ni], ps = 2 + ni % 3;
      guint8 keep[CF_NL_BLEND_PERIOD], take[CF_NL_BLEND_PERIOD];
      guint8 fill[CF_NL_BLEND_PERIOD];
      guint8 *d = g_new (guint8, n), *s = g_new (guint8, n);
      guint8 *want = g_new (guint8, n);
      int x, i;

      /* byte 0 of each pixel copied, byte ps - 1 filled with 128 + ni */
      for (i = 0; i < CF_NL_BLEND_PERIOD; i++) {
        keep[i] = i % ps == 0 || i % ps == ps - 1 ? 0 : 0xff;
        take[i] = i % ps == 0 ? 0xff : 0;
        fill[i] = i % ps == ps - 1 ? (guint8) (128 + ni) : 0;
      }
      for (x = 0; x < n; x++) {
        d[x] = (guint8) g_rand_int_range (rand, 0, 256);
        s[x] = (guint8) g_rand_int_range (rand, 0, 256);
        want[x] = x % ps == 0 ? s[x] : x % ps == ps - 1 ?
            (guint8) (128 + ni) : d[x];
      }
      v[vi]->blend8 (d, s, n, keep, take, fill);
      for (x = 0; x < n; x++)
        if (d[x] != want[x])
          g_error ("variant %d blend8 of %d bytes, %d-byte pixels: byte %d "
              "is %d, not %d", vi, n, ps, x, d[x], want[x]);
      g_free (d);
      g_free (s);
      g_free (want);
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

/* bilateral8: one colour and three, by the definition (64-bit sums of
 * space * range * sample, rounded half up), at widths below the vectors
 * (8), with remainders, and wide; range weights at their bound (2^26)
 * and samples at 0 and 255 (every 32-bit lane at its largest; space
 * weights below 2^20, so the 64-bit sums of 81 offsets fit), in runs of
 * equal space weight longer than the kernel's run of 32 and shorter,
 * distances past the range's zeros. */
static void
test_bilateral (void)
{
  const CfNlRows *v[3];
  int nv = variants (v), vi, wi, n;
  static const int widths[] = { 1, 3, 7, 8, 9, 16, 37, 70, 1031 };
  GRand *rand = g_rand_new_with_seed (53);

  for (vi = 0; vi < nv; vi++)
    for (n = 1; n <= 3; n += 2)
      for (wi = 0; wi < (int) G_N_ELEMENTS (widths); wi++) {
        const int w = widths[wi], r = 4, pitch = w + 2 * r;
        const int len = 60 + 30 * wi;
        guint16 *buf = g_new (guint16, 3 * pitch * (2 * r + 1));
        guint16 *got = g_new (guint16, 3 * w);
        guint16 *outs[3] = { got, got + w, got + 2 * w };
        const guint16 *rows[3][9], *taps[3 * 81], *centre[3];
        int space[81], dx[81], dy[81], range[CF_NL_BILATERAL8_RANGE];
        int no = 0, x, i, j, k, c;

        /* mostly near 128 (within len), a quarter at the extremes; or
         * flat, 255 but for one sample in 256 (every weight at 2^26) */
        for (i = 0; i < 3 * pitch * (2 * r + 1); i++) {
          int e = g_rand_int_range (rand, 0, wi % 3 == 0 ? 256 : 8);

          buf[i] = (guint16) (e == 0 ? 0 : e == 1 || e >= 8 ? 255 :
              118 + g_rand_int_range (rand, 0, 20));
        }
        for (c = 0; c < 3; c++)
          for (j = 0; j < 2 * r + 1; j++)
            rows[c][j] = buf + (c * (2 * r + 1) + j) * pitch;
        /* 81 offsets of one weight, or the first 40 of one weight (a
         * run past 32), then runs of 1 to 4, the centre among them */
        for (j = -r; j <= r; j++)
          for (i = -r; i <= r; i++) {
            space[no] = no < 40 || wi % 2 == 0 ? (1 << 20) - 1 - (wi & 1) :
                no < 60 ? (1 << 20) - no / 4 : g_rand_int_range (rand, 1,
                1 << 20);
            dx[no] = i;
            dy[no++] = j;
          }
        for (i = 0; i < CF_NL_BILATERAL8_RANGE; i++)
          range[i] = i == 0 ? 1 << 26 : i < len ?
              g_rand_int_range (rand, (1 << 26) - 4, 1 << 26) : 0;
        for (c = 0; c < n; c++) {
          centre[c] = rows[c][r] + r;
          for (k = 0; k < no; k++)
            taps[c * no + k] = rows[c][r + dy[k]] + r + dx[k];
        }
        v[vi]->bilateral8 (taps, centre, n, space, no, range, w, outs);
        for (x = 0; x < w; x++) {
          gint64 s[3] = { 0, 0, 0 }, ws = 0;

          for (k = 0; k < no; k++) {
            int d = 0;

            for (c = 0; c < n; c++)
              d += ABS ((int) rows[c][r + dy[k]][x + r + dx[k]] -
                  (int) rows[c][r][x + r]);
            ws += (gint64) space[k] * range[d];
            for (c = 0; c < n; c++)
              s[c] += (gint64) space[k] * range[d] *
                  rows[c][r + dy[k]][x + r + dx[k]];
          }
          for (c = 0; c < n; c++) {
            int want = (int) ((s[c] + ws / 2) / ws);

            if (outs[c][x] != want)
              g_error ("variant %d bilateral of %d colours, width %d: x %d "
                  "colour %d is %d, not %d", vi, n, w, x, c, outs[c][x],
                  want);
          }
        }
        g_free (buf);
        g_free (got);
      }
  g_rand_free (rand);
}

/* bilateral8_pairs and bilateral8_sum, by the definition: the range
 * weight of each pair of samples (0 to 255 apart, past the range's
 * zeros), and the quotient of 64-bit sums of space * weight * sample
 * rounded half up, at widths below the vectors (8 and 16), with
 * remainders, and wide; weights at their bound (2^26) with samples at
 * 255 (every 32-bit lane at its largest), runs of equal space weight
 * longer than the kernel's run of 32 and shorter, from x0 > 0. */
static void
test_bilateral_pairs (void)
{
  const CfNlRows *v[3];
  int nv = variants (v), vi, wi;
  static const int widths[] = { 1, 7, 8, 9, 15, 16, 17, 24, 37, 1031 };
  GRand *rand = g_rand_new_with_seed (71);

  for (vi = 0; vi < nv; vi++)
    for (wi = 0; wi < (int) G_N_ELEMENTS (widths); wi++) {
      const int w = widths[wi], no = 81, x0 = wi % 3;
      guint16 *a = g_new (guint16, w), *b = g_new (guint16, w);
      guint16 *smp = g_new (guint16, (gsize) no * w);
      guint16 *got = g_new (guint16, w);
      int *wt = g_new (int, (gsize) no * w), *pw = g_new (int, w);
      const guint16 *taps[81];
      const int *wts[81];
      int space[81], runs[81], range[CF_NL_BILATERAL8_RANGE];
      int i, k, x;

      for (i = 0; i < CF_NL_BILATERAL8_RANGE; i++)
        range[i] = i == 0 ? 1 << 26 : i < 200 ?
            g_rand_int_range (rand, 1, (1 << 26) + 1) : 0;
      for (x = 0; x < w; x++) {
        a[x] = (guint16) g_rand_int_range (rand, 0, 256);
        b[x] = (guint16) (x % 5 == 0 ? 255 - a[x] :
            g_rand_int_range (rand, 0, 256));
        pw[x] = -1;
      }
      v[vi]->bilateral8_pairs (a, b, range, w, pw);
      for (x = 0; x < w; x++)
        if (pw[x] != range[ABS ((int) a[x] - (int) b[x])])
          g_error ("variant %d bilateral8_pairs width %d: x %d is %d, not "
              "%d", vi, w, x, pw[x], range[ABS ((int) a[x] - (int) b[x])]);

      /* all 81 offsets of one space weight (81 weights of 2^26 overflow a
       * 32-bit lane), or 40 (a run past 32) then runs of 1 to 4; every
       * third width all at the bound (weights 2^26, samples 255) */
      for (k = 0; k < no; k++) {
        space[k] = k < 40 || wi % 2 == 0 ? (1 << 20) - 1 :
            (1 << 20) - 2 - k / 4;
        taps[k] = smp + (gsize) k * w;
        wts[k] = wt + (gsize) k * w;
        for (x = 0; x < w; x++) {
          gboolean top = wi % 3 == 0 || g_rand_int_range (rand, 0, 8) == 0;

          smp[(gsize) k * w + x] = (guint16) (top ? 255 :
              g_rand_int_range (rand, 0, 256));
          wt[(gsize) k * w + x] = top ? 1 << 26 :
              g_rand_int_range (rand, 1, (1 << 26) + 1);
        }
      }
      for (k = no - 1; k >= 0; k--)
        runs[k] = k + 1 < no && space[k + 1] == space[k] ? runs[k + 1] :
            k + 1;
      for (x = 0; x < w; x++)
        got[x] = 0xffff;
      v[vi]->bilateral8_sum (taps, wts, space, runs, no, x0, w, got);
      for (x = 0; x < w; x++) {
        gint64 s = 0, ws = 0;
        int want;

        for (k = 0; k < no; k++) {
          ws += (gint64) space[k] * wts[k][x];
          s += (gint64) space[k] * wts[k][x] * taps[k][x];
        }
        want = x < x0 ? 0xffff : (int) ((s + ws / 2) / ws);
        if (got[x] != want)
          g_error ("variant %d bilateral8_sum width %d from %d: x %d is %d, "
              "not %d", vi, w, x0, x, got[x], want);
      }
      g_free (a);
      g_free (b);
      g_free (smp);
      g_free (got);
      g_free (wt);
      g_free (pw);
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
          v[vi]->line8 (r8, len, w, 1, max, t8, o8);
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
  g_test_add_func ("/nonlin-rows/bilateral-pairs", test_bilateral_pairs);
  g_test_add_func ("/nonlin-rows/interleaved", test_interleaved);
  g_test_add_func ("/nonlin-rows/blend", test_blend);
  return g_test_run ();
}
