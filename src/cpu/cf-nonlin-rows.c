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

/* The median of a, b, c given l = min (b, c) and h = max (b, c). */
#define MED3(a, l, h) MAX (l, MIN (h, a))

/* window3_8 over bytes [x0, x0 + m) of nr output rows (1 or 2: the second
 * shares the first's lower two rows, and the work on them), the masks
 * from their phase at x0: one loop gcc vectorises (m a constant: whole
 * vectors), op and nr constants where inlined. */
static inline __attribute__ ((always_inline)) void
window3_span (const guint8 * restrict a, const guint8 * restrict b,
    const guint8 * restrict c, const guint8 * restrict e, int nr, int m,
    int ps, int op, const guint8 * restrict keep,
    const guint8 * restrict take, const guint8 * restrict fill,
    guint8 * restrict d0, guint8 * restrict d1)
{
  int i, j;

  for (i = 0; i < m; i++) {
    guint8 v0, v1;

    if (op == CF_NL_W3_MEDIAN) {
      /* Each column sorted (b and c once for both rows), then the median
       * of the largest minimum, the median of the medians and the
       * smallest maximum. */
      guint8 lo[2][3], mid[2][3], hi[2][3], l, h, p, q, r;
      guint8 v[2];
      int t;

      for (j = 0; j < 3; j++) {
        const int o = (j - 1) * ps;
        const guint8 l12 = MIN (b[i + o], c[i + o]);
        const guint8 h12 = MAX (b[i + o], c[i + o]);

        lo[0][j] = MIN (l12, a[i + o]);
        hi[0][j] = MAX (h12, a[i + o]);
        mid[0][j] = MED3 (a[i + o], l12, h12);
        if (nr == 2) {
          lo[1][j] = MIN (l12, e[i + o]);
          hi[1][j] = MAX (h12, e[i + o]);
          mid[1][j] = MED3 (e[i + o], l12, h12);
        }
      }
      for (t = 0; t < nr; t++) {
        p = MAX (MAX (lo[t][0], lo[t][1]), lo[t][2]);
        r = MIN (MIN (hi[t][0], hi[t][1]), hi[t][2]);
        l = MIN (mid[t][0], mid[t][1]);
        h = MAX (mid[t][0], mid[t][1]);
        q = MED3 (mid[t][2], l, h);
        l = MIN (p, q);
        h = MAX (p, q);
        v[t] = MED3 (r, l, h);
      }
      v0 = v[0];
      v1 = v[nr - 1];
    } else {
      guint8 m0[3], m1[3];

      for (j = 0; j < 3; j++) {
        const int o = (j - 1) * ps;
        const guint8 s = op == CF_NL_W3_MIN ? MIN (b[i + o], c[i + o]) :
            MAX (b[i + o], c[i + o]);

        m0[j] = op == CF_NL_W3_MIN ? MIN (s, a[i + o]) : MAX (s, a[i + o]);
        m1[j] = op == CF_NL_W3_MIN ? MIN (s, e[i + o]) : MAX (s, e[i + o]);
      }
      if (op == CF_NL_W3_MIN) {
        v0 = MIN (MIN (m0[0], m0[1]), m0[2]);
        v1 = MIN (MIN (m1[0], m1[1]), m1[2]);
      } else {
        v0 = MAX (MAX (m0[0], m0[1]), m0[2]);
        v1 = MAX (MAX (m1[0], m1[1]), m1[2]);
      }
    }
    d0[i] = (v0 & keep[i]) | (b[i] & take[i]) | fill[i];
    if (nr == 2)
      d1[i] = (v1 & keep[i]) | (c[i] & take[i]) | fill[i];
  }
}

/* Whole blocks of CF_NL_BLEND_PERIOD bytes (the masks' phase the same in
 * each), the last one overlapping the one before (the same bytes again)
 * rather than a scalar tail; rows shorter than a block byte by byte. */
static inline __attribute__ ((always_inline)) void
window3_op (const guint8 * const *rows, int nr, int n, int ps, int op,
    const guint8 * keep, const guint8 * take, const guint8 * fill, int o,
    guint8 * const *outs)
{
  const int B = CF_NL_BLEND_PERIOD;
  int x0, ph;

  const guint8 *a = rows[0], *b = rows[1], *c = rows[2];
  const guint8 *e = rows[nr + 1];
  guint8 *d0 = outs[0], *d1 = outs[nr - 1];

  if (n < B) {
    window3_span (a, b, c, e, nr, n, ps, op, keep + o, take + o, fill + o,
        d0, d1);
    return;
  }
  for (x0 = 0; x0 + B <= n; x0 += B)
    window3_span (a + x0, b + x0, c + x0, e + x0, nr, B, ps, op, keep + o,
        take + o, fill + o, d0 + x0, d1 + x0);
  if (x0 < n) {
    x0 = n - B;
    ph = (o + x0) % B;
    window3_span (a + x0, b + x0, c + x0, e + x0, nr, B, ps, op, keep + ph,
        take + ph, fill + ph, d0 + x0, d1 + x0);
  }
}

static void
window3_8 (const guint8 * const *rows, int nr, int n, int ps, int op,
    const guint8 * keep, const guint8 * take, const guint8 * fill, int o,
    guint8 * const *outs)
{
#define W3_CASE(OP)                                                     \
  do {                                                                  \
    if (nr == 2)                                                        \
      window3_op (rows, 2, n, ps, OP, keep, take, fill, o, outs);       \
    else                                                                \
      window3_op (rows, 1, n, ps, OP, keep, take, fill, o, outs);       \
  } while (0)
  if (op == CF_NL_W3_MEDIAN)
    W3_CASE (CF_NL_W3_MEDIAN);
  else if (op == CF_NL_W3_MIN)
    W3_CASE (CF_NL_W3_MIN);
  else
    W3_CASE (CF_NL_W3_MAX);
#undef W3_CASE
}

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

/* The 16-bit rows' line: one sample a pixel. */
static void
line16 (const guint16 * row, int len, int w, int max, guint16 * tmp,
    guint16 * out)
{
  line (row, len, w, 1, max, tmp, out);
}

const CfNlRows CF_CAT (cf_nl_rows_, CF_CPU_VARIANT) = {
  median_any, accumulate, column, column_group, line16, median8, column8,
  column_group8, line8, bilateral8, window3_8, blend8, widen, narrow
};
