/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: FFTW opened with GModule, as cuFFT is (cf-cufft.c):
 * no link-time dependency, so the plugin loads where libfftw3 is not
 * installed. */
#include "config.h"

#include "cf-fftw.h"
#include "cf-module.h"

static CfFftw api;
static const CfFftw *loaded;
static char *status;
static GMutex planner;

/* Symbol names, in CfFftw's order. */
static const char *const names[] = { "fftw_plan_dft_r2c_2d",
  "fftw_plan_dft_c2r_2d", "fftw_execute_dft_r2c", "fftw_execute_dft_c2r",
  "fftw_destroy_plan", "fftw_malloc", "fftw_free"
};

/* Tries one file name; TRUE when it is a usable FFTW. */
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
  static const char *sonames[] = { "libfftw3.so.3", "libfftw3.so" };
  const char *chosen = g_getenv ("CUDAFILTER_FFTW");
  GString *tried = g_string_new (NULL);

  if (chosen != NULL && *chosen != '\0') {
    if (try_open (chosen, tried))
      status = g_strdup (chosen);
  } else {
    for (guint s = 0; s < G_N_ELEMENTS (sonames) && status == NULL; s++)
      if (try_open (sonames[s], tried))
        status = g_strdup (sonames[s]);
  }
  if (status != NULL)
    loaded = &api;
  else
    status = g_strdup_printf ("no FFTW 3 library could be opened (%s)",
        tried->str);
  g_string_free (tried, TRUE);
  return NULL;
}

const CfFftw *
cf_fftw_get (const char **why)
{
  static GOnce once = G_ONCE_INIT;

  g_once (&once, load_once, NULL);
  if (why)
    *why = status;
  return loaded;
}

void
cf_fftw_lock (void)
{
  g_mutex_lock (&planner);
}

void
cf_fftw_unlock (void)
{
  g_mutex_unlock (&planner);
}
