/* cuFFT is loaded at run time: without a usable library the engine says
 * why, and never fails because of it.  Each case runs in a subprocess, as
 * the library is looked for once per process. */
#include "config.h"

#include <string.h>
#include <glib.h>

#include "cf-backend.h"

#ifdef HAVE_CUFFT
static void
expect_unavailable (const char *library, const char *reason_part)
{
  if (g_test_subprocess ()) {
    const char *why;

    g_setenv ("CUDAFILTER_CUFFT", library, TRUE);
    why = cf_cuda_fft_unavailable ();
    g_assert_nonnull (why);
    g_test_message ("reason: %s", why);
    g_assert_nonnull (strstr (why, reason_part));
    /* Asked again: the same answer, nothing loaded meanwhile. */
    g_assert_true (cf_cuda_fft_unavailable () == why);
    return;
  }
  g_test_trap_subprocess (NULL, 0, 0);
  g_test_trap_assert_passed ();
}
#endif

static void
test_missing_file (void)
{
#ifdef HAVE_CUFFT
  expect_unavailable ("/nonexistent/libcufft.so.12", "/nonexistent/");
#else
  g_assert_nonnull (cf_cuda_fft_unavailable ());
#endif
}

/* A library that opens but is no cuFFT (the C maths library). */
static void
test_not_cufft (void)
{
#ifdef HAVE_CUFFT
  expect_unavailable ("libm.so.6", "has no cufftCreate");
#else
  g_test_skip ("built without cuFFT");
#endif
}

/* Whatever the default search finds is reported, not fatal. */
static void
test_default (void)
{
  const char *why = cf_cuda_fft_unavailable ();

  g_test_message ("cuFFT here: %s", why ? why : "loaded");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cufft-load/missing-file", test_missing_file);
  g_test_add_func ("/cufft-load/not-cufft", test_not_cufft);
  g_test_add_func ("/cufft-load/default", test_default);
  return g_test_run ();
}
