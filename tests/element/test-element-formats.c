/* cudafilter element tests: every format, size and filter on a constant
 * frame; caps. */
#include "element-common.h"

/* Every format, size and filter on a constant frame.
 *
 * Exact properties of the filters: on a constant frame (reflect101 border)
 * every smoothing filter (normalised weights), median, erosion, dilation,
 * opening, closing and bilateral return the constant, sharpen returns it
 * (src - blur = 0), and every derivative and morphological difference
 * (gradient, tophat, blackhat) is 0.  YUV chroma of a
 * derivative filter is neutral (half the range); alpha and padding bytes pass
 * through unchanged. */

GST_START_TEST (test_formats_sizes_filters)
{
  static const int sizes[][2] = {
    {1, 1}, {1, 7}, {7, 1}, {3, 3}, {17, 9}, {2, 2}, {64, 48}
  };
  guint fi, fl, s;

  SKIP_WITHOUT_BACKEND (__i__);

  for (fi = 0; fi < G_N_ELEMENTS (all_formats); fi++) {
    if (!format_known (all_formats[fi]))
      continue;
    for (fl = 0; fl < G_N_ELEMENTS (all_filters); fl++) {
      const gchar *props[] = { "filter", all_filters[fl],
        "kernel", "1 2 1; 2 4 2; 1 2 1", NULL
      };
      GstHarness *h = make_harness (__i__, props, NULL);
      /* Derivatives and the morphological differences give 0. */
      gboolean derivative = fl >= 2 && fl <= 6;

      derivative = derivative || g_str_equal (all_filters[fl], "gradient")
          || g_str_equal (all_filters[fl], "tophat")
          || g_str_equal (all_filters[fl], "blackhat");

      for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
        GstVideoInfo info;
        GstVideoFrame out;
        GstBuffer *res;
        int depth;

        set_caps (h, &info, all_formats[fi], sizes[s][0], sizes[s][1]);
        depth = GST_VIDEO_INFO_COMP_DEPTH (&info, 0);
        res = push_pull (h, &info, make_buffer (&info, constant_value,
                GINT_TO_POINTER (depth)), &out);
        check_constant_output (&out, all_formats[fi], all_filters[fl],
            derivative);
        gst_video_frame_unmap (&out);
        gst_buffer_unref (res);
      }
      gst_harness_teardown (h);
    }
  }
}

GST_END_TEST;

/* Output caps equal input caps for every format. */
GST_START_TEST (test_caps_every_format)
{
  guint fi;

  SKIP_WITHOUT_BACKEND (__i__);

  for (fi = 0; fi < G_N_ELEMENTS (all_formats); fi++) {
    GstHarness *h;
    GstVideoInfo info;
    GstVideoFrame out;
    GstBuffer *res;
    GstCaps *in_caps, *out_caps;

    if (!format_known (all_formats[fi]))
      continue;
    h = make_harness (__i__, NULL, NULL);
    set_caps (h, &info, all_formats[fi], 21, 11);
    res = push_pull (h, &info, make_buffer (&info, constant_value,
            GINT_TO_POINTER (GST_VIDEO_INFO_COMP_DEPTH (&info, 0))), &out);
    gst_video_frame_unmap (&out);
    gst_buffer_unref (res);

    in_caps = gst_video_info_to_caps (&info);
    out_caps = gst_pad_get_current_caps (h->sinkpad);
    fail_unless (out_caps != NULL);
    fail_unless (gst_caps_is_equal (in_caps, out_caps),
        "%s: %s != %s", all_formats[fi], gst_caps_to_string (in_caps),
        gst_caps_to_string (out_caps));
    gst_caps_unref (in_caps);
    gst_caps_unref (out_caps);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

static void
add_backend_tests (TCase * tc, int backend)
{
  ADD_BACKEND_TEST (tc, test_caps_every_format, backend);
  ADD_BACKEND_TEST (tc, test_formats_sizes_filters, backend);
}

ELEMENT_TEST_MAIN (formats);
