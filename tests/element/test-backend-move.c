/* cudafilter moving its backend into another CUDA context
 * (gst_cuda_filter_stream_move_backend).
 *
 * The element moves its CUDA backend when upstream CUDA memory comes from
 * another context, or when CUDA memory is negotiated; no pipeline reaches
 * that without a GPU, so this drives the element's own function on an
 * element whose backend filters on the CPU.  Against the stub driver
 * library (tests/nodevice, CF_STUB_DEVICES=1: meson's environment for this
 * test) the contexts are real GstCudaContexts and the CUDA runtime finds no
 * device, so making the new backend fails as it does on a GPU that cannot
 * take one more: the element must keep the backend and the context it had,
 * still filter with them, and post an ERROR a user can act on.  Where the
 * runtime finds a device (the real driver, on a GPU host) the move must
 * succeed instead: a CUDA backend in the new context, which filters. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <gst/check/gstcheck.h>

#include "gstcudafilter.h"
#include "gstcudafilter-stream.h"
#include "cudafilter-cuda-memory.h"
#include "cf-backend.h"

#ifdef HAVE_GST_CUDA
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#endif

/* A context of the stub's device, or NULL without gstreamer-cuda. */
static GstCudaContext *
new_context (void)
{
#ifdef HAVE_GST_CUDA
  GstCudaContext *ctx = gst_cuda_context_new (0);

  fail_unless (ctx != NULL, "no GstCudaContext on device 0 (without a GPU: "
      "is LD_LIBRARY_PATH at tests/nodevice and CF_STUB_DEVICES=1?)");
  return ctx;
#else
  return NULL;
#endif
}

/* A 3x3 box over an 8x8 frame of one sample, whose centre the backend
 * must compute: an impulse of 90 gives 10 around it.  In the element's
 * context, where the backend lives. */
static void
check_filters (GstCudaFilter * self)
{
  CfBackend *backend = self->backend;
  gboolean pushed, ok;
  guint8 in[64] = { 0 }, out[64];
  CfFrame fin = { {in}, {8} }, fout = { {out}, {8} };
  CfLayout layout;
  CfParams params;
  CfSpec *spec;
  GError *err = NULL;

  cf_params_init (&params);
  params.filter = CF_FILTER_BOX;
  params.kernel_size = 3;
  spec = cf_spec_new (&params, 1, &err);
  fail_unless (spec != NULL, "%s", err ? err->message : "");
  in[3 * 8 + 3] = 90;
  cf_layout_init_interleaved (&layout, 8, 8, 1, 1, 0x1);
  pushed = cudafilter_cuda_push (self);
  ok = cf_backend_process (backend, spec, &layout, &fin, &fout, &err);
  cudafilter_cuda_pop (pushed);
  fail_unless (ok, "the backend does not filter: %s",
      err ? err->message : "");
  fail_unless_equals_int (out[2 * 8 + 2], 10);
  fail_unless_equals_int (out[3 * 8 + 3], 10);
  fail_unless_equals_int (out[4 * 8 + 4], 10);
  fail_unless_equals_int (out[5 * 8 + 5], 0);
  cf_spec_free (spec);
}

/* The element had backend B in context A (the device's primary context
 * when NULL) and has taken context C, upstream's: without a device for the
 * runtime making a backend in C fails, and the element goes on with B in
 * A; with one it filters with a new CUDA backend in C. */
static void
move (gboolean had_context)
{
  GstCudaFilter *self = g_object_new (GST_TYPE_CUDA_FILTER, NULL);
  GstBus *bus = gst_bus_new ();
  GstCudaContext *a = had_context ? new_context () : NULL, *c = new_context ();
  CfBackend *b;
  GstMessage *m;
  GError *err = NULL;
  gchar *why = NULL;
  gboolean device = cf_cuda_device_count (&why) > 0;

  gst_object_ref_sink (self);
  gst_element_set_bus (GST_ELEMENT (self), bus);
  b = cf_backend_new (CF_BACKEND_CPU, -1, &err);
  fail_unless (b != NULL, "%s", err ? err->message : "");
  self->backend = b;
  cudafilter_cuda_set_context_object (self, a);
  cudafilter_cuda_set_context_object (self, c);

  if (device) {
    g_print ("%s: the CUDA runtime finds a device: the move succeeds\n",
        __func__);
    fail_unless (gst_cuda_filter_stream_move_backend (self, a, -1),
        "no CUDA backend in the new context");
    fail_unless (cf_backend_kind (self->backend) == CF_BACKEND_CUDA);
    fail_unless (self->cuda.context == c);
    fail_unless (self->cuda.backend_in_context == (c != NULL));
    check_filters (self);
    fail_if (gst_bus_have_pending (bus), "a message for a move that worked");
    goto done;
  }
  g_print ("%s: the CUDA runtime finds no device (%s): the move fails\n",
      __func__, GST_STR_NULL (why));
  fail_if (gst_cuda_filter_stream_move_backend (self, a, -1),
      "a CUDA backend was made where the CUDA runtime finds no device");
  fail_unless (self->backend == b, "the element lost its backend");
  fail_unless (self->cuda.context == a, "the element did not go back to "
      "its own CUDA context");
  check_filters (self);

  m = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (m != NULL, "no ERROR posted");
  gst_message_parse_error (m, &err, NULL);
  fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_FAILED), "%s", err->message);
  fail_unless (strstr (err->message, "backend=cpu") != NULL, "the ERROR "
      "does not say what to do: %s", err->message);
  g_clear_error (&err);
  gst_message_unref (m);

done:
  {
    gboolean pushed = cudafilter_cuda_push (self);

    g_clear_pointer (&self->backend, cf_backend_free);
    cudafilter_cuda_pop (pushed);
  }
  g_free (why);
  cudafilter_cuda_set_context_object (self, NULL);
  gst_element_set_bus (GST_ELEMENT (self), NULL);
  gst_object_unref (bus);
  gst_object_unref (self);
  gst_clear_object (&a);
  gst_clear_object (&c);
}

GST_START_TEST (test_move_from_a_context)
{
  move (TRUE);
}

GST_END_TEST;

GST_START_TEST (test_move_from_the_primary_context)
{
  move (FALSE);
}

GST_END_TEST;

static Suite *
backend_move_suite (void)
{
  Suite *s = suite_create ("cudafilter-backend-move");
  TCase *tc = tcase_create ("move");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_move_from_a_context);
  tcase_add_test (tc, test_move_from_the_primary_context);
  return s;
}

int
main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);
#ifdef HAVE_GST_CUDA
  if (!gst_cuda_load_library ()) {
    g_printerr ("libgstcuda cannot load the driver library: run with "
        "LD_LIBRARY_PATH at the stub (build/tests/nodevice) and "
        "CF_STUB_DEVICES=1\n");
    return 1;
  }
#endif
  return gst_check_run_suite (backend_move_suite (), "backend-move",
      __FILE__);
}
