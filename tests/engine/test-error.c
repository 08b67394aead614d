/* The engine's error domain: a name applications can match in logs. */
#include "cf-error.h"

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
  g_test_add_func ("/error/domain-name", test_domain_name);
  return g_test_run ();
}
