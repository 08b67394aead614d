/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* With device N, only device N: a CUDA backend on the last device, used
 * from a thread with no CUDA context (a streaming thread), filters, pins
 * host memory, frees it, and leaves the thread with no context and the
 * primary context of device 0 never made.  Needs two devices; skipped with
 * the reason otherwise. */
#include "config.h"

#include <gmodule.h>
#include <glib.h>

#include "cf-backend.h"
#include "cf-host-memory.h"

#define W 64
#define H 48

typedef int (*CtxGetCurrent) (gpointer * ctx);
typedef int (*PrimaryCtxGetState) (int dev, unsigned int *flags, int *active);

static CtxGetCurrent ctx_get_current;
static PrimaryCtxGetState primary_ctx_get_state;
static int target;

/* Whether device 0's primary context is active, as the driver says. */
static gboolean
device0_primary_active (void)
{
  unsigned int flags = 0;
  int active = 0;

  g_assert_cmpint (primary_ctx_get_state (0, &flags, &active), ==, 0);
  return active != 0;
}

static void
assert_no_context (const char *after)
{
  gpointer ctx = NULL;

  /* Before cuInit the driver answers an error: no context either. */
  if (ctx_get_current (&ctx) != 0)
    ctx = NULL;
  if (ctx != NULL)
    g_error ("a CUDA context is current on the thread after %s", after);
}

static gpointer
use_last_device (gpointer unused)
{
  CfBackend *gpu;
  CfParams p;
  CfSpec *spec;
  CfLayout layout;
  guint8 *in_data, *out_data;
  int in_on, out_on;
  GError *err = NULL;

  gpu = cf_backend_new (CF_BACKEND_CUDA, target, &err);
  g_assert_no_error (err);
  g_assert_cmpint (cf_backend_device (gpu), ==, target);
  assert_no_context ("creating the backend");

  in_data = cf_host_alloc (W * H, target, &in_on);
  out_data = cf_host_alloc (W * H, target, &out_on);
  g_assert_cmpint (in_on, ==, target);
  g_assert_cmpint (out_on, ==, target);
  assert_no_context ("pinning host memory");
  for (int i = 0; i < W * H; i++)
    in_data[i] = (guint8) (i * 7);

  cf_layout_init_interleaved (&layout, W, H, 1, 1, 0x1);
  cf_params_init (&p);
  p.sigma = 1.5;
  spec = cf_spec_new (&p, 1, NULL);
  {
    CfFrame in = { {in_data}, {W} }, out = { {out_data}, {W} };

    g_assert_true (cf_backend_process (gpu, spec, &layout, &in, &out, &err));
    g_assert_no_error (err);
  }
  assert_no_context ("filtering a frame");

  cf_spec_free (spec);
  cf_host_free (in_data, in_on);
  cf_host_free (out_data, out_on);
  cf_backend_free (gpu);
  assert_no_context ("freeing");
  return NULL;
}

static void
test_only_the_device (void)
{
  GThread *thread = g_thread_new ("streaming", use_last_device, NULL);

  g_thread_join (thread);
  g_assert_false (device0_primary_active ());
}

int
main (int argc, char **argv)
{
  GModule *driver;
  char *why = NULL;
  int n;

  g_test_init (&argc, &argv, NULL);
  n = cf_cuda_device_count (&why);
  if (n < 2) {
    g_print ("SKIP: needs two CUDA devices, %d here%s%s\n", n,
        why ? ": " : "", why ? why : "");
    g_free (why);
    return 77;
  }
  driver = g_module_open ("libcuda.so.1", G_MODULE_BIND_LAZY);
  g_assert_nonnull (driver);
  g_assert_true (g_module_symbol (driver, "cuCtxGetCurrent",
          (gpointer *) & ctx_get_current));
  g_assert_true (g_module_symbol (driver, "cuDevicePrimaryCtxGetState",
          (gpointer *) & primary_ctx_get_state));
  target = n - 1;
  /* Nothing in this process has touched device 0 yet. */
  g_assert_false (device0_primary_active ());
  g_test_add_func ("/gpu-one-device/only-the-device", test_only_the_device);
  return g_test_run ();
}
