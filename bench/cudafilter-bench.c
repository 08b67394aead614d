/* cudafilter-bench: times the filter kernel on device buffers and, in the
 * same run, the copies that bound it: a device-to-device copy of the frame
 * (the floor for any filter) and pinned host-to-device / device-to-host
 * uploads and downloads (the cost of system-memory caps).
 *
 *   cudafilter-bench --filter gaussian,sobel --size 3840x2160 --format rgba
 *   cudafilter-bench --filter custom --kernel-size 31 --method direct,fft
 *
 * Prints a table and one "csv," line per case and method. */
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <cuda_runtime_api.h>

#include "config.h"
#include "cf-spec.h"
#include "cf-layout.h"
#include "cf-launch.h"
#include "cf-nonlin-launch.h"
#include "cf-region-launch.h"
#include "cf-fft-plan.h"
#include "cf-backend.h"
#ifdef HAVE_CUFFT
#include "cf-fft.h"
#endif
#include "bench-kernel.h"

#define PITCH_ALIGN 256

static char *opt_filters = (char *) "gaussian";
static char *opt_formats = (char *) "rgba";
static char *opt_size = (char *) "3840x2160";
static char *opt_kernel = NULL;
static char *opt_border = (char *) "reflect101";
static char *opt_methods = (char *) "auto";
static double opt_sigma = 2.0;
static int opt_kernel_size = 0;
static int opt_iterations = 100;
static int opt_warmup = 10;
static int opt_device = 0;
static char *opt_regions = NULL;

static GOptionEntry entries[] = {
  {"filter", 'f', 0, G_OPTION_ARG_STRING, &opt_filters,
      "Comma-separated filters: gaussian, box, sobel, sobel-x, sobel-y, "
        "scharr, laplacian, sharpen, custom, median, erode, dilate, open, "
        "close, gradient, tophat, blackhat, bilateral (default gaussian)",
      "LIST"},
  {"sigma", 's', 0, G_OPTION_ARG_DOUBLE, &opt_sigma,
      "Gaussian / sharpen sigma (default 2.0: 13 taps)", "SIGMA"},
  {"kernel-size", 'k', 0, G_OPTION_ARG_INT, &opt_kernel_size,
      "Kernel size, 0 = derived (default 0); for custom without --kernel, "
        "an N x N matrix of fixed random integers (not separable)", "N"},
  {"kernel", 0, 0, G_OPTION_ARG_STRING, &opt_kernel,
      "Matrix for the custom filter, e.g. \"0 -1 0; -1 5 -1; 0 -1 0\"", "M"},
  {"method", 'm', 0, G_OPTION_ARG_STRING, &opt_methods,
      "Comma-separated convolution methods for dense kernels: auto (as the "
        "element chooses), direct, fft (where exact) (default auto)", "LIST"},
  {"border", 'b', 0, G_OPTION_ARG_STRING, &opt_border,
      "reflect101, replicate, reflect, wrap or constant (default reflect101)",
      "MODE"},
  {"size", 'S', 0, G_OPTION_ARG_STRING, &opt_size,
      "Frame size WIDTHxHEIGHT (default 3840x2160)", "WxH"},
  {"format", 'F', 0, G_OPTION_ARG_STRING, &opt_formats,
      "Comma-separated formats: rgba (alpha copied), rgb, gray8, gray16, rgba64 (alpha copied), i420, nv12, p010, p016, yuy2, uyvy "
        "(default rgba)", "LIST"},
  {"iterations", 'n', 0, G_OPTION_ARG_INT, &opt_iterations,
      "Timed iterations per measurement (default 100)", "N"},
  {"warmup", 'w', 0, G_OPTION_ARG_INT, &opt_warmup,
      "Untimed iterations first (default 10)", "N"},
  {"regions", 'r', 0, G_OPTION_ARG_STRING, &opt_regions,
      "Also time the CUDA backend on the device frames: whole frames, "
        "these regions (\"x,y,w,h; ...\", e.g. 1600,756,640,648 is 5 % of "
        "4K), and the regions in place", "LIST"},
  {"device", 'd', 0, G_OPTION_ARG_INT, &opt_device,
      "CUDA device (default 0)", "N"},
  {NULL}
};

static const char *filter_names[] = {
  "gaussian", "box", "sobel", "sobel-x", "sobel-y", "scharr", "laplacian",
  "sharpen", "custom", "median", "erode", "dilate", "open", "close",
  "gradient", "tophat", "blackhat", "bilateral", "pixelate"
};
G_STATIC_ASSERT (G_N_ELEMENTS (filter_names) == CF_N_FILTERS);

static const char *border_names[] = {
  "reflect101", "replicate", "reflect", "wrap", "constant"
};

static int
lookup (const char *name, const char **names, int n)
{
  for (int i = 0; i < n; i++)
    if (g_ascii_strcasecmp (name, names[i]) == 0)
      return i;
  return -1;
}

#define CHECK(call) do { \
    cudaError_t err_ = (call); \
    if (err_ != cudaSuccess) { \
      fprintf (stderr, "cudafilter-bench: %s failed: %s\n", #call, \
          cudaGetErrorString (err_)); \
      exit (1); \
    } \
  } while (0)

typedef struct
{
  double median, min, max;      /* microseconds */
} Timing;

static int
cmp_float (const void *a, const void *b)
{
  float x = *(const float *) a, y = *(const float *) b;
  return x < y ? -1 : x > y;
}

/* What one timed step does on the stream. */
typedef void (*StepFunc) (gpointer data, cudaStream_t stream);

/* Warm-up, then each iteration between its own pair of events, all queued
 * before the one synchronisation so host gaps do not count. */
static Timing
time_step (StepFunc step, gpointer data, cudaStream_t stream)
{
  int n = opt_iterations;
  cudaEvent_t *ev = g_new (cudaEvent_t, n + 1);
  float *ms = g_new (float, n);
  Timing t;

  for (int i = 0; i < opt_warmup; i++)
    step (data, stream);
  for (int i = 0; i <= n; i++)
    CHECK (cudaEventCreate (&ev[i]));
  CHECK (cudaEventRecord (ev[0], stream));
  for (int i = 0; i < n; i++) {
    step (data, stream);
    CHECK (cudaEventRecord (ev[i + 1], stream));
  }
  CHECK (cudaEventSynchronize (ev[n]));
  CHECK (cudaGetLastError ());
  for (int i = 0; i < n; i++)
    CHECK (cudaEventElapsedTime (&ms[i], ev[i], ev[i + 1]));
  qsort (ms, n, sizeof (float), cmp_float);
  t.min = ms[0] * 1000.0;
  t.max = ms[n - 1] * 1000.0;
  t.median = (n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2])) * 1000.0;
  for (int i = 0; i <= n; i++)
    cudaEventDestroy (ev[i]);
  g_free (ev);
  g_free (ms);
  return t;
}

typedef struct
{
  CfDeviceFrame frame;
  const CfSpec *spec;
  const int *d_dense;
  CfLaunchPlan *plan;           /* made once, as the CUDA backend does */
  cudaError_t plan_err;         /* why there is none */
  /* The nonlinear operations' scratch and colour groups. */
  unsigned short *d_scratch;
  int groups[CF_MAX_CHANNELS][3];
  CfPixelateArgs pixelate;      /* the whole frame's blocks */
#ifdef HAVE_CUFFT
  CfFft *fft;
#endif
} KernelStep;

static void
kernel_step (gpointer data, cudaStream_t stream)
{
  KernelStep *k = data;

  if (k->spec->kp.operation == CF_OPERATION_PIXELATE) {
    CHECK (cf_launch_pixelate (&k->frame, &k->pixelate, stream));
    return;
  }
  if (k->spec->kp.operation != CF_OPERATION_CONVOLVE) {
    CHECK (cf_nonlin_run (&k->frame, &k->spec->kp, &k->spec->nl,
            k->d_dense, (const int (*)[3]) k->groups, k->d_scratch, stream));
    return;
  }
  CHECK (k->plan_err);
  CHECK (cf_launch_plan_run (k->plan, &k->frame, k->d_dense, stream));
}

#ifdef HAVE_CUFFT
static void
fft_step (gpointer data, cudaStream_t stream)
{
  KernelStep *k = data;
  GError *error = NULL;

  if (!cf_fft_filter (k->fft, k->spec, k->d_dense, &k->frame, stream, &error)) {
    fprintf (stderr, "cudafilter-bench: %s\n", error->message);
    exit (1);
  }
}
#endif

/* The step `method` runs for this spec and frame, as the CUDA backend
 * chooses; NULL (with *why) when it cannot run. */
static StepFunc
method_step (CfConvMethod method, KernelStep * ks, const char **why)
{
#ifdef HAVE_CUFFT
  if (method != CF_CONV_DIRECT && cf_fft_spec_eligible (ks->spec)
      && cf_fft_wanted (ks->fft, method, ks->spec, &ks->frame))
    return fft_step;
  *why = cf_fft_spec_eligible (ks->spec) ?
      "the FFT's error bound is too large for these weights" :
      "separable or two-kernel spec";
#else
  *why = "built without cuFFT";
#endif
  return method == CF_CONV_FFT ? NULL : kernel_step;
}

typedef struct
{
  void *dst;
  const void *src;
  size_t bytes;
  enum cudaMemcpyKind kind;
} CopyStep;

static void
copy_step (gpointer data, cudaStream_t stream)
{
  CopyStep *c = data;

  CHECK (cudaMemcpyAsync (c->dst, c->src, c->bytes, c->kind, stream));
}

typedef struct
{
  const char *format;
  int samples, sample_bytes;
  gboolean i420;                /* three planes, chroma halved both ways */
  gboolean nv12;                /* a luma plane and a chroma-pair plane */
  int depth, shift;             /* nv12 of 16-bit words: P010, P016 */
  gboolean yuy2;                /* packed 4:2:2, Y U Y V */
  gboolean uyvy;                /* packed 4:2:2, U Y V Y */
} Format;

static gboolean
parse_format (const char *name, Format * f)
{
  f->format = name;
  f->i420 = f->nv12 = f->yuy2 = f->uyvy = FALSE;
  f->depth = 8;
  f->shift = 0;
  if (g_ascii_strcasecmp (name, "i420") == 0)
    f->samples = 1, f->sample_bytes = 1, f->i420 = TRUE;
  else if (g_ascii_strcasecmp (name, "nv12") == 0)
    f->samples = 1, f->sample_bytes = 1, f->nv12 = TRUE;
  else if (g_ascii_strcasecmp (name, "p010") == 0)
    f->samples = 1, f->sample_bytes = 2, f->nv12 = TRUE, f->depth = 10,
        f->shift = 6;
  else if (g_ascii_strcasecmp (name, "p016") == 0)
    f->samples = 1, f->sample_bytes = 2, f->nv12 = TRUE, f->depth = 16;
  else if (g_ascii_strcasecmp (name, "yuy2") == 0)
    f->samples = 1, f->sample_bytes = 1, f->yuy2 = TRUE;
  else if (g_ascii_strcasecmp (name, "uyvy") == 0)
    f->samples = 1, f->sample_bytes = 1, f->uyvy = TRUE;
  else if (g_ascii_strcasecmp (name, "rgba64") == 0)
    f->samples = 4, f->sample_bytes = 2;
  else if (g_ascii_strcasecmp (name, "rgb") == 0)
    f->samples = 3, f->sample_bytes = 1;
  else if (g_ascii_strcasecmp (name, "rgba") == 0)
    f->samples = 4, f->sample_bytes = 1;
  else if (g_ascii_strcasecmp (name, "gray8") == 0)
    f->samples = 1, f->sample_bytes = 1;
  else if (g_ascii_strcasecmp (name, "gray16") == 0)
    f->samples = 1, f->sample_bytes = 2;
  else
    return FALSE;
  return TRUE;
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* Medians of one synchronous backend frame, whole (regions NULL), the
 * regions into another frame, or in place (out == in): wall time (what a
 * frame waits for, launches and synchronisation included), GPU time (the
 * backend's events around its launches, on an idle GPU: the host's time
 * to queue the launches counts, about 5 us on the H200 host) and held GPU
 * time (the same events with the frame's stream held behind a copy until
 * everything is queued, as time_step and nvbench's blocking kernel do: the
 * GPU's own time), in us. */
typedef struct
{
  double wall, gpu, held;
} FrameTimes;

/* Holds a device frame's `wait_stream` behind a copy of HOLD_BYTES (about
 * 100 us on an H200), long enough for the backend to queue its launches
 * behind it. */
#define HOLD_BYTES ((size_t) 256 << 20)

typedef struct
{
  cudaStream_t stream;
  void *src, *dst;
} StreamHold;

static FrameTimes
time_backend (CfBackend * be, const CfSpec * spec, const CfLayout * layout,
    const CfFrame * in, const CfFrame * out, const CfRegions * regions,
    const StreamHold * hold)
{
  double *wall = g_new (double, opt_iterations);
  double *gpu = g_new (double, opt_iterations);
  double *held = g_new (double, opt_iterations);
  FrameTimes med = { -1.0, -1.0, -1.0 };
  CfFrame held_in = *in, held_out = *out;
  GError *error = NULL;

  held_in.wait_stream = held_out.wait_stream = hold->stream;
  for (int i = 0; i < opt_warmup + opt_iterations; i++) {
    gint64 start = g_get_monotonic_time ();
    CfBackendStats st;

    if (!cf_backend_process_regions (be, spec, layout, in, out, regions,
            &error))
      goto failed;
    if (i >= opt_warmup) {
      wall[i - opt_warmup] = (double) (g_get_monotonic_time () - start);
      cf_backend_get_stats (be, &st);
      gpu[i - opt_warmup] = st.last_kernel_us;
    }
    CHECK (cudaMemcpyAsync (hold->dst, hold->src, HOLD_BYTES,
            cudaMemcpyDeviceToDevice, hold->stream));
    if (!cf_backend_process_regions (be, spec, layout, &held_in,
            out == in ? &held_in : &held_out, regions, &error))
      goto failed;
    if (i >= opt_warmup) {
      cf_backend_get_stats (be, &st);
      held[i - opt_warmup] = st.last_kernel_us;
    }
  }
  qsort (wall, opt_iterations, sizeof (double), compare_doubles);
  qsort (gpu, opt_iterations, sizeof (double), compare_doubles);
  qsort (held, opt_iterations, sizeof (double), compare_doubles);
  med.wall = wall[opt_iterations / 2];
  med.gpu = gpu[opt_iterations / 2];
  med.held = held[opt_iterations / 2];
  goto done;
failed:
  fprintf (stderr, "cudafilter-bench: %s\n", error->message);
  g_clear_error (&error);
done:
  g_free (wall);
  g_free (gpu);
  g_free (held);
  return med;
}

/* --regions: what the regions cost on the device frames, beside the whole
 * frame, through the CUDA backend (launches, composite, synchronisation:
 * what the element pays per frame in CUDA memory). */
static void
time_regions (const CfSpec * spec, const CfLayout * layout,
    unsigned char *d_in, unsigned char *d_out, const size_t * plane_off,
    const size_t * plane_pitch, int width, int height)
{
  GError *error = NULL;
  CfBackend *be = cf_backend_new (CF_BACKEND_CUDA, opt_device, &error);
  CfFrame in, out;
  CfRegions r;
  FrameTimes whole, reg, inplace = { -1.0, -1.0, -1.0 };
  StreamHold hold;
  double pct;
  gint64 area = 0;

  if (be == NULL) {
    fprintf (stderr, "cudafilter-bench: %s\n", error->message);
    g_clear_error (&error);
    return;
  }
  memset (&in, 0, sizeof (in));
  memset (&out, 0, sizeof (out));
  for (int p = 0; p < layout->n_planes; p++) {
    in.data[p] = d_in + plane_off[p];
    out.data[p] = d_out + plane_off[p];
    in.stride[p] = out.stride[p] = (int) plane_pitch[p];
  }
  in.on_device = out.on_device = 1;
  cf_regions_init (&r);
  if (!cf_regions_parse (opt_regions, &r, &error)) {
    fprintf (stderr, "cudafilter-bench: --regions: %s\n", error->message);
    g_clear_error (&error);
    cf_backend_free (be);
    return;
  }
  cf_regions_fit (&r, 0, width, height);
  for (int i = 0; i < r.n_rects; i++)
    area += (gint64) r.rects[i].w * r.rects[i].h;
  pct = 100.0 * area / ((double) width * height);
  CHECK (cudaStreamCreateWithFlags (&hold.stream, cudaStreamNonBlocking));
  CHECK (cudaMalloc (&hold.src, HOLD_BYTES));
  CHECK (cudaMalloc (&hold.dst, HOLD_BYTES));
  CHECK (cudaMemset (hold.src, 0, HOLD_BYTES));
  whole = time_backend (be, spec, layout, &in, &out, NULL, &hold);
  reg = time_backend (be, spec, layout, &in, &out, &r, &hold);
  if (cf_backend_regions_in_place (be, spec, layout, &r))
    inplace = time_backend (be, spec, layout, &in, &in, &r, &hold);
  printf ("    backend, regions %.1f %% of the frame, GPU time: whole %.1f "
      "us, regions %.1f us (%.1f %%), in place %.1f us (%.1f %%)%s\n", pct,
      whole.gpu, reg.gpu, 100.0 * reg.gpu / whole.gpu, inplace.gpu,
      100.0 * inplace.gpu / whole.gpu,
      inplace.gpu < 0 ? " (not tiled: whole frame)" : "");
  printf ("    backend, GPU time with the stream held until queued: whole "
      "%.1f us, regions %.1f us (%.1f %%), in place %.1f us (%.1f %%)\n",
      whole.held, reg.held, 100.0 * reg.held / whole.held, inplace.held,
      100.0 * inplace.held / whole.held);
  printf ("    backend, wall time a frame (launches, synchronisation): whole "
      "%.1f us, regions %.1f us (%.1f %%), in place %.1f us (%.1f %%)\n",
      whole.wall, reg.wall, 100.0 * reg.wall / whole.wall, inplace.wall,
      100.0 * inplace.wall / whole.wall);
  printf ("csv-regions,%s,%d,%d,%.2f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,"
      "%.1f,%.1f\n", cf_backend_describe_plan (be), width, height, pct,
      whole.gpu, reg.gpu, inplace.gpu, whole.wall, reg.wall, inplace.wall,
      whole.held, reg.held, inplace.held);
  cudaStreamSynchronize (hold.stream);
  cudaFree (hold.src);
  cudaFree (hold.dst);
  cudaStreamDestroy (hold.stream);
  cf_regions_reset (&r);
  cf_backend_free (be);
}

static void
run_case (int filter, const Format * fmt, int width, int height,
    CfBorder border, char **methods, cudaStream_t stream)
{
  CfParams params;
  CfSpec *spec;
  CfLayout layout;
  GError *error = NULL;
  KernelStep ks;
  CopyStep d2d, h2d, d2h;
  Timing tk, tc, tu, td;
  size_t row_bytes, pitch, frame_bytes, dev_bytes;
  size_t plane_off[CF_MAX_PLANES], plane_pitch[CF_MAX_PLANES];
  unsigned char *d_in, *d_out, *h_pinned;
  int *d_dense = NULL;
  char *random = NULL;
  double moved;

  cf_params_init (&params);
  params.filter = filter;
  params.sigma = opt_sigma;
  params.kernel_size = opt_kernel_size;
  params.border = border;
  if (filter == CF_FILTER_CUSTOM && opt_kernel)
    params.kernel = opt_kernel;
  else if (filter == CF_FILTER_CUSTOM && opt_kernel_size > 0)
    params.kernel = random = random_kernel (opt_kernel_size);
  else if (filter == CF_FILTER_CUSTOM)
    params.kernel = "0 -1 0; -1 5 -1; 0 -1 0";
  spec = cf_spec_new (&params, fmt->sample_bytes, &error);
  g_free (random);
  if (spec == NULL) {
    fprintf (stderr, "cudafilter-bench: %s: %s\n", filter_names[filter],
        error->message);
    g_clear_error (&error);
    return;
  }

  if (fmt->i420 || fmt->nv12) {
    /* 4:2:0: the chroma in two planes (I420) or in pairs in one (NV12) */
    int cw = (width + 1) / 2, chh = (height + 1) / 2;
    int pairs = fmt->nv12 ? 2 : 1, sb = fmt->sample_bytes;

    memset (&layout, 0, sizeof (layout));
    layout.sample_bytes = sb;
    for (int c = 0; c < 3; c++) {
      /* P010's and P016's samples in 16-bit words */
      cf_layout_add_channel (&layout, CF_CHANNEL_FILTER, c == 0 ? 0 :
          fmt->nv12 ? 1 : c, c ? cw : width, c ? chh : height,
          c ? pairs * sb : sb, fmt->nv12 && c == 2 ? sb : 0, 0);
      if (sb == 2)
        cf_layout_set_encoding (&layout, 2, fmt->depth, fmt->shift, FALSE);
    }
  } else if (fmt->yuy2 || fmt->uyvy) {
    /* even widths: no spare luma; luma first (YUY2) or second (UYVY) */
    const int y = fmt->uyvy ? 1 : 0, u = fmt->uyvy ? 0 : 1;

    memset (&layout, 0, sizeof (layout));
    layout.sample_bytes = 1;
    cf_layout_add_channel (&layout, CF_CHANNEL_FILTER, 0, width, height, 2,
        y, 0);
    for (int c = 0; c < 2; c++)
      cf_layout_add_channel (&layout, CF_CHANNEL_FILTER, 0, width / 2,
          height, 4, u + 2 * c, 0);
  } else {
    cf_layout_init_interleaved (&layout, width, height, fmt->samples,
        fmt->sample_bytes, fmt->samples >= 3 ? 0x7 : 0x1);
  }
  /* Planes one after another in one buffer, each row padded to PITCH_ALIGN. */
  frame_bytes = dev_bytes = 0;
  for (int p = 0; p < layout.n_planes; p++) {
    row_bytes = layout.plane_row_bytes[p];
    pitch = (row_bytes + PITCH_ALIGN - 1) & ~(size_t) (PITCH_ALIGN - 1);
    plane_off[p] = dev_bytes;
    plane_pitch[p] = pitch;
    frame_bytes += row_bytes * layout.plane_height[p];
    dev_bytes += pitch * layout.plane_height[p];
  }

  CHECK (cudaMalloc ((void **) &d_in, dev_bytes));
  CHECK (cudaMalloc ((void **) &d_out, dev_bytes));
  CHECK (cudaMallocHost ((void **) &h_pinned, dev_bytes));
  {
    GRand *rand = g_rand_new_with_seed (42);
    for (size_t i = 0; i < dev_bytes; i++)
      h_pinned[i] = (unsigned char) g_rand_int (rand);
    g_rand_free (rand);
  }
  CHECK (cudaMemcpyAsync (d_in, h_pinned, dev_bytes, cudaMemcpyHostToDevice,
          stream));
  {
    gsize bytes;
    const void *weights = cf_spec_device_weights (spec, &bytes);

    if (bytes > 0) {
      CHECK (cudaMalloc ((void **) &d_dense, bytes));
      CHECK (cudaMemcpyAsync (d_dense, weights, bytes,
              cudaMemcpyHostToDevice, stream));
    }
  }
  CHECK (cudaStreamSynchronize (stream));

  memset (&ks, 0, sizeof (ks));
  for (int p = 0; p < layout.n_planes; p++) {
    ks.frame.src[p] = d_in + plane_off[p];
    ks.frame.dst[p] = d_out + plane_off[p];
    ks.frame.src_stride[p] = ks.frame.dst_stride[p] =
        (long long) plane_pitch[p];
  }
  ks.frame.n_channels = layout.n_channels;
  memcpy (ks.frame.channels, layout.channels,
      sizeof (CfChannel) * layout.n_channels);
  ks.spec = spec;
  ks.d_dense = d_dense;
  if (spec->kp.operation == CF_OPERATION_CONVOLVE) {
    ks.plan_err = cf_launch_plan_new (ks.frame.channels, ks.frame.n_channels,
        &spec->kp, &spec->sep, &ks.plan);
  } else if (spec->kp.operation == CF_OPERATION_PIXELATE) {
    /* Blocks from the frame's corner, chroma's over its subsampling. */
    for (int c = 0; c < layout.n_channels; c++) {
      const CfChannel *ch = &layout.channels[c];

      ks.pixelate.rect[c].w = ch->width;
      ks.pixelate.rect[c].h = ch->height;
      ks.pixelate.bx[c] = MAX (1, spec->kp.block * ch->width / width);
      ks.pixelate.by[c] = MAX (1, spec->kp.block * ch->height / height);
    }
  } else {
    size_t bytes = cf_nonlin_scratch_bytes (&ks.frame, &spec->nl);

    cf_layout_colour_groups (&layout, ks.groups);
    if (bytes > 0)
      CHECK (cudaMalloc ((void **) &ks.d_scratch, bytes));
  }
#ifdef HAVE_CUFFT
  ks.fft = cf_fft_new ();
#endif

  d2d = (CopyStep) {
  d_out, d_in, dev_bytes, cudaMemcpyDeviceToDevice};
  h2d = (CopyStep) {
  d_in, h_pinned, dev_bytes, cudaMemcpyHostToDevice};
  d2h = (CopyStep) {
  h_pinned, d_out, dev_bytes, cudaMemcpyDeviceToHost};

  tc = time_step (copy_step, &d2d, stream);
  tu = time_step (copy_step, &h2d, stream);
  td = time_step (copy_step, &d2h, stream);
  moved = 2.0 * frame_bytes;

  for (char **m = methods; *m; m++) {
    CfConvMethod method;
    const char *why = NULL, *ran;
    StepFunc step;
    CfFftTiles tiles = { 0 };
    double gbps;

    cf_conv_method_parse (*m, &method);
    step = method_step (method, &ks, &why);
    if (step == NULL) {
      printf ("%-10s %-6s %5dx%-5d %2dx%-2d %-3s %-6s   skipped: %s\n",
          filter_names[filter], fmt->format, width, height, spec->kp.kw,
          spec->kp.kh, spec->kp.separable ? "sep" : "2d", *m, why);
      continue;
    }
    ran = step == kernel_step ? "direct" : "fft";
#ifdef HAVE_CUFFT
    if (step == fft_step) {
      CfFftGeometry geom;

      cf_fft_decide (method, spec, ks.frame.channels, ks.frame.n_channels,
          &geom);
      tiles = geom.tiles;
    }
#endif
    tk = time_step (step, &ks, stream);
    gbps = moved / (tk.median * 1e-6) / 1e9;
    printf ("%-10s %-6s %5dx%-5d %2dx%-2d %-3s %-6s %9.1f %9.1f %9.1f %8.0f "
        "%8.1f %6.2fx %8.1f %8.1f\n", filter_names[filter], fmt->format,
        width, height, spec->kp.kw, spec->kp.kh,
        spec->kp.separable ? "sep" : "2d", ran, tk.median, tk.min, tk.max,
        gbps, tc.median, tk.median / tc.median, tu.median, td.median);
    if (tiles.n_tiles > 0)
      printf ("    fft: %d tiles of %dx%d\n", tiles.n_tiles, tiles.fft_w,
          tiles.fft_h);
    else if (ks.plan != NULL)
      printf ("    plan: %s\n", cf_launch_plan_name (ks.plan));
    else
      printf ("    plan: nonlinear, %d pass(es)\n", spec->nl.n_passes);
    printf ("csv,%s,%s,%d,%d,%d,%d,%d,%s,%.2f,%.2f,%.2f,%.1f,%.2f,%.3f,%.2f,"
        "%.2f,%s,%d,%d,%d\n", filter_names[filter], fmt->format, width,
        height, spec->kp.kw, spec->kp.kh, spec->kp.separable,
        border_names[border], tk.median, tk.min, tk.max, gbps, tc.median,
        tk.median / tc.median, tu.median, td.median, ran, tiles.fft_w,
        tiles.fft_h, tiles.n_tiles);
    fflush (stdout);
  }

  if (opt_regions) {
    CHECK (cudaStreamSynchronize (stream));
    time_regions (spec, &layout, d_in, d_out, plane_off, plane_pitch, width,
        height);
  }
#ifdef HAVE_CUFFT
  CHECK (cudaStreamSynchronize (stream));
  cf_fft_free (ks.fft);
#endif
  CHECK (cudaStreamSynchronize (stream));
  cf_launch_plan_free (ks.plan);
  cudaFree (ks.d_scratch);
  cudaFree (d_dense);
  cudaFreeHost (h_pinned);
  cudaFree (d_out);
  cudaFree (d_in);
  cf_spec_free (spec);
}

/* A progress bar on stderr when it is a terminal, so long runs show where
 * they are without disturbing the table or the CSV on stdout. */
static void
progress (guint done, guint total, const char *filter, const char *format)
{
  const int width = 30;
  int filled = total ? (int) (width * done / total) : width;

  if (!isatty (STDERR_FILENO))
    return;
  fprintf (stderr, "\r[%.*s%*s] %u/%u %-10s %-6s", filled,
      "##############################", width - filled, "", done, total,
      filter ? filter : "", format ? format : "");
  if (done == total)
    fprintf (stderr, "\n");
  fflush (stderr);
}

int
main (int argc, char **argv)
{
  guint total_cases, done_cases = 0;
  GOptionContext *ctx;
  GError *error = NULL;
  struct cudaDeviceProp prop;
  cudaStream_t stream;
  char **filters, **formats, **methods;
  int width, height, border, n_devices = 0;
  char x;

  ctx = g_option_context_new ("- time cudafilter's kernels against copies");
  g_option_context_set_summary (ctx,
      "Times the filter kernel on device buffers (CUDA events, median of "
      "--iterations after a warm-up) and, in the same run, a device-to-device "
      "copy of the frame and pinned host<->device copies.  Effective GB/s "
      "counts the frame read once and written once.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error)) {
    fprintf (stderr, "cudafilter-bench: %s\n", error->message);
    return 2;
  }
  g_option_context_free (ctx);

  if (sscanf (opt_size, "%dx%d%c", &width, &height, &x) != 2 || width < 1
      || height < 1) {
    fprintf (stderr, "cudafilter-bench: --size wants WIDTHxHEIGHT, "
        "e.g. 3840x2160, not \"%s\"\n", opt_size);
    return 2;
  }
  border = lookup (opt_border, border_names, G_N_ELEMENTS (border_names));
  if (border < 0) {
    fprintf (stderr, "cudafilter-bench: unknown --border \"%s\"\n",
        opt_border);
    return 2;
  }
  if (opt_iterations < 1 || opt_warmup < 0) {
    fprintf (stderr, "cudafilter-bench: --iterations must be >= 1\n");
    return 2;
  }

  if (cudaGetDeviceCount (&n_devices) != cudaSuccess || n_devices == 0) {
    fprintf (stderr, "cudafilter-bench: no CUDA device\n");
    return 1;
  }
  if (opt_device < 0 || opt_device >= n_devices) {
    fprintf (stderr, "cudafilter-bench: --device %d, but %d device(s) "
        "present\n", opt_device, n_devices);
    return 2;
  }
  CHECK (cudaSetDevice (opt_device));
  CHECK (cudaGetDeviceProperties (&prop, opt_device));
  printf ("device %d: %s (sm_%d%d, %d SMs, %.1f GiB)\n", opt_device,
      prop.name, prop.major, prop.minor, prop.multiProcessorCount,
      prop.totalGlobalMem / (1024.0 * 1024.0 * 1024.0));
  printf ("%d iterations after %d warm-up, border %s; times in us "
      "(median, min, max); ratio = kernel / D2D copy\n\n",
      opt_iterations, opt_warmup, border_names[border]);
  CHECK (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));

  printf ("%-10s %-6s %11s %5s %-3s %-6s %9s %9s %9s %8s %8s %7s %8s %8s\n",
      "filter", "format", "size", "taps", "", "method", "kernel", "min",
      "max", "GB/s", "D2D", "ratio", "H2D", "D2H");
  printf ("csv,filter,format,width,height,kw,kh,separable,border,"
      "kernel_us,kernel_min_us,kernel_max_us,kernel_gbps,d2d_us,"
      "ratio_to_d2d,h2d_pinned_us,d2h_pinned_us,method,fft_w,fft_h,"
      "fft_tiles\n");

  filters = g_strsplit (opt_filters, ",", -1);
  formats = g_strsplit (opt_formats, ",", -1);
  methods = g_strsplit (opt_methods, ",", -1);
  for (char **m = methods; *m; m++) {
    CfConvMethod method;

    if (!cf_conv_method_parse (g_strstrip (*m), &method) || **m == '\0') {
      fprintf (stderr, "cudafilter-bench: unknown method \"%s\" (auto, "
          "direct, fft)\n", *m);
      return 2;
    }
  }
  total_cases = g_strv_length (filters) * g_strv_length (formats);
  for (char **f = filters; *f; f++) {
    int filter = lookup (g_strstrip (*f), filter_names,
        G_N_ELEMENTS (filter_names));
    if (filter < 0) {
      fprintf (stderr, "cudafilter-bench: unknown filter \"%s\"\n", *f);
      return 2;
    }
    for (char **fm = formats; *fm; fm++) {
      Format fmt;
      if (!parse_format (g_strstrip (*fm), &fmt)) {
        fprintf (stderr, "cudafilter-bench: unknown format \"%s\" "
            "(rgba, rgb, gray8, gray16, rgba64, i420, nv12, p010, p016, "
            "yuy2, uyvy)\n", *fm);
        return 2;
      }
      progress (done_cases, total_cases, *f, *fm);
      run_case (filter, &fmt, width, height, border, methods, stream);
      progress (++done_cases, total_cases, NULL, NULL);
    }
  }
  g_strfreev (filters);
  g_strfreev (formats);
  g_strfreev (methods);
  cudaStreamDestroy (stream);
  return 0;
}
