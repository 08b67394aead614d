/* cudafilter
 * Copyright (C) 2025-2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* cudafilter engine: the fast CPU backend, what backend=cpu and the
 * fallback run.  It computes the bytes of the reference backend
 * (cf-backend-cpu.c) with exact sums in the narrowest type that holds them
 * (cf-cpu-plan.c), vectorised row kernels picked for the machine
 * (cf-cpu-rows.c), and the rows of every plane split into bands over
 * threads started once (cf-cpu-pool.c); large dense kernels through FFTs
 * where that is exact (cf-cpu-fft.c, as CUDAFILTER_CPU_CONVOLUTION and the
 * measured crossover choose).  Frames are filtered synchronously
 * in process(): a frame in flight is one being filtered by the pool. */
#include "config.h"

#include "cf-backend-private.h"
#include "cf-cpu-plan.h"
#include "cf-cpu-pool.h"
#include "cf-fft-plan.h"
#ifdef HAVE_FFTW
#include "cf-cpu-fft.h"
#endif

typedef struct
{
  CfBackend parent;
  guint threads;                /* wanted; 0 = one per core */
  CfCpuPool *pool;              /* made at the first frame after a change */
  CfCpuBandFunc band;
  const char *isa;
  CfCpuPlan *plan;              /* for the last (spec, layout) */
  CfConvMethod method;          /* CUDAFILTER_CPU_CONVOLUTION */
#ifdef HAVE_FFTW
  CfCpuFft *fft;                /* plan's (spec, layout) through FFTs */
#endif
  guint8 *scratch_mem[CF_CPU_MAX_THREADS];
  guint8 *scratch[CF_CPU_MAX_THREADS];  /* 64-byte aligned */
  gsize scratch_len;
  int n_scratch;
  /* The frame being filtered, for the job's parts. */
  const CfFrame *in, *out;
} CfCpuFastBackend;

static const CfBackendClass cpu_fast_class;

CfCpuBandFunc
cf_cpu_band_func (const char **name)
{
  const char *want = g_getenv ("CUDAFILTER_CPU_ISA");

#if defined(CF_CPU_X86_VARIANTS)
  __builtin_cpu_init ();
  if ((want == NULL || g_strcmp0 (want, "avx512") == 0)
      && __builtin_cpu_supports ("avx512f")
      && __builtin_cpu_supports ("avx512bw")
      && __builtin_cpu_supports ("avx512dq")
      && __builtin_cpu_supports ("avx512vl")) {
    *name = "avx512";
    return cf_cpu_band_avx512;
  }
  if ((want == NULL || g_strcmp0 (want, "portable") != 0)
      && __builtin_cpu_supports ("avx2") && __builtin_cpu_supports ("fma")) {
    *name = "avx2";
    return cf_cpu_band_avx2;
  }
#endif
  (void) want;
  *name = "portable";
  return cf_cpu_band_portable;
}

static void
describe (CfCpuFastBackend * self, int threads)
{
  g_free (self->parent.description);
  self->parent.description = g_strdup_printf ("cpu (%d thread%s, %s)",
      threads, threads == 1 ? "" : "s", self->isa);
}

/* The direct path's name, as the element logs it. */
static char *
describe_direct (const CfCpuPlan * plan)
{
  static const char *const acc[] = { "float", "double", "64-bit integer" };

  return g_strdup_printf ("direct %s convolution, %dx%d taps, %s sums",
      plan->kp.separable ? "separable" : "dense", plan->kp.kw, plan->kp.kh,
      acc[plan->acc]);
}

static int
threads_for (guint wanted)
{
  int n = wanted > 0 ? (int) wanted : (int) g_get_num_processors ();

  return CLAMP (n, 1, CF_CPU_MAX_THREADS);
}

/* Scratch for each part, grown when a plan needs more, else kept. */
static void
ensure_scratch (CfCpuFastBackend * self, int parts, gsize bytes)
{
  int i;

  if (bytes <= self->scratch_len && parts <= self->n_scratch)
    return;
  bytes = MAX (bytes, self->scratch_len);
  for (i = 0; i < CF_CPU_MAX_THREADS; i++) {
    g_free (self->scratch_mem[i]);
    self->scratch_mem[i] = NULL;
    self->scratch[i] = NULL;
  }
  for (i = 0; i < parts; i++) {
    self->scratch_mem[i] = g_malloc (bytes + 64);
    self->scratch[i] = (guint8 *) (((guintptr) self->scratch_mem[i] + 63)
        & ~(guintptr) 63);
  }
  self->scratch_len = bytes;
  self->n_scratch = parts;
}

/* Part `index` of a frame: the same band of rows of every channel group. */
static void
run_part (gpointer data, int index, int n_parts)
{
  CfCpuFastBackend *self = data;
  const CfCpuPlan *plan = self->plan;
  int k;

  for (k = 0; k < plan->n_groups; k++) {
    const CfCpuGroup *g = &plan->groups[k];
    int y0 = (int) ((gint64) g->height * index / n_parts);
    int y1 = (int) ((gint64) g->height * (index + 1) / n_parts);

    self->band (plan, g, self->in, self->out, y0, y1, self->scratch[index]);
  }
}

#ifdef HAVE_FFTW
static void
run_fft_part (gpointer data, int index, int n_parts)
{
  CfCpuFastBackend *self = data;

  cf_cpu_fft_run (self->fft, self->in, self->out, index, n_parts);
}
#endif

static gboolean
cpu_fast_process (CfBackend * backend, const CfSpec * spec,
    const CfLayout * layout, const CfFrame * in, const CfFrame * out,
    GError ** error)
{
  CfCpuFastBackend *self = (CfCpuFastBackend *) backend;

  if (self->pool == NULL) {
    char *shortfall;

    self->pool = cf_cpu_pool_new (threads_for (self->threads), &shortfall);
    describe (self, cf_cpu_pool_size (self->pool));
    if (shortfall != NULL) {
      g_free (backend->warning);
      backend->warning = shortfall;
    }
  }
  if (self->plan == NULL || !cf_cpu_plan_matches (self->plan, spec, layout)) {
    cf_cpu_plan_free (self->plan);
    self->plan = cf_cpu_plan_new (spec, layout);
#ifdef HAVE_FFTW
    cf_cpu_fft_free (self->fft);
    self->fft = cf_cpu_fft_new (self->method, spec, layout, self->plan,
        NULL);
    if (self->fft != NULL)
      cf_backend_take_plan_name (backend,
          g_strdup (cf_cpu_fft_describe (self->fft)));
    else
#endif
      cf_backend_take_plan_name (backend, describe_direct (self->plan));
  }
  ensure_scratch (self, cf_cpu_pool_size (self->pool),
      self->plan->scratch_bytes);
  self->in = in;
  self->out = out;
#ifdef HAVE_FFTW
  if (self->fft != NULL) {
    cf_cpu_fft_reserve (self->fft, cf_cpu_pool_size (self->pool));
    cf_cpu_pool_run (self->pool, run_fft_part, self);
  } else
#endif
    cf_cpu_pool_run (self->pool, run_part, self);
  self->in = self->out = NULL;
  return TRUE;
}

static void
cpu_fast_free (CfBackend * backend)
{
  CfCpuFastBackend *self = (CfCpuFastBackend *) backend;
  int i;

  cf_cpu_pool_free (self->pool);
  cf_cpu_plan_free (self->plan);
#ifdef HAVE_FFTW
  cf_cpu_fft_free (self->fft);
#endif
  for (i = 0; i < CF_CPU_MAX_THREADS; i++)
    g_free (self->scratch_mem[i]);
  g_free (self);
}

static const CfBackendClass cpu_fast_class = {
  .process = cpu_fast_process,
  .free = cpu_fast_free,
};

CfBackend *
cf_backend_cpu_new (GError ** error)
{
  CfCpuFastBackend *self = g_new0 (CfCpuFastBackend, 1);

  self->parent.klass = &cpu_fast_class;
  self->parent.kind = CF_BACKEND_CPU;
  self->band = cf_cpu_band_func (&self->isa);
  /* As CUDAFILTER_CONVOLUTION chooses for the CUDA backend. */
  self->method = cf_conv_method_from_env ("CUDAFILTER_CPU_CONVOLUTION");
  describe (self, threads_for (0));
  return &self->parent;
}

void
cf_backend_set_cpu_threads (CfBackend * backend, guint n_threads)
{
  CfCpuFastBackend *self = (CfCpuFastBackend *) backend;

  g_return_if_fail (backend != NULL);
  if (backend->klass != &cpu_fast_class || self->threads == n_threads)
    return;
  g_return_if_fail (cf_backend_in_flight (backend) == 0);
  self->threads = n_threads;
  /* Started again at the next frame, with the new count. */
  g_clear_pointer (&self->pool, cf_cpu_pool_free);
  describe (self, threads_for (n_threads));
}
