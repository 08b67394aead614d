/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: programs of full rectangles (erode, dilate, open, close,
 * gradient, top-hat and black-hat with a rectangle of any size, iterated)
 * on whole planes of 8- or 16-bit samples, every channel of a plane at
 * once (cf_nl_make_planes): each row pass, column pass and saturated
 * difference one launch over the frame's planes, the scratch images in
 * the planes' own layout.
 *
 * Both min/max passes are van Herk / Gil-Werman over a thread's S
 * consecutive outputs: the part of the windows all S share once, then a
 * prefix and a suffix, about (len + 2 S) / S operations an output, on
 * words of two 16-bit lanes (Hopper's VIMNMX.U16x2 takes a word in one
 * instruction).  A max is the min of the lanes' complements.
 * - The column pass: a thread takes a word of a row, whose every byte (or
 *   16-bit sample) is a column of its own, down S rows.  Bytes ride in
 *   the lanes' high bytes (the word shifted by 8, and the word as it is):
 *   whatever the low bytes hold, the min of two lanes has the smaller
 *   high byte.
 * - The row pass: a lane word holds one sample of two rows (a warp's
 *   lanes are 64 rows), so a window along the row is a run of lane words:
 *   the block puts its rows' words once into shared memory as lane words,
 *   each thread runs the windows of its pair of rows from there, and the
 *   results leave through shared memory as words of each row. */
#include <string.h>
#include "cf-nonlin-launch.h"
#include "cf-nonlin-pass.cuh"

#define RECT_TX 32              /* lanes: words (columns), row pairs (rows) */
#define RECT_TY 8               /* warps of a block */
#define RECT_ROWS (2 * RECT_TX) /* rows of a row pass's block */
/* A row pass's tile and its outputs within what every device gives a
 * block without opting in. */
#define RECT_SMEM (48 * 1024)

namespace
{

/* The images one pass reads and writes, for one plane. */
struct RectImages
{
  const unsigned char *src, *src2;
  unsigned char *dst;
  long long src_stride, src2_stride, dst_stride;
};

struct RectArgs
{
  CfNlBytePlane planes[CF_MAX_PLANES];
  RectImages im[CF_MAX_PLANES];
  int len, anchor;
  int span;                     /* row pass: output pixels of a block */
  unsigned flip;                /* all ones for a max */
  bool to_out;                  /* the pass writes the output frame */
  int border, border_value;
};

/* The lane words of a word: LB 1, its even bytes and its odd bytes in
 * the high bytes of the lanes; LB 2, the word. */
template < int LB > struct Lanes
{
  static constexpr int N = LB == 1 ? 2 : 1;
  unsigned v[N];
};

template < int LB > __device__ __forceinline__ Lanes < LB > split (unsigned w)
{
  Lanes < LB > l;

  l.v[0] = LB == 1 ? w << 8 : w;
  if (LB == 1)
    l.v[Lanes < LB >::N - 1] = w;
  return l;
}

template < int LB > __device__ __forceinline__ unsigned
join (const Lanes < LB > &l)
{
  return LB == 1 ? __byte_perm (l.v[0], l.v[Lanes < LB >::N - 1], 0x7351) :
      l.v[0];
}

template < int LB > __device__ __forceinline__ Lanes < LB >
lanes_min (const Lanes < LB > &a, const Lanes < LB > &b)
{
  Lanes < LB > m;

#pragma unroll
  for (int i = 0; i < Lanes < LB >::N; i++)
    m.v[i] = __vminu2 (a.v[i], b.v[i]);
  return m;
}

template < int LB > __device__ __forceinline__ Lanes < LB > lanes_ident ()
{
  Lanes < LB > m;

#pragma unroll
  for (int i = 0; i < Lanes < LB >::N; i++)
    m.v[i] = 0xFFFFFFFFu;
  return m;
}

/* Kept out of line: code a warp runs once per output word, inlined at
 * every load and store of the unrolled passes, made the kernels tens of
 * KB long, fetched anew by every warp. */

/* The row's last few bytes from x as a word (the rest zero). */
__device__ __noinline__ unsigned
load_tail (const unsigned char *row, int x, int row_bytes)
{
  unsigned w = 0;

  for (int b = 0; b < row_bytes - x; b++)
    w |= (unsigned) __ldg (row + x + b) << (8 * b);
  return w;
}

/* The word at byte x of a row of row_bytes: whole, or the row's last
 * few bytes. */
__device__ __forceinline__ unsigned
load_word (const unsigned char *row, int x, int row_bytes)
{
  if (x + 4 <= row_bytes)
    return __ldg ((const unsigned *) (row + x));
  return load_tail (row, x, row_bytes);
}

/* The row's last few bytes of word v at d. */
__device__ __noinline__ void
store_tail (unsigned char *d, unsigned v, int n)
{
  for (int b = 0; b < n; b++)
    d[b] = (unsigned char) (v >> (8 * b));
}

/* Stores word v at byte x (4-aligned) of row y of the pass's output; into
 * the output frame with the copied and filled lanes put back. */
__device__ __forceinline__ void
store_word (const RectArgs & a, const CfNlBytePlane & pl,
    const RectImages & im, int x, int y, unsigned v)
{
  unsigned char *d = im.dst + y * im.dst_stride + x;

  if (a.to_out) {
    /* pixels of 8 bytes: the second word of a pixel has masks of its own */
    const bool second = (x & 4) != 0;
    const unsigned copy = second ? pl.copy2 : pl.copy;
    const unsigned in = copy ? load_word (pl.src + y * pl.src_stride, x,
        pl.row_bytes) : 0;

    v = (v & (second ? pl.keep2 : pl.keep)) | (in & copy) |
        (second ? pl.fill2 : pl.fill);
  }
  if (x + 4 <= pl.row_bytes)
    *(unsigned *) d = v;
  else
    store_tail (d, v, pl.row_bytes - x);
}

/* A word of the constant border's value in every sample. */
template < int LB > __device__ __forceinline__ unsigned
border_word (const RectArgs & a)
{
  return LB == 1 ? ((unsigned) a.border_value & 0xFF) * 0x01010101u :
      ((unsigned) a.border_value & 0xFFFF) * 0x10001u;
}

/* Row y's word at byte x of the column pass's source, y outside the
 * plane: the border's row, or `outside`. */
__device__ __noinline__ unsigned
col_word_edge (const RectArgs & a, const CfNlBytePlane & pl,
    const RectImages & im, int x, int y, unsigned outside)
{
  const int by = cf_border_index (y, pl.height, a.border);

  if (by < 0)
    return outside;
  return load_word (im.src + by * im.src_stride, x, pl.row_bytes) ^ a.flip;
}

/* Row y's word at byte x of the column pass's source, the border applied
 * above and below; flipped for a max. */
__device__ __forceinline__ unsigned
col_word (const RectArgs & a, const CfNlBytePlane & pl,
    const RectImages & im, int x, int y, unsigned outside)
{
  if ((unsigned) y >= (unsigned) pl.height)
    return col_word_edge (a, pl, im, x, y, outside);
  return load_word (im.src + y * im.src_stride, x, pl.row_bytes) ^ a.flip;
}

/* The column pass: a thread a word and S rows.  Output row y0 + t takes
 * the rows top + t .. top + t + len - 1 (top = y0 - anchor); len >= S - 1. */
template < int LB, int S > __global__ static void
__launch_bounds__ (RECT_TX * RECT_TY)
rect_col (const __grid_constant__ RectArgs a)
{
  const CfNlBytePlane & pl = a.planes[blockIdx.z];
  const RectImages & im = a.im[blockIdx.z];
  const int x = (blockIdx.x * RECT_TX + threadIdx.x) * 4;
  const int y0 = (blockIdx.y * RECT_TY + threadIdx.y) * S;
  const int len = a.len, top = y0 - a.anchor;

  if (x >= pl.row_bytes || y0 >= pl.height)
    return;

  const unsigned outside = border_word < LB > (a) ^ a.flip;
  unsigned suf_w[S - 1], pre_w[S - 1];

  /* the suffixes' and prefixes' rows first, all loads in flight */
#pragma unroll
  for (int t = 0; t < S - 1; t++) {
    suf_w[t] = col_word (a, pl, im, x, top + t, outside);
    pre_w[t] = col_word (a, pl, im, x, top + len + t, outside);
  }
  Lanes < LB > core = lanes_ident < LB > ();

#pragma unroll 4
  for (int j = S - 1; j < len; j++)
    core = lanes_min (core, split < LB > (col_word (a, pl, im, x, top + j,
                outside)));

  Lanes < LB > pre[S];

  pre[0] = core;
#pragma unroll
  for (int t = 1; t < S; t++)
    pre[t] = lanes_min (pre[t - 1], split < LB > (pre_w[t - 1]));

  Lanes < LB > suf = lanes_ident < LB > ();

#pragma unroll
  for (int t = S - 1; t >= 0; t--) {
    if (t < S - 1)
      suf = lanes_min (suf, split < LB > (suf_w[t]));
    if (y0 + t < pl.height)
      store_word (a, pl, im, x, y0 + t, join (lanes_min (suf, pre[t])) ^
          a.flip);
  }
}

/* Row y's word at byte x of the row pass's source where it leaves the
 * row: the border applied left and right, sample by sample. */
template < int LB > __device__ __noinline__ unsigned
row_word_edge (const RectArgs & a, const CfNlBytePlane & pl,
    const unsigned char *row, int x)
{
  const int ps = pl.pixel_stride;
  unsigned w = 0;

  for (int b = 0; b < 4; b++) {
    const int pos = x + b;
    const int px = pos >= 0 ? pos / ps : -((ps - 1 - pos) / ps);
    const int in_px = pos - px * ps;
    const int bx = cf_border_index (px, pl.width, a.border);
    unsigned v;

    if (bx < 0)
      v = ((unsigned) a.border_value >> (LB == 2 ? 8 * (in_px & 1) : 0)) &
          0xFF;
    else
      v = __ldg (row + bx * ps + in_px);
    w |= v << (8 * b);
  }
  return w;
}

/* Row y's word at byte x of the row pass's source (y inside the plane),
 * the border applied left and right. */
template < int LB > __device__ __forceinline__ unsigned
row_word (const RectArgs & a, const CfNlBytePlane & pl,
    const RectImages & im, int x, int y)
{
  const unsigned char *row = im.src + y * im.src_stride;

  if (x >= 0 && x + 4 <= pl.row_bytes)
    return __ldg ((const unsigned *) (row + x));
  return row_word_edge < LB > (a, pl, row, x);
}

/* Shared-memory lane word q (a sample position along the tile) of row
 * pair p: the pairs of a position are a bank each, swizzled by the word
 * the position came from, so a warp's lanes meet no bank twice whether
 * they take 32 pairs of one position or 32 words of one pair. */
template < int LB > __device__ __forceinline__ int
lane_index (int q, int p)
{
  return q * RECT_TX + (p ^ ((q / (4 / LB)) & (RECT_TX - 1)));
}

/* Lane word j of words r0 and r1 (rows 2 p and 2 p + 1). */
template < int LB > __device__ __forceinline__ unsigned
pair_lane (unsigned r0, unsigned r1, int j)
{
  if (LB == 1)
    /* byte j of each row in the high byte of a lane */
    return __byte_perm (r0, r1, j | j << 4 | (4 + j) << 8 | (4 + j) << 12);
  return __byte_perm (r0, r1, j == 0 ? 0x5410 : 0x7632);
}

/* The row pass: a block span pixels of RECT_ROWS rows; a thread one pair
 * of rows and, in turn, S outputs of one sample of the pixel.  Output
 * pixel x takes pixels x - anchor .. x - anchor + len - 1; len >= S - 1. */
template < int LB, int S > __global__ static void
__launch_bounds__ (RECT_TX * RECT_TY)
rect_row (const __grid_constant__ RectArgs a)
{
  extern __shared__ unsigned smem[];
  constexpr int PER_WORD = 4 / LB;      /* samples a word */
  const CfNlBytePlane & pl = a.planes[blockIdx.z];
  const RectImages & im = a.im[blockIdx.z];
  const int ps = pl.pixel_stride, sl = ps / LB, len = a.len;
  const int span = a.span, x0 = blockIdx.x * span;
  const int y0 = blockIdx.y * RECT_ROWS;
  const int p = threadIdx.x;

  if (x0 >= pl.width || y0 >= pl.height)
    return;

  /* the tile: the block's windows' bytes from a 4-byte boundary */
  const int b_start = (x0 - a.anchor) * ps;
  const int b_org = b_start - (((b_start % 4) + 4) % 4);
  const int off = (b_start - b_org) / LB;
  const int n_words = (b_start - b_org + (span + len - 1) * ps + 3) / 4;
  unsigned *tile = smem;
  unsigned *out = smem + n_words * PER_WORD * RECT_TX;

  for (int w = threadIdx.x; w < n_words; w += RECT_TX) {
    constexpr int K = RECT_TX / RECT_TY;        /* pairs a warp */
    unsigned r[K][2];

#pragma unroll
    for (int k = 0; k < K; k++) {
      const int y = y0 + 2 * (threadIdx.y + k * RECT_TY);

      r[k][0] = y < pl.height ? row_word < LB > (a, pl, im, b_org + 4 * w,
          y) : 0;
      r[k][1] = y + 1 < pl.height ? row_word < LB > (a, pl, im,
          b_org + 4 * w, y + 1) : 0;
    }
#pragma unroll
    for (int k = 0; k < K; k++)
#pragma unroll
      for (int j = 0; j < PER_WORD; j++)
        tile[lane_index < LB > (w * PER_WORD + j, threadIdx.y + k * RECT_TY)]
            = pair_lane < LB > (r[k][0], r[k][1], j) ^ a.flip;
  }
  __syncthreads ();

  /* unit u: sample c of the pixel, outputs seg S .. seg S + S - 1 */
  const int n_units = sl * (span / S);

  for (int u = threadIdx.y; u < n_units; u += RECT_TY) {
    const int c = u % sl, seg = u / sl;
    const int base = seg * S * sl + c + off;
#define RD(j) tile[lane_index < LB > (base + (j) * sl, p)]
    unsigned core = 0xFFFFFFFFu, pre[S];

#pragma unroll 4
    for (int j = S - 1; j < len; j++)
      core = __vminu2 (core, RD (j));
    pre[0] = core;
#pragma unroll
    for (int t = 1; t < S; t++)
      pre[t] = __vminu2 (pre[t - 1], RD (len + t - 1));
    unsigned suf = 0xFFFFFFFFu;

#pragma unroll
    for (int t = S - 1; t >= 0; t--) {
      if (t < S - 1)
        suf = __vminu2 (suf, RD (t));
      out[lane_index < LB > ((seg * S + t) * sl + c, p)] =
          __vminu2 (suf, pre[t]) ^ a.flip;
    }
#undef RD
  }
  __syncthreads ();

  /* the outputs, as words of each row of the pair */
  const int x_first = x0 * ps;
  const int n_out = min (span * ps, pl.row_bytes - x_first);

  for (int w = threadIdx.x; 4 * w < n_out; w += RECT_TX) {
#pragma unroll
    for (int k = 0; k < RECT_TX / RECT_TY; k++) {
      const int pr = threadIdx.y + k * RECT_TY, y = y0 + 2 * pr;
      unsigned w0, w1;

      if (LB == 1) {
        const unsigned t0 = __byte_perm (out[lane_index < LB > (4 * w, pr)],
            out[lane_index < LB > (4 * w + 1, pr)], 0x7531);
        const unsigned t1 = __byte_perm (out[lane_index < LB > (4 * w + 2,
                    pr)], out[lane_index < LB > (4 * w + 3, pr)], 0x7531);

        w0 = __byte_perm (t0, t1, 0x6420);
        w1 = __byte_perm (t0, t1, 0x7531);
      } else {
        const unsigned l0 = out[lane_index < LB > (2 * w, pr)];
        const unsigned l1 = out[lane_index < LB > (2 * w + 1, pr)];

        w0 = __byte_perm (l0, l1, 0x5410);
        w1 = __byte_perm (l0, l1, 0x7632);
      }
      if (y < pl.height)
        store_word (a, pl, im, x_first + 4 * w, y, w0);
      if (y + 1 < pl.height)
        store_word (a, pl, im, x_first + 4 * w, y + 1, w1);
    }
  }
}

/* The saturated difference src - src2, a word a thread. */
template < int LB > __global__ static void
__launch_bounds__ (RECT_TX * RECT_TY)
rect_sub (const __grid_constant__ RectArgs a)
{
  const CfNlBytePlane & pl = a.planes[blockIdx.z];
  const RectImages & im = a.im[blockIdx.z];
  const int x = (blockIdx.x * RECT_TX + threadIdx.x) * 4;
  const int y = blockIdx.y * RECT_TY + threadIdx.y;

  if (x >= pl.row_bytes || y >= pl.height)
    return;

  const unsigned s = load_word (im.src + y * im.src_stride, x, pl.row_bytes);
  const unsigned s2 = load_word (im.src2 + y * im.src2_stride, x,
      pl.row_bytes);

  store_word (a, pl, im, x, y, LB == 1 ? __vsubus4 (s, s2) :
      __vsubus2 (s, s2));
}

/* Outputs a thread of a line of len: the widest run whose windows still
 * share a sample or abut (len >= S - 1), at most 16. */
int
run_length (int len)
{
  return len >= 15 ? 16 : len >= 7 ? 8 : 4;
}

/* Whether every pass of nl is one these kernels run. */
bool
rect_program (const CfNonlin * nl)
{
  if (nl->n_passes < 1)
    return false;
  for (int i = 0; i < nl->n_passes; i++) {
    const CfNlPass & p = nl->passes[i];

    if (p.step == CF_NL_SUB)
      continue;
    if (p.step < CF_NL_MIN_ROW || p.step > CF_NL_MAX_COL || p.len < 3)
      return false;
  }
  return true;
}

/* Shared memory of a row pass's block of `span` pixels of ps bytes. */
size_t
row_bytes_smem (int span, int len, int ps, int lb)
{
  const int n_words = (3 + (span + len - 1) * ps + 3) / 4;

  return (size_t) (n_words * (4 / lb) + span * ps / lb) * RECT_TX *
      sizeof (unsigned);
}

/* The widest block of a row pass whose tile fits; 0 when none does. */
int
row_span (int len, int max_ps, int lb)
{
  for (int span = 128; span >= 16; span /= 2)
    if (row_bytes_smem (span, len, max_ps, lb) <= RECT_SMEM)
      return span;
  return 0;
}

/* The largest of the planes' row bytes, widths, heights and pixels. */
struct RectExtent
{
  int row_bytes, width, height, pixel_stride;
};

/* The frame's planes for the program and their extent; false when the
 * kernels don't take them. */
bool
rect_planes (const CfDeviceFrame * frame, const CfNonlin * nl,
    CfNlBytePlane * planes, int *n, int *lb, RectExtent * e)
{
  if (!rect_program (nl) || !cf_nl_make_planes (frame, planes, n, lb) ||
      *n == 0)
    return false;
  memset (e, 0, sizeof (*e));
  for (int i = 0; i < *n; i++) {
    e->row_bytes = max (e->row_bytes, planes[i].row_bytes);
    e->width = max (e->width, planes[i].width);
    e->height = max (e->height, planes[i].height);
    e->pixel_stride = max (e->pixel_stride, planes[i].pixel_stride);
  }
  for (int i = 0; i < nl->n_passes; i++) {
    const CfNlPass & p = nl->passes[i];

    if ((p.step == CF_NL_MIN_ROW || p.step == CF_NL_MAX_ROW) &&
        row_span (p.len, e->pixel_stride, *lb) == 0)
      return false;
  }
  return true;
}

/* Scratch images in the planes' layout: each plane's rows padded to 16
 * bytes, the planes back to back. */
struct RectScratch
{
  unsigned char *data;
  long long image;              /* bytes of one image */
  long long off[CF_MAX_PLANES], pitch[CF_MAX_PLANES];
};

void
rect_layout (const CfNlBytePlane * planes, int n, unsigned char *data,
    RectScratch * s)
{
  s->data = data;
  s->image = 0;
  for (int i = 0; i < n; i++) {
    s->pitch[i] = ((long long) planes[i].row_bytes + 15) & ~15LL;
    s->off[i] = s->image;
    s->image += s->pitch[i] * planes[i].height;
  }
}

/* Image `id` of a pass (CF_NL_FRAME, CF_NL_OUT or a scratch index) of
 * plane i: its first row and stride. */
unsigned char *
rect_image (int id, const CfNlBytePlane * planes, int i,
    const RectScratch & s, long long *stride)
{
  if (id == CF_NL_FRAME) {
    *stride = planes[i].src_stride;
    return const_cast < unsigned char *>(planes[i].src);
  }
  if (id == CF_NL_OUT) {
    *stride = planes[i].dst_stride;
    return planes[i].dst;
  }
  *stride = s.pitch[i];
  return s.data + id * s.image + s.off[i];
}

template < int LB > cudaError_t
launch_pass (const CfNlPass & p, const RectArgs & a, int n,
    const RectExtent & e, cudaStream_t stream)
{
  const dim3 block (RECT_TX, RECT_TY);
  const int s = run_length (p.len);

  if (p.step == CF_NL_SUB) {
    const dim3 grid ((e.row_bytes + 4 * RECT_TX - 1) / (4 * RECT_TX),
        (e.height + RECT_TY - 1) / RECT_TY, n);

    rect_sub < LB > <<<grid, block, 0, stream >>> (a);
  } else if (p.step == CF_NL_MIN_COL || p.step == CF_NL_MAX_COL) {
    const dim3 grid ((e.row_bytes + 4 * RECT_TX - 1) / (4 * RECT_TX),
        (e.height + RECT_TY * s - 1) / (RECT_TY * s), n);

    if (s == 16)
      rect_col < LB, 16 > <<<grid, block, 0, stream >>> (a);
    else if (s == 8)
      rect_col < LB, 8 > <<<grid, block, 0, stream >>> (a);
    else
      rect_col < LB, 4 > <<<grid, block, 0, stream >>> (a);
  } else {
    const size_t smem = row_bytes_smem (a.span, p.len, e.pixel_stride, LB);
    const dim3 grid ((e.width + a.span - 1) / a.span,
        (e.height + RECT_ROWS - 1) / RECT_ROWS, n);

    if (s == 16)
      rect_row < LB, 16 > <<<grid, block, smem, stream >>> (a);
    else if (s == 8)
      rect_row < LB, 8 > <<<grid, block, smem, stream >>> (a);
    else
      rect_row < LB, 4 > <<<grid, block, smem, stream >>> (a);
  }
  return cudaGetLastError ();
}

}                               /* namespace */

size_t
cf_nl_rect_scratch_bytes (const CfDeviceFrame * frame, const CfNonlin * nl)
{
  CfNlBytePlane planes[CF_MAX_PLANES];
  RectExtent e;
  RectScratch s;
  int n, lb;

  if (!rect_planes (frame, nl, planes, &n, &lb, &e))
    return 0;
  rect_layout (planes, n, NULL, &s);
  return (size_t) (s.image * nl->n_scratch);
}

extern "C" int
cf_nonlin_rect_planes (const CfDeviceFrame * frame, const CfNonlin * nl)
{
  CfNlBytePlane planes[CF_MAX_PLANES];
  RectExtent e;
  int n, lb;

  return rect_planes (frame, nl, planes, &n, &lb, &e);
}

cudaError_t
cf_nl_rect_run (const CfDeviceFrame * frame, const CfKernelParams * kp,
    const CfNonlin * nl, unsigned char *scratch, cudaStream_t stream)
{
  CfNlBytePlane planes[CF_MAX_PLANES];
  RectExtent e;
  RectScratch s;
  int n, lb;
  RectArgs a;

  if (!rect_planes (frame, nl, planes, &n, &lb, &e))
    return cudaErrorNotSupported;
  rect_layout (planes, n, scratch, &s);
  memset (&a, 0, sizeof (a));
  memcpy (a.planes, planes, sizeof (planes));
  a.border = kp->border;
  a.border_value = kp->border_value;

  for (int k = 0; k < nl->n_passes; k++) {
    const CfNlPass & p = nl->passes[k];
    cudaError_t err;

    for (int i = 0; i < n; i++) {
      RectImages & im = a.im[i];

      im.src = rect_image (p.src, planes, i, s, &im.src_stride);
      im.src2 = rect_image (p.src2, planes, i, s, &im.src2_stride);
      im.dst = rect_image (p.dst, planes, i, s, &im.dst_stride);
    }
    a.to_out = p.dst == CF_NL_OUT;
    a.len = p.len;
    a.anchor = p.anchor;
    a.flip = p.step == CF_NL_MAX_ROW || p.step == CF_NL_MAX_COL ?
        0xFFFFFFFFu : 0u;
    a.span = row_span (p.len, e.pixel_stride, lb);
    err = lb == 1 ? launch_pass < 1 > (p, a, n, e, stream) :
        launch_pass < 2 > (p, a, n, e, stream);
    if (err != cudaSuccess)
      return err;
  }
  return cudaSuccess;
}
