/* cudafilter fuzz target: the custom kernel string.
 *
 * Whatever the bytes, cf_kernel_parse () and cf_spec_new () must not crash
 * or leak (AddressSanitizer/LeakSanitizer watch), and the parser must agree
 * with an independent reading of the documented grammar: rows separated by
 * ';' (one trailing ';' allowed), values by white space (space, tab, line
 * break, vertical tab, form feed) or commas, every value a whole finite number, every row the same length, at
 * most CF_MAX_TAPS x CF_MAX_TAPS. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cf-spec.h"
#include "fuzz-common.h"

static gboolean
is_sep (char c)
{
  return c == ' ' || c == '\t' || c == ',' || c == '\n' || c == '\r' ||
      c == '\v' || c == '\f';
}

/* The grammar above, written from the documentation. */
static gboolean
reference_parse (const char *text, int *w_out, int *h_out, GArray * values)
{
  char **rows = g_strsplit (text, ";", -1);
  int n_rows = g_strv_length (rows), w = -1, h = 0, r;
  gboolean ok = TRUE;

  for (r = 0; r < n_rows && ok; r++) {
    const char *p = rows[r];
    int count = 0;

    for (;;) {
      const char *start;
      char *token, *end;
      double v;

      while (*p && is_sep (*p))
        p++;
      if (!*p)
        break;
      start = p;
      while (*p && !is_sep (*p))
        p++;
      token = g_strndup (start, p - start);
      v = g_ascii_strtod (token, &end);
      if (end == token || *end != '\0' || !isfinite (v))
        ok = FALSE;
      g_free (token);
      if (!ok)
        break;
      g_array_append_val (values, v);
      count++;
    }
    if (!ok)
      break;
    if (count == 0) {
      if (r == n_rows - 1 && r > 0)
        break;                  /* a trailing ';' */
      ok = FALSE;
      break;
    }
    if (w >= 0 && count != w)
      ok = FALSE;
    w = count;
    h++;
  }
  g_strfreev (rows);
  if (ok && (w > CF_MAX_TAPS || h > CF_MAX_TAPS || h == 0))
    ok = FALSE;
  *w_out = w;
  *h_out = h;
  return ok;
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  char *text = g_strndup ((const char *) data, size);
  GArray *ref = g_array_new (FALSE, FALSE, sizeof (double));
  int w = 0, h = 0, rw, rh, i;
  double *values = NULL;
  GError *err = NULL;
  gboolean ok = cf_kernel_parse (text, &w, &h, &values, &err);
  gboolean ref_ok = reference_parse (text, &rw, &rh, ref);
  CfParams params;
  CfSpec *spec;

  if (ok != ref_ok)
    fuzz_fail ("parser %s what the grammar %s: \"%s\"", ok ? "accepts" :
        "rejects", ref_ok ? "accepts" : "rejects", text);
  if (ok) {
    if (err != NULL)
      fuzz_fail ("accepted with an error set: \"%s\"", text);
    if (w != rw || h != rh)
      fuzz_fail ("\"%s\": %dx%d, the grammar says %dx%d", text, w, h, rw, rh);
    for (i = 0; i < w * h; i++)
      if (values[i] != g_array_index (ref, double, i))
        fuzz_fail ("\"%s\": value %d is %.17g, expected %.17g", text, i,
            values[i], g_array_index (ref, double, i));
  } else if (err == NULL || err->domain != CF_ERROR || err->code !=
      CF_ERROR_KERNEL_STRING || strncmp (err->message, "kernel: ", 8) != 0) {
    fuzz_fail ("\"%s\": rejected without a kernel-string error (%s)", text,
        err ? err->message : "none");
  }
  g_clear_error (&err);

  /* The spec built from it: accepted kernels give a spec unless their
   * values overflow the fixed point (a parameter error); rejected ones
   * never do. */
  cf_params_init (&params);
  params.filter = CF_FILTER_CUSTOM;
  params.kernel = text;
  for (i = 1; i <= 2; i++) {
    spec = cf_spec_new (&params, i, &err);
    if (spec == NULL && (err == NULL || (ok && err->code !=
                CF_ERROR_INVALID_PARAM) || (!ok && err->code !=
                CF_ERROR_KERNEL_STRING && err->code != CF_ERROR_INVALID_PARAM)))
      fuzz_fail ("\"%s\": spec failed unexpectedly: %s", text,
          err ? err->message : "no error");
    if (spec != NULL && !ok)
      fuzz_fail ("\"%s\": spec built from a rejected kernel", text);
    if (spec != NULL && (spec->kp.kw != w || spec->kp.kh != h))
      fuzz_fail ("\"%s\": spec is %dx%d, kernel %dx%d", text, spec->kp.kw,
          spec->kp.kh, w, h);
    cf_spec_free (spec);
    g_clear_error (&err);
  }

  g_free (values);
  g_array_free (ref, TRUE);
  g_free (text);
  return 0;
}
