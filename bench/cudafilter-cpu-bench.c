/* cudafilter-cpu-bench: the CPU backends on frames in memory, steady state:
 * milliseconds per frame of the fast backend (on --threads threads) and,
 * with --reference, of the reference backend it is checked against.
 *
 *   cudafilter-cpu-bench --filter gaussian --sigma 2 --size 1920x1080 \
 *       --format rgba --threads 1,2 --reference
 *
 * --convolution direct,fft times the fast backend once per method (as
 * CUDAFILTER_CPU_CONVOLUTION sets it); a custom filter without --kernel
 * gets a random dense --kernel-size matrix.
 *
 * Prints one "csv," line per backend, method and thread count:
 * csv,backend,filter,format,size,threads,wall_ms,cpu_ms,method,kernel_size */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <glib.h>

#include "cf-spec.h"
#include "cf-layout.h"
#include "cf-backend.h"
#include "bench-kernel.h"

static char *opt_filter = (char *) "gaussian";
static char *opt_format = (char *) "rgba";
static char *opt_size = (char *) "1920x1080";
static char *opt_threads = (char *) "1";
static char *opt_kernel = NULL;
static double opt_sigma = 1.0;
static int opt_kernel_size = 0;
static int opt_frames = 50;
static gboolean opt_reference = FALSE;
static char *opt_convolution = NULL;
static double opt_divisor = 0.0;
static char *opt_regions = NULL;

static GOptionEntry entries[] = {
  {"filter", 0, 0, G_OPTION_ARG_STRING, &opt_filter,
      "a filter's name (gaussian, box, ..., median, erode, bilateral)", "NAME"},
  {"sigma", 0, 0, G_OPTION_ARG_DOUBLE, &opt_sigma, "Gaussian sigma", "S"},
  {"kernel-size", 0, 0, G_OPTION_ARG_INT, &opt_kernel_size, "taps", "N"},
  {"kernel", 0, 0, G_OPTION_ARG_STRING, &opt_kernel, "custom matrix", "M"},
  {"size", 0, 0, G_OPTION_ARG_STRING, &opt_size, "WxH", "WxH"},
  {"format", 0, 0, G_OPTION_ARG_STRING, &opt_format, "rgba, rgb or gray8", "F"},
  {"threads", 0, 0, G_OPTION_ARG_STRING, &opt_threads,
      "comma-separated thread counts (0 = one per core)", "LIST"},
  {"frames", 0, 0, G_OPTION_ARG_INT, &opt_frames, "timed frames", "N"},
  {"regions", 0, 0, G_OPTION_ARG_STRING, &opt_regions,
      "also time these regions (\"x,y,w,h; ...\") and them in place", "LIST"},
  {"reference", 0, 0, G_OPTION_ARG_NONE, &opt_reference,
      "also time the reference backend", NULL},
  {"divisor", 0, 0, G_OPTION_ARG_DOUBLE, &opt_divisor,
      "custom divisor (0 = the kernel's sum)", "D"},
  {"convolution", 0, 0, G_OPTION_ARG_STRING, &opt_convolution,
      "comma-separated methods: auto, direct, fft (default auto)", "LIST"},
  {NULL}
};

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Median wall milliseconds per frame after two untimed frames, and the
 * process's CPU milliseconds per frame (all threads) in *cpu_ms: on a
 * shared machine the CPU time of one thread is the steadier figure. */
static double
time_backend (CfBackend * be, const CfSpec * spec, const CfLayout * layout,
    const CfFrame * in, const CfFrame * out, const CfRegions * regions,
    double *cpu_ms)
{
  double *ms = g_new (double, opt_frames), med, c0 = 0.0;
  int i;

  for (i = -2; i < opt_frames; i++) {
    if (i == 0)
      c0 = cpu_seconds ();
    gint64 t0 = g_get_monotonic_time ();
    GError *err = NULL;

    if (!cf_backend_process_regions (be, spec, layout, in, out, regions,
            &err))
      g_error ("%s", err->message);
    if (i >= 0)
      ms[i] = (g_get_monotonic_time () - t0) / 1000.0;
  }
  *cpu_ms = (cpu_seconds () - c0) * 1000.0 / opt_frames;
  qsort (ms, opt_frames, sizeof (double), cmp_double);
  med = ms[opt_frames / 2];
  g_free (ms);
  return med;
}

/* --regions: the same backend on the regions, into another frame and in
 * place (the output frame starts as the input), beside the whole frame. */
static void
time_regions (CfBackend * be, const CfSpec * spec, const CfLayout * layout,
    const CfFrame * in, const CfFrame * out, int w, int h, double whole_ms,
    double whole_cpu)
{
  CfRegions r;
  GError *err = NULL;
  double ms, cpu, ip_ms = -1.0, ip_cpu = -1.0;
  gint64 area = 0;

  cf_regions_init (&r);
  if (!cf_regions_parse (opt_regions, &r, &err))
    g_error ("--regions: %s", err->message);
  cf_regions_fit (&r, 0, w, h);
  for (int i = 0; i < r.n_rects; i++)
    area += (gint64) r.rects[i].w * r.rects[i].h;
  ms = time_backend (be, spec, layout, in, out, &r, &cpu);
  if (cf_backend_regions_in_place (be, spec, layout, &r)) {
    memcpy (out->data[0], in->data[0], (gsize) in->stride[0] * h);
    ip_ms = time_backend (be, spec, layout, out, out, &r, &ip_cpu);
  }
  printf ("  regions %.1f %% of the frame: %8.2f ms wall (%.1f %% of whole), "
      "%8.2f ms cpu (%.1f %%); in place %8.2f ms wall (%.1f %%), %8.2f ms "
      "cpu (%.1f %%)\n", 100.0 * area / ((double) w * h), ms,
      100.0 * ms / whole_ms, cpu, 100.0 * cpu / whole_cpu, ip_ms,
      100.0 * ip_ms / whole_ms, ip_cpu, 100.0 * ip_cpu / whole_cpu);
  printf ("csv-regions,cpu,%s,%s,%.2f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n",
      opt_filter, opt_size, 100.0 * area / ((double) w * h), whole_ms,
      whole_cpu, ms, cpu, ip_ms, ip_cpu);
  cf_regions_reset (&r);
}

int
main (int argc, char **argv)
{
  GOptionContext *ctx = g_option_context_new ("- time the CPU backends");
  GError *err = NULL;
  CfParams params;
  CfSpec *spec;
  CfLayout layout;
  CfFrame in = { {NULL} }, out = { {NULL} };
  int w, h, samples, i;
  gsize bytes;
  gchar **threads, **methods;
  char *kernel = NULL;
  guint f;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)
      || sscanf (opt_size, "%dx%d", &w, &h) != 2 || w < 1 || h < 1
      || opt_frames < 1) {
    fprintf (stderr, "%s\n", err ? err->message : "bad --size or --frames");
    return 2;
  }
  cf_params_init (&params);
  /* Every filter of the engine's table, by its nick. */
  for (f = 0; f < CF_N_FILTERS; f++)
    if (strcmp (opt_filter, cf_filters[f].nick) == 0)
      break;
  if (f == CF_N_FILTERS) {
    fprintf (stderr, "unknown filter %s\n", opt_filter);
    return 2;
  }
  params.filter = cf_filters[f].filter;
  params.sigma = opt_sigma;
  params.kernel_size = opt_kernel_size;
  if (params.filter == CF_FILTER_CUSTOM && opt_kernel == NULL
      && opt_kernel_size > 0)
    kernel = random_kernel (opt_kernel_size);
  params.kernel = kernel ? kernel : opt_kernel;
  params.divisor = opt_divisor;
  spec = cf_spec_new (&params, 1, &err);
  if (spec == NULL) {
    fprintf (stderr, "%s\n", err->message);
    return 2;
  }
  samples = strcmp (opt_format, "gray8") == 0 ? 1 :
      strcmp (opt_format, "rgb") == 0 ? 3 : 4;
  /* RGBA: colour filtered, alpha copied, as the element does. */
  cf_layout_init_interleaved (&layout, w, h, samples, 1,
      samples == 1 ? 0x1 : 0x7);
  bytes = (gsize) w * h * samples;
  in.data[0] = g_malloc (bytes);
  out.data[0] = g_malloc (bytes);
  in.stride[0] = out.stride[0] = w * samples;
  {
    guint32 r = 1;

    /* Noise (a plain generator: g_random_int locks per call). */
    for (i = 0; i < (int) bytes; i++) {
      r = r * 1664525u + 1013904223u;
      in.data[0][i] = (guint8) (r >> 24);
    }
  }

  if (opt_reference) {
    CfBackend *ref = cf_backend_new (CF_BACKEND_CPU_REFERENCE, -1, NULL);
    double cpu, ms = time_backend (ref, spec, &layout, &in, &out, NULL,
        &cpu);

    printf ("%-10s %s %s %-10s %8.2f ms/frame wall, %8.2f ms cpu\n",
        "reference", opt_filter, opt_format, opt_size, ms, cpu);
    printf ("csv,reference,%s,%s,%s,1,%.3f,%.3f,direct,%d\n", opt_filter,
        opt_format, opt_size, ms, cpu, spec->kp.kw);
    cf_backend_free (ref);
  }
  threads = g_strsplit (opt_threads, ",", -1);
  methods = g_strsplit (opt_convolution ? opt_convolution : "auto", ",", -1);
  for (int m = 0; methods[m]; m++) {
    for (i = 0; threads[i]; i++) {
      CfBackend *be;
      int n = atoi (threads[i]);
      double ms, cpu;

      g_setenv ("CUDAFILTER_CPU_CONVOLUTION", methods[m], TRUE);
      be = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
      g_unsetenv ("CUDAFILTER_CPU_CONVOLUTION");
      cf_backend_set_cpu_threads (be, n);
      ms = time_backend (be, spec, &layout, &in, &out, NULL, &cpu);
      printf ("%-10s %s %s %-10s %8.2f ms/frame wall, %8.2f ms cpu (%s; %s)\n",
          "cpu", opt_filter, opt_format, opt_size, ms, cpu,
          cf_backend_describe (be), cf_backend_describe_plan (be));
      printf ("csv,cpu,%s,%s,%s,%d,%.3f,%.3f,%s,%d\n", opt_filter, opt_format,
          opt_size, n, ms, cpu, methods[m], spec->kp.kw);
      if (opt_regions)
        time_regions (be, spec, &layout, &in, &out, w, h, ms, cpu);
      cf_backend_free (be);
    }
  }
  g_strfreev (methods);
  g_strfreev (threads);
  cf_spec_free (spec);
  g_free (kernel);
  g_free (in.data[0]);
  g_free (out.data[0]);
  g_option_context_free (ctx);
  return 0;
}
