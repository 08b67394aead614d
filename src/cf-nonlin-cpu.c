/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: the fast CPU backend's nonlinear operations: each
 * pass of the spec's program (CfNonlin) over bands of rows on the thread
 * pool, with the per-sample arithmetic of kernels/cf-nonlin.h, which the
 * CUDA kernels share. */
#include "cf-nonlin-cpu.h"
#include "cf-nonlin.h"

struct _CfNonlinCpu
{
  guint16 *scratch;
  gsize scratch_len;
  /* The frame and pass being run, for the pool's parts. */
  const CfSpec *spec;
  const CfLayout *layout;
  const CfFrame *in, *out;
  const CfNlPass *pass;
  gsize chan_off[CF_MAX_CHANNELS];      /* scratch sample offsets */
  gsize image_len;              /* samples of one scratch image, all channels */
  int groups[CF_MAX_CHANNELS][3];
};

CfNonlinCpu *
cf_nonlin_cpu_new (void)
{
  return g_new0 (CfNonlinCpu, 1);
}

void
cf_nonlin_cpu_free (CfNonlinCpu * self)
{
  if (self == NULL)
    return;
  g_free (self->scratch);
  g_free (self);
}

static void
image_of (const CfNonlinCpu * self, int c, int id, CfNlImage * im)
{
  const CfChannel *ch = &self->layout->channels[c];

  im->ch = *ch;
  if (id == CF_NL_FRAME) {
    im->frame = self->in->data[ch->plane] + ch->offset;
    im->stride = self->in->stride[ch->plane];
    im->scratch = NULL;
  } else {
    im->frame = NULL;
    im->stride = 0;
    im->scratch = self->scratch + (gsize) id * self->image_len +
        self->chan_off[c];
  }
}

static int
pass_sample (const CfNonlinCpu * self, int c, const CfNlImage * src, int x,
    int y)
{
  const CfSpec *spec = self->spec;
  const CfNlPass *p = self->pass;
  const CfKernelParams *kp = &spec->kp;

  switch (p->step) {
    case CF_NL_MEDIAN:
      return cf_nl_median (src, x, y, p->len, spec->nl.rank, kp);
    case CF_NL_MIN_ROW:
    case CF_NL_MAX_ROW:
      return cf_nl_minmax_line (src, x, y, p->len, p->anchor, 1,
          p->step == CF_NL_MAX_ROW, kp);
    case CF_NL_MIN_COL:
    case CF_NL_MAX_COL:
      return cf_nl_minmax_line (src, x, y, p->len, p->anchor, 0,
          p->step == CF_NL_MAX_COL, kp);
    case CF_NL_MIN_SE:
    case CF_NL_MAX_SE:
      return cf_nl_minmax_se (src, x, y, &spec->nl, spec->table,
          p->step == CF_NL_MAX_SE, kp);
    case CF_NL_SUB:{
      CfNlImage b;

      image_of (self, c, p->src2, &b);
      return cf_nl_sub (cf_nl_read (src, x, y), cf_nl_read (&b, x, y));
    }
    case CF_NL_BILATERAL:{
      CfNlImage ims[3];
      int n = 0, own = 0, i;

      for (i = 0; i < 3 && self->groups[c][i] >= 0; i++) {
        if (self->groups[c][i] == c)
          own = i;
        image_of (self, self->groups[c][i], p->src, &ims[n++]);
      }
      return cf_nl_bilateral (ims, n, own, x, y, &spec->nl, spec->table, kp);
    }
    default:
      g_assert_not_reached ();
      return 0;
  }
}

/* Rows [y0, y1) of channel c through the current pass. */
static void
pass_rows (const CfNonlinCpu * self, int c, int y0, int y1)
{
  const CfChannel *ch = &self->layout->channels[c];
  const CfNlPass *p = self->pass;
  CfNlImage src;
  int x, y;

  image_of (self, c, p->src, &src);
  for (y = y0; y < y1; y++) {
    if (p->dst == CF_NL_OUT) {
      guint8 *row = self->out->data[ch->plane] + (gsize) y *
          self->out->stride[ch->plane] + ch->offset;

      for (x = 0; x < ch->width; x++)
        cf_sample_write (row + (gsize) x * ch->pixel_stride, ch,
            pass_sample (self, c, &src, x, y));
    } else {
      guint16 *row = self->scratch + (gsize) p->dst * self->image_len +
          self->chan_off[c] + (gsize) y * ch->width;

      for (x = 0; x < ch->width; x++)
        row[x] = (guint16) pass_sample (self, c, &src, x, y);
    }
  }
}

/* The copied and filled channels, rows [y0, y1). */
static void
other_rows (const CfNonlinCpu * self, const CfChannel * ch, int y0, int y1)
{
  int x, y;

  for (y = y0; y < y1; y++) {
    const guint8 *s = self->in->data[ch->plane] + (gsize) y *
        self->in->stride[ch->plane] + ch->offset;
    guint8 *d = self->out->data[ch->plane] + (gsize) y *
        self->out->stride[ch->plane] + ch->offset;

    for (x = 0; x < ch->width; x++) {
      gsize o = (gsize) x * ch->pixel_stride;

      cf_sample_write (d + o, ch, ch->mode == CF_CHANNEL_FILL ?
          ch->fill_value : cf_sample_read (s + o, ch));
    }
  }
}

/* Part `index`: the same band of rows of every channel, so the channels
 * sharing a word (RGB10A2) are written by one thread. */
static void
run_part (gpointer data, int index, int n_parts)
{
  CfNonlinCpu *self = data;
  const CfLayout *layout = self->layout;
  int c;

  for (c = 0; c < layout->n_channels; c++) {
    const CfChannel *ch = &layout->channels[c];
    int y0 = (int) ((gint64) ch->height * index / n_parts);
    int y1 = (int) ((gint64) ch->height * (index + 1) / n_parts);

    if (ch->width <= 0 || ch->height <= 0)
      continue;
    if (ch->mode == CF_CHANNEL_FILTER)
      pass_rows (self, c, y0, y1);
    else if (self->pass->dst == CF_NL_OUT)
      other_rows (self, ch, y0, y1);
  }
}

void
cf_nonlin_cpu_run (CfNonlinCpu * self, CfCpuPool * pool,
    const CfSpec * spec, const CfLayout * layout, const CfFrame * in,
    const CfFrame * out)
{
  gsize need;
  int c, i;

  self->image_len = 0;
  for (c = 0; c < layout->n_channels; c++) {
    const CfChannel *ch = &layout->channels[c];

    self->chan_off[c] = self->image_len;
    if (ch->mode == CF_CHANNEL_FILTER)
      self->image_len += (gsize) MAX (ch->width, 0) * MAX (ch->height, 0);
  }
  need = self->image_len * spec->nl.n_scratch;
  if (need > self->scratch_len) {
    g_free (self->scratch);
    self->scratch = g_new (guint16, need);
    self->scratch_len = need;
  }
  cf_layout_colour_groups (layout, self->groups);
  self->spec = spec;
  self->layout = layout;
  self->in = in;
  self->out = out;
  for (i = 0; i < spec->nl.n_passes; i++) {
    self->pass = &spec->nl.passes[i];
    cf_cpu_pool_run (pool, run_part, self);
  }
  self->pass = NULL;
  self->in = self->out = NULL;
}
