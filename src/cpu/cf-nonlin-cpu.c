/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: the fast CPU backend's nonlinear operations: each
 * pass of the spec's program (CfNonlin) over bands of rows on the thread
 * pool.  The rows a window reads are expanded once with their border into
 * a ring of plain 16-bit rows, so the operations are loops over arrays
 * with no border logic (cf-nonlin-rows.c, vectorised per instruction
 * set): min/max lane by lane, a rectangle's row pass fused into its column
 * pass, rows of a rectangle by van Herk / Gil-Werman when long, an
 * element's rows as runs, medians up to 7x7 by selection networks over
 * whole rows, the 8-bit median of larger windows with a sliding histogram
 * (Huang), deeper ones by selection, the bilateral with the spec's integer
 * weights in 64-bit sums (the CUDA kernels' sums, in another order: the
 * same bytes; at 8 bits all of a colour's channels at once, bilateral8).
 * 8-bit channels run 3x3 and 5x5 medians and rectangles in rows of bytes
 * (byte_rows): one byte a pixel, or planes of interleaved 8-bit channels
 * as whole pixels (RGBA: every byte a lane, alpha blended back); their
 * 3x3 medians and rectangles read the frame's rows in place, alpha merged
 * in the output's one store (byte_rows3).  Steps without row code
 * (differences, and a new step until it has some) run sample by sample
 * with kernels/cf-nonlin.h, as the CUDA kernel does: adding an operation
 * needs no code here to be correct. */
#include <string.h>
#include "cf-nonlin-cpu.h"
#include "cf-nonlin-rows.h"
#include "cf-nonlin.h"
#include "cf-backend.h"

/* The rows of one image a pass reads, expanded with the border: row v
 * (v may lie outside the frame) sits in slot v mod kh. */
typedef struct
{
  guint16 *buf;
  int pitch;                    /* w + kw - 1 */
  int *have;                    /* the row each slot holds, or G_MININT */
} Ring;

/* Scratch of one part (one thread), grown when a pass needs more. */
typedef struct
{
  guint8 *mem;
  gsize len;
  /* The bilateral's pairs (bilateral_pairs_row): its range weights. */
  guint8 *pairs;
  gsize pairs_len;
} PartScratch;

struct _CfNonlinCpu
{
  const CfNlRows *rows;         /* the instruction set's row kernels */
  guint16 *scratch;
  gsize scratch_len;
  PartScratch parts[CF_CPU_MAX_THREADS];
  /* The frame and pass being run, for the pool's parts. */
  const CfSpec *spec;
  const CfLayout *layout;
  const CfFrame *in, *out;
  const CfNlPass *pass;
  const CfNlPass *row_pass;     /* a row pass fused into `pass`, or NULL */
  gsize chan_off[CF_MAX_CHANNELS];      /* scratch sample offsets */
  gsize image_len;              /* samples of one scratch image, all channels */
  int groups[CF_MAX_CHANNELS][3];
  /* The bilateral of 8-bit samples (bilateral8), for the spec being run:
   * its offsets (space, dx, dy) in runs of equal space weight, its range
   * weights padded with zeros; bl_n 0 when it does not apply. */
  int bl_n;
  int *bl_offsets;
  int bl_range[CF_NL_BILATERAL8_RANGE];
  /* One colour's pairs (bilateral_pairs_row): bl_nf offsets forward (dy >
   * 0, or dy 0 and dx > 0), each with its mirror; bl_pair holds, n
   * entries each, their dx, dy and first row in the ring of range
   * weights (dy + 1 rows each, bl_wrows in all), then each offset's
   * (bl_offsets' order) weights: -1 the centre's, 2 f forward offset f's,
   * 2 f + 1 its mirror's, then the end of each one's run of equal space
   * weights.  bl_nf 0: no pairs. */
  int bl_nf, bl_wrows;
  int *bl_pair;
  /* The spec whose tables those are (its serial), made when it changes,
   * not every frame. */
  gboolean bl_planned;
  guint64 bl_serial;
};

/* A pass's window: kw x kh samples, (x, y) at (ax, ay) in it. */
typedef struct
{
  int kw, kh, ax, ay;
} Window;

/* The row kernels of instruction set `isa` (cf_cpu_band_func's name). */
static const CfNlRows *
rows_for (const char *isa)
{
#if defined(CF_CPU_X86_VARIANTS)
  if (g_strcmp0 (isa, "avx512") == 0)
    return &cf_nl_rows_avx512;
  if (g_strcmp0 (isa, "avx2") == 0)
    return &cf_nl_rows_avx2;
#endif
  (void) isa;
  return &cf_nl_rows_portable;
}

CfNonlinCpu *
cf_nonlin_cpu_new (const char *isa)
{
  CfNonlinCpu *self = g_new0 (CfNonlinCpu, 1);

  self->rows = rows_for (isa);
  return self;
}

void
cf_nonlin_cpu_free (CfNonlinCpu * self)
{
  int i;

  if (self == NULL)
    return;
  for (i = 0; i < CF_CPU_MAX_THREADS; i++) {
    g_free (self->parts[i].mem);
    g_free (self->parts[i].pairs);
  }
  g_free (self->bl_pair);
  g_free (self->scratch);
  g_free (self->bl_offsets);
  g_free (self);
}

static void
image_of (const CfNonlinCpu * self, int c, int id, CfNlImage * im)
{
  const CfChannel *ch = &self->layout->channels[c];

  im->ch = *ch;
  if (id == CF_NL_FRAME) {
    im->frame = self->in->data[ch->plane] + ch->offset;
    im->stride = self->in->stride[ch->plane];
    im->scratch = NULL;
  } else {
    im->frame = NULL;
    im->stride = 0;
    im->scratch = self->scratch + (gsize) id * self->image_len +
        self->chan_off[c];
  }
}

static Window
window_of (const CfNonlin * nl, const CfNlPass * p)
{
  Window w = { 1, 1, 0, 0 };

  switch (p->step) {
    case CF_NL_MEDIAN:
      w.kw = w.kh = p->len;
      w.ax = w.ay = p->len / 2;
      break;
    case CF_NL_MIN_ROW:
    case CF_NL_MAX_ROW:
      w.kw = p->len;
      w.ax = p->anchor;
      break;
    case CF_NL_MIN_COL:
    case CF_NL_MAX_COL:
      w.kh = p->len;
      w.ay = p->anchor;
      break;
    case CF_NL_MIN_SE:
    case CF_NL_MAX_SE:
      w.kw = nl->se_w;
      w.kh = nl->se_h;
      w.ax = nl->se_ax;
      w.ay = nl->se_ay;
      break;
    case CF_NL_BILATERAL:
      w.kw = w.kh = 2 * p->len + 1;
      w.ax = w.ay = p->len;
      break;
    default:
      break;
  }
  return w;
}

static gsize
align64 (gsize n)
{
  return (n + 63) & ~(gsize) 63;
}

/* Expands row v of `im` (border rows included) into dst. */
static void
expand_row (const CfNlRows * kr, const CfNlImage * im, const Window * win,
    int v, const CfKernelParams * kp, guint16 * dst)
{
  int w = im->ch.width, n = w + win->kw - 1, y, e;

  y = cf_border_index (v, im->ch.height, kp->border);
  if (y < 0) {
    for (e = 0; e < n; e++)
      dst[e] = (guint16) kp->border_value;
    return;
  }
  /* The frame's inside: plain words straight, other encodings decoded. */
  if (im->frame == NULL) {
    memcpy (dst + win->ax, im->scratch + (gsize) y * w, w * sizeof (guint16));
  } else if (cf_sample_is_plain (&im->ch, 1)
      || cf_sample_is_plain (&im->ch, 2)) {
    kr->widen (im->frame + y * im->stride, im->ch.pixel_stride,
        im->ch.word_bytes, w, dst + win->ax);
  } else {
    int x;

    for (x = 0; x < w; x++)
      dst[win->ax + x] = (guint16) cf_nl_read (im, x, y);
  }
  for (e = 0; e < n; e++) {
    int x = e - win->ax;

    if (x >= 0 && x < w) {
      e = win->ax + w - 1;      /* done above */
    } else {
      int bx = cf_border_index (x, w, kp->border);

      dst[e] = (guint16) (bx < 0 ? kp->border_value : cf_nl_read (im, bx, y));
    }
  }
}

/* A row pass a column pass reads fused into it: each ring row is then the
 * row pass's output row, made from the expanded row (wide) when the
 * column window first reaches it, never stored as an image. */
typedef struct
{
  const CfNlPass *pass;
  Window win;
  guint16 *wide;                /* w + win.kw - 1 samples */
  guint16 *tmp;                 /* 2 (w + win.kw - 1) samples */
} RowFirst;

static const guint16 *
ring_row (const CfNlRows * kr, Ring * r, const CfNlImage * im,
    const Window * win, int v, const CfKernelParams * kp,
    const RowFirst * rf)
{
  int slot = ((v % win->kh) + win->kh) % win->kh;
  guint16 *row = r->buf + (gsize) slot * r->pitch;

  if (r->have[slot] != v) {
    if (rf == NULL) {
      expand_row (kr, im, win, v, kp, row);
    } else {
      /* A row outside the frame is its border row's, or border_value's
       * (whose min and max are border_value): as the column pass reads
       * the row pass's image. */
      expand_row (kr, im, &rf->win, v, kp, rf->wide);
      kr->line (rf->wide, rf->pass->len, im->ch.width,
          rf->pass->step == CF_NL_MAX_ROW, rf->tmp, row);
    }
    r->have[slot] = v;
  }
  return row;
}

/* 8-bit rows: the same as expand_row and ring_row for the pixels of a
 * plane of 8-bit channels read from the frame (byte_rows below), ps bytes
 * a pixel, the ring's rows holding bytes: whole pixels, the border's
 * too. */
typedef struct
{
  const guint8 *data;           /* the plane's first row */
  gsize stride;
  int w, h, ps;
  /* The pixel each border pixel of an expanded row copies (-1: the
   * border value), for the expanding window (byte_plane_border): left
   * of the row, then right of it. */
  int border[2 * CF_MAX_TAPS + 2];
} BytePlane;

/* bp->border for expanding by win: once, not every row. */
static void
byte_plane_border (BytePlane * bp, const Window * win,
    const CfKernelParams * kp)
{
  const int n = win->kw - 1;
  int e;

  for (e = 0; e < n; e++) {
    int x = e < win->ax ? e - win->ax : bp->w + e - win->ax;

    bp->border[e] = cf_border_index (x, bp->w, kp->border);
  }
}

static void
expand_row8 (const BytePlane * bp, const Window * win, int v,
    const CfKernelParams * kp, guint8 * dst)
{
  const int w = bp->w, ps = bp->ps, n = w + win->kw - 1;
  const guint8 *row;
  int y, e;

  y = cf_border_index (v, bp->h, kp->border);
  if (y < 0) {
    memset (dst, kp->border_value, (gsize) n * ps);
    return;
  }
  row = bp->data + y * bp->stride;
  memcpy (dst + win->ax * ps, row, (gsize) w * ps);
  for (e = 0; e < win->kw - 1; e++) {
    const int bx = bp->border[e];
    guint8 *d = dst + (e < win->ax ? e : w + e) * ps;
    int b;

    for (b = 0; b < ps; b++)
      d[b] = bx < 0 ? kp->border_value : row[bx * ps + b];
  }
}

static const guint8 *
ring_row8 (const CfNlRows * kr, Ring * r, const BytePlane * bp,
    const Window * win, int v, const CfKernelParams * kp,
    const RowFirst * rf)
{
  int slot = ((v % win->kh) + win->kh) % win->kh;
  guint8 *row = (guint8 *) (r->buf + (gsize) slot * r->pitch);

  if (r->have[slot] != v) {
    if (rf == NULL) {
      expand_row8 (bp, win, v, kp, row);
    } else {
      expand_row8 (bp, &rf->win, v, kp, (guint8 *) rf->wide);
      kr->line8 ((guint8 *) rf->wide, rf->pass->len, bp->w, bp->ps,
          rf->pass->step == CF_NL_MAX_ROW, (guint8 *) rf->tmp, row);
    }
    r->have[slot] = v;
  }
  return row;
}

/* The rank-th smallest of n values (n small): selection in place. */
static int
select_rank (guint16 * a, int n, int rank)
{
  int lo = 0, hi = n - 1;

  while (hi > lo) {
    guint16 pivot = a[(lo + hi) / 2];
    int i = lo, j = hi;

    while (i <= j) {
      while (a[i] < pivot)
        i++;
      while (a[j] > pivot)
        j--;
      if (i <= j) {
        guint16 t = a[i];

        a[i++] = a[j];
        a[j--] = t;
      }
    }
    if (rank <= j)
      hi = j;
    else if (rank >= i)
      lo = i;
    else
      break;
  }
  return a[rank];
}

/* Medians of one row of outputs from the k expanded rows: the network
 * up to 5x5, and up to 7x7 but for 8 bits, where the histogram is faster.
 * Never inlined: its histogram loop keeps its own registers whatever the
 * caller grows. */
G_GNUC_NO_INLINE static void
median_row (const CfNlRows * kr, const guint16 * const *rows, int k, int w,
    int rank, gboolean bytes, guint32 * hist, guint16 * gather, guint16 * out)
{
  int x, i, j;

  if (rank == (k * k - 1) / 2 && (k <= 5 ||
          (k <= CF_NL_ROWS_MAX_NETWORK && !bytes))) {
    kr->median (rows, k, w, bytes, out);
    return;
  }
  if (!bytes || k < 7) {
    for (x = 0; x < w; x++) {
      int n = 0;

      for (j = 0; j < k; j++)
        for (i = 0; i < k; i++)
          gather[n++] = rows[j][x + i];
      out[x] = select_rank (gather, n, rank);
    }
    return;
  }
  /* Huang: a histogram of the window slides along the row; the median m
   * and the count of samples below it follow the changes. */
  {
    int m = 0, below = 0;

    memset (hist, 0, 256 * sizeof (guint32));
    for (j = 0; j < k; j++)
      for (i = 0; i < k; i++)
        hist[rows[j][i]]++;
    for (x = 0; x < w; x++) {
      if (x > 0) {
        for (j = 0; j < k; j++) {
          int gone = rows[j][x - 1], come = rows[j][x + k - 1];

          hist[gone]--;
          below -= gone < m;
          hist[come]++;
          below += come < m;
        }
      }
      while (below > rank)
        below -= hist[--m];
      while (below + (int) hist[m] <= rank)
        below += hist[m++];
      out[x] = m;
    }
  }
}

/* Min or max of a row pass (a line of kw), a column pass (kh rows) or an
 * element (each of its rows as runs of ones). */
static void
minmax_rows (const CfNlRows * kr, const guint16 * const *rows,
    const Window * win, const int *se, gboolean max, int w, int maxval,
    guint16 * tmp, guint16 * line, guint16 * out)
{
  int x, i, j;

  if (se == NULL && win->kh == 1) {
    kr->line (rows[0], win->kw, w, max, tmp, out);
    return;
  }
  if (se == NULL) {
    kr->column (rows, win->kh, w, max, out);
    return;
  }
  for (x = 0; x < w; x++)
    out[x] = max ? 0 : maxval;
  for (j = 0; j < win->kh; j++)
    for (i = 0; i < win->kw; i++) {
      int e = i;

      if (!se[j * win->kw + i])
        continue;
      while (e + 1 < win->kw && se[j * win->kw + e + 1])
        e++;
      if (e == i) {
        kr->accumulate (out, rows[j] + i, w, max);
      } else {
        kr->line (rows[j] + i, e - i + 1, w, max, tmp, line);
        kr->accumulate (out, line, w, max);
      }
      i = e;
    }
}

/* Bilateral of one row: n colour images' rows (rows[c][j]), own = the
 * channel written into out; with bilateral8 every channel of the colour
 * at once, into outs[c]. */
static void
bilateral_row (const CfNonlinCpu * self, const guint16 * const *rows[3],
    int n, int own, const Window * win, int w, gint64 * sum, gint64 * wsum,
    const guint16 ** taps, guint16 * out, guint16 * const *outs)
{
  const CfNonlin *nl = &self->spec->nl;
  const int *table = self->spec->table;
  const int *space = table + nl->off_space;
  const int *dx = space + nl->n_offsets, *dy = dx + nl->n_offsets;
  const int *range = table + nl->off_range;
  int x, k, c;

  if (self->bl_n > 0) {
    const int *bdx = self->bl_offsets + self->bl_n, *bdy = bdx + self->bl_n;
    const guint16 *centre[3];

    for (c = 0; c < n; c++) {
      centre[c] = rows[c][win->ay] + win->ax;
      for (k = 0; k < self->bl_n; k++)
        taps[c * self->bl_n + k] = rows[c][win->ay + bdy[k]] + win->ax +
            bdx[k];
    }
    self->rows->bilateral8 (taps, centre, n, self->bl_offsets, self->bl_n,
        self->bl_range, w, outs);
    return;
  }
  memset (sum, 0, sizeof (gint64) * w);
  memset (wsum, 0, sizeof (gint64) * w);
  for (k = 0; k < nl->n_offsets; k++) {
    int j = dy[k] + win->ay, i = dx[k] + win->ax;

    for (x = 0; x < w; x++) {
      int d = 0;
      gint64 wt;

      for (c = 0; c < n; c++) {
        int s = rows[c][j][x + i], m = rows[c][win->ay][x + win->ax];

        d += s > m ? s - m : m - s;
      }
      if (d >= nl->range_len)
        continue;
      wt = (gint64) space[k] * range[d];
      sum[x] += wt * rows[own][j][x + i];
      wsum[x] += wt;
    }
  }
  for (x = 0; x < w; x++)
    out[x] = (guint16) ((sum[x] + wsum[x] / 2) / wsum[x]);
}

/* *mem with room for need bytes (and 64 over, to align its start to 64),
 * kept between frames and grown, never shrunk: *len its room. */
static guint8 *
scratch_room (guint8 ** mem, gsize * len, gsize need)
{
  if (need > *len) {
    g_free (*mem);
    *mem = g_malloc (need + 64);
    *len = need;
  }
  return *mem;
}

/* Ring row of forward offset f's range weights for image row yy, at x 0. */
static int *
pair_ring_row (const CfNonlinCpu * self, int *ring, gsize pitch,
    const Window * win, int f, int yy)
{
  const int n = self->bl_n, dy = self->bl_pair[n + f];
  const int slot = ((yy % (dy + 1)) + dy + 1) % (dy + 1);

  return ring + (self->bl_pair[2 * n + f] + slot) * pitch + win->ax;
}

/* Forward offset f's range weights of image row y + j (rows: output row
 * y's window), at x from min (0, -dx) to w + max (0, -dx): what output
 * rows y + j (at x) and y + j + dy (through the mirror, at x + dx) read. */
static void
pair_row (const CfNonlinCpu * self, int *ring, gsize pitch,
    const guint16 * const *rows, const Window * win, int w, int y, int j,
    int f)
{
  const int n = self->bl_n, dx = self->bl_pair[f], dy = self->bl_pair[n + f];
  const int lo = MIN (0, -dx), hi = w + MAX (0, -dx);
  const guint16 *a = rows[win->ay + j] + win->ax;
  const guint16 *b = rows[win->ay + j + dy] + win->ax + dx;

  self->rows->bilateral8_pairs (a + lo, b + lo, self->bl_range, hi - lo,
      pair_ring_row (self, ring, pitch, win, f, y + j) + lo);
}

/* The bilateral of one 8-bit colour, output row y of the part's rows y0
 * .. (rows: its window), each range weight looked up once for both
 * outputs of its pair (24 lookups an output instead of 49 at d 9):
 * forward offset f's weights of each image row are kept in a ring of dy +
 * 1 rows, until the row dy below reads them through the mirror offset
 * (the band's first row makes those of the dy rows above it).  The
 * centre's weight is range[0], a row of it. */
static void
bilateral_pairs_row (const CfNonlinCpu * self, PartScratch * ps,
    const guint16 * const *rows, const Window * win, int w, int y, int y0,
    const guint16 ** taps, guint16 * out)
{
  const int n = self->bl_n, nf = self->bl_nf;
  const int *bdx = self->bl_offsets + n, *bdy = bdx + n;
  const int *fdx = self->bl_pair, *fdy = fdx + n, *kind = fdx + 3 * n;
  const gsize pitch = (gsize) w + win->kw - 1;
  const gsize need = n * sizeof (gpointer) +
      pitch * (self->bl_wrows + 1) * sizeof (int);
  const int **wts;
  int *ring, *centre, f, k, t, x;

  wts = (const int **) scratch_room (&ps->pairs, &ps->pairs_len, need);
  ring = (int *) (wts + n);
  centre = ring + pitch * self->bl_wrows;
  if (y == y0) {
    for (x = 0; x < w; x++)
      centre[x] = self->bl_range[0];
    for (f = 0; f < nf; f++)
      for (t = -fdy[f]; t < 0; t++)
        pair_row (self, ring, pitch, rows, win, w, y, t, f);
  }
  for (f = 0; f < nf; f++)
    pair_row (self, ring, pitch, rows, win, w, y, 0, f);
  for (k = 0; k < n; k++) {
    taps[k] = rows[win->ay + bdy[k]] + win->ax + bdx[k];
    f = kind[k] >> 1;
    if (kind[k] < 0)
      wts[k] = centre;
    else if (kind[k] & 1)
      wts[k] = pair_ring_row (self, ring, pitch, win, f, y - fdy[f]) -
          fdx[f];
    else
      wts[k] = pair_ring_row (self, ring, pitch, win, f, y);
  }
  self->rows->bilateral8_sum (taps, wts, self->bl_offsets, kind + n, n, 0,
      w, out);
}

/* Carves the part's scratch: rings of n_images x kh rows, the output row,
 * the bilateral's sums, the median's histogram and gathered window. */
typedef struct
{
  Ring rings[3];
  guint16 *out;
  guint16 *line;                /* a line's min/max: w samples */
  guint16 *tmp;                 /* its prefixes and suffixes: 2 pitch */
  guint16 *group;               /* CF_NL_COL_GROUP output rows of w */
  gint64 *sum, *wsum;
  guint32 *hist;
  guint16 *gather;
  const guint16 **taps;         /* the bilateral's: 3 kw kh */
} Carved;

/* Carves the scratch, and a fused row pass's rows (rf->wide, rf->tmp)
 * where there is one (rf not NULL), for rows of w_px pixels of spp
 * samples (byte_rows' interleaved pixels: spp samples of 16 bits, twice
 * their bytes). */
static void
carve (PartScratch * ps, const Window * win, int w_px, int spp,
    int n_images, RowFirst * rf, Carved * c)
{
  const int row_kw = rf ? rf->win.kw : 1;
  const gsize w = (gsize) w_px * spp;
  gsize pitch = ((gsize) w_px + win->kw - 1) * spp;
  gsize wide = align64 (((gsize) w_px + row_kw - 1) * spp * sizeof (guint16));
  gsize ring = align64 (pitch * win->kh * sizeof (guint16));
  gsize have = align64 (win->kh * sizeof (int));
  gsize need = n_images * (ring + have) + 2 * align64 (w * sizeof (guint16)) +
      align64 (2 * pitch * sizeof (guint16)) +
      align64 (CF_NL_COL_GROUP * w * sizeof (guint16)) +
      2 * align64 (w * sizeof (gint64)) + align64 (256 * sizeof (guint32)) +
      align64 ((gsize) win->kw * win->kh * sizeof (guint16)) + 3 * wide +
      align64 ((gsize) 3 * win->kw * win->kh * sizeof (gpointer));
  guint8 *p;
  int i, s;

  p = scratch_room (&ps->mem, &ps->len, need);
  p = (guint8 *) (((guintptr) p + 63) & ~(guintptr) 63);
  for (i = 0; i < n_images; i++) {
    c->rings[i].buf = (guint16 *) p;
    c->rings[i].pitch = (int) pitch;
    p += ring;
    c->rings[i].have = (int *) p;
    for (s = 0; s < win->kh; s++)
      c->rings[i].have[s] = G_MININT;
    p += have;
  }
  c->out = (guint16 *) p;
  p += align64 (w * sizeof (guint16));
  c->line = (guint16 *) p;
  p += align64 (w * sizeof (guint16));
  c->tmp = (guint16 *) p;
  p += align64 (2 * pitch * sizeof (guint16));
  c->group = (guint16 *) p;
  p += align64 ((gsize) CF_NL_COL_GROUP * w * sizeof (guint16));
  c->sum = (gint64 *) p;
  p += align64 (w * sizeof (gint64));
  c->wsum = (gint64 *) p;
  p += align64 (w * sizeof (gint64));
  c->hist = (guint32 *) p;
  p += align64 (256 * sizeof (guint32));
  c->gather = (guint16 *) p;
  p += align64 ((gsize) win->kw * win->kh * sizeof (guint16));
  c->taps = (const guint16 **) p;
  p += align64 ((gsize) 3 * win->kw * win->kh * sizeof (gpointer));
  if (rf != NULL) {
    rf->wide = (guint16 *) p;
    rf->tmp = (guint16 *) (p + wide);
  }
}

/* The row pass fused into the current pass (self->row_pass), in rf; NULL
 * when there is none. */
static RowFirst *
row_first (const CfNonlinCpu * self, RowFirst * rf)
{
  if (self->row_pass == NULL)
    return NULL;
  rf->pass = self->row_pass;
  rf->win = window_of (&self->spec->nl, self->row_pass);
  return rf;
}

static void
store_row (const CfNonlinCpu * self, int c, int y, const guint16 * v)
{
  const CfChannel *ch = &self->layout->channels[c];
  const CfNlPass *p = self->pass;
  int x;

  if (p->dst == CF_NL_OUT) {
    guint8 *row = self->out->data[ch->plane] + (gsize) y *
        self->out->stride[ch->plane] + ch->offset;

    if (cf_sample_is_plain (ch, 1) || cf_sample_is_plain (ch, 2)) {
      self->rows->narrow (v, ch->width, ch->pixel_stride, ch->word_bytes,
          row);
    } else {
      for (x = 0; x < ch->width; x++)
        cf_sample_write (row + (gsize) x * ch->pixel_stride, ch, v[x]);
    }
  } else {
    guint16 *row = self->scratch + (gsize) p->dst * self->image_len +
        self->chan_off[c] + (gsize) y * ch->width;

    memcpy (row, v, ch->width * sizeof (guint16));
  }
}

/* The steps with row code below; others run sample by sample. */
static gboolean
has_row_code (int step)
{
  switch (step) {
    case CF_NL_MEDIAN:
    case CF_NL_MIN_ROW:
    case CF_NL_MAX_ROW:
    case CF_NL_MIN_COL:
    case CF_NL_MAX_COL:
    case CF_NL_MIN_SE:
    case CF_NL_MAX_SE:
    case CF_NL_BILATERAL:
      return TRUE;
    default:
      return FALSE;
  }
}

/* The copied and filled channels, rows [y0, y1). */
static void
other_rows (const CfNonlinCpu * self, const CfChannel * ch, int y0, int y1)
{
  int x, y;

  for (y = y0; y < y1; y++) {
    const guint8 *s = self->in->data[ch->plane] + (gsize) y *
        self->in->stride[ch->plane] + ch->offset;
    guint8 *d = self->out->data[ch->plane] + (gsize) y *
        self->out->stride[ch->plane] + ch->offset;

    if (cf_sample_is_plain (ch, 1)) {
      /* Alpha and other plain bytes without the general coding. */
      const int ps = ch->pixel_stride;

      if (ch->mode == CF_CHANNEL_FILL) {
        for (x = 0; x < ch->width; x++)
          d[(gsize) x * ps] = (guint8) ch->fill_value;
      } else {
        for (x = 0; x < ch->width; x++)
          d[(gsize) x * ps] = s[(gsize) x * ps];
      }
      continue;
    }
    for (x = 0; x < ch->width; x++) {
      gsize o = (gsize) x * ch->pixel_stride;

      cf_sample_write (d + o, ch, ch->mode == CF_CHANNEL_FILL ?
          ch->fill_value : cf_sample_read (s + o, ch));
    }
  }
}

/* Whether channel c runs the current pass in 8-bit rows (byte_rows): a
 * plain 8-bit channel from the frame to the output, a 3x3 or 5x5 median,
 * a line or a column of up to CF_MAX_TAPS + 1 (a fused row pass's too):
 * twice the lanes of 16-bit rows, and no widening and narrowing.  The
 * bytes a pixel (ps) then, or 0 when it does not.  A channel of several
 * interleaved in a plane of 8-bit channels (RGBA, semi-planar chroma)
 * runs with the others as whole pixels, every byte a lane: *leader (the
 * plane's first filtered channel) makes them all. */
static int
takes_bytes (const CfNonlinCpu * self, int c, int *leader)
{
  const CfNlPass *p = self->pass;
  const CfNlPass *first = self->row_pass ? self->row_pass : p;
  const CfSpec *spec = self->spec;
  const CfLayout *l = self->layout;
  const CfChannel *ch = &l->channels[c];
  int ps = ch->pixel_stride, covered = 0, i;

  if (!cf_sample_is_plain (ch, 1) || spec->kp.maxval != 255
      || first->src != CF_NL_FRAME || p->dst != CF_NL_OUT || ps > 4)
    return 0;
  switch (p->step) {
    case CF_NL_MEDIAN:
      if ((p->len != 3 && p->len != 5)
          || spec->nl.rank != (p->len * p->len - 1) / 2)
        return 0;
      break;
    case CF_NL_MIN_ROW:
    case CF_NL_MAX_ROW:
    case CF_NL_MIN_COL:
    case CF_NL_MAX_COL:
      if (p->len > CF_MAX_TAPS + 1)
        return 0;
      break;
    default:
      return 0;
  }
  /* Every byte of the pixel one plain 8-bit channel's, all alike. */
  *leader = -1;
  for (i = 0; i < l->n_channels; i++) {
    const CfChannel *o = &l->channels[i];

    if (o->plane != ch->plane)
      continue;
    if (!cf_sample_is_plain (o, 1) || o->pixel_stride != ps
        || o->width != ch->width || o->height != ch->height
        || o->offset >= ps || (covered & (1 << o->offset)))
      return 0;
    covered |= 1 << o->offset;
    if (o->mode == CF_CHANNEL_FILTER && *leader < 0)
      *leader = i;
  }
  return covered == (1 << ps) - 1 ? ps : 0;
}

/* The bytes of byte_rows' output of the plane's channels not filtered:
 * copied from the input or filled, through masks of whole pixels
 * (blend8). */
typedef struct
{
  /* Two periods: window3_8 reads them from any phase. */
  guint8 keep[2 * CF_NL_BLEND_PERIOD], take[2 * CF_NL_BLEND_PERIOD];
  guint8 fill[2 * CF_NL_BLEND_PERIOD];
  gboolean any;
} Restore;

static void
restore_init (const CfLayout * l, const CfChannel * ch, int ps, Restore * r)
{
  int i, b;

  memset (r->keep, 0xff, sizeof (r->keep));
  memset (r->take, 0, sizeof (r->take));
  memset (r->fill, 0, sizeof (r->fill));
  r->any = FALSE;
  for (i = 0; i < l->n_channels; i++) {
    const CfChannel *o = &l->channels[i];

    if (o->plane != ch->plane || o->mode == CF_CHANNEL_FILTER)
      continue;
    for (b = o->offset; b < 2 * CF_NL_BLEND_PERIOD; b += ps) {
      r->keep[b] = 0;
      if (o->mode == CF_CHANNEL_FILL)
        r->fill[b] = (guint8) o->fill_value;
      else
        r->take[b] = 0xff;
    }
    r->any = TRUE;
  }
}

/* Rows [y0, y1). */
static void
restore_rows (const CfNonlinCpu * self, const CfChannel * ch, int ps,
    const Restore * r, int y0, int y1)
{
  int y;

  if (!r->any)
    return;
  for (y = y0; y < y1; y++)
    self->rows->blend8 (self->out->data[ch->plane] + (gsize) y *
        self->out->stride[ch->plane], self->in->data[ch->plane] +
        (gsize) y * self->in->stride[ch->plane], ch->width * ps, r->keep,
        r->take, r->fill);
}

/* window3_8's operation when the current pass is a 3x3 median, or a 3x3
 * rectangle's min or max (its row pass fused into it), both centred, over
 * pixels of ps >= 2 bytes; else -1.  One byte a pixel (GRAY8) has no
 * channels to merge and runs as fast through the ring (byte_rows). */
static int
window3_of (const CfNonlinCpu * self, const RowFirst * rf, const Window * win,
    int ps)
{
  const CfNlPass *p = self->pass;

  if (ps < 2)
    return -1;
  if (p->step == CF_NL_MEDIAN && p->len == 3)
    return CF_NL_W3_MEDIAN;
  if (rf == NULL || rf->pass->len != 3 || rf->win.ax != 1 || win->kh != 3
      || win->ay != 1)
    return -1;
  if (p->step == CF_NL_MIN_COL && rf->pass->step == CF_NL_MIN_ROW)
    return CF_NL_W3_MIN;
  if (p->step == CF_NL_MAX_COL && rf->pass->step == CF_NL_MAX_ROW)
    return CF_NL_W3_MAX;
  return -1;
}

/* Rows [y0, y1) of the plane of a 3x3 window (window3_of) read in place:
 * each output row from the frame's three rows (a border row for those
 * outside it: the frame's, or border_value's), written once with the
 * copied and filled channels merged; the first and last pixels, whose
 * windows reach past the row, through rows of three pixels made with the
 * border. */
static void
byte_rows3 (const CfNonlinCpu * self, PartScratch * ps_, const CfChannel * ch,
    int ps, int op, const Restore * r, int y0, int y1)
{
  const CfKernelParams *kp = &self->spec->kp;
  const guint8 *in0 = self->in->data[ch->plane];
  const gsize in_stride = self->in->stride[ch->plane];
  guint8 *const out0 = self->out->data[ch->plane];
  const gsize out_stride = self->out->stride[ch->plane];
  const int w = ch->width, h = ch->height, B = CF_NL_BLEND_PERIOD;
  const int side[2] = { cf_border_index (-1, w, kp->border),
    cf_border_index (w, w, kp->border)
  };
  /* Every byte filtered (RGB, semi-planar chroma): no masks. */
  const guint8 *keep = r->any ? r->keep : NULL;
  const guint8 *rows[CF_NL_W3_ROWS + 2];
  guint8 edge[3][3 * 4], *flat;
  int y, j, e, b, t, nr;

  /* The border value's row, for a constant border. */
  flat = scratch_room (&ps_->mem, &ps_->len, (gsize) w * ps);
  if (cf_border_index (-1, h, kp->border) < 0)
    memset (flat, kp->border_value, (gsize) w * ps);
  for (y = y0; y < y1; y += nr) {
    guint8 *outs[CF_NL_W3_ROWS];

    /* Min and max CF_NL_W3_ROWS output rows at a time (sharing the work
     * on their rows), then 2 or 1; the median's, with more live, one
     * (faster so). */
    nr = op == CF_NL_W3_MEDIAN ? 1 : y1 - y >= CF_NL_W3_ROWS ?
        CF_NL_W3_ROWS : MIN (2, y1 - y);
    for (j = 0; j < nr + 2; j++) {
      const int v = cf_border_index (y - 1 + j, h, kp->border);

      rows[j] = v < 0 ? flat : in0 + (gsize) v * in_stride;
    }
    for (t = 0; t < nr; t++)
      outs[t] = out0 + (gsize) (y + t) * out_stride;
    if (w > 2) {
      const guint8 *in[CF_NL_W3_ROWS + 2];
      guint8 *o[CF_NL_W3_ROWS];

      for (j = 0; j < nr + 2; j++)
        in[j] = rows[j] + ps;
      for (t = 0; t < nr; t++)
        o[t] = outs[t] + ps;
      self->rows->window3_8 (in, nr, (w - 2) * ps, ps, op, keep, r->take,
          r->fill, ps % B, o);
    }
    for (t = 0; t < nr; t++)
      for (e = 0; e < MIN (w, 2); e++) {
        const int x = e == 0 ? 0 : w - 1;
        const int nb[2] = { x == 0 ? side[0] : x - 1,
          x == w - 1 ? side[1] : x + 1
        };
        const guint8 *in[3] = { edge[0] + ps, edge[1] + ps, edge[2] + ps };
        guint8 *o = outs[t] + (gsize) x * ps;

        for (j = 0; j < 3; j++) {
          const guint8 *row = rows[t + j];

          for (b = 0; b < ps; b++) {
            edge[j][b] = nb[0] < 0 ? kp->border_value : row[nb[0] * ps + b];
            edge[j][ps + b] = row[x * ps + b];
            edge[j][2 * ps + b] = nb[1] < 0 ? kp->border_value :
                row[nb[1] * ps + b];
          }
        }
        self->rows->window3_8 (in, 1, ps, ps, op, keep, r->take, r->fill,
            x * ps % B, &o);
      }
  }
}

/* Rows [y0, y1) of the plane of channel c through the current pass in
 * 8-bit rows of ps-byte pixels, written straight into the output frame;
 * the plane's channels not filtered then copied or filled over. */
static void
byte_rows (const CfNonlinCpu * self, PartScratch * ps_, int c, int ps,
    int y0, int y1)
{
  const CfSpec *spec = self->spec;
  const CfKernelParams *kp = &spec->kp;
  const CfNlPass *p = self->pass;
  const CfChannel *ch = &self->layout->channels[c];
  const Window win = window_of (&spec->nl, p);
  const gboolean max = p->step == CF_NL_MAX_ROW || p->step == CF_NL_MAX_COL;
  const guint8 *rows[CF_MAX_TAPS + 1];
  const int wb = ch->width * ps;        /* bytes of a row of pixels */
  BytePlane bp = { self->in->data[ch->plane],
    self->in->stride[ch->plane], ch->width, ch->height, ps, {0}
  };
  guint8 *const out0 = self->out->data[ch->plane];
  const gsize out_stride = self->out->stride[ch->plane];
  RowFirst rf_, *rf;
  Window rw = win;
  Carved cv;
  Restore restore;
  gboolean group;
  int y, j, op3;

  restore_init (self->layout, ch, ps, &restore);
  rf = row_first (self, &rf_);
  if ((op3 = window3_of (self, rf, &win, ps)) >= 0) {
    byte_rows3 (self, ps_, ch, ps, op3, &restore, y0, y1);
    return;
  }
  /* Long columns CF_NL_COL_GROUP output rows at a time, as in pass_rows:
   * a ring of the rows they read together. */
  group = win.kh >= CF_NL_COL_GROUP
      && win.kh + CF_NL_COL_GROUP - 1 <= CF_MAX_TAPS + 1;
  if (group)
    rw.kh = win.kh + CF_NL_COL_GROUP - 1;
  carve (ps_, &rw, ch->width, ps, 1, rf, &cv);
  byte_plane_border (&bp, rf != NULL ? &rf->win : &win, kp);
  if (group) {
    for (y = y0; y < y1; y += CF_NL_COL_GROUP) {
      const int n = MIN (CF_NL_COL_GROUP, y1 - y);
      guint8 *outs[CF_NL_COL_GROUP];
      int t;

      for (t = 0; t < n; t++)
        outs[t] = out0 + (gsize) (y + t) * out_stride;
      for (j = 0; j < win.kh + n - 1; j++)
        rows[j] = ring_row8 (self->rows, &cv.rings[0], &bp, &rw,
            y - win.ay + j, kp, rf);
      if (n == CF_NL_COL_GROUP) {
        self->rows->column_group8 (rows, win.kh, wb, max, (guint8 *) cv.line,
            outs);
      } else {
        for (t = 0; t < n; t++)
          self->rows->column8 (rows + t, win.kh, wb, max, outs[t]);
      }
      restore_rows (self, ch, ps, &restore, y, y + n);
    }
  } else {
    for (y = y0; y < y1; y++) {
      guint8 *out = out0 + (gsize) y * out_stride;

      for (j = 0; j < win.kh; j++)
        rows[j] = ring_row8 (self->rows, &cv.rings[0], &bp, &win,
            y - win.ay + j, kp, rf);
      if (p->step == CF_NL_MEDIAN)
        self->rows->median8 (rows, p->len, ch->width, ps, out);
      else if (win.kh == 1)
        self->rows->line8 (rows[0], win.kw, ch->width, ps, max,
            (guint8 *) cv.tmp, out);
      else
        self->rows->column8 (rows, win.kh, wb, max, out);
      restore_rows (self, ch, ps, &restore, y, y + 1);
    }
  }
}

/* Rows [y0, y1) of channel c through the current pass. */
static void
pass_rows (const CfNonlinCpu * self, PartScratch * ps, int c, int y0, int y1)
{
  const CfSpec *spec = self->spec;
  const CfKernelParams *kp = &spec->kp;
  const CfNlPass *p = self->pass;
  const CfChannel *ch = &self->layout->channels[c];
  const Window win = window_of (&spec->nl, p);
  const guint16 *rows[3][CF_MAX_TAPS + 1];
  const guint16 *const *rowsets[3] = { rows[0], rows[1], rows[2] };
  CfNlImage ims[3];
  int n_images = 1, own = 0, w = ch->width, x, y, j, i;
  Carved cv;
  RowFirst rf_, *rf = NULL;
  int bytes, leader;

  if ((bytes = takes_bytes (self, c, &leader)) > 0) {
    /* The plane's leader makes every channel of it. */
    if (leader == c)
      byte_rows (self, ps, c, bytes, y0, y1);
    return;
  }
  if (!has_row_code (p->step)) {
    /* Sample by sample with the kernels' own function (kernels/
     * cf-nonlin.h): differences, and any step without row code yet. */
    CfNlImage a, b, group[3];
    int n = 0;

    image_of (self, c, p->src, &a);
    image_of (self, c, p->src2, &b);
    for (i = 0; i < 3 && self->groups[c][i] >= 0; i++) {
      if (self->groups[c][i] == c)
        own = i;
      image_of (self, self->groups[c][i], p->src, &group[n++]);
    }
    carve (ps, &win, w, 1, 0, NULL, &cv);
    for (y = y0; y < y1; y++) {
      for (x = 0; x < w; x++)
        cv.out[x] = cf_nl_pass_sample (p, &a, &b, group, n, own, x, y,
            &spec->nl, spec->table, kp);
      store_row (self, c, y, cv.out);
    }
    return;
  }

  if (p->step == CF_NL_BILATERAL) {
    n_images = 0;
    for (i = 0; i < 3 && self->groups[c][i] >= 0; i++) {
      if (self->groups[c][i] == c)
        own = i;
      image_of (self, self->groups[c][i], p->src, &ims[n_images++]);
    }
    /* bilateral8 makes the colour's channels together: its first. */
    if (self->bl_n > 0 && own != 0)
      return;
  } else if ((rf = row_first (self, &rf_)) != NULL) {
    image_of (self, c, self->row_pass->src, &ims[0]);
  } else {
    image_of (self, c, p->src, &ims[0]);
  }
  /* Rows and columns may be longer than CF_MAX_TAPS (iterated
   * rectangles): one row then, or rows one at a time below. */
  if ((p->step == CF_NL_MIN_COL || p->step == CF_NL_MAX_COL)
      && win.kh >= CF_NL_COL_GROUP && win.kh + CF_NL_COL_GROUP - 1 <= CF_MAX_TAPS + 1) {
    /* Columns CF_NL_COL_GROUP output rows at a time: a ring of the rows they
     * read together. */
    const gboolean max = p->step == CF_NL_MAX_COL;
    Window rw = win;

    rw.kh = win.kh + CF_NL_COL_GROUP - 1;
    carve (ps, &rw, w, 1, 1, rf, &cv);
    for (y = y0; y < y1; y += CF_NL_COL_GROUP) {
      const int n = MIN (CF_NL_COL_GROUP, y1 - y);
      int t;

      for (j = 0; j < win.kh + n - 1; j++)
        rows[0][j] = ring_row (self->rows, &cv.rings[0], &ims[0], &rw,
            y - win.ay + j, kp, rf);
      if (n == CF_NL_COL_GROUP) {
        guint16 *outs[CF_NL_COL_GROUP];

        for (t = 0; t < n; t++)
          outs[t] = cv.group + (gsize) t * w;
        self->rows->column_group (rows[0], win.kh, w, max, cv.line, outs);
        for (t = 0; t < n; t++)
          store_row (self, c, y + t, cv.group + (gsize) t * w);
      } else {
        for (t = 0; t < n; t++) {
          minmax_rows (self->rows, rows[0] + t, &win, NULL, max, w,
              kp->maxval, cv.tmp, cv.line, cv.out);
          store_row (self, c, y + t, cv.out);
        }
      }
    }
    return;
  }
  carve (ps, &win, w, 1, n_images, rf, &cv);

  for (y = y0; y < y1; y++) {
    if (win.kh > CF_MAX_TAPS + 1) {
      /* A long column: min/max row by row, straight from the ring's one
       * slot per row. */
      gboolean max = p->step == CF_NL_MAX_COL;

      for (x = 0; x < w; x++)
        cv.out[x] = max ? 0 : kp->maxval;
      for (j = 0; j < win.kh; j++)
        self->rows->accumulate (cv.out, ring_row (self->rows, &cv.rings[0],
                &ims[0], &win, y - win.ay + j, kp, rf), w, max);
      store_row (self, c, y, cv.out);
      continue;
    }
    for (i = 0; i < n_images; i++)
      for (j = 0; j < win.kh; j++)
        rows[i][j] = ring_row (self->rows, &cv.rings[i], &ims[i], &win,
            y - win.ay + j, kp, rf);
    switch (p->step) {
      case CF_NL_MEDIAN:
        median_row (self->rows, rows[0], win.kw, w, spec->nl.rank,
            kp->maxval == 255, cv.hist, cv.gather, cv.out);
        break;
      case CF_NL_MIN_ROW:
      case CF_NL_MAX_ROW:
      case CF_NL_MIN_COL:
      case CF_NL_MAX_COL:
        minmax_rows (self->rows, rows[0], &win, NULL,
            p->step == CF_NL_MAX_ROW || p->step == CF_NL_MAX_COL, w,
            kp->maxval, cv.tmp, cv.line, cv.out);
        break;
      case CF_NL_MIN_SE:
      case CF_NL_MAX_SE:
        minmax_rows (self->rows, rows[0], &win, spec->table,
            p->step == CF_NL_MAX_SE, w, kp->maxval, cv.tmp, cv.line, cv.out);
        break;
      case CF_NL_BILATERAL:
        if (self->bl_n > 0 && self->bl_nf > 0 && n_images == 1) {
          bilateral_pairs_row (self, ps, rows[0], &win, w, y, y0, cv.taps,
              cv.out);
          break;
        }
        if (self->bl_n > 0) {
          guint16 *outs[3];

          for (i = 0; i < n_images; i++)
            outs[i] = cv.group + (gsize) i * w;
          bilateral_row (self, rowsets, n_images, own, &win, w, cv.sum,
              cv.wsum, cv.taps, cv.out, outs);
          for (i = 0; i < n_images; i++)
            store_row (self, self->groups[c][i], y, outs[i]);
          continue;
        }
        bilateral_row (self, rowsets, n_images, own, &win, w, cv.sum,
            cv.wsum, cv.taps, cv.out, NULL);
        break;
      default:
        g_assert_not_reached ();
    }
    store_row (self, c, y, cv.out);
  }
}

/* Part `index`: the same band of rows of every channel, so the channels
 * sharing a word (RGB10A2) are written by one thread. */
static void
run_part (gpointer data, int index, int n_parts)
{
  CfNonlinCpu *self = data;
  const CfLayout *layout = self->layout;
  int c, leader;

  for (c = 0; c < layout->n_channels; c++) {
    const CfChannel *ch = &layout->channels[c];
    int y0 = (int) ((gint64) ch->height * index / n_parts);
    int y1 = (int) ((gint64) ch->height * (index + 1) / n_parts);

    if (ch->width <= 0 || ch->height <= 0 || y0 >= y1)
      continue;
    if (ch->mode == CF_CHANNEL_FILTER)
      pass_rows (self, &self->parts[index], c, y0, y1);
    else if (self->pass->dst == CF_NL_OUT && (takes_bytes (self, c,
                &leader) == 0 || leader < 0))
      other_rows (self, ch, y0, y1);    /* else byte_rows writes it */
  }
}

/* Orders offsets by falling space weight (then by index: one order). */
static int
cmp_offset (const void *a, const void *b, void *data)
{
  const int *space = data, i = *(const int *) a, j = *(const int *) b;

  if (space[i] != space[j])
    return space[i] > space[j] ? -1 : 1;
  return i - j;
}

/* The pairs of bilateral_pairs_row (self->bl_nf, bl_wrows, bl_pair) from
 * the offsets: none (bl_nf 0) if an offset's mirror is not one. */
static void
bilateral8_plan_pairs (CfNonlinCpu * self)
{
  const int n = self->bl_n;
  const int *bdx = self->bl_offsets + n, *bdy = bdx + n;
  int *fdx, *fdy, *frow, *kind, *runs, nf = 0, rows = 0, i, f;

  g_free (self->bl_pair);
  self->bl_pair = g_new (int, 5 * n);
  fdx = self->bl_pair;
  fdy = fdx + n;
  frow = fdy + n;
  kind = frow + n;
  runs = kind + n;
  for (i = n - 1; i >= 0; i--)
    runs[i] = i + 1 < n && self->bl_offsets[i + 1] == self->bl_offsets[i] ?
        runs[i + 1] : i + 1;
  self->bl_nf = 0;
  for (i = 0; i < n; i++) {
    kind[i] = -1;
    if (bdy[i] > 0 || (bdy[i] == 0 && bdx[i] > 0)) {
      fdx[nf] = bdx[i];
      fdy[nf] = bdy[i];
      frow[nf] = rows;
      rows += bdy[i] + 1;
      kind[i] = 2 * nf++;
    }
  }
  for (i = 0; i < n; i++) {
    if (kind[i] >= 0 || (bdx[i] == 0 && bdy[i] == 0))
      continue;
    for (f = 0; f < nf && (fdx[f] != -bdx[i] || fdy[f] != -bdy[i]); f++);
    if (f == nf)
      return;
    kind[i] = 2 * f + 1;
  }
  self->bl_nf = nf;
  self->bl_wrows = rows;
}

/* The bilateral8 tables of the spec's bilateral (self->bl_*): for 8-bit
 * samples whose range weights are at most 2^26 (bilateral8's bound). */
static void
bilateral8_plan (CfNonlinCpu * self, const CfSpec * spec)
{
  const CfNonlin *nl = &spec->nl;
  const int *space = spec->table + nl->off_space;
  const int *dx = space + nl->n_offsets, *dy = dx + nl->n_offsets;
  const int *range = spec->table + nl->off_range;
  const int n = nl->n_offsets;
  int *order, i, has = 0;

  for (i = 0; i < nl->n_passes; i++)
    has |= nl->passes[i].step == CF_NL_BILATERAL;
  self->bl_n = 0;
  if (!has || spec->kp.maxval != 255 || n <= 0 || range[0] > (1 << 26))
    return;
  order = g_new (int, n);
  for (i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, n, sizeof (int), cmp_offset, (gpointer) space);
  g_free (self->bl_offsets);
  self->bl_offsets = g_new (int, 3 * n);
  for (i = 0; i < n; i++) {
    self->bl_offsets[i] = space[order[i]];
    self->bl_offsets[n + i] = dx[order[i]];
    self->bl_offsets[2 * n + i] = dy[order[i]];
  }
  g_free (order);
  for (i = 0; i < CF_NL_BILATERAL8_RANGE; i++)
    self->bl_range[i] = i < nl->range_len ? range[i] : 0;
  self->bl_n = n;
  bilateral8_plan_pairs (self);
}

/* Whether pass i is a rectangle's row pass whose image only pass i + 1, its
 * column pass, reads: then the two run as one (RowFirst), and the image
 * between them is never written. */
static gboolean
fuses_with_next (const CfNonlin * nl, int i)
{
  const CfNlPass *r = &nl->passes[i], *c = r + 1;
  int j;

  if (i + 1 >= nl->n_passes || r->dst < 0 || c->src != r->dst
      || c->dst == r->src)
    return FALSE;
  if (!((r->step == CF_NL_MIN_ROW && c->step == CF_NL_MIN_COL)
          || (r->step == CF_NL_MAX_ROW && c->step == CF_NL_MAX_COL)))
    return FALSE;
  /* Read later before written again: it is needed. */
  for (j = i + 2; j < nl->n_passes; j++) {
    if (nl->passes[j].src == r->dst || nl->passes[j].src2 == r->dst)
      return FALSE;
    if (nl->passes[j].dst == r->dst)
      break;
  }
  return TRUE;
}

void
cf_nonlin_cpu_run (CfNonlinCpu * self, CfCpuPool * pool,
    const CfSpec * spec, const CfLayout * layout, const CfFrame * in,
    const CfFrame * out)
{
  gsize need;
  int c, i;

  self->image_len = 0;
  for (c = 0; c < layout->n_channels; c++) {
    const CfChannel *ch = &layout->channels[c];

    self->chan_off[c] = self->image_len;
    if (ch->mode == CF_CHANNEL_FILTER)
      self->image_len += (gsize) MAX (ch->width, 0) * MAX (ch->height, 0);
  }
  need = self->image_len * spec->nl.n_scratch;
  if (need > self->scratch_len) {
    g_free (self->scratch);
    self->scratch = g_new (guint16, need);
    self->scratch_len = need;
  }
  cf_layout_colour_groups (layout, self->groups);
  if (!self->bl_planned || self->bl_serial != spec->serial) {
    bilateral8_plan (self, spec);
    self->bl_planned = TRUE;
    self->bl_serial = spec->serial;
  }
  self->spec = spec;
  self->layout = layout;
  self->in = in;
  self->out = out;
  for (i = 0; i < spec->nl.n_passes; i++) {
    self->row_pass = NULL;
    if (fuses_with_next (&spec->nl, i)) {
      self->row_pass = &spec->nl.passes[i++];
    }
    self->pass = &spec->nl.passes[i];
    cf_cpu_pool_run (pool, run_part, self);
  }
  self->pass = self->row_pass = NULL;
  self->in = self->out = NULL;
}
