/* cudafilter element tests: what every test-element-*.c shares.
 *
 * Every test runs once per backend: the "cpu" test case with backend=cpu, the
 * "cuda" test case with backend=cuda (skipped, saying so, without a usable
 * CUDA device).  Expected values are worked out by hand (each check says
 * how) or follow from exact properties of the filters, never from the
 * element's own output. */
#ifndef ELEMENT_COMMON_H
#define ELEMENT_COMMON_H

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
  "sharpen", "custom", "median", "erode", "dilate", "open", "close",
  "gradient", "tophat", "blackhat", "bilateral"
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


#define SKIP_WITHOUT_BACKEND(be) G_STMT_START {                         \
  if (!backend_usable (be)) {                                           \
    g_print ("SKIP %s (backend=cuda): no usable CUDA device\n",         \
        __func__);                                                      \
    return;                                                             \
  }                                                                     \
} G_STMT_END

typedef guint (*PixelFunc) (int comp, int x, int y, gpointer user_data);

gboolean backend_usable (int backend);
gboolean backend_starts (const gchar * nick);
void cuda_case_setup (void);
GstElement *make_filter (int backend, const gchar * const *props);
GstHarness *make_harness (int backend, const gchar * const *props,
    GstBus ** bus);
void set_caps (GstHarness * h, GstVideoInfo * info, const gchar * format,
    int w, int h_);
gboolean format_known (const gchar * format);
void comp_bits (GstVideoFrame * f, int c, int *word, int *shift, int *depth);
int comp_offset_fix (GstVideoFrame * f, int c);
guint8 *comp_ptr (GstVideoFrame * f, int c, int x, int y);
guint32 word_get (const guint8 * p, int word);
guint comp_get (GstVideoFrame * f, int c, int x, int y);
void comp_set (GstVideoFrame * f, int c, int x, int y, guint v);
guint32 comp_word (GstVideoFrame * f, int c, int x, int y);
GstBuffer *make_buffer (const GstVideoInfo * info, PixelFunc func,
    gpointer user_data);
GstBuffer *make_padded_copy (const GstVideoInfo * info, GstBuffer * tight,
    int extra);
GstBuffer *push_pull (GstHarness * h, const GstVideoInfo * info,
    GstBuffer * buf, GstVideoFrame * out);
void run_gray (int backend, const gchar * format, int w, int h,
    const guint16 * in, guint16 * out, const gchar * const *props);
gboolean is_padded_format (const gchar * format, int *pad_offset);
GstMessage *pop_message (GstBus * bus, GstMessageType type);
void assert_message_mentions (GstMessage * msg, ...);

gboolean frames_equal (GstVideoFrame * a, GstVideoFrame * b, gchar ** where);
guint constant_value (int comp, int x, int y, gpointer user_data);
void check_constant_output (GstVideoFrame * f, const gchar * format,
    const gchar * filter, gboolean derivative);
/* Adds test t to tc for one backend (a loop test of one iteration). */
#define ADD_BACKEND_TEST(tc, t, backend) \
  tcase_add_loop_test (tc, t, backend, backend + 1)

/* A suite with the "cpu" and "cuda" test cases, each filled by
 * add_backend_tests (tc, backend). */
Suite *element_suite_new (const gchar * name,
    void (*add_backend_tests) (TCase * tc, int backend));

/* The main of a test-element-NAME.c whose suite is its backend tests. */
#define ELEMENT_TEST_MAIN(NAME)                                         \
static Suite *                                                          \
element_##NAME##_suite (void)                                           \
{                                                                       \
  return element_suite_new ("cudafilter-" #NAME, add_backend_tests);    \
}                                                                       \
GST_CHECK_MAIN (element_##NAME)

#endif /* ELEMENT_COMMON_H */
