/* cudafilter
 * Copyright (C) 2026 The cudafilter authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* Buffers whose GstVideoMeta describes more data than they hold (written by
 * another element): an element error naming the plane, never a read past
 * the end; buffers of several memories that do hold their planes pass. */
#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

/* backend=cpu here; CF_TEST_BACKEND=cuda on a GPU host (and under
 * compute-sanitizer). */
static const gchar *
backend (void)
{
  const gchar *b = g_getenv ("CF_TEST_BACKEND");

  return b ? b : "cpu";
}

static GstHarness *
harness (const gchar * caps, GstBus ** bus)
{
  gchar *desc = g_strdup_printf ("cudafilter backend=%s filter=box "
      "frames-in-flight=1", backend ());
  GstHarness *h = gst_harness_new_parse (desc);

  g_free (desc);
  *bus = gst_bus_new ();
  gst_element_set_bus (h->element, *bus);
  gst_harness_set_src_caps_str (h, caps);
  return h;
}

/* The error posted for the buffer, whose text must say what is wrong. */
static void
expect_error (GstBus * bus, const gchar * words)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  GError *err = NULL;

  fail_unless (msg != NULL, "no error posted");
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (strstr (err->message, words) != NULL, "error '%s' does not "
      "say '%s'", err->message, words);
  g_error_free (err);
  gst_message_unref (msg);
}

static void
teardown (GstHarness * h, GstBus * bus)
{
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_START_TEST (test_meta_larger_than_buffer)
{
  GstBus *bus;
  GstHarness *h = harness ("video/x-raw,format=GRAY8,width=640,height=480,"
      "framerate=25/1", &bus);
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 4096, NULL);
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0 };
  gint stride[GST_VIDEO_MAX_PLANES] = { 640 };

  gst_buffer_memset (buf, 0, 1, 4096);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_GRAY8, 640, 480, 1, offset, stride);
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_ERROR);
  expect_error (bus, "plane 0");
  fail_unless_equals_int (gst_harness_buffers_received (h), 0);
  teardown (h, bus);
}

GST_END_TEST;

/* NV12 in two memories, one a plane: the chroma memory is too small. */
static GstBuffer *
nv12_two_memories (gsize chroma_size, guint8 value)
{
  GstBuffer *buf = gst_buffer_new ();
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, 64 * 32 };
  gint stride[GST_VIDEO_MAX_PLANES] = { 64, 64 };
  GstMemory *luma = gst_allocator_alloc (NULL, 64 * 32, NULL);
  GstMemory *chroma = gst_allocator_alloc (NULL, chroma_size, NULL);

  gst_buffer_append_memory (buf, luma);
  gst_buffer_append_memory (buf, chroma);
  gst_buffer_memset (buf, 0, value, gst_buffer_get_size (buf));
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_NV12, 64, 32, 2, offset, stride);
  return buf;
}

#define NV12_CAPS "video/x-raw,format=NV12,width=64,height=32,framerate=25/1"

GST_START_TEST (test_meta_larger_than_second_memory)
{
  GstBus *bus;
  GstHarness *h = harness (NV12_CAPS, &bus);

  fail_unless_equals_int (gst_harness_push (h, nv12_two_memories (100, 7)),
      GST_FLOW_ERROR);
  expect_error (bus, "plane 1");
  teardown (h, bus);
}

GST_END_TEST;

GST_START_TEST (test_two_memories_that_fit)
{
  GstBus *bus;
  GstHarness *h = harness (NV12_CAPS, &bus);
  GstBuffer *out;
  GstMapInfo map;
  gsize i;

  fail_unless_equals_int (gst_harness_push (h,
          nv12_two_memories (64 * 16, 77)), GST_FLOW_OK);
  out = gst_harness_pull (h);
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  /* Box of a constant picture is the constant, in both planes. */
  fail_unless_equals_int (map.size, 64 * 32 * 3 / 2);
  for (i = 0; i < map.size; i++)
    fail_unless_equals_int (map.data[i], 77);
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR) == NULL);
  teardown (h, bus);
}

GST_END_TEST;

static Suite *
lying_meta_suite (void)
{
  Suite *s = suite_create ("cudafilter-lying-meta");
  TCase *tc = tcase_create ("meta");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_two_memories_that_fit);
  tcase_add_test (tc, test_meta_larger_than_second_memory);
  tcase_add_test (tc, test_meta_larger_than_buffer);
  return s;
}

GST_CHECK_MAIN (lying_meta);
