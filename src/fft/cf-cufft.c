/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: cuFFT opened with GModule, as GStreamer's nvcodec
 * opens the CUDA libraries it uses: no link-time dependency, so no
 * toolkit library (nor a RUNPATH into a toolkit) is needed to load the
 * plugin. */
#include "config.h"

#include "cf-cufft.h"
#include "cf-module.h"

static CfCufft api;
static const CfCufft *loaded;
static char *status;

/* Symbol names, in CfCufft's order. */
static const char *const names[] = { "cufftCreate", "cufftDestroy",
  "cufftSetAutoAllocation", "cufftMakePlanMany", "cufftSetWorkArea",
  "cufftSetStream", "cufftExecD2Z", "cufftExecZ2D"
};

/* Tries one file name; TRUE when it is a usable cuFFT. */
static gboolean
try_open (const char *name, GString * tried)
{
  G_STATIC_ASSERT (sizeof (api) == G_N_ELEMENTS (names) * sizeof (gpointer));
  return cf_module_open (name, names, G_N_ELEMENTS (names),
      (gpointer *) & api, tried);
}

static gpointer
load_once (gpointer data)
{
  static const char *sonames[] = { "libcufft.so.12", "libcufft.so.11",
    "libcufft.so"
  };
  const char *dirs[] = { NULL, g_getenv ("CUDA_PATH"), g_getenv ("CUDA_HOME"),
    CF_CUDA_LIBDIR
  };
  const char *chosen = g_getenv ("CUDAFILTER_CUFFT");
  GString *tried = g_string_new (NULL);

  if (chosen != NULL && *chosen != '\0') {
    if (try_open (chosen, tried))
      status = g_strdup (chosen);
  } else {
    for (guint d = 0; d < G_N_ELEMENTS (dirs) && status == NULL; d++) {
      char *lib = NULL;

      if (d > 0 && (dirs[d] == NULL || *dirs[d] == '\0'))
        continue;
      /* $CUDA_PATH and $CUDA_HOME are toolkit roots. */
      if (d == 1 || d == 2)
        lib = g_build_filename (dirs[d], "lib64", NULL);
      for (guint s = 0; s < G_N_ELEMENTS (sonames) && status == NULL; s++) {
        char *name = d == 0 ? g_strdup (sonames[s]) :
            g_build_filename (lib ? lib : dirs[d], sonames[s], NULL);

        if ((d == 0 || g_file_test (name, G_FILE_TEST_EXISTS))
            && try_open (name, tried))
          status = g_steal_pointer (&name);
        g_free (name);
      }
      g_free (lib);
    }
  }
  if (status != NULL) {
    loaded = &api;
    g_string_free (tried, TRUE);
  } else {
    status = g_strdup_printf ("no cuFFT library could be opened (%s)",
        tried->str);
    g_string_free (tried, TRUE);
  }
  return NULL;
}

const CfCufft *
cf_cufft_get (const char **why)
{
  static GOnce once = G_ONCE_INIT;

  g_once (&once, load_once, NULL);
  if (why)
    *why = status;
  return loaded;
}
