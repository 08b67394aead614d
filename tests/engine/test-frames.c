/* cudafilter engine: frames in flight, through the engine API on the CPU
 * backend.  The backend is the one record of which frame is where: wait
 * hands back each frame's data in submission order, whatever the limit
 * did meanwhile, and every frame's output is its own.  Each input is a
 * constant image, which a box filter leaves unchanged (the reference: the
 * mean of equal samples is that sample), so an output names its input. */
#include <string.h>
#include "cf-spec.h"
#include "cf-backend.h"

#define W 19
#define H 7
#define N_BUFS 24

typedef struct
{
  guint8 in[W * H], out[W * H];
  int value;
  int released;
} Buf;

static CfSpec *
box (void)
{
  CfParams params;

  cf_params_init (&params);
  params.filter = CF_FILTER_BOX;
  params.kernel_size = 3;
  return cf_spec_new (&params, 1, NULL);
}

static void
buf_init (Buf * b, int value)
{
  memset (b->in, value, sizeof b->in);
  memset (b->out, 0, sizeof b->out);
  b->value = value;
  b->released = 0;
}

static void
submit (CfBackend * be, const CfSpec * spec, const CfLayout * layout, Buf * b)
{
  CfFrame in = { {b->in}, {W} }, out = { {b->out}, {W} };
  GError *err = NULL;

  g_assert_true (cf_backend_submit (be, spec, layout, &in, &out, b, &err));
  g_assert_no_error (err);
}

/* Waits for the oldest frame, which must be `expect`, and checks it. */
static void
wait_for (CfBackend * be, Buf * expect)
{
  gpointer data = NULL;
  GError *err = NULL;

  g_assert_true (cf_backend_wait (be, &data, &err));
  g_assert_no_error (err);
  g_assert_true (data == expect);
  for (int i = 0; i < W * H; i++)
    g_assert_cmpint (expect->out[i], ==, expect->value);
}

/* The CUDA ring's old failure, here through the API every backend shares:
 * 4 in flight, three frames (the oldest moves to the fourth place), then
 * 2; each wait must still complete the frame submitted first. */
static void
test_lower_after_use (void)
{
  CfBackend *be = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
  CfSpec *spec = box ();
  CfLayout layout;
  Buf *bufs = g_new0 (Buf, N_BUFS);
  int n = 0;

  cf_layout_init_interleaved (&layout, W, H, 1, 1, 0x1);
  cf_backend_set_max_in_flight (be, 4);
  for (; n < 3; n++) {
    buf_init (&bufs[n], 10 + n);
    submit (be, spec, &layout, &bufs[n]);
    wait_for (be, &bufs[n]);
  }
  cf_backend_set_max_in_flight (be, 2);
  g_assert_cmpuint (cf_backend_get_max_in_flight (be), ==, 2);
  for (int round = 0; round < 5; round++, n += 2) {
    buf_init (&bufs[n], 40 + n);
    buf_init (&bufs[n + 1], 41 + n);
    submit (be, spec, &layout, &bufs[n]);
    submit (be, spec, &layout, &bufs[n + 1]);
    g_assert_cmpuint (cf_backend_in_flight (be), ==, 2);
    wait_for (be, &bufs[n]);
    wait_for (be, &bufs[n + 1]);
  }
  g_assert_cmpuint (cf_backend_in_flight (be), ==, 0);
  cf_backend_free (be);
  cf_spec_free (spec);
  g_free (bufs);
}

/* Lowered with frames in flight: they complete in order at their waits;
 * no new frame goes in until fewer than the new limit are in flight. */
static void
test_lower_in_flight (void)
{
  CfBackend *be = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
  CfSpec *spec = box ();
  CfLayout layout;
  Buf bufs[6];
  GError *err = NULL;

  cf_layout_init_interleaved (&layout, W, H, 1, 1, 0x1);
  cf_backend_set_max_in_flight (be, 4);
  for (int i = 0; i < 4; i++) {
    buf_init (&bufs[i], 100 + i);
    submit (be, spec, &layout, &bufs[i]);
  }
  cf_backend_set_max_in_flight (be, 2);
  buf_init (&bufs[4], 200);
  for (int i = 0; i < 4; i++) {
    if (cf_backend_in_flight (be) >= 2) {
      CfFrame in = { {bufs[4].in}, {W} }, out = { {bufs[4].out}, {W} };

      g_assert_false (cf_backend_submit (be, spec, &layout, &in, &out,
              &bufs[4], &err));
      g_assert_error (err, CF_ERROR, CF_ERROR_INVALID_PARAM);
      g_clear_error (&err);
    }
    wait_for (be, &bufs[i]);
  }
  submit (be, spec, &layout, &bufs[4]);
  wait_for (be, &bufs[4]);
  cf_backend_free (be);
  cf_spec_free (spec);
}

/* Random limits and random submit/wait order over many frames: the ring
 * wraps many times, and every frame comes back once, in order. */
static void
test_random_order (void)
{
  CfBackend *be = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
  CfSpec *spec = box ();
  CfLayout layout;
  GRand *rand = g_rand_new_with_seed (7);
  Buf *bufs = g_new0 (Buf, 400);
  int submitted = 0, done = 0;

  cf_layout_init_interleaved (&layout, W, H, 1, 1, 0x1);
  while (done < 400) {
    if (g_rand_int_range (rand, 0, 8) == 0)
      cf_backend_set_max_in_flight (be, g_rand_int_range (rand, 0, 20));
    if (submitted < 400 && g_rand_boolean (rand)
        && cf_backend_in_flight (be) < cf_backend_get_max_in_flight (be)) {
      buf_init (&bufs[submitted], submitted % 251);
      submit (be, spec, &layout, &bufs[submitted]);
      submitted++;
    } else if (done < submitted) {
      wait_for (be, &bufs[done]);
      done++;
    }
    g_assert_cmpuint (cf_backend_in_flight (be), ==, submitted - done);
    g_assert_cmpuint (cf_backend_in_flight (be), <=, CF_BACKEND_MAX_IN_FLIGHT);
  }
  {
    CfBackendStats stats;

    cf_backend_get_stats (be, &stats);
    g_assert_cmpuint (stats.frames, ==, 400);
  }
  g_rand_free (rand);
  g_free (bufs);
  cf_backend_free (be);
  cf_spec_free (spec);
}

static void
release (gpointer data)
{
  ((Buf *) data)->released++;
}

static void
test_discard (void)
{
  CfBackend *be = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
  CfSpec *spec = box ();
  CfLayout layout;
  Buf bufs[3];

  cf_layout_init_interleaved (&layout, W, H, 1, 1, 0x1);
  cf_backend_set_max_in_flight (be, 3);
  for (int i = 0; i < 3; i++) {
    buf_init (&bufs[i], 1 + i);
    submit (be, spec, &layout, &bufs[i]);
  }
  cf_backend_discard (be, release);
  g_assert_cmpuint (cf_backend_in_flight (be), ==, 0);
  for (int i = 0; i < 3; i++)
    g_assert_cmpint (bufs[i].released, ==, 1);
  /* The backend goes on as before. */
  buf_init (&bufs[0], 77);
  submit (be, spec, &layout, &bufs[0]);
  wait_for (be, &bufs[0]);
  /* Freed with a frame in flight: completed first, nothing released. */
  buf_init (&bufs[1], 78);
  submit (be, spec, &layout, &bufs[1]);
  cf_backend_free (be);
  g_assert_cmpint (bufs[1].released, ==, 0);
  for (int i = 0; i < W * H; i++)
    g_assert_cmpint (bufs[1].out[i], ==, 78);
  cf_spec_free (spec);
}

/* What a wait or submit says when there is nothing to do or no room. */
static void
test_errors (void)
{
  CfBackend *be = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
  CfSpec *spec = box ();
  CfLayout layout;
  Buf b;
  CfFrame in = { {b.in}, {W} }, out = { {b.out}, {W} };
  gpointer data = &b;
  GError *err = NULL;

  cf_layout_init_interleaved (&layout, W, H, 1, 1, 0x1);
  g_assert_false (cf_backend_wait (be, &data, &err));
  g_assert_error (err, CF_ERROR, CF_ERROR_INVALID_PARAM);
  g_assert_null (data);
  g_clear_error (&err);
  g_assert_false (cf_backend_wait (NULL, &data, &err));
  g_assert_error (err, CF_ERROR, CF_ERROR_INVALID_PARAM);
  g_clear_error (&err);

  g_assert_false (cf_backend_submit (NULL, spec, &layout, &in, &out, NULL,
          &err));
  g_assert_error (err, CF_ERROR, CF_ERROR_INVALID_PARAM);
  g_clear_error (&err);
  g_assert_false (cf_backend_submit (be, NULL, &layout, &in, &out, NULL,
          &err));
  g_assert_error (err, CF_ERROR, CF_ERROR_INVALID_PARAM);
  g_clear_error (&err);
  g_assert_cmpuint (cf_backend_in_flight (be), ==, 0);

  buf_init (&b, 9);
  submit (be, spec, &layout, &b);
  g_assert_false (cf_backend_submit (be, spec, &layout, &in, &out, NULL,
          &err));
  g_assert_error (err, CF_ERROR, CF_ERROR_INVALID_PARAM);
  g_clear_error (&err);
  wait_for (be, &b);

  /* The limit stays within 1 .. CF_BACKEND_MAX_IN_FLIGHT. */
  cf_backend_set_max_in_flight (be, 0);
  g_assert_cmpuint (cf_backend_get_max_in_flight (be), ==, 1);
  cf_backend_set_max_in_flight (be, 1000);
  g_assert_cmpuint (cf_backend_get_max_in_flight (be), ==,
      CF_BACKEND_MAX_IN_FLIGHT);

  g_assert_cmpstr (cf_backend_describe_plan (NULL), ==, "none");
  /* After a frame the plan it ran on has a name (the element logs it):
   * the CPU backend's direct path too, not "none". */
  g_assert_nonnull (strstr (cf_backend_describe_plan (be),
          "direct separable convolution, 3x3 taps"));
  cf_backend_free (be);
  cf_spec_free (spec);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  g_test_add_func ("/frames/lower-after-use", test_lower_after_use);
  g_test_add_func ("/frames/lower-in-flight", test_lower_in_flight);
  g_test_add_func ("/frames/random-order", test_random_order);
  g_test_add_func ("/frames/discard", test_discard);
  g_test_add_func ("/frames/errors", test_errors);
  return g_test_run ();
}
