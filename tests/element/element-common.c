/* cudafilter element tests: the shared helpers (element-common.h). */
#include <string.h>
#include "element-common.h"


gboolean
backend_usable (int backend)
{
  static int cuda_devices = -1;

  if (backend == BACKEND_CPU)
    return TRUE;
  if (cuda_devices < 0)
    cuda_devices = cf_cuda_device_count (NULL);
  return cuda_devices > 0;
}

/* Whether a cudafilter with backend `nick` ("cpu", "auto", "cuda") starts:
 * only backend=cuda needs a device; says SKIP when it has none. */
gboolean
backend_starts (const gchar * nick)
{
  GstElement *e;
  GstBus *bus;
  gboolean ok;

  if (strcmp (nick, "cuda") != 0)
    return TRUE;
  e = gst_element_factory_make ("cudafilter", NULL);
  bus = gst_bus_new ();
  gst_element_set_bus (e, bus);
  gst_util_set_object_arg (G_OBJECT (e), "backend", "cuda");
  ok = gst_element_set_state (e, GST_STATE_PAUSED) != GST_STATE_CHANGE_FAILURE;
  gst_element_set_state (e, GST_STATE_NULL);
  gst_bus_set_flushing (bus, TRUE);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
  if (!ok)
    g_print ("SKIP backend=cuda: no usable CUDA device\n");
  return ok;
}

void
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
GstElement *
make_filter (int backend, const gchar * const *props)
{
  GstElement *e = gst_element_factory_make ("cudafilter", NULL);

  fail_unless (e != NULL, "cudafilter not found: is GST_PLUGIN_PATH set?");
  gst_util_set_object_arg (G_OBJECT (e), "backend", backend_nicks[backend]);
  for (; props != NULL && props[0] != NULL; props += 2)
    gst_util_set_object_arg (G_OBJECT (e), props[0], props[1]);
  return e;
}

GstHarness *
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

void
set_caps (GstHarness * h, GstVideoInfo * info, const gchar * format, int w,
    int h_)
{
  gst_video_info_set_format (info, gst_video_format_from_string (format), w,
      h_);
  info->fps_n = 30;
  info->fps_d = 1;
  gst_harness_set_src_caps (h, gst_video_info_to_caps (info));
}

gboolean
format_known (const gchar * format)
{
  return gst_video_format_from_string (format) != GST_VIDEO_FORMAT_UNKNOWN;
}

/* Where component c's value sits, as the formats are documented: `depth`
 * bits from bit `shift` of a little-endian word of 1, 2 or 4 bytes.  The
 * format info gives the shift of MSB-aligned samples (P010: 6); it gives
 * none for the 10-bit fields of RGB10A2_LE (R in bits 0-9, G 10-19, B
 * 20-29, A 30-31) and BGR10A2_LE (B, G, R, A), so those are written out. */
void
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
int
comp_offset_fix (GstVideoFrame * f, int c)
{
  GstVideoFormat fmt = GST_VIDEO_FRAME_FORMAT (f);

  if ((fmt == GST_VIDEO_FORMAT_P010_10LE || fmt == GST_VIDEO_FORMAT_P012_LE
          || fmt == GST_VIDEO_FORMAT_P016_LE) && c == GST_VIDEO_COMP_V)
    return 2 - GST_VIDEO_FORMAT_INFO_POFFSET (f->info.finfo, c);
  return 0;
}

guint8 *
comp_ptr (GstVideoFrame * f, int c, int x, int y)
{
  return (guint8 *) GST_VIDEO_FRAME_COMP_DATA (f, c) +
      comp_offset_fix (f, c) + y * GST_VIDEO_FRAME_COMP_STRIDE (f, c) +
      x * GST_VIDEO_FRAME_COMP_PSTRIDE (f, c);
}

guint32
word_get (const guint8 * p, int word)
{
  return word == 1 ? p[0] : word == 2 ? GST_READ_UINT16_LE (p) :
      GST_READ_UINT32_LE (p);
}

guint
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
void
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
guint32
comp_word (GstVideoFrame * f, int c, int x, int y)
{
  int word, shift, depth;

  comp_bits (f, c, &word, &shift, &depth);
  return word_get (comp_ptr (f, c, x, y), word);
}


/* A tight buffer for info: every byte PAD_BYTE, then every component
 * sample set by func. */
GstBuffer *
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
GstBuffer *
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
GstBuffer *
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
void
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

gboolean
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

GstMessage *
pop_message (GstBus * bus, GstMessageType type)
{
  return gst_bus_pop_filtered (bus, type);
}

/* The message's text contains every one of the words (NULL-terminated). */
void
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


gboolean
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

/* user_data: the format's depth. */
guint
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

void
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

Suite *
element_suite_new (const gchar * name,
    void (*add_backend_tests) (TCase * tc, int backend))
{
  Suite *s = suite_create (name);
  TCase *tc_cpu = tcase_create ("cpu");
  TCase *tc_cuda = tcase_create ("cuda");

  suite_add_tcase (s, tc_cpu);
  add_backend_tests (tc_cpu, BACKEND_CPU);

  suite_add_tcase (s, tc_cuda);
  tcase_add_unchecked_fixture (tc_cuda, cuda_case_setup, NULL);
  add_backend_tests (tc_cuda, BACKEND_CUDA);
  return s;
}
