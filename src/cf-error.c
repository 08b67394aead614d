/* cudafilter engine: error domain. */
#include "cf-error.h"

G_DEFINE_QUARK (cf - error - quark, cf_error);
