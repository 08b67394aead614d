/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: error domain. */
#ifndef CF_ERROR_H
#define CF_ERROR_H

#include <glib.h>

G_BEGIN_DECLS

#define CF_ERROR (cf_error_quark ())

typedef enum
{
  CF_ERROR_INVALID_PARAM,       /* a filter parameter is out of range */
  CF_ERROR_KERNEL_STRING,       /* the custom kernel string does not parse */
  CF_ERROR_NO_DEVICE,           /* no usable CUDA device */
  CF_ERROR_DEVICE,              /* a CUDA call failed (memory, launch, ...) */
  CF_ERROR_UNSUPPORTED          /* not built with this backend or layout */
} CfErrorCode;

GQuark cf_error_quark (void);

G_END_DECLS
#endif /* CF_ERROR_H */
