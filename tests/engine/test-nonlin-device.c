/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* The CUDA nonlinear kernel's arithmetic, without a GPU: the program of
 * passes run on the host the way kernels/cf-nonlin.cu runs it (each output
 * sample from cf_nl_pass_sample of kernels/cf-nonlin.h, which nvcc
 * compiles for the kernel; scratch images per channel; copied and filled
 * channels on the last pass), byte for byte against the reference CPU
 * backend.  The GPU parity suite (tests/gpu) then holds the device to the
 * same bytes. */
#include <string.h>
#include "cf-spec.h"
#include "cf-backend.h"
#include "cf-nonlin.h"

typedef struct
{
  const CfLayout *l;
  const CfFrame *in, *out;
  const CfSpec *spec;
  guint16 *scratch;
  gsize image_len, chan_off[CF_MAX_CHANNELS];
  int groups[CF_MAX_CHANNELS][3];
} Emu;

static CfNlImage
image_of (const Emu * e, int c, int id)
{
  const CfChannel *ch = &e->l->channels[c];
  CfNlImage im;

  im.ch = *ch;
  if (id == CF_NL_FRAME) {
    im.frame = e->in->data[ch->plane] + ch->offset;
    im.stride = e->in->stride[ch->plane];
    im.scratch = NULL;
  } else {
    im.frame = NULL;
    im.stride = 0;
    im.scratch = e->scratch + id * e->image_len + e->chan_off[c];
  }
  return im;
}

/* cf_nonlin_run, one "thread" at a time. */
static void
emulate (Emu * e)
{
  const CfNonlin *nl = &e->spec->nl;
  int c, i, x, y;

  e->image_len = 0;
  for (c = 0; c < e->l->n_channels; c++) {
    e->chan_off[c] = e->image_len;
    if (e->l->channels[c].mode == CF_CHANNEL_FILTER)
      e->image_len += (gsize) e->l->channels[c].width *
          e->l->channels[c].height;
  }
  e->scratch = g_new0 (guint16, e->image_len * MAX (nl->n_scratch, 1));
  cf_layout_colour_groups (e->l, e->groups);
  for (i = 0; i < nl->n_passes; i++) {
    const CfNlPass *p = &nl->passes[i];

    for (c = 0; c < e->l->n_channels; c++) {
      const CfChannel *ch = &e->l->channels[c];

      for (y = 0; y < ch->height; y++)
        for (x = 0; x < ch->width; x++) {
          guint8 *o = e->out->data[ch->plane] + (gsize) y *
              e->out->stride[ch->plane] + (gsize) x * ch->pixel_stride +
              ch->offset;
          CfNlImage src, src2, group[3];
          int n = 0, own = 0, g, v;

          if (ch->mode != CF_CHANNEL_FILTER) {
            if (p->dst == CF_NL_OUT) {
              src = image_of (e, c, CF_NL_FRAME);
              cf_sample_write (o, ch, ch->mode == CF_CHANNEL_FILL ?
                  ch->fill_value : cf_nl_read (&src, x, y));
            }
            continue;
          }
          src = image_of (e, c, p->src);
          src2 = image_of (e, c, p->src2);
          if (p->step == CF_NL_BILATERAL)
            for (g = 0; g < 3 && e->groups[c][g] >= 0; g++) {
              if (e->groups[c][g] == c)
                own = g;
              group[n++] = image_of (e, e->groups[c][g], p->src);
            }
          v = cf_nl_pass_sample (p, &src, &src2, group, n, own, x, y, nl,
              e->spec->table, &e->spec->kp);
          if (p->dst == CF_NL_OUT)
            cf_sample_write (o, ch, v);
          else
            e->scratch[p->dst * e->image_len + e->chan_off[c] +
                (gsize) y * ch->width + x] = (guint16) v;
        }
    }
  }
  g_free (e->scratch);
}

typedef enum
{
  L_GRAY8, L_RGBA8, L_GRAY16, L_I420, L_RGB10A2, L_N
} LayoutKind;

static int
make_layout (CfLayout * l, LayoutKind k, int w, int h, int *strides)
{
  int cw = (w + 1) / 2, chh = (h + 1) / 2, p, depth = 8;

  switch (k) {
    case L_GRAY8:
      cf_layout_init_interleaved (l, w, h, 1, 1, 0x1);
      break;
    case L_RGBA8:
      cf_layout_init_interleaved (l, w, h, 4, 1, 0x7);
      break;
    case L_GRAY16:
      cf_layout_init_interleaved (l, w, h, 1, 2, 0x1);
      depth = 16;
      break;
    case L_I420:
      memset (l, 0, sizeof (*l));
      l->sample_bytes = 1;
      cf_layout_add_channel (l, CF_CHANNEL_FILTER, 0, w, h, 1, 0, 0);
      cf_layout_add_channel (l, CF_CHANNEL_FILTER, 1, cw, chh, 1, 0, 0);
      cf_layout_add_channel (l, CF_CHANNEL_FILL, 2, cw, chh, 1, 0, 128);
      break;
    case L_RGB10A2:
      memset (l, 0, sizeof (*l));
      l->sample_bytes = 2;
      l->depth = depth = 10;
      l->colour = 1;
      for (int c = 0; c < 4; c++) {
        cf_layout_add_channel (l, c < 3 ? CF_CHANNEL_FILTER : CF_CHANNEL_COPY,
            0, w, h, 4, 0, 0);
        g_assert_true (cf_layout_set_encoding (l, 4, c < 3 ? 10 : 2, 10 * c,
                TRUE));
      }
      break;
    default:
      g_assert_not_reached ();
  }
  for (p = 0; p < l->n_planes; p++)
    strides[p] = l->plane_row_bytes[p] + 3 * (p + 1);
  return depth;
}

typedef struct
{
  const char *name;
  CfFilter filter;
  int kernel_size;
  CfShape shape;
  int iterations;
  const char *kernel;
  double sigma, sigma_color;
} Case;

static const Case cases[] = {
  {"median-3", CF_FILTER_MEDIAN, 3},
  {"median-5", CF_FILTER_MEDIAN, 5},
  {"erode-rect-3-it2", CF_FILTER_ERODE, 3, CF_SHAPE_RECT, 2},
  {"dilate-ellipse-5", CF_FILTER_DILATE, 5, CF_SHAPE_ELLIPSE, 1},
  {"open-cross-3-it2", CF_FILTER_OPEN, 3, CF_SHAPE_CROSS, 2},
  {"close-rect-4", CF_FILTER_CLOSE, 4, CF_SHAPE_RECT, 1},
  {"gradient-ellipse-3", CF_FILTER_GRADIENT, 3, CF_SHAPE_ELLIPSE, 1},
  {"tophat-kernel", CF_FILTER_TOPHAT, 0, CF_SHAPE_RECT, 1, "0 1 1; 1 1 0"},
  {"blackhat-rect-5", CF_FILTER_BLACKHAT, 5, CF_SHAPE_RECT, 1},
  {"bilateral-5", CF_FILTER_BILATERAL, 5, 0, 1, NULL, 2.0, 40.0},
  {"bilateral-auto", CF_FILTER_BILATERAL, 0, 0, 1, NULL, 1.0,
      CF_SIGMA_COLOR_AUTO},
};

static const int sizes[][2] = { {1, 1}, {2, 5}, {7, 3}, {13, 11}, {33, 9} };

static void
test_emulated_kernel_matches_reference (void)
{
  CfBackend *ref = cf_backend_new (CF_BACKEND_CPU_REFERENCE, -1, NULL);
  GRand *rand = g_rand_new_with_seed (5);
  guint c, s, runs = 0;

  for (c = 0; c < G_N_ELEMENTS (cases); c++)
    for (CfBorder b = CF_BORDER_REFLECT101; b <= CF_BORDER_CONSTANT; b++)
      for (LayoutKind k = 0; k < L_N; k++)
        for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
          const Case *cs = &cases[c];
          int strides[CF_MAX_PLANES], depth, p;
          gsize off[CF_MAX_PLANES], total = 0, i;
          guint8 *in, *want, *got;
          CfFrame fin = { 0 }, fwant = { 0 }, fgot = { 0 };
          CfLayout l;
          CfParams prm;
          CfSpec *spec;
          GError *err = NULL;
          Emu e = { 0 };

          depth = make_layout (&l, k, sizes[s][0], sizes[s][1], strides);
          for (p = 0; p < l.n_planes; p++) {
            off[p] = total;
            total += (gsize) strides[p] * l.plane_height[p];
          }
          in = g_malloc (total);
          want = g_malloc (total);
          got = g_malloc (total);
          for (i = 0; i < total; i++) {
            guint32 r = g_rand_int (rand);

            in[i] = (r & 7) == 0 ? 0 : (r & 7) == 1 ? 255 : (guint8) (r >> 8);
            want[i] = got[i] = (guint8) (r >> 16);
          }
          for (p = 0; p < l.n_planes; p++) {
            fin.data[p] = in + off[p];
            fwant.data[p] = want + off[p];
            fgot.data[p] = got + off[p];
            fin.stride[p] = fwant.stride[p] = fgot.stride[p] = strides[p];
          }

          cf_params_init (&prm);
          prm.filter = cs->filter;
          prm.kernel_size = cs->kernel_size;
          prm.shape = cs->shape;
          prm.iterations = MAX (cs->iterations, 1);
          prm.kernel = cs->kernel;
          if (cs->sigma > 0) {
            prm.sigma = cs->sigma;
            prm.sigma_color = cs->sigma_color;
          }
          prm.border = b;
          prm.border_value = depth == 8 ? 201 : (1 << depth) / 3;
          spec = cf_spec_new_for_depth (&prm, depth, &err);
          g_assert_no_error (err);

          g_assert_true (cf_backend_process (ref, spec, &l, &fin, &fwant,
                  NULL));
          e.l = &l;
          e.in = &fin;
          e.out = &fgot;
          e.spec = spec;
          emulate (&e);
          runs++;
          if (memcmp (got, want, total) != 0) {
            for (i = 0; got[i] == want[i]; i++);
            g_error ("%s border %d layout %d %dx%d: byte %" G_GSIZE_FORMAT
                " is %d, the reference %d", cs->name, b, k, sizes[s][0],
                sizes[s][1], i, got[i], want[i]);
          }
          cf_spec_free (spec);
          g_free (in);
          g_free (want);
          g_free (got);
        }
  g_test_message ("%u frames identical to the reference", runs);
  g_rand_free (rand);
  cf_backend_free (ref);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nonlin-device/emulated-kernel-matches-reference",
      test_emulated_kernel_matches_reference);
  return g_test_run ();
}
