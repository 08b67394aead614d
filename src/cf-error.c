/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: error domain. */
#include "cf-error.h"

/* Spelt out rather than G_DEFINE_QUARK: gst-indent spaces the macro's
 * argument, and the spaces would end up in the quark's name. */
GQuark
cf_error_quark (void)
{
  return g_quark_from_static_string ("cf-error-quark");
}
