/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter element tests: regions (property and metadata), region-mode,
 * frames no region touches, and pixelate.  Region output is checked
 * against a reference composited here from the element's whole-frame
 * output and the input, with the chroma rounding written out again;
 * pixelate against hand-worked means. */
#include "element-common.h"
#ifdef HAVE_GST_ANALYTICS
#include <gst/analytics/analytics.h>
#endif

static guint
varied (int comp, int x, int y, gpointer user_data)
{
  guint mask = GPOINTER_TO_UINT (user_data);

  return ((guint) (x * 37 + y * 91 + comp * 53 + (x * y) % 7) * 2654435761u
      >> 7) & mask;
}

typedef struct
{
  int x, y, w, h;
} Rect;

/* Component c's sample (x, y) is in a rectangle, rounded outward:
 * floor(rx / sx) <= x <= ceil((rx + rw) / sx) - 1. */
static gboolean
in_rects (const GstVideoInfo * info, int c, const Rect * r, int n, int x,
    int y)
{
  int sx = 1 << GST_VIDEO_FORMAT_INFO_W_SUB (info->finfo, c);
  int sy = 1 << GST_VIDEO_FORMAT_INFO_H_SUB (info->finfo, c);

  for (int i = 0; i < n; i++)
    if (x >= r[i].x / sx && x <= (r[i].x + r[i].w + sx - 1) / sx - 1
        && y >= r[i].y / sy && y <= (r[i].y + r[i].h + sy - 1) / sy - 1)
      return TRUE;
  return FALSE;
}

/* The whole-frame output of `filter` for `in`. */
static GstBuffer *
whole_frame (int backend, const gchar * const *props, GstVideoInfo * info,
    const gchar * format, int w, int h_, GstBuffer * in)
{
  GstHarness *h = make_harness (backend, props, NULL);
  GstVideoFrame f;
  GstBuffer *res;
  GstVideoInfo i2;

  set_caps (h, &i2, format, w, h_);
  res = push_pull (h, &i2, gst_buffer_ref (in), &f);
  gst_video_frame_unmap (&f);
  gst_harness_teardown (h);
  *info = i2;
  return res;
}

/* Every sample of `got`: the whole-frame output inside the rectangles
 * (outside for outside mode), the input elsewhere. */
static void
check_composited (GstBuffer * got, GstBuffer * whole, GstBuffer * in,
    const GstVideoInfo * info, const Rect * r, int n, gboolean inside,
    const gchar * what)
{
  GstVideoFrame g, w, i;

  fail_unless (gst_video_frame_map (&g, (GstVideoInfo *) info, got,
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&w, (GstVideoInfo *) info, whole,
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&i, (GstVideoInfo *) info, in,
          GST_MAP_READ));
  for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++)
    for (int y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&g, c); y++)
      for (int x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&g, c); x++) {
        gboolean filtered = in_rects (info, c, r, n, x, y) == inside;

        check_int (comp_get (&g, c, x, y), filtered ? comp_get (&w, c, x, y)
            : comp_get (&i, c, x, y), "%s %s comp %u (%d,%d) %s", what,
            GST_VIDEO_INFO_NAME (info), c, x, y, filtered ? "filtered" :
            "input");
      }
  gst_video_frame_unmap (&g);
  gst_video_frame_unmap (&w);
  gst_video_frame_unmap (&i);
}

static const gchar *const region_formats[] = {
  "RGBA", "I420", "NV12", "GRAY16_LE", "YUY2", "P010_10LE", "Y42B",
  "RGB10A2_LE"
};

/* The regions property, inside and outside, against the composited
 * whole-frame output; the whole frame differs from the input in every
 * region (so a region left unfiltered would show). */
GST_START_TEST (test_regions_property)
{
  static const Rect rects[] = { {3, 1, 7, 5}, {12, 9, 40, 3} };
  const int w = 23, hgt = 13;

  SKIP_WITHOUT_BACKEND (__i__);
  for (guint fi = 0; fi < G_N_ELEMENTS (region_formats); fi++) {
    const gchar *const blur[] = { "filter", "box", "kernel-size", "5", NULL };
    GstVideoInfo info;
    GstBuffer *in, *whole;

    if (!format_known (region_formats[fi]))
      continue;
    gst_video_info_set_format (&info,
        gst_video_format_from_string (region_formats[fi]), w, hgt);
    in = make_buffer (&info, varied, GUINT_TO_POINTER ((1u << GST_VIDEO_INFO_COMP_DEPTH (&info, 0)) - 1));
    whole = whole_frame (__i__, blur, &info, region_formats[fi], w, hgt, in);
    for (int mode = 0; mode < 2; mode++) {
      const gchar *const props[] = { "filter", "box", "kernel-size", "5",
        "regions", "3,1,7,5; 12,9,40,3", "region-mode",
        mode == 0 ? "inside" : "outside", NULL
      };
      GstHarness *h = make_harness (__i__, props, NULL);
      GstVideoFrame f;
      GstBuffer *res;

      set_caps (h, &info, region_formats[fi], w, hgt);
      res = push_pull (h, &info, gst_buffer_ref (in), &f);
      gst_video_frame_unmap (&f);
      check_composited (res, whole, in, &info, rects, 2, mode == 0,
          mode == 0 ? "inside" : "outside");
      gst_buffer_unref (res);
      gst_harness_teardown (h);
    }
    gst_buffer_unref (whole);
    gst_buffer_unref (in);
  }
}

GST_END_TEST;

static GstBuffer *
with_roi (GstBuffer * buf, const gchar * type, guint x, guint y, guint w,
    guint h)
{
  buf = gst_buffer_make_writable (buf);
  gst_buffer_add_video_region_of_interest_meta (buf, type, x, y, w, h);
  return buf;
}

/* Regions from GstVideoRegionOfInterestMeta of the wanted types, padded;
 * other types ignored; the metas stay on the output. */
GST_START_TEST (test_regions_from_meta)
{
  static const Rect want[] = { {4 - 2, 3 - 2, 6 + 4, 5 + 4} };
  const gchar *const blur[] = { "filter", "box", "kernel-size", "3", NULL };
  const gchar *const props[] = { "filter", "box", "kernel-size", "3",
    "roi-types", "car, face", "roi-padding", "2", NULL
  };
  const int w = 20, hgt = 14;

  SKIP_WITHOUT_BACKEND (__i__);
  for (guint fi = 0; fi < 3; fi++) {
    GstVideoInfo info;
    GstBuffer *in, *whole, *res, *meta_in;
    GstHarness *h;
    GstVideoFrame f;
    GstVideoRegionOfInterestMeta *roi;
    guint n_roi = 0;
    gpointer state = NULL;

    gst_video_info_set_format (&info,
        gst_video_format_from_string (region_formats[fi]), w, hgt);
    in = make_buffer (&info, varied, GUINT_TO_POINTER (255));
    whole = whole_frame (__i__, blur, &info, region_formats[fi], w, hgt, in);
    meta_in = with_roi (gst_buffer_copy (in), "face", 4, 3, 6, 5);
    meta_in = with_roi (meta_in, "tree", 0, 0, 20, 14);
    GST_BUFFER_PTS (meta_in) = 42 * GST_MSECOND;

    h = make_harness (__i__, props, NULL);
    set_caps (h, &info, region_formats[fi], w, hgt);
    res = push_pull (h, &info, meta_in, &f);
    gst_video_frame_unmap (&f);
    check_composited (res, whole, in, &info, want, 1, TRUE, "face meta");
    check_int (GST_BUFFER_PTS (res) == 42 * GST_MSECOND, 1);
    while ((roi = (GstVideoRegionOfInterestMeta *)
            gst_buffer_iterate_meta_filtered (res, &state,
                GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)) != NULL)
      n_roi++;
    check_int (n_roi, 2, "ROI metas on the output");
    gst_buffer_unref (res);
    gst_harness_teardown (h);
    gst_buffer_unref (whole);
    gst_buffer_unref (in);
  }
}

GST_END_TEST;

/* Inside mode, no region of a wanted type: the input buffer itself comes
 * out, in order with the filtered frames around it. */
GST_START_TEST (test_no_region_passes_through)
{
  const gchar *const props[] = { "filter", "box", "roi-types", "face",
    "frames-in-flight", "2", NULL
  };
  GstHarness *h;
  GstVideoInfo info;
  GstBuffer *a, *b, *c, *out[3];

  SKIP_WITHOUT_BACKEND (__i__);
  h = make_harness (__i__, props, NULL);
  set_caps (h, &info, "I420", 16, 8);
  a = with_roi (make_buffer (&info, varied, GUINT_TO_POINTER (255)), "face",
      0, 0, 4, 4);
  b = with_roi (make_buffer (&info, varied, GUINT_TO_POINTER (255)), "car",
      0, 0, 4, 4);
  c = with_roi (make_buffer (&info, varied, GUINT_TO_POINTER (255)), "face",
      2, 2, 4, 4);
  GST_BUFFER_PTS (a) = 0;
  GST_BUFFER_PTS (b) = 1;
  GST_BUFFER_PTS (c) = 2;
  gst_buffer_ref (b);
  check_int (gst_harness_push (h, a), GST_FLOW_OK);
  check_int (gst_harness_push (h, b), GST_FLOW_OK);
  check_int (gst_harness_push (h, c), GST_FLOW_OK);
  gst_harness_push_event (h, gst_event_new_eos ());
  for (int i = 0; i < 3; i++) {
    out[i] = gst_harness_pull (h);
    fail_unless (out[i] != NULL);
    check_int (GST_BUFFER_PTS (out[i]), i, "order");
  }
  fail_unless (out[1] == b, "the untouched frame is not the input buffer");
  fail_unless (out[0] != b && out[2] != b);
  for (int i = 0; i < 3; i++)
    gst_buffer_unref (out[i]);
  gst_buffer_unref (b);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A malformed regions value is refused with a warning naming the part,
 * and the previous value is kept. */
GST_START_TEST (test_malformed_regions_refused)
{
  GstBus *bus;
  GstHarness *h;
  GstElement *e;
  GstMessage *msg;
  gchar *kept;

  SKIP_WITHOUT_BACKEND (__i__);
  h = make_harness (__i__, NULL, &bus);
  e = h->element;
  g_object_set (e, "regions", "1,2,3,4", NULL);
  g_object_set (e, "regions", "1,2,3,4; 5,6,seven,8", NULL);
  msg = pop_message (bus, GST_MESSAGE_WARNING);
  assert_message_mentions (msg, "regions", "region 2", "seven",
      "Keeping", NULL);
  gst_message_unref (msg);
  g_object_get (e, "regions", &kept, NULL);
  fail_unless_equals_string (kept, "1,2,3,4");
  g_free (kept);
  gst_harness_teardown (h);
  gst_bus_set_flushing (bus, TRUE);
  gst_object_unref (bus);
}

GST_END_TEST;

/* pixelate, hand-worked: GRAY8 4x2 [1 2 3 4; 5 6 7 9], block-size 2:
 * (1+2+5+6)/4 = 3.5 -> 4, (3+4+7+9)/4 = 5.75 -> 6.  Inside region
 * "1,0,3,2": blocks from x 1: (2+3+6+7)/4 = 4.5 -> 5, the cut block
 * (4+9)/2 = 6.5 -> 7; column 0 untouched. */
GST_START_TEST (test_pixelate_hand_worked)
{
  static const guint16 in[8] = { 1, 2, 3, 4, 5, 6, 7, 9 };
  static const guint16 whole[8] = { 4, 4, 6, 6, 4, 4, 6, 6 };
  static const guint16 region[8] = { 1, 5, 5, 7, 5, 5, 5, 7 };
  static const guint16 outside[8] = { 4, 2, 3, 4, 4, 6, 7, 9 };
  const gchar *const p_whole[] = { "filter", "pixelate", "block-size", "2",
    NULL
  };
  const gchar *const p_region[] = { "filter", "pixelate", "block-size", "2",
    "regions", "1,0,3,2", NULL
  };
  const gchar *const p_outside[] = { "filter", "pixelate", "block-size", "2",
    "regions", "1,0,3,2", "region-mode", "outside", NULL
  };
  guint16 out[8];

  SKIP_WITHOUT_BACKEND (__i__);
  run_gray (__i__, "GRAY8", 4, 2, in, out, p_whole);
  for (int i = 0; i < 8; i++)
    check_int (out[i], whole[i], "whole %d", i);
  run_gray (__i__, "GRAY8", 4, 2, in, out, p_region);
  for (int i = 0; i < 8; i++)
    check_int (out[i], region[i], "region %d", i);
  run_gray (__i__, "GRAY8", 4, 2, in, out, p_outside);
  for (int i = 0; i < 8; i++)
    check_int (out[i], outside[i], "outside %d", i);
  /* 16-bit: (65535 + 65534 + 0 + 1) / 4 = 32767.5 -> 32768 */
  {
    static const guint16 in16[4] = { 65535, 65534, 0, 1 };
    guint16 o16[4];

    run_gray (__i__, "GRAY16_LE", 2, 2, in16, o16, p_whole);
    for (int i = 0; i < 4; i++)
      check_int (o16[i], 32768, "16-bit %d", i);
  }
}

GST_END_TEST;

/* pixelate on RGBA: alpha untouched; each colour block its own mean. */
GST_START_TEST (test_pixelate_alpha_untouched)
{
  const gchar *const props[] = { "filter", "pixelate", "block-size", "3",
    NULL
  };
  GstHarness *h;
  GstVideoInfo info;
  GstVideoFrame f, i;
  GstBuffer *in, *res;

  SKIP_WITHOUT_BACKEND (__i__);
  h = make_harness (__i__, props, NULL);
  set_caps (h, &info, "RGBA", 7, 5);
  in = make_buffer (&info, varied, GUINT_TO_POINTER (255));
  res = push_pull (h, &info, gst_buffer_ref (in), &f);
  fail_unless (gst_video_frame_map (&i, &info, in, GST_MAP_READ));
  for (int c = 0; c < 4; c++)
    for (int by = 0; by < 5; by += 3)
      for (int bx = 0; bx < 7; bx += 3) {
        int n = 0, sum = 0;

        for (int y = by; y < MIN (by + 3, 5); y++)
          for (int x = bx; x < MIN (bx + 3, 7); x++) {
            sum += comp_get (&i, c, x, y);
            n++;
          }
        for (int y = by; y < MIN (by + 3, 5); y++)
          for (int x = bx; x < MIN (bx + 3, 7); x++)
            check_int (comp_get (&f, c, x, y), c == 3 ?
                (int) comp_get (&i, c, x, y) : (2 * sum + n) / (2 * n),
                "comp %d (%d,%d)", c, x, y);
      }
  gst_video_frame_unmap (&i);
  gst_video_frame_unmap (&f);
  gst_buffer_unref (res);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Frames in flight each keep their own metadata regions. */
GST_START_TEST (test_regions_per_frame_in_flight)
{
  static const Rect rects[3] = { {0, 0, 5, 4}, {6, 3, 7, 5}, {11, 6, 5, 4} };
  const gchar *const blur[] = { "filter", "box", "kernel-size", "5", NULL };
  const gchar *const props[] = { "filter", "box", "kernel-size", "5",
    "roi-types", "face", "frames-in-flight", "3", NULL
  };
  GstVideoInfo info;
  GstBuffer *in, *whole;
  GstHarness *h;

  SKIP_WITHOUT_BACKEND (__i__);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 16, 10);
  in = make_buffer (&info, varied, GUINT_TO_POINTER (255));
  whole = whole_frame (__i__, blur, &info, "I420", 16, 10, in);
  h = make_harness (__i__, props, NULL);
  set_caps (h, &info, "I420", 16, 10);
  for (int i = 0; i < 3; i++) {
    GstBuffer *buf = with_roi (gst_buffer_copy (in), "face", rects[i].x,
        rects[i].y, rects[i].w, rects[i].h);

    GST_BUFFER_PTS (buf) = i;
    check_int (gst_harness_push (h, buf), GST_FLOW_OK);
  }
  gst_harness_push_event (h, gst_event_new_eos ());
  for (int i = 0; i < 3; i++) {
    GstBuffer *res = gst_harness_pull (h);

    fail_unless (res != NULL);
    check_int (GST_BUFFER_PTS (res), i, "order");
    check_composited (res, whole, in, &info, &rects[i], 1, TRUE,
        "in flight");
    gst_buffer_unref (res);
  }
  gst_buffer_unref (whole);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* roi-types="*": every meta's region, with the regions property's; a
 * meta reaching past the frame is clipped. */
GST_START_TEST (test_all_roi_types)
{
  static const Rect want[] = { {1, 1, 3, 2}, {10, 4, 6, 7}, {14, 0, 9, 3} };
  const gchar *const blur[] = { "filter", "gaussian", NULL };
  const gchar *const props[] = { "filter", "gaussian", "roi-types", " * ",
    "regions", "1,1,3,2", NULL
  };
  GstVideoInfo info;
  GstBuffer *in, *whole, *buf, *res;
  GstHarness *h;
  GstVideoFrame f;

  SKIP_WITHOUT_BACKEND (__i__);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 16, 10);
  in = make_buffer (&info, varied, GUINT_TO_POINTER (255));
  whole = whole_frame (__i__, blur, &info, "NV12", 16, 10, in);
  buf = with_roi (gst_buffer_copy (in), "face", 10, 4, 6, 7);
  buf = with_roi (buf, "licence-plate", 14, 0, 100, 3);
  h = make_harness (__i__, props, NULL);
  set_caps (h, &info, "NV12", 16, 10);
  res = push_pull (h, &info, buf, &f);
  gst_video_frame_unmap (&f);
  check_composited (res, whole, in, &info, want, 3, TRUE, "all types");
  gst_buffer_unref (res);
  gst_buffer_unref (whole);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
}

GST_END_TEST;

#ifdef HAVE_GST_ANALYTICS
/* Regions from analytics object detections (GStreamer >= 1.24). */
GST_START_TEST (test_regions_from_analytics)
{
  static const Rect want[] = { {5, 2, 8, 6} };
  const gchar *const blur[] = { "filter", "box", "kernel-size", "3", NULL };
  const gchar *const props[] = { "filter", "box", "kernel-size", "3",
    "roi-types", "dog", NULL
  };
  GstHarness *h;
  GstVideoInfo info;
  GstVideoFrame f;
  GstBuffer *in, *whole, *buf, *res;
  GstAnalyticsRelationMeta *rmeta;
  GstAnalyticsODMtd od;

  SKIP_WITHOUT_BACKEND (__i__);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 20, 12);
  in = make_buffer (&info, varied, GUINT_TO_POINTER (255));
  whole = whole_frame (__i__, blur, &info, "I420", 20, 12, in);
  buf = gst_buffer_copy (in);
  rmeta = gst_buffer_add_analytics_relation_meta (buf);
  fail_unless (gst_analytics_relation_meta_add_od_mtd (rmeta,
          g_quark_from_string ("dog"), 5, 2, 8, 6, 0.9f, &od));
  fail_unless (gst_analytics_relation_meta_add_od_mtd (rmeta,
          g_quark_from_string ("cat"), 0, 0, 20, 12, 0.9f, &od));
  h = make_harness (__i__, props, NULL);
  set_caps (h, &info, "I420", 20, 12);
  res = push_pull (h, &info, buf, &f);
  gst_video_frame_unmap (&f);
  check_composited (res, whole, in, &info, want, 1, TRUE, "analytics");
  fail_unless (gst_buffer_get_analytics_relation_meta (res) != NULL);
  gst_buffer_unref (res);
  gst_buffer_unref (whole);
  gst_buffer_unref (in);
  gst_harness_teardown (h);
}

GST_END_TEST;
#endif

static gboolean
same_bytes (GstBuffer * a, GstBuffer * b)
{
  GstMapInfo ma, mb;
  gboolean same;

  fail_unless (gst_buffer_map (a, &ma, GST_MAP_READ));
  fail_unless (gst_buffer_map (b, &mb, GST_MAP_READ));
  same = ma.size == mb.size && memcmp (ma.data, mb.data, ma.size) == 0;
  gst_buffer_unmap (a, &ma);
  gst_buffer_unmap (b, &mb);
  return same;
}

/* Small regions are filtered in the input's own buffer when only the
 * element holds it (the output is that buffer), and into a buffer of
 * their own when someone else holds it too (the input stays as it was);
 * both give the composited whole-frame output.  Odd regions at the
 * frame's edges, so each tile's reach is cut there. */
GST_START_TEST (test_regions_in_place)
{
  static const Rect rects[] = { {0, 0, 5, 3}, {41, 20, 9, 7},
  {90, 59, 7, 2}, {95, 1, 2, 11}
  };
  const int hgt = 61;
  GQuark mark = g_quark_from_static_string ("test-pushed-buffer");

  SKIP_WITHOUT_BACKEND (__i__);
  for (guint fi = 0; fi < 2 * G_N_ELEMENTS (region_formats); fi++) {
    const gchar *format = region_formats[fi / 2];
    /* Odd and even widths: an odd-width 4:2:2 row ends in a luma slot
     * no pixel uses, which tiles do not cut: whole frames there. */
    const int w = fi % 2 ? 96 : 97;
    gboolean tiled = !(w % 2 && (g_str_equal (format, "YUY2")
            || g_str_equal (format, "UYVY")));
    const gchar *const blur[] = { "filter", "gaussian", "sigma", "1.5",
      NULL
    };
    const gchar *const props[] = { "filter", "gaussian", "sigma", "1.5",
      "regions", "0,0,5,3; 41,20,9,7; 90,59,7,2; 95,1,2,11", NULL
    };
    GstVideoInfo info;
    GstBuffer *in, *kept, *whole, *res, *own;
    GstHarness *h;
    GstVideoFrame f;

    if (!format_known (format))
      continue;
    gst_video_info_set_format (&info,
        gst_video_format_from_string (format), w, hgt);
    in = make_buffer (&info, varied, GUINT_TO_POINTER ((1u <<
                GST_VIDEO_INFO_COMP_DEPTH (&info, 0)) - 1));
    kept = gst_buffer_copy_deep (in);
    whole = whole_frame (__i__, blur, &info, format, w, hgt, in);

    /* Held here too: a new output, the input untouched. */
    h = make_harness (__i__, props, NULL);
    set_caps (h, &info, format, w, hgt);
    res = push_pull (h, &info, gst_buffer_ref (in), &f);
    gst_video_frame_unmap (&f);
    fail_unless (res != in);
    fail_unless (same_bytes (in, kept), "%s: a shared input was written",
        format);
    check_composited (res, whole, kept, &info, rects, G_N_ELEMENTS (rects),
        TRUE, "shared input");
    gst_buffer_unref (res);

    /* Only the element holds it: filtered where it is. */
    own = gst_buffer_copy_deep (kept);
    gst_mini_object_set_qdata (GST_MINI_OBJECT (own), mark, own, NULL);
    res = push_pull (h, &info, own, &f);
    gst_video_frame_unmap (&f);
    fail_unless ((gst_mini_object_get_qdata (GST_MINI_OBJECT (res), mark) ==
            res) == tiled, "%s %d wide: filtered in place: %d", format, w,
        !tiled);
    check_composited (res, whole, kept, &info, rects, G_N_ELEMENTS (rects),
        TRUE, "own input");
    gst_buffer_unref (res);
    gst_harness_teardown (h);

    gst_buffer_unref (whole);
    gst_buffer_unref (kept);
    gst_buffer_unref (in);
  }
}

GST_END_TEST;

static void
add_backend_tests (TCase * tc, int backend)
{
  ADD_BACKEND_TEST (tc, test_regions_in_place, backend);
  ADD_BACKEND_TEST (tc, test_regions_property, backend);
  ADD_BACKEND_TEST (tc, test_regions_from_meta, backend);
  ADD_BACKEND_TEST (tc, test_no_region_passes_through, backend);
  ADD_BACKEND_TEST (tc, test_malformed_regions_refused, backend);
  ADD_BACKEND_TEST (tc, test_pixelate_hand_worked, backend);
  ADD_BACKEND_TEST (tc, test_pixelate_alpha_untouched, backend);
  ADD_BACKEND_TEST (tc, test_all_roi_types, backend);
  ADD_BACKEND_TEST (tc, test_regions_per_frame_in_flight, backend);
#ifdef HAVE_GST_ANALYTICS
  ADD_BACKEND_TEST (tc, test_regions_from_analytics, backend);
#else
  (void) 0;
#endif
}

ELEMENT_TEST_MAIN (regions);
