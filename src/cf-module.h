/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: optional libraries opened at run time with GModule
 * (cuFFT, FFTW), so the plugin loads where they are not installed. */
#ifndef CF_MODULE_H
#define CF_MODULE_H

#include <glib.h>

G_BEGIN_DECLS

/* Opens the library `name` and fills slots[i] with symbols[i] for the
 * n_symbols of them, keeping it open for the life of the process; TRUE
 * when all are there.  Otherwise appends why to `tried` ("; " between
 * attempts) and leaves nothing open. */
gboolean cf_module_open (const char *name, const char *const *symbols,
    guint n_symbols, gpointer * slots, GString * tried);

G_END_DECLS
#endif /* CF_MODULE_H */
