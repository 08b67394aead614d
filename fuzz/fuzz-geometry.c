/* cudafilter fuzz target: frame geometry against a direct reference.
 *
 * The input bytes choose the sample size, a layout (interleaved with 1-4
 * samples, planar with subsampled chroma, or semi-planar), each channel's
 * job (filter, copy, fill), width and height 1..512, the padding of every
 * row (in and out separately), the filter and its parameters (kernel size,
 * sigma, border and border value, and for filter=custom a kernel written
 * out as a string with varying separators), and then the pixels.  The CPU
 * backend filters the frame; every output sample is compared with a plain
 * double-precision convolution written here from the documented semantics
 * (OpenCV's), with its own border mapping, and every byte that belongs to
 * no channel must be left as it was.  Dense kernels take the direct path
 * or, on half the inputs, the FFT path. */
#include <math.h>
#include <string.h>
#include "cf-backend.h"
#include "fuzz-common.h"

/* Sum over the frame of taps x filtered samples: keeps one input cheap. */
#define WORK_BUDGET 1000000.0

typedef struct
{
  CfParams params;
  char kernel_text[2048];
  double kernel[9 * 9];         /* custom values, as generated */
  int kw, kh;
} Choice;

/* ---------------------------------------------------------------------- */
/* The reference. */

static int
ref_border (int i, int n, int border)
{
  if (i >= 0 && i < n)
    return i;
  switch (border) {
    case CF_BORDER_CONSTANT:
      return -1;
    case CF_BORDER_REPLICATE:
      return i < 0 ? 0 : n - 1;
    case CF_BORDER_WRAP:
      while (i < 0)
        i += n;
      while (i >= n)
        i -= n;
      return i;
    case CF_BORDER_REFLECT:    /* fedcba|abcdef */
      while (i < 0 || i >= n)
        i = i < 0 ? -i - 1 : 2 * n - 1 - i;
      return i;
    default:                   /* reflect101: gfedcb|abcdefg */
      if (n == 1)
        return 0;
      while (i < 0 || i >= n)
        i = i < 0 ? -i : 2 * n - 2 - i;
      return i;
  }
}

/* Binomial coefficients of degree d (d + 1 values). */
static void
binomial (int d, double *out)
{
  int i, j;

  out[0] = 1;
  for (i = 1; i <= d; i++) {
    out[i] = 0;
    for (j = i; j > 0; j--)
      out[j] += out[j - 1];
  }
}

/* a (na values) convolved with b (nb values). */
static int
convolve (const double *a, int na, const double *b, int nb, double *out)
{
  int i, j;

  for (i = 0; i < na + nb - 1; i++)
    out[i] = 0;
  for (i = 0; i < na; i++)
    for (j = 0; j < nb; j++)
      out[i + j] += a[i] * b[j];
  return na + nb - 1;
}

/* Sobel taps of derivative order 0, 1 or 2 for aperture k (3, 5, 7);
 * OpenCV's getDerivKernels. */
static int
sobel_taps (int k, int order, double *out)
{
  static const double d1[3] = { -1, 0, 1 }, d2[3] = { 1, -2, 1 };
  double b[8];

  if (order == 0) {
    binomial (k - 1, out);
    return k;
  }
  binomial (k - 3, b);
  return convolve (b, k - 2, order == 1 ? d1 : d2, 3, out);
}

/* Derivative and smoothing taps of a Sobel aperture; aperture 1 is the
 * bare [-1 0 1] against [1]. */
static void
sobel_pair_taps (int size, double *d, int *nd, double *s, int *ns)
{
  if (size == 1) {
    d[0] = -1, d[1] = 0, d[2] = 1, *nd = 3;
    s[0] = 1, *ns = 1;
  } else {
    *nd = sobel_taps (size, 1, d);
    *ns = sobel_taps (size, 0, s);
  }
}

static void
gaussian_taps (int n, double sigma, double *out)
{
  double sum = 0;
  int i;

  for (i = 0; i < n; i++) {
    double x = i - (n - 1) / 2.0;
    out[i] = exp (-x * x / (2 * sigma * sigma));
    sum += out[i];
  }
  for (i = 0; i < n; i++)
    out[i] /= sum;
}

/* A 2D kernel (kh x kw, correlation, anchor kw/2, kh/2). */
typedef struct
{
  int kw, kh;
  double w[2][CF_MAX_TAPS * CF_MAX_TAPS];
  int n;                        /* 2 for magnitude */
} RefKernel;

static void
outer (RefKernel * k, int slot, const double *col, int kh, const double *row,
    int kw)
{
  int i, j;

  k->kw = kw;
  k->kh = kh;
  for (j = 0; j < kh; j++)
    for (i = 0; i < kw; i++)
      k->w[slot][j * kw + i] = col[j] * row[i];
}

/* Pads a 1-tap column to 3 (sobel magnitude with aperture 1). */
static int
pad3 (const double *in, int n, double *out)
{
  if (n == 3) {
    memcpy (out, in, 3 * sizeof (double));
    return 3;
  }
  out[0] = out[2] = 0;
  out[1] = in[0];
  return 3;
}

static double
correlate (const RefKernel * k, int slot, const int *src, int w, int h,
    int x, int y, int border, int border_value)
{
  double acc = 0;
  int i, j;

  for (j = 0; j < k->kh; j++) {
    int sy = ref_border (y + j - k->kh / 2, h, border);

    for (i = 0; i < k->kw; i++) {
      int sx = ref_border (x + i - k->kw / 2, w, border);
      int v = (sy < 0 || sx < 0) ? border_value : src[sy * w + sx];

      acc += k->w[slot][j * k->kw + i] * v;
    }
  }
  return acc;
}

/* ---------------------------------------------------------------------- */
/* Choosing parameters. */

static const double divisors[] = { 0, 1, 2, 3, -4, 0.5, 7, 16 };
static const double scales[] = { 1, 0.5, 2, -1, 1.0 / 3 };
static const double offsets[] = { 0, 10.5, -20, 128, 0.25 };

static void
write_kernel_text (Choice * c, FuzzReader * r)
{
  static const char *const seps[] = { " ", ",", "\t", "  ", ", " };
  static const char *const rowseps[] = { ";", " ; ", ";\n", "; " };
  GString *s = g_string_new (NULL);
  int i, j;

  c->kw = 1 + fuzz_u8 (r) % 9;
  c->kh = 1 + fuzz_u8 (r) % 9;
  for (j = 0; j < c->kh; j++) {
    if (j > 0)
      g_string_append (s, rowseps[fuzz_u8 (r) % G_N_ELEMENTS (rowseps)]);
    for (i = 0; i < c->kw; i++) {
      unsigned b = fuzz_u8 (r);
      double v = (int) (b % 17) - 8 + ((b & 0x80) ? 0.5 : 0);

      c->kernel[j * c->kw + i] = v;
      if (i > 0)
        g_string_append (s, seps[fuzz_u8 (r) % G_N_ELEMENTS (seps)]);
      g_string_append_printf (s, (b & 0x40) ? "%.1f" : "%g", v);
    }
  }
  if (fuzz_u8 (r) & 1)
    g_string_append (s, ";");
  g_strlcpy (c->kernel_text, s->str, sizeof (c->kernel_text));
  g_string_free (s, TRUE);
  c->params.kernel = c->kernel_text;
  c->params.divisor = divisors[fuzz_u8 (r) % G_N_ELEMENTS (divisors)];
}

/* Whether the documentation says the parameters are valid. */
static gboolean
documented_valid (const CfParams * p, int sample_bytes)
{
  int k = p->kernel_size;

  switch (p->filter) {
    case CF_FILTER_GAUSSIAN:
    case CF_FILTER_SHARPEN:
      if (k == 0) {
        int mul = sample_bytes == 1 ? 6 : 8;
        int kx = (int) rint (p->sigma * mul + 1) | 1;
        int ky = (int) rint ((p->sigma_y > 0 ? p->sigma_y : p->sigma) * mul
            + 1) | 1;
        return kx <= CF_MAX_TAPS && ky <= CF_MAX_TAPS;
      }
      return (k & 1) && k <= CF_MAX_TAPS;
    case CF_FILTER_BOX:
      return k == 0 || ((k & 1) && k <= CF_MAX_TAPS);
    case CF_FILTER_SCHARR:
      return k == 0 || k == 3;
    case CF_FILTER_CUSTOM:
      return TRUE;
    default:
      return k == 0 || k == 1 || k == 3 || k == 5 || k == 7;
  }
}

/* The reference kernel(s) of valid params, and the output tolerance in
 * sample values; the post operation is chosen by the caller from the
 * filter. */
static double
reference_kernel (const Choice * c, int sample_bytes, RefKernel * k)
{
  const CfParams *p = &c->params;
  int maxval = sample_bytes == 1 ? 255 : 65535;
  double row[CF_MAX_TAPS + 1], col[CF_MAX_TAPS + 1], tmp[CF_MAX_TAPS + 1];
  int size = p->kernel_size, nr, nc, i;

  k->n = 1;
  switch (p->filter) {
    case CF_FILTER_GAUSSIAN:
    case CF_FILTER_SHARPEN:{
      double sy = p->sigma_y > 0 ? p->sigma_y : p->sigma;
      int mul = sample_bytes == 1 ? 6 : 8, bits = sample_bytes == 1 ? 8 : 16;
      double e;

      nr = size ? size : ((int) rint (p->sigma * mul + 1) | 1);
      nc = size ? size : ((int) rint (sy * mul + 1) | 1);
      gaussian_taps (nr, p->sigma, row);
      gaussian_taps (nc, sy, col);
      outer (k, 0, col, nc, row, nr);
      /* Weights are quantised to `bits` fractional bits per pass (each
       * tap off by at most one unit): a bound on what that can add. */
      e = ldexp (1.0, -bits);
      return 1 + maxval * (nr * e + nc * e + nr * nc * e * e);
    }
    case CF_FILTER_BOX:
      size = size ? size : 3;
      for (i = 0; i < size; i++)
        row[i] = col[i] = 1.0 / size;
      outer (k, 0, col, size, row, size);
      return 1;
    case CF_FILTER_SOBEL_X:
    case CF_FILTER_SOBEL_Y:{
      double d[8], s[8];
      int nd, ns;

      size = size ? size : 3;
      sobel_pair_taps (size, d, &nd, s, &ns);
      if (p->filter == CF_FILTER_SOBEL_X)
        outer (k, 0, s, ns, d, nd);
      else
        outer (k, 0, d, nd, s, ns);
      return 1;
    }
    case CF_FILTER_SOBEL:{
      double d[8], s[8], s3[8];
      int nd, ns;

      size = size ? size : 3;
      sobel_pair_taps (size, d, &nd, s, &ns);
      if (ns < nd) {
        ns = pad3 (s, ns, s3);
        memcpy (s, s3, sizeof (s3));
      }
      outer (k, 0, s, ns, d, nd);
      outer (k, 1, d, nd, s, ns);
      k->n = 2;
      return 1;
    }
    case CF_FILTER_SCHARR:{
      static const double d[3] = { -1, 0, 1 }, s[3] = { 3, 10, 3 };
      outer (k, 0, s, 3, d, 3);
      outer (k, 1, d, 3, s, 3);
      k->n = 2;
      return 1;
    }
    case CF_FILTER_LAPLACIAN:{
      static const double k1[9] = { 0, 1, 0, 1, -4, 1, 0, 1, 0 };
      static const double k3[9] = { 2, 0, 2, 0, -8, 0, 2, 0, 2 };
      int j;

      size = size ? size : 1;
      k->kw = k->kh = MAX (size, 3);
      if (size <= 3) {
        memcpy (k->w[0], size == 1 ? k1 : k3, sizeof (k1));
      } else {
        sobel_taps (size, 2, row);
        sobel_taps (size, 0, col);
        for (j = 0; j < size; j++)
          for (i = 0; i < size; i++)
            k->w[0][j * size + i] = row[i] * col[j] + col[i] * row[j];
      }
      (void) tmp;
      return 1;
    }
    case CF_FILTER_CUSTOM:
    default:{
      double sum = 0, div;
      int j;

      for (i = 0; i < c->kw * c->kh; i++)
        sum += c->kernel[i];
      div = p->divisor != 0 ? p->divisor : (sum != 0 ? sum : 1);
      k->kw = c->kw;
      k->kh = c->kh;
      for (j = 0; j < c->kh; j++)
        for (i = 0; i < c->kw; i++)
          k->w[0][j * c->kw + i] = c->kernel[j * c->kw + i] * p->scale / div;
      return 1;
    }
  }
}

static int
saturate (double v, int maxval)
{
  v = rint (v);
  return v < 0 ? 0 : v > maxval ? maxval : (int) v;
}

/* ---------------------------------------------------------------------- */

typedef struct
{
  CfChannelMode mode;
  int plane, w, h, pstride, offset, fill;
} Chan;

static inline int
get_sample (const guint8 * p, int sb)
{
  return sb == 1 ? p[0] : p[0] | (p[1] << 8);
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  FuzzReader r = { data, size };
  int sb = 1 + (fuzz_u8 (&r) & 1), maxval = sb == 1 ? 255 : 65535;
  int kind = fuzz_u8 (&r) % 3;
  int w = 1 + fuzz_u16 (&r) % 512, h = 1 + fuzz_u16 (&r) % 512;
  Choice c;
  CfParams *p = &c.params;
  CfLayout layout;
  Chan chans[CF_MAX_CHANNELS];
  int n_chans = 0, n_planes, pl, ch, x, y, i;
  int row_bytes[CF_MAX_PLANES] = { 0 }, rows[CF_MAX_PLANES] = { 0 };
  int in_stride[CF_MAX_PLANES], out_stride[CF_MAX_PLANES];
  guint8 *in_mem[CF_MAX_PLANES] = { 0 }, *out_mem[CF_MAX_PLANES] = { 0 };
  guint8 *ref_mem[CF_MAX_PLANES] = { 0 };
  CfFrame in, out;
  CfSpec *spec;
  CfBackend *be;
  GError *err = NULL;
  RefKernel *rk;
  double tol, taps, work = 0;
  gboolean valid;

  memset (&c, 0, sizeof (c));
  cf_params_init (p);
  p->filter = fuzz_u8 (&r) % 9;
  p->border = fuzz_u8 (&r) % 5;
  p->border_value = fuzz_u16 (&r) % (maxval + 1);
  p->kernel_size = fuzz_u8 (&r) % 64;
  if (fuzz_u8 (&r) & 1)
    p->kernel_size &= 7;        /* mostly the small, common sizes */
  p->sigma = 0.2 + fuzz_u8 (&r) / 24.0;
  p->sigma_y = (fuzz_u8 (&r) & 3) ? 0 : 0.3 + fuzz_u8 (&r) / 30.0;
  p->amount = fuzz_u8 (&r) / 32.0;
  if (p->filter == CF_FILTER_CUSTOM) {
    p->scale = scales[fuzz_u8 (&r) % G_N_ELEMENTS (scales)];
    p->offset = offsets[fuzz_u8 (&r) % G_N_ELEMENTS (offsets)];
    write_kernel_text (&c, &r);
  } else if (cf_filter_is_derivative (p->filter)) {
    /* Exact in float, so the float post-step is the only rounding. */
    p->scale = scales[fuzz_u8 (&r) % 4];
    p->offset = (int) (fuzz_u8 (&r) % 16) - 4;
  }

  valid = documented_valid (p, sb);
  spec = cf_spec_new (p, sb, &err);
  if ((spec != NULL) != valid)
    fuzz_fail ("filter %d kernel-size %d sigma %g/%g kernel \"%s\": spec %s "
        "but the documentation says %s (%s)", p->filter, p->kernel_size,
        p->sigma, p->sigma_y, c.kernel_text, spec ? "built" : "refused",
        valid ? "valid" : "invalid", err ? err->message : "");
  g_clear_error (&err);
  if (spec == NULL)
    return 0;

  /* The layout. */
  memset (&layout, 0, sizeof (layout));
  layout.sample_bytes = sb;
  if (kind == 0) {              /* interleaved, 1..4 samples */
    int samples = 1 + fuzz_u8 (&r) % 4;

    for (i = 0; i < samples; i++)
      chans[n_chans++] = (Chan) {
      fuzz_u8 (&r) % 3, 0, w, h, samples * sb, i * sb, 0};
  } else {                      /* planar or semi-planar, subsampled */
    int sx = 1 + (fuzz_u8 (&r) & 1), sy = 1 + (fuzz_u8 (&r) & 1);
    int cw = (w + sx - 1) / sx, chh = (h + sy - 1) / sy;

    chans[n_chans++] = (Chan) {
    CF_CHANNEL_FILTER, 0, w, h, sb, 0, 0};
    for (i = 0; i < 2; i++)
      chans[n_chans++] = (Chan) {
      fuzz_u8 (&r) % 3, kind == 1 ? 1 + i : 1, cw, chh,
            kind == 1 ? sb : 2 * sb, kind == 1 ? 0 : i * sb, 0};
  }
  for (ch = 0; ch < n_chans; ch++) {
    chans[ch].fill = fuzz_u16 (&r) % (maxval + 1);
    cf_layout_add_channel (&layout, chans[ch].mode, chans[ch].plane,
        chans[ch].w, chans[ch].h, chans[ch].pstride, chans[ch].offset,
        chans[ch].fill);
    pl = chans[ch].plane;
    row_bytes[pl] = MAX (row_bytes[pl], chans[ch].w * chans[ch].pstride);
    rows[pl] = MAX (rows[pl], chans[ch].h);
  }
  n_planes = layout.n_planes;

  /* Keep one input cheap: the reference is a direct convolution. */
  taps = (double) spec->kp.kw * spec->kp.kh * spec->kp.n_kernels;
  for (ch = 0; ch < n_chans; ch++)
    if (chans[ch].mode == CF_CHANNEL_FILTER)
      work += taps * chans[ch].w * chans[ch].h;
  if (work > WORK_BUDGET) {
    cf_spec_free (spec);
    return 0;
  }

  /* Frames with padded rows (whole samples), padding and gaps poisoned. */
  for (pl = 0; pl < n_planes; pl++) {
    in_stride[pl] = row_bytes[pl] + (fuzz_u8 (&r) % 64) / sb * sb;
    out_stride[pl] = row_bytes[pl] + (fuzz_u8 (&r) % 64) / sb * sb;
    in_mem[pl] = g_malloc ((gsize) in_stride[pl] * rows[pl]);
    out_mem[pl] = g_malloc ((gsize) out_stride[pl] * rows[pl]);
    ref_mem[pl] = g_malloc ((gsize) out_stride[pl] * rows[pl]);
    for (i = 0; i < in_stride[pl] * rows[pl]; i++)
      in_mem[pl][i] = fuzz_u8 (&r) ^ (i * 151);
    memset (out_mem[pl], 0xCD, (gsize) out_stride[pl] * rows[pl]);
    memset (ref_mem[pl], 0xCD, (gsize) out_stride[pl] * rows[pl]);
    in.data[pl] = in_mem[pl];
    in.stride[pl] = in_stride[pl];
    out.data[pl] = out_mem[pl];
    out.stride[pl] = out_stride[pl];
  }

  /* Half the inputs force dense kernels through FFTs where exact (builds
   * with FFTW), chosen by a bit of `amount`, which only sharpen reads, so
   * the corpus keeps its meaning. */
  g_setenv ("CUDAFILTER_CPU_CONVOLUTION", p->filter != CF_FILTER_SHARPEN
      && ((int) (p->amount * 32.0) & 1) ? "fft" : "auto", TRUE);
  be = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
  if (!cf_backend_process (be, spec, &layout, &in, &out, &err))
    fuzz_fail ("the CPU backend failed: %s", err ? err->message : "?");
  cf_backend_free (be);

  /* The reference, channel by channel, into ref_mem. */
  rk = g_new0 (RefKernel, 1);
  tol = reference_kernel (&c, sb, rk);
  if (p->filter == CF_FILTER_SHARPEN)
    tol = 1 + p->amount * (tol + 0.5);
  for (ch = 0; ch < n_chans; ch++) {
    const Chan *cc = &chans[ch];
    int *src = g_new (int, (gsize) cc->w * cc->h);

    for (y = 0; y < cc->h; y++)
      for (x = 0; x < cc->w; x++)
        src[y * cc->w + x] = get_sample (in_mem[cc->plane] +
            (gsize) y * in_stride[cc->plane] + x * cc->pstride + cc->offset,
            sb);
    for (y = 0; y < cc->h; y++) {
      for (x = 0; x < cc->w; x++) {
        guint8 *o = ref_mem[cc->plane] + (gsize) y * out_stride[cc->plane] +
            x * cc->pstride + cc->offset;
        guint8 *got = out_mem[cc->plane] + (gsize) y * out_stride[cc->plane] +
            x * cc->pstride + cc->offset;
        int bv = p->border_value, v, g, s = src[y * cc->w + x];
        double a0 = 0, a1 = 0, t = 0;

        if (cc->mode == CF_CHANNEL_COPY) {
          v = s;
        } else if (cc->mode == CF_CHANNEL_FILL) {
          v = cc->fill;
        } else {
          a0 = correlate (rk, 0, src, cc->w, cc->h, x, y, p->border, bv);
          switch (p->filter) {
            case CF_FILTER_SOBEL:
            case CF_FILTER_SCHARR:
              a1 = correlate (rk, 1, src, cc->w, cc->h, x, y, p->border, bv);
              t = p->scale * sqrt (a0 * a0 + a1 * a1) + p->offset;
              v = saturate (t, maxval);
              t = 1 + fabs (t) * ldexp (1.0, -20);
              break;
            case CF_FILTER_SOBEL_X:
            case CF_FILTER_SOBEL_Y:
            case CF_FILTER_LAPLACIAN:
              t = a0 * p->scale + p->offset;
              v = saturate (fabs (rint (t)), maxval);
              t = 1 + fabs (t) * ldexp (1.0, -20);
              break;
            case CF_FILTER_SHARPEN:
              v = saturate (s + p->amount * (s - a0), maxval);
              t = tol;
              break;
            case CF_FILTER_CUSTOM:
              v = saturate (a0 + p->offset, maxval);
              t = tol;
              break;
            default:
              v = saturate (a0, maxval);
              t = tol;
              break;
          }
        }
        g = get_sample (got, sb);
        if (cc->mode != CF_CHANNEL_FILTER ? g != v : fabs ((double) g - v) >
            t)
          fuzz_fail ("%dx%d kind %d, %d-byte samples, filter %d size %d "
              "sigma %g/%g border %d (%d) kernel \"%s\" divisor %g scale %g "
              "offset %g amount %g: channel %d (mode %d, %dx%d) at (%d,%d): "
              "got %d, reference %d (tolerance %g)", w, h, kind, sb,
              p->filter, p->kernel_size, p->sigma, p->sigma_y, p->border, bv,
              c.kernel_text, p->divisor, p->scale, p->offset, p->amount, ch,
              cc->mode, cc->w, cc->h, x, y, g, v, t);
        /* Mark the sample in the reference so the padding check below
         * can tell channel bytes from the rest. */
        memcpy (o, got, sb);
      }
    }
    g_free (src);
  }
  /* Every byte outside the channels is untouched. */
  for (pl = 0; pl < n_planes; pl++)
    if (memcmp (ref_mem[pl], out_mem[pl], (gsize) out_stride[pl] *
            rows[pl]) != 0)
      fuzz_fail ("%dx%d kind %d: bytes outside the channels of plane %d "
          "were written", w, h, kind, pl);

  g_free (rk);
  for (pl = 0; pl < n_planes; pl++) {
    g_free (in_mem[pl]);
    g_free (out_mem[pl]);
    g_free (ref_mem[pl]);
  }
  cf_spec_free (spec);
  return 0;
}
