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

/* The most samples a pixel of the 8-bit medians (interleaved channels,
 * each its own median: the neighbour ps samples on). */
#define MAX_PS 4

/* 3 x 3: each column of three sorted once (shared by the three windows
 * holding it); the median is the median of the largest column minimum,
 * the median of the column medians and the smallest column maximum.
 * Defined for 8-bit samples (twice the lanes) and 16-bit ones; w pixels
 * of ps samples. */
#define DEFINE_MEDIAN3(TI, T, name, CH)                                 \
static void                                                             \
name (const TI * const *rows, int w, int ps, TI * restrict out)         \
{                                                                       \
  T lo[CH + 2 * MAX_PS], mid[CH + 2 * MAX_PS];                          \
  T hi[CH + 2 * MAX_PS];                                                \
  int x0, x;                                                            \
                                                                        \
  w *= ps;                                                              \
  for (x0 = 0; x0 < w; x0 += CH) {                                      \
    const int n = MIN (CH, w - x0);                                     \
    const TI *r0 = rows[0] + x0, *r1 = rows[1] + x0;                    \
    const TI *r2 = rows[2] + x0;                                        \
    const T *lo1 = lo + ps, *lo2 = lo + 2 * ps, *mid1 = mid + ps;       \
    const T *mid2 = mid + 2 * ps, *hi1 = hi + ps, *hi2 = hi + 2 * ps;   \
                                                                        \
    for (x = 0; x < n + 2 * ps; x++) {                                  \
      const T a = (T) r0[x], b = (T) r1[x], c = (T) r2[x];              \
      const T l = MIN (a, b), h = MAX (a, b);                           \
                                                                        \
      lo[x] = MIN (l, c);                                               \
      hi[x] = MAX (h, c);                                               \
      mid[x] = MAX (l, MIN (h, c));                                     \
    }                                                                   \
    for (x = 0; x < n; x++) {                                           \
      const T a = MAX (MAX (lo[x], lo1[x]), lo2[x]);                    \
      const T c = MIN (MIN (hi[x], hi1[x]), hi2[x]);                    \
      const T l = MIN (mid[x], mid1[x]);                                \
      const T h = MAX (mid[x], mid1[x]);                                \
      const T b = MAX (l, MIN (h, mid2[x]));                            \
      const T l2 = MIN (a, b), h2 = MAX (a, b);                         \
                                                                        \
      out[x0 + x] = MAX (l2, MIN (h2, c));                              \
    }                                                                   \
  }                                                                     \
}

/* Chunks of outputs (samples) whose columns stay in L1. */
DEFINE_MEDIAN3 (guint16, guint8, median3_bytes, CHUNK);
DEFINE_MEDIAN3 (guint16, guint16, median3_words, CHUNK);
DEFINE_MEDIAN3 (guint8, guint8, median3_8, 1024);

/* 5 x 5, the comparators of cf-nonlin-med5.h over a chunk of outputs,
 * each stage a loop gcc vectorises over whole rows (32 8-bit or 16 16-bit
 * lanes with AVX2): the columns sorted (each shared by five windows),
 * neighbouring sorted columns merged in pairs (each pair shared by two
 * windows), the median from two pairs and a column.  Defined for 8-bit
 * samples (twice the lanes) and 16-bit ones. */
#define MED5_CHUNK 512

#define DEFINE_MEDIAN5(TI, T, name)                                     \
static void                                                             \
name (const TI * const *rows, int w, int ps, TI * restrict out)         \
{                                                                       \
  T cols[5][MED5_CHUNK + 4 * MAX_PS], pairs[10][MED5_CHUNK + 3 * MAX_PS]; \
  int x0, x, j;                                                         \
                                                                        \
  w *= ps;                                                              \
  for (x0 = 0; x0 < w; x0 += MED5_CHUNK) {                              \
    const int n = MIN (MED5_CHUNK, w - x0);                             \
    const TI *r0 = rows[0] + x0, *r1 = rows[1] + x0,                    \
        *r2 = rows[2] + x0, *r3 = rows[3] + x0, *r4 = rows[4] + x0;     \
                                                                        \
    for (x = 0; x < n + 4 * ps; x++) {                                  \
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
    for (x = 0; x < n + 3 * ps; x++) {                                  \
      T a[5], b[5], m[10];                                              \
                                                                        \
      for (j = 0; j < 5; j++) {                                         \
        a[j] = cols[j][x];                                              \
        b[j] = cols[j][x + ps];                                         \
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
        p[j] = pairs[j][x + 2 * ps];                                    \
      }                                                                 \
      for (j = 0; j < 5; j++)                                           \
        e[j] = cols[j][x + 4 * ps];                                     \
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
median8 (const guint8 * const *rows, int k, int w, int ps, guint8 * out)
{
  if (k == 3)
    median3_8 (rows, w, ps, out);
  else
    median5_8 (rows, w, ps, out);
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
      median3_bytes (rows, w, 1, out);
    else
      median3_words (rows, w, 1, out);
    return;
  }
  if (k == 5) {
    if (bytes)
      median5_bytes (rows, w, 1, out);
    else
      median5_words (rows, w, 1, out);
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

/* The bilateral of 8-bit samples, n colours (1, or 3 with the L1 colour
 * distance), all n outputs at once.  Integer sums are exact in any order,
 * so the offsets go in runs of equal space weight S: within a run, 8
 * outputs a vector, the range weights R (at most 2^26) are summed in
 * 32-bit lanes, and R * v as R's low 15 bits times v plus its high bits
 * times v (16 x 16-bit products, below 2^23 and 2^20): runs of at most
 * BILATERAL_RUN offsets keep every lane below 2^32.  Each run then adds S
 * times its lanes to the 64-bit sums: the definition's sums of S * R * v,
 * in another order. */
#define BILATERAL_RUN 32

static inline guint16
bilateral_quotient (gint64 sum, gint64 wsum)
{
  return (guint16) ((sum + wsum / 2) / wsum);
}

/* Outputs x0 .. w - 1 one by one, by the definition. */
static inline void
bilateral8_tail (const guint16 * const *taps, const guint16 * const *centre,
    const int n, const int *space, int n_offsets, const int *range, int x0,
    int w, guint16 * const *outs)
{
  int x, k, c;

  for (x = x0; x < w; x++) {
    gint64 sum[3] = { 0, 0, 0 }, wsum = 0;

    for (k = 0; k < n_offsets; k++) {
      int d = 0;
      gint64 wt;

      for (c = 0; c < n; c++) {
        const int s = taps[c * n_offsets + k][x], m = centre[c][x];

        d += s > m ? s - m : m - s;
      }
      wt = (gint64) space[k] * range[d];
      wsum += wt;
      for (c = 0; c < n; c++)
        sum[c] += wt * taps[c * n_offsets + k][x];
    }
    for (c = 0; c < n; c++)
      outs[c][x] = bilateral_quotient (sum[c], wsum);
  }
}

#if defined(__AVX2__)
static inline __m256i
load8 (const guint16 * p)
{
  return _mm256_cvtepu16_epi32 (_mm_loadu_si128 ((const __m128i *) p));
}

/* table[d] of 8 lanes by scalar loads: one colour runs faster so than
 * with a gather on AMD's Zen 3 (three colours, with more to do beside
 * each lookup, faster with the gather). */
static inline __m256i
lut8 (const int *table, __m256i d)
{
  /* Two indices a 64-bit move (fewer uops than one extract each). */
  const __m128i l = _mm256_castsi256_si128 (d);
  const __m128i h = _mm256_extracti128_si256 (d, 1);
  const guint64 i0 = (guint64) _mm_cvtsi128_si64 (l);
  const guint64 i1 = (guint64) _mm_extract_epi64 (l, 1);
  const guint64 i2 = (guint64) _mm_cvtsi128_si64 (h);
  const guint64 i3 = (guint64) _mm_extract_epi64 (h, 1);

  return _mm256_setr_epi32 (table[(guint32) i0], table[i0 >> 32],
      table[(guint32) i1], table[i1 >> 32], table[(guint32) i2],
      table[i2 >> 32], table[(guint32) i3], table[i3 >> 32]);
}

/* s += S * a, the even (odd) 32-bit lanes of a into the 64-bit lanes of
 * s[0] (s[1]), shifted left by `shift`. */
static inline void
add_scaled (__m256i * s, __m256i a, __m256i sv, int shift)
{
  const __m256i e = _mm256_mul_epu32 (a, sv);
  const __m256i o = _mm256_mul_epu32 (_mm256_srli_epi64 (a, 32), sv);

  s[0] = _mm256_add_epi64 (s[0], _mm256_slli_epi64 (e, shift));
  s[1] = _mm256_add_epi64 (s[1], _mm256_slli_epi64 (o, shift));
}

/* The quotients of 8 outputs from their 64-bit sums (even, odd lanes). */
static inline void
store_quotients (const __m256i * sum, const __m256i * wsum, guint16 * out)
{
  gint64 s[2][4], ws[2][4];
  int i;

  _mm256_storeu_si256 ((__m256i *) s[0], sum[0]);
  _mm256_storeu_si256 ((__m256i *) s[1], sum[1]);
  _mm256_storeu_si256 ((__m256i *) ws[0], wsum[0]);
  _mm256_storeu_si256 ((__m256i *) ws[1], wsum[1]);
  for (i = 0; i < 8; i++)
    out[i] = bilateral_quotient (s[i & 1][i >> 1], ws[i & 1][i >> 1]);
}

/* One step of a run: the range weights of 8 outputs at tap p (centre c),
 * their sums into aw, lo and hi. */
#define BILATERAL_TAP1(p, cen, aw, lo, hi)                              \
  do {                                                                  \
    const __m256i v_ = load8 (p);                                       \
    const __m256i d_ = _mm256_abs_epi32 (_mm256_sub_epi32 (v_, cen));   \
    const __m256i r_ = lut8 (range, d_);                                \
                                                                        \
    aw = _mm256_add_epi32 (aw, r_);                                     \
    lo = _mm256_add_epi32 (lo,                                          \
        _mm256_madd_epi16 (_mm256_and_si256 (r_, lo15), v_));           \
    hi = _mm256_add_epi32 (hi,                                          \
        _mm256_madd_epi16 (_mm256_srli_epi32 (r_, 15), v_));            \
  } while (0)

/* One colour, 8 outputs a step. */
static void
bilateral8_one (const guint16 * const *taps, const guint16 * centre,
    const int *space, int n_offsets, const int *range, int w,
    guint16 * out)
{
  const __m256i lo15 = _mm256_set1_epi32 (0x7fff);
  int x, k;

  for (x = 0; x + 8 <= w; x += 8) {
    const __m256i c0 = load8 (centre + x);
    __m256i s0[2], w0[2];

    s0[0] = s0[1] = _mm256_setzero_si256 ();
    w0[0] = w0[1] = _mm256_setzero_si256 ();
    for (k = 0; k < n_offsets;) {
      const int end = MIN (n_offsets, k + BILATERAL_RUN);
      const guint32 s = (guint32) space[k];
      const __m256i sv = _mm256_set1_epi64x (s);
      __m256i a0 = _mm256_setzero_si256 (), l0 = a0, h0 = a0;

      for (; k < end && (guint32) space[k] == s; k++)
        BILATERAL_TAP1 (taps[k] + x, c0, a0, l0, h0);
      add_scaled (w0, a0, sv, 0);
      add_scaled (s0, l0, sv, 0);
      add_scaled (s0, h0, sv, 15);
    }
    store_quotients (s0, w0, out + x);
  }
  bilateral8_tail (taps, &centre, 1, space, n_offsets, range, x, w, &out);
}

/* Three colours, 8 outputs of each a step. */
static void
bilateral8_three (const guint16 * const *taps, const guint16 * const *centre,
    const int *space, int n_offsets, const int *range, int w,
    guint16 * const *outs)
{
  const __m256i lo15 = _mm256_set1_epi32 (0x7fff);
  const guint16 *const *t1 = taps + n_offsets, *const *t2 = t1 + n_offsets;
  int x, k, c;

  for (x = 0; x + 8 <= w; x += 8) {
    const __m256i c0 = load8 (centre[0] + x), c1 = load8 (centre[1] + x);
    const __m256i c2 = load8 (centre[2] + x);
    __m256i sum[3][2], wsum[2];

    for (c = 0; c < 3; c++)
      sum[c][0] = sum[c][1] = _mm256_setzero_si256 ();
    wsum[0] = wsum[1] = _mm256_setzero_si256 ();
    for (k = 0; k < n_offsets;) {
      const int end = MIN (n_offsets, k + BILATERAL_RUN);
      const guint32 s = (guint32) space[k];
      const __m256i sv = _mm256_set1_epi64x (s);
      __m256i aw = _mm256_setzero_si256 (), l0 = aw, h0 = aw, l1 = aw;
      __m256i h1 = aw, l2 = aw, h2 = aw;

      for (; k < end && (guint32) space[k] == s; k++) {
        const __m256i v0 = load8 (taps[k] + x), v1 = load8 (t1[k] + x);
        const __m256i v2 = load8 (t2[k] + x);
        const __m256i d = _mm256_add_epi32 (_mm256_add_epi32
            (_mm256_abs_epi32 (_mm256_sub_epi32 (v0, c0)),
                _mm256_abs_epi32 (_mm256_sub_epi32 (v1, c1))),
            _mm256_abs_epi32 (_mm256_sub_epi32 (v2, c2)));
        const __m256i r = _mm256_i32gather_epi32 (range, d, 4);
        const __m256i rl = _mm256_and_si256 (r, lo15);
        const __m256i rh = _mm256_srli_epi32 (r, 15);

        aw = _mm256_add_epi32 (aw, r);
        l0 = _mm256_add_epi32 (l0, _mm256_madd_epi16 (rl, v0));
        h0 = _mm256_add_epi32 (h0, _mm256_madd_epi16 (rh, v0));
        l1 = _mm256_add_epi32 (l1, _mm256_madd_epi16 (rl, v1));
        h1 = _mm256_add_epi32 (h1, _mm256_madd_epi16 (rh, v1));
        l2 = _mm256_add_epi32 (l2, _mm256_madd_epi16 (rl, v2));
        h2 = _mm256_add_epi32 (h2, _mm256_madd_epi16 (rh, v2));
      }
      add_scaled (wsum, aw, sv, 0);
      add_scaled (sum[0], l0, sv, 0);
      add_scaled (sum[0], h0, sv, 15);
      add_scaled (sum[1], l1, sv, 0);
      add_scaled (sum[1], h1, sv, 15);
      add_scaled (sum[2], l2, sv, 0);
      add_scaled (sum[2], h2, sv, 15);
    }
    for (c = 0; c < 3; c++)
      store_quotients (sum[c], wsum, outs[c] + x);
  }
  bilateral8_tail (taps, centre, 3, space, n_offsets, range, x, w, outs);
}
#endif

static void
bilateral8 (const guint16 * const *taps, const guint16 * const *centre,
    int n, const int *space, int n_offsets, const int *range, int w,
    guint16 * const *outs)
{
#if defined(__AVX2__)
  if (n == 1)
    bilateral8_one (taps, centre[0], space, n_offsets, range, w, outs[0]);
  else
    bilateral8_three (taps, centre, space, n_offsets, range, w, outs);
#else
  bilateral8_tail (taps, centre, n, space, n_offsets, range, 0, w, outs);
#endif
}

/* The range weights of pairs of one-colour 8-bit samples: out[i] =
 * range[|a[i] - b[i]|], i < n.  Each weight serves the two outputs of
 * the pair (bilateral8_sum). */
static void
bilateral8_pairs (const guint16 * a, const guint16 * b, const int *range,
    int n, int *out)
{
  int i = 0;

#if defined(__AVX2__)
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_si256 ((__m256i *) (out + i), lut8 (range,
            _mm256_abs_epi32 (_mm256_sub_epi32 (load8 (a + i),
                    load8 (b + i)))));
#endif
  for (; i < n; i++)
    out[i] = range[a[i] > b[i] ? a[i] - b[i] : b[i] - a[i]];
}

/* Outputs x0 .. w - 1 of bilateral8_sum one by one, by the definition. */
static inline void
bilateral8_sum_tail (const guint16 * const *taps, const int *const *wts,
    const int *space, int n_offsets, int x0, int w, guint16 * out)
{
  int x, k;

  for (x = x0; x < w; x++) {
    gint64 sum = 0, wsum = 0;

    for (k = 0; k < n_offsets; k++) {
      const gint64 wt = (gint64) space[k] * wts[k][x];

      wsum += wt;
      sum += wt * taps[k][x];
    }
    out[x] = bilateral_quotient (sum, wsum);
  }
}

#if defined(__AVX2__)
/* How far ahead (weights) bilateral8_sum fetches its weight rows: with
 * some 50 rows read side by side the hardware's prefetch falls behind
 * (43.3 against 41.2 ms a 1080p frame of d 9 on Zen 3). */
#define BILATERAL_AHEAD 32

/* bilateral8_sum, 16 outputs a step (then 8), in runs of equal space
 * weight as bilateral8_one. */
static void
bilateral8_sum_avx2 (const guint16 * const *taps, const int *const *wts,
    const int *space, const int *runs, int n_offsets, int x0, int w,
    guint16 * out, int *x_done)
{
  const __m256i lo15 = _mm256_set1_epi32 (0x7fff);
  int x = x0, k, e;

  for (; x + 16 <= w; x += 16) {
    __m256i s0[2], w0[2], s1[2], w1[2];

    s0[0] = s0[1] = w0[0] = w0[1] = _mm256_setzero_si256 ();
    s1[0] = s1[1] = w1[0] = w1[1] = _mm256_setzero_si256 ();
    for (k = 0; k < n_offsets; k = e) {
      const __m256i sv = _mm256_set1_epi64x ((guint32) space[k]);
      __m256i a0 = _mm256_setzero_si256 (), l0 = a0, h0 = a0;
      __m256i a1 = a0, l1 = a0, h1 = a0;

      e = MIN (runs[k], k + BILATERAL_RUN);
      for (; k < e; k++) {
        const guint16 *t = taps[k] + x;
        const int *r = wts[k] + x;
        const __m256i v0 = load8 (t), v1 = load8 (t + 8);
        const __m256i r0 = _mm256_loadu_si256 ((const __m256i *) r);
        const __m256i r1 = _mm256_loadu_si256 ((const __m256i *) (r + 8));

        _mm_prefetch ((const char *) (r + BILATERAL_AHEAD), _MM_HINT_T0);
        a0 = _mm256_add_epi32 (a0, r0);
        a1 = _mm256_add_epi32 (a1, r1);
        l0 = _mm256_add_epi32 (l0,
            _mm256_madd_epi16 (_mm256_and_si256 (r0, lo15), v0));
        l1 = _mm256_add_epi32 (l1,
            _mm256_madd_epi16 (_mm256_and_si256 (r1, lo15), v1));
        h0 = _mm256_add_epi32 (h0,
            _mm256_madd_epi16 (_mm256_srli_epi32 (r0, 15), v0));
        h1 = _mm256_add_epi32 (h1,
            _mm256_madd_epi16 (_mm256_srli_epi32 (r1, 15), v1));
      }
      add_scaled (w0, a0, sv, 0);
      add_scaled (s0, l0, sv, 0);
      add_scaled (s0, h0, sv, 15);
      add_scaled (w1, a1, sv, 0);
      add_scaled (s1, l1, sv, 0);
      add_scaled (s1, h1, sv, 15);
    }
    store_quotients (s0, w0, out + x);
    store_quotients (s1, w1, out + x + 8);
  }
  for (; x + 8 <= w; x += 8) {
    __m256i s0[2], w0[2];

    s0[0] = s0[1] = _mm256_setzero_si256 ();
    w0[0] = w0[1] = _mm256_setzero_si256 ();
    for (k = 0; k < n_offsets; k = e) {
      const __m256i sv = _mm256_set1_epi64x ((guint32) space[k]);
      __m256i a0 = _mm256_setzero_si256 (), l0 = a0, h0 = a0;

      e = MIN (runs[k], k + BILATERAL_RUN);
      for (; k < e; k++) {
        const __m256i v = load8 (taps[k] + x);
        const __m256i r =
            _mm256_loadu_si256 ((const __m256i *) (wts[k] + x));

        a0 = _mm256_add_epi32 (a0, r);
        l0 = _mm256_add_epi32 (l0,
            _mm256_madd_epi16 (_mm256_and_si256 (r, lo15), v));
        h0 = _mm256_add_epi32 (h0,
            _mm256_madd_epi16 (_mm256_srli_epi32 (r, 15), v));
      }
      add_scaled (w0, a0, sv, 0);
      add_scaled (s0, l0, sv, 0);
      add_scaled (s0, h0, sv, 15);
    }
    store_quotients (s0, w0, out + x);
  }
  *x_done = x;
}
#endif

/* For x0 <= x < w, out[x] = the sum of space[k] * wts[k][x] * taps[k][x]
 * over the sum of space[k] * wts[k][x], rounded half up: the bilateral of
 * one colour with its range weights already looked up
 * (bilateral8_pairs). */
static void
bilateral8_sum (const guint16 * const *taps, const int *const *wts,
    const int *space, const int *runs, int n_offsets, int x0, int w,
    guint16 * out)
{
#if defined(__AVX2__)
  bilateral8_sum_avx2 (taps, wts, space, runs, n_offsets, x0, w, out, &x0);
#endif
  bilateral8_sum_tail (taps, wts, space, n_offsets, x0, w, out);
}

/* The median of a, b, c given l = min (b, c) and h = max (b, c). */
#define MED3(a, l, h) MAX (l, MIN (h, a))

/* The median of the 3x3 window of rows a, b, c at byte i, the
 * neighbours ps bytes on: each column sorted, then the median of the
 * largest minimum, the median of the medians and the smallest maximum. */
static inline __attribute__ ((always_inline)) guint8
median3x3 (const guint8 * a, const guint8 * b, const guint8 * c, int i,
    int ps)
{
  guint8 lo[3], mid[3], hi[3], l, h, p, q, r;
  int j;

  for (j = 0; j < 3; j++) {
    const int o = (j - 1) * ps;
    const guint8 l12 = MIN (b[i + o], c[i + o]);
    const guint8 h12 = MAX (b[i + o], c[i + o]);

    lo[j] = MIN (l12, a[i + o]);
    hi[j] = MAX (h12, a[i + o]);
    mid[j] = MED3 (a[i + o], l12, h12);
  }
  p = MAX (MAX (lo[0], lo[1]), lo[2]);
  r = MIN (MIN (hi[0], hi[1]), hi[2]);
  l = MIN (mid[0], mid[1]);
  h = MAX (mid[0], mid[1]);
  q = MED3 (mid[2], l, h);
  l = MIN (p, q);
  h = MAX (p, q);
  return MED3 (r, l, h);
}

#define W3_OP(op, x, y) ((op) == CF_NL_W3_MIN ? MIN (x, y) : MAX (x, y))

/* The min (max) of a row's three pixels. */
#define W3_ROW(op, r, i, ps) \
  W3_OP (op, W3_OP (op, (r)[(i) - (ps)], (r)[i]), (r)[(i) + (ps)])

/* window3_8 over bytes [0, m) of nr output rows (1, 2 or CF_NL_W3_ROWS; the
 * median's 1) from rows r0 .. r[nr + 1], the masks from their phase
 * there (keep NULL: none): one loop gcc vectorises (m a constant: whole
 * vectors), op, nr and the masks constants where inlined.  Min and max
 * take each input row's three pixels once, shared by the output rows
 * reading it, and the middle rows' pairs once for the two outputs
 * reading them. */
static inline __attribute__ ((always_inline)) void
window3_span (const guint8 * restrict r0, const guint8 * restrict r1,
    const guint8 * restrict r2, const guint8 * restrict r3,
    const guint8 * restrict r4, const guint8 * restrict r5, int nr, int m,
    int ps, int op, const guint8 * restrict keep,
    const guint8 * restrict take, const guint8 * restrict fill,
    guint8 * restrict d0, guint8 * restrict d1, guint8 * restrict d2,
    guint8 * restrict d3)
{
  int i;

  for (i = 0; i < m; i++) {
    guint8 v[CF_NL_W3_ROWS];

    if (op == CF_NL_W3_MEDIAN) {
      v[0] = median3x3 (r0, r1, r2, i, ps);
    } else {
      const guint8 h0 = W3_ROW (op, r0, i, ps), h1 = W3_ROW (op, r1, i, ps);
      const guint8 h2 = W3_ROW (op, r2, i, ps);

      if (nr == 1) {
        v[0] = W3_OP (op, W3_OP (op, h0, h1), h2);
      } else {
        const guint8 h3 = W3_ROW (op, r3, i, ps);
        const guint8 s12 = W3_OP (op, h1, h2);

        v[0] = W3_OP (op, h0, s12);
        v[1] = W3_OP (op, s12, h3);
        if (nr == CF_NL_W3_ROWS) {
          const guint8 h4 = W3_ROW (op, r4, i, ps);
          const guint8 h5 = W3_ROW (op, r5, i, ps);
          const guint8 s34 = W3_OP (op, h3, h4);

          v[2] = W3_OP (op, h2, s34);
          v[3] = W3_OP (op, s34, h5);
        }
      }
    }
    if (keep == NULL) {
      d0[i] = v[0];
      if (nr >= 2)
        d1[i] = v[1];
      if (nr >= 4) {
        d2[i] = v[2];
        d3[i] = v[3];
      }
    } else {
      d0[i] = (v[0] & keep[i]) | (r1[i] & take[i]) | fill[i];
      if (nr >= 2)
        d1[i] = (v[1] & keep[i]) | (r2[i] & take[i]) | fill[i];
      if (nr >= 4) {
        d2[i] = (v[2] & keep[i]) | (r3[i] & take[i]) | fill[i];
        d3[i] = (v[3] & keep[i]) | (r4[i] & take[i]) | fill[i];
      }
    }
  }
}

/* A mask from phase o, NULL without masks. */
#define MASK(m, o) ((m) != NULL ? (m) + (o) : NULL)

/* Whole blocks of CF_NL_BLEND_PERIOD bytes (the masks' phase the same in
 * each), the last one overlapping the one before (the same bytes again)
 * rather than a scalar tail; rows shorter than a block byte by byte. */
static inline __attribute__ ((always_inline)) void
window3_op (const guint8 * const *rows, int nr, int n, int ps, int op,
    const guint8 * keep, const guint8 * take, const guint8 * fill, int o,
    guint8 * const *outs)
{
  const int B = CF_NL_BLEND_PERIOD;
  const guint8 *r[CF_NL_W3_ROWS + 2];
  guint8 *d[CF_NL_W3_ROWS];
  int x0, j, ph;

  /* Rows and outputs past nr alias the last (never read or written). */
  for (j = 0; j < CF_NL_W3_ROWS + 2; j++)
    r[j] = rows[MIN (j, nr + 1)];
  for (j = 0; j < CF_NL_W3_ROWS; j++)
    d[j] = outs[MIN (j, nr - 1)];
  if (keep == NULL)
    o = 0;                      /* no masks: no phase */
#define W3_SPAN(x0, m, ph)                                              \
  window3_span (r[0] + (x0), r[1] + (x0), r[2] + (x0), r[3] + (x0),     \
      r[4] + (x0), r[5] + (x0), nr, m, ps, op, MASK (keep, ph),         \
      MASK (take, ph), MASK (fill, ph), d[0] + (x0), d[1] + (x0),       \
      d[2] + (x0), d[3] + (x0))
  if (n < B) {
    W3_SPAN (0, n, o);
    return;
  }
  for (x0 = 0; x0 + B <= n; x0 += B)
    W3_SPAN (x0, B, o);
  if (x0 < n) {
    x0 = n - B;
    ph = (o + x0) % B;
    W3_SPAN (x0, B, ph);
  }
#undef W3_SPAN
}

/* window3_op with op, nr, whether there are masks, and where PS is a
 * number ps, constants: whole rows with the pixel's bytes known (the
 * three pixels' offsets in the loads, not in registers). */
#define W3_CASE(OP, NR, PS)                                             \
  do {                                                                  \
    if (keep == NULL)                                                   \
      window3_op (rows, NR, n, PS, OP, NULL, NULL, NULL, 0, outs);      \
    else                                                                \
      window3_op (rows, NR, n, PS, OP, keep, take, fill, o, outs);      \
  } while (0)
#define W3_PS(OP, NR)                                                   \
  do {                                                                  \
    if (ps == 4)                                                        \
      W3_CASE (OP, NR, 4);                                              \
    else if (ps == 3)                                                   \
      W3_CASE (OP, NR, 3);                                              \
    else if (ps == 2)                                                   \
      W3_CASE (OP, NR, 2);                                              \
    else                                                                \
      W3_CASE (OP, NR, 1);                                              \
  } while (0)

/* Rows shorter than a block (the edges), and the last rows of min and
 * max: ps a variable; nr above 2 two rows at a time. */
static void
window3_var (const guint8 * const *rows, int nr, int n, int ps, int op,
    const guint8 * keep, const guint8 * take, const guint8 * fill, int o,
    guint8 * const *outs)
{
  int t;

  for (t = 0; t < nr; t += 2, rows += 2, outs += 2) {
    if (op == CF_NL_W3_MEDIAN)
      W3_CASE (CF_NL_W3_MEDIAN, 1, ps);
    else if (op == CF_NL_W3_MIN && nr - t >= 2)
      W3_CASE (CF_NL_W3_MIN, 2, ps);
    else if (op == CF_NL_W3_MIN)
      W3_CASE (CF_NL_W3_MIN, 1, ps);
    else if (nr - t >= 2)
      W3_CASE (CF_NL_W3_MAX, 2, ps);
    else
      W3_CASE (CF_NL_W3_MAX, 1, ps);
  }
}

static void
window3_8 (const guint8 * const *rows, int nr, int n, int ps, int op,
    const guint8 * keep, const guint8 * take, const guint8 * fill, int o,
    guint8 * const *outs)
{
  /* Whole rows with ps a constant. */
  if (n < CF_NL_BLEND_PERIOD || (op == CF_NL_W3_MEDIAN ? nr != 1 :
          nr != CF_NL_W3_ROWS))
    window3_var (rows, nr, n, ps, op, keep, take, fill, o, outs);
  else if (op == CF_NL_W3_MEDIAN)
    W3_PS (CF_NL_W3_MEDIAN, 1);
  else if (op == CF_NL_W3_MIN)
    W3_PS (CF_NL_W3_MIN, CF_NL_W3_ROWS);
  else
    W3_PS (CF_NL_W3_MAX, CF_NL_W3_ROWS);
}

#undef W3_PS
#undef W3_CASE

static void
blend8 (guint8 * restrict d, const guint8 * restrict s, int n,
    const guint8 * restrict keep, const guint8 * restrict take,
    const guint8 * restrict fill)
{
  int x = 0, i;

  for (; x + CF_NL_BLEND_PERIOD <= n; x += CF_NL_BLEND_PERIOD)
    for (i = 0; i < CF_NL_BLEND_PERIOD; i++)
      d[x + i] = (d[x + i] & keep[i]) | (s[x + i] & take[i]) | fill[i];
  for (i = 0; x < n; x++, i++)
    d[x] = (d[x] & keep[i]) | (s[x] & take[i]) | fill[i];
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
    /* unrolled: one sample an iteration ran at half speed where the
     * loop straddled a 64-byte line of code (RGB, Zen 3) */
#pragma GCC unroll 4
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
#pragma GCC unroll 4
    for (x = 0; x < w; x++)
      d[(gsize) x * ps] = (guint8) v[x];
  } else if (ps == 2) {
    memcpy (d, v, w * sizeof (guint16));
  } else {
    for (x = 0; x < w; x++)
      memcpy (d + (gsize) x * ps, v + x, sizeof (guint16));
  }
}

/* The 16-bit rows' line: one sample a pixel. */
static void
line16 (const guint16 * row, int len, int w, int max, guint16 * tmp,
    guint16 * out)
{
  line (row, len, w, 1, max, tmp, out);
}

const CfNlRows CF_CAT (cf_nl_rows_, CF_CPU_VARIANT) = {
  median_any, accumulate, column, column_group, line16, median8, column8,
  column_group8, line8, bilateral8, bilateral8_pairs, bilateral8_sum,
  window3_8, blend8, widen, narrow
};
