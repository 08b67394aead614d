/* cudafilter element tests: the same samples in other layouts; 10-bit
 * values. */
#include "element-common.h"

/* Formats that hold the same samples in other places give the same values:
 * packed 4:2:2 (YUY2, UYVY, YVYU) and semi-planar NV16/NV61 as planar Y42B,
 * NV24 as Y444, MSB-aligned P010/P012 as LSB-aligned I420_10LE/I420_12LE,
 * RGB10A2/BGR10A2 as planar GBR_10LE, VUYA and AYUV as Y444, BGRA64 as
 * RGBA64.  Components are compared by index (Y, U, V or R, G, B), so only
 * the placement differs; alpha and bits no component uses come out as they
 * went in (unused bits of a word a component owns: zero). */

typedef struct
{
  const gchar *format, *same_as;
} FormatPair;

static const FormatPair format_pairs[] = {
  {"YUY2", "Y42B"}, {"UYVY", "Y42B"}, {"YVYU", "Y42B"}, {"NV16", "Y42B"},
  {"NV61", "Y42B"}, {"NV24", "Y444"}, {"P010_10LE", "I420_10LE"},
  {"P012_LE", "I420_12LE"}, {"RGB10A2_LE", "GBR_10LE"},
  {"BGR10A2_LE", "GBR_10LE"}, {"VUYA", "Y444"}, {"AYUV", "Y444"},
  {"BGRA64_LE", "RGBA64_LE"}
};

/* A value for every (component, x, y), the same in every format: a hash,
 * masked by comp_set to the component's depth; user_data is the depth of
 * the filtered components (so I422_10LE and I422_12LE both get 10-bit
 * values). */
static guint
hashed_value (int comp, int x, int y, gpointer user_data)
{
  guint v = (guint) (comp * 7919 + x * 104729 + y * 1299709 + 17);
  int depth = GPOINTER_TO_INT (user_data);

  v ^= v >> 13;
  v *= 0x5bd1e995u;
  v ^= v >> 15;
  return comp == GST_VIDEO_COMP_A ? v : v & ((1u << depth) - 1);
}

static GstBuffer *
filter_hashed (int backend, const gchar * const *props, const gchar * format,
    int w, int h, int depth, GstVideoInfo * info, GstVideoFrame * in,
    GstVideoFrame * out)
{
  GstHarness *harness = make_harness (backend, props, NULL);
  GstBuffer *buf, *res;

  set_caps (harness, info, format, w, h);
  buf = make_buffer (info, hashed_value, GINT_TO_POINTER (depth));
  fail_unless (gst_video_frame_map (in, info, gst_buffer_ref (buf),
          GST_MAP_READ));
  res = push_pull (harness, info, buf, out);
  gst_harness_teardown (harness);
  return res;
}

static void
release_frames (GstVideoFrame * in, GstVideoFrame * out, GstBuffer * res)
{
  GstBuffer *inbuf = in->buffer;

  gst_video_frame_unmap (in);
  gst_buffer_unref (inbuf);
  gst_video_frame_unmap (out);
  gst_buffer_unref (res);
}

/* Every byte of the output that no component's value covers equals the
 * input's, except the unused bits of words a component owns, which are
 * zero: checked through the raw words. */
static void
check_unused_bits (GstVideoFrame * in, GstVideoFrame * out, const gchar * what)
{
  guint c;
  int x, y;

  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (out); c++) {
    int word, shift, depth;

    comp_bits (out, c, &word, &shift, &depth);
    if (word == 4)
      continue;                 /* every bit belongs to a component */
    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (out, c); y++)
      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (out, c); x++) {
        guint32 raw = comp_word (out, c, x, y);

        if (c == GST_VIDEO_COMP_A)
          check_int (raw, comp_word (in, c, x, y), "%s: alpha word at "
              "(%d,%d)", what, x, y);
        else
          check_int (raw & ~(((1u << depth) - 1) << shift), 0,
              "%s: unused bits of component %u at (%d,%d)", what, c, x, y);
      }
  }
}

GST_START_TEST (test_same_samples_other_layout)
{
  static const int sizes[][2] = { {17, 9}, {5, 3}, {1, 1}, {2, 2} };
  static const gchar *const filters[][12] = {
    {"filter", "gaussian", "sigma", "1.3", NULL},
    {"filter", "sobel", NULL},
    {"filter", "custom", "kernel", "1 0 -2; 3 5 1", "divisor", "4", NULL},
    {"filter", "box", "kernel-size", "5", "planes", "luma", NULL},
    {"filter", "sharpen", "amount", "3", "border", "constant",
        "border-value", "700", NULL},
  };
  guint pi, fl, s;

  SKIP_WITHOUT_BACKEND (__i__);

  for (pi = 0; pi < G_N_ELEMENTS (format_pairs); pi++) {
    const FormatPair *pair = &format_pairs[pi];

    if (!format_known (pair->format) || !format_known (pair->same_as))
      continue;
    for (fl = 0; fl < G_N_ELEMENTS (filters); fl++) {
      for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
        int w = sizes[s][0], h = sizes[s][1];
        GstVideoInfo ia, ib;
        GstVideoFrame ina, outa, inb, outb;
        GstBuffer *ra, *rb;
        int depth = gst_video_format_get_info (gst_video_format_from_string
            (pair->format))->depth[0];
        gchar *what = g_strdup_printf ("%s vs %s, %s %s, %dx%d",
            pair->format, pair->same_as, filters[fl][1],
            filters[fl][2] ? filters[fl][3] : "", w, h);
        guint c;
        int x, y;

        ra = filter_hashed (__i__, filters[fl], pair->format, w, h, depth,
            &ia, &ina, &outa);
        rb = filter_hashed (__i__, filters[fl], pair->same_as, w, h, depth,
            &ib, &inb, &outb);
        for (c = 0; c < 3; c++) {
          check_int (GST_VIDEO_FRAME_COMP_WIDTH (&outa, c),
              GST_VIDEO_FRAME_COMP_WIDTH (&outb, c), "%s", what);
          check_int (GST_VIDEO_FRAME_COMP_HEIGHT (&outa, c),
              GST_VIDEO_FRAME_COMP_HEIGHT (&outb, c), "%s", what);
          for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&outa, c); y++)
            for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&outa, c); x++) {
              /* The inputs agree, so the outputs must. */
              check_int (comp_get (&ina, c, x, y), comp_get (&inb, c, x, y),
                  "%s: input component %u at (%d,%d)", what, c, x, y);
              check_int (comp_get (&outa, c, x, y), comp_get (&outb, c, x,
                      y), "%s: component %u at (%d,%d)", what, c, x, y);
            }
        }
        if (GST_VIDEO_INFO_HAS_ALPHA (&ia))
          for (y = 0; y < h; y++)
            for (x = 0; x < w; x++)
              check_int (comp_get (&outa, GST_VIDEO_COMP_A, x, y),
                  comp_get (&ina, GST_VIDEO_COMP_A, x, y),
                  "%s: alpha at (%d,%d)", what, x, y);
        check_unused_bits (&ina, &outa, what);
        g_free (what);
        release_frames (&ina, &outa, ra);
        release_frames (&inb, &outb, rb);
      }
    }
  }
}

GST_END_TEST;

/* Packed 4:2:2 rows of odd width end in a half pair: GstVideoInfo gives the
 * row (width + 1) / 2 chroma samples and room for an extra luma sample, which
 * is no pixel; it passes through as the input had it. */
GST_START_TEST (test_packed_422_odd_width)
{
  static const gchar *const formats[] = { "YUY2", "UYVY", "YVYU" };
  const gchar *props[] = { "filter", "box", NULL };
  guint fi;

  SKIP_WITHOUT_BACKEND (__i__);

  for (fi = 0; fi < G_N_ELEMENTS (formats); fi++) {
    GstVideoInfo info;
    GstVideoFrame in, out;
    GstBuffer *res;
    int y;
    /* The missing luma's byte: Y is at poffset 0 (YUY2, YVYU) or 1 (UYVY)
     * of each 2-byte slot; the slot past the width's last one. */
    int y_off = GST_VIDEO_FORMAT_INFO_POFFSET (gst_video_format_get_info
        (gst_video_format_from_string (formats[fi])), 0) + 5 * 2;

    res = filter_hashed (__i__, props, formats[fi], 5, 3, 8, &info, &in,
        &out);
    check_int (GST_VIDEO_FRAME_COMP_WIDTH (&out, 1), 3);
    fail_unless (GST_VIDEO_FRAME_PLANE_STRIDE (&out, 0) >= 12);
    for (y = 0; y < 3; y++)
      check_int (((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&out, 0))[y *
              GST_VIDEO_FRAME_PLANE_STRIDE (&out, 0) + y_off],
          ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&in, 0))[y *
              GST_VIDEO_FRAME_PLANE_STRIDE (&in, 0) + y_off],
          "%s: spare luma byte of row %d", formats[fi], y);
    release_frames (&in, &out, res);
  }
}

GST_END_TEST;

/* Padded strides (GstVideoMeta) in the new layouts give the tight frame's
 * values. */
GST_START_TEST (test_padded_strides_new_formats)
{
  static const gchar *const formats[] = {
    "P010_10LE", "P012_LE", "P016_LE", "NV16", "NV61", "NV24", "I420_10LE",
    "I420_12LE", "I422_10LE", "I422_12LE", "Y444_10LE", "Y444_12LE",
    "Y444_16LE", "GBR_10LE", "GBR_12LE", "GBR_16LE", "YUY2", "UYVY", "YVYU",
    "VUYA", "AYUV", "RGB10A2_LE", "BGR10A2_LE", "RGBA64_LE", "BGRA64_LE"
  };
  static const int sizes[][2] = { {17, 9}, {1, 1}, {5, 3} };
  const gchar *props[] = { "filter", "custom", "kernel", "1 0 -2; 3 5 1",
    "divisor", "4", NULL
  };
  guint fi, s;

  SKIP_WITHOUT_BACKEND (__i__);

  for (fi = 0; fi < G_N_ELEMENTS (formats); fi++) {
    GstHarness *h;

    if (!format_known (formats[fi]))
      continue;
    h = make_harness (__i__, props, NULL);
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      GstVideoInfo info;
      GstVideoFrame tight_out, padded_out;
      GstBuffer *tight, *padded, *res1, *res2;
      gchar *where = NULL;

      set_caps (h, &info, formats[fi], sizes[s][0], sizes[s][1]);
      tight = make_buffer (&info, hashed_value,
          GINT_TO_POINTER (GST_VIDEO_INFO_COMP_DEPTH (&info, 0)));
      /* Strides stay multiples of 4, as the 32-bit words need. */
      padded = make_padded_copy (&info, tight, 4 * (3 + s));
      res1 = push_pull (h, &info, tight, &tight_out);
      res2 = push_pull (h, &info, padded, &padded_out);
      fail_unless (frames_equal (&tight_out, &padded_out, &where),
          "%s %dx%d: padded input differs from tight input: %s",
          formats[fi], sizes[s][0], sizes[s][1], where);
      gst_video_frame_unmap (&tight_out);
      gst_video_frame_unmap (&padded_out);
      gst_buffer_unref (res1);
      gst_buffer_unref (res2);
    }
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Values at the format's depth, by hand: a 1x1 custom kernel "2" doubles
 * each sample and saturates at 1023 for 10 bits (P010: 300 -> 600,
 * 600 -> 1023, stored as 1023 << 6); a constant border of 2000 is clamped
 * to 1023 with a warning, so a 3x3 box over a 1x1 frame of 0 gives
 * round (8 * 1023 / 9) = 909. */
GST_START_TEST (test_ten_bit_values)
{
  const gchar *dbl[] = { "filter", "custom", "kernel", "2", "divisor", "1",
    NULL
  };
  const gchar *box[] = { "filter", "box", "border", "constant",
    "border-value", "2000", NULL
  };
  GstHarness *h;
  GstBus *bus;
  GstMessage *msg;
  GstVideoInfo info;
  GstVideoFrame f;
  GstBuffer *buf, *res;

  SKIP_WITHOUT_BACKEND (__i__);

  h = make_harness (__i__, dbl, NULL);
  set_caps (h, &info, "P010_10LE", 2, 2);
  buf = gst_buffer_new_allocate (NULL, info.size, NULL);
  fail_unless (gst_video_frame_map (&f, &info, buf, GST_MAP_WRITE));
  comp_set (&f, 0, 0, 0, 300);
  comp_set (&f, 0, 1, 0, 600);
  comp_set (&f, 0, 0, 1, 1023);
  comp_set (&f, 0, 1, 1, 0);
  comp_set (&f, 1, 0, 0, 100);
  comp_set (&f, 2, 0, 0, 513);
  gst_video_frame_unmap (&f);
  res = push_pull (h, &info, buf, &f);
  check_int (GST_READ_UINT16_LE (comp_ptr (&f, 0, 0, 0)), 600 << 6);
  check_int (GST_READ_UINT16_LE (comp_ptr (&f, 0, 1, 0)), 1023 << 6);
  check_int (GST_READ_UINT16_LE (comp_ptr (&f, 0, 0, 1)), 1023 << 6);
  check_int (GST_READ_UINT16_LE (comp_ptr (&f, 0, 1, 1)), 0);
  check_int (GST_READ_UINT16_LE (comp_ptr (&f, 1, 0, 0)), 200 << 6);
  check_int (GST_READ_UINT16_LE (comp_ptr (&f, 2, 0, 0)), 1023 << 6);
  gst_video_frame_unmap (&f);
  gst_buffer_unref (res);
  gst_harness_teardown (h);

  h = make_harness (__i__, box, &bus);
  set_caps (h, &info, "I420_10LE", 1, 1);
  buf = gst_buffer_new_allocate (NULL, info.size, NULL);
  gst_buffer_memset (buf, 0, 0, info.size);
  res = push_pull (h, &info, buf, &f);
  check_int (comp_get (&f, 0, 0, 0), 909);
  check_int (comp_get (&f, 1, 0, 0), 909);
  gst_video_frame_unmap (&f);
  gst_buffer_unref (res);
  msg = pop_message (bus, GST_MESSAGE_WARNING);
  assert_message_mentions (msg, "border-value", "2000", "1023", NULL);
  gst_message_unref (msg);
  gst_harness_teardown (h);
  gst_bus_set_flushing (bus, TRUE);
  gst_object_unref (bus);
}

GST_END_TEST;

/* Derivative filters give 10-bit YUV neutral chroma: 512, in P010 512 << 6. */
GST_START_TEST (test_ten_bit_neutral_chroma)
{
  const gchar *props[] = { "filter", "sobel", NULL };
  GstVideoInfo info;
  GstVideoFrame in, out;
  GstBuffer *res;
  int x, y;

  SKIP_WITHOUT_BACKEND (__i__);

  res = filter_hashed (__i__, props, "P010_10LE", 6, 4, 10, &info, &in, &out);
  for (y = 0; y < 2; y++)
    for (x = 0; x < 3; x++) {
      check_int (GST_READ_UINT16_LE (comp_ptr (&out, 1, x, y)), 512 << 6);
      check_int (GST_READ_UINT16_LE (comp_ptr (&out, 2, x, y)), 512 << 6);
    }
  release_frames (&in, &out, res);
}

GST_END_TEST;

static void
add_backend_tests (TCase * tc, int backend)
{
  ADD_BACKEND_TEST (tc, test_same_samples_other_layout, backend);
  ADD_BACKEND_TEST (tc, test_packed_422_odd_width, backend);
  ADD_BACKEND_TEST (tc, test_padded_strides_new_formats, backend);
  ADD_BACKEND_TEST (tc, test_ten_bit_values, backend);
  ADD_BACKEND_TEST (tc, test_ten_bit_neutral_chroma, backend);
}

ELEMENT_TEST_MAIN (samples);
