/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter: GstVideoInfo to CfLayout, generically from GstVideoFormatInfo
 * so every format is described by the same few rules: one channel job per
 * component, with the word, depth and shift its samples have (CfChannel),
 * plus copy jobs for every byte of a row no component covers (the x of
 * RGBx, the last luma slot of an odd-width YUY2 row). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "cudafilter-layout.h"
#include "cf-error.h"

/* Bytes of a pixel group tracked for padding (RGBA64 has 8). */
#define MAX_GROUP 16

typedef struct
{
  int word_bytes, depth, shift;
  gboolean shared;
  int offset;                   /* of the word in the pixel group, bytes */
} Encoding;

static gboolean
unsupported (const GstVideoInfo * info, const char *why, GError ** error)
{
  g_set_error (error, CF_ERROR, CF_ERROR_UNSUPPORTED,
      "Format %s is not supported%s%s", GST_VIDEO_INFO_NAME (info),
      why ? ": " : "", why ? why : "");
  return FALSE;
}

static gboolean
add_channel (CfLayout * layout, const GstVideoInfo * info, CfChannelMode mode,
    int plane, int width, int height, int pstride, int offset, int fill,
    const Encoding * enc, GError ** error)
{
  if (!cf_layout_add_channel (layout, mode, plane, width, height, pstride,
          offset, fill)) {
    g_set_error (error, CF_ERROR, CF_ERROR_UNSUPPORTED,
        "Format %s has more channels than the filter supports (%d)",
        GST_VIDEO_INFO_NAME (info), CF_MAX_CHANNELS);
    return FALSE;
  }
  if (enc && !cf_layout_set_encoding (layout, enc->word_bytes, enc->depth,
          enc->shift, enc->shared))
    return unsupported (info, "its samples' bits cannot be read", error);
  return TRUE;
}

/* Whether another component lies in the same word as component c. */
static gboolean
shares_word (const GstVideoFormatInfo * finfo, guint c)
{
  guint o;

  for (o = 0; o < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo); o++)
    if (o != c && finfo->plane[o] == finfo->plane[c]
        && finfo->poffset[o] == finfo->poffset[c])
      return TRUE;
  return FALSE;
}

/* The lowest bit component c's first sample occupies in its plane's first
 * pixel group, and how many bits it spans, found by packing a row of two
 * pixels (one 4:2:x chroma sample) with GStreamer's own pack function: the
 * component at its maximum, the others zero.  The pack functions are what
 * every converter trusts; the format info's offsets are not always right
 * (1.22 puts P010's V at byte 1 of its 4-byte pair, the 10-bit fields of
 * RGB10A2 all at bit 0). */
static gboolean
probe_bits (const GstVideoFormatInfo * finfo, guint c, int *low, int *bits)
{
  const GstVideoFormatInfo *uinfo =
      gst_video_format_get_info (finfo->unpack_format);
  guint16 px16[8] = { 0 };
  guint8 px8[8] = { 0 };
  guint8 planes[GST_VIDEO_MAX_PLANES][64];
  gpointer data[GST_VIDEO_MAX_PLANES];
  gint stride[GST_VIDEO_MAX_PLANES];
  /* Unpacked pixels are A, then components 0 .. 2 (ARGB, AYUV). */
  int idx = c == GST_VIDEO_COMP_A ? 0 : (int) c + 1;
  int plane = GST_VIDEO_FORMAT_INFO_PLANE (finfo, c);
  int group = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c);
  int b, n = 0, i;

  if (finfo->pack_func == NULL || uinfo == NULL || group <= 0 || group > 8)
    return FALSE;
  memset (planes, 0, sizeof (planes));
  for (i = 0; i < GST_VIDEO_MAX_PLANES; i++) {
    data[i] = planes[i];
    stride[i] = 32;
  }
  if (GST_VIDEO_FORMAT_INFO_BITS (uinfo) > 8) {
    px16[idx] = px16[4 + idx] = 0xFFFF;
    finfo->pack_func (finfo, 0, px16, 16, data, stride,
        GST_VIDEO_CHROMA_SITE_UNKNOWN, 0, 2);
  } else {
    px8[idx] = px8[4 + idx] = 0xFF;
    finfo->pack_func (finfo, 0, px8, 8, data, stride,
        GST_VIDEO_CHROMA_SITE_UNKNOWN, 0, 2);
  }
  /* The first run of set bits, bit 0 being bit 0 of the group's byte 0. */
  for (b = 0; b < 8 * group; b++) {
    gboolean set = (planes[plane][b / 8] >> (b % 8)) & 1;

    if (set && n == 0)
      *low = b;
    if (set)
      n++;
    else if (n > 0)
      break;
  }
  *bits = n;
  return n > 0;
}

/* Where component c's samples sit in their words. */
static gboolean
component_encoding (const GstVideoFormatInfo * finfo, guint c, Encoding * enc)
{
  int depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c);
  int low = 0, bits = 0;

  if (!probe_bits (finfo, c, &low, &bits) || bits != depth || depth > 16)
    return FALSE;
  enc->shared = shares_word (finfo, c);
  if (enc->shared)
    enc->word_bytes = 4;
  else
    enc->word_bytes = depth + finfo->shift[c] <= 8 ? 1 : 2;
  enc->offset = low / (8 * enc->word_bytes) * enc->word_bytes;
  enc->shift = low - 8 * enc->offset;
  enc->depth = depth;
  return enc->shift + depth <= 8 * enc->word_bytes;
}

/* The encoding a copy job uses: the whole word when the component owns it
 * (so a pass-through keeps every bit), else the component's bits. */
static Encoding
copy_encoding (const Encoding * enc)
{
  Encoding raw = *enc;

  if (!enc->shared) {
    raw.depth = 8 * enc->word_bytes;
    raw.shift = 0;
  }
  return raw;
}

/* Copy jobs for what no component covers in plane p: bytes of a pixel
 * group without a component (padding), and samples past a component's
 * width in the last group of a row (the second luma of an odd-width YUY2
 * row's last pair), which GstVideoInfo allocates. */
static gboolean
add_padding (CfLayout * layout, const GstVideoInfo * info, guint p,
    const Encoding * encs, GError ** error)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  guint n_comps = GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo);
  int group = 0, groups = 0, height = 0, b;
  guint8 covered[MAX_GROUP] = { 0 };
  Encoding plain = { layout->sample_bytes, 8 * layout->sample_bytes, 0, 0, 0 };
  guint c;

  for (c = 0; c < n_comps; c++)
    if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) == p)
      group = MAX (group, GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c));
  if (group <= 0 || group > MAX_GROUP)
    return TRUE;

  for (c = 0; c < n_comps; c++) {
    int ps = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c);
    int w = GST_VIDEO_INFO_COMP_WIDTH (info, c);

    if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) != p || ps <= 0)
      continue;
    groups = MAX (groups, (w * ps + group - 1) / group);
    height = MAX (height, GST_VIDEO_INFO_COMP_HEIGHT (info, c));
  }

  for (c = 0; c < n_comps; c++) {
    int ps = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c);
    int off = encs[c].offset;
    int w = GST_VIDEO_INFO_COMP_WIDTH (info, c);
    int slots;
    Encoding raw;

    if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) != p || ps <= 0)
      continue;
    for (b = off; b < group; b += ps) {
      int i;
      for (i = 0; i < encs[c].word_bytes && b + i < MAX_GROUP; i++)
        covered[b + i] = 1;
    }
    slots = groups * group / ps;
    raw = copy_encoding (&encs[c]);
    if (slots > w && !add_channel (layout, info, CF_CHANNEL_COPY, p,
            slots - w, GST_VIDEO_INFO_COMP_HEIGHT (info, c), ps,
            off + w * ps, 0, &raw, error))
      return FALSE;
  }

  for (b = 0; b < group; b += layout->sample_bytes) {
    if (!covered[b] && !add_channel (layout, info, CF_CHANNEL_COPY, p,
            groups, height, group, b, 0, &plain, error))
      return FALSE;
  }
  return TRUE;
}

gboolean
gst_cuda_filter_layout_from_info (const GstVideoInfo * info,
    gboolean luma_only, gboolean derivative, CfLayout * layout, GError ** error)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  guint n_comps = GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo);
  gboolean is_yuv = GST_VIDEO_FORMAT_INFO_IS_YUV (finfo);
  int depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0);
  Encoding encs[GST_VIDEO_MAX_COMPONENTS];
  guint c, p;

  if (n_comps == 0 || depth < 8 || depth > 16
      || GST_VIDEO_INFO_N_PLANES (info) > CF_MAX_PLANES
      || GST_VIDEO_FORMAT_INFO_IS_TILED (finfo)
      || GST_VIDEO_FORMAT_INFO_HAS_PALETTE (finfo)
      || (GST_VIDEO_FORMAT_INFO_BITS (finfo) > 8
          && !GST_VIDEO_FORMAT_INFO_IS_LE (finfo)))
    return unsupported (info, NULL, error);

  memset (layout, 0, sizeof (*layout));
  layout->sample_bytes = depth > 8 ? 2 : 1;
  layout->depth = depth;
  layout->n_planes = GST_VIDEO_INFO_N_PLANES (info);
  /* Packed RGB: one colour a pixel (the bilateral's distance); planar
   * GBR and YUV are filtered plane by plane. */
  layout->colour = GST_VIDEO_FORMAT_INFO_IS_RGB (finfo)
      && GST_VIDEO_INFO_N_PLANES (info) == 1;

  for (c = 0; c < n_comps; c++) {
    int plane = GST_VIDEO_FORMAT_INFO_PLANE (finfo, c);
    int pstride = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c);
    int offset;
    int w = GST_VIDEO_INFO_COMP_WIDTH (info, c);
    int h = GST_VIDEO_INFO_COMP_HEIGHT (info, c);
    CfChannelMode mode = CF_CHANNEL_FILTER;
    Encoding enc;
    int fill = 0;

    if (!component_encoding (finfo, c, &encs[c]))
      return unsupported (info, "its samples' bits cannot be read", error);
    enc = encs[c];
    offset = enc.offset;

    if (c == GST_VIDEO_COMP_A) {
      mode = CF_CHANNEL_COPY;
    } else if (enc.depth != depth) {
      return unsupported (info, "its components differ in depth", error);
    } else if (is_yuv && (c == GST_VIDEO_COMP_U || c == GST_VIDEO_COMP_V)) {
      if (luma_only) {
        mode = CF_CHANNEL_COPY;
      } else if (derivative) {
        mode = CF_CHANNEL_FILL;
        fill = 1 << (enc.depth - 1);
      }
    }
    if (mode == CF_CHANNEL_COPY)
      enc = copy_encoding (&enc);

    if (!add_channel (layout, info, mode, plane, w, h, pstride, offset, fill,
            &enc, error))
      return FALSE;
  }

  for (p = 0; p < (guint) layout->n_planes; p++)
    if (!add_padding (layout, info, p, encs, error))
      return FALSE;

  return TRUE;
}

void
gst_cuda_filter_frame_from_video_frame (const GstVideoFrame * vframe,
    CfFrame * frame)
{
  guint p;

  memset (frame, 0, sizeof (*frame));
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (vframe) && p < CF_MAX_PLANES; p++) {
    frame->data[p] = GST_VIDEO_FRAME_PLANE_DATA (vframe, p);
    frame->stride[p] = GST_VIDEO_FRAME_PLANE_STRIDE (vframe, p);
  }
}
