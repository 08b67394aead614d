/* cudafilter engine unit tests: hand-worked results of the CPU backend
 * (cf-backend-cpu.c).  None of the reference numbers is produced by the code
 * under test. */
#include <math.h>
#include <string.h>
#include "cf-spec.h"
#include "cf-backend.h"

/* Runs `params` on a w x h GRAY8 image on the CPU backend. */
static void
run_gray8 (const CfParams * params, const guint8 * in, guint8 * out, int w,
    int h)
{
  CfSpec *spec = cf_spec_new (params, 1, NULL);
  CfBackend *be = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
  CfLayout layout;
  CfFrame fin = { {(guint8 *) in}, {w} }, fout = { {out}, {w} };

  g_assert_nonnull (spec);
  cf_layout_init_interleaved (&layout, w, h, 1, 1, 0x1);
  g_assert_true (cf_backend_process (be, spec, &layout, &fin, &fout, NULL));
  cf_backend_free (be);
  cf_spec_free (spec);
}

static void
test_cpu_hand_worked (void)
{
  static const guint8 nine[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
  guint8 out[64], in[64];
  CfParams p;
  int x;

  /* box 3x3, reflect101, centre of 1..9: 45 / 9 = 5; corner (0,0) sees
   * 5 4 5 / 2 1 2 / 5 4 5 = 33 → 33 / 9 = 3.67 → 4 */
  cf_params_init (&p);
  p.filter = CF_FILTER_BOX;
  run_gray8 (&p, nine, out, 3, 3);
  g_assert_cmpint (out[4], ==, 5);
  g_assert_cmpint (out[0], ==, 4);

  /* 1x1 frame, constant border 0, box 3x3: 90 / 9 = 10 */
  p.border = CF_BORDER_CONSTANT;
  in[0] = 90;
  run_gray8 (&p, in, out, 1, 1);
  g_assert_cmpint (out[0], ==, 10);

  /* a Gaussian of a 1x1 frame with any reflecting border is the pixel */
  cf_params_init (&p);
  p.sigma = 3.0;
  in[0] = 200;
  run_gray8 (&p, in, out, 1, 1);
  g_assert_cmpint (out[0], ==, 200);

  /* identity custom kernel */
  cf_params_init (&p);
  p.filter = CF_FILTER_CUSTOM;
  p.kernel = "0 0 0; 0 1 0; 0 0 0";
  run_gray8 (&p, nine, out, 3, 3);
  g_assert_cmpmem (out, 9, nine, 9);

  /* sobel-x of a ramp 10 * x on 8x3: inside, 4 * (f(x+1) - f(x-1)) = 80;
   * at x = 0 reflect101 mirrors f(-1) = f(1): 0 */
  cf_params_init (&p);
  p.filter = CF_FILTER_SOBEL_X;
  for (x = 0; x < 24; x++)
    in[x] = 10 * (x % 8);
  run_gray8 (&p, in, out, 8, 3);
  g_assert_cmpint (out[8 + 3], ==, 80);
  g_assert_cmpint (out[8 + 0], ==, 0);
  /* the same with scale 0.5 and offset 3: 43 */
  p.scale = 0.5;
  p.offset = 3.0;
  run_gray8 (&p, in, out, 8, 3);
  g_assert_cmpint (out[8 + 3], ==, 43);

  /* sobel magnitude of the ramp: sqrt (80^2 + 0) = 80 */
  cf_params_init (&p);
  p.filter = CF_FILTER_SOBEL;
  run_gray8 (&p, in, out, 8, 3);
  g_assert_cmpint (out[8 + 4], ==, 80);

  /* laplacian (4-neighbour) of a single 10 in zeros: centre |-40| = 40,
   * direct neighbours 10 */
  memset (in, 0, 25);
  in[12] = 10;
  cf_params_init (&p);
  p.filter = CF_FILTER_LAPLACIAN;
  run_gray8 (&p, in, out, 5, 5);
  g_assert_cmpint (out[12], ==, 40);
  g_assert_cmpint (out[7], ==, 10);
  g_assert_cmpint (out[6], ==, 0);

  /* sharpen of a constant frame is the frame */
  memset (in, 77, 25);
  cf_params_init (&p);
  p.filter = CF_FILTER_SHARPEN;
  p.amount = 3.0;
  run_gray8 (&p, in, out, 5, 5);
  for (x = 0; x < 25; x++)
    g_assert_cmpint (out[x], ==, 77);
}

static void
test_cpu_gaussian_impulse (void)
{
  /* Impulse 255 at the centre of 5x5 zeros, sigma 1, 3 taps (70 116 70):
   * centre = round (255 * 116 * 116 / 65536) = round (52.36) = 52,
   * edge neighbour = round (255 * 70 * 116 / 65536) = round (31.59) = 32,
   * diagonal = round (255 * 70 * 70 / 65536) = round (19.07) = 19. */
  guint8 in[25] = { 0 }, out[25];
  CfParams p;

  in[12] = 255;
  cf_params_init (&p);
  p.kernel_size = 3;
  run_gray8 (&p, in, out, 5, 5);
  g_assert_cmpint (out[12], ==, 52);
  g_assert_cmpint (out[7], ==, 32);
  g_assert_cmpint (out[11], ==, 32);
  g_assert_cmpint (out[6], ==, 19);
  g_assert_cmpint (out[0], ==, 0);
}

static void
test_cpu_layout_copy_fill (void)
{
  /* RGBA 2x2: RGB filtered (box of a constant = constant), alpha copied */
  guint8 in[16], out[16];
  CfParams p;
  CfSpec *spec;
  CfBackend *be;
  CfLayout layout;
  CfFrame fin = { {in}, {8} }, fout = { {out}, {8} };
  int i;

  for (i = 0; i < 16; i++)
    in[i] = (i % 4 == 3) ? (guint8) (i * 10) : 100;
  cf_params_init (&p);
  p.filter = CF_FILTER_BOX;
  spec = cf_spec_new (&p, 1, NULL);
  be = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
  cf_layout_init_interleaved (&layout, 2, 2, 4, 1, 0x7);
  g_assert_true (cf_backend_process (be, spec, &layout, &fin, &fout, NULL));
  for (i = 0; i < 16; i++)
    g_assert_cmpint (out[i], ==, (i % 4 == 3) ? i * 10 : 100);

  /* a FILL job writes its value */
  memset (&layout, 0, sizeof (layout));
  layout.sample_bytes = 1;
  cf_layout_add_channel (&layout, CF_CHANNEL_FILL, 0, 2, 2, 4, 1, 128);
  g_assert_true (cf_backend_process (be, spec, &layout, &fin, &fout, NULL));
  g_assert_cmpint (out[1], ==, 128);
  g_assert_cmpint (out[13], ==, 128);
  cf_backend_free (be);
  cf_spec_free (spec);
}

static void
test_cpu_gray16 (void)
{
  guint16 in[35], out[35];
  CfParams p;
  CfSpec *spec;
  CfBackend *be;
  CfLayout layout;
  CfFrame fin = { {(guint8 *) in}, {14} }, fout = { {(guint8 *) out}, {14} };
  int i;

  for (i = 0; i < 35; i++)
    in[i] = 40000;
  cf_params_init (&p);
  p.sigma = 2.0;
  spec = cf_spec_new (&p, 2, NULL);
  be = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
  cf_layout_init_interleaved (&layout, 7, 5, 1, 2, 0x1);
  g_assert_true (cf_backend_process (be, spec, &layout, &fin, &fout, NULL));
  for (i = 0; i < 35; i++)
    g_assert_cmpint (out[i], ==, 40000);
  cf_backend_free (be);
  cf_spec_free (spec);
}

/* The sample accessor by hand: P010 keeps 10 bits at bit 6 of 16 and is
 * written back with the low bits zero; a field of a shared 32-bit word
 * changes only its own bits; encodings no backend reads are refused. */

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cpu/hand-worked", test_cpu_hand_worked);
  g_test_add_func ("/cpu/gaussian-impulse", test_cpu_gaussian_impulse);
  g_test_add_func ("/cpu/layout-copy-fill", test_cpu_layout_copy_fill);
  g_test_add_func ("/cpu/gray16", test_cpu_gray16);
  return g_test_run ();
}
