/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: region lists (cf-regions.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cf-regions.h"

void
cf_regions_init (CfRegions * regions)
{
  memset (regions, 0, sizeof (*regions));
}

void
cf_regions_reset (CfRegions * regions)
{
  CfRegionMode mode = regions->mode;

  g_free (regions->rects);
  cf_regions_init (regions);
  regions->mode = mode;
}

void
cf_regions_clear (CfRegions * regions)
{
  regions->n_rects = 0;
}

void
cf_regions_add (CfRegions * regions, int x, int y, int w, int h)
{
  CfRect *r;

  if (regions->n_rects == regions->capacity) {
    regions->capacity = MAX (16, regions->capacity * 2);
    regions->rects = g_renew (CfRect, regions->rects, regions->capacity);
  }
  r = &regions->rects[regions->n_rects++];
  r->x = x;
  r->y = y;
  r->w = w;
  r->h = h;
}

void
cf_regions_append (CfRegions * regions, const CfRegions * from)
{
  int i;

  for (i = 0; i < from->n_rects; i++)
    cf_regions_add (regions, from->rects[i].x, from->rects[i].y,
        from->rects[i].w, from->rects[i].h);
}

/* Reads one integer of a region; FALSE for anything else. */
static gboolean
parse_int (const char *text, int *value)
{
  char *end;
  gint64 v;

  while (g_ascii_isspace (*text))
    text++;
  if (*text == '\0')
    return FALSE;
  errno = 0;
  v = g_ascii_strtoll (text, &end, 10);
  if (errno != 0 || end == text || v < -(1 << 30) || v > (1 << 30))
    return FALSE;
  while (g_ascii_isspace (*end))
    end++;
  if (*end != '\0')
    return FALSE;
  *value = (int) v;
  return TRUE;
}

gboolean
cf_regions_parse (const char *text, CfRegions * regions, GError ** error)
{
  gchar **parts;
  int i, first = regions->n_rects, n_parts;

  if (text == NULL)
    return TRUE;
  parts = g_strsplit (text, ";", -1);
  n_parts = g_strv_length (parts);
  for (i = 0; parts[i] != NULL; i++) {
    gchar *part = g_strstrip (parts[i]);
    gchar **nums;
    int v[4], k, n;

    if (*part == '\0') {
      /* "" and a trailing ';' are fine; an empty region elsewhere is not. */
      if (i == n_parts - 1)
        continue;
      g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
          "region %d is empty (two ';' in a row)", i + 1);
      goto failed;
    }
    nums = g_strsplit (part, ",", -1);
    n = g_strv_length (nums);
    if (n != 4) {
      g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
          "region %d \"%s\" has %d number%s, not 4 (x,y,w,h)", i + 1, part,
          n, n == 1 ? "" : "s");
      g_strfreev (nums);
      goto failed;
    }
    for (k = 0; k < 4; k++) {
      if (!parse_int (nums[k], &v[k]) || (k >= 2 && v[k] < 0)) {
        g_set_error (error, CF_ERROR, CF_ERROR_INVALID_PARAM,
            "region %d \"%s\": %s \"%s\" is not %s", i + 1, part,
            (const char *[]) {
            "x", "y", "w", "h"}[k], g_strstrip (nums[k]),
            k < 2 ? "an integer" : "an integer >= 0");
        g_strfreev (nums);
        goto failed;
      }
    }
    g_strfreev (nums);
    cf_regions_add (regions, v[0], v[1], v[2], v[3]);
  }
  g_strfreev (parts);
  return TRUE;

failed:
  g_strfreev (parts);
  regions->n_rects = first;
  return FALSE;
}

static int
compare_rects (const void *a, const void *b)
{
  const CfRect *ra = a, *rb = b;

  if (ra->y != rb->y)
    return ra->y < rb->y ? -1 : 1;
  if (ra->x != rb->x)
    return ra->x < rb->x ? -1 : 1;
  return 0;
}

static void
bounding_box (CfRect * a, const CfRect * b)
{
  int x1 = MAX (a->x + a->w, b->x + b->w), y1 = MAX (a->y + a->h, b->y + b->h);

  a->x = MIN (a->x, b->x);
  a->y = MIN (a->y, b->y);
  a->w = x1 - a->x;
  a->h = y1 - a->y;
}

int
cf_regions_fit (CfRegions * regions, int padding, int frame_width,
    int frame_height)
{
  int i, n = 0, merges = 0;

  regions->frame_width = frame_width;
  regions->frame_height = frame_height;
  padding = CLAMP (padding, 0, 1 << 28);
  for (i = 0; i < regions->n_rects; i++) {
    const CfRect *r = &regions->rects[i];
    /* 64-bit: a padded rectangle may pass INT_MAX. */
    gint64 x0 = (gint64) r->x - padding, y0 = (gint64) r->y - padding;
    gint64 x1 = (gint64) r->x + r->w + padding;
    gint64 y1 = (gint64) r->y + r->h + padding;

    if (r->w <= 0 || r->h <= 0)
      continue;
    x0 = MAX (x0, 0);
    y0 = MAX (y0, 0);
    x1 = MIN (x1, frame_width);
    y1 = MIN (y1, frame_height);
    if (x1 <= x0 || y1 <= y0)
      continue;
    regions->rects[n].x = (int) x0;
    regions->rects[n].y = (int) y0;
    regions->rects[n].w = (int) (x1 - x0);
    regions->rects[n].h = (int) (y1 - y0);
    n++;
  }
  regions->n_rects = n;
  if (n <= CF_REGIONS_MAX)
    return 0;

  /* Each pass merges neighbours in reading order, pairwise, until the
   * list fits. */
  qsort (regions->rects, n, sizeof (CfRect), compare_rects);
  while (n > CF_REGIONS_MAX) {
    int excess = n - CF_REGIONS_MAX, m = 0;

    for (i = 0; i < n; i++) {
      CfRect r = regions->rects[i];

      if (excess > 0 && i + 1 < n) {
        bounding_box (&r, &regions->rects[++i]);
        excess--;
        merges++;
      }
      regions->rects[m++] = r;
    }
    n = m;
  }
  regions->n_rects = n;
  return merges;
}

int
cf_regions_subsampling (int frame, int ch)
{
  int s;

  for (s = 1; s <= 4; s *= 2)
    if ((frame + s - 1) / s == ch)
      return s;
  return ch > 0 ? MAX (1, frame / ch) : 1;
}

void
cf_rect_for_channel (const CfRect * r, int frame_width, int frame_height,
    int ch_width, int ch_height, CfRect * out)
{
  int sx = cf_regions_subsampling (frame_width, ch_width);
  int sy = cf_regions_subsampling (frame_height, ch_height);
  int x0 = r->x / sx, y0 = r->y / sy;
  int x1 = MIN ((r->x + r->w + sx - 1) / sx, ch_width);
  int y1 = MIN ((r->y + r->h + sy - 1) / sy, ch_height);

  out->x = x0;
  out->y = y0;
  out->w = MAX (x1 - x0, 0);
  out->h = MAX (y1 - y0, 0);
}
