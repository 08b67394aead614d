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

/* Largest kernel width or height in taps, for every filter. */
#define CF_MAX_TAPS 63
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

/* Separable weights travel by value in the launch parameters. */
typedef struct
{
  int row[2][CF_MAX_TAPS + 1];
  int col[2][CF_MAX_TAPS + 1];
} CfSepWeights;

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
} CfKernelParams;

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
