/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: the 5x5 median's comparators, for the fast CPU backend (gcc)
 * and the CUDA kernels (nvcc) alike, given MIN and MAX (written by
 * tools/median-network.py, which proves them on every 0/1 window). */
#ifndef CF_NONLIN_MED5_H
#define CF_NONLIN_MED5_H

/* s[0..4] = a[0..4] sorted (9 comparators). */
#define CF_MED5_SORT(T, a, s) do { \
    const T t0 = MIN (a[0], a[1]); const T t1 = MAX (a[0], a[1]); \
    const T t2 = MIN (a[3], a[4]); const T t3 = MAX (a[3], a[4]); \
    const T t4 = MIN (a[2], t3); const T t5 = MAX (a[2], t3); \
    const T t6 = MIN (t4, t2); const T t7 = MAX (t4, t2); \
    const T t8 = MIN (t0, t7); const T t9 = MAX (t0, t7); \
    const T t10 = MIN (t8, t6); const T t11 = MAX (t8, t6); \
    const T t12 = MIN (t1, t5); const T t13 = MAX (t1, t5); \
    const T t14 = MIN (t12, t9); const T t15 = MAX (t12, t9); \
    const T t16 = MIN (t14, t11); const T t17 = MAX (t14, t11); \
    s[0] = t10; s[1] = t16; \
    s[2] = t17; s[3] = t15; \
    s[4] = t13; \
  } while (0)

/* m[0..9] = sorted a[0..4] and b[0..4] merged (13 comparators). */
#define CF_MED5_PAIR(T, a, b, m) do { \
    const T t0 = MIN (a[0], b[0]); const T t1 = MAX (a[0], b[0]); \
    const T t2 = MIN (a[4], b[4]); const T t3 = MAX (a[4], b[4]); \
    const T t4 = MIN (t2, t1); const T t5 = MAX (t2, t1); \
    const T t6 = MIN (a[2], b[2]); const T t7 = MAX (a[2], b[2]); \
    const T t8 = MIN (t6, t4); const T t9 = MAX (t6, t4); \
    const T t10 = MIN (t7, t5); const T t11 = MAX (t7, t5); \
    const T t12 = MIN (a[1], b[1]); const T t13 = MAX (a[1], b[1]); \
    const T t14 = MIN (a[3], b[3]); const T t15 = MAX (a[3], b[3]); \
    const T t16 = MIN (t14, t13); const T t17 = MAX (t14, t13); \
    const T t18 = MIN (t12, t8); const T t19 = MAX (t12, t8); \
    const T t20 = MIN (t16, t9); const T t21 = MAX (t16, t9); \
    const T t22 = MIN (t17, t10); const T t23 = MAX (t17, t10); \
    const T t24 = MIN (t15, t11); const T t25 = MAX (t15, t11); \
    m[0] = t0; m[1] = t18; \
    m[2] = t19; m[3] = t20; \
    m[4] = t21; m[5] = t22; \
    m[6] = t23; m[7] = t24; \
    m[8] = t25; m[9] = t3; \
  } while (0)

/* med = the median of merged pairs m, p and sorted e (46 min or max). */
#define CF_MED5_FINAL(T, m, p, e, med) do { \
    const T t1 = MAX (m[0], p[0]); const T t2 = MIN (m[8], p[8]); \
    const T t4 = MIN (t2, t1); const T t5 = MAX (t2, t1); \
    const T t6 = MIN (m[4], p[4]); const T t7 = MAX (m[4], p[4]); \
    const T t9 = MAX (t6, t4); const T t10 = MIN (t7, t5); \
    const T t13 = MAX (m[2], p[2]); const T t14 = MIN (m[6], p[6]); \
    const T t16 = MIN (t14, t13); const T t17 = MAX (t14, t13); \
    const T t21 = MAX (t16, t9); const T t22 = MIN (t17, t10); \
    const T t23 = MAX (t17, t10); const T t27 = MAX (m[1], p[1]); \
    const T t28 = MIN (m[9], p[9]); const T t30 = MIN (t28, t27); \
    const T t31 = MAX (t28, t27); const T t32 = MIN (m[5], p[5]); \
    const T t33 = MAX (m[5], p[5]); const T t35 = MAX (t32, t30); \
    const T t36 = MIN (t33, t31); const T t39 = MAX (m[3], p[3]); \
    const T t40 = MIN (m[7], p[7]); const T t42 = MIN (t40, t39); \
    const T t43 = MAX (t40, t39); const T t46 = MIN (t42, t35); \
    const T t47 = MAX (t42, t35); const T t48 = MIN (t43, t36); \
    const T t58 = MIN (t46, t21); const T t59 = MAX (t46, t21); \
    const T t60 = MIN (t47, t22); const T t61 = MAX (t47, t22); \
    const T t62 = MIN (t48, t23); const T t63 = MAX (t48, t23); \
    const T t70 = MAX (t62, e[0]); const T t71 = MIN (t63, t70); \
    const T t72 = MAX (t61, e[1]); const T t73 = MIN (t71, t72); \
    const T t74 = MAX (t60, e[2]); const T t75 = MIN (t73, t74); \
    const T t76 = MAX (t59, e[3]); const T t77 = MIN (t75, t76); \
    const T t78 = MAX (t58, e[4]); const T t79 = MIN (t77, t78); \
    med = t79; \
  } while (0)

/* q[0..5] = ranks 7..12 of merged pairs m and p (36 min or max): the
 * part of CF_MED5_FINAL shared by the windows on either side. */
#define CF_MED5_CORE(T, m, p, q) do { \
    const T t1 = MAX (m[0], p[0]); const T t2 = MIN (m[8], p[8]); \
    const T t4 = MIN (t2, t1); const T t5 = MAX (t2, t1); \
    const T t6 = MIN (m[4], p[4]); const T t7 = MAX (m[4], p[4]); \
    const T t9 = MAX (t6, t4); const T t10 = MIN (t7, t5); \
    const T t13 = MAX (m[2], p[2]); const T t14 = MIN (m[6], p[6]); \
    const T t16 = MIN (t14, t13); const T t17 = MAX (t14, t13); \
    const T t21 = MAX (t16, t9); const T t22 = MIN (t17, t10); \
    const T t23 = MAX (t17, t10); const T t27 = MAX (m[1], p[1]); \
    const T t28 = MIN (m[9], p[9]); const T t30 = MIN (t28, t27); \
    const T t31 = MAX (t28, t27); const T t32 = MIN (m[5], p[5]); \
    const T t33 = MAX (m[5], p[5]); const T t35 = MAX (t32, t30); \
    const T t36 = MIN (t33, t31); const T t39 = MAX (m[3], p[3]); \
    const T t40 = MIN (m[7], p[7]); const T t42 = MIN (t40, t39); \
    const T t43 = MAX (t40, t39); const T t46 = MIN (t42, t35); \
    const T t47 = MAX (t42, t35); const T t48 = MIN (t43, t36); \
    const T t58 = MIN (t46, t21); const T t59 = MAX (t46, t21); \
    const T t60 = MIN (t47, t22); const T t61 = MAX (t47, t22); \
    const T t62 = MIN (t48, t23); const T t63 = MAX (t48, t23); \
    q[0] = t58; q[1] = t59; \
    q[2] = t60; q[3] = t61; \
    q[4] = t62; q[5] = t63; \
  } while (0)

/* med = the median of ranks q[0..5] and sorted e (10 min or max). */
#define CF_MED5_EDGE(T, q, e, med) do { \
    const T t0 = MAX (q[4], e[0]); const T t1 = MIN (q[5], t0); \
    const T t2 = MAX (q[3], e[1]); const T t3 = MIN (t1, t2); \
    const T t4 = MAX (q[2], e[2]); const T t5 = MIN (t3, t4); \
    const T t6 = MAX (q[1], e[3]); const T t7 = MIN (t5, t6); \
    const T t8 = MAX (q[0], e[4]); const T t9 = MIN (t7, t8); \
    med = t9; \
  } while (0)

#endif /* CF_NONLIN_MED5_H */
