/* cudafilter-npp-bench: cudafilter's kernels beside NVIDIA NPP's filters on
 * the same frames, with the device-to-device copy of each frame (the floor
 * for any filter), all in one run: CUDA events around every iteration, the
 * median of --iterations after a warm-up, one stream.
 *
 * NPP's peer of each case: nppiFilterBoxBorder (box), nppiFilterLaplaceBorder
 * (its 3x3 mask beside our 3x3 Laplacian), nppiFilterBorder with the same
 * integer matrix (custom), nppiFilterGaussAdvancedBorder with our Gaussian's
 * taps and nppiFilterGaussBorder with its fixed 13x13 mask (gaussian),
 * nppiFilterSobelVertBorder / HorizBorder (sobel-x / sobel-y),
 * nppiFilterMedian (median; NPP has no border variant: it reads inside a
 * margin of k / 2, a slightly smaller frame), nppiErodeBorder /
 * nppiDilateBorder with a full k x k mask (erode, dilate) and
 * nppiFilterBilateralGaussBorder (bilateral, C1 and C3 only); 8u and 16u,
 * C1, C3 and C4 (the faster of NPP's C4 and AC4, which keeps alpha as
 * cudafilter does), replicate borders on both sides.  NV12 and P010 have no
 * NPP peer (NPP has no semi-planar filters): their rows show cudafilter
 * against the copy only.  A check column gives the largest difference of
 * the two outputs away from the borders, so a row compares like with like
 * (rounding differs: NPP divides integers, OpenCV's Laplacian mask differs
 * from NPP's).
 *
 *   cudafilter-npp-bench [--size 3840x2160,1920x1080] [--format LIST]
 *       [--iterations 50]
 *
 * Prints a table and one "csv," line per case. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <cuda_runtime_api.h>
#include <nppcore.h>
#include <nppi.h>

#include "cf-spec.h"
#include "cf-layout.h"
#include "cf-launch.h"
#include "cf-nonlin-launch.h"

#define PITCH_ALIGN 256

static char *opt_sizes = (char *) "3840x2160,1920x1080";
static char *opt_formats =
    (char *) "gray8,rgb,rgba,gray16,rgba16,nv12,p010";
static char *opt_cases = NULL;
static int opt_iterations = 50;
static int opt_warmup = 10;

static GOptionEntry entries[] = {
  {"size", 'S', 0, G_OPTION_ARG_STRING, &opt_sizes,
      "Comma-separated frame sizes (default 3840x2160,1920x1080)", "LIST"},
  {"format", 'F', 0, G_OPTION_ARG_STRING, &opt_formats,
      "Comma-separated formats: gray8, rgb, rgba, gray16, rgba16, nv12, p010 "
        "(default all)", "LIST"},
  {"case", 'c', 0, G_OPTION_ARG_STRING, &opt_cases,
      "Comma-separated cases (default all): box-3, box-5, box-7, "
        "gaussian-5, gaussian-13, gaussian-13-mask, laplacian-3, custom-3x3, "
        "custom-5x5, sobel-x, sobel-y, median-3, median-5, median-15, "
        "erode-3, dilate-3, erode-15, bilateral-9", "LIST"},
  {"iterations", 'n', 0, G_OPTION_ARG_INT, &opt_iterations,
      "Timed iterations per measurement (default 50)", "N"},
  {"warmup", 'w', 0, G_OPTION_ARG_INT, &opt_warmup,
      "Untimed iterations first (default 10)", "N"},
  {NULL}
};

#define CHECK(call) do { \
    cudaError_t err_ = (call); \
    if (err_ != cudaSuccess) { \
      fprintf (stderr, "cudafilter-npp-bench: %s failed: %s\n", #call, \
          cudaGetErrorString (err_)); \
      exit (1); \
    } \
  } while (0)

/* ---------------------------------------------------------------------- */
/* Frames */

typedef struct
{
  const char *name;
  int samples, depth;           /* samples a pixel in plane 0, bits */
  int semi_planar;              /* NV12 / P010: a chroma-pair plane */
} Format;

static const Format formats[] = {
  {"gray8", 1, 8}, {"rgb", 3, 8}, {"rgba", 4, 8}, {"gray16", 1, 16},
  {"rgba16", 4, 16}, {"nv12", 1, 8, 1}, {"p010", 1, 10, 1},
};

typedef struct
{
  const Format *fmt;
  int width, height;
  CfLayout layout;
  unsigned char *d_in, *d_out, *d_npp;
  size_t bytes, pitch[CF_MAX_PLANES], offset[CF_MAX_PLANES];
  CfDeviceFrame frame;
} Frame;

static void
make_layout (const Format * f, int w, int h, CfLayout * l)
{
  int cw = (w + 1) / 2, chh = (h + 1) / 2;

  if (!f->semi_planar) {
    cf_layout_init_interleaved (l, w, h, f->samples, f->depth / 8,
        (1u << MIN (f->samples, 3)) - 1);
    return;
  }
  memset (l, 0, sizeof (*l));
  l->sample_bytes = f->depth > 8 ? 2 : 1;
  l->depth = f->depth;
  for (int c = 0; c < 3; c++) {
    int bytes = l->sample_bytes;

    if (c == 0)
      cf_layout_add_channel (l, CF_CHANNEL_FILTER, 0, w, h, bytes, 0, 0);
    else
      cf_layout_add_channel (l, CF_CHANNEL_FILTER, 1, cw, chh, 2 * bytes,
          (c - 1) * bytes, 0);
    if (f->depth == 10)
      cf_layout_set_encoding (l, 2, 10, 6, FALSE);
  }
}

static void
frame_init (Frame * fr, const Format * f, int w, int h)
{
  unsigned char *host;

  memset (fr, 0, sizeof (*fr));
  fr->fmt = f;
  fr->width = w;
  fr->height = h;
  make_layout (f, w, h, &fr->layout);
  for (int p = 0; p < fr->layout.n_planes; p++) {
    fr->pitch[p] = ((size_t) fr->layout.plane_row_bytes[p] + PITCH_ALIGN -
        1) & ~(size_t) (PITCH_ALIGN - 1);
    fr->offset[p] = fr->bytes;
    fr->bytes += fr->pitch[p] * fr->layout.plane_height[p];
  }
  CHECK (cudaMalloc ((void **) &fr->d_in, fr->bytes));
  CHECK (cudaMalloc ((void **) &fr->d_out, fr->bytes));
  CHECK (cudaMalloc ((void **) &fr->d_npp, fr->bytes));
  host = g_malloc (fr->bytes);
  {
    GRand *rand = g_rand_new_with_seed (42);
    for (size_t i = 0; i < fr->bytes; i++)
      host[i] = (unsigned char) g_rand_int (rand);
    g_rand_free (rand);
  }
  /* 16-bit frames: values over the whole range, as a 16-bit camera gives;
   * P010: 10-bit values in the high bits. */
  if (f->depth == 10)
    for (size_t i = 0; i + 1 < fr->bytes; i += 2)
      host[i] &= 0xC0;
  CHECK (cudaMemcpy (fr->d_in, host, fr->bytes, cudaMemcpyHostToDevice));
  g_free (host);

  for (int p = 0; p < fr->layout.n_planes; p++) {
    fr->frame.src[p] = fr->d_in + fr->offset[p];
    fr->frame.dst[p] = fr->d_out + fr->offset[p];
    fr->frame.src_stride[p] = fr->frame.dst_stride[p] =
        (long long) fr->pitch[p];
  }
  fr->frame.n_channels = fr->layout.n_channels;
  memcpy (fr->frame.channels, fr->layout.channels,
      sizeof (CfChannel) * fr->layout.n_channels);
}

static void
frame_clear (Frame * fr)
{
  cudaFree (fr->d_in);
  cudaFree (fr->d_out);
  cudaFree (fr->d_npp);
}

/* ---------------------------------------------------------------------- */
/* Timing */

typedef void (*StepFunc) (gpointer data, cudaStream_t stream);

static double
time_step (StepFunc step, gpointer data, cudaStream_t stream)
{
  int n = opt_iterations;
  cudaEvent_t *ev = g_new (cudaEvent_t, n + 1);
  float *ms = g_new (float, n);
  double median;

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
  for (int i = 1; i < n; i++)   /* insertion sort: n is small */
    for (int j = i; j > 0 && ms[j - 1] > ms[j]; j--) {
      float t = ms[j];
      ms[j] = ms[j - 1];
      ms[j - 1] = t;
    }
  median = (n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2])) * 1000.0;
  for (int i = 0; i <= n; i++)
    cudaEventDestroy (ev[i]);
  g_free (ev);
  g_free (ms);
  return median;
}

typedef struct
{
  void *dst;
  const void *src;
  size_t bytes;
} CopyStep;

static void
copy_step (gpointer data, cudaStream_t stream)
{
  CopyStep *c = data;

  CHECK (cudaMemcpyAsync (c->dst, c->src, c->bytes,
          cudaMemcpyDeviceToDevice, stream));
}

/* The plan is made once, as the CUDA backend makes it when the spec or
 * the layout changes: a frame pays only for its launch. */
typedef struct
{
  const CfDeviceFrame *frame;
  CfLaunchPlan *plan;
  const int *d_dense;
  /* The nonlinear operations instead: spec, scratch, colour groups. */
  const CfSpec *spec;
  unsigned short *d_scratch;
  int groups[CF_MAX_CHANNELS][3];
} KernelStep;

static void
kernel_step (gpointer data, cudaStream_t stream)
{
  KernelStep *k = data;

  if (k->plan == NULL) {
    CHECK (cf_nonlin_run (k->frame, &k->spec->kp, &k->spec->nl, k->d_dense,
            (const int (*)[3]) k->groups, k->d_scratch, stream));
    return;
  }
  CHECK (cf_launch_plan_run (k->plan, k->frame, k->d_dense, stream));
}

/* ---------------------------------------------------------------------- */
/* Cases and their NPP peers */

typedef enum
{
  NPP_BOX, NPP_LAPLACE, NPP_MATRIX, NPP_GAUSS_ADV, NPP_GAUSS_MASK,
  NPP_SOBEL_VERT, NPP_SOBEL_HORIZ,
  /* The nonlinear peers: median (no border variant: an inner ROI),
   * erosion and dilation with a mask, the bilateral Gauss filter. */
  NPP_MEDIAN, NPP_ERODE, NPP_DILATE, NPP_BILATERAL
} NppKind;

typedef struct
{
  const char *name;
  CfFilter filter;
  double sigma;
  int kernel_size;
  const char *kernel;           /* custom: integers */
  NppKind npp;
} Case;

static const Case cases[] = {
  {"box-3", CF_FILTER_BOX, 0, 3, NULL, NPP_BOX},
  {"box-5", CF_FILTER_BOX, 0, 5, NULL, NPP_BOX},
  {"box-7", CF_FILTER_BOX, 0, 7, NULL, NPP_BOX},
  {"gaussian-5", CF_FILTER_GAUSSIAN, 1.0, 5, NULL, NPP_GAUSS_ADV},
  {"gaussian-13", CF_FILTER_GAUSSIAN, 2.0, 13, NULL, NPP_GAUSS_ADV},
  {"gaussian-13-mask", CF_FILTER_GAUSSIAN, 2.0, 13, NULL, NPP_GAUSS_MASK},
  {"laplacian-3", CF_FILTER_LAPLACIAN, 0, 3, NULL, NPP_LAPLACE},
  {"custom-3x3", CF_FILTER_CUSTOM, 0, 0, "0 -1 0; -1 5 -1; 0 -1 0",
      NPP_MATRIX},
  {"custom-5x5", CF_FILTER_CUSTOM, 0, 0, "1 2 0 -1 3; 4 -2 7 1 0; "
        "2 2 9 2 2; 0 1 -3 5 1; 3 -1 0 2 1", NPP_MATRIX},
  {"sobel-x", CF_FILTER_SOBEL_X, 0, 3, NULL, NPP_SOBEL_VERT},
  {"sobel-y", CF_FILTER_SOBEL_Y, 0, 3, NULL, NPP_SOBEL_HORIZ},
  {"median-3", CF_FILTER_MEDIAN, 0, 3, NULL, NPP_MEDIAN},
  {"median-5", CF_FILTER_MEDIAN, 0, 5, NULL, NPP_MEDIAN},
  {"median-15", CF_FILTER_MEDIAN, 0, 15, NULL, NPP_MEDIAN},
  {"erode-3", CF_FILTER_ERODE, 0, 3, NULL, NPP_ERODE},
  {"dilate-3", CF_FILTER_DILATE, 0, 3, NULL, NPP_DILATE},
  {"erode-15", CF_FILTER_ERODE, 0, 15, NULL, NPP_ERODE},
  {"bilateral-9", CF_FILTER_BILATERAL, 3.0, 9, NULL, NPP_BILATERAL},
};

typedef struct
{
  const Frame *fr;
  const Case *c;
  NppStreamContext ctx;
  int alpha_kept;               /* AC4 instead of C4 */
  Npp32s *d_matrix;             /* NPP_MATRIX: the kernel, flipped */
  NppiSize matrix_size;
  Npp32s divisor;
  Npp32f *d_taps;               /* NPP_GAUSS_ADV */
  int n_taps;
  Npp8u *d_mask;                /* NPP_ERODE, NPP_DILATE: all ones */
  Npp8u *d_buffer;              /* NPP_MEDIAN's scratch */
  NppStatus status;
} NppStep;

/* One NPP call for the frame's plane 0: the function for the case, type
 * (8u, 16u) and channel count. */
#define NPP_ARGS_SRC(T) (const T *) s->fr->d_in, (int) s->fr->pitch[0], size, \
    zero, (T *) s->fr->d_npp, (int) s->fr->pitch[0], size
#define NPP_PICK(fn, T, ...) \
  (ch == 1 ? fn##_C1R_Ctx (NPP_ARGS_SRC (T), __VA_ARGS__, s->ctx) : \
   ch == 3 ? fn##_C3R_Ctx (NPP_ARGS_SRC (T), __VA_ARGS__, s->ctx) : \
   s->alpha_kept ? fn##_AC4R_Ctx (NPP_ARGS_SRC (T), __VA_ARGS__, s->ctx) : \
   fn##_C4R_Ctx (NPP_ARGS_SRC (T), __VA_ARGS__, s->ctx))

/* The nonlinear peers, whose calls take other arguments. */
#define NPP_BORDER_ARGS(T) (const T *) s->fr->d_in, (int) s->fr->pitch[0], \
    size, zero, (T *) s->fr->d_npp, (int) s->fr->pitch[0], size
#define NPP_PICK_BORDER(fn, T, ...) \
  (ch == 1 ? fn##_C1R_Ctx (NPP_BORDER_ARGS (T), __VA_ARGS__, s->ctx) : \
   ch == 3 ? fn##_C3R_Ctx (NPP_BORDER_ARGS (T), __VA_ARGS__, s->ctx) : \
   s->alpha_kept ? fn##_AC4R_Ctx (NPP_BORDER_ARGS (T), __VA_ARGS__, s->ctx) : \
   fn##_C4R_Ctx (NPP_BORDER_ARGS (T), __VA_ARGS__, s->ctx))

static NppStatus
npp_nonlinear_call (NppStep * s)
{
  const NppiSize size = { s->fr->width, s->fr->height };
  const NppiPoint zero = { 0, 0 };
  const NppiBorderType rep = NPP_BORDER_REPLICATE;
  const int ch = s->fr->fmt->samples;
  const int k = s->c->kernel_size;
  const NppiSize mask = { k, k };
  const NppiPoint anchor = { k / 2, k / 2 };
  const int deep = s->fr->fmt->depth > 8;

  switch (s->c->npp) {
    case NPP_MEDIAN:{
      /* No border: the frame less a k / 2 margin, read inside it. */
      const NppiSize inner = { size.width - (k - 1), size.height - (k - 1) };
      size_t off = (size_t) (k / 2) * s->fr->pitch[0] +
          (size_t) (k / 2) * ch * (deep ? 2 : 1);
      const Npp8u *src = s->fr->d_in + off;
      Npp8u *dst = s->fr->d_npp + off;
      int step = (int) s->fr->pitch[0];

      if (inner.width < 1 || inner.height < 1)
        return NPP_SIZE_ERROR;
      if (deep)
        return ch == 1 ? nppiFilterMedian_16u_C1R_Ctx ((const Npp16u *) src,
            step, (Npp16u *) dst, step, inner, mask, anchor, s->d_buffer,
            s->ctx) : ch == 3 ? nppiFilterMedian_16u_C3R_Ctx ((const Npp16u *)
            src, step, (Npp16u *) dst, step, inner, mask, anchor, s->d_buffer,
            s->ctx) : s->alpha_kept ? nppiFilterMedian_16u_AC4R_Ctx ((const
                Npp16u *) src, step, (Npp16u *) dst, step, inner, mask,
            anchor, s->d_buffer, s->ctx) : nppiFilterMedian_16u_C4R_Ctx ((const
                Npp16u *) src, step, (Npp16u *) dst, step, inner, mask,
            anchor, s->d_buffer, s->ctx);
      return ch == 1 ? nppiFilterMedian_8u_C1R_Ctx (src, step, dst, step,
          inner, mask, anchor, s->d_buffer, s->ctx) : ch == 3 ?
          nppiFilterMedian_8u_C3R_Ctx (src, step, dst, step, inner, mask,
          anchor, s->d_buffer, s->ctx) : s->alpha_kept ?
          nppiFilterMedian_8u_AC4R_Ctx (src, step, dst, step, inner, mask,
          anchor, s->d_buffer, s->ctx) : nppiFilterMedian_8u_C4R_Ctx (src,
          step, dst, step, inner, mask, anchor, s->d_buffer, s->ctx);
    }
    case NPP_ERODE:
      return deep ? NPP_PICK_BORDER (nppiErodeBorder_16u, Npp16u, s->d_mask,
          mask, anchor, rep) : NPP_PICK_BORDER (nppiErodeBorder_8u, Npp8u,
          s->d_mask, mask, anchor, rep);
    case NPP_DILATE:
      return deep ? NPP_PICK_BORDER (nppiDilateBorder_16u, Npp16u, s->d_mask,
          mask, anchor, rep) : NPP_PICK_BORDER (nppiDilateBorder_8u, Npp8u,
          s->d_mask, mask, anchor, rep);
    case NPP_BILATERAL:{
      /* OpenCV's (and our) sigma-color for 8 bits: 30, scaled. */
      const Npp32f sc = (Npp32f) (CF_SIGMA_COLOR_8BIT *
          ((1 << s->fr->fmt->depth) - 1) / 255.0);
      const Npp32f ss = (Npp32f) s->c->sigma;

      if (ch == 4)              /* NPP has no four-channel bilateral */
        return NPP_NOT_SUPPORTED_MODE_ERROR;
      if (deep)
        return ch == 1 ? nppiFilterBilateralGaussBorder_16u_C1R_Ctx
            (NPP_BORDER_ARGS (Npp16u), k / 2, 1, sc * sc, ss * ss, rep,
            s->ctx) : nppiFilterBilateralGaussBorder_16u_C3R_Ctx
            (NPP_BORDER_ARGS (Npp16u), k / 2, 1, sc * sc, ss * ss, rep,
            s->ctx);
      return ch == 1 ? nppiFilterBilateralGaussBorder_8u_C1R_Ctx
          (NPP_BORDER_ARGS (Npp8u), k / 2, 1, sc * sc, ss * ss, rep, s->ctx) :
          nppiFilterBilateralGaussBorder_8u_C3R_Ctx (NPP_BORDER_ARGS (Npp8u),
          k / 2, 1, sc * sc, ss * ss, rep, s->ctx);
    }
    default:
      return NPP_NOT_SUPPORTED_MODE_ERROR;
  }
}

/* Scratch and masks the nonlinear peers need. */
static void
npp_nonlinear_setup (NppStep * s)
{
  const int k = s->c->kernel_size;
  const NppiSize mask = { k, k };
  const NppiSize inner = { MAX (s->fr->width - (k - 1), 1),
    MAX (s->fr->height - (k - 1), 1)
  };
  const int ch = s->fr->fmt->samples, deep = s->fr->fmt->depth > 8;
  Npp32u bytes = 0;

  if (s->c->npp == NPP_ERODE || s->c->npp == NPP_DILATE) {
    Npp8u *ones = g_malloc (k * k);

    memset (ones, 1, k * k);
    CHECK (cudaMalloc ((void **) &s->d_mask, k * k));
    CHECK (cudaMemcpy (s->d_mask, ones, k * k, cudaMemcpyHostToDevice));
    g_free (ones);
  }
  if (s->c->npp != NPP_MEDIAN)
    return;
  if (deep)
    (ch == 1 ? nppiFilterMedianGetBufferSize_16u_C1R_Ctx : ch == 3 ?
        nppiFilterMedianGetBufferSize_16u_C3R_Ctx :
        nppiFilterMedianGetBufferSize_16u_C4R_Ctx) (inner, mask, &bytes,
        s->ctx);
  else
    (ch == 1 ? nppiFilterMedianGetBufferSize_8u_C1R_Ctx : ch == 3 ?
        nppiFilterMedianGetBufferSize_8u_C3R_Ctx :
        nppiFilterMedianGetBufferSize_8u_C4R_Ctx) (inner, mask, &bytes,
        s->ctx);
  CHECK (cudaMalloc ((void **) &s->d_buffer, MAX (bytes, 1)));
}

static NppStatus
npp_call (NppStep * s)
{
  const NppiSize size = { s->fr->width, s->fr->height };
  const NppiPoint zero = { 0, 0 };
  const NppiBorderType rep = NPP_BORDER_REPLICATE;
  const int ch = s->fr->fmt->samples;
  const int k = s->c->kernel_size;
  const NppiSize mask = { k, k };
  const NppiPoint anchor = { k / 2, k / 2 };
  const int deep = s->fr->fmt->depth > 8;

  switch (s->c->npp) {
    case NPP_BOX:
      return deep ? NPP_PICK (nppiFilterBoxBorder_16u, Npp16u, mask, anchor,
          rep) : NPP_PICK (nppiFilterBoxBorder_8u, Npp8u, mask, anchor, rep);
    case NPP_MATRIX:{
      const NppiPoint a = { s->matrix_size.width / 2,
        s->matrix_size.height / 2
      };
      return deep ? NPP_PICK (nppiFilterBorder_16u, Npp16u, s->d_matrix,
          s->matrix_size, a, s->divisor, rep) :
          NPP_PICK (nppiFilterBorder_8u, Npp8u, s->d_matrix, s->matrix_size,
          a, s->divisor, rep);
    }
    case NPP_GAUSS_ADV:
      return deep ? NPP_PICK (nppiFilterGaussAdvancedBorder_16u, Npp16u,
          s->n_taps, s->d_taps, rep) :
          NPP_PICK (nppiFilterGaussAdvancedBorder_8u, Npp8u, s->n_taps,
          s->d_taps, rep);
    case NPP_GAUSS_MASK:
      return deep ? NPP_PICK (nppiFilterGaussBorder_16u, Npp16u,
          NPP_MASK_SIZE_13_X_13, rep) :
          NPP_PICK (nppiFilterGaussBorder_8u, Npp8u, NPP_MASK_SIZE_13_X_13,
          rep);
    case NPP_LAPLACE:
      /* 8u only (NPP has 16s, not 16u) */
      return deep ? NPP_NOT_SUPPORTED_MODE_ERROR :
          NPP_PICK (nppiFilterLaplaceBorder_8u, Npp8u, NPP_MASK_SIZE_3_X_3,
          rep);
    case NPP_SOBEL_VERT:
      return deep ? NPP_NOT_SUPPORTED_MODE_ERROR :
          NPP_PICK (nppiFilterSobelVertBorder_8u, Npp8u, rep);
    case NPP_SOBEL_HORIZ:
      return deep ? NPP_NOT_SUPPORTED_MODE_ERROR :
          NPP_PICK (nppiFilterSobelHorizBorder_8u, Npp8u, rep);
    default:
      return npp_nonlinear_call (s);
  }
  return NPP_NOT_SUPPORTED_MODE_ERROR;
}

static void
npp_step (gpointer data, cudaStream_t stream)
{
  NppStep *s = data;
  NppStatus st = npp_call (s);

  if (st < 0 && s->status >= 0)
    s->status = st;
}

static void
npp_context (NppStreamContext * ctx, cudaStream_t stream)
{
  struct cudaDeviceProp prop;

  memset (ctx, 0, sizeof (*ctx));
  ctx->hStream = stream;
  CHECK (cudaGetDevice (&ctx->nCudaDeviceId));
  CHECK (cudaGetDeviceProperties (&prop, ctx->nCudaDeviceId));
  ctx->nMultiProcessorCount = prop.multiProcessorCount;
  ctx->nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
  ctx->nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
  ctx->nSharedMemPerBlock = prop.sharedMemPerBlock;
  ctx->nCudaDevAttrComputeCapabilityMajor = prop.major;
  ctx->nCudaDevAttrComputeCapabilityMinor = prop.minor;
  CHECK (cudaStreamGetFlags (stream, &ctx->nStreamFlags));
}

/* NPP's matrix filter convolves (the kernel reversed); ours correlates:
 * the same filter takes the matrix flipped both ways. */
static void
npp_matrix (NppStep * s, const char *text)
{
  int w, h, n;
  double *k, sum = 0;
  Npp32s *flipped;

  if (!cf_kernel_parse (text, &w, &h, &k, NULL)) {
    fprintf (stderr, "cudafilter-npp-bench: bad matrix '%s'\n", text);
    exit (1);
  }
  n = w * h;
  flipped = g_new (Npp32s, n);
  for (int i = 0; i < n; i++) {
    flipped[n - 1 - i] = (Npp32s) k[i];
    sum += k[i];
  }
  s->matrix_size = (NppiSize) {
  w, h};
  s->divisor = sum != 0 ? (Npp32s) sum : 1;
  CHECK (cudaMalloc ((void **) &s->d_matrix, n * sizeof (Npp32s)));
  CHECK (cudaMemcpy (s->d_matrix, flipped, n * sizeof (Npp32s),
          cudaMemcpyHostToDevice));
  g_free (flipped);
  g_free (k);
}

/* OpenCV's (and our) Gaussian taps as floats. */
static void
npp_taps (NppStep * s, const Case * c)
{
  double taps[CF_MAX_TAPS];
  Npp32f f[CF_MAX_TAPS];

  s->n_taps = c->kernel_size;
  cf_gaussian_kernel (c->kernel_size, c->sigma, taps);
  for (int i = 0; i < s->n_taps; i++)
    f[i] = (Npp32f) taps[i];
  CHECK (cudaMalloc ((void **) &s->d_taps, s->n_taps * sizeof (Npp32f)));
  CHECK (cudaMemcpy (s->d_taps, f, s->n_taps * sizeof (Npp32f),
          cudaMemcpyHostToDevice));
}

/* Largest |cudafilter - NPP| over plane 0, 8 pixels in from every edge,
 * filtered channels only. */
static int
max_difference (const Frame * fr)
{
  size_t n = fr->pitch[0] * fr->height;
  unsigned char *a = g_malloc (n), *b = g_malloc (n);
  int ch = fr->fmt->samples, bytes = fr->fmt->depth > 8 ? 2 : 1, worst = 0;

  CHECK (cudaMemcpy (a, fr->d_out, n, cudaMemcpyDeviceToHost));
  CHECK (cudaMemcpy (b, fr->d_npp, n, cudaMemcpyDeviceToHost));
  for (int y = 8; y < fr->height - 8; y++)
    for (int x = 8; x < fr->width - 8; x++)
      for (int c = 0; c < MIN (ch, 3); c++) {
        size_t o = y * fr->pitch[0] + ((size_t) x * ch + c) * bytes;
        int va = bytes == 1 ? a[o] : *(guint16 *) (a + o);
        int vb = bytes == 1 ? b[o] : *(guint16 *) (b + o);

        worst = MAX (worst, ABS (va - vb));
      }
  g_free (a);
  g_free (b);
  return worst;
}

static CfSpec *
make_spec (const Case * c, int depth)
{
  CfParams p;
  GError *error = NULL;
  CfSpec *spec;

  cf_params_init (&p);
  p.filter = c->filter;
  if (c->sigma > 0)
    p.sigma = c->sigma;
  p.kernel_size = c->kernel_size;
  p.kernel = c->kernel;
  p.border = CF_BORDER_REPLICATE;
  spec = cf_spec_new_for_depth (&p, depth, &error);
  if (spec == NULL) {
    fprintf (stderr, "cudafilter-npp-bench: %s: %s\n", c->name,
        error->message);
    exit (1);
  }
  return spec;
}

static void
run_case (const Frame * fr, const Case * c, double d2d, cudaStream_t stream)
{
  CfSpec *spec = make_spec (c, fr->fmt->depth);
  KernelStep ks = { &fr->frame, NULL, NULL, spec };
  double t_cf, t_npp = 0;
  int have_npp = !fr->fmt->semi_planar, diff = -1;
  const char *variant = "";

  if (spec->kp.operation != CF_OPERATION_CONVOLVE) {
    size_t bytes = (size_t) spec->nl.n_table * sizeof (int);
    size_t scratch = cf_nonlin_scratch_bytes (&fr->frame, &spec->nl);

    if (bytes > 0) {
      CHECK (cudaMalloc ((void **) &ks.d_dense, bytes));
      CHECK (cudaMemcpy ((void *) ks.d_dense, spec->table, bytes,
              cudaMemcpyHostToDevice));
    }
    if (scratch > 0)
      CHECK (cudaMalloc ((void **) &ks.d_scratch, scratch));
    cf_layout_colour_groups (&fr->layout, ks.groups);
  } else {
    if (!spec->kp.separable) {
      size_t bytes = (size_t) spec->kp.kw * spec->kp.kh * sizeof (int);
      CHECK (cudaMalloc ((void **) &ks.d_dense, bytes));
      CHECK (cudaMemcpy ((void *) ks.d_dense, spec->dense, bytes,
              cudaMemcpyHostToDevice));
    }
    CHECK (cf_launch_plan_new (fr->frame.channels, fr->frame.n_channels,
            &spec->kp, &spec->sep, &ks.plan));
  }
  t_cf = time_step (kernel_step, &ks, stream);
  cf_launch_plan_free (ks.plan);

  if (have_npp) {
    NppStep s = { fr, c };

    npp_context (&s.ctx, stream);
    if (c->npp == NPP_MATRIX)
      npp_matrix (&s, c->kernel);
    if (c->npp == NPP_GAUSS_ADV)
      npp_taps (&s, c);
    npp_nonlinear_setup (&s);
    have_npp = npp_call (&s) >= 0;
    if (have_npp) {
      t_npp = time_step (npp_step, &s, stream);
      variant = fr->fmt->samples == 4 ? "C4" : "";
      if (fr->fmt->samples == 4) {
        double t_ac4;

        s.alpha_kept = 1;
        t_ac4 = npp_call (&s) >= 0 ? time_step (npp_step, &s, stream) : 0;
        if (t_ac4 > 0 && t_ac4 < t_npp) {
          t_npp = t_ac4;
          variant = "AC4";
        }
      }
      if (s.status < 0) {
        fprintf (stderr, "cudafilter-npp-bench: %s %s: NPP status %d\n",
            c->name, fr->fmt->name, s.status);
        have_npp = 0;
      }
      CHECK (cudaStreamSynchronize (stream));
      if (have_npp)
        diff = max_difference (fr);
    }
    cudaFree (s.d_matrix);
    cudaFree (s.d_taps);
    cudaFree (s.d_mask);
    cudaFree (s.d_buffer);
  }

  if (have_npp)
    printf ("%-17s %-6s %4dx%-4d %9.1f %9.1f%-4s %8.1f %6.2fx %6.2fx %5d  %s\n",
        c->name, fr->fmt->name, fr->width, fr->height, t_cf, t_npp, variant,
        d2d, t_cf / d2d, t_npp / t_cf, diff,
        t_cf < t_npp ? "cudafilter" : "NPP");
  else
    printf ("%-17s %-6s %4dx%-4d %9.1f %9s%-4s %8.1f %6.2fx %7s %5s  -\n",
        c->name, fr->fmt->name, fr->width, fr->height, t_cf, "-", "", d2d,
        t_cf / d2d, "-", "-");
  printf ("csv,%s,%s,%d,%d,%.2f,%.2f,%s,%.2f,%.3f,%.3f,%d\n", c->name,
      fr->fmt->name, fr->width, fr->height, t_cf, have_npp ? t_npp : -1.0,
      variant, d2d, t_cf / d2d, have_npp ? t_npp / t_cf : -1.0, diff);
  fflush (stdout);
  cudaFree ((void *) ks.d_dense);
  cudaFree (ks.d_scratch);
  cf_spec_free (spec);
}

static gboolean
wanted (const char *list, const char *name)
{
  char **items;
  gboolean found = FALSE;

  if (list == NULL)
    return TRUE;
  items = g_strsplit (list, ",", -1);
  for (char **i = items; *i; i++)
    found |= g_ascii_strcasecmp (g_strstrip (*i), name) == 0;
  g_strfreev (items);
  return found;
}

int
main (int argc, char **argv)
{
  GOptionContext *ctx;
  GError *error = NULL;
  cudaStream_t stream;
  char **sizes;
  const NppLibraryVersion *v;
  struct cudaDeviceProp prop;

  ctx = g_option_context_new ("- cudafilter beside NVIDIA NPP");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error)) {
    fprintf (stderr, "cudafilter-npp-bench: %s\n", error->message);
    return 2;
  }
  g_option_context_free (ctx);
  if (opt_iterations < 1)
    opt_iterations = 1;

  CHECK (cudaGetDeviceProperties (&prop, 0));
  CHECK (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
  v = nppGetLibVersion ();
  printf ("%s, NPP %d.%d.%d; median of %d iterations, CUDA events, "
      "replicate borders\n\n", prop.name, v->major, v->minor, v->build,
      opt_iterations);
  printf ("%-17s %-6s %-9s %9s %13s %8s %7s %7s %5s  %s\n", "case", "format",
      "size", "cf us", "NPP us", "D2D us", "cf/D2D", "NPP/cf", "|d|",
      "faster");

  sizes = g_strsplit (opt_sizes, ",", -1);
  for (char **sz = sizes; *sz; sz++) {
    int w, h;

    if (sscanf (*sz, "%dx%d", &w, &h) != 2 || w < 32 || h < 32) {
      fprintf (stderr, "cudafilter-npp-bench: bad size '%s'\n", *sz);
      return 2;
    }
    for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
      Frame fr;
      CopyStep copy;
      double d2d;

      if (!wanted (opt_formats, formats[f].name))
        continue;
      frame_init (&fr, &formats[f], w, h);
      copy = (CopyStep) {
      fr.d_out, fr.d_in, fr.bytes};
      d2d = time_step (copy_step, &copy, stream);
      for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
        if (wanted (opt_cases, cases[c].name))
          run_case (&fr, &cases[c], d2d, stream);
      frame_clear (&fr);
    }
  }
  g_strfreev (sizes);
  cudaStreamDestroy (stream);
  return 0;
}
