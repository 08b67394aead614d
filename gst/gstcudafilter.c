/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-cudafilter
 * @title: cudafilter
 *
 * Filters raw video with Gaussian and box blurs, Sobel and Scharr gradients,
 * a Laplacian, an unsharp mask or a user-supplied convolution kernel, on an
 * NVIDIA GPU or, with the same output bytes, on the CPU.  Results match
 * OpenCV's functions of the same name (8-bit output within 1 LSB).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! cudafilter filter=sobel ! videoconvert ! autovideosink
 * gst-launch-1.0 videotestsrc ! cudafilter filter=gaussian sigma=2.5 ! videoconvert ! autovideosink
 * gst-launch-1.0 videotestsrc ! cudafilter filter=custom kernel="0 -1 0; -1 5 -1; 0 -1 0" ! videoconvert ! autovideosink
 * gst-launch-1.0 videotestsrc ! cudafilter @preset=emboss ! videoconvert ! autovideosink
 * gst-launch-1.0 -m videotestsrc num-buffers=90 ! cudafilter post-stats=true ! fakesink
 * gst-launch-1.0 videotestsrc ! cudafilter filter=pixelate regions="100,60,120,90" ! videoconvert ! autovideosink
 * gst-launch-1.0 v4l2src ! videoconvert ! facedetect display=false ! cudafilter sigma=8 roi-types=face roi-padding=8 ! videoconvert ! autovideosink
 * ]|
 *
 * `regions`, or `roi-types` for the regions detectors attach to each buffer
 * (GstVideoRegionOfInterestMeta, analytics object detections), limit any
 * filter to rectangles; `region-mode=outside` filters everything else.  A
 * frame without a region in inside mode passes through untouched.
 *
 * Built-in presets (GstPreset: soft-blur, strong-blur, box-blur, edges,
 * edges-fine, outline, sharpen, strong-sharpen, emboss) load by name with
 * gst_preset_load_preset() or `@preset=` in a launch line.  frames-processed,
 * filter-time and last-frame-time tell whether filtering keeps up; with
 * post-stats=true the same arrives as "cudafilter-stats" element messages.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudafilter.h"
#include "gstcudafilter-stream.h"
#include "gstcudafilter-allocation.h"
#include "cudafilter-layout.h"
#include "cudafilter-presets.h"
#include "cudafilter-cuda-memory.h"

GST_DEBUG_CATEGORY (gst_cuda_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_filter_debug

/* Every format the filter takes (any GstVideoFormatInfo the layout rules of
 * cudafilter-layout.c read); the templates list those the running GStreamer
 * knows (GBR_16LE is newer than 1.22). */
static const gchar *const cuda_filter_formats[] = {
  "GRAY8", "GRAY16_LE", "RGB", "BGR", "RGBA", "BGRA", "ARGB", "ABGR", "RGBx",
  "BGRx", "xRGB", "xBGR", "I420", "YV12", "NV12", "NV21", "Y42B", "Y444",
  "GBR", "GBRA",
  "P010_10LE", "P012_LE", "P016_LE", "NV16", "NV61", "NV24",
  "I420_10LE", "I420_12LE", "I422_10LE", "I422_12LE", "Y444_10LE",
  "Y444_12LE", "Y444_16LE", "GBR_10LE", "GBR_12LE", "GBR_16LE",
  "YUY2", "UYVY", "YVYU", "VUYA", "AYUV",
  "RGB10A2_LE", "BGR10A2_LE", "RGBA64_LE", "BGRA64_LE"
};

#define CUSTOM_KERNEL_EXAMPLE "kernel=\"0 -1 0; -1 5 -1; 0 -1 0\""
#define NO_KERNEL_TEXT "filter=custom needs the 'kernel' property: a matrix " \
  "with rows separated by ';' and values by spaces or commas, e.g. " \
  CUSTOM_KERNEL_EXAMPLE "."

enum
{
  PROP_0,
  PROP_FILTER,
  PROP_SIGMA,
  PROP_SIGMA_Y,
  PROP_KERNEL_SIZE,
  PROP_KERNEL,
  PROP_DIVISOR,
  PROP_OFFSET,
  PROP_SCALE,
  PROP_AMOUNT,
  PROP_BORDER,
  PROP_BORDER_VALUE,
  PROP_BACKEND,
  PROP_CUDA_DEVICE_ID,
  PROP_PLANES,
  PROP_FRAMES_IN_FLIGHT,
  PROP_CPU_THREADS,
  PROP_SHAPE,
  PROP_ITERATIONS,
  PROP_SIGMA_COLOR,
  PROP_BLOCK_SIZE,
  PROP_STATS_FIRST              /* cudafilter-stats.c installs from here */
};

#define DEFAULT_BACKEND GST_CUDA_FILTER_BACKEND_AUTO
#define DEFAULT_DEVICE_ID -1
#define DEFAULT_PLANES GST_CUDA_FILTER_PLANES_ALL
#define DEFAULT_FRAMES_IN_FLIGHT 0
#define DEFAULT_CPU_THREADS 0
/* cudafilter-regions.c installs from here (after the statistics). */
#define PROP_REGIONS_FIRST (PROP_STATS_FIRST + 32)

#define FILTER_PARAM_FLAGS (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
    GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING)

/* Both pads: CUDA memory first (preferred where both are possible) for the
 * formats the running GStreamer's CUDA allocator holds, then system memory
 * for every format. */
static GstCaps *
gst_cuda_filter_template_caps (void)
{
  GValue list = G_VALUE_INIT;
  GstCaps *sys, *cuda, *caps;
  guint i;

  g_value_init (&list, GST_TYPE_LIST);
  for (i = 0; i < G_N_ELEMENTS (cuda_filter_formats); i++) {
    GValue v = G_VALUE_INIT;

    if (gst_video_format_from_string (cuda_filter_formats[i]) ==
        GST_VIDEO_FORMAT_UNKNOWN)
      continue;
    g_value_init (&v, G_TYPE_STRING);
    g_value_set_static_string (&v, cuda_filter_formats[i]);
    gst_value_list_append_and_take_value (&list, &v);
  }
  sys = gst_caps_from_string (GST_VIDEO_CAPS_MAKE ("GRAY8"));
  gst_caps_set_value (sys, "format", &list);
  cuda = cudafilter_cuda_memory_caps (&list);
  g_value_unset (&list);
  caps = gst_caps_merge (cuda, sys);
  /* Progressive frames only: a 2D filter across the two fields of an
   * interlaced frame mixes pictures taken at different times (deinterlace
   * first). */
  gst_caps_set_simple (caps, "interlace-mode", G_TYPE_STRING, "progressive",
      NULL);
  return caps;
}

#define gst_cuda_filter_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstCudaFilter, gst_cuda_filter,
    GST_TYPE_VIDEO_FILTER, G_IMPLEMENT_INTERFACE (GST_TYPE_PRESET,
        gst_cuda_filter_presets_init_interface));
GST_ELEMENT_REGISTER_DEFINE (cudafilter, "cudafilter", GST_RANK_NONE,
    GST_TYPE_CUDA_FILTER);

static void gst_cuda_filter_finalize (GObject * object);
static void gst_cuda_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static gboolean gst_cuda_filter_start (GstBaseTransform * trans);
static gboolean gst_cuda_filter_stop (GstBaseTransform * trans);
static void gst_cuda_filter_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer);
static gboolean gst_cuda_filter_set_info (GstVideoFilter * vfilter,
    GstCaps * incaps, GstVideoInfo * in_info, GstCaps * outcaps,
    GstVideoInfo * out_info);

/* Texts made from the engine's filter table, interned: param specs keep
 * their blurbs for good. */
static const gchar *G_GNUC_PRINTF (1, 2)
intern_printf (const gchar * format, ...)
{
  va_list args;
  gchar *s;
  const gchar *text;

  va_start (args, format);
  s = g_strdup_vprintf (format, args);
  va_end (args);
  text = g_intern_string (s);
  g_free (s);
  return text;
}

/* A property's blurb ending with the filters that read it. */
static const gchar *
used_by (const gchar * text, CfFilterReads reads)
{
  return intern_printf ("%s; used by %s", text,
      gst_cuda_filter_list_filters (reads, FALSE, " and "));
}

static void
gst_cuda_filter_class_init (GstCudaFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCaps *caps;
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstVideoFilterClass *vfilter_class = GST_VIDEO_FILTER_CLASS (klass);
  CfParams defaults;

  cf_params_init (&defaults);

  gobject_class->finalize = gst_cuda_filter_finalize;
  gobject_class->set_property = gst_cuda_filter_set_property;
  gobject_class->get_property = gst_cuda_filter_get_property;

  g_object_class_install_property (gobject_class, PROP_FILTER,
      g_param_spec_enum ("filter", "Filter",
          intern_printf ("Which filter runs: %s",
              gst_cuda_filter_list_filters (0, TRUE, " or ")),
          GST_TYPE_CUDA_FILTER_MODE, defaults.filter, FILTER_PARAM_FLAGS));

  g_object_class_install_property (gobject_class, PROP_SIGMA,
      g_param_spec_double ("sigma", "Sigma",
          used_by ("Gaussian standard deviation in pixels (horizontal; also "
              "vertical when sigma-y is 0), > 0; the derived kernel (6 sigma "
              "+ 1 taps for 8-bit samples, 8 sigma + 1 for deeper ones) must "
              "stay within " G_STRINGIFY (CF_MAX_TAPS) " taps at every depth "
              "(sigma up to 31) unless kernel-size is set; for bilateral the spatial "
              "standard deviation", CF_READS_SIGMA),
          0.01, 1000.0, defaults.sigma, FILTER_PARAM_FLAGS));

  g_object_class_install_property (gobject_class, PROP_SIGMA_Y,
      g_param_spec_double ("sigma-y", "Sigma Y",
          used_by ("Vertical Gaussian standard deviation in pixels, 0 = same "
              "as sigma", CF_READS_SIGMA_Y),
          0.0, 1000.0, defaults.sigma_y, FILTER_PARAM_FLAGS));

  g_object_class_install_property (gobject_class, PROP_KERNEL_SIZE,
      g_param_spec_int ("kernel-size", "Kernel size",
          "Kernel width and height in pixels: odd, up to "
          G_STRINGIFY (CF_MAX_TAPS) ", or 0 to derive it (from sigma as "
          "OpenCV for gaussian, sharpen and bilateral, 1 for laplacian, 3 "
          "otherwise); the aperture of sobel, sobel-x, sobel-y and "
          "laplacian; the window of median (odd, from 3); the structuring "
          "element's size for morphology (any size from 1, with shape); the "
          "diameter of bilateral (any size); not used by scharr and custom",
          0, CF_MAX_TAPS, defaults.kernel_size, FILTER_PARAM_FLAGS));

  g_object_class_install_property (gobject_class, PROP_KERNEL,
      g_param_spec_string ("kernel", "Kernel",
          used_by ("Matrix for filter=custom: rows separated by ';', values "
              "by spaces or commas, every row the same length, e.g. \"0 -1 "
              "0; -1 5 -1; 0 -1 0\", or NumPy's nested lists, e.g. "
              "\"[[0,-1,0],[-1,5,-1],[0,-1,0]]\", up to "
              G_STRINGIFY (CF_MAX_TAPS) "x"
              G_STRINGIFY (CF_MAX_TAPS) "; applied as a correlation (not "
              "flipped) anchored at the centre. For morphology, when set, "
              "the structuring element instead of shape: nonzero = in",
              CF_READS_KERNEL), NULL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  g_object_class_install_property (gobject_class, PROP_DIVISOR,
      g_param_spec_double ("divisor", "Divisor",
          used_by ("Divides the kernel of filter=custom (any non-zero "
              "number); 0 = the sum of the kernel, or 1 when that sum is 0",
              CF_READS_KERNEL),
          -G_MAXDOUBLE, G_MAXDOUBLE, defaults.divisor, FILTER_PARAM_FLAGS));

  g_object_class_install_property (gobject_class, PROP_OFFSET,
      g_param_spec_double ("offset", "Offset",
          used_by ("Added to the result, in the format's sample values "
              "(0..255 for 8-bit, 0..1023 for 10-bit, 0..65535 for 16-bit)",
              CF_READS_SCALE_OFFSET),
          -G_MAXDOUBLE, G_MAXDOUBLE, defaults.offset, FILTER_PARAM_FLAGS));

  g_object_class_install_property (gobject_class, PROP_SCALE,
      g_param_spec_double ("scale", "Scale",
          used_by ("Multiplies the result before offset is added (a factor, "
              "may be negative)", CF_READS_SCALE_OFFSET),
          -G_MAXDOUBLE, G_MAXDOUBLE, defaults.scale, FILTER_PARAM_FLAGS));

  g_object_class_install_property (gobject_class, PROP_AMOUNT,
      g_param_spec_double ("amount", "Amount",
          used_by ("Sharpening strength: out = src + amount * (src - "
              "gaussian(src)); 0 leaves the picture unchanged",
              CF_READS_AMOUNT),
          0.0, 100.0, defaults.amount, FILTER_PARAM_FLAGS));

  g_object_class_install_property (gobject_class, PROP_BORDER,
      g_param_spec_enum ("border", "Border",
          "How pixels outside the frame are taken, with OpenCV's names "
          "(reflect101 is OpenCV's default); used by every filter",
          GST_TYPE_CUDA_FILTER_BORDER, defaults.border, FILTER_PARAM_FLAGS));

  g_object_class_install_property (gobject_class, PROP_BORDER_VALUE,
      g_param_spec_uint ("border-value", "Border value",
          "Sample value outside the frame when border=constant, in the "
          "format's units (0..255 for 8-bit formats, 0..1023 for 10-bit, "
          "0..65535 for 16-bit; larger values are clamped with a warning); "
          "used by every filter",
          0, 65535, defaults.border_value, FILTER_PARAM_FLAGS));

  g_object_class_install_property (gobject_class, PROP_BACKEND,
      g_param_spec_enum ("backend", "Backend",
          "Where frames are filtered: auto (CUDA when a device is usable, "
          "else the CPU with a warning), cuda or cpu; both give the same "
          "output; changeable in READY and below",
          GST_TYPE_CUDA_FILTER_BACKEND, DEFAULT_BACKEND,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  g_object_class_install_property (gobject_class, PROP_CUDA_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device id",
          "CUDA device to use, -1 = the first usable one; changeable in "
          "READY and below",
          -1, G_MAXINT, DEFAULT_DEVICE_ID,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  g_object_class_install_property (gobject_class, PROP_PLANES,
      g_param_spec_enum ("planes", "Planes",
          "Which components are filtered: all, or luma only (YUV chroma "
          "passes through untouched; RGB and GRAY are always filtered whole). "
          "With all, derivative filters give YUV a neutral (grey) chroma",
          GST_TYPE_CUDA_FILTER_PLANES, DEFAULT_PLANES,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  g_object_class_install_property (gobject_class, PROP_FRAMES_IN_FLIGHT,
      g_param_spec_uint ("frames-in-flight", "Frames in flight",
          "How many frames may be on the GPU at once, so that upload, filter "
          "and download of consecutive frames overlap. 1 = each frame leaves "
          "before the next enters (lowest latency, for live sources); more "
          "adds (n - 1) frames of latency and throughput. 0 = auto: 1 when "
          "upstream is live, else 4. Changeable in READY and below",
          0, CF_BACKEND_MAX_IN_FLIGHT, DEFAULT_FRAMES_IN_FLIGHT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  g_object_class_install_property (gobject_class, PROP_CPU_THREADS,
      g_param_spec_uint ("cpu-threads", "CPU threads",
          "Threads the CPU backend filters each frame on, the rows split "
          "between them: 0 = one per processor core; more than the cores "
          "is allowed (they then take turns). Changeable in READY and below",
          0, CF_CPU_MAX_THREADS, DEFAULT_CPU_THREADS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  g_object_class_install_property (gobject_class, PROP_SHAPE,
      g_param_spec_enum ("shape", "Shape",
          used_by ("Structuring element of kernel-size x kernel-size, as "
              "OpenCV's getStructuringElement makes it; the kernel "
              "property, when set, gives the element instead (nonzero = "
              "in, anchored at the centre)", CF_READS_SHAPE),
          GST_TYPE_CUDA_FILTER_SHAPE, defaults.shape, FILTER_PARAM_FLAGS));

  g_object_class_install_property (gobject_class, PROP_ITERATIONS,
      g_param_spec_int ("iterations", "Iterations",
          used_by ("How many times each erosion and dilation repeats, as "
              "OpenCV's iterations", CF_READS_ITERATIONS),
          1, CF_MAX_ITERATIONS, defaults.iterations, FILTER_PARAM_FLAGS));

  g_object_class_install_property (gobject_class, PROP_SIGMA_COLOR,
      g_param_spec_double ("sigma-color", "Sigma colour",
          used_by ("Range standard deviation in the format's sample values: "
              "samples this far apart in colour weigh exp(-1/2) as much; "
              "> 0, or -1 for 30 at 8 bits scaled to the depth (120 at 10 "
              "bits)", CF_READS_SIGMA_COLOR),
          -G_MAXDOUBLE, G_MAXDOUBLE, defaults.sigma_color,
          FILTER_PARAM_FLAGS));

  g_object_class_install_property (gobject_class, PROP_BLOCK_SIZE,
      g_param_spec_uint ("block-size", "Block size",
          used_by ("Side of pixelate's square blocks in pixels (chroma: "
              "over its subsampling), aligned to each region's top-left "
              "corner, or the frame's", CF_READS_BLOCK_SIZE),
          1, CF_PIXELATE_MAX_BLOCK, defaults.block_size, FILTER_PARAM_FLAGS));

  gst_cuda_filter_stats_install_properties (gobject_class, PROP_STATS_FIRST);
  gst_cuda_filter_regions_install_properties (gobject_class,
      PROP_REGIONS_FIRST);

  gst_element_class_set_static_metadata (element_class,
      "CUDA video filter", "Filter/Effect/Video/Hardware",
      "Filters on raw video with CUDA: Gaussian and box blur, "
      "Sobel/Scharr gradients, Laplacian, unsharp mask, custom kernels, "
      "median, morphology and bilateral, with a CPU fallback giving the "
      "same output", "The cudafilter authors");

  GST_DEBUG_CATEGORY_INIT (gst_cuda_filter_debug, "cudafilter", 0,
      "CUDA convolution filter");
  caps = gst_cuda_filter_template_caps ();
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);

  /* Every vfunc is installed here, each from the file that owns its
   * state, and each chains up to GstVideoFilter's by itself. */
  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_filter_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_filter_stop);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_before_transform);
  vfilter_class->set_info = GST_DEBUG_FUNCPTR (gst_cuda_filter_set_info);
  trans_class->transform_meta =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_regions_transform_meta);

  /* Frames in flight and latency: gstcudafilter-stream.c. */
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cuda_filter_stream_set_caps);
  trans_class->submit_input_buffer =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_stream_submit_input_buffer);
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_stream_generate_output);
  trans_class->sink_event =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_stream_sink_event);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cuda_filter_stream_query);
  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_stream_change_state);
  vfilter_class->transform_frame =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_stream_transform_frame);

  /* Pools: gstcudafilter-allocation.c. */
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_decide_allocation);

  /* set_context, transform_caps and fixate_caps for memory:CUDAMemory,
   * when built with it: cudafilter-cuda-memory.c. */
  cudafilter_cuda_init_class (trans_class);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FILTER_MODE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FILTER_BORDER, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FILTER_BACKEND, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FILTER_PLANES, 0);
}

/* The application's qos setting (GstBaseTransform's property) stands; the
 * element only chooses it while the application has not. */
static void
qos_notified (GObject * object, GParamSpec * pspec, gpointer unused)
{
  GstCudaFilter *self = GST_CUDA_FILTER (object);

  GST_OBJECT_LOCK (self);
  self->settings.qos_set = TRUE;
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_filter_init (GstCudaFilter * self)
{
  cf_params_init (&self->settings.params);
  self->settings.kernel = NULL;
  self->settings.params.kernel = NULL;
  self->settings.planes = DEFAULT_PLANES;
  self->settings.backend_choice = DEFAULT_BACKEND;
  self->settings.device_id = DEFAULT_DEVICE_ID;
  self->settings.dirty = TRUE;
  g_queue_init (&self->settings.refusals);
  gst_cuda_filter_stream_init (self);
  cf_params_init (&self->applied);
  self->applied.kernel = NULL;
  gst_cuda_filter_stats_init (self);
  gst_cuda_filter_regions_init (self);
  g_signal_connect (self, "notify::qos", G_CALLBACK (qos_notified), NULL);
}

/* Forgets the last spec's parameters: the next start is a first start. */
static void
clear_applied (GstCudaFilter * self)
{
  g_free ((gchar *) self->applied.kernel);
  cf_params_init (&self->applied);
  self->applied.kernel = NULL;
  self->have_applied = FALSE;
  self->incomplete_warned = FALSE;
}

static void
gst_cuda_filter_finalize (GObject * object)
{
  GstCudaFilter *self = GST_CUDA_FILTER (object);

  g_free (self->settings.kernel);
  g_free (self->logged_plan);
  g_queue_clear_full (&self->settings.refusals, g_free);
  gst_cuda_filter_stream_finalize (self);
  clear_applied (self);
  g_clear_pointer (&self->spec, cf_spec_free);
  g_clear_pointer (&self->backend, cf_backend_free);
  cudafilter_cuda_close (self);
  gst_cuda_filter_regions_finalize (self);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* What a user may write for a property, for the warning on a bad value. */
static const gchar *
accepted_values (guint prop_id)
{
  if (gst_cuda_filter_regions_accepted (prop_id) != NULL)
    return gst_cuda_filter_regions_accepted (prop_id);
  switch (prop_id) {
    case PROP_FILTER:
      return intern_printf ("%s, with a kernel-size that filter supports",
          gst_cuda_filter_list_filters (0, FALSE, " or "));
    case PROP_SIGMA:
    case PROP_SIGMA_Y:
      return "a value > 0 (sigma-y also 0) whose derived kernel size stays "
          "within " G_STRINGIFY (CF_MAX_TAPS) " taps at every depth (up to "
          "31), or set kernel-size";
    case PROP_KERNEL_SIZE:
      return "0 (derived) or an odd number from 1 to "
          G_STRINGIFY (CF_MAX_TAPS) " that the filter supports";
    case PROP_KERNEL:
      return "rows separated by ';' with values separated by spaces or "
          "commas, every row the same length, e.g. \"0 -1 0; -1 5 -1; "
          "0 -1 0\", or nested lists, e.g. \"[[0,-1,0],[-1,5,-1],[0,-1,0]]\"";
    case PROP_DIVISOR:
      return "a non-zero number, or 0 for the sum of the kernel";
    case PROP_ITERATIONS:
      return "a number from 1 to " G_STRINGIFY (CF_MAX_ITERATIONS);
    case PROP_SIGMA_COLOR:
      return "a value > 0, or -1 for the default";
    default:
      return "a value in the property's documented range";
  }
}

/* Whether params are usable; filter=custom without a kernel is accepted
 * here (properties are set one by one, e.g. filter before kernel) and
 * reported when the stream starts. */
static gboolean
validate_params (const CfParams * params, guint prop_id, GError ** error)
{
  CfParams check = *params;

  if (prop_id == PROP_KERNEL) {
    /* Cleared: custom waits for its next kernel; morphology falls back to
     * shape and kernel-size, which must then fit (kernel-size 104 was
     * harmless beside a structuring element, not without one). */
    if (check.kernel == NULL && check.filter == CF_FILTER_CUSTOM)
      return TRUE;
    /* Checked as the filter that reads it: a structuring element, or
     * custom weights for any other. */
    if (check.kernel != NULL
        && !(cf_filters[check.filter].reads & CF_READS_KERNEL))
      check.filter = CF_FILTER_CUSTOM;
  } else if (check.filter == CF_FILTER_CUSTOM && check.kernel == NULL) {
    if (prop_id != PROP_KERNEL_SIZE)
      return TRUE;
    check.filter = CF_FILTER_GAUSSIAN;
  }

  if (!cf_params_check (&check, error))
    return FALSE;

  /* custom ignores kernel-size: still refuse one no other filter takes. */
  if (prop_id == PROP_KERNEL_SIZE && check.filter == CF_FILTER_CUSTOM) {
    check.filter = CF_FILTER_GAUSSIAN;
    if (!cf_params_check (&check, error))
      return FALSE;
  }
  return TRUE;
}

void
gst_cuda_filter_warn_invalid (GstCudaFilter * self, GParamSpec * pspec,
    const GValue * value, const GError * err)
{
  GValue old = G_VALUE_INIT;
  gchar *old_str, *new_str, *text;

  g_value_init (&old, G_PARAM_SPEC_VALUE_TYPE (pspec));
  g_object_get_property (G_OBJECT (self), pspec->name, &old);
  old_str = gst_value_serialize (&old);
  new_str = gst_value_serialize (value);

  GST_WARNING_OBJECT (self, "Rejected %s=%s: %s", pspec->name,
      GST_STR_NULL (new_str), err->message);
  text = g_strdup_printf ("Invalid value %s for property '%s': %s. "
      "Accepted: %s. Keeping %s.", GST_STR_NULL (new_str), pspec->name,
      err->message, accepted_values (pspec->param_id), GST_STR_NULL (old_str));

  /* gst-launch-1.0 sets properties before the element has a bus, where a
   * warning would be lost: the element posts those when it starts. */
  GST_OBJECT_LOCK (self);
  if (GST_ELEMENT_BUS (self) == NULL)
    g_queue_push_tail (&self->settings.refusals, g_steal_pointer (&text));
  GST_OBJECT_UNLOCK (self);
  if (text != NULL)
    GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS, ("%s", text), (NULL));
  g_free (text);

  g_free (old_str);
  g_free (new_str);
  g_value_unset (&old);
}

static void
gst_cuda_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaFilter *self = GST_CUDA_FILTER (object);
  CfParams params;
  gchar *kernel = NULL;
  GError *err = NULL;

  if (gst_cuda_filter_stats_set_property (self, prop_id, value)
      || gst_cuda_filter_regions_set_property (self, prop_id, value, pspec))
    return;

  GST_OBJECT_LOCK (self);
  params = self->settings.params;

  switch (prop_id) {
    case PROP_FILTER:
      params.filter = (CfFilter) g_value_get_enum (value);
      break;
    case PROP_SIGMA:
      params.sigma = g_value_get_double (value);
      break;
    case PROP_SIGMA_Y:
      params.sigma_y = g_value_get_double (value);
      break;
    case PROP_KERNEL_SIZE:
      params.kernel_size = g_value_get_int (value);
      break;
    case PROP_KERNEL:
      kernel = g_value_dup_string (value);
      if (kernel != NULL && g_strstrip (kernel)[0] == '\0')
        g_clear_pointer (&kernel, g_free);
      params.kernel = kernel;
      break;
    case PROP_DIVISOR:
      params.divisor = g_value_get_double (value);
      break;
    case PROP_OFFSET:
      params.offset = g_value_get_double (value);
      break;
    case PROP_SCALE:
      params.scale = g_value_get_double (value);
      break;
    case PROP_AMOUNT:
      params.amount = g_value_get_double (value);
      break;
    case PROP_BORDER:
      params.border = (CfBorder) g_value_get_enum (value);
      break;
    case PROP_BORDER_VALUE:
      params.border_value = (int) g_value_get_uint (value);
      break;
    case PROP_SHAPE:
      params.shape = (CfShape) g_value_get_enum (value);
      break;
    case PROP_ITERATIONS:
      params.iterations = g_value_get_int (value);
      break;
    case PROP_SIGMA_COLOR:
      params.sigma_color = g_value_get_double (value);
      break;
    case PROP_BLOCK_SIZE:
      params.block_size = (int) g_value_get_uint (value);
      break;
    case PROP_BACKEND:
      /* Read by start(): the backend never changes mid-stream. */
      self->settings.backend_choice = g_value_get_enum (value);
      GST_OBJECT_UNLOCK (self);
      return;
    case PROP_CUDA_DEVICE_ID:
      self->settings.device_id = g_value_get_int (value);
      GST_OBJECT_UNLOCK (self);
      return;
    case PROP_PLANES:
      self->settings.planes = g_value_get_enum (value);
      self->settings.dirty = TRUE;
      GST_OBJECT_UNLOCK (self);
      return;
    case PROP_FRAMES_IN_FLIGHT:
      self->settings.frames_in_flight = g_value_get_uint (value);
      GST_OBJECT_UNLOCK (self);
      return;
    case PROP_CPU_THREADS:
      /* Read by start(), like the backend. */
      self->settings.cpu_threads = g_value_get_uint (value);
      GST_OBJECT_UNLOCK (self);
      return;
    default:
      GST_OBJECT_UNLOCK (self);
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
  }

  if (validate_params (&params, prop_id, &err)) {
    if (prop_id == PROP_KERNEL) {
      g_free (self->settings.kernel);
      self->settings.kernel = g_steal_pointer (&kernel);
    }
    self->settings.params = params;
    self->settings.params.kernel = self->settings.kernel;
    self->settings.dirty = TRUE;
  }
  GST_OBJECT_UNLOCK (self);

  g_free (kernel);
  if (err != NULL) {
    gst_cuda_filter_warn_invalid (self, pspec, value, err);
    g_error_free (err);
  }
}

static void
gst_cuda_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaFilter *self = GST_CUDA_FILTER (object);

  if (gst_cuda_filter_stats_get_property (self, prop_id, value)
      || gst_cuda_filter_regions_get_property (self, prop_id, value))
    return;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_FILTER:
      g_value_set_enum (value, self->settings.params.filter);
      break;
    case PROP_SIGMA:
      g_value_set_double (value, self->settings.params.sigma);
      break;
    case PROP_SIGMA_Y:
      g_value_set_double (value, self->settings.params.sigma_y);
      break;
    case PROP_KERNEL_SIZE:
      g_value_set_int (value, self->settings.params.kernel_size);
      break;
    case PROP_KERNEL:
      g_value_set_string (value, self->settings.kernel);
      break;
    case PROP_DIVISOR:
      g_value_set_double (value, self->settings.params.divisor);
      break;
    case PROP_OFFSET:
      g_value_set_double (value, self->settings.params.offset);
      break;
    case PROP_SCALE:
      g_value_set_double (value, self->settings.params.scale);
      break;
    case PROP_AMOUNT:
      g_value_set_double (value, self->settings.params.amount);
      break;
    case PROP_BORDER:
      g_value_set_enum (value, self->settings.params.border);
      break;
    case PROP_BORDER_VALUE:
      g_value_set_uint (value, (guint) self->settings.params.border_value);
      break;
    case PROP_SHAPE:
      g_value_set_enum (value, self->settings.params.shape);
      break;
    case PROP_ITERATIONS:
      g_value_set_int (value, self->settings.params.iterations);
      break;
    case PROP_SIGMA_COLOR:
      g_value_set_double (value, self->settings.params.sigma_color);
      break;
    case PROP_BLOCK_SIZE:
      g_value_set_uint (value, (guint) self->settings.params.block_size);
      break;
    case PROP_BACKEND:
      g_value_set_enum (value, self->settings.backend_choice);
      break;
    case PROP_CUDA_DEVICE_ID:
      g_value_set_int (value, self->settings.device_id);
      break;
    case PROP_PLANES:
      g_value_set_enum (value, self->settings.planes);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      g_value_set_uint (value, self->settings.frames_in_flight);
      break;
    case PROP_CPU_THREADS:
      g_value_set_uint (value, self->settings.cpu_threads);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

void
gst_cuda_filter_begin_settings (GstCudaFilter * self)
{
  GST_OBJECT_LOCK (self);
  self->settings.settings_batch++;
  GST_OBJECT_UNLOCK (self);
}

void
gst_cuda_filter_end_settings (GstCudaFilter * self)
{
  GST_OBJECT_LOCK (self);
  if (self->settings.settings_batch > 0)
    self->settings.settings_batch--;
  GST_OBJECT_UNLOCK (self);
}

gint
gst_cuda_filter_get_device_id (GstCudaFilter * self)
{
  gint id;

  GST_OBJECT_LOCK (self);
  id = self->settings.device_id;
  GST_OBJECT_UNLOCK (self);
  return id;
}

/* The backend `choice` asks for, or NULL with an error posted. */
static CfBackend *
make_backend (GstCudaFilter * self, GstCudaFilterBackend choice,
    gint device_id, guint cpu_threads)
{
  CfBackend *backend = NULL;
  GError *err = NULL;
  gchar *why = NULL;

  if (choice == GST_CUDA_FILTER_BACKEND_CUDA) {
    if (cf_cuda_device_count (&why) == 0) {
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
          ("backend=cuda, but no CUDA device is usable (%s). Use backend=cpu "
              "or backend=auto to filter on the CPU.", GST_STR_NULL (why)),
          (NULL));
      g_free (why);
      return NULL;
    }
    backend = cf_backend_new (CF_BACKEND_CUDA, device_id, &err);
    if (backend == NULL) {
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
          ("Could not use CUDA device %d: %s. Pick another cuda-device-id, "
              "or use backend=cpu or backend=auto.", device_id,
              err ? err->message : "no reason given"), (NULL));
      g_clear_error (&err);
      return NULL;
    }
  } else if (choice == GST_CUDA_FILTER_BACKEND_AUTO) {
    if (cf_cuda_device_count (&why) > 0) {
      backend = cf_backend_new (CF_BACKEND_CUDA, device_id, &err);
      if (backend == NULL) {
        why = g_strdup (err ? err->message : "no reason given");
        g_clear_error (&err);
      }
    }
    if (backend == NULL && !self->fallback_warned) {
      self->fallback_warned = TRUE;
      GST_ELEMENT_WARNING (self, RESOURCE, NOT_FOUND,
          ("No usable CUDA device (%s): filtering on the CPU, with the same "
              "output but slower. Set backend=cpu to silence this warning.",
              GST_STR_NULL (why)), (NULL));
    }
  }
  g_free (why);

  if (backend == NULL) {
    backend = cf_backend_new (CF_BACKEND_CPU, -1, &err);
    if (backend == NULL) {
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
          ("Could not start the CPU backend: %s",
              err ? err->message : "no reason given"), (NULL));
      g_clear_error (&err);
    } else {
      cf_backend_set_cpu_threads (backend, cpu_threads);
    }
  }
  return backend;
}

/* A CUDA context set on the element (by the application, or shared in the
 * pipeline) hosts the backend from the start; otherwise one is taken only
 * when CUDA memory is negotiated (gstcudafilter-stream.c's set_caps). */
static gboolean
gst_cuda_filter_start (GstBaseTransform * trans)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);
  GstCudaFilterBackend choice;
  gint device_id;
  guint cpu_threads;
  gboolean pushed, no_kernel;
  GQueue refusals;
  gchar *text;

  GST_OBJECT_LOCK (self);
  choice = self->settings.backend_choice;
  device_id = self->settings.device_id;
  cpu_threads = self->settings.cpu_threads;
  no_kernel = self->settings.params.filter == CF_FILTER_CUSTOM
      && self->settings.kernel == NULL;
  self->settings.dirty = TRUE;
  refusals = self->settings.refusals;
  g_queue_init (&self->settings.refusals);
  GST_OBJECT_UNLOCK (self);

  while ((text = g_queue_pop_head (&refusals)) != NULL) {
    GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS, ("%s", text), (NULL));
    g_free (text);
  }
  /* Settings that cannot work whatever the caps fail the state change, as
   * GStreamer's own elements do (filesrc without a location): the
   * application learns it from set_state, before any data flows, instead
   * of from an error posted mid-negotiation, which races its main loop. */
  if (no_kernel) {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS, (NO_KERNEL_TEXT), (NULL));
    return FALSE;
  }
  gst_cuda_filter_stats_reset (self);
  gst_cuda_filter_stream_start (self);
  pushed = choice != GST_CUDA_FILTER_BACKEND_CPU && cudafilter_cuda_push (self);
  self->backend = make_backend (self, choice, device_id, cpu_threads);
  cudafilter_cuda_pop (pushed);
  if (self->backend == NULL)
    return FALSE;
  self->cuda.backend_in_context = pushed;
  GST_INFO_OBJECT (self, "filtering on %s",
      cf_backend_describe (self->backend));
  if (cf_backend_kind (self->backend) == CF_BACKEND_CUDA
      && cf_cuda_fft_unavailable () != NULL)
    GST_INFO_OBJECT (self, "large dense kernels run the direct path: %s",
        cf_cuda_fft_unavailable ());
  if (cf_backend_kind (self->backend) == CF_BACKEND_CPU
      && cf_cpu_fft_unavailable () != NULL)
    GST_INFO_OBJECT (self, "large dense kernels run the direct path: %s",
        cf_cpu_fft_unavailable ());
  return TRUE;
}

/* Pending frames and the backend go in the context they were made in. */
static gboolean
gst_cuda_filter_stop (GstBaseTransform * trans)
{
  GstCudaFilter *self = GST_CUDA_FILTER (trans);
  gboolean pushed;

  gst_cuda_filter_stream_reset (self);
  pushed = cudafilter_cuda_push (self);
  g_clear_pointer (&self->spec, cf_spec_free);
  g_clear_pointer (&self->backend, cf_backend_free);
  cudafilter_cuda_pop (pushed);
  clear_applied (self);
  cudafilter_cuda_close (self);
  return TRUE;
}

static void
gst_cuda_filter_before_transform (GstBaseTransform * trans, GstBuffer * buffer)
{
  GstClockTime stream_time;

  /* Controlled properties take their value for this buffer: at its stream
   * time, which only a TIME segment gives (appsrc's default is BYTES). */
  if (trans->segment.format != GST_FORMAT_TIME)
    return;
  stream_time = gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME,
      GST_BUFFER_TIMESTAMP (buffer));
  if (GST_CLOCK_TIME_IS_VALID (stream_time))
    gst_object_sync_values (GST_OBJECT (trans), stream_time);
}

/* Replaces `params` (a snapshot that cannot be applied) with the last
 * settings a spec was built from. */
static void
keep_applied (GstCudaFilter * self, CfParams * params)
{
  g_free ((gchar *) params->kernel);
  *params = self->applied;
  params->kernel = g_strdup (self->applied.kernel);
}

/* Rebuilds the spec and the layout from a snapshot of the properties when
 * they changed (or `force`, on new caps); never per frame otherwise. */
gboolean
gst_cuda_filter_prepare (GstCudaFilter * self, const GstVideoInfo * info,
    gboolean force)
{
  CfParams params;
  GstCudaFilterPlanes planes;
  CfLayout layout;
  CfSpec *spec;
  GError *err = NULL;
  int maxval;

  GST_OBJECT_LOCK (self);
  if (!force && self->spec != NULL && (!self->settings.dirty
          || self->settings.settings_batch > 0)) {
    GST_OBJECT_UNLOCK (self);
    return TRUE;
  }
  params = self->settings.params;
  params.kernel = g_strdup (self->settings.kernel);
  planes = self->settings.planes;
  self->settings.dirty = FALSE;
  GST_OBJECT_UNLOCK (self);

  if (params.filter == CF_FILTER_CUSTOM && params.kernel == NULL) {
    if (!self->have_applied) {   /* at start: nothing to keep */
      GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS, (NO_KERNEL_TEXT), (NULL));
      goto failed;
    }
    /* A change under way (filter set, kernel to come): keep filtering as
     * before until it is complete. */
    if (!self->incomplete_warned) {
      self->incomplete_warned = TRUE;
      GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS,
          ("filter=custom needs the 'kernel' property (e.g. "
              CUSTOM_KERNEL_EXAMPLE "): filtering as before until it is "
              "set."), (NULL));
    }
    keep_applied (self, &params);
  } else {
    self->incomplete_warned = FALSE;
  }

  if (!gst_cuda_filter_layout_from_info (info,
          planes == GST_CUDA_FILTER_PLANES_LUMA,
          cf_filter_is_derivative (params.filter), &layout, &err)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s", err->message), (NULL));
    goto failed;
  }

  maxval = (1 << cf_layout_depth (&layout)) - 1;
  if (params.border == CF_BORDER_CONSTANT && params.border_value > maxval)
    GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS,
        ("border-value %d is above the largest %d-bit sample value of %s: "
            "using %d", params.border_value, cf_layout_depth (&layout),
            GST_VIDEO_INFO_NAME (info), maxval), (NULL));

  /* Properties were checked for every depth when they were set
   * (cf_params_check): a refused value was never taken, whatever the
   * format. */
  spec = cf_spec_new_for_depth (&params, cf_layout_depth (&layout), &err);
  if (spec == NULL) {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
        ("Invalid filter settings for %s: %s",
            GST_VIDEO_INFO_NAME (info), err->message), (NULL));
    goto failed;
  }

  g_clear_pointer (&self->spec, cf_spec_free);
  self->spec = spec;
  self->layout = layout;
  g_free ((gchar *) self->applied.kernel);
  self->applied = params;       /* takes the kernel copy */
  self->have_applied = TRUE;
  GST_DEBUG_OBJECT (self, "spec rebuilt for %s %dx%d",
      GST_VIDEO_INFO_NAME (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info));
  return TRUE;

failed:
  g_clear_error (&err);
  g_free ((gchar *) params.kernel);
  g_clear_pointer (&self->spec, cf_spec_free);
  return FALSE;
}

static gboolean
gst_cuda_filter_set_info (GstVideoFilter * vfilter, GstCaps * incaps,
    GstVideoInfo * in_info, GstCaps * outcaps, GstVideoInfo * out_info)
{
  GstCudaFilter *self = GST_CUDA_FILTER (vfilter);

  GST_DEBUG_OBJECT (self, "caps %" GST_PTR_FORMAT, incaps);
  return gst_cuda_filter_prepare (self, in_info, TRUE);
}
