/* cudafilter element tests (GstHarness).
 *
 * Every test runs once per backend: the "cpu" test case with backend=cpu, the
 * "cuda" test case with backend=cuda (skipped, saying so, without a usable
 * CUDA device).  Expected values are worked out by hand (each check says
 * how) or follow from exact properties of the filters, never from the
 * element's own output. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <gst/controller/gstinterpolationcontrolsource.h>
#include <gst/controller/gstdirectcontrolbinding.h>

#include "cf-backend.h"
#include "cf-spec.h"

#define BACKEND_CPU 0
#define BACKEND_CUDA 1

static const gchar *const backend_nicks[] = { "cpu", "cuda" };

/* Formats newer than the running GStreamer (GBR_16LE before 1.24) are
 * skipped where they are used (format_known). */
static const gchar *const all_formats[] = {
  "GRAY8", "GRAY16_LE", "RGB", "BGR", "RGBA", "BGRA", "ARGB", "ABGR",
  "RGBx", "BGRx", "xRGB", "xBGR", "I420", "YV12", "NV12", "NV21", "Y42B",
  "Y444", "GBR", "GBRA",
  "P010_10LE", "P012_LE", "P016_LE", "NV16", "NV61", "NV24", "I420_10LE",
  "I420_12LE", "I422_10LE", "I422_12LE", "Y444_10LE", "Y444_12LE",
  "Y444_16LE", "GBR_10LE", "GBR_12LE", "GBR_16LE", "YUY2", "UYVY", "YVYU",
  "VUYA", "AYUV", "RGB10A2_LE", "BGR10A2_LE", "RGBA64_LE", "BGRA64_LE"
};

static const gchar *const all_filters[] = {
  "gaussian", "box", "sobel", "sobel-x", "sobel-y", "scharr", "laplacian",
  "sharpen", "custom"
};

/* got == want, with an optional printf-style description of the place. */
#define check_int(got, want, ...) G_STMT_START {                         \
  int got_ = (got), want_ = (want);                                     \
  if (got_ != want_) {                                                  \
    gchar *where_ = g_strdup_printf (" " __VA_ARGS__);                   \
    fail ("%s: got %d, expected %d (%s)", #got, got_, want_, where_);   \
  }                                                                     \
} G_STMT_END

/* Byte left in the input's padding byte (the x of RGBx): must come out. */
#define PAD_BYTE 0xA5

/* ---------------------------------------------------------------------- */
/* Helpers */

static gboolean
backend_usable (int backend)
{
  static int cuda_devices = -1;

  if (backend == BACKEND_CPU)
    return TRUE;
  if (cuda_devices < 0)
    cuda_devices = cf_cuda_device_count (NULL);
  return cuda_devices > 0;
}

#define SKIP_WITHOUT_BACKEND(be) G_STMT_START {                         \
  if (!backend_usable (be)) {                                           \
    g_print ("SKIP %s (backend=cuda): no usable CUDA device\n",         \
        __func__);                                                      \
    return;                                                             \
  }                                                                     \
} G_STMT_END

static void
cuda_case_setup (void)
{
  char *why = NULL;

  if (cf_cuda_device_count (&why) == 0)
    g_print ("\nSKIP: the backend=cuda test case is skipped: no usable CUDA "
        "device (%s). These tests run on a machine with an NVIDIA GPU.\n\n",
        why ? why : "unknown reason");
  g_free (why);
}

/* A cudafilter with backend and the given properties ("name", "value",
 * ..., NULL), set before it starts. */
static GstElement *
make_filter (int backend, const gchar * const *props)
{
  GstElement *e = gst_element_factory_make ("cudafilter", NULL);

  fail_unless (e != NULL, "cudafilter not found: is GST_PLUGIN_PATH set?");
  gst_util_set_object_arg (G_OBJECT (e), "backend", backend_nicks[backend]);
  for (; props != NULL && props[0] != NULL; props += 2)
    gst_util_set_object_arg (G_OBJECT (e), props[0], props[1]);
  return e;
}

static GstHarness *
make_harness (int backend, const gchar * const *props, GstBus ** bus)
{
  GstElement *e = make_filter (backend, props);
  GstHarness *h;

  if (bus != NULL) {
    *bus = gst_bus_new ();
    gst_element_set_bus (e, *bus);
  }
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  return h;
}

static void
set_caps (GstHarness * h, GstVideoInfo * info, const gchar * format, int w,
    int h_)
{
  gst_video_info_set_format (info, gst_video_format_from_string (format), w,
      h_);
  info->fps_n = 30;
  info->fps_d = 1;
  gst_harness_set_src_caps (h, gst_video_info_to_caps (info));
}

static gboolean
format_known (const gchar * format)
{
  return gst_video_format_from_string (format) != GST_VIDEO_FORMAT_UNKNOWN;
}

/* Where component c's value sits, as the formats are documented: `depth`
 * bits from bit `shift` of a little-endian word of 1, 2 or 4 bytes.  The
 * format info gives the shift of MSB-aligned samples (P010: 6); it gives
 * none for the 10-bit fields of RGB10A2_LE (R in bits 0-9, G 10-19, B
 * 20-29, A 30-31) and BGR10A2_LE (B, G, R, A), so those are written out. */
static void
comp_bits (GstVideoFrame * f, int c, int *word, int *shift, int *depth)
{
  GstVideoFormat fmt = GST_VIDEO_FRAME_FORMAT (f);

  *depth = GST_VIDEO_FRAME_COMP_DEPTH (f, c);
  if (fmt == GST_VIDEO_FORMAT_RGB10A2_LE || fmt == GST_VIDEO_FORMAT_BGR10A2_LE) {
    static const int rgb[] = { 0, 10, 20, 30 }, bgr[] = { 20, 10, 0, 30 };

    *word = 4;
    *shift = fmt == GST_VIDEO_FORMAT_RGB10A2_LE ? rgb[c] : bgr[c];
    return;
  }
  *shift = f->info.finfo->shift[c];
  *word = *depth + *shift > 8 ? 2 : 1;
}

/* P010, P012 and P016 keep V in bytes 2-3 of each 4-byte UV pair, as
 * documented and as GStreamer's pack functions write it; the format info
 * of GStreamer 1.22 says byte 1. */
static int
comp_offset_fix (GstVideoFrame * f, int c)
{
  GstVideoFormat fmt = GST_VIDEO_FRAME_FORMAT (f);

  if ((fmt == GST_VIDEO_FORMAT_P010_10LE || fmt == GST_VIDEO_FORMAT_P012_LE
          || fmt == GST_VIDEO_FORMAT_P016_LE) && c == GST_VIDEO_COMP_V)
    return 2 - GST_VIDEO_FORMAT_INFO_POFFSET (f->info.finfo, c);
  return 0;
}

static guint8 *
comp_ptr (GstVideoFrame * f, int c, int x, int y)
{
  return (guint8 *) GST_VIDEO_FRAME_COMP_DATA (f, c) +
      comp_offset_fix (f, c) + y * GST_VIDEO_FRAME_COMP_STRIDE (f, c) +
      x * GST_VIDEO_FRAME_COMP_PSTRIDE (f, c);
}

static guint32
word_get (const guint8 * p, int word)
{
  return word == 1 ? p[0] : word == 2 ? GST_READ_UINT16_LE (p) :
      GST_READ_UINT32_LE (p);
}

static guint
comp_get (GstVideoFrame * f, int c, int x, int y)
{
  int word, shift, depth;

  comp_bits (f, c, &word, &shift, &depth);
  return (word_get (comp_ptr (f, c, x, y), word) >> shift) &
      ((1u << depth) - 1);
}

/* Sets component c's bits to v (masked to its depth); the other bits of a
 * word shared with other components are kept, those of a word of its own
 * are zero (the low bits of P010). */
static void
comp_set (GstVideoFrame * f, int c, int x, int y, guint v)
{
  guint8 *p = comp_ptr (f, c, x, y);
  int word, shift, depth;
  guint32 mask, w;

  comp_bits (f, c, &word, &shift, &depth);
  mask = ((1u << depth) - 1) << shift;
  w = ((guint32) v << shift) & mask;
  if (word == 4)
    GST_WRITE_UINT32_LE (p, (GST_READ_UINT32_LE (p) & ~mask) | w);
  else if (word == 2)
    GST_WRITE_UINT16_LE (p, w);
  else
    *p = w;
}

/* The raw word of component c (all its bits, unused ones included). */
static guint32
comp_word (GstVideoFrame * f, int c, int x, int y)
{
  int word, shift, depth;

  comp_bits (f, c, &word, &shift, &depth);
  return word_get (comp_ptr (f, c, x, y), word);
}

typedef guint (*PixelFunc) (int comp, int x, int y, gpointer user_data);

/* A tight buffer for info: every byte PAD_BYTE, then every component
 * sample set by func. */
static GstBuffer *
make_buffer (const GstVideoInfo * info, PixelFunc func, gpointer user_data)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstVideoFrame f;
  guint c;
  int x, y;

  gst_buffer_memset (buf, 0, PAD_BYTE, info->size);
  fail_unless (gst_video_frame_map (&f, (GstVideoInfo *) info, buf,
          GST_MAP_WRITE));
  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&f); c++)
    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&f, c); y++)
      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&f, c); x++)
        comp_set (&f, c, x, y, func (c, x, y, user_data));
  gst_video_frame_unmap (&f);
  return buf;
}

/* The same pixels with every plane's stride grown by `extra` bytes and
 * garbage in the gaps, described by a GstVideoMeta. */
static GstBuffer *
make_padded_copy (const GstVideoInfo * info, GstBuffer * tight, int extra)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  gsize offsets[GST_VIDEO_MAX_PLANES] = { 0 };
  gint strides[GST_VIDEO_MAX_PLANES] = { 0 };
  gsize total = 64;             /* a gap before the first plane too */
  GstVideoFrame src, dst;
  GstBuffer *buf;
  guint p, c;

  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    int rows = 0;

    for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++)
      if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) == p)
        rows = MAX (rows, GST_VIDEO_INFO_COMP_HEIGHT (info, c));
    strides[p] = GST_VIDEO_INFO_PLANE_STRIDE (info, p) + extra * (p + 1);
    offsets[p] = total;
    total += (gsize) strides[p] * rows + 48;
  }
  buf = gst_buffer_new_allocate (NULL, total, NULL);
  gst_buffer_memset (buf, 0, 0xEE, total);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info), offsets,
      strides);

  /* Whole rows, byte for byte: gst_video_frame_copy copies width *
   * pixel stride bytes of a row, which leaves out the last V of an odd-width
   * YUY2 row. */
  fail_unless (gst_video_frame_map (&src, (GstVideoInfo *) info, tight,
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&dst, (GstVideoInfo *) info, buf,
          GST_MAP_WRITE));
  fail_unless (GST_VIDEO_FRAME_PLANE_STRIDE (&dst, 0) == strides[0]);
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    int rows = 0, r;

    for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++)
      if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) == p)
        rows = MAX (rows, GST_VIDEO_INFO_COMP_HEIGHT (info, c));
    for (r = 0; r < rows; r++)
      memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&dst, p) +
          r * strides[p], (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&src, p) +
          r * GST_VIDEO_FRAME_PLANE_STRIDE (&src, p),
          GST_VIDEO_FRAME_PLANE_STRIDE (&src, p));
  }
  gst_video_frame_unmap (&dst);
  gst_video_frame_unmap (&src);
  return buf;
}

/* Pushes buf, pulls the output and maps it (caller unmaps and unrefs). */
static GstBuffer *
push_pull (GstHarness * h, const GstVideoInfo * info, GstBuffer * buf,
    GstVideoFrame * out)
{
  GstBuffer *res;

  check_int (gst_harness_push (h, buf), GST_FLOW_OK);
  res = gst_harness_pull (h);
  fail_unless (res != NULL);
  check_int (gst_buffer_get_size (res), info->size);
  fail_unless (gst_video_frame_map (out, (GstVideoInfo *) info, res,
          GST_MAP_READ));
  return res;
}

/* Filters one single-component frame (GRAY8 or GRAY16_LE) given as tight
 * w*h samples. */
static void
run_gray (int backend, const gchar * format, int w, int h,
    const guint16 * in, guint16 * out, const gchar * const *props)
{
  GstHarness *harness = make_harness (backend, props, NULL);
  GstVideoInfo info;
  GstVideoFrame f;
  GstBuffer *buf, *res;
  int x, y;

  set_caps (harness, &info, format, w, h);
  buf = gst_buffer_new_allocate (NULL, info.size, NULL);
  fail_unless (gst_video_frame_map (&f, &info, buf, GST_MAP_WRITE));
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      comp_set (&f, 0, x, y, in[y * w + x]);
  gst_video_frame_unmap (&f);

  res = push_pull (harness, &info, buf, &f);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      out[y * w + x] = comp_get (&f, 0, x, y);
  gst_video_frame_unmap (&f);
  gst_buffer_unref (res);
  gst_harness_teardown (harness);
}

static gboolean
is_padded_format (const gchar * format, int *pad_offset)
{
  /* The x byte, from the format's name: RGBx/BGRx last, xRGB/xBGR first. */
  if (!strcmp (format, "RGBx") || !strcmp (format, "BGRx")) {
    *pad_offset = 3;
    return TRUE;
  }
  if (!strcmp (format, "xRGB") || !strcmp (format, "xBGR")) {
    *pad_offset = 0;
    return TRUE;
  }
  return FALSE;
}

static GstMessage *
pop_message (GstBus * bus, GstMessageType type)
{
  return gst_bus_pop_filtered (bus, type);
}

/* The message's text contains every one of the words (NULL-terminated). */
static void
assert_message_mentions (GstMessage * msg, ...)
{
  GError *err = NULL;
  gchar *debug = NULL;
  const gchar *word;
  va_list args;

  fail_unless (msg != NULL, "no message on the bus");
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
    gst_message_parse_error (msg, &err, &debug);
  else
    gst_message_parse_warning (msg, &err, &debug);

  va_start (args, msg);
  while ((word = va_arg (args, const gchar *)) != NULL)
      fail_unless (strstr (err->message, word) != NULL,
        "'%s' not in the message: %s", word, err->message);
  va_end (args);

  g_error_free (err);
  g_free (debug);
}

/* ---------------------------------------------------------------------- */
/* Every format, size and filter on a constant frame.
 *
 * Exact properties of the filters: on a constant frame (reflect101 border)
 * every smoothing filter (normalised weights) returns the constant, sharpen
 * returns it (src - blur = 0), and every derivative is 0.  YUV chroma of a
 * derivative filter is neutral (half the range); alpha and padding bytes pass
 * through unchanged. */

/* user_data: the format's depth. */
static guint
constant_value (int comp, int x, int y, gpointer user_data)
{
  static const guint vals8[] = { 90, 60, 170, 33 };
  int depth = GPOINTER_TO_INT (user_data);

  if (depth <= 8)
    return vals8[comp];
  if (depth == 16)
    return 40000u - comp * 1000u;
  return (vals8[comp] << (depth - 8)) + 3;
}

static void
check_constant_output (GstVideoFrame * f, const gchar * format,
    const gchar * filter, gboolean derivative)
{
  const GstVideoFormatInfo *finfo = f->info.finfo;
  int depth = GST_VIDEO_FRAME_COMP_DEPTH (f, 0);
  gboolean yuv = GST_VIDEO_FORMAT_INFO_IS_YUV (finfo);
  int pad_offset;
  guint c;
  int x, y;

  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (f); c++) {
    guint in = constant_value (c, 0, 0, GINT_TO_POINTER (depth)) &
        ((1u << GST_VIDEO_FRAME_COMP_DEPTH (f, c)) - 1);
    guint expect = in;

    if (c == GST_VIDEO_COMP_A)
      expect = in;
    else if (yuv && c != GST_VIDEO_COMP_Y && derivative)
      expect = 1u << (depth - 1);
    else if (derivative)
      expect = 0;

    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (f, c); y++)
      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (f, c); x++)
        check_int (comp_get (f, c, x, y), expect,
            "%s %s %dx%d: component %u at (%d,%d)", format, filter,
            GST_VIDEO_FRAME_WIDTH (f), GST_VIDEO_FRAME_HEIGHT (f), c, x, y);
  }

  if (is_padded_format (format, &pad_offset)) {
    guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (f, 0);
    int stride = GST_VIDEO_FRAME_PLANE_STRIDE (f, 0);

    for (y = 0; y < GST_VIDEO_FRAME_HEIGHT (f); y++)
      for (x = 0; x < GST_VIDEO_FRAME_WIDTH (f); x++)
        check_int (data[y * stride + x * 4 + pad_offset],
            PAD_BYTE, "%s: padding byte at (%d,%d)", format, x, y);
  }
}

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
      gboolean derivative = fl >= 2 && fl <= 6;

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

/* ---------------------------------------------------------------------- */
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

static gboolean
frames_equal (GstVideoFrame * a, GstVideoFrame * b, gchar ** where)
{
  guint c;
  int x, y;

  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (a); c++)
    for (y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (a, c); y++)
      for (x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (a, c); x++)
        if (comp_get (a, c, x, y) != comp_get (b, c, x, y)) {
          *where = g_strdup_printf ("component %u at (%d,%d): %u != %u", c,
              x, y, comp_get (a, c, x, y), comp_get (b, c, x, y));
          return FALSE;
        }
  return TRUE;
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

/* ---------------------------------------------------------------------- */
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

/* ---------------------------------------------------------------------- */
/* Hand-worked values (each also what OpenCV gives for the same input) */

#define RAMP_W 20
#define RAMP_H 5

static void
fill_ramp (guint16 * px, int w, int h, int slope, int base)
{
  int x, y;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      px[y * w + x] = base + slope * x;
}

/* Row y of out equals expect_edge at x = 0 and w-1, expect_mid between. */
static void
assert_rows (const guint16 * out, int w, int h, int expect_edge,
    int expect_mid, const gchar * what)
{
  int x, y;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      check_int (out[y * w + x],
          x == 0 || x == w - 1 ? expect_edge : expect_mid,
          "%s at (%d,%d)", what, x, y);
}

GST_START_TEST (test_sobel_ramp)
{
  guint16 in[RAMP_W * RAMP_H], out[RAMP_W * RAMP_H];
  int x;

  SKIP_WITHOUT_BACKEND (__i__);

  /* p = 10 + 3x.  Sobel 3x3 x: column weights 1 2 1 (sum 4) times the
   * central difference p(x+1) - p(x-1) = 6: 24.  reflect101 mirrors x = -1
   * to x = 1, so the edge columns are 0; replicate gives 4 * 3 = 12. */
  fill_ramp (in, RAMP_W, RAMP_H, 3, 10);
  {
    const gchar *p[] = { "filter", "sobel-x", NULL };
    run_gray (__i__, "GRAY8", RAMP_W, RAMP_H, in, out, p);
    assert_rows (out, RAMP_W, RAMP_H, 0, 24, "sobel-x reflect101");
  }
  {
    const gchar *p[] = { "filter", "sobel-x", "border", "replicate", NULL };
    run_gray (__i__, "GRAY8", RAMP_W, RAMP_H, in, out, p);
    assert_rows (out, RAMP_W, RAMP_H, 12, 24, "sobel-x replicate");
  }
  {
    /* The ramp has no vertical change. */
    const gchar *p[] = { "filter", "sobel-y", NULL };
    run_gray (__i__, "GRAY8", RAMP_W, RAMP_H, in, out, p);
    assert_rows (out, RAMP_W, RAMP_H, 0, 0, "sobel-y");
  }
  {
    /* Magnitude sqrt(24^2 + 0^2). */
    const gchar *p[] = { "filter", "sobel", NULL };
    run_gray (__i__, "GRAY8", RAMP_W, RAMP_H, in, out, p);
    assert_rows (out, RAMP_W, RAMP_H, 0, 24, "sobel");
  }
  {
    /* 24 * 0.5 + 5. */
    const gchar *p[] = { "filter", "sobel-x", "scale", "0.5", "offset", "5",
      NULL
    };
    run_gray (__i__, "GRAY8", RAMP_W, RAMP_H, in, out, p);
    assert_rows (out, RAMP_W, RAMP_H, 5, 17, "sobel-x scale offset");
  }
  {
    /* Scharr x: column weights 3 10 3 (sum 16) times 6: 96. */
    const gchar *p[] = { "filter", "scharr", NULL };
    run_gray (__i__, "GRAY8", RAMP_W, RAMP_H, in, out, p);
    assert_rows (out, RAMP_W, RAMP_H, 0, 96, "scharr");
  }
  {
    /* Decreasing ramp: the absolute value. */
    fill_ramp (in, RAMP_W, RAMP_H, -3, 70);
    const gchar *p[] = { "filter", "sobel-x", NULL };
    run_gray (__i__, "GRAY8", RAMP_W, RAMP_H, in, out, p);
    assert_rows (out, RAMP_W, RAMP_H, 0, 24, "sobel-x of a falling ramp");
  }

  /* Slope 1, aperture 5: row taps -1 -2 0 2 1 on a unit ramp give
   * 2 + 2 + 2 + 2 = 8, column taps 1 4 6 4 1 sum to 16: 128.  At x = 1,
   * reflect101 reads x = -1 as x = 1: -1*1 - 2*0 + 2*2 + 1*3 = 6 -> 96. */
  fill_ramp (in, RAMP_W, RAMP_H, 1, 0);
  {
    const gchar *p[] = { "filter", "sobel-x", "kernel-size", "5", NULL };
    run_gray (__i__, "GRAY8", RAMP_W, RAMP_H, in, out, p);
    for (x = 0; x < RAMP_W; x++) {
      int e = (x == 0 || x == RAMP_W - 1) ? 0 :
          (x == 1 || x == RAMP_W - 2) ? 96 : 128;
      check_int (out[2 * RAMP_W + x], e, "x=%d", x);
    }
  }

  /* 16-bit: slope 1000 -> 8 * 1000. */
  fill_ramp (in, 10, 4, 1000, 5);
  {
    const gchar *p[] = { "filter", "sobel-x", NULL };
    run_gray (__i__, "GRAY16_LE", 10, 4, in, out, p);
    assert_rows (out, 10, 4, 0, 8000, "16-bit sobel-x");
  }
}

GST_END_TEST;

GST_START_TEST (test_laplacian_quadratic)
{
  guint16 in[16 * 4], out[16 * 4];
  int x, y;

  SKIP_WITHOUT_BACKEND (__i__);

  /* p = x^2: second difference 2.  Aperture 1 is 0 1 0; 1 -4 1; 0 1 0
   * (-> 2), aperture 3 is 2 0 2; 0 -8 0; 2 0 2 (-> 4 * 2 = 8).  At x = 0
   * reflect101 makes p symmetric (x = -1 reads x = 1), still 2 and 8. */
  for (y = 0; y < 4; y++)
    for (x = 0; x < 16; x++)
      in[y * 16 + x] = x * x;
  {
    const gchar *p[] = { "filter", "laplacian", "kernel-size", "1", NULL };
    run_gray (__i__, "GRAY8", 16, 4, in, out, p);
    for (y = 0; y < 4; y++)
      for (x = 0; x < 15; x++)
        check_int (out[y * 16 + x], 2, "(%d,%d)", x, y);
  }
  {
    const gchar *p[] = { "filter", "laplacian", "kernel-size", "3", NULL };
    run_gray (__i__, "GRAY8", 16, 4, in, out, p);
    for (y = 0; y < 4; y++)
      for (x = 0; x < 15; x++)
        check_int (out[y * 16 + x], 8, "(%d,%d)", x, y);
  }
}

GST_END_TEST;

GST_START_TEST (test_box_values)
{
  /* Means of 3x3 windows, reflect101: centre 455 / 9 = 50.6 -> 51; corner
   * (0,0) reads rows 1 0 1 and columns 1 0 1: 330 / 9 = 36.7 -> 37. */
  const guint16 in[9] = { 10, 20, 30, 40, 50, 60, 70, 80, 95 };
  const guint16 expect[9] = { 37, 40, 43, 47, 51, 54, 57, 61, 64 };
  guint16 out[9];
  const guint16 one[1] = { 90 };
  int i;

  SKIP_WITHOUT_BACKEND (__i__);

  {
    const gchar *p[] = { "filter", "box", NULL };
    run_gray (__i__, "GRAY8", 3, 3, in, out, p);
    for (i = 0; i < 9; i++)
      check_int (out[i], expect[i], "pixel %d", i);
  }
  /* More CPU threads than rows: bands of one row or none, thinner than the
   * kernel; the same values (the CUDA backend ignores the property). */
  {
    const gchar *p[] = { "filter", "box", "cpu-threads", "5", NULL };
    run_gray (__i__, "GRAY8", 3, 3, in, out, p);
    for (i = 0; i < 9; i++)
      check_int (out[i], expect[i], "pixel %d", i);
  }
  /* A 1x1 frame in a constant border: (90 + 8 * border) / 9. */
  {
    const gchar *p[] = { "filter", "box", "border", "constant", NULL };
    run_gray (__i__, "GRAY8", 1, 1, one, out, p);
    check_int (out[0], 10);
  }
  {
    const gchar *p[] = { "filter", "box", "border", "constant",
      "border-value", "180", NULL
    };
    run_gray (__i__, "GRAY8", 1, 1, one, out, p);
    check_int (out[0], 170);
  }
}

GST_END_TEST;

/* OpenCV's 3-tap sigma-1 Gaussian: exp(-x^2 / 2) normalised, in 1/256. */
static void
gaussian3_taps (int *taps)
{
  double e = exp (-0.5), sum = 1.0 + 2.0 * e;

  taps[0] = taps[2] = (int) floor (256.0 * e / sum + 0.5);
  taps[1] = (int) floor (256.0 / sum + 0.5);
}

GST_START_TEST (test_gaussian_values)
{
  int taps[3], engine_taps[3], x, y;
  guint16 in[25], out[25];

  SKIP_WITHOUT_BACKEND (__i__);

  gaussian3_taps (taps);
  /* 70.16, 115.68, 70.16 -> 70 116 70, which also sum to 256. */
  check_int (taps[0], 70);
  check_int (taps[1], 116);
  cf_gaussian_kernel_fixed (3, 1.0, 8, engine_taps);
  check_int (engine_taps[0], taps[0]);
  check_int (engine_taps[1], taps[1]);
  check_int (engine_taps[2], taps[2]);

  /* A single 255 pixel: the output is 255 * w_x * w_y / 65536, rounded,
   * symmetric around the centre: 52 centre, 32 beside it, 19 diagonal. */
  memset (in, 0, sizeof (in));
  in[2 * 5 + 2] = 255;
  {
    const gchar *p[] = { "filter", "gaussian", "kernel-size", "3",
      "sigma", "1", NULL
    };
    run_gray (__i__, "GRAY8", 5, 5, in, out, p);
  }
  for (y = 0; y < 5; y++)
    for (x = 0; x < 5; x++) {
      int dx = ABS (x - 2), dy = ABS (y - 2), e = 0;

      if (dx <= 1 && dy <= 1)
        e = (255 * taps[1 - dx] * taps[1 - dy] + 32768) >> 16;
      check_int (out[y * 5 + x], e, "(%d,%d)", x, y);
    }
  check_int (out[12], 52);
  check_int (out[11], 32);
  check_int (out[6], 19);

  /* Unsharp mask of 100 on 50: gaussian 50 + 50 * w_x * w_y / 65536 =
   * 60.27 / 56.20 / 53.74, so src + (src - blur) = 139.7 -> 140 at the
   * centre, 43.8 -> 44 beside it, 46.3 -> 46 diagonally, 50 elsewhere. */
  for (x = 0; x < 25; x++)
    in[x] = 50;
  in[12] = 100;
  {
    const gchar *p[] = { "filter", "sharpen", "kernel-size", "3",
      "amount", "1", NULL
    };
    run_gray (__i__, "GRAY8", 5, 5, in, out, p);
  }
  for (y = 0; y < 5; y++)
    for (x = 0; x < 5; x++) {
      int dx = ABS (x - 2), dy = ABS (y - 2), e = 50;

      if (dx == 0 && dy == 0)
        e = 140;
      else if (dx <= 1 && dy <= 1)
        e = dx + dy == 1 ? 44 : 46;
      check_int (out[y * 5 + x], e, "(%d,%d)", x, y);
    }
}

GST_END_TEST;

GST_START_TEST (test_gaussian_borders)
{
  /* Row 0 90 180, 3-tap sigma-1 Gaussian, height 1 (the vertical pass
   * sees the same row: factor 256/256).  At x = 0 the left neighbour is
   * x = 1 (reflect101: 90), x = 0 (replicate, reflect: 0) or x = 2
   * (wrap: 180): (70 * left + 70 * 90) / 256 = 49.2, 24.6, 73.8. */
  static const struct
  {
    const gchar *border;
    int expect;
  } cases[] = {
    {"reflect101", 49}, {"replicate", 25}, {"reflect", 25}, {"wrap", 74},
  };
  const guint16 in[3] = { 0, 90, 180 };
  guint16 out[3];
  guint i;

  SKIP_WITHOUT_BACKEND (__i__);

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    const gchar *p[] = { "filter", "gaussian", "kernel-size", "3",
      "border", cases[i].border, NULL
    };
    run_gray (__i__, "GRAY8", 3, 1, in, out, p);
    check_int (out[0], cases[i].expect, "border %s", cases[i].border);
    /* The middle sees 0 and 180 whatever the border: 90. */
    check_int (out[1], 90, "border %s", cases[i].border);
  }
}

GST_END_TEST;

GST_START_TEST (test_custom_values)
{
  guint16 in[7 * 4], out[7 * 4];
  GRand *rand;
  int x, y;

  SKIP_WITHOUT_BACKEND (__i__);

  rand = g_rand_new_with_seed (42);
  for (x = 0; x < 7 * 4; x++)
    in[x] = g_rand_int_range (rand, 0, 256);
  g_rand_free (rand);

  {
    /* Identity. */
    const gchar *p[] = { "filter", "custom", "kernel", "0 0 0; 0 1 0; 0 0 0",
      NULL
    };
    run_gray (__i__, "GRAY8", 7, 4, in, out, p);
    for (x = 0; x < 7 * 4; x++)
      check_int (out[x], in[x], "sample %d", x);
  }
  {
    /* Correlation, not convolution: the weight left of the centre reads
     * the left neighbour; x = 0 reads x = 1 (reflect101). */
    const gchar *p[] = { "filter", "custom", "kernel", "0,0,0; 1,0,0; 0,0,0",
      NULL
    };
    run_gray (__i__, "GRAY8", 7, 4, in, out, p);
    for (y = 0; y < 4; y++)
      for (x = 0; x < 7; x++)
        check_int (out[y * 7 + x], in[y * 7 + (x ? x - 1 : 1)],
            "(%d,%d)", x, y);
  }
  {
    /* Identity plus offset 7, saturated at 255. */
    const gchar *p[] = { "filter", "custom", "kernel", "0 0 0; 0 1 0; 0 0 0",
      "offset", "7", NULL
    };
    run_gray (__i__, "GRAY8", 7, 4, in, out, p);
    for (x = 0; x < 7 * 4; x++)
      check_int (out[x], MIN (in[x] + 7, 255), "sample %d", x);
  }
  /* 1x3 mean (divisor 0 = sum 3) and a difference (sum 0: divisor 1) on
   * the ramp 0 30 60 90 ... */
  fill_ramp (in, 7, 1, 30, 0);
  {
    const gchar *p[] = { "filter", "custom", "kernel", "1 1 1", NULL };
    run_gray (__i__, "GRAY8", 7, 1, in, out, p);
    for (x = 1; x < 6; x++)
      check_int (out[x], 30 * x);
    /* x = 0 reads 30 0 30: 20. */
    check_int (out[0], 20);
  }
  {
    const gchar *p[] = { "filter", "custom", "kernel", "-1 0 1", NULL };
    run_gray (__i__, "GRAY8", 7, 1, in, out, p);
    for (x = 1; x < 6; x++)
      check_int (out[x], 60);
    check_int (out[0], 0);
    /* Negative sums saturate to 0. */
  }
  {
    const gchar *p[] = { "filter", "custom", "kernel", "1 0 -1", NULL };
    run_gray (__i__, "GRAY8", 7, 1, in, out, p);
    for (x = 0; x < 7; x++)
      check_int (out[x], 0);
  }
  {
    /* An even 2x2 kernel anchored at (1,1) with divisor 2: the mean of the
     * pixel and its upper-left neighbour; frame one row: (x-1, 0). */
    const gchar *p[] = { "filter", "custom", "kernel", "1 0; 0 1",
      "divisor", "2", NULL
    };
    run_gray (__i__, "GRAY8", 7, 1, in, out, p);
    for (x = 1; x < 7; x++)
      check_int (out[x], 30 * x - 15, "x=%d", x);
  }
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* Properties */

GST_START_TEST (test_property_validation)
{
  GstElement *e = make_filter (BACKEND_CPU, NULL);
  GstBus *bus = gst_bus_new ();
  GParamSpec *pspec;
  GValue v = G_VALUE_INIT;
  gint ks;
  gchar *kernel;

  gst_element_set_bus (e, bus);

  /* Even kernel-size: kept at the old value, with a warning naming it. */
  g_object_set (e, "kernel-size", 5, NULL);
  fail_unless (pop_message (bus, GST_MESSAGE_WARNING) == NULL);
  g_object_set (e, "kernel-size", 4, NULL);
  g_object_get (e, "kernel-size", &ks, NULL);
  check_int (ks, 5);
  {
    GstMessage *m = pop_message (bus, GST_MESSAGE_WARNING);
    assert_message_mentions (m, "kernel-size", "odd", NULL);
    gst_message_unref (m);
  }

  /* sigma's range excludes 0. */
  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "sigma");
  fail_unless (G_PARAM_SPEC_DOUBLE (pspec)->minimum > 0.0);
  g_value_init (&v, G_TYPE_DOUBLE);
  g_value_set_double (&v, 0.0);
  fail_unless (g_param_value_validate (pspec, &v));
  g_value_unset (&v);
  fail_unless (pspec->flags & GST_PARAM_CONTROLLABLE);
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);

  /* Kernel strings: good, ragged, malformed. */
  g_object_set (e, "kernel", "1,2,3; 4,5,6", NULL);
  fail_unless (pop_message (bus, GST_MESSAGE_WARNING) == NULL);
  g_object_set (e, "kernel", "1 2; 3", NULL);
  {
    GstMessage *m = pop_message (bus, GST_MESSAGE_WARNING);
    assert_message_mentions (m, "kernel", NULL);
    gst_message_unref (m);
  }
  g_object_set (e, "kernel", "1 a 3", NULL);
  {
    GstMessage *m = pop_message (bus, GST_MESSAGE_WARNING);
    assert_message_mentions (m, "kernel", NULL);
    gst_message_unref (m);
  }
  g_object_get (e, "kernel", &kernel, NULL);
  fail_unless_equals_string (kernel, "1,2,3; 4,5,6");
  g_free (kernel);

  /* Sobel apertures stop at 7. */
  gst_util_set_object_arg (G_OBJECT (e), "filter", "sobel");
  g_object_set (e, "kernel-size", 3, NULL);
  fail_unless (pop_message (bus, GST_MESSAGE_WARNING) == NULL);
  g_object_set (e, "kernel-size", 9, NULL);
  g_object_get (e, "kernel-size", &ks, NULL);
  check_int (ks, 3);
  {
    GstMessage *m = pop_message (bus, GST_MESSAGE_WARNING);
    assert_message_mentions (m, "kernel-size", NULL);
    gst_message_unref (m);
  }

  /* custom before kernel is fine while properties are being set. */
  g_object_set (e, "kernel", NULL, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "filter", "custom");
  fail_unless (pop_message (bus, GST_MESSAGE_WARNING) == NULL);

  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_custom_without_kernel)
{
  const gchar *props[] = { "filter", "custom", NULL };
  GstBus *bus;
  GstHarness *h;
  GstVideoInfo info;
  GstMessage *m;

  SKIP_WITHOUT_BACKEND (__i__);

  h = make_harness (__i__, props, &bus);
  set_caps (h, &info, "GRAY8", 8, 8);
  fail_if (gst_harness_push (h, make_buffer (&info, constant_value,
              GINT_TO_POINTER (FALSE))) == GST_FLOW_OK);
  m = pop_message (bus, GST_MESSAGE_ERROR);
  assert_message_mentions (m, "kernel", "custom", NULL);
  gst_message_unref (m);
  gst_harness_teardown (h);
  /* Queued messages hold the element. */
  gst_bus_set_flushing (bus, TRUE);
  gst_object_unref (bus);
}

GST_END_TEST;

GST_START_TEST (test_backend_selection)
{
  GstElement *e;
  GstBus *bus;
  GstMessage *m;
  gboolean have_cuda = backend_usable (BACKEND_CUDA);

  /* backend=cuda without a device: an error saying what to do instead. */
  e = make_filter (BACKEND_CUDA, NULL);
  bus = gst_bus_new ();
  gst_element_set_bus (e, bus);
  if (!have_cuda) {
    check_int (gst_element_set_state (e, GST_STATE_PAUSED),
        GST_STATE_CHANGE_FAILURE);
    m = pop_message (bus, GST_MESSAGE_ERROR);
    assert_message_mentions (m, "backend=cpu", NULL);
    gst_message_unref (m);
  } else {
    fail_unless (gst_element_set_state (e, GST_STATE_PAUSED) !=
        GST_STATE_CHANGE_FAILURE);
  }
  gst_element_set_state (e, GST_STATE_NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (e);
  gst_object_unref (bus);

  /* backend=auto: the CPU, with one warning, when no device is usable. */
  e = gst_element_factory_make ("cudafilter", NULL);
  bus = gst_bus_new ();
  gst_element_set_bus (e, bus);
  fail_unless (gst_element_set_state (e, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  m = pop_message (bus, GST_MESSAGE_WARNING);
  if (have_cuda) {
    fail_unless (m == NULL);
  } else {
    assert_message_mentions (m, "CPU", NULL);
    gst_message_unref (m);
  }
  gst_element_set_state (e, GST_STATE_READY);
  fail_unless (gst_element_set_state (e, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless (pop_message (bus, GST_MESSAGE_WARNING) == NULL);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (e);
  gst_object_unref (bus);
}

GST_END_TEST;

GST_START_TEST (test_element_metadata)
{
  GstElementFactory *f = gst_element_factory_find ("cudafilter");
  GstElement *e;
  GParamSpec *pspec;
  GEnumClass *modes;
  guint i;

  fail_unless (f != NULL);
  fail_unless_equals_string (gst_element_factory_get_metadata (f,
          GST_ELEMENT_METADATA_KLASS), "Filter/Effect/Video/Hardware");
  e = gst_element_factory_create (f, NULL);
  gst_object_unref (f);
  fail_unless (e != NULL);

  /* The filter nicks are the public interface. */
  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "filter");
  fail_unless (pspec != NULL);
  fail_unless_equals_string (g_type_name (G_PARAM_SPEC_VALUE_TYPE (pspec)),
      "GstCudaFilterMode");
  modes = G_PARAM_SPEC_ENUM (pspec)->enum_class;
  for (i = 0; i < G_N_ELEMENTS (all_filters); i++)
    fail_unless (g_enum_get_value_by_nick (modes, all_filters[i]) != NULL,
        "%s", all_filters[i]);
  check_int (G_PARAM_SPEC_ENUM (pspec)->default_value, 0);
  fail_unless (g_type_from_name ("GstCudaFilterBorder") != 0);
  fail_unless (g_type_from_name ("GstCudaFilterBackend") != 0);
  fail_unless (g_type_from_name ("GstCudaFilterPlanes") != 0);
  gst_object_unref (e);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* Streaming behaviour */

GST_START_TEST (test_renegotiation)
{
  GstHarness *h;
  GstVideoInfo info;
  GstVideoFrame out;
  GstBuffer *res;
  GstCaps *caps;
  const gchar *props[] = { "filter", "box", NULL };

  SKIP_WITHOUT_BACKEND (__i__);

  h = make_harness (__i__, props, NULL);
  set_caps (h, &info, "RGBA", 64, 48);
  res = push_pull (h, &info, make_buffer (&info, constant_value,
          GINT_TO_POINTER (FALSE)), &out);
  check_constant_output (&out, "RGBA", "box", FALSE);
  gst_video_frame_unmap (&out);
  gst_buffer_unref (res);

  set_caps (h, &info, "GRAY8", 33, 17);
  res = push_pull (h, &info, make_buffer (&info, constant_value,
          GINT_TO_POINTER (FALSE)), &out);
  check_constant_output (&out, "GRAY8", "box", FALSE);
  gst_video_frame_unmap (&out);
  gst_buffer_unref (res);

  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (gst_video_info_from_caps (&info, caps));
  check_int (GST_VIDEO_INFO_FORMAT (&info), GST_VIDEO_FORMAT_GRAY8);
  check_int (GST_VIDEO_INFO_WIDTH (&info), 33);
  check_int (GST_VIDEO_INFO_HEIGHT (&info), 17);
  gst_caps_unref (caps);

  /* And to 16 bits: the spec is rebuilt for the new sample size. */
  set_caps (h, &info, "GRAY16_LE", 5, 3);
  res = push_pull (h, &info, make_buffer (&info, constant_value,
          GINT_TO_POINTER (16)), &out);
  check_constant_output (&out, "GRAY16_LE", "box", FALSE);
  gst_video_frame_unmap (&out);
  gst_buffer_unref (res);

  gst_harness_teardown (h);
}

GST_END_TEST;

static guint
unit_ramp (int comp, int x, int y, gpointer user_data)
{
  return x;
}

static void
assert_ramp_result (GstHarness * h, GstVideoInfo * info, int expect_mid,
    const gchar * what)
{
  GstVideoFrame out;
  GstBuffer *res;

  res = push_pull (h, info, make_buffer (info, unit_ramp, NULL), &out);
  /* Row 1, x = 3 is interior for every aperture used here. */
  check_int (comp_get (&out, 0, 3, 1), expect_mid, "%s", what);
  gst_video_frame_unmap (&out);
  gst_buffer_unref (res);
}

GST_START_TEST (test_change_while_playing)
{
  GstHarness *h;
  GstVideoInfo info;
  const gchar *props[] = { "filter", "box", NULL };

  SKIP_WITHOUT_BACKEND (__i__);

  h = make_harness (__i__, props, NULL);
  set_caps (h, &info, "GRAY8", 12, 4);
  /* The box mean of a linear ramp is the ramp. */
  assert_ramp_result (h, &info, 3, "box");
  gst_util_set_object_arg (G_OBJECT (h->element), "filter", "sobel-x");
  assert_ramp_result (h, &info, 8, "sobel-x after the change");
  g_object_set (h->element, "kernel-size", 5, NULL);
  assert_ramp_result (h, &info, 128, "sobel-x with kernel-size 5");
  g_object_set (h->element, "scale", 0.25, NULL);
  assert_ramp_result (h, &info, 32, "sobel-x with scale 0.25");
  g_object_set (h->element, "scale", 1.0, NULL);
  gst_util_set_object_arg (G_OBJECT (h->element), "filter", "custom");
  g_object_set (h->element, "kernel", "0 0 0; 0 2 0; 0 0 0", NULL);
  assert_ramp_result (h, &info, 3, "custom 2 / divisor 2");
  g_object_set (h->element, "divisor", 1.0, NULL);
  assert_ramp_result (h, &info, 6, "custom 2 / divisor 1");
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A controlled property takes its value at each buffer's stream time. */
GST_START_TEST (test_controlled_property)
{
  GstHarness *h;
  GstVideoInfo info;
  GstControlSource *cs;
  GstVideoFrame out;
  GstBuffer *buf, *res;
  const gchar *props[] = { "filter", "sobel-x", NULL };
  int i;

  SKIP_WITHOUT_BACKEND (__i__);

  h = make_harness (__i__, props, NULL);
  cs = gst_interpolation_control_source_new ();
  g_object_set (cs, "mode", GST_INTERPOLATION_MODE_NONE, NULL);
  fail_unless (gst_object_add_control_binding (GST_OBJECT (h->element),
          gst_direct_control_binding_new_absolute (GST_OBJECT (h->element),
              "offset", cs)));
  gst_timed_value_control_source_set (GST_TIMED_VALUE_CONTROL_SOURCE (cs),
      0, 0.0);
  gst_timed_value_control_source_set (GST_TIMED_VALUE_CONTROL_SOURCE (cs),
      GST_SECOND, 50.0);

  set_caps (h, &info, "GRAY8", 12, 4);
  for (i = 0; i < 3; i++) {
    buf = make_buffer (&info, unit_ramp, NULL);
    GST_BUFFER_PTS (buf) = i * GST_SECOND / 2;
    res = push_pull (h, &info, buf, &out);
    /* Unit ramp: sobel-x 8, plus the offset in force at the PTS. */
    check_int (comp_get (&out, 0, 3, 1), i < 2 ? 8 : 58, "buffer %d", i);
    gst_video_frame_unmap (&out);
    gst_buffer_unref (res);
  }
  gst_object_unref (cs);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_eos_and_timestamps)
{
  GstHarness *h;
  GstVideoInfo info;
  GstEvent *ev;
  gboolean got_eos = FALSE;
  int i;

  SKIP_WITHOUT_BACKEND (__i__);

  h = make_harness (__i__, NULL, NULL);
  set_caps (h, &info, "I420", 15, 7);
  for (i = 0; i < 10; i++) {
    GstBuffer *buf = make_buffer (&info, constant_value, NULL);

    GST_BUFFER_PTS (buf) = i * 33 * GST_MSECOND;
    GST_BUFFER_DURATION (buf) = 33 * GST_MSECOND;
    check_int (gst_harness_push (h, buf), GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));

  check_int (gst_harness_buffers_in_queue (h), 10);
  for (i = 0; i < 10; i++) {
    GstBuffer *buf = gst_harness_pull (h);

    fail_unless_equals_uint64 (GST_BUFFER_PTS (buf), i * 33 * GST_MSECOND);
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (buf), 33 * GST_MSECOND);
    check_int (gst_buffer_get_size (buf), info.size);
    gst_buffer_unref (buf);
  }
  while ((ev = gst_harness_try_pull_event (h)) != NULL) {
    if (GST_EVENT_TYPE (ev) == GST_EVENT_EOS)
      got_eos = TRUE;
    gst_event_unref (ev);
  }
  fail_unless (got_eos);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_flush)
{
  GstHarness *h;
  GstVideoInfo info;
  GstVideoFrame out;
  GstBuffer *res;
  GstSegment segment;

  SKIP_WITHOUT_BACKEND (__i__);

  h = make_harness (__i__, NULL, NULL);
  set_caps (h, &info, "RGBx", 9, 5);
  res = push_pull (h, &info, make_buffer (&info, constant_value, NULL), &out);
  gst_video_frame_unmap (&out);
  gst_buffer_unref (res);

  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));

  res = push_pull (h, &info, make_buffer (&info, constant_value, NULL), &out);
  check_constant_output (&out, "RGBx", "gaussian", FALSE);
  gst_video_frame_unmap (&out);
  gst_buffer_unref (res);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Upstream is offered GstVideoMeta, so it may send padded strides. */
GST_START_TEST (test_allocation_offers_video_meta)
{
  GstHarness *h;
  GstVideoInfo info;
  GstCaps *caps;
  GstQuery *query;

  SKIP_WITHOUT_BACKEND (__i__);

  h = make_harness (__i__, NULL, NULL);
  set_caps (h, &info, "RGBA", 32, 16);
  caps = gst_video_info_to_caps (&info);
  query = gst_query_new_allocation (caps, TRUE);
  fail_unless (gst_pad_peer_query (h->srcpad, query));
  fail_unless (gst_query_find_allocation_meta (query,
          GST_VIDEO_META_API_TYPE, NULL));
  gst_query_unref (query);
  gst_caps_unref (caps);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* A pipeline as gst-launch-1.0 would build it. */

static gboolean
ensure_plugin (const gchar * feature, const gchar * file)
{
  GstPluginFeature *f = gst_registry_find_feature (gst_registry_get (),
      feature, GST_TYPE_ELEMENT_FACTORY);
  gchar *path;
  GstPlugin *plugin;

  if (f != NULL) {
    gst_object_unref (f);
    return TRUE;
  }
  /* The tests run with only this build's plugins registered. */
  path = g_build_filename (SYSTEM_PLUGINS_DIR, file, NULL);
  plugin = gst_plugin_load_file (path, NULL);
  g_free (path);
  if (plugin == NULL)
    return FALSE;
  gst_object_unref (plugin);
  return TRUE;
}

GST_START_TEST (test_parse_launch)
{
  GstElement *pipeline;
  GstBus *bus;
  GstMessage *msg;
  gchar *desc;
  GError *err = NULL;

  SKIP_WITHOUT_BACKEND (__i__);

  if (!ensure_plugin ("videotestsrc", "libgstvideotestsrc.so") ||
      !ensure_plugin ("fakesink", "libgstcoreelements.so")) {
    g_print ("SKIP %s: videotestsrc or fakesink not installed in %s\n",
        __func__, SYSTEM_PLUGINS_DIR);
    return;
  }

  desc = g_strdup_printf ("videotestsrc num-buffers=3 ! cudafilter "
      "backend=%s filter=sobel ! fakesink", backend_nicks[__i__]);
  pipeline = gst_parse_launch (desc, &err);
  fail_unless (pipeline != NULL, "%s", err ? err->message : "");
  g_free (desc);

  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no EOS within 30 s");
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &err, NULL);
    fail ("pipeline error: %s", err->message);
  }
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */

static void
add_backend_tests (TCase * tc, int backend)
{
  tcase_add_loop_test (tc, test_caps_every_format, backend, backend + 1);
  tcase_add_loop_test (tc, test_formats_sizes_filters, backend, backend + 1);
  tcase_add_loop_test (tc, test_padded_strides, backend, backend + 1);
  tcase_add_loop_test (tc, test_alpha_and_padding_untouched, backend,
      backend + 1);
  tcase_add_loop_test (tc, test_yuv_planes, backend, backend + 1);
  tcase_add_loop_test (tc, test_same_samples_other_layout, backend,
      backend + 1);
  tcase_add_loop_test (tc, test_packed_422_odd_width, backend, backend + 1);
  tcase_add_loop_test (tc, test_padded_strides_new_formats, backend,
      backend + 1);
  tcase_add_loop_test (tc, test_ten_bit_values, backend, backend + 1);
  tcase_add_loop_test (tc, test_ten_bit_neutral_chroma, backend, backend + 1);
  tcase_add_loop_test (tc, test_sobel_ramp, backend, backend + 1);
  tcase_add_loop_test (tc, test_laplacian_quadratic, backend, backend + 1);
  tcase_add_loop_test (tc, test_box_values, backend, backend + 1);
  tcase_add_loop_test (tc, test_gaussian_values, backend, backend + 1);
  tcase_add_loop_test (tc, test_gaussian_borders, backend, backend + 1);
  tcase_add_loop_test (tc, test_custom_values, backend, backend + 1);
  tcase_add_loop_test (tc, test_custom_without_kernel, backend, backend + 1);
  tcase_add_loop_test (tc, test_renegotiation, backend, backend + 1);
  tcase_add_loop_test (tc, test_change_while_playing, backend, backend + 1);
  tcase_add_loop_test (tc, test_controlled_property, backend, backend + 1);
  tcase_add_loop_test (tc, test_eos_and_timestamps, backend, backend + 1);
  tcase_add_loop_test (tc, test_flush, backend, backend + 1);
  tcase_add_loop_test (tc, test_allocation_offers_video_meta, backend,
      backend + 1);
  tcase_add_loop_test (tc, test_parse_launch, backend, backend + 1);
}

static Suite *
cudafilter_suite (void)
{
  Suite *s = suite_create ("cudafilter");
  TCase *tc_props = tcase_create ("properties");
  TCase *tc_cpu = tcase_create ("cpu");
  TCase *tc_cuda = tcase_create ("cuda");

  suite_add_tcase (s, tc_props);
  tcase_add_test (tc_props, test_element_metadata);
  tcase_add_test (tc_props, test_property_validation);
  tcase_add_test (tc_props, test_backend_selection);

  suite_add_tcase (s, tc_cpu);
  add_backend_tests (tc_cpu, BACKEND_CPU);

  suite_add_tcase (s, tc_cuda);
  tcase_add_unchecked_fixture (tc_cuda, cuda_case_setup, NULL);
  add_backend_tests (tc_cuda, BACKEND_CUDA);

  return s;
}

GST_CHECK_MAIN (cudafilter);
