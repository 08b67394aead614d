/* cf-filter-raw: runs one cudafilter engine filter over a raw image file.
 *
 * The input is width x height pixels of `samples` tightly packed interleaved
 * samples, 8-bit or in native-endian 16-bit words (depths 9 to 16, the
 * values in the low bits, or with --msb in the high bits as P010 keeps
 * them), or with --packing=rgb10a2 one 32-bit word a pixel holding three
 * 10-bit samples from bits 0, 10 and 20 and a 2-bit alpha in bits 30-31
 * (copied); the output has the same layout.
 * The reference tests drive the engine through this tool, and it is handy for
 * trying a filter on a dump without building a pipeline.
 *
 * Exit status: 0 on success, 1 when the engine refuses the parameters or
 * fails, 2 for a command-line or file error.
 *
 * `cf-filter-raw --batch` reads one command line per line of stdin (the same
 * options and files, shell quoting) and answers each with a line "0" or
 * "STATUS MESSAGE" on stdout, reusing one backend: a CUDA context is created
 * once, not once per image. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cf-backend.h"
#include "cf-layout.h"
#include "cf-spec.h"

typedef struct
{
  const char *name;
  int value;
} NameValue;

/* From the engine's tables: the element's names. */
static NameValue filter_names[CF_N_FILTERS + 1];
static NameValue border_names[CF_N_BORDERS + 1];
static NameValue shape_names[CF_N_SHAPES + 1];

static void
fill_names (void)
{
  int i;

  for (i = 0; i < CF_N_FILTERS; i++)
    filter_names[i] = (NameValue) {
    cf_filters[i].nick, cf_filters[i].filter};
  for (i = 0; i < CF_N_BORDERS; i++)
    border_names[i] = (NameValue) {
    cf_borders[i].nick, cf_borders[i].border};
  for (i = 0; i < CF_N_SHAPES; i++)
    shape_names[i] = (NameValue) {
    cf_shapes[i].nick, cf_shapes[i].shape};
}

static const NameValue backend_names[] = {
  {"cpu", CF_BACKEND_CPU},
  {"cuda", CF_BACKEND_CUDA},
  {NULL, 0}
};

/* In batch mode the first error of a command goes into its answer line. */
static gboolean batch_mode = FALSE;
static GString *batch_error = NULL;

static void
report (const char *format, ...) G_GNUC_PRINTF (1, 2);

static void
report (const char *format, ...)
{
  va_list args;
  char *msg;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  if (batch_mode) {
    if (batch_error->len == 0)
      g_string_append (batch_error, msg);
  } else {
    g_printerr ("cf-filter-raw: %s\n", msg);
  }
  g_free (msg);
}

static gboolean
lookup (const NameValue * table, const char *option, const char *name,
    int *value)
{
  GString *accepted;
  int i;

  for (i = 0; table[i].name; i++) {
    if (g_strcmp0 (table[i].name, name) == 0) {
      *value = table[i].value;
      return TRUE;
    }
  }
  accepted = g_string_new (NULL);
  for (i = 0; table[i].name; i++)
    g_string_append_printf (accepted, "%s%s", i ? ", " : "", table[i].name);
  report ("--%s: unknown value '%s' (accepted: %s)", option, name,
      accepted->str);
  g_string_free (accepted, TRUE);
  return FALSE;
}

static int
fail_usage (GOptionContext * ctx, const char *message)
{
  report ("%s", message);
  g_option_context_free (ctx);
  return 2;
}

/* Interleaved samples of `depth` bits, each channel filtered when its bit
 * of filter_mask is set, else copied whole (word for word). */
static void
init_layout (CfLayout * layout, int width, int height, int samples,
    int depth, gboolean msb, gboolean rgb10a2, guint filter_mask)
{
  int c;

  memset (layout, 0, sizeof (*layout));
  layout->sample_bytes = depth > 8 ? 2 : 1;
  layout->depth = depth;
  /* Three or more samples are RGB(A) here. */
  layout->colour = samples >= 3;
  for (c = 0; c < samples; c++) {
    gboolean filtered = (filter_mask & (1u << c)) != 0;
    CfChannelMode mode = filtered ? CF_CHANNEL_FILTER : CF_CHANNEL_COPY;

    if (rgb10a2) {
      cf_layout_add_channel (layout, mode, 0, width, height, 4, 0, 0);
      if (c < 3)
        cf_layout_set_encoding (layout, 4, 10, 10 * c, TRUE);
      else
        cf_layout_set_encoding (layout, 4, 2, 30, TRUE);
      continue;
    }
    cf_layout_add_channel (layout, mode, 0, width, height,
        samples * layout->sample_bytes, c * layout->sample_bytes, 0);
    if (filtered && depth > 8)
      cf_layout_set_encoding (layout, 2, depth, msb ? 16 - depth : 0, FALSE);
  }
}

/* One backend of each kind, created on first use and kept. */
static CfBackend *backends[2];

static int
run (int argc, char **argv)
{
  CfParams params;
  int width = 0, height = 0, samples = 1, depth = 8;
  char *filter = NULL, *border = NULL, *backend_name = NULL, *mask = NULL;
  char *kernel = NULL, *packing = NULL, *shape = NULL, *regions_text = NULL;
  int shape_value = CF_SHAPE_RECT;
  gboolean msb = FALSE, outside = FALSE, rgb10a2;
  CfRegions regions;
  GOptionContext *ctx;
  GError *error = NULL;
  int filter_value, border_value_enum, backend_kind, sample_bytes;
  guint filter_mask;
  gsize expected, length = 0;
  gchar *in_data = NULL;
  guint8 *out_data;
  CfSpec *spec;
  CfBackend *backend;
  CfLayout layout;
  CfFrame in_frame, out_frame;
  int status = 0;

  cf_params_init (&params);

  {
    GOptionEntry entries[] = {
      {"width", 0, 0, G_OPTION_ARG_INT, &width, "Width in pixels", "W"},
      {"height", 0, 0, G_OPTION_ARG_INT, &height, "Height in pixels", "H"},
      {"samples", 0, 0, G_OPTION_ARG_INT, &samples,
          "Interleaved samples per pixel (1-4, default 1)", "S"},
      {"depth", 0, 0, G_OPTION_ARG_INT, &depth,
          "Bits per sample: 8, or 9 to 16 in 16-bit native-endian words",
          "D"},
      {"msb", 0, 0, G_OPTION_ARG_NONE, &msb,
          "Samples deeper than 8 bits sit in the high bits of their words "
            "(low bits zero), as in P010", NULL},
      {"packing", 0, 0, G_OPTION_ARG_STRING, &packing,
          "rgb10a2: 10-bit R, G, B and 2-bit alpha in one 32-bit word",
          "NAME"},
      {"filter", 0, 0, G_OPTION_ARG_STRING, &filter,
          "gaussian, box, sobel, sobel-x, sobel-y, scharr, laplacian, "
            "sharpen, custom, median, erode, dilate, open, close, gradient, "
            "tophat, blackhat, bilateral or pixelate (default gaussian)",
          "NAME"},
      {"shape", 0, 0, G_OPTION_ARG_STRING, &shape,
          "Morphology's element without --kernel: rect, ellipse or cross",
          "NAME"},
      {"iterations", 0, 0, G_OPTION_ARG_INT, &params.iterations,
          "Morphology: times the erosions and dilations repeat (1-16)", "N"},
      {"sigma-color", 0, 0, G_OPTION_ARG_DOUBLE, &params.sigma_color,
          "Bilateral range sigma in sample units (-1 = 30 at 8 bits, "
            "scaled to the depth)", "S"},
      {"sigma", 0, 0, G_OPTION_ARG_DOUBLE, &params.sigma,
          "Gaussian sigma", "S"},
      {"sigma-y", 0, 0, G_OPTION_ARG_DOUBLE, &params.sigma_y,
          "Vertical Gaussian sigma (0 = sigma)", "S"},
      {"kernel-size", 0, 0, G_OPTION_ARG_INT, &params.kernel_size,
          "Kernel size or aperture (0 = derived)", "N"},
      {"kernel", 0, 0, G_OPTION_ARG_STRING, &kernel,
          "Custom kernel, rows by ';', values by spaces or commas", "STR"},
      {"divisor", 0, 0, G_OPTION_ARG_DOUBLE, &params.divisor,
          "Custom kernel divisor (0 = sum of the kernel)", "D"},
      {"offset", 0, 0, G_OPTION_ARG_DOUBLE, &params.offset,
          "Added to derivative and custom results", "O"},
      {"scale", 0, 0, G_OPTION_ARG_DOUBLE, &params.scale,
          "Multiplies derivative and custom results", "F"},
      {"amount", 0, 0, G_OPTION_ARG_DOUBLE, &params.amount,
          "Sharpen strength", "A"},
      {"border", 0, 0, G_OPTION_ARG_STRING, &border,
          "reflect101, replicate, reflect, wrap or constant", "NAME"},
      {"border-value", 0, 0, G_OPTION_ARG_INT, &params.border_value,
          "Sample value outside the frame for border=constant", "V"},
      {"backend", 0, 0, G_OPTION_ARG_STRING, &backend_name,
          "cpu (default) or cuda", "NAME"},
      {"block-size", 0, 0, G_OPTION_ARG_INT, &params.block_size,
          "Pixelate block size in pixels (default 16)", "N"},
      {"regions", 0, 0, G_OPTION_ARG_STRING, &regions_text,
          "Filter only inside these rectangles: \"x,y,w,h; x,y,w,h\"",
          "LIST"},
      {"outside", 0, 0, G_OPTION_ARG_NONE, &outside,
          "With --regions: filter everything but the rectangles", NULL},
      {"mask", 0, 0, G_OPTION_ARG_STRING, &mask,
          "Channels to filter as a bit mask, others are copied "
            "(default all)", "BITS"},
      {NULL}
    };

    ctx = g_option_context_new ("IN.raw OUT.raw - filter a raw image");
    g_option_context_add_main_entries (ctx, entries, NULL);
    if (batch_mode)
      g_option_context_set_help_enabled (ctx, FALSE);
    if (!g_option_context_parse (ctx, &argc, &argv, &error)) {
      report ("%s", error->message);
      g_clear_error (&error);
      g_option_context_free (ctx);
      return 2;
    }
  }

  if (argc != 3)
    return fail_usage (ctx, "expected IN.raw and OUT.raw (see --help)");
  if (width < 1 || height < 1)
    return fail_usage (ctx, "--width and --height must be at least 1");
  if (samples < 1 || samples > 4)
    return fail_usage (ctx, "--samples must be 1, 2, 3 or 4");
  if (depth < 8 || depth > 16)
    return fail_usage (ctx, "--depth must be 8, or 9 to 16");
  sample_bytes = depth > 8 ? 2 : 1;
  if (msb && depth == 8)
    return fail_usage (ctx, "--msb needs a --depth from 9 to 16");
  if (packing && g_strcmp0 (packing, "rgb10a2") != 0)
    return fail_usage (ctx, "--packing: unknown value (accepted: rgb10a2)");
  rgb10a2 = packing != NULL;
  if (rgb10a2 && (samples != 4 || depth != 10 || msb))
    return fail_usage (ctx, "--packing=rgb10a2 needs --samples=4 "
        "--depth=10 and no --msb");

  fill_names ();
  filter_value = CF_FILTER_GAUSSIAN;
  border_value_enum = CF_BORDER_REFLECT101;
  backend_kind = CF_BACKEND_CPU;
  if ((filter && !lookup (filter_names, "filter", filter, &filter_value)) ||
      (border && !lookup (border_names, "border", border,
              &border_value_enum)) ||
      (shape && !lookup (shape_names, "shape", shape, &shape_value)) ||
      (backend_name && !lookup (backend_names, "backend", backend_name,
              &backend_kind))) {
    g_option_context_free (ctx);
    return 2;
  }
  params.filter = filter_value;
  params.border = border_value_enum;
  params.kernel = kernel;
  params.shape = shape_value;

  filter_mask = (1u << samples) - 1;
  if (mask) {
    char *end = NULL;
    guint64 bits = g_ascii_strtoull (mask, &end, 0);

    if (!end || *end != '\0' || end == mask || bits > 0xf)
      return fail_usage (ctx, "--mask must be a number from 0 to 15");
    filter_mask = (guint) bits;
  }
  if (rgb10a2 && (filter_mask & 0x8))
    return fail_usage (ctx, "--packing=rgb10a2: the 2-bit alpha is copied, "
        "leave bit 3 out of --mask");

  if (!g_file_get_contents (argv[1], &in_data, &length, &error)) {
    report ("%s", error->message);
    g_clear_error (&error);
    g_option_context_free (ctx);
    return 2;
  }
  expected = (gsize) width * height * (rgb10a2 ? 4 : samples * sample_bytes);
  if (length != expected) {
    report ("%s holds %" G_GSIZE_FORMAT " bytes, expected %" G_GSIZE_FORMAT
        " for %dx%d, %d samples of %d bits", argv[1], length, expected, width,
        height, samples, depth);
    g_free (in_data);
    g_option_context_free (ctx);
    return 2;
  }

  spec = cf_spec_new_for_depth (&params, depth, &error);
  if (!spec) {
    report ("%s", error->message);
    g_clear_error (&error);
    g_free (in_data);
    g_option_context_free (ctx);
    return 1;
  }

  if (!backends[backend_kind])
    backends[backend_kind] = cf_backend_new (backend_kind, -1, &error);
  backend = backends[backend_kind];
  if (!backend) {
    report ("%s", error->message);
    g_clear_error (&error);
    cf_spec_free (spec);
    g_free (in_data);
    g_option_context_free (ctx);
    return 1;
  }

  init_layout (&layout, width, height, samples, depth, msb, rgb10a2,
      filter_mask);
  cf_regions_init (&regions);
  regions.mode = outside ? CF_REGION_OUTSIDE : CF_REGION_INSIDE;
  if (regions_text && !cf_regions_parse (regions_text, &regions, &error)) {
    report ("--regions: %s", error->message);
    g_clear_error (&error);
    cf_spec_free (spec);
    g_free (in_data);
    g_option_context_free (ctx);
    return 2;
  }
  cf_regions_fit (&regions, 0, width, height);
  memset (&in_frame, 0, sizeof (in_frame));
  memset (&out_frame, 0, sizeof (out_frame));
  out_data = g_malloc0 (expected);
  in_frame.data[0] = (guint8 *) in_data;
  in_frame.stride[0] = (int) (expected / height);
  out_frame.data[0] = out_data;
  out_frame.stride[0] = in_frame.stride[0];

  if (!cf_backend_process_regions (backend, spec, &layout, &in_frame,
          &out_frame, regions_text ? &regions : NULL, &error)) {
    report ("%s", error->message);
    g_clear_error (&error);
    status = 1;
  } else if (!g_file_set_contents (argv[2], (const gchar *) out_data,
          expected, &error)) {
    report ("%s", error->message);
    g_clear_error (&error);
    status = 2;
  }

  g_free (out_data);
  cf_spec_free (spec);
  g_free (in_data);
  g_free (filter);
  g_free (border);
  g_free (shape);
  g_free (backend_name);
  g_free (mask);
  g_free (kernel);
  g_free (packing);
  g_free (regions_text);
  cf_regions_reset (&regions);
  g_option_context_free (ctx);
  return status;
}

static int
run_batch (void)
{
  GIOChannel *in = g_io_channel_unix_new (0);
  char *line = NULL;
  gsize len;
  int failures = 0;

  batch_mode = TRUE;
  batch_error = g_string_new (NULL);
  while (g_io_channel_read_line (in, &line, &len, NULL, NULL) ==
      G_IO_STATUS_NORMAL) {
    GError *error = NULL;
    char **args = NULL;
    int n = 0, status;

    g_strchomp (line);
    g_string_truncate (batch_error, 0);
    if (*line == '\0') {
      g_free (line);
      continue;
    }
    /* argv[0] first, as GOption expects. */
    {
      char *full = g_strconcat ("cf-filter-raw ", line, NULL);

      if (!g_shell_parse_argv (full, &n, &args, &error)) {
        report ("%s", error->message);
        g_clear_error (&error);
        status = 2;
      } else {
        /* GOption rearranges the array it is given: free a copy. */
        char **copy = g_new (char *, n + 1);

        memcpy (copy, args, sizeof (char *) * (n + 1));

        status = run (n, copy);
        g_free (copy);
        g_strfreev (args);
      }
      g_free (full);
    }
    if (status == 0)
      g_print ("0\n");
    else
      g_print ("%d %s\n", status, batch_error->str);
    fflush (stdout);
    failures += status != 0;
    g_free (line);
  }
  g_io_channel_unref (in);
  g_string_free (batch_error, TRUE);
  return failures ? 1 : 0;
}

int
main (int argc, char **argv)
{
  int status;

  if (argc == 2 && strcmp (argv[1], "--batch") == 0)
    status = run_batch ();
  else
    status = run (argc, argv);
  g_clear_pointer (&backends[0], cf_backend_free);
  g_clear_pointer (&backends[1], cf_backend_free);
  return status;
}
