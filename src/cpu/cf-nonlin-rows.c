/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: the fast CPU backend's nonlinear row kernels, compiled
 * once per instruction set (CF_CPU_VARIANT: portable, avx2, avx512) with
 * -O3.  Every loop is over whole arrays of 16-bit samples with min and max
 * only, which gcc vectorises, and which are exact at every depth. */
#include <string.h>
#if defined(__AVX2__)
#include <immintrin.h>
#endif
#include "cf-nonlin-rows.h"
#include "cf-nonlin-med5.h"

#define CF_CAT_(a, b) a ## b
#define CF_CAT(a, b) CF_CAT_ (a, b)

/* Lanes of one chunk of outputs: the network's samples stay in L1. */
#define CHUNK 128

static inline void
cswap (guint16 * restrict a, guint16 * restrict b, int n)
{
  int x;

  for (x = 0; x < n; x++) {
    const guint16 lo = MIN (a[x], b[x]), hi = MAX (a[x], b[x]);

    a[x] = lo;
    b[x] = hi;
  }
}

/* 3 x 3: each column of three sorted once (shared by the three windows
 * holding it); the median is the median of the largest column minimum,
 * the median of the column medians and the smallest column maximum.
 * Defined for 8-bit samples (twice the lanes) and 16-bit ones. */
#define DEFINE_MEDIAN3(TI, T, name)                                     \
static void                                                             \
name (const TI * const *rows, int w, TI * restrict out)                 \
{                                                                       \
  T lo[CHUNK + 2], mid[CHUNK + 2], hi[CHUNK + 2];                       \
  int x0, x;                                                            \
                                                                        \
  for (x0 = 0; x0 < w; x0 += CHUNK) {                                   \
    const int n = MIN (CHUNK, w - x0);                                  \
    const TI *r0 = rows[0] + x0, *r1 = rows[1] + x0;                    \
    const TI *r2 = rows[2] + x0;                                        \
                                                                        \
    for (x = 0; x < n + 2; x++) {                                       \
      const T a = (T) r0[x], b = (T) r1[x], c = (T) r2[x];              \
      const T l = MIN (a, b), h = MAX (a, b);                           \
                                                                        \
      lo[x] = MIN (l, c);                                               \
      hi[x] = MAX (h, c);                                               \
      mid[x] = MAX (l, MIN (h, c));                                     \
    }                                                                   \
    for (x = 0; x < n; x++) {                                           \
      const T a = MAX (MAX (lo[x], lo[x + 1]), lo[x + 2]);              \
      const T c = MIN (MIN (hi[x], hi[x + 1]), hi[x + 2]);              \
      const T l = MIN (mid[x], mid[x + 1]);                             \
      const T h = MAX (mid[x], mid[x + 1]);                             \
      const T b = MAX (l, MIN (h, mid[x + 2]));                         \
      const T l2 = MIN (a, b), h2 = MAX (a, b);                         \
                                                                        \
      out[x0 + x] = MAX (l2, MIN (h2, c));                              \
    }                                                                   \
  }                                                                     \
}

DEFINE_MEDIAN3 (guint16, guint8, median3_bytes);
DEFINE_MEDIAN3 (guint16, guint16, median3_words);
DEFINE_MEDIAN3 (guint8, guint8, median3_8);

/* 5 x 5, the comparators of cf-nonlin-med5.h over a chunk of outputs,
 * each stage a loop gcc vectorises over whole rows (32 8-bit or 16 16-bit
 * lanes with AVX2): the columns sorted (each shared by five windows),
 * neighbouring sorted columns merged in pairs (each pair shared by two
 * windows), the median from two pairs and a column.  Defined for 8-bit
 * samples (twice the lanes) and 16-bit ones. */
#define MED5_CHUNK 512

#define DEFINE_MEDIAN5(TI, T, name)                                     \
static void                                                             \
name (const TI * const *rows, int w, TI * restrict out)                 \
{                                                                       \
  T cols[5][MED5_CHUNK + 4], pairs[10][MED5_CHUNK + 3];                 \
  int x0, x, j;                                                         \
                                                                        \
  for (x0 = 0; x0 < w; x0 += MED5_CHUNK) {                              \
    const int n = MIN (MED5_CHUNK, w - x0);                             \
    const TI *r0 = rows[0] + x0, *r1 = rows[1] + x0,                    \
        *r2 = rows[2] + x0, *r3 = rows[3] + x0, *r4 = rows[4] + x0;     \
                                                                        \
    for (x = 0; x < n + 4; x++) {                                       \
      T a[5], s[5];                                                     \
                                                                        \
      a[0] = (T) r0[x];                                                 \
      a[1] = (T) r1[x];                                                 \
      a[2] = (T) r2[x];                                                 \
      a[3] = (T) r3[x];                                                 \
      a[4] = (T) r4[x];                                                 \
      CF_MED5_SORT (T, a, s);                                           \
      for (j = 0; j < 5; j++)                                           \
        cols[j][x] = s[j];                                              \
    }                                                                   \
    for (x = 0; x < n + 3; x++) {                                       \
      T a[5], b[5], m[10];                                              \
                                                                        \
      for (j = 0; j < 5; j++) {                                         \
        a[j] = cols[j][x];                                              \
        b[j] = cols[j][x + 1];                                          \
      }                                                                 \
      CF_MED5_PAIR (T, a, b, m);                                        \
      for (j = 0; j < 10; j++)                                          \
        pairs[j][x] = m[j];                                             \
    }                                                                   \
    for (x = 0; x < n; x++) {                                           \
      T m[10], p[10], e[5], med;                                        \
                                                                        \
      for (j = 0; j < 10; j++) {                                        \
        m[j] = pairs[j][x];                                             \
        p[j] = pairs[j][x + 2];                                         \
      }                                                                 \
      for (j = 0; j < 5; j++)                                           \
        e[j] = cols[j][x + 4];                                          \
      CF_MED5_FINAL (T, m, p, e, med);                                  \
      out[x0 + x] = med;                                                \
    }                                                                   \
  }                                                                     \
}

DEFINE_MEDIAN5 (guint16, guint8, median5_bytes);
DEFINE_MEDIAN5 (guint16, guint16, median5_words);
DEFINE_MEDIAN5 (guint8, guint8, median5_8);

/* The 3x3 and 5x5 medians of 8-bit rows into 8-bit samples. */
static void
median8 (const guint8 * const *rows, int k, int w, guint8 * out)
{
  if (k == 3)
    median3_8 (rows, w, out);
  else
    median5_8 (rows, w, out);
}

/* k x k, k odd up to CF_NL_ROWS_MAX_NETWORK: forgetful selection, lane by
 * lane over a chunk of outputs: keep M + 2 samples (M the median's rank),
 * drop their min and max (neither can be the median), take the next
 * sample, until one is left.  The kernels' register network
 * (kernels/cf-nonlin-window.cu) does the same. */
static void
median_any (const guint16 * const *rows, int k, int w, int bytes,
    guint16 * out)
{
  const int n = k * k, s = (n - 1) / 2 + 2;
  guint16 v[CF_NL_ROWS_MAX_NETWORK * CF_NL_ROWS_MAX_NETWORK][CHUNK];
  int x0, r, i;

  if (k == 3) {
    if (bytes)
      median3_bytes (rows, w, out);
    else
      median3_words (rows, w, out);
    return;
  }
  if (k == 5) {
    if (bytes)
      median5_bytes (rows, w, out);
    else
      median5_words (rows, w, out);
    return;
  }
  for (x0 = 0; x0 < w; x0 += CHUNK) {
    const int cnt = MIN (CHUNK, w - x0);

    /* Whole chunks (a constant trip count, no remainder loops); the
     * lanes past the row's end hold zeros, never stored. */
    for (i = 0; i < n; i++) {
      memcpy (v[i], rows[i / k] + x0 + i % k, cnt * sizeof (guint16));
      if (cnt < CHUNK)
        memset (v[i] + cnt, 0, (CHUNK - cnt) * sizeof (guint16));
    }
    /* Round r keeps v[r .. s): its min goes to v[r], its max to v[s - 1],
     * which sample s + r then replaces. */
    for (r = 0; r <= n - s; r++) {
      for (i = r + 1; i < s; i++)
        cswap (v[r], v[i], CHUNK);
      for (i = r + 1; i < s - 1; i++)
        cswap (v[i], v[s - 1], CHUNK);
      if (r < n - s)
        memcpy (v[s - 1], v[s + r], CHUNK * sizeof (guint16));
    }
    memcpy (out + x0, v[n - s + 1], cnt * sizeof (guint16));
  }
}

/* accumulate, column, column_group and line over 16-bit rows and 8-bit
 * ones (their names with 8). */
#define T guint16
#define NAME(x) x
#include "cf-nonlin-rows-minmax.h"
#undef T
#undef NAME
#define T guint8
#define NAME(x) x ## 8
#include "cf-nonlin-rows-minmax.h"
#undef T
#undef NAME

/* The bilateral's sums of one colour (GRAY, a plane), offset by offset
 * over the row: each weight space[k] * range[|s - c|] as a 32 x 32-bit
 * product, which vectorises, the caller making sure every range weight
 * times every sample fits 32 bits. */
#define BILATERAL_CHUNK 512

static void
bilateral1 (const guint16 * const *rows, int ay, int ax, const int *space,
    const int *dx, const int *dy, int n_offsets, const int *range,
    int range_len, int w, gint64 * restrict sum, gint64 * restrict wsum)
{
  int k, x, x0;

  memset (sum, 0, sizeof (gint64) * w);
  memset (wsum, 0, sizeof (gint64) * w);
  /* Chunks whose sums stay in L1 over the offsets. */
  for (x0 = 0; x0 < w; x0 += BILATERAL_CHUNK) {
    for (k = 0; k < n_offsets; k++) {
      const int n = MIN (BILATERAL_CHUNK, w - x0);
      const guint16 *s = rows[ay + dy[k]] + ax + dx[k] + x0;
      const guint16 *c = rows[ay] + ax + x0;
      gint64 *su = sum + x0, *ws = wsum + x0;
      const guint64 sk = (guint32) space[k];

      x = 0;
#if defined(__AVX2__)
      {
        /* Four samples in 64-bit lanes (gcc does not gather for AVX2):
         * their high halves are zero, so 32-bit min, max and compares
         * serve, and _mm256_mul_epu32 multiplies the low halves. */
        const __m256i skv = _mm256_set1_epi64x ((long long) sk);
        const __m256i last = _mm256_set1_epi64x (range_len - 1);
        const __m256i lenv = _mm256_set1_epi64x (range_len);

        for (; x + 4 <= n; x += 4) {
          const __m256i v = _mm256_cvtepu16_epi64 (_mm_loadl_epi64 ((const
                      __m128i *) (s + x)));
          const __m256i m = _mm256_cvtepu16_epi64 (_mm_loadl_epi64 ((const
                      __m128i *) (c + x)));
          const __m256i d = _mm256_sub_epi32 (_mm256_max_epu32 (v, m),
              _mm256_min_epu32 (v, m));
          const __m256i idx = _mm256_min_epu32 (d, last);
          __m256i r = _mm256_cvtepu32_epi64 (_mm256_i64gather_epi32 (range,
                  idx, 4));
          __m256i *ps = (__m256i *) (su + x), *pw = (__m256i *) (ws + x);

          r = _mm256_and_si256 (r, _mm256_cmpgt_epi32 (lenv, d));
          _mm256_storeu_si256 (ps, _mm256_add_epi64 (_mm256_loadu_si256 (ps),
                  _mm256_mul_epu32 (skv, _mm256_mul_epu32 (r, v))));
          _mm256_storeu_si256 (pw, _mm256_add_epi64 (_mm256_loadu_si256 (pw),
                  _mm256_mul_epu32 (skv, r)));
        }
      }
#endif
      for (; x < n; x++) {
        const int v = s[x], m = c[x], d = v > m ? v - m : m - v;
        const guint32 r0 = (guint32) range[MIN (d, range_len - 1)];
        const guint32 r = d < range_len ? r0 : 0;

        su[x] += (gint64) (sk * (r * (guint32) v));
        ws[x] += (gint64) (sk * r);
      }
    }
  }
}

/* Plain samples in and out of the 16-bit rows: packed ones (GRAY8,
 * GRAY16, planar) as straight copies, interleaved ones strided. */
static void
widen (const guint8 * restrict s, int ps, int bytes, int w,
    guint16 * restrict dst)
{
  int x;

  if (bytes == 1 && ps == 1) {
    for (x = 0; x < w; x++)
      dst[x] = s[x];
  } else if (bytes == 1) {
    for (x = 0; x < w; x++)
      dst[x] = s[(gsize) x * ps];
  } else if (ps == 2) {
    memcpy (dst, s, w * sizeof (guint16));
  } else {
    for (x = 0; x < w; x++)
      memcpy (dst + x, s + (gsize) x * ps, sizeof (guint16));
  }
}

static void
narrow (const guint16 * restrict v, int w, int ps, int bytes,
    guint8 * restrict d)
{
  int x;

  if (bytes == 1 && ps == 1) {
    for (x = 0; x < w; x++)
      d[x] = (guint8) v[x];
  } else if (bytes == 1) {
    for (x = 0; x < w; x++)
      d[(gsize) x * ps] = (guint8) v[x];
  } else if (ps == 2) {
    memcpy (d, v, w * sizeof (guint16));
  } else {
    for (x = 0; x < w; x++)
      memcpy (d + (gsize) x * ps, v + x, sizeof (guint16));
  }
}

const CfNlRows CF_CAT (cf_nl_rows_, CF_CPU_VARIANT) = {
  median_any, accumulate, column, column_group, line, median8, column8,
  column_group8, line8, bilateral1, widen, narrow
};
