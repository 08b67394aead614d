/* cudafilter engine: error domain. */
#include "cf-error.h"

/* Spelt out rather than G_DEFINE_QUARK: gst-indent spaces the macro's
 * argument, and the spaces would end up in the quark's name. */
GQuark
cf_error_quark (void)
{
  return g_quark_from_static_string ("cf-error-quark");
}
