/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* backend=cpu touches no CUDA: the pools it offers upstream and takes its
 * outputs from hold plain system memory, never the element's pinned host
 * memory (cudaHostAlloc, which makes a CUDA context on the default
 * device). */
#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#define PINNED_TYPE "CudaFilterHostMemory"
#define CAPS "video/x-raw,format=GRAY8,width=16,height=8,framerate=25/1"

static gboolean
allocator_is_pinned (GstAllocator * allocator)
{
  return allocator != NULL && g_strcmp0 (allocator->mem_type,
      PINNED_TYPE) == 0;
}

GST_START_TEST (test_offered_pool_is_system_memory)
{
  GstHarness *h = gst_harness_new_parse ("cudafilter backend=cpu");
  GstCaps *caps = gst_caps_from_string (CAPS);
  GstQuery *q;
  GstBufferPool *pool = NULL;
  GstStructure *config;
  GstAllocator *allocator = NULL;
  guint i;

  gst_harness_set_src_caps (h, gst_caps_ref (caps));
  q = gst_query_new_allocation (caps, TRUE);
  fail_unless (gst_pad_peer_query (h->srcpad, q));
  for (i = 0; i < gst_query_get_n_allocation_params (q); i++) {
    gst_query_parse_nth_allocation_param (q, i, &allocator, NULL);
    fail_if (allocator_is_pinned (allocator), "pinned allocator offered");
    gst_clear_object (&allocator);
  }
  fail_unless (gst_query_get_n_allocation_pools (q) > 0);
  gst_query_parse_nth_allocation_pool (q, 0, &pool, NULL, NULL, NULL);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_allocator (config, &allocator, NULL);
  fail_if (allocator_is_pinned (allocator), "pool of pinned memory offered");
  gst_structure_free (config);
  gst_object_unref (pool);
  gst_query_unref (q);
  gst_caps_unref (caps);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_outputs_are_system_memory)
{
  GstHarness *h = gst_harness_new_parse ("cudafilter backend=cpu "
      "frames-in-flight=1");
  GstBuffer *out;

  gst_harness_set_src_caps_str (h, CAPS);
  fail_unless_equals_int (gst_harness_push (h,
          gst_buffer_new_allocate (NULL, 16 * 8, NULL)), GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_if (gst_memory_is_type (gst_buffer_peek_memory (out, 0), PINNED_TYPE),
      "output in pinned memory");
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
cpu_pools_suite (void)
{
  Suite *s = suite_create ("cudafilter-cpu-pools");
  TCase *tc = tcase_create ("pools");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_offered_pool_is_system_memory);
  tcase_add_test (tc, test_outputs_are_system_memory);
  return s;
}

GST_CHECK_MAIN (cpu_pools);
