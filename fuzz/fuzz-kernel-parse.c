/* cudafilter fuzz target: the custom kernel string.
 *
 * Whatever the bytes, cf_kernel_parse () and cf_spec_new () must not crash
 * or leak (AddressSanitizer/LeakSanitizer watch), and the parser must agree
 * with an independent reading of the documented grammar: rows separated by
 * ';' (one trailing ';' allowed), values by white space (space, tab, line
 * break, vertical tab, form feed) or commas, every value a whole finite
 * number, every row the same length, at most CF_MAX_TAPS x CF_MAX_TAPS; a
 * row whose values are separated by commas in some places and by white
 * space alone in others is refused (it reads as several rows).  The whole
 * kernel may be enclosed in one pair of brackets ("[1 2; 3 4]"), or written
 * as a bracketed list of bracketed rows ("[[1,2],[3,4]]", rows separated by
 * commas or white space or nothing, no ';', no empty row). */
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

/* The grammar above, written from the documentation: the text becomes a
 * list of tokens ('[', ']', ';', ',' and words; white space only ends a
 * word), then the three forms are read from the tokens. */
enum
{ TOK_OPEN = '[', TOK_CLOSE = ']', TOK_SEMI = ';', TOK_COMMA = ',',
  TOK_WORD = 'w'
};

typedef struct
{
  int kind;
  char *word;
} Token;

static GArray *
tokenize (const char *text)
{
  GArray *toks = g_array_new (FALSE, FALSE, sizeof (Token));
  const char *p = text;

  while (*p) {
    Token t = { 0, NULL };

    if (is_sep (*p) && *p != ',') {
      p++;
      continue;
    }
    if (strchr ("[];,", *p) != NULL) {
      t.kind = *p++;
    } else {
      const char *start = p;

      while (*p && !is_sep (*p) && strchr ("[];", *p) == NULL)
        p++;
      t.kind = TOK_WORD;
      t.word = g_strndup (start, p - start);
    }
    g_array_append_val (toks, t);
  }
  return toks;
}

/* One row: words and commas from toks[a] to toks[b - 1].  Returns the
 * number of values (0 for an empty row) or -1 when the row is wrong. */
static int
read_row (GArray * toks, guint a, guint b, GArray * values)
{
  gboolean comma_gap = FALSE, space_gap = FALSE, comma = FALSE;
  int count = 0;
  guint i;

  for (i = a; i < b; i++) {
    Token *t = &g_array_index (toks, Token, i);
    char *end;
    double v;

    if (t->kind == TOK_COMMA) {
      comma = TRUE;
      continue;
    }
    if (t->kind != TOK_WORD)
      return -1;
    v = g_ascii_strtod (t->word, &end);
    if (end == t->word || *end != '\0' || !isfinite (v))
      return -1;
    if (count > 0) {
      if (comma)
        comma_gap = TRUE;
      else
        space_gap = TRUE;
    }
    comma = FALSE;
    g_array_append_val (values, v);
    count++;
  }
  return comma_gap && space_gap ? -1 : count;
}

static gboolean
add_row (int count, int *w, int *h)
{
  if (count <= 0 || (*w >= 0 && count != *w))
    return FALSE;
  *w = count;
  (*h)++;
  return TRUE;
}

/* Rows separated by ';' between toks[a] and toks[b - 1]; the last may be
 * empty (a trailing ';') when it is not the first. */
static gboolean
read_rows (GArray * toks, guint a, guint b, int *w, int *h, GArray * values)
{
  guint start = a, i;

  for (i = a; i <= b; i++) {
    int count;

    if (i < b && g_array_index (toks, Token, i).kind != TOK_SEMI)
      continue;
    count = read_row (toks, start, i, values);
    if (count == 0 && i == b && start > a)
      return TRUE;
    if (!add_row (count, w, h))
      return FALSE;
    start = i + 1;
  }
  return TRUE;
}

/* "[" row "]" with commas around and between the rows, from toks[a] to
 * toks[b - 1]. */
static gboolean
read_nested (GArray * toks, guint a, guint b, int *w, int *h, GArray * values)
{
  guint i = a;

  while (i < b) {
    int kind = g_array_index (toks, Token, i).kind;
    guint close;

    if (kind == TOK_COMMA) {
      i++;
      continue;
    }
    if (kind != TOK_OPEN)
      return FALSE;
    for (close = i + 1; close < b; close++)
      if (g_array_index (toks, Token, close).kind == TOK_CLOSE)
        break;
    if (close == b || !add_row (read_row (toks, i + 1, close, values), w, h))
      return FALSE;
    i = close + 1;
  }
  return TRUE;
}

static gboolean
reference_parse (const char *text, int *w_out, int *h_out, GArray * values)
{
  GArray *toks = tokenize (text);
  guint n = toks->len, i;
  int w = -1, h = 0;
  gboolean ok, brackets = FALSE;

  for (i = 0; i < n; i++)
    brackets |= g_array_index (toks, Token, i).kind == TOK_OPEN ||
        g_array_index (toks, Token, i).kind == TOK_CLOSE;
  if (!brackets)
    ok = read_rows (toks, 0, n, &w, &h, values);
  else if (n < 2 || g_array_index (toks, Token, 0).kind != TOK_OPEN ||
      g_array_index (toks, Token, n - 1).kind != TOK_CLOSE)
    ok = FALSE;
  else if (g_array_index (toks, Token, 1).kind == TOK_OPEN)
    ok = read_nested (toks, 1, n - 1, &w, &h, values);
  else
    ok = read_rows (toks, 1, n - 1, &w, &h, values);

  for (i = 0; i < n; i++)
    g_free (g_array_index (toks, Token, i).word);
  g_array_free (toks, TRUE);
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
