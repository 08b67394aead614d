/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: libraries opened at run time (see cf-module.h), as
 * GStreamer's nvcodec opens the CUDA libraries it uses. */
#include <gmodule.h>

#include "cf-module.h"

gboolean
cf_module_open (const char *name, const char *const *symbols,
    guint n_symbols, gpointer * slots, GString * tried)
{
  GModule *module = g_module_open (name, G_MODULE_BIND_LAZY |
      G_MODULE_BIND_LOCAL);

  if (module == NULL) {
    g_string_append_printf (tried, "%s%s", tried->len ? "; " : "",
        g_module_error ());
    return FALSE;
  }
  for (guint i = 0; i < n_symbols; i++) {
    if (!g_module_symbol (module, symbols[i], &slots[i]) || slots[i] == NULL) {
      g_string_append_printf (tried, "%s%s has no %s", tried->len ? "; " : "",
          name, symbols[i]);
      g_module_close (module);
      return FALSE;
    }
  }
  /* Kept open for the life of the process. */
  g_module_make_resident (module);
  return TRUE;
}
