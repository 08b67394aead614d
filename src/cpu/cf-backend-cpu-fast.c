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
#include "cf-nonlin-cpu.h"
#ifdef HAVE_FFTW
#include "cf-cpu-fft.h"
#endif

#define TILE_PLANS 8

typedef struct
{
  CfBackend parent;
  guint threads;                /* wanted; 0 = one per core */
  CfCpuPool *pool;              /* made at the first frame after a change */
  CfCpuBandFunc band;
  const char *isa;
  CfCpuPlan *plan;              /* for the last (spec, layout) */
  /* Regions' tiles (CfBackend.tiling): direct plans for the last tile
   * layouts, so static regions plan once; replaced in turn. */
  CfCpuPlan *tile_plans[TILE_PLANS];
  guint next_tile_plan;
  const CfCpuPlan *run_plan;    /* the plan of the frame being filtered */
  CfNonlinCpu *nonlin;          /* the nonlinear operations' scratch */
  guint64 nonlin_serial;        /* the spec its plan name tells */
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

/* The rows of a group worth filtering: all of them, or inside regions
 * the band of rows they cover (the base puts the input back around
 * them; neighbours still come from the whole frame). */
static void
group_rows (const CfRegions * r, const CfCpuGroup * g, int *y0, int *y1)
{
  *y0 = 0;
  *y1 = g->height;
  if (r == NULL || r->mode != CF_REGION_INSIDE)
    return;
  *y0 = g->height;
  *y1 = 0;
  for (int i = 0; i < r->n_rects; i++) {
    CfRect c;

    cf_rect_for_channel (&r->rects[i], r->frame_width, r->frame_height,
        g->width, g->height, &c);
    if (c.w <= 0 || c.h <= 0)
      continue;
    *y0 = MIN (*y0, c.y);
    *y1 = MAX (*y1, c.y + c.h);
  }
  if (*y1 < *y0)
    *y0 = *y1 = 0;
}

/* Part `index` of a frame: the same band of rows of every channel group. */
static void
run_part (gpointer data, int index, int n_parts)
{
  CfCpuFastBackend *self = data;
  const CfCpuPlan *plan = self->run_plan;
  int k;

  for (k = 0; k < plan->n_groups; k++) {
    const CfCpuGroup *g = &plan->groups[k];
    int first, end, y0, y1;

    group_rows (self->parent.regions, g, &first, &end);
    y0 = first + (int) ((gint64) (end - first) * index / n_parts);
    y1 = first + (int) ((gint64) (end - first) * (index + 1) / n_parts);
    if (y1 > y0)
      self->band (plan, g, self->in, self->out, y0, y1,
          self->scratch[index]);
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

/* A region's tile: the direct sums (exactly the bytes the FFTs give). */
static gboolean
run_tile (CfCpuFastBackend * self, const CfSpec * spec,
    const CfLayout * layout, const CfFrame * in, const CfFrame * out)
{
  CfCpuPlan *plan = NULL;
  guint i;

  for (i = 0; i < TILE_PLANS && plan == NULL; i++)
    if (self->tile_plans[i] != NULL
        && cf_cpu_plan_matches (self->tile_plans[i], spec, layout))
      plan = self->tile_plans[i];
  if (plan == NULL) {
    i = self->next_tile_plan++ % TILE_PLANS;
    cf_cpu_plan_free (self->tile_plans[i]);
    plan = self->tile_plans[i] = cf_cpu_plan_new (spec, layout);
  }
  ensure_scratch (self, cf_cpu_pool_size (self->pool), plan->scratch_bytes);
  self->run_plan = plan;
  self->in = in;
  self->out = out;
  cf_cpu_pool_run (self->pool, run_part, self);
  self->in = self->out = NULL;
  return TRUE;
}

/* Tiles are exact for convolutions: FFTs run only where they give the
 * direct sums' bytes. */
static gboolean
cpu_fast_tiles_exact (CfBackend * backend, const CfSpec * spec,
    const CfLayout * layout)
{
  return spec->kp.operation == CF_OPERATION_CONVOLVE;
}

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
  if (spec->kp.operation != CF_OPERATION_CONVOLVE) {
    if (self->nonlin == NULL)
      self->nonlin = cf_nonlin_cpu_new (self->isa);
    if (self->nonlin_serial != spec->serial)
      cf_backend_take_plan_name (backend, g_strdup_printf ("cpu %s, %d "
            "passes", spec->kp.operation == CF_OPERATION_MEDIAN ? "median" :
            spec->kp.operation == CF_OPERATION_MORPH ? "morphology" :
            "bilateral", spec->nl.n_passes));
    self->nonlin_serial = spec->serial;
    cf_nonlin_cpu_run (self->nonlin, self->pool, spec, layout, in, out);
    return TRUE;
  }
  if (backend->tiling)
    return run_tile (self, spec, layout, in, out);
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
  self->run_plan = self->plan;
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
  for (i = 0; i < TILE_PLANS; i++)
    cf_cpu_plan_free (self->tile_plans[i]);
  cf_nonlin_cpu_free (self->nonlin);
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
  .tiles_exact = cpu_fast_tiles_exact,
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
