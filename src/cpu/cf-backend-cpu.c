/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: the reference CPU backend, the oracle the CUDA kernels
 * and the fast CPU backend (cf-backend-cpu-fast.c) are checked against.
 * Straightforward on purpose: each channel is expanded once with its
 * border, then summed exactly in 64-bit integers. */
#include <string.h>
#include "cf-backend-private.h"
#include "cf-arith.h"
#include "cf-sample.h"
#include "cf-nonlin-cpu.h"

typedef struct
{
  CfBackend parent;
  gint32 *expanded;             /* the channel plus its border */
  gsize expanded_len;
  gint64 *rows[2];              /* horizontal pass of each kernel */
  gsize rows_len;
} CfCpuBackend;

static inline const guint8 *
sample_in (const CfFrame * f, const CfChannel * ch, int x, int y)
{
  return f->data[ch->plane] + (gsize) y * f->stride[ch->plane]
      + (gsize) x * ch->pixel_stride + ch->offset;
}

static inline guint8 *
sample_out (const CfFrame * f, const CfChannel * ch, int x, int y)
{
  return f->data[ch->plane] + (gsize) y * f->stride[ch->plane]
      + (gsize) x * ch->pixel_stride + ch->offset;
}

static void
grow (gpointer * buf, gsize * len, gsize need, gsize elem)
{
  if (*len >= need)
    return;
  g_free (*buf);
  *buf = g_malloc (need * elem);
  *len = need;
}

/* Fills self->expanded with (w + kw - 1) x (h + kh - 1) samples: the
 * channel surrounded by its border, so the sums need no border logic. */
static void
expand_channel (CfCpuBackend * self, const CfKernelParams * kp,
    const CfChannel * ch, const CfFrame * in, int ew, int eh)
{
  int *xmap = g_new (int, ew);
  int ex, ey;

  for (ex = 0; ex < ew; ex++)
    xmap[ex] = cf_border_index (ex - kp->ax, ch->width, kp->border);
  for (ey = 0; ey < eh; ey++) {
    int y = cf_border_index (ey - kp->ay, ch->height, kp->border);
    gint32 *dst = self->expanded + (gsize) ey * ew;

    for (ex = 0; ex < ew; ex++) {
      if (y < 0 || xmap[ex] < 0)
        dst[ex] = kp->border_value;
      else
        dst[ex] = cf_sample_read (sample_in (in, ch, xmap[ex], y), ch);
    }
  }
  g_free (xmap);
}

static void
filter_channel (CfCpuBackend * self, const CfSpec * spec,
    const CfChannel * ch, const CfFrame * in, const CfFrame * out)
{
  const CfKernelParams *kp = &spec->kp;
  int w = ch->width, h = ch->height;
  int ew = w + kp->kw - 1, eh = h + kp->kh - 1;
  int x, y, i, j, k;

  grow ((gpointer *) & self->expanded, &self->expanded_len,
      (gsize) ew * eh, sizeof (gint32));
  expand_channel (self, kp, ch, in, ew, eh);

  if (kp->separable) {
    if (self->rows_len < (gsize) eh * w) {
      for (k = 0; k < 2; k++) {
        g_free (self->rows[k]);
        self->rows[k] = g_new (gint64, (gsize) eh * w);
      }
      self->rows_len = (gsize) eh * w;
    }
    for (k = 0; k < kp->n_kernels; k++) {
      const int *row = spec->sep.row[k];

      for (y = 0; y < eh; y++) {
        const gint32 *src = self->expanded + (gsize) y * ew;
        gint64 *dst = self->rows[k] + (gsize) y * w;

        for (x = 0; x < w; x++) {
          gint64 acc = 0;

          for (i = 0; i < kp->kw; i++)
            acc += (gint64) row[i] * src[x + i];
          dst[x] = acc;
        }
      }
    }
  }

  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      gint64 acc[2] = { 0, 0 };
      int centre = self->expanded[(gsize) (y + kp->ay) * ew + x + kp->ax];

      if (kp->separable) {
        for (k = 0; k < kp->n_kernels; k++)
          for (j = 0; j < kp->kh; j++)
            acc[k] += (gint64) spec->sep.col[k][j]
                * self->rows[k][(gsize) (y + j) * w + x];
      } else {
        for (j = 0; j < kp->kh; j++) {
          const gint32 *src = self->expanded + (gsize) (y + j) * ew + x;
          const int *wrow = spec->dense + j * kp->kw;

          for (i = 0; i < kp->kw; i++)
            acc[0] += (gint64) wrow[i] * src[i];
        }
      }
      cf_sample_write (sample_out (out, ch, x, y), ch,
          cf_post (kp, acc[0], acc[1], centre));
    }
  }
}

static void
copy_or_fill_channel (const CfChannel * ch, const CfFrame * in,
    const CfFrame * out)
{
  int x, y;

  for (y = 0; y < ch->height; y++)
    for (x = 0; x < ch->width; x++) {
      int v = ch->mode == CF_CHANNEL_FILL ? ch->fill_value :
          cf_sample_read (sample_in (in, ch, x, y), ch);

      cf_sample_write (sample_out (out, ch, x, y), ch, v);
    }
}

static gboolean
cpu_process (CfBackend * backend, const CfSpec * spec,
    const CfLayout * layout, const CfFrame * in, const CfFrame * out,
    GError ** error)
{
  CfCpuBackend *self = (CfCpuBackend *) backend;
  int c;

  if (spec->kp.operation != CF_OPERATION_CONVOLVE) {
    cf_nonlin_reference (spec, layout, in, out);
    return TRUE;
  }
  for (c = 0; c < layout->n_channels; c++) {
    const CfChannel *ch = &layout->channels[c];

    if (ch->width <= 0 || ch->height <= 0)
      continue;
    if (ch->mode == CF_CHANNEL_FILTER)
      filter_channel (self, spec, ch, in, out);
    else
      copy_or_fill_channel (ch, in, out);
  }
  return TRUE;
}

/* Every sample is its own sum: tiles give the frame's bytes. */
static gboolean
cpu_tiles_exact (CfBackend * backend, const CfSpec * spec,
    const CfLayout * layout)
{
  return spec->kp.operation == CF_OPERATION_CONVOLVE;
}

static void
cpu_free (CfBackend * backend)
{
  CfCpuBackend *self = (CfCpuBackend *) backend;

  g_free (self->expanded);
  g_free (self->rows[0]);
  g_free (self->rows[1]);
  g_free (self);
}

static const CfBackendClass cpu_class = {
  .process = cpu_process,
  .free = cpu_free,
  .tiles_exact = cpu_tiles_exact,
};

CfBackend *
cf_backend_cpu_reference_new (GError ** error)
{
  CfCpuBackend *self = g_new0 (CfCpuBackend, 1);

  self->parent.klass = &cpu_class;
  self->parent.kind = CF_BACKEND_CPU_REFERENCE;
  self->parent.description = g_strdup ("cpu-reference");
  cf_backend_take_plan_name (&self->parent, g_strdup ("cpu reference"));
  return &self->parent;
}
