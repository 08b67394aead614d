/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: plain types shared by the engine (gcc) and the CUDA kernels (nvcc).
 * Only POD here: the kernels know nothing else of the engine. */
#ifndef CF_TYPES_H
#define CF_TYPES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest kernel width or height in taps, for every filter: Gaussian sigma
 * up to 31 at every depth (8 sigma + 1 taps for deeper samples). */
#define CF_MAX_TAPS 255
/* Largest window of the nonlinear operations (median, morphology,
 * bilateral) in each direction: their kernels keep per-window state. */
#define CF_NL_MAX_SIZE 63
/* Separable taps the launch parameters carry (4 KB of them with CUDA
 * 12.0); longer separable weights, as dense ones always, are read from
 * device memory (cf_weights_on_device). */
#define CF_ARG_TAPS 63
/* Most planes in a frame (GBRA has 4). */
#define CF_MAX_PLANES 4
/* Most channel jobs in a frame: 4 samples per pixel in one plane, or 4 planes. */
#define CF_MAX_CHANNELS 8

/* Border modes, with OpenCV's names. */
typedef enum
{
  CF_BORDER_REFLECT101 = 0,     /* gfedcb|abcdefg (OpenCV default) */
  CF_BORDER_REPLICATE = 1,      /* aaaaaa|abcdefg */
  CF_BORDER_REFLECT = 2,        /* fedcba|abcdefg */
  CF_BORDER_WRAP = 3,           /* cdefgh|abcdefgh */
  CF_BORDER_CONSTANT = 4        /* iiiiii|abcdefg, i = border value */
} CfBorder;

/* The kind of operation a spec runs: a convolution (weights and a post
 * operation), or one of the nonlinear operations, each a sample of the
 * window (rank, min/max) or an integer-weighted mean (bilateral). */
typedef enum
{
  CF_OPERATION_CONVOLVE = 0,
  CF_OPERATION_MEDIAN = 1,      /* rank k*k/2 of a k x k window */
  CF_OPERATION_MORPH = 2,       /* min/max over a structuring element */
  CF_OPERATION_BILATERAL = 3,   /* range- and space-weighted mean */
  CF_OPERATION_PIXELATE = 4     /* block means (kp.block), no window */
} CfOperation;

#define CF_N_OPERATIONS (CF_OPERATION_PIXELATE + 1)

/* Steps of a nonlinear program (CfNonlin): a pass reads image `src` and
 * writes image `dst`; images are the input frame, the output frame, or
 * scratch images of the same geometry as each channel.
 *
 * Adding an operation: a CfOperation (and CfFilter) value, its row in
 * cf_filters (src/spec/cf-spec.c) with a builder that emits its passes, a step
 * here with its case in cf_nl_pass_sample (kernels/cf-nonlin.h: the CUDA
 * kernel and, until it has row code, the fast CPU backend run it), and
 * its definition in the reference backend (src/cpu/cf-nonlin-ref.c). */
typedef enum
{
  CF_NL_MEDIAN = 0,             /* rank `rank` of a len x len2 window */
  CF_NL_MIN_ROW = 1,            /* min of len samples along x, anchor */
  CF_NL_MAX_ROW = 2,
  CF_NL_MIN_COL = 3,            /* min of len samples along y, anchor */
  CF_NL_MAX_COL = 4,
  CF_NL_MIN_SE = 5,             /* min over the structuring element */
  CF_NL_MAX_SE = 6,
  CF_NL_SUB = 7,                /* saturate (src - src2) */
  CF_NL_BILATERAL = 8           /* disk of radius len, weight tables */
} CfNlStep;

/* Morphology as OpenCV's morphologyEx names it. */
typedef enum
{
  CF_MORPH_ERODE = 0,
  CF_MORPH_DILATE,
  CF_MORPH_OPEN,
  CF_MORPH_CLOSE,
  CF_MORPH_GRADIENT,
  CF_MORPH_TOPHAT,
  CF_MORPH_BLACKHAT
} CfMorph;

#define CF_NL_FRAME (-1)        /* the input frame */
#define CF_NL_OUT (-2)          /* the output frame */
#define CF_NL_MAX_SCRATCH 4
#define CF_NL_MAX_PASSES 40

typedef struct
{
  int step;                     /* CfNlStep */
  int src, src2, dst;           /* CF_NL_FRAME, CF_NL_OUT or scratch index */
  int len, anchor;              /* window taps and anchor along the pass */
} CfNlPass;

/* A nonlinear operation as passes over whole images, with the border
 * applied at every pass (as OpenCV's iterations do).  Tables (the
 * structuring element, the bilateral weights) travel beside it as ints. */
typedef struct
{
  int n_passes;
  CfNlPass passes[CF_NL_MAX_PASSES];
  int n_scratch;                /* scratch images per channel */
  int rank;                     /* CF_NL_MEDIAN */
  int morph;                    /* CfMorph, for the reference */
  int iterations;
  int se_w, se_h, se_ax, se_ay; /* CF_NL_*_SE: table[0 .. se_w * se_h) */
  int n_offsets;                /* CF_NL_BILATERAL: offsets in the disk */
  int weight_bits;              /* fractional bits of each weight */
  int range_len;                /* range weights table[off_range ..) */
  int off_space;                /* table: space weights, then dx, dy */
  int off_range;
  int n_table;                  /* ints in the table */
} CfNonlin;

/* How the accumulated sum(s) become an output sample. */
typedef enum
{
  CF_OP_LINEAR = 0,             /* (acc + bias) >> shift, saturated */
  CF_OP_ABS = 1,                /* |round(acc * scale + offset)|, saturated */
  CF_OP_MAGNITUDE = 2,          /* round(scale * sqrt(gx^2 + gy^2) + offset) */
  CF_OP_SHARPEN = 3             /* src + amount * (src - linear(acc)) */
} CfOp;

/* What a channel job does with one channel of one plane. */
typedef enum
{
  CF_CHANNEL_FILTER = 0,        /* run the filter */
  CF_CHANNEL_COPY = 1,          /* pass through untouched (alpha, padding) */
  CF_CHANNEL_FILL = 2           /* write a constant (neutral chroma) */
} CfChannelMode;

/* One channel of one plane: samples at
 * plane_data + y * stride + x * pixel_stride + offset (bytes).
 *
 * Each sample is `depth` bits from bit `shift` of a little-endian word of
 * word_bytes (1, 2 or 4) bytes: 8-bit formats (1, 8, 0), GRAY16 (2, 16, 0),
 * LSB-aligned I420_10LE (2, 10, 0), MSB-aligned P010 (2, 10, 6), the red of
 * RGB10A2 (4, 10, 0).  kernels/cf-sample.h reads and writes them.  A channel
 * owns its word (the bits it does not use are written as zero) unless
 * shared_word: then other channels own the rest of the word and a write
 * changes this channel's bits only. */
typedef struct
{
  int mode;                     /* CfChannelMode */
  int plane;
  int width, height;            /* in samples of this channel */
  int pixel_stride;             /* bytes between horizontal neighbours */
  int offset;                   /* byte offset of the sample in a pixel */
  int fill_value;               /* for CF_CHANNEL_FILL */
  int word_bytes;               /* 1, 2 or 4 */
  int depth;                    /* bits of the value, 1 .. 16 */
  int shift;                    /* lowest bit of the value in its word */
  int shared_word;              /* other channels own the word's other bits */
} CfChannel;

/* Separable weights of a spec: [kernel][tap]. */
typedef struct
{
  int row[2][CF_MAX_TAPS + 1];
  int col[2][CF_MAX_TAPS + 1];
} CfSepWeights;

/* The same, as the launch parameters carry them up to CF_ARG_TAPS. */
typedef struct
{
  int row[2][CF_ARG_TAPS + 1];
  int col[2][CF_ARG_TAPS + 1];
} CfArgWeights;

/* Everything a kernel needs besides the weights and the image pointers. */
typedef struct
{
  int kw, kh;                   /* taps */
  int ax, ay;                   /* anchor: kw / 2, kh / 2 as OpenCV */
  int separable;                /* weights in CfSepWeights, else dense */
  int n_kernels;                /* 2 for CF_OP_MAGNITUDE (gx, gy), else 1 */
  int op;                       /* CfOp */
  int shift;                    /* fractional bits of the accumulated sum */
  long long bias;               /* added before the shift: offset and rounding */
  float scale, offset, amount;
  int border;                   /* CfBorder */
  int border_value;             /* sample value outside the frame for constant */
  int sample_bytes;             /* 1 (8-bit) or 2 (deeper samples) */
  int maxval;                   /* 2^depth - 1: 255, 1023, 4095, 65535 */
  int wide_acc;                 /* sums may exceed 32 bits: use 64-bit */
  int dense_taps_s8;              /* every dense weight fits a signed byte */
  int operation;                /* CfOperation */
  int block;                    /* CF_OPERATION_PIXELATE: block side */
} CfKernelParams;

/* Whether a launch reads the weights from device memory: the kh x kw
 * dense weights, or separable ones too long for the launch parameters (a
 * whole CfSepWeights). */
#ifdef __CUDACC__
__host__ __device__
#endif
static inline int
cf_weights_on_device (const CfKernelParams * kp)
{
  return !kp->separable || kp->kw > CF_ARG_TAPS || kp->kh > CF_ARG_TAPS;
}

/* FFT convolution of dense kernels by overlap-save: every filtered channel
 * is cut into tiles of fft_w x fft_h input samples, each giving step_x x
 * step_y outputs (fft - taps + 1); the tiles of all channels are numbered
 * together, channel job c owning tiles first_tile[c] onwards, row-major. */
typedef struct
{
  int fft_w, fft_h;
  int step_x, step_y;
  int n_tiles;
  int tiles_x[CF_MAX_CHANNELS], tiles_y[CF_MAX_CHANNELS];
  int first_tile[CF_MAX_CHANNELS];
  int centre;                   /* subtracted from every sample */
  long long centre_sum;         /* centre * sum of the weights, added back */
} CfFftTiles;

#ifdef __cplusplus
}
#endif
#endif /* CF_TYPES_H */
