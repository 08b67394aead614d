/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: filters of 16-bit words with exact fp64 sums.
 *
 * Deeper samples need wider sums than 8-bit ones: a 16-bit Gaussian's taps
 * have 16 fractional bits a direction, so its sums reach 2^48.  The general
 * kernel adds them in emulated 64-bit integers, one output a thread; here
 * they are fp64 FMAs, exact because the plan has shown every product and
 * partial sum is an integer below 2^53, so the order of additions cannot
 * matter and cf-arith.h's op gives the CPU backend's bytes.
 *
 * A job is a plane of 16-bit words, 1, 2 or 4 a pixel (GRAY16 and the
 * planes of I420_10; P010's chroma pairs; RGBA64), every lane filtered,
 * copied or filled as its channel says.  One launch runs every job, grid z
 * picks it.  A block loads a tile of TW words x TH rows and its apron once,
 * decoded to fp64 and split by lane, so that every lane's row is a row of
 * single samples whatever the pixel:
 *  - separable: each thread slides a register window along a row for N
 *    outputs (row taps in groups of four, zero-padded), the sums go to
 *    shared memory, and each thread slides a window of M rows down a
 *    column;
 *  - dense: each thread slides a window of M rows down a column for every
 *    column of taps.
 * The rows of samples and of sums are skewed (a spare word every four or
 * eight) so the strided accesses of the horizontal pass fall in distinct
 * banks. */

#include <stdint.h>
#include <cuda_runtime.h>

#include "cf-arith.h"
#include "cf-filter-tile.cuh"
#include "cf-wide.h"

namespace
{

constexpr int THREADS = 256;
constexpr int TW = 64;          /* output words a tile row */
constexpr int TH = 32;          /* output rows */
constexpr int N = 8;            /* horizontal outputs a thread */
constexpr int TPR = TW / N;     /* threads a row, horizontal pass */
constexpr int HROWS = THREADS / TPR;    /* rows a horizontal sweep */
constexpr int VG = THREADS / TW;        /* thread groups down a column */
constexpr int M = TH / VG;      /* vertical outputs a thread */
constexpr int LOADS = 4;        /* samples a thread loads at once */
constexpr int VLOADS = 4;       /* the same, of four words */
/* Words a row of sums: skew_sum (TW - 1) + 1, padded to 8 mod 16 so the
 * two rows a half-warp stores fall in distinct banks. */
constexpr int HP = 72;

static_assert (TPR % CF_WIDE_STEPS == 0, "lanes split the row's threads");

constexpr int OP_ANY = -1;

/* Places in a row of samples (a spare word after every four) and of sums
 * (after every eight). */
__host__ __device__ constexpr int
skew_in (int p)
{
  return p + (p >> 2);
}

__host__ __device__ constexpr int
skew_sum (int c)
{
  return c + (c >> 3);
}

static_assert (skew_sum (TW - 1) + 1 <= HP && HP % 16 == 8, "sum rows");

/* Shared memory of a block for a job of 2^lg words a pixel, in 8-byte
 * words: the lanes' sample planes, the sums (separable), the taps, the
 * row map; then the column map as ints. */
struct Geo
{
  int kw4, kh4;                 /* taps padded to a multiple of 4 (zeros) */
  int pw;                       /* pixels a lane's row, apron included */
  int ipp;                      /* words a row of a lane's plane */
  int in_h;                     /* rows, apron included */
  int plane;                    /* words a lane's plane */
  int in_w;                     /* words a row as the frame has them */
  int hs, taps, ymap, xmap;     /* offsets */
  size_t bytes;

  __host__ __device__ Geo (const CfKernelParams & kp, int lg)
  {
    const int s = 1 << lg;
    const int nk = kp.separable ? kp.n_kernels : 1;

    kw4 = kp.separable ? (kp.kw + 3) & ~3 : kp.kw;
    kh4 = (kp.kh + 3) & ~3;
    pw = (TW >> lg) + kw4 - 1;
    ipp = skew_in (pw - 1) + 1;
    ipp += ((1 - ipp) % 16 + 16) % 16;  /* 1 mod 16 */
    in_h = TH + kh4 - 1;
    /* Lanes' planes 4 words apart mod 16 (four-word pixels) or 9 (two):
     * the half-warps of every pass then touch few banks twice. */
    plane = in_h * ipp;
    plane += ((s == 4 ? 4 : 9) - plane % 16 + 16) % 16;
    in_w = s * pw;
    hs = s * plane;
    taps = hs + (kp.separable ? nk * in_h * HP : 0);
    ymap = taps + (kp.separable ? nk * (kw4 + kh4) : kp.kw * kh4);
    xmap = ymap + in_h;
    bytes = (size_t) xmap * 8 + (size_t) in_w * 4;
  }
};

__device__ __forceinline__ double
fma_rn (double a, double b, double c)
{
  return __fma_rn (a, b, c);
}

/* The sums of N outputs of row r of lane plane `plane`, pixels 8 g ..
 * 8 g + 7, over row taps `taps` (kw4 of them, zero-padded). */
__device__ __forceinline__ void
row_sums (const double *plane, int ipp, int r, int g, const double *taps,
    int kw4, double (&acc)[N])
{
  const double *p = plane + r * ipp + skew_in (N * g);
  double x[N + 3];

#pragma unroll
  for (int n = 0; n < N; n++)
    acc[n] = 0.0;
  /* Samples m of the group are at p[skew_in (m)]; a group of four taps
   * needs N + 3 of them, seven carried to the next. */
#pragma unroll
  for (int k = 0; k < N - 1; k++)
    x[k] = p[skew_in (k)];
  for (int q = 0; q < kw4; q += 4, p += 5) {
#pragma unroll
    for (int k = N - 1; k < N + 3; k++)
      x[k] = p[skew_in (k)];
#pragma unroll
    for (int t = 0; t < 4; t++) {
      const double w = taps[q + t];
#pragma unroll
      for (int n = 0; n < N; n++)
        acc[n] = fma_rn (w, x[n + t], acc[n]);
    }
#pragma unroll
    for (int k = 0; k < N - 1; k++)
      x[k] = x[k + 4];
  }
}

/* Adds the column taps `taps` (kh4 of them, zero-padded) over the rows of
 * `col` (a column of values `pitch` words apart, from this thread's first
 * row) into acc: a window of M + 3 rows, seven carried from a group of
 * four taps to the next. */
__device__ __forceinline__ void
column_sums (const double *col, int pitch, const double *taps, int kh4,
    double (&acc)[M])
{
  double x[M + 3];

#pragma unroll
  for (int k = 0; k < M - 1; k++)
    x[k] = col[k * pitch];
  for (int q = 0; q < kh4; q += 4, col += 4 * pitch) {
#pragma unroll
    for (int k = M - 1; k < M + 3; k++)
      x[k] = col[k * pitch];
#pragma unroll
    for (int t = 0; t < 4; t++) {
      const double w = taps[q + t];
#pragma unroll
      for (int n = 0; n < M; n++)
        acc[n] = fma_rn (w, x[n + t], acc[n]);
    }
#pragma unroll
    for (int k = 0; k < M - 1; k++)
      x[k] = x[k + 4];
  }
}

/* A sample as fp64: 2^52 + v, less 2^52 (exact for v below 2^32), on the
 * FP64 pipe instead of a slower conversion. */
__device__ __forceinline__ double
to_double (unsigned v)
{
  return __hiloint2double (0x43300000, (int) v) - 4503599627370496.0;
}

/* OP: CF_OP_LINEAR, or OP_ANY (cf_post reads the op at run time). */
template < bool SEP, int NK, int OP > __global__ void
__launch_bounds__ (THREADS, 3)
wide_kernel (const __grid_constant__ CfWideArgs a)
{
  extern __shared__ __align__ (16) double smem[];
  const CfWideJob & jb = a.job[blockIdx.z];
  const CfKernelParams & kp = a.kp;
  const int x0 = blockIdx.x * TW;
  const int y0 = blockIdx.y * TH;
  const int width = jb.width, height = jb.height;

  if (x0 >= width || y0 >= height)
    return;

  /* The job's fields once, in registers. */
  const int lg = jb.log2_step;
  const int s = 1 << lg;
  const int shift = jb.shift;
  const unsigned mask = jb.mask;
  const unsigned char *src = jb.src;
  const long long ss = jb.ss;
  const Geo geo (kp, lg);
  const int tid = threadIdx.x;
  const int kw = kp.kw, kh = kp.kh;
  double *taps = smem + geo.taps;
  long long *ymap = (long long *) (smem + geo.ymap);
  int *xmap = (int *) (smem + geo.xmap);

  /* Taps as fp64, zero-padded to groups of four: separable rows (kw4)
   * then columns (kh4) a kernel; dense a column of kh4 after another. */
  if (SEP) {
    const int per = geo.kw4 + geo.kh4;
    for (int t = tid; t < NK * per; t += THREADS) {
      const int k = t / per, i = t - k * per;
      const int j = i - geo.kw4;
      taps[t] = i < kw ? a.sep.row[k][i] : (j >= 0 && j < kh) ?
          a.sep.col[k][j] : 0;
    }
  } else {
    for (int t = tid; t < kw * geo.kh4; t += THREADS) {
      const int i = t / geo.kh4, j = t - i * geo.kh4;
      taps[t] = j < kh ? a.dense[j * kw + i] : 0;
    }
  }
  /* Borders resolved once a row and once a column, as byte offsets (-1:
   * the border value); a word's pixel is mapped, its lane kept. */
  const int px0 = (x0 >> lg) - kp.ax;
  const int wpx = width >> lg;
  for (int t = tid; t < geo.in_h; t += THREADS) {
    const int Y = cf_border_index (y0 + t - kp.ay, height, kp.border);
    ymap[t] = Y < 0 ? -1 : Y * ss;
  }
  for (int t = tid; t < geo.in_w; t += THREADS) {
    const int X = cf_border_index (px0 + (t >> lg), wpx, kp.border);
    xmap[t] = X < 0 ? -1 : 2 * ((X << lg) + (t & (s - 1)));
  }
  __syncthreads ();

  /* The tile and its apron, decoded and split by lane; a few loads a
   * thread in flight before any is stored (one at a time, the load's
   * latency bounded the kernel).  Tiles whose columns lie inside the
   * plane load four words at a time (8 bytes, aligned: CfWideArgs::vec). */
  const int in_w = geo.in_w;
  const int ws = px0 << lg;     /* the tile's first word in the row */
  if (a.vec && ws >= 0 && ws + in_w <= width) {
    const int q0 = ws >> 2;
    const int nq = ((ws + in_w - 1) >> 2) - q0 + 1;
    const int total = nq * geo.in_h;
    const unsigned magic = 0xFFFFFFFFu / (unsigned) nq + 1;
    /* The border value as a raw word (vec: it fits the sample's bits). */
    const unsigned fill = ((unsigned) kp.border_value << shift) * 0x10001u;
    for (int t0 = tid; t0 < total; t0 += VLOADS * THREADS) {
      uint2 w[VLOADS];
      int row[VLOADS], col[VLOADS];
#pragma unroll
      for (int u = 0; u < VLOADS; u++) {
        const int t = t0 + u * THREADS;
        const int r = __umulhi ((unsigned) t, magic);
        const int k = t - r * nq;
        const long long yo = ymap[t < total ? r : 0];
        row[u] = t < total ? r * geo.ipp : -1;
        col[u] = 4 * (q0 + k) - ws;
        w[u] = make_uint2 (fill, fill);
        if (t < total && yo >= 0)
          w[u] = __ldg ((const uint2 *) (src + yo) + q0 + k);
      }
#pragma unroll
      for (int u = 0; u < VLOADS; u++) {
        if (row[u] < 0)
          continue;
#pragma unroll
        for (int e = 0; e < 4; e++) {
          const int c = col[u] + e;
          const unsigned word = (e < 2 ? w[u].x : w[u].y) >> (16 * (e & 1));
          if ((unsigned) c < (unsigned) in_w)
            smem[(c & (s - 1)) * geo.plane + row[u] + skew_in (c >> lg)] =
                to_double (((word & 0xFFFFu) >> shift) & mask);
        }
      }
    }
  } else {
    const int total = in_w * geo.in_h;
    const unsigned magic = 0xFFFFFFFFu / (unsigned) in_w + 1;
    for (int t0 = tid; t0 < total; t0 += LOADS * THREADS) {
      int v[LOADS], at[LOADS];
#pragma unroll
      for (int u = 0; u < LOADS; u++) {
        const int t = t0 + u * THREADS;
        const int r = __umulhi ((unsigned) t, magic);
        const int c = t - r * in_w;
        const long long yo = ymap[t < total ? r : 0];
        const int xo = xmap[c];
        at[u] = t < total ? (c & (s - 1)) * geo.plane + r * geo.ipp +
            skew_in (c >> lg) : -1;
        v[u] = kp.border_value;
        if (t < total && yo >= 0 && xo >= 0)
          v[u] = (__ldg ((const unsigned short *) (src + yo + xo)) >>
              shift) & mask;
      }
#pragma unroll
      for (int u = 0; u < LOADS; u++)
        if (at[u] >= 0)
          smem[at[u]] = to_double (v[u]);
    }
  }
  __syncthreads ();

  /* Output column (word) vc of the tile, rows r0 .. r0 + M - 1. */
  const int vc = tid % TW;
  const int r0 = (tid / TW) * M;
  const int lane = vc & (s - 1);
  const int px = vc >> lg;
  const double *lane_plane = smem + lane * geo.plane;
  double acc[NK][M];

#pragma unroll
  for (int k = 0; k < NK; k++)
#pragma unroll
    for (int n = 0; n < M; n++)
      acc[k][n] = 0.0;

  if (SEP) {
    double *hs = smem + geo.hs;
    /* Horizontal: thread ht of a row takes lane ht / (TPR / s), pixels
     * 8 g .. 8 g + 7 of it; its sums go to words (8 g + n) s + lane. */
    const int ht = tid % TPR;
    const int hl = ht >> (3 - lg);
    const int g = ht & ((TPR >> lg) - 1);
    const double *hplane = smem + hl * geo.plane;
    const int out0 = ((N * g) << lg) + hl;
#pragma unroll
    for (int k = 0; k < NK; k++) {
      for (int r = tid / TPR; r < geo.in_h; r += HROWS) {
        double h[N];
        row_sums (hplane, geo.ipp, r, g, taps + k * (geo.kw4 + geo.kh4),
            geo.kw4, h);
        double *out = hs + (k * geo.in_h + r) * HP;
#pragma unroll
        for (int n = 0; n < N; n++)
          out[skew_sum (out0 + (n << lg))] = h[n];
      }
    }
    __syncthreads ();
#pragma unroll
    for (int k = 0; k < NK; k++)
      column_sums (hs + (k * geo.in_h + r0) * HP + skew_sum (vc), HP,
          taps + k * (geo.kw4 + geo.kh4) + geo.kw4, geo.kh4, acc[k]);
  } else {
    for (int i = 0; i < kw; i++)
      column_sums (lane_plane + r0 * geo.ipp + skew_in (px + i), geo.ipp,
          taps + i * geo.kh4, geo.kh4, acc[0]);
  }

  const int x = x0 + vc;
  if (x >= width)
    return;
  const int mode = jb.mode[lane];
  const int rows = min (M, height - (y0 + r0));
  const long long ds = jb.ds;
  unsigned char *dst = jb.dst + (y0 + r0) * ds + 2 * x;
  const double *centre = lane_plane + (r0 + kp.ay) * geo.ipp +
      skew_in (px + kp.ax);

  if (mode == CF_CHANNEL_FILTER) {
    /* LINEAR: floor ((acc + bias) / 2^shift), the CPU's shift, in fp64
     * (the plan has shown acc + bias stays below 2^53). */
    const double scale = OP == CF_OP_LINEAR ? ldexp (1.0, -kp.shift) : 0.0;
    const double bias = (double) kp.bias;
    const int maxval = kp.maxval;
#pragma unroll
    for (int n = 0; n < M; n++) {
      if (n >= rows)
        break;
      int v;
      if (OP == CF_OP_LINEAR)
        v = min (max (__double2int_rd ((acc[0][n] + bias) * scale), 0),
            maxval);
      else
        v = cf_post (&kp, __double2ll_rn (acc[0][n]),
            NK == 2 ? __double2ll_rn (acc[NK - 1][n]) : 0,
            (int) centre[n * geo.ipp]);
      *(uint16_t *) dst = (uint16_t) (((unsigned) v & mask) << shift);
      dst += ds;
    }
  } else {
    const int fill = jb.fill[lane];
#pragma unroll
    for (int n = 0; n < M; n++) {
      if (n >= rows)
        break;
      const int v = mode == CF_CHANNEL_COPY ? (int) centre[n * geo.ipp] :
          fill;
      *(uint16_t *) dst = (uint16_t) (((unsigned) v & mask) << shift);
      dst += ds;
    }
  }
}

/* The largest sum of absolute products a separable kernel k reaches. */
double
sep_reach (const CfKernelParams * kp, const CfSepWeights * sep, int k)
{
  return 65535.0 * cf_wide_abs_sum (sep->row[k], kp->kw) *
      cf_wide_abs_sum (sep->col[k], kp->kh);
}

}                               /* namespace */

double
cf_wide_abs_sum (const int *taps, int n)
{
  double sum = 0;

  for (int i = 0; i < n; i++)
    sum += taps[i] < 0 ? -(double) taps[i] : taps[i];
  return sum;
}

cudaError_t
cf_wide_plan (CfWidePlan * p, const CfChannel * channels, int n,
    const CfKernelParams * kp, const CfSepWeights * sep, int optin)
{
  CfWideArgs & a = p->a;
  unsigned seen[CF_MAX_CHANNELS];
  int max_w = 0, max_h = 0, max_lg = 0;

  *p = CfWidePlan { };
  if (kp->sample_bytes != 2 || n < 1 || n > CF_MAX_CHANNELS
      || kp->kw < 1 || kp->kh < 1 || kp->kw > CF_ARG_TAPS
      || kp->kh > CF_ARG_TAPS || kp->ax < 0 || kp->ax >= kp->kw
      || kp->ay < 0 || kp->ay >= kp->kh)
    return cudaErrorNotSupported;
  if (kp->separable ? kp->n_kernels < 1 || kp->n_kernels > 2 :
      kp->n_kernels != 1)
    return cudaErrorNotSupported;

  /* Channels into jobs: one a plane and pixel stride, a lane a word. */
  for (int i = 0; i < n; i++) {
    const CfChannel *ch = &channels[i];
    const int s = ch->pixel_stride / 2;
    const int lg = s == 1 ? 0 : s == 2 ? 1 : s == 4 ? 2 : -1;
    const unsigned mask = ch->depth >= 16 ? 0xFFFFu : (1u << ch->depth) - 1;
    int j = 0;

    if (ch->word_bytes != 2 || ch->shared_word || ch->depth < 1
        || ch->shift < 0 || ch->depth + ch->shift > 16 || lg < 0
        || (ch->pixel_stride & 1) || ch->offset < 0 || (ch->offset & 1)
        || ch->offset >= ch->pixel_stride || ch->plane < 0
        || ch->plane >= CF_MAX_PLANES || ch->width <= 0 || ch->height <= 0)
      return cudaErrorNotSupported;
    while (j < p->n_jobs && (p->job_plane[j] != ch->plane
            || a.job[j].log2_step != lg))
      j++;
    CfWideJob & jb = a.job[j];
    if (j == p->n_jobs) {
      p->n_jobs++;
      p->job_plane[j] = ch->plane;
      jb.width = ch->width * s;
      jb.height = ch->height;
      jb.log2_step = lg;
      jb.shift = ch->shift;
      jb.mask = mask;
      seen[j] = 0;
    } else if (jb.width != ch->width * s || jb.height != ch->height
        || jb.shift != ch->shift || jb.mask != mask) {
      return cudaErrorNotSupported;
    }
    const int lane = ch->offset / 2;
    if (seen[j] & (1u << lane))
      return cudaErrorNotSupported;
    seen[j] |= 1u << lane;
    jb.mode[lane] = (unsigned char) ch->mode;
    jb.fill[lane] = ch->fill_value;
    if (jb.width > max_w)
      max_w = jb.width;
    if (jb.height > max_h)
      max_h = jb.height;
    if (lg > max_lg)
      max_lg = lg;
  }
  /* Every word of a pixel must belong to a channel: the kernel writes them
   * all. */
  p->border_fits = true;
  for (int j = 0; j < p->n_jobs; j++) {
    if (seen[j] != (1u << (1 << a.job[j].log2_step)) - 1)
      return cudaErrorNotSupported;
    if (kp->border_value < 0 || (unsigned) kp->border_value > a.job[j].mask)
      p->border_fits = false;
  }

  a.kp = *kp;
  if (kp->separable)
    cf_tile::arg_weights (&a.sep, sep);
  /* 3 x 3: the direct kernel, at every size.  Measured on the H200
   * (bench/README.md, "Direct 3x3 on 16-bit words"), faster than the
   * four-word kernel from 640 x 480 to 4K, and than the general kernel
   * but for absolute values of GRAY16 and P010 up to 720p (by 1 to 2
   * us). */
  if (cf_wide_direct_plan (p, kp, sep, max_w, max_h) == cudaSuccess)
    return cudaSuccess;
  if (cf_wide_quad_plan (p, kp, sep, optin, max_w, max_h) == cudaSuccess)
    return cudaSuccess;

  /* The wide kernel: every spec whose sums fp64 holds. */
  if (kp->separable) {
    for (int k = 0; k < kp->n_kernels; k++)
      if (!(sep_reach (kp, sep, k) < CF_WIDE_EXACT))
        return cudaErrorNotSupported;
  } else if (kp->wide_acc) {
    /* Dense weights stay on the device; without wide_acc the spec has
     * bounded their sums by 2^31. */
    return cudaErrorNotSupported;
  }
  /* What the wide kernel replaces is the general kernel's 64-bit integer
   * sums and its decoding of shifted words; where the spec's sums fit
   * int32 on plain words, the general kernel measured as fast or faster
   * (4K GRAY16 sobel-x 50 against 54 us; H200, bench/README.md). */
  bool plain = true;
  for (int i = 0; i < n; i++)
    plain = plain && cf_sample_is_plain (&channels[i], 2);
  if (plain && !kp->wide_acc)
    return cudaErrorNotSupported;

  const Geo geo (*kp, max_lg);
  if (geo.bytes > (size_t) optin)
    return cudaErrorNotSupported;
  const dim3 grid ((max_w + TW - 1) / TW, (max_h + TH - 1) / TH, p->n_jobs);
  const dim3 block (THREADS, 1, 1);
  /* The op in fp64 needs acc + bias exact too. */
  const double reach = kp->separable ? sep_reach (kp, sep, 0) : 2147483648.0;
  const bool linear = kp->op == CF_OP_LINEAR && kp->n_kernels == 1 &&
      reach + fabs ((double) kp->bias) < CF_WIDE_EXACT;
  if (!kp->separable)
    return linear ? cf_pick_kernel (p->pick, wide_kernel < false, 1,
        CF_OP_LINEAR >, grid, block, geo.bytes) : cf_pick_kernel (p->pick,
        wide_kernel < false, 1, OP_ANY >, grid, block, geo.bytes);
  if (kp->n_kernels == 2)
    return cf_pick_kernel (p->pick, wide_kernel < true, 2, OP_ANY >, grid,
        block, geo.bytes);
  return linear ? cf_pick_kernel (p->pick, wide_kernel < true, 1,
      CF_OP_LINEAR >, grid, block, geo.bytes) : cf_pick_kernel (p->pick,
      wide_kernel < true, 1, OP_ANY >, grid, block, geo.bytes);
}

bool
cf_wide_fits (const CfWidePlan * p, const CfDeviceFrame * frame)
{
  uintptr_t bits = 0;

  for (int j = 0; j < p->n_jobs; j++) {
    const int pl = p->job_plane[j];
    bits |= (uintptr_t) frame->src[pl] | (uintptr_t) frame->dst[pl] |
        (uintptr_t) frame->src_stride[pl] | (uintptr_t) frame->dst_stride[pl];
  }
  return !(bits & 1);
}

cudaError_t
cf_wide_run (const CfWidePlan * p, const CfDeviceFrame * frame,
    const int *dense, cudaStream_t stream)
{
  CfWideArgs a = p->a;
  uintptr_t bits = 0, out_bits = 0;

  for (int j = 0; j < p->n_jobs; j++) {
    const int pl = p->job_plane[j];
    a.job[j].src = frame->src[pl];
    a.job[j].dst = frame->dst[pl];
    a.job[j].ss = frame->src_stride[pl];
    a.job[j].ds = frame->dst_stride[pl];
    bits |= (uintptr_t) frame->src[pl] | (uintptr_t) frame->src_stride[pl];
    out_bits |= (uintptr_t) frame->dst[pl] | (uintptr_t) frame->dst_stride[pl];
  }
  a.dense = dense;
  /* Both kernels fill their tiles' outside rows with the border value as
   * a raw word. */
  a.vec = p->border_fits && !(bits & 7);
  a.vec_out = !(out_bits & 7);
  a.vec_direct = p->border_fits && !((bits | out_bits) & 15);
  return cf_launch_pick (p->pick, a, stream);
}
