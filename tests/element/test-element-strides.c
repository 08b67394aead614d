/* cudafilter element tests: padded strides, alpha and padding bytes, YUV
 * planes. */
#include "element-common.h"

/* Padded strides, alpha and padding bytes, YUV planes */

static guint
random_value (int comp, int x, int y, gpointer user_data)
{
  GRand *rand = user_data;

  return g_rand_int_range (rand, 0, 256);
}

static guint
random_value16 (int comp, int x, int y, gpointer user_data)
{
  GRand *rand = user_data;

  return g_rand_int_range (rand, 0, 65536);
}

GST_START_TEST (test_padded_strides)
{
  static const gchar *const formats[] = {
    "GRAY8", "GRAY16_LE", "RGB", "RGBA", "xRGB", "I420", "YV12", "NV12",
    "Y42B", "GBRA"
  };
  static const int sizes[][2] = { {17, 9}, {1, 1}, {5, 3} };
  static const gchar *const filters[] = { "gaussian", "sobel", "custom" };
  guint fi, fl, s;

  SKIP_WITHOUT_BACKEND (__i__);

  for (fi = 0; fi < G_N_ELEMENTS (formats); fi++) {
    for (fl = 0; fl < G_N_ELEMENTS (filters); fl++) {
      const gchar *props[] = { "filter", filters[fl],
        "kernel", "1 0 -2; 3 5 1", "divisor", "4", NULL
      };
      GstHarness *h = make_harness (__i__, props, NULL);

      for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
        GRand *rand = g_rand_new_with_seed (fi * 100 + fl * 10 + s);
        GstVideoInfo info;
        GstVideoFrame tight_out, padded_out;
        GstBuffer *tight, *padded, *res1, *res2;
        gchar *where = NULL;

        set_caps (h, &info, formats[fi], sizes[s][0], sizes[s][1]);
        tight = make_buffer (&info,
            GST_VIDEO_INFO_COMP_DEPTH (&info, 0) > 8 ? random_value16 :
            random_value, rand);
        padded = make_padded_copy (&info, tight, 2 * (7 + s));

        res1 = push_pull (h, &info, tight, &tight_out);
        res2 = push_pull (h, &info, padded, &padded_out);
        fail_unless (frames_equal (&tight_out, &padded_out, &where),
            "%s %s %dx%d: padded input differs from tight input: %s",
            formats[fi], filters[fl], sizes[s][0], sizes[s][1], where);

        gst_video_frame_unmap (&tight_out);
        gst_video_frame_unmap (&padded_out);
        gst_buffer_unref (res1);
        gst_buffer_unref (res2);
        g_rand_free (rand);
      }
      gst_harness_teardown (h);
    }
  }
}

GST_END_TEST;

/* Alpha and padding bytes of random content are copied, whatever the
 * filter does to the colour. */
GST_START_TEST (test_alpha_and_padding_untouched)
{
  static const gchar *const formats[] = {
    "RGBA", "BGRA", "ARGB", "ABGR", "RGBx", "BGRx", "xRGB", "xBGR", "GBRA"
  };
  static const gchar *const filters[] = { "box", "sobel", "sharpen" };
  guint fi, fl;

  SKIP_WITHOUT_BACKEND (__i__);

  for (fi = 0; fi < G_N_ELEMENTS (formats); fi++) {
    for (fl = 0; fl < G_N_ELEMENTS (filters); fl++) {
      const gchar *props[] = { "filter", filters[fl], NULL };
      GstHarness *h = make_harness (__i__, props, NULL);
      GRand *rand = g_rand_new_with_seed (fi * 7 + fl);
      GstVideoInfo info;
      GstVideoFrame in, out;
      GstBuffer *buf, *res;
      int pad_offset, x, y;

      set_caps (h, &info, formats[fi], 19, 7);
      buf = make_buffer (&info, random_value, rand);
      /* Random padding too, not only PAD_BYTE. */
      if (is_padded_format (formats[fi], &pad_offset)) {
        fail_unless (gst_video_frame_map (&in, &info, buf, GST_MAP_WRITE));
        for (y = 0; y < 7; y++)
          for (x = 0; x < 19; x++)
            ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&in, 0))[y *
                GST_VIDEO_FRAME_PLANE_STRIDE (&in, 0) + x * 4 + pad_offset] =
                g_rand_int_range (rand, 0, 256);
        gst_video_frame_unmap (&in);
      }
      fail_unless (gst_video_frame_map (&in, &info, gst_buffer_ref (buf),
              GST_MAP_READ));
      res = push_pull (h, &info, buf, &out);

      for (y = 0; y < 7; y++)
        for (x = 0; x < 19; x++) {
          if (GST_VIDEO_INFO_HAS_ALPHA (&info))
            check_int (comp_get (&out, GST_VIDEO_COMP_A, x, y),
                comp_get (&in, GST_VIDEO_COMP_A, x, y));
          if (is_padded_format (formats[fi], &pad_offset)) {
            int off = y * GST_VIDEO_FRAME_PLANE_STRIDE (&in, 0) + x * 4 +
                pad_offset;
            int off_out = y * GST_VIDEO_FRAME_PLANE_STRIDE (&out, 0) + x * 4
                + pad_offset;

            check_int (((guint8 *)
                    GST_VIDEO_FRAME_PLANE_DATA (&out, 0))[off_out],
                ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&in, 0))[off]);
          }
        }

      gst_video_frame_unmap (&in);
      gst_buffer_unref (in.buffer);
      gst_video_frame_unmap (&out);
      gst_buffer_unref (res);
      g_rand_free (rand);
      gst_harness_teardown (h);
    }
  }
}

GST_END_TEST;

/* YUV: luma is a horizontal ramp of slope 3 (sobel-x interior: 8 * 3 = 24),
 * chroma random.  planes=luma keeps chroma identical; planes=all with a
 * derivative gives neutral chroma (128). */
static guint
ramp_luma_random_chroma (int comp, int x, int y, gpointer user_data)
{
  if (comp == GST_VIDEO_COMP_Y)
    return 10 + 3 * x;
  return g_rand_int_range ((GRand *) user_data, 0, 256);
}

GST_START_TEST (test_yuv_planes)
{
  static const gchar *const formats[] = {
    "I420", "YV12", "NV12", "NV21", "Y42B", "Y444"
  };
  guint fi, luma;

  SKIP_WITHOUT_BACKEND (__i__);

  for (fi = 0; fi < G_N_ELEMENTS (formats); fi++) {
    for (luma = 0; luma < 2; luma++) {
      const gchar *props[] = { "filter", "sobel-x",
        "planes", luma ? "luma" : "all", NULL
      };
      GstHarness *h = make_harness (__i__, props, NULL);
      GRand *rand = g_rand_new_with_seed (fi);
      GstVideoInfo info;
      GstVideoFrame in, out;
      GstBuffer *buf, *res;
      int c, x, y;

      set_caps (h, &info, formats[fi], 21, 9);
      buf = make_buffer (&info, ramp_luma_random_chroma, rand);
      fail_unless (gst_video_frame_map (&in, &info, gst_buffer_ref (buf),
              GST_MAP_READ));
      res = push_pull (h, &info, buf, &out);

      for (y = 0; y < 9; y++)
        for (x = 0; x < 21; x++)
          check_int (comp_get (&out, 0, x, y), x == 0 || x == 20 ? 0 : 24);
      for (c = 1; c < 3; c++)
        for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&out, c); y++)
          for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&out, c); x++)
            check_int (comp_get (&out, c, x, y),
                luma ? comp_get (&in, c, x, y) : 128,
                "%s planes=%s: chroma %d at (%d,%d)", formats[fi],
                luma ? "luma" : "all", c, x, y);

      gst_video_frame_unmap (&in);
      gst_buffer_unref (in.buffer);
      gst_video_frame_unmap (&out);
      gst_buffer_unref (res);
      g_rand_free (rand);
      gst_harness_teardown (h);
    }
  }
}

GST_END_TEST;

static void
add_backend_tests (TCase * tc, int backend)
{
  ADD_BACKEND_TEST (tc, test_padded_strides, backend);
  ADD_BACKEND_TEST (tc, test_alpha_and_padding_untouched, backend);
  ADD_BACKEND_TEST (tc, test_yuv_planes, backend);
}

ELEMENT_TEST_MAIN (strides);
