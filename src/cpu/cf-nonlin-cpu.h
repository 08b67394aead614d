/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: the nonlinear operations on the CPU, as the fast
 * backend runs them (threaded) and as the reference backend checks them. */
#ifndef CF_NONLIN_CPU_H
#define CF_NONLIN_CPU_H

#include "cf-spec.h"
#include "cf-layout.h"
#include "cf-cpu-pool.h"

G_BEGIN_DECLS

typedef struct _CfNonlinCpu CfNonlinCpu;

/* isa: the row kernels' instruction set as cf_cpu_band_func () named it
 * ("portable", "avx2", "avx512"). */
CfNonlinCpu *cf_nonlin_cpu_new (const char *isa);
void cf_nonlin_cpu_free (CfNonlinCpu * self);
/* Runs spec's passes (spec->kp.operation is not CF_OPERATION_CONVOLVE)
 * over the frame, each pass split in bands of rows over the pool. */
void cf_nonlin_cpu_run (CfNonlinCpu * self, CfCpuPool * pool,
    const CfSpec * spec, const CfLayout * layout, const CfFrame * in,
    const CfFrame * out);

/* The reference: straight from the definitions, one channel at a time. */
void cf_nonlin_reference (const CfSpec * spec, const CfLayout * layout,
    const CfFrame * in, const CfFrame * out);

G_END_DECLS
#endif /* CF_NONLIN_CPU_H */
