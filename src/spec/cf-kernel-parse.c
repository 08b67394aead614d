/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: the custom kernel string, "0 -1 0; -1 5 -1; 0 -1 0".
 * Rows are separated by ';', values by white space or commas; the nested
 * lists of NumPy and OpenCV code ("[[0,-1,0],[-1,5,-1],[0,-1,0]]") and one
 * pair of brackets around the whole kernel are read too. */
#include <math.h>
#include <string.h>
#include "cf-spec.h"

#define ROWS_EXAMPLE "\"0 -1 0; -1 5 -1; 0 -1 0\""
#define NESTED_EXAMPLE "\"[[0,-1,0],[-1,5,-1],[0,-1,0]]\""

/* White space as strtod () skips it (g_ascii_isspace () leaves out '\v'). */
static gboolean
is_space (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f'
      || c == '\r';
}

/* Or a comma: strtod () would otherwise glue a value to whatever white
 * space the row has before it. */
static gboolean
is_separator (char c)
{
  return is_space (c) || c == ',';
}

static gboolean
parse_row (const char *row, int row_index, GArray * values, int *count,
    GError ** error)
{
  const char *p = row;
  gboolean comma_gap = FALSE, space_gap = FALSE;

  *count = 0;
  while (*p) {
    gboolean comma = FALSE;
    char *end;
    double v;

    for (; is_separator (*p); p++)
      comma |= *p == ',';
    if (!*p)
      break;
    if (*count > 0) {
      comma_gap |= comma;
      space_gap |= !comma;
    }
    v = g_ascii_strtod (p, &end);
    if (end == p || !isfinite (v)) {
      int len = 0;

      while (p[len] && !is_separator (p[len]))
        len++;
      g_set_error (error, CF_ERROR, CF_ERROR_KERNEL_STRING,
          "kernel: '%.*s' in row %d is not a finite number (expected e.g. "
          ROWS_EXAMPLE ")", len, p, row_index + 1);
      return FALSE;
    }
    g_array_append_val (values, v);
    (*count)++;
    p = end;
    if (*p && !is_separator (*p)) {
      g_set_error (error, CF_ERROR, CF_ERROR_KERNEL_STRING,
          "kernel: unexpected '%c' in row %d (values are separated by "
          "spaces or commas, rows by ';')", *p, row_index + 1);
      return FALSE;
    }
  }
  /* "0 -1 0, -1 5 -1, 0 -1 0" reads as rows to a person and as one row of
   * nine to the grammar: refuse rather than guess. */
  if (comma_gap && space_gap) {
    g_set_error (error, CF_ERROR, CF_ERROR_KERNEL_STRING,
        "kernel: row %d separates some values by commas and others by "
        "spaces only, as if the groups between the commas were rows; put "
        "';' between rows, e.g. " ROWS_EXAMPLE " or " NESTED_EXAMPLE,
        row_index + 1);
    return FALSE;
  }
  return TRUE;
}

static gboolean
is_blank (const char *s)
{
  for (; *s; s++)
    if (!is_separator (*s) && *s != ';')
      return FALSE;
  return TRUE;
}

static gboolean
bracket_error (const char *what, GError ** error)
{
  g_set_error (error, CF_ERROR, CF_ERROR_KERNEL_STRING,
      "kernel: %s; write rows separated by ';', e.g. " ROWS_EXAMPLE
      ", or one bracketed list per row, e.g. " NESTED_EXAMPLE, what);
  return FALSE;
}

/* "[[a, b], [c, d]]": each inner list a row.  body is the text between the
 * outer brackets. */
static gboolean
split_nested (const char *body, GPtrArray * rows, GError ** error)
{
  const char *p = body;

  for (;;) {
    const char *close;

    while (is_separator (*p))
      p++;
    if (!*p)
      return TRUE;
    if (*p != '[') {
      char what[64];

      g_snprintf (what, sizeof what, "unexpected '%c' between rows", *p);
      return bracket_error (what, error);
    }
    close = strpbrk (p + 1, "[];");
    if (close == NULL || *close != ']')
      return bracket_error (close == NULL ? "a row's '[' has no ']'" :
          *close == ';' ? "';' inside a bracketed row (each [...] is one "
          "row)" : "brackets nest at most two deep", error);
    g_ptr_array_add (rows, g_strndup (p + 1, close - p - 1));
    p = close + 1;
  }
}

/* Splits the text into the strings of its rows.  *trailing_ok says whether
 * the last row may be empty (a trailing ';'). */
static gboolean
split_rows (const char *text, GPtrArray * rows, gboolean * trailing_ok,
    GError ** error)
{
  const char *start = text, *end = text + strlen (text);
  char *body, **split;
  gboolean ok = TRUE;
  int i;

  while (is_space (*start))
    start++;
  while (end > start && is_space (end[-1]))
    end--;
  *trailing_ok = TRUE;
  if (*start != '[') {
    if (strpbrk (text, "[]") != NULL)
      return bracket_error ("brackets must enclose the whole kernel", error);
    body = g_strdup (text);
  } else {
    const char *inner = start + 1;

    if (end - start < 2 || end[-1] != ']')
      return bracket_error ("'[' without a matching ']' at the end", error);
    while (is_space (*inner))
      inner++;
    body = g_strndup (start + 1, end - start - 2);
    if (*inner == '[') {
      *trailing_ok = FALSE;
      ok = split_nested (body, rows, error);
      g_free (body);
      return ok;
    }
    /* One pair of brackets around rows as above: "[1, 2, 1]". */
    if (strpbrk (body, "[]") != NULL) {
      g_free (body);
      return bracket_error ("unbalanced brackets", error);
    }
  }
  split = g_strsplit (body, ";", -1);
  for (i = 0; split[i]; i++)
    g_ptr_array_add (rows, split[i]);
  g_free (split);
  g_free (body);
  return ok;
}

gboolean
cf_kernel_parse (const char *text, int *width, int *height, double **values,
    GError ** error)
{
  GPtrArray *rows;
  GArray *arr;
  gboolean trailing_ok;
  int n_rows = 0, w = -1;
  guint i;

  if (text == NULL || is_blank (text)) {
    g_set_error (error, CF_ERROR, CF_ERROR_KERNEL_STRING,
        "kernel: empty; give rows of numbers separated by ';', e.g. "
        ROWS_EXAMPLE);
    return FALSE;
  }

  rows = g_ptr_array_new_with_free_func (g_free);
  arr = g_array_new (FALSE, FALSE, sizeof (double));
  if (!split_rows (text, rows, &trailing_ok, error))
    goto fail;
  for (i = 0; i < rows->len; i++) {
    int count;

    if (!parse_row (g_ptr_array_index (rows, i), i, arr, &count, error))
      goto fail;
    if (count == 0) {
      /* A trailing ';' is harmless; an empty row in the middle is not. */
      if (trailing_ok && i + 1 == rows->len && i > 0)
        break;
      g_set_error (error, CF_ERROR, CF_ERROR_KERNEL_STRING,
          "kernel: row %u is empty", i + 1);
      goto fail;
    }
    if (w >= 0 && count != w) {
      g_set_error (error, CF_ERROR, CF_ERROR_KERNEL_STRING,
          "kernel: row %u has %d values but row 1 has %d; every row needs "
          "the same number of values", i + 1, count, w);
      goto fail;
    }
    w = count;
    n_rows++;
  }
  if (n_rows == 0) {
    g_set_error (error, CF_ERROR, CF_ERROR_KERNEL_STRING,
        "kernel: empty; give rows of numbers separated by ';', e.g. "
        ROWS_EXAMPLE);
    goto fail;
  }
  if (w > CF_MAX_TAPS || n_rows > CF_MAX_TAPS) {
    g_set_error (error, CF_ERROR, CF_ERROR_KERNEL_STRING,
        "kernel: %d x %d is too large; at most %d x %d values are supported",
        w, n_rows, CF_MAX_TAPS, CF_MAX_TAPS);
    goto fail;
  }
  g_ptr_array_free (rows, TRUE);
  *width = w;
  *height = n_rows;
  *values = (double *) g_array_free (arr, FALSE);
  return TRUE;

fail:
  g_ptr_array_free (rows, TRUE);
  g_array_free (arr, TRUE);
  return FALSE;
}

gboolean
cf_kernel_separate (const double *k, int width, int height, double *col,
    double *row)
{
  int n = width * height, p = 0, q = 0, i, j;
  double peak = 0.0, tol;

  for (i = 0; i < n; i++) {
    if (fabs (k[i]) > peak) {
      peak = fabs (k[i]);
      p = i / width;
      q = i % width;
    }
  }
  if (peak == 0.0) {
    for (j = 0; j < height; j++)
      col[j] = 0.0;
    for (i = 0; i < width; i++)
      row[i] = 0.0;
    return TRUE;
  }
  /* k = col * row^T with the row normalised at the largest entry. */
  for (i = 0; i < width; i++)
    row[i] = k[p * width + i] / k[p * width + q];
  for (j = 0; j < height; j++)
    col[j] = k[j * width + q];

  tol = peak * 1e-9;
  for (j = 0; j < height; j++)
    for (i = 0; i < width; i++)
      if (fabs (k[j * width + i] - col[j] * row[i]) > tol)
        return FALSE;
  return TRUE;
}
