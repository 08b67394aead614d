/* cudafilter engine: the error contract.  Every call that returns FALSE or
 * NULL sets its GError, bad arguments included, so a caller always has a
 * message to show; the getters accept a NULL backend.  Runs with criticals
 * fatal, as the element tests do. */
#include "cf-spec.h"
#include "cf-backend.h"

static CfSpec *
gaussian (void)
{
  CfParams params;

  cf_params_init (&params);
  return cf_spec_new (&params, 1, NULL);
}

static void
test_process_bad_arguments (void)
{
  CfBackend *cpu = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
  CfSpec *spec = gaussian ();
  CfLayout layout;
  guint8 in_px[16] = { 0 }, out_px[16];
  CfFrame in = { {in_px}, {4} }, out = { {out_px}, {4} };
  GError *err = NULL;

  cf_layout_init_interleaved (&layout, 4, 4, 1, 1, 0x1);

  g_assert_false (cf_backend_process (NULL, spec, &layout, &in, &out, &err));
  g_assert_error (err, CF_ERROR, CF_ERROR_INVALID_PARAM);
  g_assert_nonnull (err->message);
  g_clear_error (&err);

  g_assert_false (cf_backend_process (cpu, NULL, &layout, &in, &out, &err));
  g_assert_error (err, CF_ERROR, CF_ERROR_INVALID_PARAM);
  g_clear_error (&err);

  g_assert_false (cf_backend_process (cpu, spec, NULL, &in, &out, &err));
  g_assert_error (err, CF_ERROR, CF_ERROR_INVALID_PARAM);
  g_clear_error (&err);

  g_assert_false (cf_backend_process (cpu, spec, &layout, NULL, &out, &err));
  g_assert_error (err, CF_ERROR, CF_ERROR_INVALID_PARAM);
  g_clear_error (&err);

  g_assert_false (cf_backend_process (cpu, spec, &layout, &in, NULL, &err));
  g_assert_error (err, CF_ERROR, CF_ERROR_INVALID_PARAM);
  g_clear_error (&err);

  /* A NULL error is allowed too. */
  g_assert_false (cf_backend_process (NULL, spec, &layout, &in, &out, NULL));

  /* And the arguments were fine all along. */
  g_assert_true (cf_backend_process (cpu, spec, &layout, &in, &out, &err));
  g_assert_no_error (err);

  cf_spec_free (spec);
  cf_backend_free (cpu);
}

static void
test_null_backend_getters (void)
{
  CfBackendStats stats = { 7, 1.0, 2.0 };

  g_assert_cmpint (cf_backend_kind (NULL), ==, CF_BACKEND_CPU);
  g_assert_cmpstr (cf_backend_describe (NULL), ==, "none");
  g_assert_cmpuint (cf_backend_in_flight (NULL), ==, 0);
  g_assert_cmpuint (cf_backend_get_max_in_flight (NULL), ==, 0);
  cf_backend_get_stats (NULL, &stats);
  g_assert_cmpuint (stats.frames, ==, 0);
  g_assert_cmpfloat (stats.last_frame_us, ==, 0.0);
  cf_backend_free (NULL);
}

static void
test_new_errors (void)
{
  GError *err = NULL;
  CfParams params;

  g_assert_null (cf_backend_new ((CfBackendKind) 42, -1, &err));
  g_assert_error (err, CF_ERROR, CF_ERROR_UNSUPPORTED);
  g_clear_error (&err);

  cf_params_init (&params);
  g_assert_null (cf_spec_new (NULL, 1, &err));
  g_assert_error (err, CF_ERROR, CF_ERROR_INVALID_PARAM);
  g_clear_error (&err);
  g_assert_null (cf_spec_new (&params, 3, &err));
  g_assert_error (err, CF_ERROR, CF_ERROR_INVALID_PARAM);
  g_clear_error (&err);
}

/* The domain's name, as applications match it in logs. */
static void
test_domain_name (void)
{
  g_assert_cmpstr (g_quark_to_string (CF_ERROR), ==, "cf-error-quark");
  g_assert_true (CF_ERROR == g_quark_try_string ("cf-error-quark"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  g_test_add_func ("/errors/process-bad-arguments",
      test_process_bad_arguments);
  g_test_add_func ("/errors/null-backend-getters", test_null_backend_getters);
  g_test_add_func ("/errors/new", test_new_errors);
  g_test_add_func ("/errors/domain-name", test_domain_name);
  return g_test_run ();
}
