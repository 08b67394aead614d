/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine unit tests: region lists (parsing, fitting, chroma
 * rounding) with hand-worked values, and the CPU backends' region output
 * against the whole-frame output composited here, independently. */
#include <string.h>
#include "cf-regions.h"
#include "cf-backend.h"

static void
assert_rect (const CfRect * r, int x, int y, int w, int h)
{
  g_assert_cmpint (r->x, ==, x);
  g_assert_cmpint (r->y, ==, y);
  g_assert_cmpint (r->w, ==, w);
  g_assert_cmpint (r->h, ==, h);
}

static void
test_parse (void)
{
  CfRegions r;
  GError *err = NULL;

  cf_regions_init (&r);
  g_assert_true (cf_regions_parse ("10,20,30,40; 1, 2 ,3,4;", &r, NULL));
  g_assert_cmpint (r.n_rects, ==, 2);
  assert_rect (&r.rects[0], 10, 20, 30, 40);
  assert_rect (&r.rects[1], 1, 2, 3, 4);
  g_assert_true (cf_regions_parse ("", &r, NULL));
  g_assert_true (cf_regions_parse ("  ", &r, NULL));
  g_assert_true (cf_regions_parse ("-5,-6,7,8", &r, NULL));
  g_assert_cmpint (r.n_rects, ==, 3);
  assert_rect (&r.rects[2], -5, -6, 7, 8);

  /* Each malformed part is named, and nothing is appended. */
  g_assert_false (cf_regions_parse ("1,2,3", &r, &err));
  g_assert_nonnull (strstr (err->message, "region 1 \"1,2,3\""));
  g_assert_nonnull (strstr (err->message, "3 numbers"));
  g_clear_error (&err);
  g_assert_false (cf_regions_parse ("1,2,3,4; 5,6,x,8", &r, &err));
  g_assert_nonnull (strstr (err->message, "region 2"));
  g_assert_nonnull (strstr (err->message, "w \"x\""));
  g_clear_error (&err);
  g_assert_false (cf_regions_parse ("1,2,-3,4", &r, &err));
  g_assert_nonnull (strstr (err->message, "w \"-3\""));
  g_clear_error (&err);
  g_assert_false (cf_regions_parse ("1,2,3,4;;5,6,7,8", &r, &err));
  g_assert_nonnull (strstr (err->message, "region 2 is empty"));
  g_clear_error (&err);
  g_assert_false (cf_regions_parse ("1,2,3,4.5", &r, &err));
  g_clear_error (&err);
  g_assert_false (cf_regions_parse ("1,2,3,99999999999", &r, &err));
  g_clear_error (&err);
  g_assert_cmpint (r.n_rects, ==, 3);
  cf_regions_reset (&r);
}

static void
test_fit (void)
{
  CfRegions r;

  cf_regions_init (&r);
  cf_regions_add (&r, 5, 5, 10, 10);    /* padded by 2, clipped to 12x12 */
  cf_regions_add (&r, 3, 3, 0, 4);      /* empty: dropped */
  cf_regions_add (&r, 100, 100, 5, 5); /* outside: dropped */
  cf_regions_add (&r, -5, 1, 10, 4);    /* partly outside */
  cf_regions_add (&r, 14, 0, 4, 4);     /* outside, padded still outside */
  g_assert_cmpint (cf_regions_fit (&r, 2, 12, 12), ==, 0);
  g_assert_cmpint (r.frame_width, ==, 12);
  g_assert_cmpint (r.n_rects, ==, 2);
  assert_rect (&r.rects[0], 3, 3, 9, 9);
  assert_rect (&r.rects[1], 0, 0, 7, 7);
  cf_regions_reset (&r);
}

static void
test_fit_padding_reach (void)
{
  CfRegions r;

  /* x 14 padded by 2 starts at 12: still outside a 12-wide frame. */
  cf_regions_init (&r);
  cf_regions_add (&r, 14, 0, 4, 4);
  cf_regions_add (&r, 13, 0, 4, 4);     /* padded: 11 .. 18 → 11, w 1 */
  cf_regions_fit (&r, 2, 12, 12);
  g_assert_cmpint (r.n_rects, ==, 1);
  assert_rect (&r.rects[0], 11, 0, 1, 6);
  cf_regions_reset (&r);
}

/* Thousands of regions merge down to CF_REGIONS_MAX and still cover every
 * pixel they covered. */
static void
test_merge (void)
{
  CfRegions r;
  int i, k;

  cf_regions_init (&r);
  for (i = 0; i < 3000; i++)
    cf_regions_add (&r, (i * 37) % 640, (i * 11) % 480, 1 + i % 3, 2);
  g_assert_cmpint (cf_regions_fit (&r, 0, 640, 480), >, 0);
  g_assert_cmpint (r.n_rects, <=, CF_REGIONS_MAX);
  g_assert_cmpint (r.n_rects, >, 0);
  for (i = 0; i < 3000; i++) {
    int x = (i * 37) % 640, y = (i * 11) % 480;

    g_assert_true (cf_rects_contain (r.rects, r.n_rects, x, y));
    for (k = 0; k < r.n_rects; k++) {
      g_assert_cmpint (r.rects[k].x + r.rects[k].w, <=, 640);
      g_assert_cmpint (r.rects[k].y + r.rects[k].h, <=, 480);
    }
  }
  cf_regions_reset (&r);
}

static void
test_chroma_rounding (void)
{
  CfRect r = { 3, 1, 4, 2 }, c;

  g_assert_cmpint (cf_regions_subsampling (9, 5), ==, 2);
  g_assert_cmpint (cf_regions_subsampling (9, 9), ==, 1);
  g_assert_cmpint (cf_regions_subsampling (9, 3), ==, 4);
  g_assert_cmpint (cf_regions_subsampling (8, 4), ==, 2);
  /* 9x7 I420: chroma 5x4.  x 3..6 → floor(3/2) = 1 .. ceil(7/2) - 1 = 3;
   * y 1..2 → 0 .. ceil(3/2) - 1 = 1. */
  cf_rect_for_channel (&r, 9, 7, 5, 4, &c);
  assert_rect (&c, 1, 0, 3, 2);
  /* Luma: itself. */
  cf_rect_for_channel (&r, 9, 7, 9, 7, &c);
  assert_rect (&c, 3, 1, 4, 2);
  /* 4:2:2 (chroma 5x7): x as above, y unchanged. */
  cf_rect_for_channel (&r, 9, 7, 5, 7, &c);
  assert_rect (&c, 1, 1, 3, 2);
  /* The last pixel column of an odd frame: x 8 → chroma 4 (of 5). */
  r.x = 8;
  r.w = 1;
  cf_rect_for_channel (&r, 9, 7, 5, 4, &c);
  assert_rect (&c, 4, 0, 1, 2);
}

/* ---- backends: region output against the composited whole frame ---- */

/* Whether channel sample (x, y) lies in a region, by the rule written out
 * here again: floor(rx / s) <= x <= ceil((rx + rw) / s) - 1. */
static gboolean
covered (const CfRegions * r, int sx, int sy, int x, int y)
{
  int i;

  for (i = 0; i < r->n_rects; i++) {
    const CfRect *q = &r->rects[i];
    int x0 = q->x / sx, x1 = (q->x + q->w + sx - 1) / sx - 1;
    int y0 = q->y / sy, y1 = (q->y + q->h + sy - 1) / sy - 1;

    if (x >= x0 && x <= x1 && y >= y0 && y <= y1)
      return TRUE;
  }
  return FALSE;
}

typedef struct
{
  const char *name;
  int width, height;
  int sample_bytes;
  /* plane, sx, sy, pixel_stride (samples), offset (samples), mode */
  int n;
  int ch[4][6];
} Format;

static const Format formats[] = {
  {"GRAY8", 21, 13, 1, 1, {{0, 1, 1, 1, 0, CF_CHANNEL_FILTER}}},
  {"RGBA", 19, 11, 1, 4, {{0, 1, 1, 4, 0, CF_CHANNEL_FILTER},
          {0, 1, 1, 4, 1, CF_CHANNEL_FILTER}, {0, 1, 1, 4, 2,
              CF_CHANNEL_FILTER}, {0, 1, 1, 4, 3, CF_CHANNEL_COPY}}},
  {"I420", 21, 15, 1, 3, {{0, 1, 1, 1, 0, CF_CHANNEL_FILTER},
          {1, 2, 2, 1, 0, CF_CHANNEL_FILTER}, {2, 2, 2, 1, 0,
              CF_CHANNEL_FILTER}}},
  {"NV12", 20, 14, 1, 3, {{0, 1, 1, 1, 0, CF_CHANNEL_FILTER},
          {1, 2, 2, 2, 0, CF_CHANNEL_FILTER}, {1, 2, 2, 2, 1,
              CF_CHANNEL_FILTER}}},
  {"YUY2", 17, 9, 1, 3, {{0, 1, 1, 2, 0, CF_CHANNEL_FILTER},
          {0, 2, 1, 4, 1, CF_CHANNEL_FILTER}, {0, 2, 1, 4, 3,
              CF_CHANNEL_FILTER}}},
  {"GRAY16", 15, 12, 2, 1, {{0, 1, 1, 1, 0, CF_CHANNEL_FILTER}}},
};

typedef struct
{
  CfLayout layout;
  guint8 *in[3], *whole[3], *got[3];
  int stride[3];
  int sx[4], sy[4];
} Frames;

static void
frames_init (Frames * f, const Format * fmt)
{
  int c, p;

  memset (f, 0, sizeof (*f));
  f->layout.sample_bytes = fmt->sample_bytes;
  f->layout.depth = 8 * fmt->sample_bytes;
  for (c = 0; c < fmt->n; c++) {
    const int *d = fmt->ch[c];
    int w = (fmt->width + d[1] - 1) / d[1], h = (fmt->height + d[2] - 1) / d[2];

    f->sx[c] = d[1];
    f->sy[c] = d[2];
    cf_layout_add_channel (&f->layout, d[5], d[0], w, h,
        d[3] * fmt->sample_bytes, d[4] * fmt->sample_bytes, 0);
  }
  for (p = 0; p < f->layout.n_planes; p++) {
    gsize bytes;

    /* Padded strides: a row's tail must stay untouched too. */
    f->stride[p] = f->layout.plane_row_bytes[p] + 8;
    bytes = (gsize) f->stride[p] * f->layout.plane_height[p];
    f->in[p] = g_malloc (bytes);
    f->whole[p] = g_malloc (bytes);
    f->got[p] = g_malloc (bytes);
    for (gsize i = 0; i < bytes; i++)
      f->in[p][i] = (guint8) (i * 151 + p * 77 + (i * i) % 13);
    memset (f->whole[p], 0xA5, bytes);
    memset (f->got[p], 0xA5, bytes);
  }
}

static void
frames_clear (Frames * f)
{
  for (int p = 0; p < 3; p++) {
    g_free (f->in[p]);
    g_free (f->whole[p]);
    g_free (f->got[p]);
  }
}

static CfFrame
frame_of (Frames * f, guint8 ** planes)
{
  CfFrame fr;

  memset (&fr, 0, sizeof (fr));
  for (int p = 0; p < f->layout.n_planes; p++) {
    fr.data[p] = planes[p];
    fr.stride[p] = f->stride[p];
  }
  return fr;
}

/* Every sample: the whole-frame output where filtered, else the input. */
static void
check_composite (Frames * f, const CfRegions * r, int sample_bytes)
{
  for (int c = 0; c < f->layout.n_channels; c++) {
    const CfChannel *ch = &f->layout.channels[c];

    for (int y = 0; y < ch->height; y++)
      for (int x = 0; x < ch->width; x++) {
        gsize at = (gsize) y * f->stride[ch->plane] + (gsize) x *
            ch->pixel_stride + ch->offset;
        gboolean filtered = covered (r, f->sx[c], f->sy[c], x, y) ==
            (r->mode == CF_REGION_INSIDE);
        const guint8 *want = filtered ? f->whole[ch->plane] + at :
            f->in[ch->plane] + at;

        if (memcmp (f->got[ch->plane] + at, want, sample_bytes) != 0)
          g_error ("channel %d sample (%d,%d): got %d, want %d (%s)", c, x,
              y, f->got[ch->plane][at], want[0],
              filtered ? "filtered" : "input");
      }
  }
}

static void
run_format (CfBackendKind kind, const Format * fmt, CfRegionMode mode,
    const char *text)
{
  CfParams params;
  CfSpec *spec;
  CfBackend *be = cf_backend_new (kind, -1, NULL);
  CfRegions r;
  Frames f;
  CfFrame in, whole, got;

  frames_init (&f, fmt);
  cf_params_init (&params);
  params.filter = CF_FILTER_BOX;
  params.kernel_size = 5;
  spec = cf_spec_new (&params, fmt->sample_bytes, NULL);
  in = frame_of (&f, f.in);
  whole = frame_of (&f, f.whole);
  got = frame_of (&f, f.got);
  cf_regions_init (&r);
  r.mode = mode;
  g_assert_true (cf_regions_parse (text, &r, NULL));
  cf_regions_fit (&r, 0, fmt->width, fmt->height);

  g_assert_true (cf_backend_process (be, spec, &f.layout, &in, &whole, NULL));
  g_assert_true (cf_backend_process_regions (be, spec, &f.layout, &in, &got,
          &r, NULL));
  check_composite (&f, &r, fmt->sample_bytes);

  cf_regions_reset (&r);
  cf_spec_free (spec);
  cf_backend_free (be);
  frames_clear (&f);
}

static const char *const region_texts[] = {
  "3,2,7,5",                    /* odd corner: chroma rounds outward */
  "0,0,4,4; 2,3,9,2; 12,6,40,40",       /* overlapping, one past the frame */
  "1,1,1,1",
  "",                           /* none */
};

static void
test_backends_composite (void)
{
  static const CfBackendKind kinds[] = { CF_BACKEND_CPU_REFERENCE,
    CF_BACKEND_CPU
  };

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
      for (guint t = 0; t < G_N_ELEMENTS (region_texts); t++) {
        run_format (kinds[k], &formats[i], CF_REGION_INSIDE, region_texts[t]);
        run_format (kinds[k], &formats[i], CF_REGION_OUTSIDE,
            region_texts[t]);
      }
}

/* Regions small enough to run as tiles (the region plus the kernel's
 * reach, cut from the frame): odd corners and sizes, at and one sample
 * from every edge, overlapping, and one wider than the kernel's reach from
 * the edge; asymmetric and long kernels, every border but wrap; the output
 * in a buffer of its own and the input's own buffer (in place). */
static void
run_tiles (CfBackendKind kind, const Format * base, const CfParams * params,
    const char *text, gboolean in_place)
{
  Format fmt = *base;
  CfSpec *spec;
  CfBackend *be = cf_backend_new (kind, -1, NULL);
  CfRegions r;
  Frames f;
  CfFrame in, whole, got;

  /* Large enough that the tiles cover less than half the frame. */
  fmt.width = 97;
  fmt.height = 61;
  frames_init (&f, &fmt);
  spec = cf_spec_new (params, fmt.sample_bytes, NULL);
  g_assert_nonnull (spec);
  in = frame_of (&f, f.in);
  whole = frame_of (&f, f.whole);
  got = frame_of (&f, f.got);
  cf_regions_init (&r);
  g_assert_true (cf_regions_parse (text, &r, NULL));
  cf_regions_fit (&r, 0, fmt.width, fmt.height);

  g_assert_true (cf_backend_process (be, spec, &f.layout, &in, &whole, NULL));
  /* Tiles (what in place needs) unless they would cover half the frame:
   * long kernels on overlapping regions. */
  if (in_place && !cf_backend_regions_in_place (be, spec, &f.layout, &r)) {
    GError *error = NULL;

    g_assert_true (spec->kp.kw > 5);
    g_assert_false (cf_backend_process_regions (be, spec, &f.layout, &got,
            &got, &r, &error));
    g_assert_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM);
    g_clear_error (&error);
    in_place = FALSE;
  }
  if (in_place) {
    for (int p = 0; p < f.layout.n_planes; p++)
      memcpy (f.got[p], f.in[p], (gsize) f.stride[p] *
          f.layout.plane_height[p]);
    g_assert_true (cf_backend_process_regions (be, spec, &f.layout, &got,
            &got, &r, NULL));
  } else {
    g_assert_true (cf_backend_process_regions (be, spec, &f.layout, &in,
            &got, &r, NULL));
  }
  check_composite (&f, &r, fmt.sample_bytes);

  cf_regions_reset (&r);
  cf_spec_free (spec);
  cf_backend_free (be);
  frames_clear (&f);
}

static void
test_tiles (void)
{
  static const CfBackendKind kinds[] = { CF_BACKEND_CPU_REFERENCE,
    CF_BACKEND_CPU
  };
  static const char *const texts[] = {
    "0,0,3,2",                  /* the corner */
    "1,1,5,3; 90,55,7,6",       /* one sample in; the far corner */
    "94,3,3,9; 3,58,11,3",      /* the right and the bottom edge */
    "33,21,9,7; 37,24,13,5",    /* overlapping, inside */
    "41,0,1,61",                /* a column, edge to edge */
    "13,17,1,1; 60,30,2,1; 7,40,4,4",   /* tiny, three */
  };
  static const char *const kernels[] = {
    "1 2 3 4 5 6 7",            /* a row, anchor 3 */
    "1 0 2; 0 -1 0; 3 1 0; 1 1 1; 0 2 0",       /* 3x5, asymmetric */
  };
  CfParams params[6];
  int n = 0;

  cf_params_init (&params[n]);
  params[n].filter = CF_FILTER_BOX;
  params[n++].kernel_size = 5;
  cf_params_init (&params[n]);
  params[n].filter = CF_FILTER_GAUSSIAN;
  params[n].sigma = 2.5;
  params[n++].border = CF_BORDER_REPLICATE;
  cf_params_init (&params[n]);
  params[n].filter = CF_FILTER_SOBEL;
  params[n++].border = CF_BORDER_CONSTANT;
  cf_params_init (&params[n]);
  params[n].filter = CF_FILTER_SHARPEN;
  params[n].border = CF_BORDER_REFLECT;
  params[n].sigma = 1.5;
  params[n++].amount = 1.0;
  for (guint k = 0; k < G_N_ELEMENTS (kernels); k++) {
    cf_params_init (&params[n]);
    params[n].filter = CF_FILTER_CUSTOM;
    params[n++].kernel = kernels[k];
  }
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
      for (int q = 0; q < n; q++)
        for (guint t = 0; t < G_N_ELEMENTS (texts); t++)
          for (int in_place = 0; in_place < 2; in_place++)
            run_tiles (kinds[k], &formats[i], &params[q], texts[t],
                in_place);
}

/* Submitted frames keep their own regions; an unchanged frame holds its
 * place in the order. */
static void
test_submit_order (void)
{
  CfBackend *be = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
  gpointer data;

  cf_backend_set_max_in_flight (be, 2);
  g_assert_true (cf_backend_submit_unchanged (be, GINT_TO_POINTER (1), NULL));
  g_assert_cmpuint (cf_backend_in_flight (be), ==, 1);
  g_assert_true (cf_backend_wait (be, &data, NULL));
  g_assert_cmpint (GPOINTER_TO_INT (data), ==, 1);
  cf_backend_free (be);
}

/* A list not fitted to a frame is refused, not read. */
static void
test_unfitted_refused (void)
{
  CfParams params;
  CfSpec *spec;
  CfBackend *be = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
  CfLayout layout;
  guint8 a[16], b[16];
  CfFrame in = { {a}, {4} }, out = { {b}, {4} };
  CfRegions r;
  GError *err = NULL;

  cf_params_init (&params);
  spec = cf_spec_new (&params, 1, NULL);
  cf_layout_init_interleaved (&layout, 4, 4, 1, 1, 1);
  cf_regions_init (&r);
  cf_regions_add (&r, 0, 0, 2, 2);
  g_assert_false (cf_backend_process_regions (be, spec, &layout, &in, &out,
          &r, &err));
  g_assert_nonnull (strstr (err->message, "cf_regions_fit"));
  g_clear_error (&err);
  cf_regions_reset (&r);
  cf_spec_free (spec);
  cf_backend_free (be);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/regions/parse", test_parse);
  g_test_add_func ("/regions/fit", test_fit);
  g_test_add_func ("/regions/fit-padding-reach", test_fit_padding_reach);
  g_test_add_func ("/regions/merge", test_merge);
  g_test_add_func ("/regions/chroma-rounding", test_chroma_rounding);
  g_test_add_func ("/regions/backends-composite", test_backends_composite);
  g_test_add_func ("/regions/tiles", test_tiles);
  g_test_add_func ("/regions/submit-order", test_submit_order);
  g_test_add_func ("/regions/unfitted-refused", test_unfitted_refused);
  return g_test_run ();
}
