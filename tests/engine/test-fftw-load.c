/* FFTW is loaded at run time: without a usable library the engine says
 * why, and the CPU backend runs the direct path with the same bytes even
 * where the FFT path is asked for.  Each case runs in a subprocess, as the
 * library is looked for once per process. */
#include "config.h"

#include <string.h>
#include <glib.h>

#include "cf-spec.h"
#include "cf-backend.h"

/* A 25x25 kernel through a CPU backend told to use FFTs: TRUE when its
 * plan says it did; the bytes must be the reference's either way. */
static gboolean
filter_large_kernel (void)
{
  GString *text = g_string_new (NULL);
  CfBackend *ref = cf_backend_new (CF_BACKEND_CPU_REFERENCE, -1, NULL), *be;
  CfParams p;
  CfSpec *spec;
  CfLayout l;
  CfFrame in = { {NULL} }, want = { {NULL} }, got = { {NULL} };
  gsize bytes = 60 * 45;
  gboolean fft;

  for (int j = 0; j < 25; j++) {
    for (int i = 0; i < 25; i++)
      g_string_append_printf (text, "%d ", (i * 7 + j * 3) % 11 - 4);
    g_string_append (text, j < 24 ? ";" : "");
  }
  cf_params_init (&p);
  p.filter = CF_FILTER_CUSTOM;
  p.kernel = text->str;
  spec = cf_spec_new (&p, 1, NULL);
  g_assert_nonnull (spec);
  cf_layout_init_interleaved (&l, 60, 45, 1, 1, 0x1);
  in.data[0] = g_malloc (bytes);
  want.data[0] = g_malloc0 (bytes);
  got.data[0] = g_malloc0 (bytes);
  in.stride[0] = want.stride[0] = got.stride[0] = 60;
  for (gsize i = 0; i < bytes; i++)
    in.data[0][i] = (guint8) (i * 37 + (i >> 3));

  g_setenv ("CUDAFILTER_CPU_CONVOLUTION", "fft", TRUE);
  be = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
  g_assert_true (cf_backend_process (ref, spec, &l, &in, &want, NULL));
  g_assert_true (cf_backend_process (be, spec, &l, &in, &got, NULL));
  g_assert_cmpmem (got.data[0], bytes, want.data[0], bytes);
  fft = strstr (cf_backend_describe_plan (be), "FFT") != NULL;

  cf_backend_free (be);
  cf_backend_free (ref);
  cf_spec_free (spec);
  g_free (in.data[0]);
  g_free (want.data[0]);
  g_free (got.data[0]);
  g_string_free (text, TRUE);
  return fft;
}

#ifdef HAVE_FFTW
static void
expect_unavailable (const char *library, const char *reason_part)
{
  if (g_test_subprocess ()) {
    const char *why;

    g_setenv ("CUDAFILTER_FFTW", library, TRUE);
    why = cf_cpu_fft_unavailable ();
    g_assert_nonnull (why);
    g_test_message ("reason: %s", why);
    g_assert_nonnull (strstr (why, reason_part));
    /* Asked again: the same answer, nothing loaded meanwhile. */
    g_assert_true (cf_cpu_fft_unavailable () == why);
    g_assert_false (filter_large_kernel ());
    return;
  }
  g_test_trap_subprocess (NULL, 0, 0);
  g_test_trap_assert_passed ();
}
#endif

static void
test_missing_file (void)
{
#ifdef HAVE_FFTW
  expect_unavailable ("/nonexistent/libfftw3.so.3", "/nonexistent/");
#else
  g_assert_nonnull (cf_cpu_fft_unavailable ());
  g_assert_false (filter_large_kernel ());
#endif
}

/* A library that opens but is no FFTW (the C maths library). */
static void
test_not_fftw (void)
{
#ifdef HAVE_FFTW
  expect_unavailable ("libm.so.6", "has no fftw_plan_dft_r2c_2d");
#else
  g_test_skip ("built without FFTW");
#endif
}

/* Whatever the default search finds is reported, and used when found. */
static void
test_default (void)
{
  const char *why = cf_cpu_fft_unavailable ();

  g_test_message ("FFTW here: %s", why ? why : "loaded");
  g_assert_true (filter_large_kernel () == (why == NULL));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fftw-load/missing-file", test_missing_file);
  g_test_add_func ("/fftw-load/not-fftw", test_not_fftw);
  g_test_add_func ("/fftw-load/default", test_default);
  return g_test_run ();
}
