/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: spec internals for the engine's own tests. */
#ifndef CF_SPEC_PRIVATE_H
#define CF_SPEC_PRIVATE_H

#include "cf-spec.h"

G_BEGIN_DECLS

/* Advances the serial counter as if `n` specs had been built, so a test
 * reaches the counts a long-running pipeline does (a GstController sync
 * builds a spec per frame). */
void cf_spec_skip_serials (guint64 n);

/* The nonlinear operations' rows of cf_filters (cf-spec-nonlin.c): each
 * fills spec->nl, spec->table and kp's window size. */
gboolean cf_spec_build_median (CfSpec * spec, const CfParams * p,
    GError ** error);
gboolean cf_spec_build_morph (CfSpec * spec, const CfParams * p,
    GError ** error);
gboolean cf_spec_build_bilateral (CfSpec * spec, const CfParams * p,
    GError ** error);

G_END_DECLS
#endif /* CF_SPEC_PRIVATE_H */
