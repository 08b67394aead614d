/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: the fast CPU backend's plan, made once per (spec,
 * layout): which channels are filtered together, the weights as lists of
 * taps, the accumulator type that keeps the sums exact, and the scratch
 * each thread needs. */
#ifndef CF_CPU_PLAN_H
#define CF_CPU_PLAN_H

#include <glib.h>
#include "cf-spec.h"
#include "cf-layout.h"

G_BEGIN_DECLS

/* Bands are filtered in strips of this many samples (pixels times
 * channels) per row, so the rows in flight stay in cache. */
#define CF_CPU_STRIP 1024

/* Sums are exact in a float below 2^24 and in a double below 2^53, so the
 * plan takes the narrowest type the weights allow: same bytes, more lanes. */
#define CF_CPU_SUM16_UNSIGNED 1
#define CF_CPU_SUM16_SIGNED 2

typedef enum
{
  CF_CPU_ACC_F32 = 0,
  CF_CPU_ACC_F64,
  CF_CPU_ACC_I64
} CfCpuAcc;

/* One term w * (A[x] + B[x]) of a sum over rows of a ring: A is row `ra`
 * shifted by `oa` pixels, B row `rb` shifted by `ob`; rb -1 means no B
 * (a zero row).  Symmetric weights pair up, so a term costs one multiply. */
typedef struct
{
  int w;
  int ra, oa;
  int rb, ob;
} CfCpuTap;

typedef struct
{
  int n;
  CfCpuTap *t;
} CfCpuTaps;

/* Channels of one plane with the same geometry, filtered together with
 * their samples interleaved (nc of them, in the order of their offsets);
 * copied channels between them ride along as lanes whose source sample is
 * stored back, so whole pixels load and store at once.  Or one copied or
 * filled channel. */
typedef struct
{
  int mode;                     /* CfChannelMode */
  int plane, width, height;
  int nc;
  int chan[4];                  /* indices into the layout's channels */
  const CfChannel *chs[4];      /* the same channels */
  guint copy_lanes;             /* bit c: lane c is a copied channel */
  gint32 *keep;                 /* CF_CPU_STRIP: -1 on copied lanes */
  gboolean bytes;               /* plain 8-bit samples, back to back */
  int *xmap;                    /* expanded column -> source column or -1 */
} CfCpuGroup;

typedef struct
{
  guint64 serial;               /* the spec's */
  CfLayout layout;
  CfKernelParams kp;
  CfCpuAcc acc;
  int n_kernels;
  CfCpuTaps h[2], v[2];         /* separable: row and column terms */
  CfCpuTaps dense;              /* dense: terms over kh loaded rows */
  gboolean finite_post;         /* scale, offset, amount finite */
  long long gain[2];            /* common factor taken out of the weights */
  /* 8-bit samples whose sums fit 16 bits (cf-cpu-band8.inc): per
   * separable kernel, its row sums (dense: the whole sum) are exact modulo
   * 2^16 read as CF_CPU_SUM16_UNSIGNED or _SIGNED; 0 where they are not. */
  int sum16[2];
  gboolean v_uniform;           /* one kernel, equal positive column weights */
  int n_groups;
  CfCpuGroup groups[CF_MAX_CHANNELS];
  /* Per-thread scratch, in bytes from its start: the ring of loaded rows
   * (load_pitch samples each), the ring of horizontal sums, the sums, the
   * output row, the terms' pointers and weights. */
  gsize load_pitch;
  int acc_bytes;
  gsize off_load, off_ring, off_acc, off_out, off_terms;
  int max_terms;
  gsize scratch_bytes;
  gsize zero_bytes;
  void *zeros;                  /* a row of zeros for terms without B */
} CfCpuPlan;

CfCpuPlan *cf_cpu_plan_new (const CfSpec * spec, const CfLayout * layout);
gboolean cf_cpu_plan_matches (const CfCpuPlan * plan, const CfSpec * spec,
    const CfLayout * layout);
void cf_cpu_plan_free (CfCpuPlan * plan);

/* Filters rows [y0, y1) of group `g`, with `scratch` of plan->scratch_bytes
 * (aligned to 64 bytes). */
typedef void (*CfCpuBandFunc) (const CfCpuPlan * plan, const CfCpuGroup * g,
    const CfFrame * in, const CfFrame * out, int y0, int y1,
    guint8 * scratch);

/* The row kernels for this machine: AVX-512 or AVX2 builds where the CPU
 * has them, else the portable one.  `name` says which. */
CfCpuBandFunc cf_cpu_band_func (const char **name);

/* The variants (cf-cpu-rows.c compiled once per instruction set). */
void cf_cpu_band_portable (const CfCpuPlan * plan, const CfCpuGroup * g,
    const CfFrame * in, const CfFrame * out, int y0, int y1,
    guint8 * scratch);
void cf_cpu_band_avx2 (const CfCpuPlan * plan, const CfCpuGroup * g,
    const CfFrame * in, const CfFrame * out, int y0, int y1,
    guint8 * scratch);
void cf_cpu_band_avx512 (const CfCpuPlan * plan, const CfCpuGroup * g,
    const CfFrame * in, const CfFrame * out, int y0, int y1,
    guint8 * scratch);

G_END_DECLS
#endif /* CF_CPU_PLAN_H */
