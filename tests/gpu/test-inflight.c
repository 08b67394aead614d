/* Frames in flight on the CUDA backend: many frames submitted before any is
 * waited for must each come out as the CPU backend filters them alone, also
 * when the filter changes between frames still in flight.
 * Without a CUDA device every test is skipped with the reason. */
#include <string.h>
#include "cf-backend.h"

static char *no_device_reason;

typedef struct
{
  guint8 *in, *out, *expect;
} Frame;

static void
fill_random (guint8 * p, gsize n, guint32 seed)
{
  GRand *r = g_rand_new_with_seed (seed);
  gsize i;

  for (i = 0; i < n; i++)
    p[i] = (guint8) g_rand_int (r);
  g_rand_free (r);
}

static CfSpec *
spec_for (int i)
{
  /* Alternate separable and dense filters, two dense ones back to back so
   * dense weights change while earlier frames may still read theirs. */
  static const char *kernels[] = { "1 2 1; 2 4 2; 1 2 1",
    "0 -1 0; -1 5 -1; 0 -1 0", "1 0 -1; 2 0 -2; 1 0 -1; 0 3 0"
  };
  CfParams p;

  cf_params_init (&p);
  switch (i % 4) {
    case 0:
      p.sigma = 2.0;
      break;
    case 1:
      p.filter = CF_FILTER_CUSTOM;
      p.kernel = kernels[1];
      break;
    case 2:
      p.filter = CF_FILTER_CUSTOM;
      p.kernel = kernels[2];
      p.border = CF_BORDER_CONSTANT;
      p.border_value = 40;
      break;
    default:
      p.filter = CF_FILTER_SOBEL;
      p.border = CF_BORDER_WRAP;
      break;
  }
  return cf_spec_new (&p, 1, NULL);
}

static void
run_depth (guint depth, int width, int height, int samples, guint n_frames)
{
  CfBackend *cpu = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
  CfBackend *gpu;
  GError *err = NULL;
  CfLayout layout;
  gsize size = (gsize) width * height * samples;
  Frame *frames = g_new0 (Frame, n_frames);
  CfSpec **specs = g_new0 (CfSpec *, n_frames);
  guint i, submitted = 0, done = 0;
  gpointer data;

  gpu = cf_backend_new (CF_BACKEND_CUDA, -1, &err);
  g_assert_no_error (err);
  cf_backend_set_max_in_flight (gpu, depth);
  g_assert_cmpuint (cf_backend_get_max_in_flight (gpu), ==, depth);
  cf_layout_init_interleaved (&layout, width, height, samples, 1,
      samples == 4 ? 0x7 : 0x1);

  for (i = 0; i < n_frames; i++) {
    CfFrame in = { {NULL}, {width * samples} }, ex = in;

    frames[i].in = g_malloc (size);
    frames[i].out = g_malloc0 (size);
    frames[i].expect = g_malloc0 (size);
    fill_random (frames[i].in, size, 17 + i);
    specs[i] = spec_for (i);
    in.data[0] = frames[i].in;
    ex.data[0] = frames[i].expect;
    g_assert_true (cf_backend_process (cpu, specs[i], &layout, &in, &ex,
            NULL));
  }

  /* Keep `depth` frames in flight, completing the oldest as needed. */
  while (done < n_frames) {
    if (submitted < n_frames && cf_backend_in_flight (gpu) < depth) {
      CfFrame in = { {frames[submitted].in}, {width * samples} };
      CfFrame out = { {frames[submitted].out}, {width * samples} };

      g_assert_true (cf_backend_submit (gpu, specs[submitted], &layout, &in,
              &out, GUINT_TO_POINTER (submitted + 1), &err));
      g_assert_no_error (err);
      submitted++;
      continue;
    }
    g_assert_true (cf_backend_wait (gpu, &data, &err));
    g_assert_no_error (err);
    g_assert_cmpuint (GPOINTER_TO_UINT (data), ==, done + 1);
    if (memcmp (frames[done].out, frames[done].expect, size) != 0)
      g_error ("frame %u of %u (depth %u, %dx%dx%d) differs from the CPU "
          "backend", done, n_frames, depth, width, height, samples);
    done++;
  }
  {
    CfBackendStats stats;

    cf_backend_get_stats (gpu, &stats);
    g_assert_cmpuint (stats.frames, ==, n_frames);
    g_assert_cmpfloat (stats.last_kernel_us, >, 0.0);
  }

  for (i = 0; i < n_frames; i++) {
    g_free (frames[i].in);
    g_free (frames[i].out);
    g_free (frames[i].expect);
    cf_spec_free (specs[i]);
  }
  g_free (frames);
  g_free (specs);
  cf_backend_free (gpu);
  cf_backend_free (cpu);
}

static void
test_depths (void)
{
  static const guint depths[] = { 1, 2, 3, 5, 16 };
  guint d;

  if (no_device_reason) {
    g_test_skip (no_device_reason);
    return;
  }
  for (d = 0; d < G_N_ELEMENTS (depths); d++) {
    run_depth (depths[d], 333, 211, 4, 24);
    run_depth (depths[d], 64, 7, 1, 40);
  }
  run_depth (3, 1920, 1080, 4, 8);
}

static void
test_free_with_frames_in_flight (void)
{
  CfBackend *gpu;
  CfSpec *spec;
  CfParams p;
  CfLayout layout;
  guint8 *in, *out;
  int i;

  if (no_device_reason) {
    g_test_skip (no_device_reason);
    return;
  }
  /* Freeing the backend completes pending frames before the buffers go. */
  cf_params_init (&p);
  spec = cf_spec_new (&p, 1, NULL);
  gpu = cf_backend_new (CF_BACKEND_CUDA, -1, NULL);
  cf_backend_set_max_in_flight (gpu, 4);
  cf_layout_init_interleaved (&layout, 640, 480, 1, 1, 0x1);
  in = g_malloc0 (640 * 480);
  out = g_malloc (640 * 480 * 4);
  for (i = 0; i < 4; i++) {
    CfFrame fin = { {in}, {640} }, fout = { {out + i * 640 * 480}, {640} };

    g_assert_true (cf_backend_submit (gpu, spec, &layout, &fin, &fout, NULL,
            NULL));
  }
  g_assert_cmpuint (cf_backend_in_flight (gpu), ==, 4);
  cf_backend_free (gpu);
  for (i = 0; i < 640 * 480 * 4; i++)
    g_assert_cmpint (out[i], ==, 0);
  g_free (in);
  g_free (out);
  cf_spec_free (spec);
}

/* Lowering the limit after frames went through must not shift which frame
 * a wait completes: with 4, three frames leave the oldest at the ring's
 * fourth slot; with 2, the next wait must still wait for the next frame.
 * A 4K frame in pageable memory takes milliseconds, so a wait that returns
 * early leaves the canary in its output. */
static void
test_lower_limit (void)
{
  const int w = 3840, h = 2160;
  const gsize size = (gsize) w * h * 4;
  CfBackend *cpu, *gpu;
  CfSpec *spec;
  CfParams p;
  CfLayout layout;
  guint8 *in, *scratch, *out[2], *expect;
  gpointer data;
  int i;

  if (no_device_reason) {
    g_test_skip (no_device_reason);
    return;
  }
  cf_params_init (&p);
  p.sigma = 2.0;
  spec = cf_spec_new (&p, 1, NULL);
  cpu = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
  gpu = cf_backend_new (CF_BACKEND_CUDA, -1, NULL);
  cf_layout_init_interleaved (&layout, w, h, 4, 1, 0x7);
  in = g_malloc (size);
  scratch = g_malloc (size);
  out[0] = g_malloc (size);
  out[1] = g_malloc (size);
  expect = g_malloc (size);
  fill_random (in, size, 99);
  {
    CfFrame fin = { {in}, {w * 4} }, fex = { {expect}, {w * 4} };
    g_assert_true (cf_backend_process (cpu, spec, &layout, &fin, &fex, NULL));
  }

  cf_backend_set_max_in_flight (gpu, 4);
  for (i = 0; i < 3; i++) {
    CfFrame fin = { {in}, {w * 4} }, fout = { {scratch}, {w * 4} };
    g_assert_true (cf_backend_submit (gpu, spec, &layout, &fin, &fout, NULL,
            NULL));
    g_assert_true (cf_backend_wait (gpu, NULL, NULL));
  }
  cf_backend_set_max_in_flight (gpu, 2);
  for (i = 0; i < 3; i++) {
    CfFrame fin = { {in}, {w * 4} };
    CfFrame f0 = { {out[0]}, {w * 4} }, f1 = { {out[1]}, {w * 4} };

    memset (out[0], 0xA5, size);
    memset (out[1], 0x5A, size);
    g_assert_true (cf_backend_submit (gpu, spec, &layout, &fin, &f0, out[0],
            NULL));
    g_assert_true (cf_backend_submit (gpu, spec, &layout, &fin, &f1, out[1],
            NULL));
    g_assert_true (cf_backend_wait (gpu, &data, NULL));
    g_assert_true (data == out[0]);
    if (memcmp (out[0], expect, size) != 0)
      g_error ("round %d: the first wait after lowering the limit returned "
          "before its frame was done", i);
    g_assert_true (cf_backend_wait (gpu, &data, NULL));
    g_assert_true (data == out[1]);
    if (memcmp (out[1], expect, size) != 0)
      g_error ("round %d: the second frame is not done after its wait", i);
  }

  /* Lowered while four frames are in flight: each still completes at its
   * own wait, and no fifth goes in until fewer than two are left. */
  cf_backend_set_max_in_flight (gpu, 4);
  {
    guint8 *outs[4];
    CfFrame fin = { {in}, {w * 4} };

    for (i = 0; i < 4; i++) {
      CfFrame fo = { {NULL}, {w * 4} };
      outs[i] = fo.data[0] = g_malloc (size);
      memset (outs[i], 0xA5, size);
      g_assert_true (cf_backend_submit (gpu, spec, &layout, &fin, &fo,
              outs[i], NULL));
    }
    cf_backend_set_max_in_flight (gpu, 2);
    for (i = 0; i < 4; i++) {
      GError *err = NULL;
      CfFrame fo = { {scratch}, {w * 4} };

      if (i < 3) {
        g_assert_false (cf_backend_submit (gpu, spec, &layout, &fin, &fo,
                NULL, &err));
        g_assert_error (err, CF_ERROR, CF_ERROR_INVALID_PARAM);
        g_clear_error (&err);
      }
      g_assert_true (cf_backend_wait (gpu, &data, NULL));
      g_assert_true (data == outs[i]);
      if (memcmp (outs[i], expect, size) != 0)
        g_error ("frame %d in flight when the limit was lowered is not done "
            "after its wait", i);
      g_free (outs[i]);
    }
  }

  cf_backend_free (gpu);
  cf_backend_free (cpu);
  g_free (in);
  g_free (scratch);
  g_free (out[0]);
  g_free (out[1]);
  g_free (expect);
  cf_spec_free (spec);
}

/* The launch plan follows the layout and the spec: one backend, one spec,
 * frames of alternating layouts (four-sample pixels, single samples, rows
 * with odd padding), then a new spec; every output as the CPU backend's,
 * and the plan named for each. */
static void
test_plan_follows_layout (void)
{
  static const struct
  {
    int width, height, samples, stride_pad;
  } shapes[] = { {257, 65, 4, 0}, {300, 41, 1, 0}, {257, 65, 4, 0},
  {97, 33, 4, 1}, {300, 41, 1, 3}
  };
  CfBackend *cpu, *gpu;
  CfSpec *specs[2];
  CfParams p;

  if (no_device_reason) {
    g_test_skip (no_device_reason);
    return;
  }
  cf_params_init (&p);
  p.sigma = 1.5;
  specs[0] = cf_spec_new (&p, 1, NULL);
  p.filter = CF_FILTER_LAPLACIAN;
  specs[1] = cf_spec_new (&p, 1, NULL);
  cpu = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
  gpu = cf_backend_new (CF_BACKEND_CUDA, -1, NULL);
  g_assert_cmpstr (cf_backend_describe_plan (gpu), ==, "none");
  for (guint k = 0; k < 2; k++) {
    for (guint i = 0; i < G_N_ELEMENTS (shapes); i++) {
      int stride = shapes[i].width * shapes[i].samples + shapes[i].stride_pad;
      gsize size = (gsize) stride * shapes[i].height;
      guint8 *in = g_malloc (size), *out = g_malloc0 (size);
      guint8 *expect = g_malloc0 (size);
      CfFrame fin = { {in}, {stride} }, fout = { {out}, {stride} };
      CfFrame fex = { {expect}, {stride} };
      CfLayout layout;
      GError *err = NULL;

      fill_random (in, size, 5 + i);
      cf_layout_init_interleaved (&layout, shapes[i].width, shapes[i].height,
          shapes[i].samples, 1, shapes[i].samples == 4 ? 0x7 : 0x1);
      g_assert_true (cf_backend_process (cpu, specs[k], &layout, &fin, &fex,
              NULL));
      g_assert_true (cf_backend_submit (gpu, specs[k], &layout, &fin, &fout,
              NULL, &err));
      g_assert_no_error (err);
      g_assert_true (cf_backend_wait (gpu, NULL, &err));
      g_assert_no_error (err);
      g_test_message ("%dx%dx%d stride %d, %s: %s", shapes[i].width,
          shapes[i].height, shapes[i].samples, stride, k ? "laplacian" :
          "gaussian", cf_backend_describe_plan (gpu));
      g_assert_cmpstr (cf_backend_describe_plan (gpu), !=, "none");
      for (int y = 0; y < shapes[i].height; y++)
        if (memcmp (out + (gsize) y * stride, expect + (gsize) y * stride,
                shapes[i].width * shapes[i].samples) != 0)
          g_error ("shape %u, spec %u: row %d differs from the CPU backend",
              i, k, y);
      g_free (in);
      g_free (out);
      g_free (expect);
    }
  }
  cf_backend_free (gpu);
  cf_backend_free (cpu);
  cf_spec_free (specs[0]);
  cf_spec_free (specs[1]);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (cf_cuda_device_count (&no_device_reason) > 0)
    g_clear_pointer (&no_device_reason, g_free);
  else {
    char *why = g_strdup_printf ("no CUDA device: %s", no_device_reason);

    g_free (no_device_reason);
    no_device_reason = why;
    g_print ("SKIP: %s\n", no_device_reason);
  }
  g_test_add_func ("/inflight/depths", test_depths);
  g_test_add_func ("/inflight/free-pending", test_free_with_frames_in_flight);
  g_test_add_func ("/inflight/lower-limit", test_lower_limit);
  g_test_add_func ("/inflight/plan-follows-layout", test_plan_follows_layout);
  return g_test_run ();
}
