/* cudafilter element tests: hand-worked values (each also what OpenCV gives
 * for the same input). */
#include "element-common.h"

/* Hand-worked values (each also what OpenCV gives for the same input) */

#define RAMP_W 20
#define RAMP_H 5

static void
fill_ramp (guint16 * px, int w, int h, int slope, int base)
{
  int x, y;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      px[y * w + x] = base + slope * x;
}

/* Row y of out equals expect_edge at x = 0 and w-1, expect_mid between. */
static void
assert_rows (const guint16 * out, int w, int h, int expect_edge,
    int expect_mid, const gchar * what)
{
  int x, y;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      check_int (out[y * w + x],
          x == 0 || x == w - 1 ? expect_edge : expect_mid,
          "%s at (%d,%d)", what, x, y);
}

GST_START_TEST (test_sobel_ramp)
{
  guint16 in[RAMP_W * RAMP_H], out[RAMP_W * RAMP_H];
  int x;

  SKIP_WITHOUT_BACKEND (__i__);

  /* p = 10 + 3x.  Sobel 3x3 x: column weights 1 2 1 (sum 4) times the
   * central difference p(x+1) - p(x-1) = 6: 24.  reflect101 mirrors x = -1
   * to x = 1, so the edge columns are 0; replicate gives 4 * 3 = 12. */
  fill_ramp (in, RAMP_W, RAMP_H, 3, 10);
  {
    const gchar *p[] = { "filter", "sobel-x", NULL };
    run_gray (__i__, "GRAY8", RAMP_W, RAMP_H, in, out, p);
    assert_rows (out, RAMP_W, RAMP_H, 0, 24, "sobel-x reflect101");
  }
  {
    const gchar *p[] = { "filter", "sobel-x", "border", "replicate", NULL };
    run_gray (__i__, "GRAY8", RAMP_W, RAMP_H, in, out, p);
    assert_rows (out, RAMP_W, RAMP_H, 12, 24, "sobel-x replicate");
  }
  {
    /* The ramp has no vertical change. */
    const gchar *p[] = { "filter", "sobel-y", NULL };
    run_gray (__i__, "GRAY8", RAMP_W, RAMP_H, in, out, p);
    assert_rows (out, RAMP_W, RAMP_H, 0, 0, "sobel-y");
  }
  {
    /* Magnitude sqrt(24^2 + 0^2). */
    const gchar *p[] = { "filter", "sobel", NULL };
    run_gray (__i__, "GRAY8", RAMP_W, RAMP_H, in, out, p);
    assert_rows (out, RAMP_W, RAMP_H, 0, 24, "sobel");
  }
  {
    /* 24 * 0.5 + 5. */
    const gchar *p[] = { "filter", "sobel-x", "scale", "0.5", "offset", "5",
      NULL
    };
    run_gray (__i__, "GRAY8", RAMP_W, RAMP_H, in, out, p);
    assert_rows (out, RAMP_W, RAMP_H, 5, 17, "sobel-x scale offset");
  }
  {
    /* Scharr x: column weights 3 10 3 (sum 16) times 6: 96. */
    const gchar *p[] = { "filter", "scharr", NULL };
    run_gray (__i__, "GRAY8", RAMP_W, RAMP_H, in, out, p);
    assert_rows (out, RAMP_W, RAMP_H, 0, 96, "scharr");
  }
  {
    /* Decreasing ramp: the absolute value. */
    fill_ramp (in, RAMP_W, RAMP_H, -3, 70);
    const gchar *p[] = { "filter", "sobel-x", NULL };
    run_gray (__i__, "GRAY8", RAMP_W, RAMP_H, in, out, p);
    assert_rows (out, RAMP_W, RAMP_H, 0, 24, "sobel-x of a falling ramp");
  }

  /* Slope 1, aperture 5: row taps -1 -2 0 2 1 on a unit ramp give
   * 2 + 2 + 2 + 2 = 8, column taps 1 4 6 4 1 sum to 16: 128.  At x = 1,
   * reflect101 reads x = -1 as x = 1: -1*1 - 2*0 + 2*2 + 1*3 = 6 -> 96. */
  fill_ramp (in, RAMP_W, RAMP_H, 1, 0);
  {
    const gchar *p[] = { "filter", "sobel-x", "kernel-size", "5", NULL };
    run_gray (__i__, "GRAY8", RAMP_W, RAMP_H, in, out, p);
    for (x = 0; x < RAMP_W; x++) {
      int e = (x == 0 || x == RAMP_W - 1) ? 0 :
          (x == 1 || x == RAMP_W - 2) ? 96 : 128;
      check_int (out[2 * RAMP_W + x], e, "x=%d", x);
    }
  }

  /* 16-bit: slope 1000 -> 8 * 1000. */
  fill_ramp (in, 10, 4, 1000, 5);
  {
    const gchar *p[] = { "filter", "sobel-x", NULL };
    run_gray (__i__, "GRAY16_LE", 10, 4, in, out, p);
    assert_rows (out, 10, 4, 0, 8000, "16-bit sobel-x");
  }
}

GST_END_TEST;

GST_START_TEST (test_laplacian_quadratic)
{
  guint16 in[16 * 4], out[16 * 4];
  int x, y;

  SKIP_WITHOUT_BACKEND (__i__);

  /* p = x^2: second difference 2.  Aperture 1 is 0 1 0; 1 -4 1; 0 1 0
   * (-> 2), aperture 3 is 2 0 2; 0 -8 0; 2 0 2 (-> 4 * 2 = 8).  At x = 0
   * reflect101 makes p symmetric (x = -1 reads x = 1), still 2 and 8. */
  for (y = 0; y < 4; y++)
    for (x = 0; x < 16; x++)
      in[y * 16 + x] = x * x;
  {
    const gchar *p[] = { "filter", "laplacian", "kernel-size", "1", NULL };
    run_gray (__i__, "GRAY8", 16, 4, in, out, p);
    for (y = 0; y < 4; y++)
      for (x = 0; x < 15; x++)
        check_int (out[y * 16 + x], 2, "(%d,%d)", x, y);
  }
  {
    const gchar *p[] = { "filter", "laplacian", "kernel-size", "3", NULL };
    run_gray (__i__, "GRAY8", 16, 4, in, out, p);
    for (y = 0; y < 4; y++)
      for (x = 0; x < 15; x++)
        check_int (out[y * 16 + x], 8, "(%d,%d)", x, y);
  }
}

GST_END_TEST;

GST_START_TEST (test_box_values)
{
  /* Means of 3x3 windows, reflect101: centre 455 / 9 = 50.6 -> 51; corner
   * (0,0) reads rows 1 0 1 and columns 1 0 1: 330 / 9 = 36.7 -> 37. */
  const guint16 in[9] = { 10, 20, 30, 40, 50, 60, 70, 80, 95 };
  const guint16 expect[9] = { 37, 40, 43, 47, 51, 54, 57, 61, 64 };
  guint16 out[9];
  const guint16 one[1] = { 90 };
  int i;

  SKIP_WITHOUT_BACKEND (__i__);

  {
    const gchar *p[] = { "filter", "box", NULL };
    run_gray (__i__, "GRAY8", 3, 3, in, out, p);
    for (i = 0; i < 9; i++)
      check_int (out[i], expect[i], "pixel %d", i);
  }
  /* More CPU threads than rows: bands of one row or none, thinner than the
   * kernel; the same values (the CUDA backend ignores the property). */
  {
    const gchar *p[] = { "filter", "box", "cpu-threads", "5", NULL };
    run_gray (__i__, "GRAY8", 3, 3, in, out, p);
    for (i = 0; i < 9; i++)
      check_int (out[i], expect[i], "pixel %d", i);
  }
  /* A 1x1 frame in a constant border: (90 + 8 * border) / 9. */
  {
    const gchar *p[] = { "filter", "box", "border", "constant", NULL };
    run_gray (__i__, "GRAY8", 1, 1, one, out, p);
    check_int (out[0], 10);
  }
  {
    const gchar *p[] = { "filter", "box", "border", "constant",
      "border-value", "180", NULL
    };
    run_gray (__i__, "GRAY8", 1, 1, one, out, p);
    check_int (out[0], 170);
  }
}

GST_END_TEST;

/* A CPU backend whose threads cannot start (CUDAFILTER_FAULT=threads fails
 * every start) filters on the streaming thread: the box values above on
 * every frame, one warning naming the threads, no error. */
GST_START_TEST (test_threads_fault)
{
  const guint16 in[9] = { 10, 20, 30, 40, 50, 60, 70, 80, 95 };
  const guint16 expect[9] = { 37, 40, 43, 47, 51, 54, 57, 61, 64 };
  const gchar *p[] = { "filter", "box", "cpu-threads", "4", NULL };
  GstBus *bus;
  GstHarness *h;
  GstVideoInfo info;
  GstMessage *m;
  int frame, i;

  g_setenv ("CUDAFILTER_FAULT", "threads", TRUE);
  h = make_harness (__i__, p, &bus);
  set_caps (h, &info, "GRAY8", 3, 3);
  for (frame = 0; frame < 3; frame++) {
    GstVideoFrame f;
    GstBuffer *buf = gst_buffer_new_allocate (NULL, info.size, NULL), *res;

    fail_unless (gst_video_frame_map (&f, &info, buf, GST_MAP_WRITE));
    for (i = 0; i < 9; i++)
      comp_set (&f, 0, i % 3, i / 3, in[i]);
    gst_video_frame_unmap (&f);
    res = push_pull (h, &info, buf, &f);
    for (i = 0; i < 9; i++)
      check_int (comp_get (&f, 0, i % 3, i / 3), expect[i],
          "frame %d pixel %d", frame, i);
    gst_video_frame_unmap (&f);
    gst_buffer_unref (res);
  }
  g_unsetenv ("CUDAFILTER_FAULT");
  m = pop_message (bus, GST_MESSAGE_WARNING);
  fail_unless (m != NULL, "no warning when no CPU thread starts");
  assert_message_mentions (m, "1 of 4", "threads", NULL);
  gst_message_unref (m);
  fail_unless (pop_message (bus, GST_MESSAGE_WARNING) == NULL,
      "more than one warning");
  fail_unless (pop_message (bus, GST_MESSAGE_ERROR) == NULL);
  gst_harness_teardown (h);
  /* Messages left on the bus hold the element, which holds the bus. */
  gst_bus_set_flushing (bus, TRUE);
  gst_object_unref (bus);
}

GST_END_TEST;

/* OpenCV's 3-tap sigma-1 Gaussian: exp(-x^2 / 2) normalised, in 1/256. */
static void
gaussian3_taps (int *taps)
{
  double e = exp (-0.5), sum = 1.0 + 2.0 * e;

  taps[0] = taps[2] = (int) floor (256.0 * e / sum + 0.5);
  taps[1] = (int) floor (256.0 / sum + 0.5);
}

GST_START_TEST (test_gaussian_values)
{
  int taps[3], engine_taps[3], x, y;
  guint16 in[25], out[25];

  SKIP_WITHOUT_BACKEND (__i__);

  gaussian3_taps (taps);
  /* 70.16, 115.68, 70.16 -> 70 116 70, which also sum to 256. */
  check_int (taps[0], 70);
  check_int (taps[1], 116);
  cf_gaussian_kernel_fixed (3, 1.0, 8, engine_taps);
  check_int (engine_taps[0], taps[0]);
  check_int (engine_taps[1], taps[1]);
  check_int (engine_taps[2], taps[2]);

  /* A single 255 pixel: the output is 255 * w_x * w_y / 65536, rounded,
   * symmetric around the centre: 52 centre, 32 beside it, 19 diagonal. */
  memset (in, 0, sizeof (in));
  in[2 * 5 + 2] = 255;
  {
    const gchar *p[] = { "filter", "gaussian", "kernel-size", "3",
      "sigma", "1", NULL
    };
    run_gray (__i__, "GRAY8", 5, 5, in, out, p);
  }
  for (y = 0; y < 5; y++)
    for (x = 0; x < 5; x++) {
      int dx = ABS (x - 2), dy = ABS (y - 2), e = 0;

      if (dx <= 1 && dy <= 1)
        e = (255 * taps[1 - dx] * taps[1 - dy] + 32768) >> 16;
      check_int (out[y * 5 + x], e, "(%d,%d)", x, y);
    }
  check_int (out[12], 52);
  check_int (out[11], 32);
  check_int (out[6], 19);

  /* Unsharp mask of 100 on 50: gaussian 50 + 50 * w_x * w_y / 65536 =
   * 60.27 / 56.20 / 53.74, so src + (src - blur) = 139.7 -> 140 at the
   * centre, 43.8 -> 44 beside it, 46.3 -> 46 diagonally, 50 elsewhere. */
  for (x = 0; x < 25; x++)
    in[x] = 50;
  in[12] = 100;
  {
    const gchar *p[] = { "filter", "sharpen", "kernel-size", "3",
      "amount", "1", NULL
    };
    run_gray (__i__, "GRAY8", 5, 5, in, out, p);
  }
  for (y = 0; y < 5; y++)
    for (x = 0; x < 5; x++) {
      int dx = ABS (x - 2), dy = ABS (y - 2), e = 50;

      if (dx == 0 && dy == 0)
        e = 140;
      else if (dx <= 1 && dy <= 1)
        e = dx + dy == 1 ? 44 : 46;
      check_int (out[y * 5 + x], e, "(%d,%d)", x, y);
    }
}

GST_END_TEST;

GST_START_TEST (test_gaussian_borders)
{
  /* Row 0 90 180, 3-tap sigma-1 Gaussian, height 1 (the vertical pass
   * sees the same row: factor 256/256).  At x = 0 the left neighbour is
   * x = 1 (reflect101: 90), x = 0 (replicate, reflect: 0) or x = 2
   * (wrap: 180): (70 * left + 70 * 90) / 256 = 49.2, 24.6, 73.8. */
  static const struct
  {
    const gchar *border;
    int expect;
  } cases[] = {
    {"reflect101", 49}, {"replicate", 25}, {"reflect", 25}, {"wrap", 74},
  };
  const guint16 in[3] = { 0, 90, 180 };
  guint16 out[3];
  guint i;

  SKIP_WITHOUT_BACKEND (__i__);

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    const gchar *p[] = { "filter", "gaussian", "kernel-size", "3",
      "border", cases[i].border, NULL
    };
    run_gray (__i__, "GRAY8", 3, 1, in, out, p);
    check_int (out[0], cases[i].expect, "border %s", cases[i].border);
    /* The middle sees 0 and 180 whatever the border: 90. */
    check_int (out[1], 90, "border %s", cases[i].border);
  }
}

GST_END_TEST;

GST_START_TEST (test_custom_values)
{
  guint16 in[7 * 4], out[7 * 4];
  GRand *rand;
  int x, y;

  SKIP_WITHOUT_BACKEND (__i__);

  rand = g_rand_new_with_seed (42);
  for (x = 0; x < 7 * 4; x++)
    in[x] = g_rand_int_range (rand, 0, 256);
  g_rand_free (rand);

  {
    /* Identity. */
    const gchar *p[] = { "filter", "custom", "kernel", "0 0 0; 0 1 0; 0 0 0",
      NULL
    };
    run_gray (__i__, "GRAY8", 7, 4, in, out, p);
    for (x = 0; x < 7 * 4; x++)
      check_int (out[x], in[x], "sample %d", x);
  }
  {
    /* Correlation, not convolution: the weight left of the centre reads
     * the left neighbour; x = 0 reads x = 1 (reflect101). */
    const gchar *p[] = { "filter", "custom", "kernel", "0,0,0; 1,0,0; 0,0,0",
      NULL
    };
    run_gray (__i__, "GRAY8", 7, 4, in, out, p);
    for (y = 0; y < 4; y++)
      for (x = 0; x < 7; x++)
        check_int (out[y * 7 + x], in[y * 7 + (x ? x - 1 : 1)],
            "(%d,%d)", x, y);
  }
  {
    /* Identity plus offset 7, saturated at 255. */
    const gchar *p[] = { "filter", "custom", "kernel", "0 0 0; 0 1 0; 0 0 0",
      "offset", "7", NULL
    };
    run_gray (__i__, "GRAY8", 7, 4, in, out, p);
    for (x = 0; x < 7 * 4; x++)
      check_int (out[x], MIN (in[x] + 7, 255), "sample %d", x);
  }
  /* 1x3 mean (divisor 0 = sum 3) and a difference (sum 0: divisor 1) on
   * the ramp 0 30 60 90 ... */
  fill_ramp (in, 7, 1, 30, 0);
  {
    const gchar *p[] = { "filter", "custom", "kernel", "1 1 1", NULL };
    run_gray (__i__, "GRAY8", 7, 1, in, out, p);
    for (x = 1; x < 6; x++)
      check_int (out[x], 30 * x);
    /* x = 0 reads 30 0 30: 20. */
    check_int (out[0], 20);
  }
  {
    const gchar *p[] = { "filter", "custom", "kernel", "-1 0 1", NULL };
    run_gray (__i__, "GRAY8", 7, 1, in, out, p);
    for (x = 1; x < 6; x++)
      check_int (out[x], 60);
    check_int (out[0], 0);
    /* Negative sums saturate to 0. */
  }
  {
    const gchar *p[] = { "filter", "custom", "kernel", "1 0 -1", NULL };
    run_gray (__i__, "GRAY8", 7, 1, in, out, p);
    for (x = 0; x < 7; x++)
      check_int (out[x], 0);
  }
  {
    /* An even 2x2 kernel anchored at (1,1) with divisor 2: the mean of the
     * pixel and its upper-left neighbour; frame one row: (x-1, 0). */
    const gchar *p[] = { "filter", "custom", "kernel", "1 0; 0 1",
      "divisor", "2", NULL
    };
    run_gray (__i__, "GRAY8", 7, 1, in, out, p);
    for (x = 1; x < 7; x++)
      check_int (out[x], 30 * x - 15, "x=%d", x);
  }
}

GST_END_TEST;

static void
add_backend_tests (TCase * tc, int backend)
{
  ADD_BACKEND_TEST (tc, test_sobel_ramp, backend);
  ADD_BACKEND_TEST (tc, test_laplacian_quadratic, backend);
  ADD_BACKEND_TEST (tc, test_box_values, backend);
  ADD_BACKEND_TEST (tc, test_gaussian_values, backend);
  ADD_BACKEND_TEST (tc, test_gaussian_borders, backend);
  ADD_BACKEND_TEST (tc, test_custom_values, backend);
  if (backend == BACKEND_CPU)
    ADD_BACKEND_TEST (tc, test_threads_fault, backend);
}

ELEMENT_TEST_MAIN (values);
