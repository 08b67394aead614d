/* Device frames whose producer still has work queued on another stream
 * (CfFrame.wait_stream, as GStreamer >= 1.24's CUDA memory hands them
 * over): the CUDA backend must wait for that work on the GPU, reading what
 * the producer wrote and writing after it, and give the CPU backend's
 * bytes.  Without a CUDA device the test is skipped with the reason. */
#include "config.h"

#include <string.h>
#include <glib.h>

#include "cf-backend.h"
#ifdef HAVE_CUDA
#include <cuda_runtime_api.h>

#define W 1920
#define H 1080
#define BUSY_BYTES ((size_t) 512 << 20)

static CfBackend *cpu, *gpu;
static CfLayout layout;
static CfSpec *spec;
static guint8 *h_in, *h_expect, *h_out;
static guint8 *d_in, *d_out, *d_busy;
static cudaStream_t producer, consumer;

#define CHECK(call) g_assert_cmpint ((call), ==, cudaSuccess)

/* About 4 GB of writes on the producer's stream: milliseconds in which a
 * backend that does not wait would already run. */
static void
keep_producer_busy (void)
{
  for (int i = 0; i < 8; i++)
    CHECK (cudaMemsetAsync (d_busy, i, BUSY_BYTES, producer));
}

/* One frame: after a long delay queued on its stream, the producer writes
 * the input (bit 0 of `produce`) and scribbles over the output planes (bit
 * 1); the backend is told to wait for it where `wait` has the same bits.
 * Returns the bytes that differ from the CPU backend's. */
static gsize
run_frame (int produce, int wait)
{
  gboolean wait_in = wait & 1, wait_out = wait & 2;
  gsize size = (gsize) W * H, differ = 0;
  CfFrame in = { {d_in}, {W}, 1, wait_in ? producer : NULL };
  CfFrame out = { {d_out}, {W}, 1, wait_out ? producer : NULL };
  GError *err = NULL;

  CHECK (cudaMemset (d_in, 0, size));
  CHECK (cudaMemset (d_out, 0, size));
  CHECK (cudaDeviceSynchronize ());
  keep_producer_busy ();
  if (produce & 1)
    CHECK (cudaMemcpyAsync (d_in, h_in, size, cudaMemcpyHostToDevice,
            producer));
  else
    CHECK (cudaMemcpy (d_in, h_in, size, cudaMemcpyHostToDevice));
  if (produce & 2)
    CHECK (cudaMemsetAsync (d_out, 0xee, size, producer));

  g_assert_true (cf_backend_process (gpu, spec, &layout, &in, &out, &err));
  g_assert_no_error (err);
  CHECK (cudaStreamSynchronize (producer));
  CHECK (cudaMemcpy (h_out, d_out, size, cudaMemcpyDeviceToHost));
  for (gsize i = 0; i < size; i++)
    differ += h_out[i] != h_expect[i];
  return differ;
}

static void
test_wait (gconstpointer data)
{
  int which = GPOINTER_TO_INT (data);

  for (int round = 0; round < 3; round++)
    g_assert_cmpuint (run_frame (which, which), ==, 0);
  /* The same without waiting shows whether the race was there to catch;
   * it decides nothing (the GPU may happen to be quick enough). */
  g_print ("# %s without wait_stream: %" G_GSIZE_FORMAT " bytes differ\n",
      g_test_get_path (), run_frame (which, 0));
}

/* A device output's wait_stream is ordered after the writes: a consumer
 * that only synchronises with that stream (as GStreamer >= 1.24's CUDA
 * elements do with the memory's stream) reads the frame, even while the
 * backend's own stream is still held up by the input's producer. */
static void
test_consumer_stream (void)
{
  gsize size = (gsize) W * H, differ = 0;
  CfFrame in = { {d_in}, {W}, 1, producer };
  CfFrame out = { {d_out}, {W}, 1, consumer };
  gpointer frame_data = NULL;
  GError *err = NULL;

  for (int round = 0; round < 3; round++) {
    CHECK (cudaMemset (d_out, 0, size));
    CHECK (cudaMemcpy (d_in, h_in, size, cudaMemcpyHostToDevice));
    memset (h_out, 0, size);
    CHECK (cudaDeviceSynchronize ());
    keep_producer_busy ();
    g_assert_true (cf_backend_submit (gpu, spec, &layout, &in, &out,
            GINT_TO_POINTER (round + 1), &err));
    g_assert_no_error (err);
    CHECK (cudaMemcpyAsync (h_out, d_out, size, cudaMemcpyDeviceToHost,
            consumer));
    CHECK (cudaStreamSynchronize (consumer));
    for (gsize i = 0; i < size; i++)
      differ += h_out[i] != h_expect[i];
    g_assert_true (cf_backend_wait (gpu, &frame_data, &err));
    g_assert_no_error (err);
    g_assert_cmpint (GPOINTER_TO_INT (frame_data), ==, round + 1);
    g_assert_cmpuint (differ, ==, 0);
  }
}
#endif

int
main (int argc, char **argv)
{
  char *why = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);
  if (cf_cuda_device_count (&why) == 0) {
    g_print ("SKIP: %s\n", why);
    g_free (why);
    return 77;
  }
#ifdef HAVE_CUDA
  {
    CfParams p;
    GRand *rand = g_rand_new_with_seed (0x5713);
    gsize size = (gsize) W * H;

    cpu = cf_backend_new (CF_BACKEND_CPU, -1, NULL);
    gpu = cf_backend_new (CF_BACKEND_CUDA, -1, NULL);
    g_assert_nonnull (gpu);
    cf_layout_init_interleaved (&layout, W, H, 1, 1, 0x1);
    cf_params_init (&p);
    p.sigma = 2.0;
    spec = cf_spec_new (&p, 1, NULL);
    CHECK (cudaMallocHost ((void **) &h_in, size));
    h_expect = g_malloc (size);
    h_out = g_malloc (size);
    for (gsize i = 0; i < size; i++)
      h_in[i] = (guint8) g_rand_int (rand);
    g_rand_free (rand);
    {
      CfFrame in = { {h_in}, {W} }, ex = { {h_expect}, {W} };
      g_assert_true (cf_backend_process (cpu, spec, &layout, &in, &ex, NULL));
    }
    CHECK (cudaMalloc ((void **) &d_in, size));
    CHECK (cudaMalloc ((void **) &d_out, size));
    CHECK (cudaMalloc ((void **) &d_busy, BUSY_BYTES));
    CHECK (cudaStreamCreateWithFlags (&producer, cudaStreamNonBlocking));
    CHECK (cudaStreamCreateWithFlags (&consumer, cudaStreamNonBlocking));

    g_test_add_data_func ("/gpu-wait-stream/input", GINT_TO_POINTER (1),
        test_wait);
    g_test_add_data_func ("/gpu-wait-stream/output", GINT_TO_POINTER (2),
        test_wait);
    g_test_add_data_func ("/gpu-wait-stream/both", GINT_TO_POINTER (3),
        test_wait);
    g_test_add_func ("/gpu-wait-stream/consumer", test_consumer_stream);
  }
#endif
  ret = g_test_run ();
#ifdef HAVE_CUDA
  cudaStreamDestroy (consumer);
  cudaStreamDestroy (producer);
  cudaFree (d_busy);
  cudaFree (d_out);
  cudaFree (d_in);
  cudaFreeHost (h_in);
  g_free (h_out);
  g_free (h_expect);
  cf_spec_free (spec);
  cf_backend_free (gpu);
  cf_backend_free (cpu);
#endif
  return ret;
}
