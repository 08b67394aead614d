/* cudafilter engine: the custom kernel string, "0 -1 0; -1 5 -1; 0 -1 0".
 * Rows are separated by ';', values by white space or commas. */
#include <math.h>
#include <string.h>
#include "cf-spec.h"

/* White space as strtod () skips it (g_ascii_isspace () leaves out '\v'),
 * or a comma: strtod () would otherwise glue a value to whatever white
 * space the row has before it. */
static gboolean
is_separator (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f'
      || c == '\r' || c == ',';
}

static gboolean
parse_row (const char *row, int row_index, GArray * values, int *count,
    GError ** error)
{
  const char *p = row;

  *count = 0;
  while (*p) {
    char *end;
    double v;

    while (is_separator (*p))
      p++;
    if (!*p)
      break;
    v = g_ascii_strtod (p, &end);
    if (end == p || !isfinite (v)) {
      int len = 0;

      while (p[len] && !is_separator (p[len]))
        len++;
      g_set_error (error, CF_ERROR, CF_ERROR_KERNEL_STRING,
          "kernel: '%.*s' in row %d is not a finite number (expected e.g. "
          "\"0 -1 0; -1 5 -1; 0 -1 0\")", len, p, row_index + 1);
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
  return TRUE;
}

static gboolean
is_blank (const char *s)
{
  for (; *s; s++)
    if (!g_ascii_isspace (*s) && *s != ';' && *s != ',')
      return FALSE;
  return TRUE;
}

gboolean
cf_kernel_parse (const char *text, int *width, int *height, double **values,
    GError ** error)
{
  GArray *arr;
  char **rows;
  int n_rows = 0, w = -1, i;

  if (text == NULL || is_blank (text)) {
    g_set_error (error, CF_ERROR, CF_ERROR_KERNEL_STRING,
        "kernel: empty; give rows of numbers separated by ';', e.g. "
        "\"0 -1 0; -1 5 -1; 0 -1 0\"");
    return FALSE;
  }

  arr = g_array_new (FALSE, FALSE, sizeof (double));
  rows = g_strsplit (text, ";", -1);
  for (i = 0; rows[i]; i++) {
    int count;

    if (!parse_row (rows[i], i, arr, &count, error))
      goto fail;
    if (count == 0) {
      /* A trailing ';' is harmless; an empty row in the middle is not. */
      if (rows[i + 1] == NULL && i > 0)
        break;
      g_set_error (error, CF_ERROR, CF_ERROR_KERNEL_STRING,
          "kernel: row %d is empty", i + 1);
      goto fail;
    }
    if (w >= 0 && count != w) {
      g_set_error (error, CF_ERROR, CF_ERROR_KERNEL_STRING,
          "kernel: row %d has %d values but row 1 has %d; every row needs "
          "the same number of values", i + 1, count, w);
      goto fail;
    }
    w = count;
    n_rows++;
  }
  if (w > CF_MAX_TAPS || n_rows > CF_MAX_TAPS) {
    g_set_error (error, CF_ERROR, CF_ERROR_KERNEL_STRING,
        "kernel: %d x %d is too large; at most %d x %d values are supported",
        w, n_rows, CF_MAX_TAPS, CF_MAX_TAPS);
    goto fail;
  }
  g_strfreev (rows);
  *width = w;
  *height = n_rows;
  *values = (double *) g_array_free (arr, FALSE);
  return TRUE;

fail:
  g_strfreev (rows);
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
