/* cudafilter engine unit tests: kernel strings and separability
 * (cf-kernel-parse.c), worked out by hand.  None of the reference numbers is
 * produced by the code under test. */
#include <string.h>
#include "cf-spec.h"

static void
test_kernel_parse_good (void)
{
  double *v;
  int w, h;

  g_assert_true (cf_kernel_parse ("0 -1 0; -1 5 -1; 0 -1 0", &w, &h, &v,
          NULL));
  g_assert_cmpint (w, ==, 3);
  g_assert_cmpint (h, ==, 3);
  g_assert_cmpfloat (v[4], ==, 5.0);
  g_assert_cmpfloat (v[3], ==, -1.0);
  g_free (v);

  g_assert_true (cf_kernel_parse ("1,2,3;4,5,6;", &w, &h, &v, NULL));
  g_assert_cmpint (w, ==, 3);
  g_assert_cmpint (h, ==, 2);
  g_assert_cmpfloat (v[5], ==, 6.0);
  g_free (v);

  g_assert_true (cf_kernel_parse ("  -1.5e0 ,\t2.25 ", &w, &h, &v, NULL));
  g_assert_cmpint (w, ==, 2);
  g_assert_cmpint (h, ==, 1);
  g_assert_cmpfloat (v[0], ==, -1.5);
  g_assert_cmpfloat (v[1], ==, 2.25);
  g_free (v);
}

/* NumPy and OpenCV code writes kernels as nested lists; NumPy prints them
 * with spaces and line breaks.  Every spelling of the 3x3 sharpen kernel
 * must give the same nine values, row by row. */
static void
test_kernel_parse_brackets (void)
{
  static const double sharpen[] = { 0, -1, 0, -1, 5, -1, 0, -1, 0 };
  const char *spellings[] = {
    "[[0,-1,0],[-1,5,-1],[0,-1,0]]",
    " [ [0, -1, 0], [-1, 5, -1], [0, -1, 0] ] ",
    "[[ 0 -1  0]\n [-1  5 -1]\n [ 0 -1  0]]",
    "[[0,-1,0,],\n [-1,5,-1,],\n [0,-1,0,],]",
    "[0 -1 0; -1 5 -1; 0 -1 0]",
  };
  guint i, j;

  for (i = 0; i < G_N_ELEMENTS (spellings); i++) {
    GError *err = NULL;
    double *v = NULL;
    int w = 0, h = 0;

    if (!cf_kernel_parse (spellings[i], &w, &h, &v, &err))
      g_error ("\"%s\" refused: %s", spellings[i], err->message);
    g_assert_cmpint (w, ==, 3);
    g_assert_cmpint (h, ==, 3);
    for (j = 0; j < 9; j++)
      g_assert_cmpfloat (v[j], ==, sharpen[j]);
    g_free (v);
  }

  /* One pair of brackets or a single nested row is one row. */
  for (i = 0; i < 3; i++) {
    const char *row[] = { "[1,2,1]", "[[1,2,1]]", "[[1 2 1]]" };
    double *v = NULL;
    int w = 0, h = 0;

    g_assert_true (cf_kernel_parse (row[i], &w, &h, &v, NULL));
    g_assert_cmpint (w, ==, 3);
    g_assert_cmpint (h, ==, 1);
    g_assert_cmpfloat (v[0], ==, 1.0);
    g_assert_cmpfloat (v[1], ==, 2.0);
    g_assert_cmpfloat (v[2], ==, 1.0);
    g_free (v);
  }

  /* A column written NumPy's way. */
  {
    double *v = NULL;
    int w = 0, h = 0;

    g_assert_true (cf_kernel_parse ("[[1], [-2.5], [3]]", &w, &h, &v, NULL));
    g_assert_cmpint (w, ==, 1);
    g_assert_cmpint (h, ==, 3);
    g_assert_cmpfloat (v[1], ==, -2.5);
    g_free (v);
  }
}

/* Groups of space-separated values between commas look like rows; reading
 * them as one long row would silently filter with a different kernel. */
static void
test_kernel_parse_rows_without_semicolons (void)
{
  const char *ambiguous[] = { "0 -1 0, -1 5 -1, 0 -1 0", "1 2, 3 4",
    "1, 2 3", "1 2 3; 4 5, 6", "[[0 -1 0, -1 5 -1, 0 -1 0]]"
  };
  const char *fine[] = { "1, 2, 3", "1 ,2 , 3", "1,2,3", "1 2 3" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (ambiguous); i++) {
    GError *err = NULL;
    double *v = NULL;
    int w, h;

    g_assert_false (cf_kernel_parse (ambiguous[i], &w, &h, &v, &err));
    g_assert_error (err, CF_ERROR, CF_ERROR_KERNEL_STRING);
    if (strstr (err->message, "';' between rows") == NULL)
      g_error ("\"%s\": message does not say to use ';' between rows: %s",
          ambiguous[i], err->message);
    g_assert_null (v);
    g_error_free (err);
  }
  for (i = 0; i < G_N_ELEMENTS (fine); i++) {
    double *v = NULL;
    int w = 0, h = 0;

    g_assert_true (cf_kernel_parse (fine[i], &w, &h, &v, NULL));
    g_assert_cmpint (w, ==, 3);
    g_assert_cmpint (h, ==, 1);
    g_assert_cmpfloat (v[2], ==, 3.0);
    g_free (v);
  }
}

static void
test_kernel_parse_bad (void)
{
  const char *bad[] = { "", "   ", "1 2; 3", "1 x 3", "1;;2", "nan 1",
    "1 2 3; 4 5", "1e999", "1 2 3q", ";", "[]", "[[]]", "[ ]", "[[1,2],[3]]",
    "[[1,2],[3,4]", "[[1,2],[3,4]]]", "[[1,2]],[3,4]]", "[[1,2];[3,4]]",
    "[[1,2],[]]", "[[[1]]]", "[1,2", "1,2]", "[1,2] 3", "[1 2; 3 4;; 5 6]",
    "1 [2] 3", "[[1,2] x [3,4]]", "[", "]", "[[1,2],3]"
  };
  GString *big = g_string_new (NULL);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    GError *err = NULL;
    double *v = NULL;
    int w, h;

    g_assert_false (cf_kernel_parse (bad[i], &w, &h, &v, &err));
    g_assert_error (err, CF_ERROR, CF_ERROR_KERNEL_STRING);
    g_assert_nonnull (strstr (err->message, "kernel"));
    g_assert_null (v);
    g_error_free (err);
  }
  for (i = 0; i < CF_MAX_TAPS + 1; i++)
    g_string_append (big, "1 ");
  {
    GError *err = NULL;
    double *v = NULL;
    int w, h;

    g_assert_false (cf_kernel_parse (big->str, &w, &h, &v, &err));
    g_assert_nonnull (strstr (err->message, "too large"));
    g_error_free (err);
  }
  g_string_free (big, TRUE);
}

static void
test_separable (void)
{
  static const double blur[] = { 1, 2, 1, 2, 4, 2, 1, 2, 1 };
  static const double sharp[] = { 0, -1, 0, -1, 5, -1, 0, -1, 0 };
  static const double line[] = { 1, -3, 7, 0.5 };
  double col[4], row[4];
  int i, j;

  g_assert_true (cf_kernel_separate (blur, 3, 3, col, row));
  for (j = 0; j < 3; j++)
    for (i = 0; i < 3; i++)
      g_assert_cmpfloat_with_epsilon (col[j] * row[i], blur[j * 3 + i], 1e-12);
  g_assert_false (cf_kernel_separate (sharp, 3, 3, col, row));
  g_assert_true (cf_kernel_separate (line, 4, 1, col, row));
  g_assert_true (cf_kernel_separate (line, 1, 4, col, row));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/kernel/parse-good", test_kernel_parse_good);
  g_test_add_func ("/kernel/parse-brackets", test_kernel_parse_brackets);
  g_test_add_func ("/kernel/parse-rows-without-semicolons",
      test_kernel_parse_rows_without_semicolons);
  g_test_add_func ("/kernel/parse-bad", test_kernel_parse_bad);
  g_test_add_func ("/kernel/separable", test_separable);
  return g_test_run ();
}
